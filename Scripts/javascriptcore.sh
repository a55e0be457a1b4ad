#!/usr/bin/env bash
# Makes sure JavaScriptCore's C API is there for the ECMAScript data model (the package trait
# ECMAScript, on by default): nothing to do on macOS (a system framework) or when pkg-config finds
# javascriptcoregtk-4.1; otherwise installs the Debian package libjavascriptcoregtk-4.1-dev with
# apt-get (through sudo when not root). To build without JavaScriptCore instead, pass
# --disable-default-traits to swift build, swift test and swift run.
set -euo pipefail

if [[ "$(uname)" == "Darwin" ]]; then exit 0; fi
if command -v pkg-config >/dev/null && pkg-config --exists javascriptcoregtk-4.1; then exit 0; fi

if ! command -v apt-get >/dev/null; then
  echo "JavaScriptCore (javascriptcoregtk-4.1) is missing and apt-get is not available: install" >&2
  echo "your system's JavaScriptCore GTK development package, or build with --disable-default-traits." >&2
  exit 1
fi
sudo=""
if [[ "$(id -u)" != "0" ]]; then
  if ! command -v sudo >/dev/null; then
    echo "JavaScriptCore (javascriptcoregtk-4.1) is missing; install libjavascriptcoregtk-4.1-dev as root" >&2
    echo "(apt-get install libjavascriptcoregtk-4.1-dev), or build with --disable-default-traits." >&2
    exit 1
  fi
  sudo="sudo"
fi
echo "installing JavaScriptCore for the ECMAScript data model (libjavascriptcoregtk-4.1-dev)..." >&2
if ! $sudo apt-get install -y -qq libjavascriptcoregtk-4.1-dev pkg-config >/dev/null; then
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq libjavascriptcoregtk-4.1-dev pkg-config >/dev/null
fi
pkg-config --exists javascriptcoregtk-4.1
