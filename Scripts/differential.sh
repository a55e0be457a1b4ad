#!/usr/bin/env bash
# Differential runs: random charts without a data model run here and in python-statemachine (the
# reference interpreter of ../shared/oracle, with its document-order fix), configurations compared
# after every event. Charts whose eventless transitions or raised events loop are compared at the
# microstep limit (1000; MICROSTEP_LIMIT changes it), where both engines must stop in the same
# configuration: Scripts/bounded_oracle.py runs the oracle with the same limit, and with its fixes
# for four departures of python-statemachine from the W3C algorithm (ORACLE_FIXES; empty for the
# oracle as it is; see the script). Charts run on every core (JOBS changes it).
#
#   Scripts/differential.sh [COUNT] [SEED] [--qt]     default: 100 charts from seed 1
#
# Sets up .venv-oracle (python-statemachine 3.2.2; with --qt also PySide6 for Qt SCXML) on first
# use. Exits 1 when a chart diverges, printing it; diverging charts are kept in
# .build/differential. Skips, with a message and status 0, when ../shared/oracle or Python is
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-100}"
seed="${2:-1}"
qt="${3:-}"
oracle_dir=../shared/oracle
if [ ! -d "$oracle_dir" ]; then
  echo "differential: $oracle_dir is absent; skipped"; exit 0
fi
if ! command -v python3 >/dev/null; then
  echo "differential: python3 is not installed; skipped"; exit 0
fi
if [ ! -x .venv-oracle/bin/python ] || ! .venv-oracle/bin/python -c 'import statemachine' 2>/dev/null; then
  python3 -m venv .venv-oracle && .venv-oracle/bin/pip install -q 'python-statemachine==3.2.2' || {
    echo "differential: python-statemachine cannot be installed (no network?); skipped"; exit 0; }
fi
swift build --enable-all-traits --product statechart >/dev/null
bin="$(swift build --enable-all-traits --show-bin-path)"
python="$PWD/.venv-oracle/bin/python"
status=0
limit="${MICROSTEP_LIMIT:-1000}"
jobs="${JOBS:-$(nproc)}"
fixes="${ORACLE_FIXES-deep-history,history-content,document-order,exact-clock}"
fix_option=""
if [ -n "$fixes" ]; then fix_option="--fix $fixes"; fi
"$bin/statechart" differential --oracle "$python $PWD/Scripts/bounded_oracle.py $fix_option --limit $limit $PWD/$oracle_dir/psm_trace.py" \
  --microstep-limit "$limit" --jobs "$jobs" --count "$count" --seed "$seed" --keep .build/differential/psm || status=1
if [ "$qt" = "--qt" ]; then
  if ! .venv-oracle/bin/python -c 'import PySide6.QtScxml' 2>/dev/null; then
    .venv-oracle/bin/pip install -q 'PySide6-Essentials==6.12.0' 'PySide6-Addons==6.12.0' || { echo "differential: PySide6 cannot be installed"; exit 1; }
  fi
  # Qt runs on real timers, and its null data model has no In(): no delayed events, no waits,
  # no guards. It has no microstep limit either: charts that stop at ours are skipped.
  "$bin/statechart" differential --oracle "$python $PWD/$oracle_dir/qt_trace.py" --skip-stopped --jobs "$jobs" \
    --count "$count" --seed "$seed" --no-timers --no-guards --keep .build/differential/qt || status=1
fi
exit $status
