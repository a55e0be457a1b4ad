#!/usr/bin/env bash
# Formats every Swift source of the package with the toolchain's swift-format and .swift-format.
# Usage: Scripts/format.sh          format in place
#        Scripts/format.sh --check  report what would change and the lint findings; exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.swift' | grep -v '^Benchmarks/.build' || true)
if [ "${1:-}" = "--check" ]; then
  swift format lint --strict --configuration .swift-format $files
else
  swift format format --in-place --configuration .swift-format $files
fi
