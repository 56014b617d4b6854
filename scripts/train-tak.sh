#!/usr/bin/env bash
# Tak's fitted weights (src/games/tak/weights.rs) from agon's own self-play games.
#
#   scripts/train-tak.sh
#       Refits the evaluation and the move scores of 5x5 and 6x6 on the kept games
#       (tests/data/tak-train/*.txt) and rewrites src/games/tak/weights.rs. Deterministic:
#       on the kept data it writes the file as committed. A few minutes.
#   scripts/train-tak.sh selfplay NAME SPEC GAMES SEED
#       Plays GAMES new self-play games of this build's engine (10,000 nodes a move, two
#       threads) and keeps them as tests/data/tak-train/NAME.txt, its header naming the
#       command and the commit. Add a line for it to tests/data/tak-train/README.md. A
#       5x5 game takes about a second of one core, a 6x6 game about three.
#
# One round of training is: selfplay with the current weights, then refit on all kept
# games (for example scripts/train-tak.sh selfplay sp5-r2 "tak size=5" 3000 21 &&
# scripts/train-tak.sh). Environment: AGON_TAK_STEPS (evaluation fit, default 1500),
# AGON_TAK_EPOCHS (move scores, default 6), NODES (selfplay, default 10000).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [[ "${1:-}" == selfplay ]]; then
    if [[ $# -ne 5 ]]; then
        echo "usage: $0 selfplay NAME SPEC GAMES SEED" >&2
        exit 2
    fi
    name=$2 spec=$3 games=$4 seed=$5
    cargo build --release -p agon >&2
    commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo '+uncommitted changes')"
    ./target/release/agon selfplay --game "$spec" --games "$games" --nodes "${NODES:-10000}" \
        --seed "$seed" --threads 2 --note "engine: agon at commit $commit" \
        --out "tests/data/tak-train/$name.txt"
    exit 0
fi
cargo test --release --lib tak::train::train_all -- --ignored --nocapture
cargo fmt --all
git diff --stat -- src/games/tak/weights.rs
