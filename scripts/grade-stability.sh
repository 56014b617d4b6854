#!/usr/bin/env bash
# How stable `arena grade` is (issue 20): a class of ten tic-tac-toe bots, made from
# examples/tictactoe_bot.py (perfect play, the example, a random mover, first free square,
# wins but never blocks, a crash, an illegal move, never flushes, stray output, slow
# moves), graded with SEEDS different seeds (default 5) and the default settings. Prints
# each run's wall time and, per bot, the highest level beaten under every seed and
# whether it changed.
#   cargo build --release --workspace && scripts/grade-stability.sh [SEEDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-5}
arena=$PWD/target/release/arena
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
python3 scripts/grade-class/make_class.py examples/tictactoe_bot.py "$work/submissions"
for seed in $(seq 1 "$seeds"); do
    start=$(date +%s.%N)
    (cd "$work" && "$arena" grade --bots submissions/ --game tictactoe --seed "$seed" \
        --out "grades-$seed/" >/dev/null)
    end=$(date +%s.%N)
    echo "seed $seed: $(python3 -c "print(f'{$end - $start:.1f}')") s wall time"
done
python3 - "$work" "$seeds" <<'PY'
import json, sys
work, seeds = sys.argv[1], int(sys.argv[2])
runs = [json.load(open(f"{work}/grades-{s}/grades.json"))["students"] for s in range(1, seeds + 1)]
names = sorted(r["student"] for r in runs[0])
def cell(report):
    """The highest level beaten, with '?' when a verdict on the way was uncertain."""
    best = report.get("highest_level_beaten") or "none"
    unsure = any(l.get("verdict") == "uncertain" for l in report.get("levels", []))
    return best + ("?" if unsure else "")
changed = clear_changed = 0
print(f"{'bot':<12} highest level beaten, seeds 1..{seeds} ('?': a level's 95% interval still held 1/2 after the most games)")
for n in names:
    reports = [next(r for r in run if r["student"] == n) for run in runs]
    cells = [cell(r) for r in reports]
    flip = len({c.rstrip("?") for c in cells}) > 1
    clear = not any(c.endswith("?") for c in cells)
    changed += flip
    clear_changed += flip and clear
    print(f"{n:<12} {' '.join(f'{c:<9}' for c in cells)}{'  CHANGES' if flip else ''}")
print(f"{changed} of {len(names)} bots changed their highest level beaten across {seeds} seeds; "
      f"{clear_changed} of them without an uncertain verdict")
PY
