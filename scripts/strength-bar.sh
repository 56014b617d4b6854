#!/usr/bin/env bash
# The strength bar of issue #6, reproducible: on each game, agon's default engine against
# plain minimax at depth 3 with the game's simple heuristic (200 games), and against plain
# alpha-beta without move ordering at depth 3 (100 games), at equal time per move.
#
#   scripts/strength-bar.sh [OUT]          (default OUT: strength-out)
#
# Environment: AGON (the agon binary, default target/release/agon), ARENA (default
# target/release/arena), ST (seconds per move, default 0.05), GAMES (default 200),
# AB_GAMES (default 100), CONCURRENCY (default 2), SEED (default 6), ONLY (a game name to
# run alone: mnk, clobber, halma or tak). Each match's summary goes to OUT/<game>-<opponent>.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-strength-out}"
agon="${AGON:-$root/target/release/agon}"
arena="${ARENA:-$root/target/release/arena}"
st="${ST:-0.05}"
games="${GAMES:-200}"
ab_games="${AB_GAMES:-100}"
conc="${CONCURRENCY:-2}"
seed="${SEED:-6}"
mkdir -p "$out"
# game name | game spec | the simple heuristic of that game's issue
while IFS='|' read -r name spec simple; do
    if [[ -n "${ONLY:-}" && "$ONLY" != "$name" ]]; then continue; fi
    for opponent in minimax-d3 alphabeta-noorder-d3; do
        if [[ "$opponent" == minimax-d3 ]]; then
            words=(option.Searcher=minimax option.Depth=3 "option.Heuristic=$simple")
            n="$games"
        else
            words=(option.Searcher=alphabeta option.Ordering=false option.Depth=3)
            n="$ab_games"
        fi
        "$arena" match --no-progress --report-every 0 --game "$spec" --games "$n" \
            --concurrency "$conc" --seed "$seed" --openings random:2 --max-plies 600 \
            --out "$out/$name-$opponent" \
            --engine "cmd=$agon" name=agon "st=$st" \
            --engine "cmd=$agon" "name=$opponent" "${words[@]}" "st=$st" \
            | sed -n '/=== Final ===/,$p' | tee "$out/$name-$opponent.txt"
    done
done <<'GAMES'
mnk|mnk m=15 n=15 k=5|lines
clobber|clobber rows=5 cols=6|mobility-diff
halma|halma size=8|progress
tak|tak size=5|simple
GAMES
