#!/usr/bin/env bash
# Runs the whole test suite under the thread sanitizer, in its own build folder (.build-tsan) so
# that the normal build is not thrown away.
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --sanitize=thread --scratch-path .build-tsan "$@"
