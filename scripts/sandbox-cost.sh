#!/usr/bin/env bash
# What the strict sandbox costs per game: the same tic-tac-toe match of GAMES games
# (default 200) between two copies of examples/tictactoe_bot.py, concurrency 1, run
# without a sandbox (each engine process kept for the whole match), with sandbox=limits
# (a new process per engine and game, no namespaces or cgroups) and with sandbox=on (a
# new box per engine and game: bubblewrap, setpriv, cgroups, teardown), one after the
# other. "on" minus "limits" is the box; "limits" minus "off" is starting Python afresh. Prints the wall time of each run and the mean and median game time from the
# journals. Needs root (the strict level) and a release build:
#   cargo build --release --workspace && scripts/sandbox-cost.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
arena=$PWD/target/release/arena
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in a b; do
    mkdir -p "$work/$side"
    cp examples/tictactoe_bot.py "$work/$side/bot.py"
done
chmod -R a+rX "$work"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in off limits on; do
    start=$(date +%s.%N)
    (cd "$work" && "$arena" match --no-progress --game tictactoe --games "$games" \
        --openings random:2 --seed 1 --concurrency 1 --out "out-$mode" \
        --engine "cmd=$work/a/bot.py" name=a "sandbox=$mode" \
        --engine "cmd=$work/b/bot.py" name=b "sandbox=$mode" >/dev/null)
    end=$(date +%s.%N)
    python3 - "$work/out-$mode/journal.jsonl" "$mode" "$start" "$end" <<'EOF'
import json, statistics, sys
path, mode, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
games = [json.loads(line) for line in open(path)]
ms = [g["duration_ms"] for g in games]
kinds = sorted({g["termination"]["kind"] for g in games})
print(f"sandbox={mode}: {len(games)} games in {end - start:.1f} s wall; game time mean "
      f"{statistics.mean(ms):.1f} ms, median {statistics.median(ms):.1f} ms; terminations {kinds}")
EOF
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
