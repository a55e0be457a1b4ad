#!/usr/bin/env bash
# Qt SCXML, the field's C++ anchor, measured in the same run as the Swift benchmarks
# (Scripts/benchmark.sh calls it): qscxmlc compiles the flat and hierarchical charts of the
# benchmarks (Benchmarks/Qt), the ECMAScript counter (Benchmarks/Documents, on Qt's ECMAScript
# data model, QJSEngine) and uSCXML's Transitions.4 and LCCA.4 (../shared/benchmarks/uscxml,
# when present) to C++, g++ builds Benchmarks/Qt/qt-benchmark.cpp against them, and its figures
# go to FOLDER/qt.tsv, which BenchmarkReport prints beside the Swift ones. With --instructions,
# callgrind also counts instructions per event (as for the Swift cases: two runs of 2,000 and
# 22,000 events, the difference divided by 20,000) into FOLDER/instructions.tsv, as qt/NAME.
#
# Needs Debian's qt6-scxml-dev, qt6-base-dev and g++, installed with apt-get when missing (as root
# or through sudo). Where they cannot be installed, it says so and exits with status 0: the report
# then has no Qt rows.
#
# Usage: Scripts/qt-benchmark.sh FOLDER [--instructions]
set -euo pipefail
cd "$(dirname "$0")/.."

folder="${1:?usage: Scripts/qt-benchmark.sh FOLDER [--instructions]}"
instructions="${2:-}"

find_qscxmlc() {
  for candidate in "$(command -v qscxmlc || true)" /usr/lib/qt6/libexec/qscxmlc /usr/lib/qt6/bin/qscxmlc; do
    if [[ -n "$candidate" && -x "$candidate" ]]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}
have_qt() { find_qscxmlc >/dev/null && pkg-config --exists Qt6Scxml Qt6Core 2>/dev/null && command -v g++ >/dev/null; }

if ! have_qt && command -v apt-get >/dev/null; then
  sudo=""
  if [[ "$(id -u)" != "0" ]]; then sudo="sudo -n"; fi
  echo "installing Qt SCXML (qt6-scxml-dev, qt6-base-dev, g++)..." >&2
  if ! $sudo apt-get install -y -qq qt6-scxml-dev qt6-base-dev g++ pkg-config >/dev/null 2>&1; then
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    $sudo apt-get install -y -qq qt6-scxml-dev qt6-base-dev g++ pkg-config >/dev/null 2>&1 || true
  fi
fi
if ! have_qt; then
  echo "Qt SCXML skipped: qscxmlc, Qt6Scxml (pkg-config) or g++ is missing and could not be installed" >&2
  echo "(Debian: apt-get install qt6-scxml-dev qt6-base-dev g++)." >&2
  exit 0
fi

qscxmlc="$(find_qscxmlc)"
build="$folder/qt-build"
mkdir -p "$build"
"$qscxmlc" --classname Flat -o "$build/flat" Benchmarks/Qt/flat.scxml
"$qscxmlc" --classname Deep -o "$build/deep" Benchmarks/Qt/deep.scxml
"$qscxmlc" --classname Counter -o "$build/counter" Benchmarks/Documents/ecmascript-counter.scxml
sources=("$build/flat.cpp" "$build/deep.cpp" "$build/counter.cpp")
defines=()
uscxml="../shared/benchmarks/uscxml"
cases=(flat-3 hierarchy-5 ecmascript-counter)
if [[ -f "$uscxml/Transitions.4.scxml" && -f "$uscxml/LCCA.4.scxml" ]]; then
  "$qscxmlc" --statemethods --classname Transitions4 -o "$build/transitions4" "$uscxml/Transitions.4.scxml"
  "$qscxmlc" --statemethods --classname Lcca4 -o "$build/lcca4" "$uscxml/LCCA.4.scxml"
  sources+=("$build/transitions4.cpp" "$build/lcca4.cpp")
  defines+=(-DWITH_USCXML)
  cases+=(Transitions.4 LCCA.4)
else
  echo "Qt SCXML: the uSCXML charts are not in $uscxml; Transitions.4 and LCCA.4 skipped" >&2
fi
# shellcheck disable=SC2046
g++ -O2 -fPIC -std=c++17 "${defines[@]}" -I"$build" $(pkg-config --cflags Qt6Scxml Qt6Core) \
  Benchmarks/Qt/qt-benchmark.cpp "${sources[@]}" -o "$build/qt-benchmark" $(pkg-config --libs Qt6Scxml Qt6Core)

export QT_QPA_PLATFORM=offscreen
"$build/qt-benchmark" 200000 >"$folder/qt.tsv"
sed 's/^/Qt SCXML: /' "$folder/qt.tsv" >&2

if [[ "$instructions" == "--instructions" ]]; then
  if ! command -v valgrind >/dev/null; then
    echo "--instructions needs valgrind (Debian: apt-get install valgrind)" >&2
    exit 1
  fi
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$build/qt-benchmark" count "$1" "$2" 2>&1 \
      | awk '/refs:/ { gsub(",", "", $4); print $4 }'
  }
  for name in "${cases[@]}"; do
    small=$(count "$name" 2000)
    large=$(count "$name" 22000)
    printf 'qt/%s\t%s\n' "$name" "$(((large - small) / 20000))" >>"$folder/instructions.tsv"
    echo "instructions: qt/$name $(((large - small) / 20000))" >&2
  done
fi
