#!/usr/bin/env bash
# Runs the statechart tool: installs the C libraries of the default traits when they are missing
# (JavaScriptCore and libedit: Scripts/system-libraries.sh),
# then swift run statechart with the arguments given, from the folder you are in.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/Scripts/system-libraries.sh"
exec swift run --package-path "$root" --enable-all-traits statechart "$@"
