#!/usr/bin/env bash
# The test command of the README: installs JavaScriptCore when it is missing (Scripts/javascriptcore.sh),
# then runs the test suite. Arguments go to swift test.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/javascriptcore.sh
swift test "$@"
