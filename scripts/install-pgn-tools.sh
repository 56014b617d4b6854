#!/usr/bin/env bash
# Installs the independent PGN readers the arena's PGN tests (arena/tests/pgn.rs) read
# its game files with: Debian's pgn-extract and the Python package chess (python-chess,
# for its header reader, which reads games whose moves are not chess). Does nothing for
# what is already there. Needs root (or sudo) for apt-get the first time.
set -euo pipefail
if ! command -v pgn-extract >/dev/null && [ ! -x /usr/games/pgn-extract ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pgn-extract >/dev/null
fi
if ! python3 -c 'import chess.pgn' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check chess
fi
