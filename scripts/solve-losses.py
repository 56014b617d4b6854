#!/usr/bin/env python3
"""Where a lost game was lost: for every game of an arena journal that the named engine
lost, ask agon's solver (the protocol's `solve`) about each position where that engine
was to move, from its first move after the opening up to the first position the solver
proves lost. Prints one line per position: the ply, the move the engine played, the
score it reported, and the solver's answer (win with a move, loss, draw or unknown).

    scripts/solve-losses.py JOURNAL [--engine agon] [--agon target/release/agon]
                            [--movetime 20000] [--hash 16]

Meant for games with a solver (Clobber up to 64 squares, m,n,k): issue 21's reading of
agon's losses to OpenSpiel's MCTS. A position the solver proves won before the engine's
move, followed by a proved loss, is a win the engine threw away.
"""
import argparse
import json
import os
import sys

from agon_session import ask


def solve(agon, spec, moves, movetime, hash_mb):
    """The solver's `solution ...` line for the position after `moves`."""
    return ask(agon, spec, " ".join(moves), f"solve movetime {movetime}", "solution", hash_mb,
               timeout=movetime / 1000 + 30)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("journal")
    ap.add_argument("--engine", default="agon", help="the engine's name in the journal")
    ap.add_argument("--agon", default="target/release/agon", help="the agon binary to solve with")
    ap.add_argument("--movetime", type=int, default=20000, help="solver time per position, ms")
    ap.add_argument("--hash", type=int, default=16, help="solver tables, MiB")
    args = ap.parse_args()
    if not (os.path.isfile(args.agon) and os.access(args.agon, os.X_OK)):
        sys.exit(f"{args.agon}: no agon binary there (build it: cargo build --release, or "
                 "pass --agon PATH)")
    try:
        lines = open(args.journal, encoding="utf-8").read().splitlines()
    except OSError as e:
        sys.exit(f"{args.journal}: {e.strerror}")
    played = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            game = json.loads(line)
            names = {p: game[p]["name"] for p in ("p1", "p2")}
            moves = [m["mv"] for m in game["moves"]]
        except (ValueError, KeyError, TypeError) as e:
            sys.exit(f"{args.journal}:{number}: not an arena journal record ({e!r})")
        side = next((p for p, name in names.items() if name == args.engine), None)
        if side is None:
            continue
        played += 1
        if game.get("winner") in (side, None, "draw"):
            continue
        print(f"game {game['game']} ({args.engine} is {side}), opening {game['opening']['moves']}")
        for i, m in enumerate(game["moves"]):
            if m["side"] != side or m.get("book"):
                continue
            answer = solve(args.agon, game["spec"], moves[:i], args.movetime, args.hash)
            print(f"  ply {i + 1}: played {m['mv']} scoring {m.get('score')}; solver: {answer}",
                  flush=True)
            if answer.startswith(("solution loss", "error", "no answer")):
                break
    if played == 0:
        sys.exit(f"{args.journal}: no game of an engine named {args.engine!r}")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # the output was cut short (`| head`)
        sys.stderr.close()
    except KeyboardInterrupt:
        sys.exit(130)
