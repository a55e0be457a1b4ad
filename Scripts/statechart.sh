#!/usr/bin/env bash
# Runs the statechart tool: installs JavaScriptCore when it is missing (Scripts/javascriptcore.sh),
# then swift run statechart with the arguments given, from the folder you are in.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/Scripts/javascriptcore.sh"
exec swift run --package-path "$root" statechart "$@"
