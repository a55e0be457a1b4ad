#!/usr/bin/env bash
# Crash tests of durable machines with real processes: workers of statechart-durability send a
# stream of events with delayed events (timers) to thousands of machines and apply them, deliver
# the machines' effects (a receipt per ping, through the outbox, to a receiver that refuses some
# attempts) and their sends to other machines, and are killed with kill -9 at random moments and
# restarted; then a check compares every machine and its journal with what each worker recorded as
# acknowledged, after every timer fell due, and the receipts delivered with the pings applied. One
# line per store:
#
#   <store>: N events acknowledged, 0 lost, 0 duplicated; T timers due, 0 missed, 0 fired twice;
#   E effects due, 0 lost, D delivered again (all with their first key); R sends between machines,
#   0 lost, 0 duplicated; A activities started, 0 lost, 0 duplicated, C cancelled with their state,
#   X run again (all with their first key)
#
# Then the same chart as an SCXML document with ECMAScript data (a delayed <send> for each arm, an
# <invoke> of a Swift invoker for each reservation), to a fifth of the machines (each holds a
# JavaScript virtual machine), on each store: document-sqlite and document-postgres, whose lines
# leave out the effects and sends that leave the fleet, which the document has none of.
#
# SQLite with one worker; PostgreSQL with 4 workers sharing the fleet, when STATECHARTS_POSTGRES_URL
# names a server (Scripts/postgres.sh starts one and prints its URL; without it, PostgreSQL is
# skipped with a message). PostgreSQL runs twice more with faults in the database too: the server
# restarted in the middle of the run (pg_ctlcluster, when the cluster is local), and a proxy on
# loopback (Scripts/fault-proxy.py) that cuts the workers' connections at random.
#
#   Scripts/durability.sh [--kills N] [--events E] [--machines M]     crash tests (default 20 kills per store)
#                         [--only REGEX]                              only the runs whose label matches
#   Scripts/durability.sh --bench [--events E] [--machines M]          the benchmark (release build): throughput,
#                                                                      then latency with another process sending
set -euo pipefail
cd "$(dirname "$0")/.."

kills=20
events=60000
machines=2000
bench=0
only=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --kills) kills="$2"; shift 2 ;;
    --events) events="$2"; shift 2 ;;
    --machines) machines="$2"; shift 2 ;;
    --bench) bench=1; shift ;;
    --only) only="$2"; shift 2 ;;
    *) echo "usage: $0 [--kills N] [--events E] [--machines M] [--only REGEX] [--bench]" >&2; exit 2 ;;
  esac
done

Scripts/system-libraries.sh
work="$(mktemp -d /tmp/statecharts-durability.XXXXXX)"
trap 'jobs -p | xargs -r kill -9 2>/dev/null || true; rm -rf "$work"' EXIT

# build [OPTIONS]: builds the worker quietly, and shows the build's output when it fails.
build() {
  if ! swift build --enable-all-traits "$@" --product statechart-durability >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    echo "durability.sh: building statechart-durability failed" >&2
    exit 1
  fi
  tool="$(swift build --enable-all-traits "$@" --show-bin-path)/statechart-durability"
}
if [[ $bench == 1 ]]; then
  [[ $events == 60000 ]] && events=100000
  [[ $machines == 2000 ]] && machines=10000
  build -c release
else
  build
  # `statechart fleet` shows what each crash test left in its store.
  if ! swift build --enable-all-traits --product statechart >"$work/build-tool.log" 2>&1; then
    cat "$work/build-tool.log" >&2
    echo "durability.sh: building statechart failed" >&2
    exit 1
  fi
  statechart="$(swift build --enable-all-traits --show-bin-path)/statechart"
fi

# selected LABEL: whether --only (when given) takes the run LABEL.
selected() { [[ -z "$only" || "$1" =~ $only ]]; }

# show_errors FILE: what the workers wrote to standard error: a crash's message and the first
# frames of its backtrace (the crashed thread comes first), or else the last lines.
show_errors() {
  if grep -q -e '^\*\*\* ' -e 'Fatal error' "$1"; then
    grep -m 3 -e 'Fatal error' -e '^\*\*\* ' "$1" >&2
    grep -m 1 -A 40 -e '^Thread .* crashed' "$1" >&2 || true
  else
    tail -20 "$1" >&2
  fi
}

