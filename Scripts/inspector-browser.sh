#!/usr/bin/env bash
# The inspector's page in headless Chromium: `statechart inspect` serves the media player, and
# Scripts/inspector_browser.py drives the page through the DevTools protocol (buttons, event data,
# clock, timeline, resume) and checks the states lit up; then `statechart inspect --clock real`
# serves a document running live, whose timer the page sees fire by itself. Installs Chromium with
# apt-get when it is missing. SCREENSHOT=FILE also saves a picture of the page.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  sudo=""; [[ "$(id -u)" != "0" ]] && sudo="sudo"
  $sudo apt-get install -y -qq chromium >/dev/null || { $sudo apt-get update -qq >/dev/null; $sudo apt-get install -y -qq chromium >/dev/null; }
fi
swift build --product statechart >/dev/null
binary="$(swift build --show-bin-path)/statechart"
work="$(mktemp -d)"
"$binary" inspect Examples/media-player.scxml --url-file "$work/url" >"$work/out" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  [[ -s "$work/url" ]] && break
  if ! kill -0 $server 2>/dev/null; then cat "$work/out"; echo "statechart inspect stopped"; exit 1; fi
  sleep 0.1
done
[[ -s "$work/url" ]] || { cat "$work/out"; echo "statechart inspect did not print its address in 10 s"; exit 1; }
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
for _ in $(seq 100); do
  [[ -s "$work/live-url" ]] && break
  if ! kill -0 $server 2>/dev/null; then cat "$work/live-out"; echo "statechart inspect --clock real stopped"; exit 1; fi
  sleep 0.1
done
[[ -s "$work/live-url" ]] || { cat "$work/live-out"; echo "statechart inspect --clock real did not print its address in 10 s"; exit 1; }
timeout 120 python3 Scripts/inspector_browser.py "$(cat "$work/live-url")" --live
