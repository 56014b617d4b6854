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
import subprocess
import sys


def solve(agon, spec, moves, movetime, hash_mb):
    """The solver's `solution ...` line for the position after `moves`."""
    proc = subprocess.Popen([agon], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(
        f"ugi\nsetoption name Game value {spec}\nsetoption name Hash value {hash_mb}\n"
        f"position startpos moves {' '.join(moves)}\nsolve movetime {movetime}\n"
    )
    proc.stdin.flush()
    answer = "no answer"
    for line in proc.stdout:
        if line.startswith("solution"):
            answer = line.strip()
            break
        if line.startswith("info string error"):
            answer = line.strip()
            break
    try:
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    except BrokenPipeError:
        pass
    proc.wait(timeout=10)
    return answer


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("journal")
    ap.add_argument("--engine", default="agon", help="the engine's name in the journal")
    ap.add_argument("--agon", default="target/release/agon", help="the agon binary to solve with")
    ap.add_argument("--movetime", type=int, default=20000, help="solver time per position, ms")
    ap.add_argument("--hash", type=int, default=16, help="solver tables, MiB")
    args = ap.parse_args()
    try:
        lines = open(args.journal, encoding="utf-8").read().splitlines()
    except OSError as e:
        sys.exit(f"{args.journal}: {e.strerror}")
    for number, line in enumerate(lines, 1):
        try:
            game = json.loads(line)
            side = next(p for p in ("p1", "p2") if game[p]["name"] == args.engine)
            moves = [m["mv"] for m in game["moves"]]
        except (ValueError, KeyError, StopIteration) as e:
            sys.exit(f"{args.journal}:{number}: not a game of {args.engine!r} ({e})")
        if game.get("winner") in (side, None) or game.get("winner") == "draw":
            continue
        print(f"game {game['game']} ({args.engine} is {side}), opening {game['opening']['moves']}")
        for i, m in enumerate(game["moves"]):
            if m["side"] != side or m.get("book"):
                continue
            answer = solve(args.agon, game["spec"], moves[:i], args.movetime, args.hash)
            print(f"  ply {i + 1}: played {m['mv']} scoring {m.get('score')}; solver: {answer}",
                  flush=True)
            if answer.startswith("solution loss"):
                break


if __name__ == "__main__":
    main()
