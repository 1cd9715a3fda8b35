#!/usr/bin/env bash
# Debian's chromium for the browser tests (Playwright drives it via executable_path).
set -u
if command -v chromium >/dev/null 2>&1; then exit 0; fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
    echo "ensure-chromium: not root and no sudo; browser tests will be skipped" >&2; exit 0; fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null 2>&1 || true
$SUDO apt-get install -y -qq chromium >/dev/null 2>&1 \
  || echo "ensure-chromium: could not install chromium; browser tests will be skipped" >&2
exit 0
