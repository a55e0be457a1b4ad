#!/usr/bin/env bash
# Draws again the pictures of charts that the documentation catalogs and the README show, with the
# library's own renderer (`Statechart.svg()`), and writes them where they are kept:
# Sources/*/*.docc/Resources/*.svg and Examples/media-player.svg. The tests that check each
# picture is current (their names say "picture") write it instead when STATECHARTS_REGENERATE is
# set; run this after changing a chart or the renderer, and commit what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
STATECHARTS_REGENERATE=1 swift test --enable-all-traits --filter 'Picture|picture' "$@"
