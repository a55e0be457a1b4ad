#!/usr/bin/env bash
# The repl on a terminal, as a person uses it: tmux runs `statechart repl` in a pane, keys go in
# with send-keys and the screen comes back with capture-pane. Checks line editing (Ctrl-A,
# Ctrl-D), Tab completion of the events the active states handle and of the commands, :wait,
# :undo, :state, :help, and the history kept across two runs. Installs tmux with apt-get when it
# is missing; every wait for the screen is bounded (10 s).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v tmux >/dev/null; then
  sudo=""; [[ "$(id -u)" != "0" ]] && sudo="sudo"
  $sudo apt-get install -y -qq tmux >/dev/null || { $sudo apt-get update -qq >/dev/null; $sudo apt-get install -y -qq tmux >/dev/null; }
fi
swift build --enable-all-traits --product statechart >/dev/null
binary="$(swift build --enable-all-traits --show-bin-path)/statechart"
work="$(mktemp -d)"
socket="$work/tmux.socket"
export STATECHART_HISTORY="$work/history"
trap 'tmux -S "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

# Starts the repl in a new tmux server; a server that dies as it starts (seen once on a loaded
# machine: "server exited unexpectedly") is started again, up to three times.
start() {
  for attempt in 1 2 3; do
    if tmux -S "$socket" new-session -d -x 250 -y 50 "$binary repl Examples/lamp.scxml; sleep 30"; then return 0; fi
    echo "repl-tmux: tmux could not start (attempt $attempt of 3)" >&2
    tmux -S "$socket" kill-server 2>/dev/null || true
    sleep 1
  done
  return 1
}
screen() { tmux -S "$socket" capture-pane -p -S -; }
keys() { tmux -S "$socket" send-keys "$@"; }
# Waits until the screen has TEXT on a line of its own: up to 100 times 0.1 s.
expect_line() {
  for _ in $(seq 100); do
    if screen | grep -qxF -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "repl-tmux: the screen never showed the line: $1" >&2
  screen >&2
  exit 1
}

# Waits until the repl shows its prompt on the last line, reading keys with line editing: keys sent
# before it would meet the terminal in its ordinary mode, where Tab is a tab (seen in CI once).
prompt() {
  for _ in $(seq 100); do
    if [[ "$(screen | sed '/^$/d' | tail -n 1)" == ">" ]]; then return 0; fi
    sleep 0.1
  done
  echo "repl-tmux: the screen never ended with the prompt" >&2
  screen >&2
  exit 1
}

start
expect_line "start → [off]"
prompt
# Tab completes the one event [off] handles.
keys "tog" Tab; expect_line "> toggle"; keys Enter
expect_line "toggle → [dim]"
prompt
# Line editing: Ctrl-A goes to the start, Ctrl-D deletes the character there.
keys "xbrighter" C-a C-d Enter
expect_line "brighter → [bright]"
prompt
# Tab completes commands too.
keys ":un" Tab; expect_line "> :undo"; keys Enter
expect_line "undo → [dim]"
prompt
keys ":wait 61s" Enter
expect_line "wait 61s → [off]"
prompt
keys ":state" Enter
expect_line "configuration: [off]"
prompt
keys ":help" Enter
expect_line "an event name sends it (NAME=JSON with data); :wait 5s lets time pass; :state shows every active state; :undo goes back one step; :quit leaves"
prompt
keys ":quit" Enter
for _ in $(seq 100); do grep -qxF ":quit" "$STATECHART_HISTORY" 2>/dev/null && break; sleep 0.1; done
tmux -S "$socket" kill-server
# A second run: the arrow keys bring back the first run's lines.
start
expect_line "start → [off]"
prompt
keys Up; expect_line "> :quit"
keys Up Up Up Up; expect_line "> :undo"
keys C-u "toggle" Enter
expect_line "toggle → [dim]"
echo "repl-tmux: line editing, completion, :undo, :wait, :state, :help and the history work on a terminal"
