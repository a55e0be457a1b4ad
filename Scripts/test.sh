#!/usr/bin/env bash
# The test command of the README: installs the C libraries of the default traits when they are missing
# (JavaScriptCore and libedit: Scripts/system-libraries.sh),
# then runs the test suite. Arguments go to swift test.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/system-libraries.sh
swift test --enable-all-traits "$@"
