#!/usr/bin/env bash
# Runs the statechart tool: installs the C libraries it builds against when they are missing
# (JavaScriptCore, libedit and SQLite: Scripts/system-libraries.sh), then runs
# `swift run --enable-all-traits statechart` with the arguments given, from the folder you are in:
# the tool with every package trait (HTTP, the inspector, the stores).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/Scripts/system-libraries.sh"
exec swift run --package-path "$root" --enable-all-traits statechart "$@"
