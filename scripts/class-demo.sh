#!/usr/bin/env bash
# A generated class of known strength through `arena class`, and how well the standings
# agree with the truth (issue 52's measurement; not part of the test command: minutes).
#
#   scripts/class-demo.sh mnk 30 /tmp/class-mnk       # 30 students + 5 faulty, 5x5 k=4
#   scripts/class-demo.sh clobber 30 /tmp/class-clobber   # Clobber 5x6
#
# Writes OUT/bots (the class, with strength.json) and OUT/results (arena class's output),
# then prints the wall time, Kendall's tau-b between the known strength order and the
# places of the well-behaved students, and each faulty student's verdicts. Extra
# arguments go to arena class (e.g. --games 4). ARENA and AGON name the binaries
# (default ./target/release/...).
set -euo pipefail
game="${1:?usage: $0 mnk|clobber STUDENTS OUT [arena class flags]}"
students="${2:?students}"
out="${3:?out folder}"
shift 3
arena="${ARENA:-./target/release/arena}"
agon="${AGON:-./target/release/agon}"
case "$game" in
    mnk) spec="mnk m=5 n=5 k=4" ;;
    clobber) spec="clobber rows=5 cols=6" ;;
    *) echo "$0: the game is mnk or clobber, not '$game'" >&2; exit 2 ;;
esac
mkdir -p "$out"
if [ ! -f "$out/bots/strength.json" ]; then
    python3 "$(dirname "$0")/make-class.py" --game "$game" --students "$students" --faulty \
        --seed "${SEED:-7}" --out "$out/bots"
fi
# strength.json is not a bot: the class reads a copy of the folder without it.
mkdir -p "$out/class"
find "$out/bots" -maxdepth 1 -name '*.py' -exec cp -p {} "$out/class/" \;
start=$(date +%s.%N)
"$arena" class --bots "$out/class" --game "$spec" --out "$out/results" --agon "$agon" \
    --no-progress "$@" > "$out/class.log" 2>&1 || { tail -20 "$out/class.log"; exit 1; }
end=$(date +%s.%N)
python3 - "$out" "$start" "$end" <<'PY'
import csv, json, sys
out, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
truth = json.load(open(f"{out}/bots/strength.json"))
faults = truth.get("faults", {})
rows = list(csv.DictReader(open(f"{out}/results/class.csv")))
place = {r["name"]: int(r["rank"]) for r in rows if r["rank"]}
known = {n: r for n, r in truth.items() if isinstance(r, int) and n not in faults}
names = [n for n in known if n in place]
conc = disc = tx = ty = 0
for i, a in enumerate(names):
    for b in names[i + 1:]:
        dx = known[a] - known[b]
        dy = place[a] - place[b]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            tx += 1
        elif dy == 0:
            ty += 1
        elif (dx > 0) == (dy > 0):
            conc += 1
        else:
            disc += 1
tau = (conc - disc) / (((conc + disc + tx) * (conc + disc + ty)) ** 0.5)
games = sum(int(r["games"]) for r in rows) // 2
print(f"wall time {end - start:.0f} s for {games} games; {len(names)} well-behaved students ranked")
print(f"Kendall tau-b (known strength vs place): {tau:.3f} ({conc} concordant, {disc} discordant pairs)")
for name, kind in sorted(faults.items()):
    row = next((r for r in rows if r["name"] == name), None)
    print(f"  {name}: {kind:8} -> place {row['rank'] if row else '-'}, {row['faults'] or 'no faults' if row else 'not in the results'}; {row['diagnosis'] if row else ''}; same content as: {row['same_content_as'] if row else ''}")
PY
