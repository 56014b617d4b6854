#!/usr/bin/env bash
# The arena's own time per move with instant engines, as issue 23 measures it: a match of
# GAMES (default 400) tic-tac-toe games between two `scripted_engine normal`, concurrency
# 1, nobody watching; prints the median and 90th percentile of the journal's latency_ms
# (bestmove read to the next go written) and fails when the median is above LIMIT_MS
# (default 0.02; 0.005 ms before the live view existed, at commit 0e5764a). Also counts
# the live files written (none may be, nobody watches). ARENA=path picks another binary
# (e.g. an older build, to compare):
#   cargo build --release -p arena && scripts/live-latency.sh [GAMES] [LIMIT_MS]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
limit=${2:-0.02}
arena=${ARENA:-$PWD/target/release/arena}
engine=${ENGINE:-$PWD/target/release/scripted_engine}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$arena" match --no-progress --game tictactoe --games "$games" --concurrency 1 \
    --out "$work/out" --engine "cmd=$engine" args=normal name=a \
    --engine "cmd=$engine" args=normal name=b >/dev/null
live=$(find "$work/out" -path '*live*' -name '*.json*' | wc -l)
python3 - "$work/out" "$limit" "$live" <<'PY'
import glob, json, statistics, sys
out, limit, live = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
lat = []
for path in glob.glob(out + "/*.jsonl"):
    for line in open(path):
        g = json.loads(line)
        lat += [m["latency_ms"] for m in g["moves"] if m.get("latency_ms") is not None]
lat.sort()
median = statistics.median(lat)
p90 = lat[int(0.9 * (len(lat) - 1))]
print(f"{len(lat)} moves: latency_ms median {median:.4f}, p90 {p90:.4f}, max {lat[-1]:.4f}; live files left: {live}")
sys.exit(0 if median <= limit else 1)
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
