#!/usr/bin/env bash
# Installs what the browser test (arena/tests/browser.rs) needs: Debian's chromium and
# the npm package playwright-core (which drives it; it never downloads a browser of its
# own: we never run `npx playwright install`). Does nothing for what is already there.
# Needs root (or sudo) for apt-get the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if ! command -v node >/dev/null; then
    echo "install-browser-deps: node (Node.js 20 or later) is needed" >&2
    exit 1
fi
if [ ! -d arena/web-tests/node_modules/playwright-core ]; then
    (cd arena/web-tests && npm ci --no-audit --no-fund --loglevel=error)
fi
scripts/install-pgn-tools.sh
/usr/bin/chromium --version
