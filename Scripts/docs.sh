#!/usr/bin/env bash
# Builds the DocC documentation of every library product, treating warnings (such as a broken
# link or an undocumented parameter) as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
# One plugin run for every target: the plugin is resolved and built once, though it still builds
# each target's symbol graph in turn.
targets=()
for target in Statecharts StatechartsSCXML StatechartsECMAScript StatechartsHTTP StatechartsInspector StatechartsTesting StatechartsLogging StatechartsBluetooth StatechartsStore; do
  targets+=(--target "$target")
done
swift package --enable-all-traits generate-documentation "${targets[@]}" --warnings-as-errors "$@"
