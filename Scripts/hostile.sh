#!/usr/bin/env bash
# Runs `statechart run`, `statechart paths` and `statechart generate` on every hostile document
# (Tests/StatechartToolTests/Fixtures/Hostile, plus a symbolic link out of the document's folder and
# a 1 MB entity made here) as a user would, under
# `ulimit -v 8388608` (8 GiB of address space) and a 30 s timeout, with the default limits. Each
# run must end by itself, with exit status 0 (the document ran, and what it tried was refused) or
# 1 (a limit ended the run), and a message (on standard error, or the run's own lines for a document
# whose attempt simply has no effect, such as forging _event); a timeout, a signal or a crash fails.
#
#   Scripts/hostile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --enable-all-traits --product statechart >/dev/null
bin="$(swift build --enable-all-traits --show-bin-path)/statechart"
fixtures=Tests/StatechartToolTests/Fixtures/Hostile
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The steps that reach what each document does; the others need none.
steps_for() {
  case "$1" in
    timer-every-millisecond.scxml | eventless-loop-rearming-timer.scxml) echo "wait 1h" ;;
    *) echo "" ;;
  esac
}

# What is made here rather than kept as a fixture: a link out of the folder, a large entity.
mkdir -p "$work/outside" "$work/folder"
echo secret > "$work/outside/secret.txt"
ln -s "$work/outside/secret.txt" "$work/folder/data.txt"
cat > "$work/folder/symbolic-link.scxml" <<'EOF'
<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
  <datamodel><data id="d" src="data.txt"/></datamodel>
  <state id="a"/>
</scxml>
EOF
{
  printf '<?xml version="1.0"?>\n<!DOCTYPE scxml [<!ENTITY big "'
  head -c 1048576 /dev/zero | tr '\0' x
  printf '">]>\n<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a"><onentry><log label="&big;"/></onentry></state></scxml>\n'
} > "$work/folder/large-entity.scxml"

failures=0
# Runs the tool with `arguments` on `file` under the memory and time limits, and judges the end.
check() {
  local name="$1" command="$2"
  shift 2
  local started=$SECONDS status message seconds
  set +e
  (ulimit -v 8388608; exec timeout 30 "$bin" "$@") >"$work/out" 2>"$work/err"
  status=$?
  set -e
  seconds=$((SECONDS - started))
  # The last message on standard error, or else the last line of the output (where the document went).
  message="$( (grep -v '^$' "$work/err" || grep -v '^$' "$work/out" || true) | tail -1 | cut -c1-160)"
  if [ "$status" -gt 1 ] || [ -z "$message" ] || grep -qE 'Fatal error|Sanitizer|Segmentation|Illegal instruction' "$work/err"; then
    echo "FAIL $command $name: exit $status after ${seconds}s: ${message:-no message}"
    failures=$((failures + 1))
  else
    echo "ok   $command $name: exit $status after ${seconds}s: $message"
  fi
  if grep -q secret "$work/out"; then
    echo "FAIL $command $name: read a file outside its folder"
    failures=$((failures + 1))
  fi
}
for file in "$fixtures"/*.scxml "$work/folder/symbolic-link.scxml" "$work/folder/large-entity.scxml"; do
  name="$(basename "$file")"
  steps="$(steps_for "$name")"
  arguments=(run "$file")
  if [ -n "$steps" ]; then arguments+=(--events "$steps"); fi
  check "$name" run "${arguments[@]}"
  # The path search runs many sessions of the document: its own time bound ends it.
  check "$name" paths paths "$file" --search-time 10s
  # The generator reads the document and its sources as the interpreter does, and writes Swift.
  check "$name" generate generate "$file"
done
if [ "$failures" -gt 0 ]; then
  echo "$failures hostile documents were not refused cleanly"
  exit 1
fi
echo "every hostile document ended cleanly"
