#!/usr/bin/env bash
# The inspector's page in headless Chromium: `statechart inspect` serves the media player, and
# Scripts/inspector_browser.py drives the page through the DevTools protocol (buttons, event data,
# clock, timeline, resume) and checks the states lit up; then `statechart inspect --clock real`
# serves a document running live, whose timer the page sees fire by itself. Installs Chromium with
# apt-get when it is missing. SCREENSHOT=FILE also saves a picture of the page.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/chromium.sh
swift build --enable-all-traits --product statechart >/dev/null
binary="$(swift build --enable-all-traits --show-bin-path)/statechart"
work="$(mktemp -d)"
# Waits up to 10 s for the server to write its address to the file $1; its output is in $2.
wait_for_address() {
  for _ in $(seq 100); do
    [[ -s "$1" ]] && return 0
    if ! kill -0 $server 2>/dev/null; then cat "$2"; echo "statechart inspect stopped"; exit 1; fi
    sleep 0.1
  done
  cat "$2"
  echo "statechart inspect did not print its address in 10 s"
  exit 1
}
"$binary" inspect Examples/media-player.scxml --url-file "$work/url" >"$work/out" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
wait_for_address "$work/url" "$work/out"
arguments=("$(cat "$work/url")")
[[ -n "${SCREENSHOT:-}" ]] && arguments+=(--screenshot "$SCREENSHOT")
timeout 120 python3 Scripts/inspector_browser.py "${arguments[@]}"
kill $server 2>/dev/null || true
wait $server 2>/dev/null || true

# A document live on the wall clock (IsolatedSCXMLSession on the tool's main actor), attached to
# the inspector as an app attaches one.
"$binary" inspect Tests/DocumentationExamplesTests/Fixtures/kettle.scxml --clock real --url-file "$work/live-url" \
  >"$work/live-out" 2>&1 &
server=$!
wait_for_address "$work/live-url" "$work/live-out"
timeout 120 python3 Scripts/inspector_browser.py "$(cat "$work/live-url")" --live
