#!/usr/bin/env bash
# Makes sure the C libraries the package builds against are there: JavaScriptCore's C API for the
# ECMAScript data model (trait ECMAScript), libedit for the repl's line editing (trait
# LineEditing), and SQLite for the product StatechartsStore (GRDB links the system's SQLite).
# Nothing to do on macOS (all are part of the system) or when pkg-config finds
# javascriptcoregtk-4.1, libedit and sqlite3; otherwise installs the Debian packages
# libjavascriptcoregtk-4.1-dev, libedit-dev and libsqlite3-dev with apt-get (through sudo when not
# root). The repository's scripts build with every trait; to build the tool without any of them,
# pass --traits Tools to swift build and swift run instead (an app that does not turn on the
# trait Store never builds against SQLite).
set -euo pipefail

if [[ "$(uname)" == "Darwin" ]]; then exit 0; fi
missing=()
has() { command -v pkg-config >/dev/null && pkg-config --exists "$1"; }
has javascriptcoregtk-4.1 || missing+=(libjavascriptcoregtk-4.1-dev)
has libedit || missing+=(libedit-dev)
has sqlite3 || missing+=(libsqlite3-dev)
if [[ ${#missing[@]} -eq 0 ]]; then exit 0; fi
missing+=(pkg-config)

if ! command -v apt-get >/dev/null; then
  echo "${missing[*]} are missing and apt-get is not available: install your system's JavaScriptCore" >&2
  echo "GTK, libedit and SQLite development packages, or build the tool with --traits Tools alone." >&2
  exit 1
fi
sudo=""
if [[ "$(id -u)" != "0" ]]; then
  if ! command -v sudo >/dev/null; then
    echo "${missing[*]} are missing; install them as root (apt-get install ${missing[*]})," >&2
    echo "or build the tool with --traits Tools alone." >&2
    exit 1
  fi
  sudo="sudo"
fi
echo "installing the libraries the package builds against (${missing[*]})..." >&2
# A fresh machine has no package lists yet: the first try is quiet, and only the try after
# `apt-get update` says why it failed.
if ! $sudo apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
  echo "reading the package lists first (apt-get update)..." >&2
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
pkg-config --exists javascriptcoregtk-4.1 libedit sqlite3
