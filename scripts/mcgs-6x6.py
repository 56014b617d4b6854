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

# Game number, the moves MCGS gives, the position, MCGS's verdict for the side to move
# ("win", or None when unsolved) and MCGS's time.
POSITIONS = [
    (1, "f2e2 b1c1 e1d1 a2b2 e3d3", "b1wb1w/1wwbb1/bwbb1w/wbwbwb/bwbwbw/wbwbwb w", "win", "839 s"),
    (2, "a5b5 e6d6 b6c6 f5e5", "bwbwbw/wbwbwb/bwbwbw/wbwbwb/1bbww1/w1bw1b b", "win", "4,258 s"),
    (3, "a5a4 a6b6 f2f3 f1e1 c3c4 a2a3", "bwbww1/1bwbw1/ww1wbb/bbbbwb/1wbwbw/1wwbwb b", "win",
     "1,805 s"),
    (4, "e1e2 f5f4 f2f3 e6e5 d2d3", "bwbw1w/wbw1b1/bwbbbb/wbwbww/bwbww1/wbwb1b w", "win",
     "1,802 s"),
    (5, "b6b5 a6a5 c5c4 a2a3", "bwbwbw/1bwbwb/wwbwbw/wbbbwb/wb1wbw/2wbwb b", None,
     "gave up after 10,000 s"),
    (6, "f2f3 e6d6 e1d1 f5e5", "bwbb1w/wbwbw1/bwbwbb/wbwbwb/bwbww1/wbww1b b", "win", "1,763 s"),
    (7, "a5a4 a2a3 b6b5 b1b2", "b1bwbw/1wwbwb/wwbwbw/bbwbwb/1bbwbw/w1wbwb b", "win", "8,816 s"),
    (8, "b6c6 f5f4 a5a4 e6e5", "bwbwbw/wbwbwb/bwbwbw/bbwbww/1wbww1/w1bb1b b", "win", "1,353 s"),
]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", type=int, metavar="GAME",
                        help="only these of MCGS's games (1 to 8)")
    parser.add_argument("--time", type=int, default=1800, help="seconds for each position")
    parser.add_argument("--hash", type=int, default=8192, help="MiB for each proof's tables")
    parser.add_argument("--threads", type=int, default=1, help="solver threads")
    parser.add_argument("--dir", default="mcgs-6x6", help="folder for the journals")
    parser.add_argument("--agon", default=os.path.join(root, "target/release/agon"),
                        help="the engine (default: this checkout's release build)")
    args = parser.parse_args()
    if not os.access(args.agon, os.X_OK):
        sys.exit(f"mcgs-6x6: no engine at {args.agon}: run cargo build --release first")
    known = {p[0] for p in POSITIONS}
    for game in args.only or []:
        if game not in known:
            sys.exit(f"mcgs-6x6: no game {game} in MCGS's list (games: 1 to 8)")
    os.makedirs(args.dir, exist_ok=True)
    print("| MCGS game | Moves | Side to move | MCGS | agon | Winning move | Nodes | Time |")
    print("|---|---|---|---|---|---|---:|---:|")
    disagree = False
    for game, moves, position, value, mcgs_time in POSITIONS:
        if args.only and game not in args.only:
            continue
        journal = os.path.join(args.dir, f"game-{game}.journal")
        command = [args.agon, "--game", "clobber rows=6 cols=6", "solve", "--position",
                   position, "--hash", str(args.hash), "--threads", str(args.threads),
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
        side = "white" if position.endswith(" w") else "black"
        print(f"| {game} | {moves} | {side} | {theirs} | {ours} for the side to move | "
              f"{best.group(1) if best else 'none'} | {int(nodes):,} | {wall:.0f} s |",
              flush=True)
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
