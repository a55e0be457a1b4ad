#!/usr/bin/env bash
# The test command of the README: installs the C libraries the package builds against when they are
# missing (JavaScriptCore, libedit and SQLite: Scripts/system-libraries.sh), then runs the test
# suite with every package trait, so that the tests of the tool, the HTTP processor, the inspector
# and the stores run too (a bare `swift test` runs those of the products with no trait). Arguments
# go to swift test.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/system-libraries.sh
swift test --enable-all-traits "$@"
