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
#       6x6 game takes about half a second of one core (1,000 games: 9 min of CPU at
#       commit 959dfd5).
#   scripts/train-tak.sh tiltak NAME SPEC GAMES SEED TILTAK-BINARY
#       Plays GAMES games of Tiltak against itself (TEI, ST seconds a move, default 0.03,
#       from random 4-ply openings, CONCURRENCY games at once, default 2) with `arena
#       match` and keeps them with Tiltak's own scores as tests/data/tak-train/NAME.txt
#       (scripts/tak-journal-to-data.py). Build Tiltak with scripts/build-tiltak.sh. A
#       strong engine's games and evaluations are better targets than agon's own.
#   scripts/train-tak.sh net
#       Trains the networks of the `net` evaluation of 5x5 and 6x6 (src/games/tak/net.rs) on
#       the kept games, on top of the linear weights in weights.rs, and rewrites
#       src/games/tak/net_weights.rs. Deterministic. About two minutes on two cores.
#       Environment: AGON_NET_EPOCHS (default 12), AGON_NET_LR (default 0.002).
#
# The network learns what the linear weights miss: after a refit of weights.rs, run `net`
# again. One round of training is: selfplay with the current weights, then refit on all kept
# games (for example scripts/train-tak.sh selfplay sp5-r2 "tak size=5" 3000 21 &&
# scripts/train-tak.sh). Environment: AGON_TAK_STEPS (evaluation fit, default 1500),
# AGON_TAK_FREEZE (features kept at zero, by the beginnings of their names, comma-separated),
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
if [[ "${1:-}" == tiltak ]]; then
    if [[ $# -ne 6 ]]; then
        echo "usage: $0 tiltak NAME SPEC GAMES SEED TILTAK-BINARY" >&2
        exit 2
    fi
    name=$2 spec=$3 games=$4 seed=$5 tiltak=$6
    st="${ST:-0.03}"
    if [[ ! -x "$tiltak" ]]; then
        echo "$0: no Tiltak binary at $tiltak (build one with scripts/build-tiltak.sh)" >&2
        exit 2
    fi
    cargo build --release -p arena >&2
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    ./target/release/arena match --no-progress --report-every 0 --game "$spec" \
        --games "$games" --concurrency "${CONCURRENCY:-2}" --seed "$seed" \
        --openings random:4 --max-plies 400 --out "$work" \
        --engine "cmd=$tiltak" name=tiltak-a proto=tei "st=$st" \
        --engine "cmd=$tiltak" name=tiltak-b proto=tei "st=$st" | sed -n '/=== Final ===/,$p' >&2
    version="$(cd "$(dirname "$tiltak")" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    python3 scripts/tak-journal-to-data.py "$work/journal.jsonl" "$spec" \
        "Tiltak (TEI, commit $version) against itself, $games games, st=$st a move, random 4-ply openings, seed $seed." \
        "Made by: scripts/train-tak.sh tiltak $name \"$spec\" $games $seed TILTAK (ST=$st)" \
        >"$work/data.txt"
    # Only a whole file is kept: a refused journal leaves no half-written data behind.
    mv "$work/data.txt" "tests/data/tak-train/$name.txt"
    exit 0
fi
if [[ "${1:-}" == net ]]; then
    cargo test --release --lib tak::net_train::train_net -- --ignored --nocapture
    cargo fmt --all
    git diff --stat -- src/games/tak/net_weights.rs
    exit 0
fi
if [[ $# -ne 0 ]]; then
    echo "$0: unknown command '$1' (selfplay, tiltak, net, or none to refit the linear weights)" >&2
    exit 2
fi
cargo test --release --lib tak::train::train_all -- --ignored --nocapture
cargo fmt --all
git diff --stat -- src/games/tak/weights.rs