# crash_test LABEL STORE WORKERS [WORKER_STORE]: workers killed and restarted KILLS times, then the
# check. The workers use WORKER_STORE when given (the same database through the fault proxy); the
# check always uses STORE.
crash_test() {
  local label="$1" store="$2" workers="$3" worker_store="${4:-$2}"
  if ! selected "$label"; then return 0; fi
  local chart="${CHART:-typed}" machines="${MACHINES:-$machines}"
  "$tool" reset --store "$store"
  local -a pids acks
  start_worker() {
    "$tool" work --store "$worker_store" --worker "$1" --workers "$workers" --machines "$machines" \
      --events "$events" --acks "$work/$label-acks-$1.txt" --deliveries "$work/$label-deliveries.txt" \
      --activities "$work/$label-activities.txt" --chart "$chart" \
      2>>"$work/$label-errors.txt" &
    pids[$1]=$!
  }
  for ((k = 0; k < workers; k++)); do
    acks[$k]="$work/$label-acks-$k.txt"
    : >"${acks[$k]}"
    start_worker "$k"
  done
  local done_kills=0
  while ((done_kills < kills)); do
    sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.2 + (r % 100) / 100 }')"
    local k=$((RANDOM % workers))
    if kill -0 "${pids[$k]}" 2>/dev/null; then
      kill -9 "${pids[$k]}" 2>/dev/null || true
      wait "${pids[$k]}" 2>/dev/null || true
      done_kills=$((done_kills + 1))
      start_worker "$k"
    elif ! jobs -r | grep -q .; then
      echo "$label: the workers finished after $done_kills kills; restarting them for the rest" >&2
      for ((k = 0; k < workers; k++)); do start_worker "$k"; done
      sleep 0.3
      if ! jobs -r | grep -q .; then break; fi
    fi
  done
  for ((k = 0; k < workers; k++)); do
    if ! timeout 300 tail --pid="${pids[$k]}" -f /dev/null; then echo "$label: worker $k did not finish" >&2; exit 1; fi
    wait "${pids[$k]}" || { echo "$label: worker $k failed:" >&2; show_errors "$work/$label-errors.txt"; exit 1; }
  done
  local -a options=()
  for ((k = 0; k < workers; k++)); do options+=(--acks "${acks[$k]}"); done
  echo "$label: $done_kills workers killed with kill -9 and restarted" >&2
  "$tool" check --store "$store" --workers "$workers" --machines "$machines" --events "$events" \
    --deliveries "$work/$label-deliveries.txt" --activities "$work/$label-activities.txt" --label "$label" \
    --chart "$chart" "${options[@]}"
  echo "$label: statechart fleet ${store%%:*}:…" >&2
  "$statechart" fleet "$store" --dead-letters 5 | sed "s/^/  /" >&2
}

# bench_run LABEL STORE WORKERS: WORKERS processes send EVENTS events in all to MACHINES machines.
bench_run() {
  local label="$1" store="$2" workers="$3"
  "$tool" reset --store "$store"
  local -a pids
  for ((k = 0; k < workers; k++)); do
    "$tool" bench --store "$store" --worker "$k" --workers "$workers" --machines "$machines" --events "$events" \
      >"$work/bench-$label-$k.json" &
    pids[$k]=$!
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  "$tool" baseline --store "$store" --events "$events" >"$work/baseline-$label.json"
  python3 - "$label" "$workers" "$work" <<'PY'
import json, sys, glob
label, workers, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runs = [json.load(open(f)) for f in sorted(glob.glob(f"{work}/bench-{label}-*.json"))]
base = json.load(open(f"{work}/baseline-{label}.json"))
events = sum(r["events"] for r in runs)
start = min(r["started"] for r in runs)
acked = (max(r["acknowledged"] for r in runs) - start) / 1e9
applied = (max(r["applied"] for r in runs) - start) / 1e9
baseline = base["events"] / ((base["applied"] - base["started"]) / 1e9)
p50 = max(r["p50"] for r in runs) / 1e6
p99 = max(r["p99"] for r in runs) / 1e6
print(f"| {label} | {workers} | {events} | {events / applied:,.0f} | {events / acked:,.0f} | {p50:.1f} | {p99:.1f} | {baseline:,.0f} | {events / applied / baseline:.2f}x |")
PY
}

