#!/usr/bin/env bash
# Makes a PostgreSQL server available on loopback for the store's tests, the crash tests and the
# benchmark: installs Debian's postgresql when it is missing (apt-get, as root or through sudo),
# starts its cluster, and creates the role and database `statecharts` (password `statecharts`).
# Prints the URL to use, which the tests read from STATECHARTS_POSTGRES_URL:
#
#   export STATECHARTS_POSTGRES_URL="$(Scripts/postgres.sh)"
#
# Where PostgreSQL cannot be installed, it says so on stderr and exits with status 1.
set -euo pipefail

# Only the URL goes to standard output: whatever the tools print on the way (pg_ctlcluster says
# "Removed stale pid file." when a previous server was killed) goes to standard error.
exec 3>&1 1>&2

sudo=""
if [[ "$(id -u)" != "0" ]]; then sudo="sudo"; fi

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null; then
    echo "postgres.sh: PostgreSQL is not installed and apt-get is not available" >&2
    exit 1
  fi
  echo "postgres.sh: installing postgresql..." >&2
  if ! $sudo apt-get install -y -qq postgresql >/dev/null 2>&1; then
    $sudo apt-get update -qq >/dev/null
    $sudo apt-get install -y -qq postgresql >/dev/null
  fi
fi

version="$(ls /usr/lib/postgresql | sort -n | tail -1)"
if ! pg_lsclusters -h 2>/dev/null | grep -q "^$version main"; then
  $sudo pg_createcluster "$version" main >/dev/null
fi
if ! pg_lsclusters -h | grep -q "^$version main .* online"; then
  # The server outlives this script: it must not inherit any descriptor but a log file, or whoever
  # reads this script's output through a pipe (`$(Scripts/postgres.sh)`) waits for the server to
  # exit. Every descriptor above 2 is closed before pg_ctlcluster runs.
  log="$(mktemp)"
  started=0
  (
    for descriptor in /proc/self/fd/*; do
      number="${descriptor##*/}"
      if [[ "$number" -gt 2 ]]; then eval "exec $number>&-" 2>/dev/null || true; fi
    done
    exec $sudo pg_ctlcluster "$version" main start
  ) </dev/null >"$log" 2>&1 || started=$?
  cat "$log"
  rm -f "$log"
  if [[ $started -ne 0 ]]; then exit 1; fi
fi

as_postgres() { $sudo runuser -u postgres -- "$@"; }
for _ in $(seq 1 50); do
  if as_postgres psql -qtAc "SELECT 1" >/dev/null 2>&1; then break; fi
  sleep 0.2
done
if [[ "$(as_postgres psql -qtAc "SELECT 1 FROM pg_roles WHERE rolname = 'statecharts'")" != "1" ]]; then
  as_postgres psql -qc "CREATE ROLE statecharts LOGIN PASSWORD 'statecharts'" >/dev/null
fi
if [[ "$(as_postgres psql -qtAc "SELECT 1 FROM pg_database WHERE datname = 'statecharts'")" != "1" ]]; then
  as_postgres createdb -O statecharts statecharts
fi
port="$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { print $3 }')"
echo "postgres://statecharts:statecharts@127.0.0.1:$port/statecharts" >&3
