#!/usr/bin/env bash
# Before the tests: the HTML report test renders in Debian's Chromium. On a fresh machine install it (apt, as root
# or through passwordless sudo); otherwise say exactly what to install. Nothing happens when it is already there.
set -euo pipefail
CHROMIUM=/usr/bin/chromium
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "The report test needs $CHROMIUM: run 'sudo apt-get install -y chromium', then the tests again." >&2
  exit 1
fi
echo "Installing Debian's chromium for the report test (apt-get)…" >&2
"${SUDO[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq chromium >/dev/null
