#!/usr/bin/env bash
# The geometry of `statechart graph --format svg` (the library's own layout), in headless Chromium:
# the pictures of the bundled examples and of every SCION chart (../shared/conformance/scion, when
# it is there) are drawn, and Scripts/svg_geometry.py checks on the browser's own text boxes that no
# transition label overlaps another label or a state's name, and that every state is drawn inside
# the picture. Installs Chromium with apt-get when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/chromium.sh
swift build --enable-all-traits --product statechart >/dev/null
binary="$(swift build --enable-all-traits --show-bin-path)/statechart"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
charts=(Examples/*.scxml)
if [[ -d ../shared/conformance/scion ]]; then
  while IFS= read -r chart; do charts+=("$chart"); done < <(find ../shared/conformance/scion -name '*.scxml' | sort)
else
  echo "svg-geometry: ../shared/conformance/scion is absent: the bundled examples only" >&2
fi
pictures=()
for chart in "${charts[@]}"; do
  picture="$work/$(echo "$chart" | tr '/.' '__').svg"
  # A chart the tool cannot read (a SCION chart of an unsupported feature) has no picture to check.
  if "$binary" graph "$chart" --format svg -o "$picture" 2>/dev/null; then pictures+=("$picture"); fi
done
timeout 600 python3 Scripts/svg_geometry.py "${pictures[@]}"
