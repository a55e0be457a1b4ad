#!/usr/bin/env bash
# Installs Chromium with apt-get when neither `chromium` nor `chromium-browser` is on PATH: for the
# scripts that check pages and pictures in headless Chromium (inspector-browser.sh,
# svg-geometry.sh).
set -euo pipefail
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  sudo=""; [[ "$(id -u)" != "0" ]] && sudo="sudo"
  $sudo apt-get install -y -qq chromium >/dev/null || { $sudo apt-get update -qq >/dev/null; $sudo apt-get install -y -qq chromium >/dev/null; }
fi
