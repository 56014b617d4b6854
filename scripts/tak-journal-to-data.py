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
    """A Tak game spec ("tak size=6 halfkomi=4") as its name and its parameters, defaults
    filled in; ValueError naming what is wrong for anything else."""
    name, *words = text.split() or [""]
    if name != "tak":
        raise ValueError(f"{text!r} is not a Tak spec (it starts with 'tak')")
    params = dict(DEFAULTS)
    for word in words:
        key, eq, value = word.partition("=")
        if key not in ("size", *DEFAULTS) or not eq or not value.lstrip("-").isdigit():
            raise ValueError(f"{word!r} in {text!r} is not size=N, halfkomi=N or line=N")
        params[key] = value
    if "size" not in params:
        raise ValueError(f"{text!r} names no size (size=N)")
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
    try:
        wanted = parse_spec(spec)
        f = open(journal, encoding="utf-8")
    except (ValueError, OSError) as e:
        print(f"{sys.argv[0]}: {e}", file=sys.stderr)
        return 2
    for line in args[2:]:
        print(f"# {line}")
    print(f'# Game: "{spec}"')
    print("# RESULT (first player's: 1, 0.5, 0)|MOVES|SCORES (mover's view; - none)")
    kept = dropped = 0
    with f:
        for number, text in enumerate(f, 1):
            try:
                r = json.loads(text)
            except json.JSONDecodeError as e:
                print(f"{journal}:{number}: not JSON: {e}", file=sys.stderr)
                return 1
            moves_of = r.get("moves") if isinstance(r, dict) else None
            if not isinstance(moves_of, list) or not all(
                isinstance(m, dict) and isinstance(m.get("mv"), str) for m in moves_of
            ):
                print(f"{journal}:{number}: not a game of an arena journal (no list of moves)",
                      file=sys.stderr)
                return 1
            if (r.get("termination") or {}).get("kind") != "normal":
                dropped += 1
                continue
            result = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}.get(r.get("result"))
            if result is None:
                dropped += 1
                continue
            try:
                same = not r.get("spec") or parse_spec(r["spec"]) == wanted
            except ValueError:
                same = False
            if not same:
                print(f"{journal}:{number}: a game of {r.get('spec')!r}, not {spec!r}", file=sys.stderr)
                return 1
            names = {side: (r.get(side) or {}).get("name") for side in ("p1", "p2")}
            moves, scores = [], []
            for m in moves_of:
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
