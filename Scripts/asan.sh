#!/usr/bin/env bash
# Runs the whole test suite under the address sanitizer, in its own build folder (.build-asan) so
# that the normal build is not thrown away. Leak checking stays on, with the suppressions of
# Scripts/lsan-suppressions.txt (allocations of the runtime, XCTest and Foundation).
set -euo pipefail
cd "$(dirname "$0")/.."
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
swift test --enable-all-traits --sanitize=address --scratch-path .build-asan "$@"