# latency_run LABEL STORE: a worker process (serve) applies what another process sends (pace), at
# 1,000 events/s and then as fast as it can; one line each, from each event's acknowledgement to
# its application, and from the send's call.
latency_run() {
  local label="$1" store="$2"
  "$tool" reset --store "$store"
  "$tool" serve --store "$store" --seconds 600 2>>"$work/serve-$label.txt" &
  local server=$!
  sleep 1
  for rate in 1000 0; do
    "$tool" pace --store "$store" --rate "$rate" --seconds 10 --machines 1000 >"$work/pace-$label-$rate.json"
    python3 - "$label" "$rate" "$work/pace-$label-$rate.json" <<'PY'
import json, sys
label, rate, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
r = json.load(open(path))
load = f"{rate:,} events/s" if rate else "full load"
print(f"| {label} | {load} | {r['rate']:,} | {r['applied']:,} | {r['ack_p50_ms']:.1f} | {r['ack_p99_ms']:.1f} | {r['call_p50_ms']:.1f} | {r['call_p99_ms']:.1f} |")
PY
  done
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
}

postgres="${STATECHARTS_POSTGRES_URL:-}"
if [[ $bench == 1 ]]; then
  echo "| Store | Workers | Events | Applied events/s | Acknowledged events/s | p50 ack ms | p99 ack ms | Baseline inserts/s | Ratio to baseline |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  bench_run sqlite "sqlite:$work/bench.sqlite" 1
  if [[ -n "$postgres" ]]; then
    bench_run postgres-1 "$postgres" 1
    bench_run postgres-4 "$postgres" 4
  else
    echo "PostgreSQL skipped: set STATECHARTS_POSTGRES_URL (export STATECHARTS_POSTGRES_URL=\"\$(Scripts/postgres.sh)\")" >&2
  fi
  echo
  echo "| Store | Load | Sent events/s | Applied | p50 ack→applied ms | p99 ack→applied ms | p50 send→applied ms | p99 send→applied ms |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  latency_run sqlite "sqlite:$work/latency.sqlite"
  if [[ -n "$postgres" ]]; then latency_run postgres "$postgres"; fi
  exit 0
fi

crash_test sqlite "sqlite:$work/fleet.sqlite" 1
if [[ -n "$postgres" ]]; then
  crash_test postgres "$postgres" 4
  # Faults in the database itself, with the same kills: the server restarted in the middle of the
  # run, then a proxy on loopback that cuts connections at random.
  cluster="$(pg_lsclusters --no-header 2>/dev/null | awk '$4 == "online" { print $1 " " $2; exit }')"
  if selected postgres-restart; then
    if [[ -n "$cluster" ]]; then
      (sleep 4; pg_ctlcluster $cluster restart && echo "postgres-restart: the server restarted ($cluster)" >&2) &
      restarter=$!
      crash_test postgres-restart "$postgres" 4
      wait "$restarter" || { echo "postgres-restart: restarting the server failed" >&2; exit 1; }
    else
      echo "postgres-restart skipped: no local cluster that pg_ctlcluster can restart" >&2
    fi
  fi
  if selected postgres-proxy; then
    python3 Scripts/fault-proxy.py --target "$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(f"{p.hostname}:{p.port or 5432}")' "$postgres")" \
      --mean-seconds 0.5 >"$work/proxy-port.txt" 2>"$work/proxy-cuts.txt" &
    proxy=$!
    for _ in $(seq 50); do [[ -s "$work/proxy-port.txt" ]] && break; sleep 0.1; done
    proxied="$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(p._replace(netloc=p.netloc.rsplit(":", 1)[0] + ":" + sys.argv[2]).geturl() if p.port else p._replace(netloc=p.netloc + ":" + sys.argv[2]).geturl())' "$postgres" "$(cat "$work/proxy-port.txt")")"
    crash_test postgres-proxy "$postgres" 4 "$proxied"
    kill "$proxy" 2>/dev/null || true
    echo "postgres-proxy: the proxy cut $(grep -c 'cut connection' "$work/proxy-cuts.txt") connections" >&2
  fi
else
  echo "PostgreSQL skipped: set STATECHARTS_POSTGRES_URL (export STATECHARTS_POSTGRES_URL=\"\$(Scripts/postgres.sh)\")" >&2
fi
# The document, with the same kills and events.
document_machines=$((machines / 5 > 0 ? machines / 5 : 1))
CHART=document MACHINES=$document_machines crash_test document-sqlite "sqlite:$work/document.sqlite" 1
if [[ -n "$postgres" ]]; then
  CHART=document MACHINES=$document_machines crash_test document-postgres "$postgres" 4
fi
