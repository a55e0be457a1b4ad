#!/usr/bin/env bash
# Builds and runs the benchmarks (Benchmarks/, release build) and prints the results as ratios to
# the hand-written `switch` measured in the same run, then the machine the run was made on.
#
# Usage: Scripts/benchmark.sh [--filter REGEX]   extra arguments go to `swift package benchmark`
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
swift package --disable-sandbox --allow-writing-to-directory "$results" benchmark \
  --no-progress --format histogramPercentiles --time-units nanoseconds --path "$results" "$@" >&2
swift run -c release --quiet BenchmarkReport "$results"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>&1 | head -1)"
