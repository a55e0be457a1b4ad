#!/usr/bin/env bash
# Builds the DocC documentation of every library product, treating warnings (such as a broken
# link or an undocumented parameter) as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
for target in Statecharts StatechartsSCXML StatechartsECMAScript StatechartsHTTP StatechartsInspector StatechartsTesting StatechartsLogging StatechartsBluetooth StatechartsStore; do
  swift package generate-documentation --target "$target" --warnings-as-errors "$@"
done
