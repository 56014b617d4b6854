#!/usr/bin/env python3
"""6x6 Clobber openings beside MCGS's list, solved by `agon solve`.

MCGS (ualberta-mueller-group/MCGS, docs/6x6clobber.html, 2026) is trying to solve 6x6
Clobber and lists positions after 4 to 6 plies of its test games, with the value and the
time its solver took (with a 4x4 database) or the time it gave up after. This script
solves each of them with agon, one after another, and prints a Markdown table: the
position, MCGS's value and time, agon's value, winning move, nodes and time. A value
that disagrees with MCGS's makes it exit with status 1.

    scripts/mcgs-6x6.py                   # every position, up to 30 minutes each
    scripts/mcgs-6x6.py --only 1 5        # some of them, by game number
    scripts/mcgs-6x6.py --time 7200       # a longer limit for each

Each position keeps a journal in --dir (default mcgs-6x6/): run the same command again
after a stop and each proof goes on where it was.

The boards are MCGS's pictures row by row from the top (black = b, white = w, empty =
1), with the side to move MCGS names. Build first: cargo build --release.
"""

import argparse
import os
import re
import subprocess
import sys
import time

# Game number, the moves MCGS gives (Black, its first player, first), MCGS's verdict for
# the side to move ("win", "loss", or None when unsolved) and MCGS's time. The page's
# version of 2026-06-01 (its log: "Apr 15-21: runs with 100000s limit (200000 for game
# 8)") added the positions after fewer plies; the last two are the ones it could not
# solve.
POSITIONS = [
    (1, "f2e2 b1c1 e1d1 a2b2 e3d3", "win", "839 s"),
    (2, "a5b5 e6d6 b6c6 f5e5", "win", "4,258 s"),
    (3, "a5a4 a6b6 f2f3 f1e1 c3c4 a2a3", "win", "1,805 s"),
    (4, "e1e2 f5f4 f2f3 e6e5 d2d3", "win", "1,802 s"),
    (5, "b6b5 a6a5 c5c4 a2a3", None, "gave up after 10,000 s"),
    (6, "f2f3 e6d6 e1d1 f5e5", "win", "1,763 s"),
    (7, "a5a4 a2a3 b6b5 b1b2", "win", "8,816 s"),
    (8, "b6c6 f5f4 a5a4 e6e5", "win", "1,353 s"),
    (1, "f2e2 b1c1 e1d1 a2b2", "win", "22,959 s"),
    (3, "a5a4 a6b6 f2f3 f1e1", "loss", "62,910 s"),
    (3, "a5a4 a6b6 f2f3 f1e1 c3c4", "win", "2,809 s"),
    (6, "f2f3 e6d6 e1d1", "win", "50,396 s"),
    (8, "b6c6 f5f4 a5a4", "win", "4,458 s"),
    (7, "a5a4 a2a3 b6b5", None, "gave up after 100,000 s"),
    (8, "b6c6 f5f4", None, "gave up after 200,000 s"),
]

# The start as MCGS draws it: rows 1 (top) to 6, columns a to f, black on a1.
START = ["bwbwbw", "wbwbwb"] * 3


def position(moves):
    """The position after MCGS's `moves` (Black first), in agon's notation: rows from
    the top, `1`... for empty squares, then the side to move."""
    board = [list(row) for row in START]
    mover = "b"
    for move in moves.split():
        m = re.fullmatch(r"([a-f])([1-6])([a-f])([1-6])", move)
        if not m:
            sys.exit(f"mcgs-6x6: bad move {move!r}")
        c0, r0, c1, r1 = ord(m[1]) - 97, int(m[2]) - 1, ord(m[3]) - 97, int(m[4]) - 1
        other = "w" if mover == "b" else "b"
        if (board[r0][c0] != mover or board[r1][c1] != other
                or abs(r0 - r1) + abs(c0 - c1) != 1):
            sys.exit(f"mcgs-6x6: {move} is not a move of {mover} after {moves!r}")
        board[r1][c1], board[r0][c0] = mover, "."
        mover = other
    rows = [re.sub(r"\.+", lambda e: str(len(e[0])), "".join(row)) for row in board]
    return "/".join(rows) + " " + mover


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="GAME[:PLIES]",
                        help="only these of MCGS's games (1 to 8), or one position of a "
                             "game by its plies (8:2)")
    parser.add_argument("--time", type=int, default=1800, help="seconds for each position")
    parser.add_argument("--hash", type=int, default=8192, help="MiB for each proof's tables")
    parser.add_argument("--threads", type=int, default=1, help="solver threads")
    parser.add_argument("--dir", default="mcgs-6x6", help="folder for the journals")
    parser.add_argument("--agon", default=os.path.join(root, "target/release/agon"),
                        help="the engine (default: this checkout's release build)")
    args = parser.parse_args()
    if not os.access(args.agon, os.X_OK):
        sys.exit(f"mcgs-6x6: no engine at {args.agon}: run cargo build --release first")
    names = {str(p[0]) for p in POSITIONS} | {f"{p[0]}:{len(p[1].split())}" for p in POSITIONS}
    for name in args.only or []:
        if name not in names:
            sys.exit(f"mcgs-6x6: no position {name} in MCGS's list (games 1 to 8, or "
                     f"GAME:PLIES of: {', '.join(sorted(n for n in names if ':' in n))})")
    os.makedirs(args.dir, exist_ok=True)
    print("| MCGS game | Moves | Side to move | MCGS | agon | Winning move | Nodes | Time |")
    print("|---|---|---|---|---|---|---:|---:|")
    disagree = False
    for game, moves, value, mcgs_time in POSITIONS:
        plies = len(moves.split())
        if args.only and str(game) not in args.only and f"{game}:{plies}" not in args.only:
            continue
        board = position(moves)
        journal = os.path.join(args.dir, f"game-{game}-{plies}.journal")
        command = [args.agon, "--game", "clobber rows=6 cols=6", "solve", "--position",
                   board, "--hash", str(args.hash), "--threads", str(args.threads),
                   "--journal", journal, "--time", str(args.time)]
        started = time.monotonic()
        out = subprocess.run(command, capture_output=True, text=True)
        wall = time.monotonic() - started
        if out.returncode != 0:
            sys.exit(f"mcgs-6x6: game {game}: agon failed: {out.stderr.strip()}")
        result = re.search(r"^result: (.*)$", out.stdout, re.M)
        nodes = re.search(r"^nodes: (\d+)$", out.stdout, re.M)
        best = re.search(r"^best move: (\S+)$", out.stdout, re.M)
        if not result or not nodes:
            sys.exit(f"mcgs-6x6: game {game}: agon printed no result or node count:\n"
                     f"{out.stdout}{out.stderr}")
        result, nodes = result.group(1), nodes.group(1)
        ours = ("win" if result.startswith("win") else "loss" if result.startswith("loss")
                else "unknown")
        theirs = f"{value} ({mcgs_time})" if value else f"unsolved ({mcgs_time})"
        if value and ours != "unknown" and ours != value:
            disagree = True
            theirs += " **disagrees**"
        side = "white" if board.endswith(" w") else "black"
        print(f"| {game} | {moves} | {side} | {theirs} | {ours} for the side to move | "
              f"{best.group(1) if best else 'none'} | {int(nodes):,} | {wall:.0f} s |",
              flush=True)
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
