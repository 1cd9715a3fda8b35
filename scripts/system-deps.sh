#!/usr/bin/env bash
# Debian packages the tests use: chromium (browser tests, driven by Playwright via
# executable_path), espeak-ng and sox (voice tests synthesise speech and noise).
# Installs only what is missing; never fails the build (tests that need a missing
# tool skip with the reason).
set -u
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
command -v sox >/dev/null 2>&1 || need+=(sox)
[ -e /usr/share/fonts/opentype/ipafont-gothic ] || need+=(fonts-ipafont-gothic)
[ ${#need[@]} -eq 0 ] && exit 0
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
    echo "system-deps: not root and no sudo; missing ${need[*]}: tests needing them will skip" >&2
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
echo "system-deps: installing ${need[*]}"
$SUDO apt-get update -qq >/dev/null 2>&1 || true
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
  || echo "system-deps: could not install ${need[*]}; tests needing them will skip" >&2
exit 0
