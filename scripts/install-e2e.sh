#!/usr/bin/env bash
# Installs what the end-to-end suite needs: Debian's chromium (driven by Playwright's
# Python client with executable_path=/usr/bin/chromium) and the Python client itself.
# Idempotent: re-running it installs nothing that is already there. Never runs
# `playwright install` (no browser download): the browser comes from Debian.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

if [ ! -x /usr/bin/chromium ]; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium
fi

PY="${PY:-.venv/bin/python}"
if ! "$PY" -c "import playwright" 2>/dev/null; then
  "$PY" -m pip install --quiet -e '.[dev]'
fi
"$PY" -c "import playwright; print('playwright client ready')"
/usr/bin/chromium --version || true
