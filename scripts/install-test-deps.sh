#!/usr/bin/env bash
# Installs what the test command needs beyond the Rust toolchain, and does nothing for
# what is already there (needs root or sudo for apt-get the first time):
# - bubblewrap: the strict sandbox's namespaces (arena/tests/sandbox.rs, grade.rs);
# - pgn-extract: an independent reader of the arena's PGN files;
# - Debian's chromium and the npm package playwright-core, which drives it for the
#   browser test (arena/tests/browser.rs; it never downloads a browser of its own: we
#   never run `npx playwright install`);
# - a single-node Slurm cluster (Debian's slurm-wlm and munge, started and left running)
#   for arena/tests/slurm.rs: scripts/slurm-cluster.sh start.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v pgn-extract >/dev/null || [ -x /usr/games/pgn-extract ] || missing+=(pgn-extract)
if [ ${#missing[@]} -gt 0 ]; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v node >/dev/null; then
    echo "install-test-deps: node (Node.js 20 or later) is needed" >&2
    exit 1
fi
if [ ! -d arena/web-tests/node_modules/playwright-core ]; then
    (cd arena/web-tests && npm ci --no-audit --no-fund --loglevel=error)
fi
scripts/install-pgn-tools.sh
$SUDO scripts/slurm-cluster.sh start
/usr/bin/chromium --version
bwrap --version
