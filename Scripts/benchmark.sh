#!/usr/bin/env bash
# Builds and runs the benchmarks (Benchmarks/, release build) and prints the results as ratios to
# the hand-written `switch` measured in the same run, then the machine the run was made on.
#
# Usage: Scripts/benchmark.sh [--repeat N] [--instructions | --no-instructions] [--filter REGEX]
#        Scripts/benchmark.sh --scale [COUNT]
#
#   (always)        the checklist's timed figures (Benchmarks/Sources/Ratios): each case and its
#                   `switch` run interleaved in one process, 101 times, each time on machines placed
#                   anew, and the ratio taken per repetition; the checklist judges the median with
#                   its spread (the third quartile must be within the target). A repetition
#                   during which a fixed probe saw the host busy is measured again. uSCXML's
#                   charts are measured the same way, as entries of `mark` per second (the first
#                   quartile must reach 20 times uSCXML's published figure). Package-benchmark
#                   runs the rest (allocations, live machines, the player).
#                   Evolution/0003-performance.md, "Figures that hold", says why.
#   --repeat N      runs the whole suite N times (building once), prints each run's report, then
#                   how many of the N runs met each line of the checklist.
#   --instructions  also counts instructions per event of each case under valgrind's callgrind
#                   (Debian: apt-get install valgrind): the stable figure beside the times, and the
#                   one the live machines' targets are stated in. Each case runs twice, with 2,000
#                   and 22,000 events; the difference divided by 20,000 cancels start-up. The
#                   default whenever valgrind is installed; without it, the live lines are judged
#                   on time instead (where `IsolatedStatechart` reads about 2.1x, against 1.8x in
#                   instructions), and the script says so.
#   --no-instructions  skips the counting (the live lines are then judged on time).
#   (always)        Qt SCXML, the field's C++ anchor, on the same flat and hierarchical charts, the
#                   ECMAScript counter (Benchmarks/Documents, on both ECMAScript data models) and
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

instructions=auto
repeats=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --instructions) instructions=1; shift ;;
    --no-instructions) instructions=0; shift ;;
    --repeat)
      if ! [[ "${2:-}" =~ ^[1-9][0-9]*$ ]]; then
        echo "--repeat needs a count of runs (1 or more)" >&2
        exit 2
      fi
      repeats="$2"
      shift 2
      ;;
    *) break ;;
  esac
done
if [[ "$instructions" == 1 ]] && ! command -v valgrind >/dev/null; then
  echo "--instructions needs valgrind (Debian: apt-get install valgrind)" >&2
  exit 1
fi
if [[ "$instructions" == auto ]]; then
  if command -v valgrind >/dev/null; then
    instructions=1
  else
    instructions=0
    echo "valgrind is not installed: the live machines' lines, whose targets are instruction counts," >&2
    echo "are judged on time instead (Debian: apt-get install valgrind)" >&2
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product Ratios >&2
swift build -c release --product BenchmarkReport >&2
if [[ "$instructions" == 1 ]]; then
  swift build -c release --product Profile >&2
  # valgrind 3.19 reads Swift's DWARF 5 badly: it runs a copy without debug information.
  profile="$work/Profile"
  cp .build/release/Profile "$profile"
  strip --strip-debug "$profile"
fi
ratios_repetitions=101

# One whole run of the suite, its results in folder $1; prints its report.
run_suite() {
  local results="$1"
  shift
  mkdir -p "$results"
  swift package --disable-sandbox --allow-writing-to-directory "$results" benchmark \
    --no-progress --format histogramPercentiles --time-units nanoseconds --path "$results" "$@" >&2
  # What Ratios says on standard error (repetitions measured again, charts absent) goes in the
  # report, and to the terminal whether or not it succeeded.
  local ratios_status=0
  .build/release/Ratios --repetitions "$ratios_repetitions" >"$results/ratios.tsv" \
    2>"$results/ratios-notes.txt" || ratios_status=$?
  cat "$results/ratios-notes.txt" >&2
  if [[ "$ratios_status" != 0 ]]; then
    echo "Ratios failed (exit status $ratios_status)" >&2
    exit "$ratios_status"
  fi
  echo "$ratios_repetitions" >"$results/ratios-repetitions.txt"

  if [[ "$instructions" == 1 ]]; then
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
    # Qt SCXML in the same run, when Qt can be installed (skipped with a message otherwise).
    ../Scripts/qt-benchmark.sh "$results" --instructions
  else
    ../Scripts/qt-benchmark.sh "$results"
  fi

  .build/release/BenchmarkReport "$results"
}

machine="Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>&1 | head -1)"

if [[ "$repeats" == 1 ]]; then
  run_suite "$work/run" "$@"
  echo
  echo "$machine"
  exit 0
fi

for run in $(seq 1 "$repeats"); do
  echo "Run $run of $repeats ($(date -u '+%Y-%m-%d %H:%M UTC')):"
  run_suite "$work/run-$run" "$@" | tee "$work/report-$run.md"
  echo
done
echo "Checklist lines met, of $repeats runs:"
echo
# Each report ends with its checklist, one "- [x] LINE" (met) or "- [ ] LINE" (missed) per line.
cat "$work"/report-*.md | awk -v runs="$repeats" '
  /^- \[[x ]\] / {
    line = substr($0, 7)
    if (!(line in met)) { order[++count] = line; met[line] = 0 }
    if (substr($0, 4, 1) == "x") met[line]++
  }
  END { for (i = 1; i <= count; i++) printf "- %d/%d %s\n", met[order[i]], runs, order[i] }'
echo
echo "$machine"
