#!/usr/bin/env bash
# Builds and runs the benchmarks (Benchmarks/, release build) and prints the results as ratios to
# the hand-written `switch` measured in the same run, then the machine the run was made on.
#
# Usage: Scripts/benchmark.sh [--instructions] [--filter REGEX]
#        Scripts/benchmark.sh --scale [COUNT]
#
#   --instructions  also counts instructions per event of each case under valgrind's callgrind
#                   (Debian: apt-get install valgrind): the stable figure beside the times, which
#                   move by tens of percent between runs on a shared machine. Each case runs twice,
#                   with 2,000 and 22,000 events; the difference divided by 20,000 cancels start-up.
#   (always)        Qt SCXML, the field's C++ anchor, on the same flat and hierarchical charts and
#                   uSCXML's Transitions.4 and LCCA.4, in the same run (Scripts/qt-benchmark.sh:
#                   qscxmlc and g++, Debian's qt6-scxml-dev installed when missing, skipped with a
#                   message where it cannot be), as ratios to the same-run switch.
#   --scale         instead, holds COUNT (1,000,000) `StatechartActor`s on the real clock, each
#                   re-arming a ten-second timeout, for 25 s: memory per machine, and how many
#                   timeouts fired of those due.
#
# Other arguments go to `swift package benchmark`.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

if [[ "${1:-}" == "--scale" ]]; then
  swift build -c release --product Profile >&2
  .build/release/Profile million "${2:-1000000}" | grep -v "per event"
  exit 0
fi

instructions=0
if [[ "${1:-}" == "--instructions" ]]; then
  instructions=1
  shift
fi

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
swift package --disable-sandbox --allow-writing-to-directory "$results" benchmark \
  --no-progress --format histogramPercentiles --time-units nanoseconds --path "$results" "$@" >&2

if [[ "$instructions" == 1 ]]; then
  if ! command -v valgrind >/dev/null; then
    echo "--instructions needs valgrind (Debian: apt-get install valgrind)" >&2
    exit 1
  fi
  swift build -c release --product Profile >&2
  # valgrind 3.19 reads Swift's DWARF 5 badly: it runs a copy without debug information.
  profile="$results/Profile"
  cp .build/release/Profile "$profile"
  strip --strip-debug "$profile"
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$profile" "$1" "$2" 2>&1 \
      | awk '/refs:/ { gsub(",", "", $4); print $4 }'
  }
  for name in $("$profile" list); do
    small=$(count "$name" 2000)
    large=$(count "$name" 22000)
    printf '%s\t%s\n' "$name" "$(( (large - small) / 20000 ))" >>"$results/instructions.tsv"
    echo "instructions: $name $(( (large - small) / 20000 ))" >&2
  done
fi

# Qt SCXML in the same run, when Qt can be installed (skipped with a message otherwise).
if [[ "$instructions" == 1 ]]; then
  ../Scripts/qt-benchmark.sh "$results" --instructions
else
  ../Scripts/qt-benchmark.sh "$results"
fi

swift run -c release --quiet BenchmarkReport "$results"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>&1 | head -1)"
