#!/usr/bin/env bash
# Agon against Tiltak (issue 21): the three comparison matches, release builds, both sides
# speaking TEI, colour-swapped pairs from random 2-ply openings, one game at a time.
#
#   scripts/vs-tiltak.sh TILTAK-BINARY [OUT]      (default OUT: vs-tiltak-out)
#
# TILTAK-BINARY is Tiltak's `tei` (build it with scripts/build-tiltak.sh PATH-TO-CHECKOUT).
# Matches (ONLY=name runs one of them):
#   tak5-st     Tak 5x5, 0.1 s a move, GAMES games (default 200)
#   tak6k2-st   Tak 6x6 komi 2 (HalfKomi 4), 0.1 s a move, GAMES games
#   tak5-tc     Tak 5x5, clock 10 s + 0.1 s, TC_GAMES games (default 40)
#   tak6k2-tc   Tak 6x6 komi 2, clock 10 s + 0.1 s, TC_GAMES games (default 40)
# Environment: AGON, ARENA (default target/release/{agon,arena}), SEED (default 21),
# CONCURRENCY (default 1: strength at 0.1 s a move depends on load), ST (default 0.1),
# TC (default 10+0.1), AGON_ARGS (more --engine words for agon, e.g.
# "option.Searcher=mcts"). Each match's summary, with the games won by road and by flats,
# goes to OUT/<match>.txt; the journal and PTN files to OUT/<match>/.
set -euo pipefail
if [[ $# -lt 1 ]]; then
    echo "usage: $0 TILTAK-BINARY [OUT]" >&2
    exit 2
fi
if [[ ! -f "$1" || ! -x "$1" ]]; then
    echo "$0: $1: no Tiltak binary there (build it: scripts/build-tiltak.sh PATH-TO-CHECKOUT)" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
tiltak="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
out="${2:-vs-tiltak-out}"
agon="${AGON:-$root/target/release/agon}"
arena="${ARENA:-$root/target/release/arena}"
games="${GAMES:-200}"
tc_games="${TC_GAMES:-40}"
seed="${SEED:-21}"
conc="${CONCURRENCY:-1}"
st="${ST:-0.1}"
tc="${TC:-10+0.1}"
read -r -a extra <<<"${AGON_ARGS:-}"
# name | game spec | time words | games
matches="tak5-st|tak size=5|st=$st|$games
tak6k2-st|tak size=6 halfkomi=4|st=$st|$games
tak5-tc|tak size=5|tc=$tc|$tc_games
tak6k2-tc|tak size=6 halfkomi=4|tc=$tc|$tc_games"
names="$(cut -d'|' -f1 <<<"$matches")"
if [[ -n "${ONLY:-}" ]] && ! grep -qxF -- "$ONLY" <<<"$names"; then
    echo "$0: ONLY=$ONLY is not a match here; the matches are $(paste -sd' ' <<<"$names")" >&2
    exit 2
fi
mkdir -p "$out"
while IFS='|' read -r name spec time n; do
    if [[ -n "${ONLY:-}" && "$ONLY" != "$name" ]]; then continue; fi
    echo "== $name: $spec, $time, $n games (load: $(uptime | sed 's/.*load/load/'))" | tee "$out/$name.txt"
    "$arena" match --no-progress --report-every 0 --game "$spec" --games "$n" \
        --concurrency "$conc" --seed "$seed" --openings random:2 --max-plies 400 \
        --out "$out/$name" \
        --engine "cmd=$agon" name=agon proto=tei "$time" "${extra[@]}" \
        --engine "cmd=$tiltak" name=tiltak proto=tei "$time" \
        | sed -n '/=== Final ===/,$p' | tee -a "$out/$name.txt"
    # Wins by road and by flats, from the journal's PTN result codes.
    python3 - "$out/$name/journal.jsonl" <<'PY' | tee -a "$out/$name.txt"
import collections, json, sys
count = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    detail = r.get("result_detail") or "?"
    if detail in ("R-0", "F-0"):
        winner = r["p1"]["name"]
    elif detail in ("0-R", "0-F"):
        winner = r["p2"]["name"]
    else:
        winner = "draw"
    kind = {"R": "road", "F": "flats"}.get(detail.replace("0", "").replace("-", ""), detail)
    agon_side = "white" if r["p1"]["name"] == "agon" else "black"
    count[(winner, kind if winner != "draw" else detail)] += 1
    count[("agon as " + agon_side, "win" if winner == "agon" else "draw" if winner == "draw" else "loss")] += 1
for (who, how), k in sorted(count.items()):
    print(f"  {who:16} {how:8} {k}")
PY
    echo "(load after: $(uptime | sed 's/.*load/load/'))" | tee -a "$out/$name.txt"
done <<<"$matches"
