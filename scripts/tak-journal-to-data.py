#!/usr/bin/env python3
"""Turns an arena journal of Tak games into a training file for src/games/tak/train.rs.

    scripts/tak-journal-to-data.py JOURNAL SPEC HEADER-LINE... > FILE

Each game becomes one line RESULT|MOVES|SCORES (the format of `agon selfplay`,
src/selfplay.rs): the first player's result (1, 0.5, 0), the moves, and per move the
mover's score in agon's units or '-' when there is none (opening moves, a move without
a score). Scores are read from the engines' `info ... score cp`: Tiltak reports a win
probability p as cp = 200 p - 100 (tiltak src/tei.rs, info_string), so the score kept is
300 * ln(p / (1 - p)), agon's training scale (SCALE in train.rs), p clamped to
[0.001, 0.999]. Games that ended by a fault (time forfeit, crash) are left out.
"""
import json
import math
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    journal, spec = sys.argv[1], sys.argv[2]
    for line in sys.argv[3:]:
        print(f"# {line}")
    print(f'# Game: "{spec}"')
    print("# RESULT (first player's: 1, 0.5, 0)|MOVES|SCORES (mover's view; - none)")
    kept = dropped = 0
    with open(journal, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            try:
                r = json.loads(text)
            except json.JSONDecodeError as e:
                print(f"{journal}:{number}: not JSON: {e}", file=sys.stderr)
                return 1
            if (r.get("termination") or {}).get("kind") != "normal":
                dropped += 1
                continue
            result = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}.get(r.get("result"))
            if result is None:
                dropped += 1
                continue
            moves, scores = [], []
            for m in r["moves"]:
                moves.append(m["mv"])
                cp = (m.get("score") or {}).get("cp")
                if m.get("book") or cp is None:
                    scores.append("-")
                    continue
                p = min(max((cp + 100) / 200, 0.001), 0.999)
                scores.append(str(round(300 * math.log(p / (1 - p)))))
            print(f"{result}|{' '.join(moves)}|{' '.join(scores)}")
            kept += 1
    print(f"{kept} games kept, {dropped} left out (not ended normally)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
