#!/usr/bin/env bash
# Runs the hostile cases of Tests/HostileSurfaces (Scripts/hostile_surfaces.py) against the
# surfaces beside the document path: the inspector, the graph writers, the generator, the
# reader's per-element counts, terminal output, pipes and child processes, the Basic HTTP
# processor's client, and `statechart fleet` on a store whose rows another writer chose. Each case
# file says what it does, what must happen, and why. Graphviz is installed when missing (two cases
# need `dot`); everything runs on loopback.
#
#   Scripts/hostile-surfaces.sh [CASE ...]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v dot >/dev/null; then
  sudo=""; [[ "$(id -u)" != "0" ]] && sudo="sudo"
  $sudo apt-get install -y -qq graphviz >/dev/null 2>&1 || {
    $sudo apt-get update -qq >/dev/null 2>&1; $sudo apt-get install -y -qq graphviz >/dev/null 2>&1 || true; }
fi
swift build --enable-all-traits --product statechart >/dev/null
exec python3 Scripts/hostile_surfaces.py "$(swift build --enable-all-traits --show-bin-path)/statechart" "$@"
