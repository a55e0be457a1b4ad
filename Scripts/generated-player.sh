#!/usr/bin/env bash
# The build plugin StatechartsGenerator as a package that uses it meets it: builds and runs
# Examples/GeneratedPlayer (no warnings allowed in it), then builds a copy of it whose document
# names a state that does not exist, which must fail with the document's file, line and column.
#
# Usage: Scripts/generated-player.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

(cd Examples/GeneratedPlayer && swift build 2>&1 | tee "$root/.build-generated-player.log" && swift run GeneratedPlayer) \
  | tee "$root/.build-generated-player.out"
grep -q "wait 5m → \[stopped\]" .build-generated-player.out
if grep -E "^$root/Examples/GeneratedPlayer/.*(warning|error):" .build-generated-player.log; then
  echo "the example package has warnings"
  exit 1
fi

echo "== a document with a mistake fails the build at its line"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/GeneratedPlayer"
sed "s#path: \"../..\"#path: \"$root\"#" Examples/GeneratedPlayer/Package.swift > "$work/Package.swift"
cp Examples/GeneratedPlayer/Sources/GeneratedPlayer/GeneratedPlayer.swift "$work/Sources/GeneratedPlayer/"
sed 's/event="tick" target="playing"/event="tick" target="playng"/' Examples/media-player.scxml \
  > "$work/Sources/GeneratedPlayer/media-player.scxml"
set +e
(cd "$work" && swift build 2>&1) > "$work/build.log"
status=$?
set -e
expected="$work/Sources/GeneratedPlayer/media-player.scxml:19:11: error: the transition on 'tick' from 'playing' targets 'playng'"
if [ "$status" -eq 0 ] || ! grep -qF "$expected" "$work/build.log"; then
  tail -20 "$work/build.log"
  echo "the build did not fail at the document's line (status $status)"
  exit 1
fi
grep -F "media-player.scxml:" "$work/build.log"
echo "the build failed at the document's line, as it should"
