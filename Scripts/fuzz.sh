#!/usr/bin/env bash
# Fuzzes, with libFuzzer and the address sanitizer, one of:
#   reader   the SCXML reader, and what builds, writes, checks and runs a chart;
#   session  documents loaded with every data model (ECMAScript included) and driven with events
#            and clock advances under tight limits (Fuzz/Sources/SessionFuzzer);
#   chart    charts of the shared generator (RandomChart) run through the quick step and the
#            general path side by side, which must agree on every step (Fuzz/Sources/ChartFuzzer);
#   script   the step scripts of `statechart run`;
#   archive  archives of machines and of sessions, hostile or hand-edited, restored and run
#            (Fuzz/Sources/ArchiveFuzzer): each must end in a value or a typed error.
#
#   Scripts/fuzz.sh [SECONDS] [reader|session|chart|script|archive] [RUNS]
#
# 300 seconds and the reader by default; RUNS, when given, ends the run after that many inputs
# instead (`Scripts/fuzz.sh 3600 archive 1000000`).
#
# The reader's and the session's corpora start from the conformance suites in ../shared (read in
# place, copied only into .build/fuzz), the examples and, for the session, the hostile documents of
# Tests/StatechartToolTests/Fixtures/Hostile; the chart fuzzer's from eight fixed pseudo-random
# tapes; the script fuzzer's from a few scripts. Inputs that crash or hang are written to
# .build/fuzz/findings; turn each into a fixture under Tests/StatechartsSCXMLTests/Fixtures/Fuzz.
# Leak detection is off: FoundationXML leaks about 72 bytes (the CFString of its error) for every
# malformed document, which is not ours and would fill the report.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
target="${2:-reader}"
work=.build/fuzz
mkdir -p "$work/corpus-$target" "$work/seeds-$target" "$work/findings"
# The documents of the conformance suites and the examples, as seeds.
copy_documents() {
  if [ -d ../shared/conformance ]; then
    find ../shared/conformance -name '*.scxml' -exec cp {} "$work/seeds-$target/" \;
  else
    echo "../shared/conformance is absent: the $target corpus starts without the suites"
  fi
  cp Examples/*.scxml "$work/seeds-$target/"
}
case "$target" in
  reader)
    product=SCXMLReaderFuzzer
    copy_documents
    ;;
  session)
    product=SessionFuzzer
    copy_documents
    # The fuzzer saves each input as document.scxml: a document that invokes itself by name must
    # name that file. Each hostile document gets a drive that reaches what it does.
    for file in Tests/StatechartToolTests/Fixtures/Hostile/*.scxml; do
      name="$(basename "$file")"
      sed "s/src=\"$name\"/src=\"document.scxml\"/" "$file" > "$work/seeds-$target/hostile-$name"
      printf '\n<!--drive: ping, pong, real, tick, due, wait 2s, wait 1h-->\n' >> "$work/seeds-$target/hostile-$name"
    done
    ;;
  chart)
    product=ChartFuzzer
    # Tapes: the first 240 bytes decide the chart, the rest the run of events and waits.
    for seed in 1 2 3 4 5 6 7 8; do
      LC_ALL=C awk -v seed="$seed" 'BEGIN { srand(seed); for (i = 0; i < 400; i++) printf "%c", int(rand() * 255) + 1 }' \
        > "$work/seeds-$target/tape-$seed"
    done
    ;;
  script)
    product=ScriptFuzzer
    printf 'play\nwait 2s\n# comment\npause\n' > "$work/seeds-$target/one"
    printf 'toggle,+60s,brighter' > "$work/seeds-$target/two"
    ;;
  archive)
    product=ArchiveFuzzer
    ;;
  *) echo "unknown target '$target': reader, session, chart, script or archive" >&2; exit 2 ;;
esac
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
(cd Fuzz && swift build "${flags[@]}" --product "$product")
binary="$(cd Fuzz && swift build "${flags[@]}" --show-bin-path)/$product"
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# The archive fuzzer's seeds are archives the library itself writes.
if [ "$target" = archive ]; then "$binary" --write-seeds "$work/seeds-$target"; fi
runs=()
if [ -n "${3:-}" ]; then runs=(-runs="$3"); fi
# A failed precondition ends the input at once: Swift's backtracer would read the stack (which the
# address sanitizer reports as an error of its own) and then keep the process waiting.
export SWIFT_BACKTRACE=enable=no
"$binary" "$work/corpus-$target" "$work/seeds-$target" \
  -max_total_time="$seconds" -max_len=20000 -timeout=10 -detect_leaks=0 \
  -artifact_prefix="$work/findings/" -print_final_stats=1 "${runs[@]}" 2>&1 | tee "$work/$target.log" | grep -E '^#[0-9]+.*(pulse|DONE)|^Done|ERROR|SUMMARY|stat::' || true
if ls "$work/findings/"* >/dev/null 2>&1; then
  echo "findings in $work/findings:"; ls -l "$work/findings"
  exit 1
fi
echo "no crash, no hang"
