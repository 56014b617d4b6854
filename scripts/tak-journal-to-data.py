#!/usr/bin/env python3
"""Turns an arena journal of Tak games into a training file for src/games/tak/train.rs.

    scripts/tak-journal-to-data.py [--agon NAME] JOURNAL SPEC HEADER-LINE... > FILE

Each game becomes one line RESULT|MOVES|SCORES (the format of `agon selfplay`,
src/selfplay.rs): the first player's result (1, 0.5, 0), the moves, and per move the
mover's score in agon's units or '-' when there is none (opening moves, a move without
a score). Scores are read from the engines' `info ... score cp`: Tiltak reports a win
probability p as cp = 200 p - 100 (tiltak src/tei.rs, info_string), so the score kept is
300 * ln(p / (1 - p)), agon's training scale (SCALE in train.rs), p clamped to
[0.001, 0.999]. With `--agon NAME`, the moves of the engine of that name (agon, in games
against Tiltak) keep their score as it is, already in agon's units. Games that ended by a
fault (time forfeit, crash) are left out.
"""
import json
import math
import sys

# Tak's parameters that a spec may leave out, and their values then (protocol.md).
DEFAULTS = {"halfkomi": "0", "line": "0"}


def parse_spec(text):
    """A game spec ("tak size=6 halfkomi=4") as its name and its parameters, defaults
    filled in."""
    name, *words = text.split()
    params = dict(DEFAULTS)
    for word in words:
        key, _, value = word.partition("=")
        params[key] = value
    return name, params


def main() -> int:
    args = sys.argv[1:]
    agon = None
    if args[:1] == ["--agon"]:
        if len(args) < 2:
            print("--agon needs the engine's name", file=sys.stderr)
            return 2
        agon, args = args[1], args[2:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    journal, spec = args[0], args[1]
    for line in args[2:]:
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
            if r.get("spec") and parse_spec(r["spec"]) != parse_spec(spec):
                print(f"{journal}:{number}: a game of {r.get('spec')!r}, not {spec!r}", file=sys.stderr)
                return 1
            names = {side: (r.get(side) or {}).get("name") for side in ("p1", "p2")}
            moves, scores = [], []
            for m in r["moves"]:
                moves.append(m["mv"])
                cp = (m.get("score") or {}).get("cp")
                if m.get("book") or cp is None:
                    scores.append("-")
                    continue
                if agon is not None and names.get(m.get("side")) == agon:
                    scores.append(str(cp))
                    continue
                p = min(max((cp + 100) / 200, 0.001), 0.999)
                scores.append(str(round(300 * math.log(p / (1 - p)))))
            print(f"{result}|{' '.join(moves)}|{' '.join(scores)}")
            kept += 1
    print(f"{kept} games kept, {dropped} left out (not ended normally)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
