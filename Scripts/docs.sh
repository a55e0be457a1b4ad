#!/usr/bin/env bash
# Builds the DocC documentation of every library, treating warnings (such as a broken link or an
# undocumented parameter) as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package generate-documentation --target Statecharts --warnings-as-errors "$@"
