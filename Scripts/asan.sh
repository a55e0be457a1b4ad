#!/usr/bin/env bash
# Runs the whole test suite under the address sanitizer, in its own build folder (.build-asan) so
# that the normal build is not thrown away.
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --sanitize=address --scratch-path .build-asan "$@"
