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

Beyond MCGS's list, --two-ply takes every position after Black's first move and White's
reply, one per class of positions equal up to the board's four colour-keeping symmetries
(811 of them), and proves them --jobs at a time, each for up to --time seconds; results go
to DIR/two-ply.tsv, a line per run, and a rerun resumes:

    scripts/mcgs-6x6.py --two-ply --list                      # the 811 positions
    scripts/mcgs-6x6.py --two-ply --moves "e1e2 c2c3" --time 7200 --dir DIR
    scripts/mcgs-6x6.py --two-ply --first a1a2 --time 600 --jobs 2

The boards are MCGS's pictures row by row from the top (black = b, white = w, empty =
1), with the side to move MCGS names. Build first: cargo build --release.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import threading
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


def play(moves):
    """The board (rows from the top, `b`, `w` or `.`) and the side to move after MCGS's
    `moves` (Black first)."""
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
    return board, mover


def position(moves):
    """The position after MCGS's `moves` (Black first), in agon's notation: rows from
    the top, `1`... for empty squares, then the side to move."""
    board, mover = play(moves)
    rows = [re.sub(r"\.+", lambda e: str(len(e[0])), "".join(row)) for row in board]
    return "/".join(rows) + " " + mover


def moves_of(board, mover):
    """Every move of `mover` in MCGS's notation: a stone takes an orthogonal neighbour of
    the other colour."""
    other = "w" if mover == "b" else "b"
    found = []
    for r in range(6):
        for c in range(6):
            if board[r][c] != mover:
                continue
            for r1, c1 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= r1 < 6 and 0 <= c1 < 6 and board[r1][c1] == other:
                    found.append(f"{chr(97 + c)}{r + 1}{chr(97 + c1)}{r1 + 1}")
    return found


# The start's colouring is kept by four of the square's eight symmetries: the identity,
# the half turn and the two diagonal reflections (a quarter turn or a side-to-side mirror
# swaps the colours of a 6x6 board).
SYMMETRIES = [lambda r, c: (r, c), lambda r, c: (5 - r, 5 - c),
              lambda r, c: (c, r), lambda r, c: (5 - c, 5 - r)]


def canonical(board):
    """The least of the board's images under SYMMETRIES, as one string."""
    images = []
    for f in SYMMETRIES:
        image = [["."] * 6 for _ in range(6)]
        for r in range(6):
            for c in range(6):
                r1, c1 = f(r, c)
                image[r1][c1] = board[r][c]
        images.append("".join("".join(row) for row in image))
    return min(images)


def two_ply_positions():
    """Every position after Black's first move and White's reply, one per class of
    positions equal up to SYMMETRIES, as (moves, board), in the order first found."""
    seen = set()
    found = []
    board0, _ = play("")
    for first in moves_of(board0, "b"):
        board1, _ = play(first)
        for reply in moves_of(board1, "w"):
            moves = f"{first} {reply}"
            key = canonical(play(moves)[0])
            if key not in seen:
                seen.add(key)
                found.append(moves)
    return found


def solve(args, moves, journal, seconds):
    """agon's proof of the position after `moves`: (value for the side to move, winning
    move or None, nodes, wall seconds)."""
    board = position(moves)
    command = [args.agon, "--game", "clobber rows=6 cols=6", "solve", "--position",
               board, "--hash", str(args.hash), "--threads", str(args.threads),
               "--journal", journal, "--time", str(seconds)]
    started = time.monotonic()
    out = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - started
    if out.returncode != 0:
        sys.exit(f"mcgs-6x6: {moves}: agon failed: {out.stderr.strip()}")
    result = re.search(r"^result: (.*)$", out.stdout, re.M)
    nodes = re.search(r"^nodes: (\d+)$", out.stdout, re.M)
    best = re.search(r"^best move: (\S+)$", out.stdout, re.M)
    if not result or not nodes:
        sys.exit(f"mcgs-6x6: {moves}: agon printed no result or node count:\n"
                 f"{out.stdout}{out.stderr}")
    result = result.group(1)
    ours = ("win" if result.startswith("win") else "loss" if result.startswith("loss")
            else "unknown")
    return ours, best.group(1) if best else None, int(nodes.group(1)), wall


def mcgs_move(move):
    """agon's name of a move (`b5-b6`: rows from the bottom) in MCGS's notation (`b2b1`),
    or None when it is not one."""
    m = re.fullmatch(r"([a-f])([1-6])-?([a-f])([1-6])", move)
    return m and f"{m[1]}{7 - int(m[2])}{m[3]}{7 - int(m[4])}"


def best_move(args, moves):
    """agon's choice and its score for Black (centipawns; mates as +-100000) after a
    search of --focus nodes in the position after `moves`, the move in MCGS's notation
    (agon numbers rows from the bottom, MCGS from the top)."""
    lines = ["uci", "setoption name Game value clobber rows=6 cols=6",
             f"position fen {position(moves)}", f"go nodes {args.focus}"]
    engine = subprocess.Popen([args.agon], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    engine.stdin.write("\n".join(lines) + "\n")
    engine.stdin.flush()
    found, score = None, 0
    for line in engine.stdout:
        cp = re.search(r" score (cp|mate) (-?\d+)", line)
        if cp:
            value = int(cp[2])
            score = value if cp[1] == "cp" else (100000 if value > 0 else -100000)
        if line.startswith("bestmove"):
            found = mcgs_move(line.split()[1]) if len(line.split()) > 1 else None
            break
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait()
    if not found:
        sys.exit(f"mcgs-6x6: {moves}: agon chose no move")
    play(f"{moves} {found}")  # exits if the translation went wrong
    return found, score


def choices(args, todo, path):
    """best_move for every position of `todo`, --jobs at a time, kept in `path` (a line
    each: moves, choice, score, nodes) so that a rerun searches only the new ones."""
    known = {}
    if os.path.exists(path):
        with open(path) as f:
            for number, line in enumerate(f, 1):
                cells = line.rstrip("\n").split("\t")
                if len(cells) != 4 or not re.fullmatch(r"-?\d+", cells[2]):
                    sys.exit(f"mcgs-6x6: {path}:{number}: not a choice line: {line!r}")
                if cells[3] == str(args.focus):
                    known[cells[0]] = (cells[1], int(cells[2]))
    missing = [m for m in todo if m not in known]
    if missing:
        print(f"searching {len(missing)} positions for agon's choice ({args.focus} nodes "
              f"each)", file=sys.stderr, flush=True)
    with open(path, "a") as f, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for moves, (choice, score) in zip(missing,
                                          pool.map(lambda m: best_move(args, m), missing)):
            known[moves] = (choice, score)
            f.write(f"{moves}\t{choice}\t{score}\t{args.focus}\n")
            f.flush()
    return known


def sweep(args):
    """--two-ply: every position after two plies, up to symmetry, each proved for up to
    --time seconds, --jobs at a time. The results go to DIR/two-ply.tsv, a line a run; a
    rerun skips the positions proved and tries the others again from their journals when
    --time is longer than their last try."""
    everything = two_ply_positions()
    if args.first:
        everything = [m for m in everything if m.split()[0] in args.first]
        if not everything:
            sys.exit(f"mcgs-6x6: no two-ply position starts with {' '.join(args.first)}")
    if args.moves:
        # Named by any of their symmetric images; kept in the order given.
        names = {canonical(play(m)[0]): m for m in everything}
        chosen = []
        for moves in args.moves:
            if len(moves.split()) != 2:
                sys.exit(f"mcgs-6x6: --moves takes two moves a position: {moves!r}")
            key = canonical(play(moves)[0])
            if key not in names:
                sys.exit(f"mcgs-6x6: {moves!r} is not among the positions chosen")
            chosen.append(names[key])
        everything = chosen
    if args.list and not args.focus:
        for moves in everything:
            print(f"{moves}\t{position(moves)}")
        return
    os.makedirs(args.dir, exist_ok=True)
    if args.list:
        # With agon's choices and scores, Black's best chances first.
        picks = choices(args, everything, os.path.join(args.dir, "two-ply-choices.tsv"))
        for moves in sorted(everything, key=lambda m: -picks[m][1]):
            print(f"{moves}\t{position(moves)}\t{picks[moves][0]}\t{picks[moves][1]}")
        return
    results = os.path.join(args.dir, "two-ply.tsv")
    journals = os.path.join(args.dir, "two-ply")
    os.makedirs(journals, exist_ok=True)
    last = {}
    if os.path.exists(results):
        with open(results) as f:
            for number, line in enumerate(f, 1):
                cells = line.rstrip("\n").split("\t")
                if line.startswith("#") or not line.strip():
                    continue
                if len(cells) != 6 or cells[1] not in ("win", "loss", "unknown"):
                    sys.exit(f"mcgs-6x6: {results}:{number}: not a result line: {line!r}")
                last[cells[0]] = cells
    else:
        with open(results, "w") as f:
            f.write("# moves\tvalue for Black to move\twinning move\tnodes\tseconds\t"
                    "time limit\n")
    todo = [m for m in everything
            if m not in last or (last[m][1] == "unknown" and int(last[m][5]) < args.time)]
    if args.focus:
        # Black's best chances first: by agon's score, highest first.
        picks = choices(args, todo, os.path.join(args.dir, "two-ply-choices.tsv"))
        todo.sort(key=lambda m: -picks[m][1])
    if args.part:
        # One of several runs side by side: every N-th position from the K-th.
        k, n = args.part
        todo = todo[k - 1::n]
    if args.report:
        todo = []
    print(f"{len(everything)} positions after two plies up to symmetry; {len(todo)} to try "
          f"for {args.time} s each, {args.jobs} at a time", flush=True)
    lock = threading.Lock()

    def one(moves):
        if args.focus:
            # Only agon's choice: Black wins when White to move after it loses.
            choice = picks[moves][0]
            tried = f"{moves} {choice}"
            journal = os.path.join(journals, tried.replace(" ", "-") + ".journal")
            theirs, _, nodes, wall = solve(args, tried, journal, args.time)
            ours, best = ("win", choice) if theirs == "loss" else ("unknown", None)
            if theirs == "win":
                print(f"{moves}: agon's choice {choice} loses for Black", flush=True)
        else:
            journal = os.path.join(journals, moves.replace(" ", "-") + ".journal")
            ours, best, nodes, wall = solve(args, moves, journal, args.time)
            best = best and mcgs_move(best)
        cells = [moves, ours, best or "none", str(nodes), f"{wall:.1f}", str(args.time)]
        with lock:
            with open(results, "a") as f:
                f.write("\t".join(cells) + "\n")
            last[moves] = cells
            print(f"{moves}: {ours} for Black to move ({best or 'no move'}, {nodes:,} "
                  f"nodes, {wall:.0f} s)", flush=True)

    if not args.report:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for done in pool.map(one, todo):
                pass
    # The positions proved, then for each first move its replies by value.
    proved = [last[m] for m in everything if m in last and last[m][1] != "unknown"]
    if proved:
        print()
        print("| Moves | Black to move | Winning move | Nodes | Time |")
        print("|---|---|---|---:|---:|")
        for cells in proved:
            print(f"| {cells[0]} | {cells[1]}s | {cells[2]} | {int(cells[3]):,} | "
                  f"{float(cells[4]):.0f} s |")
    print()
    print("| Black's first move | White's replies (up to symmetry) | Black to move wins "
          "| Black to move loses | Unknown |")
    print("|---|---:|---:|---:|---:|")
    firsts = {}
    for moves in everything:
        firsts.setdefault(moves.split()[0], []).append(last.get(moves, [moves, "untried"])[1])
    for first, values in firsts.items():
        print(f"| {first} | {len(values)} | {values.count('win')} | {values.count('loss')} | "
              f"{len(values) - values.count('win') - values.count('loss')} |")
    wins = sum(v.count("win") for v in firsts.values())
    losses = sum(v.count("loss") for v in firsts.values())
    print(f"\nproved: {wins + losses} of {len(everything)} ({wins} wins and {losses} losses "
          f"for Black to move)")
    for first, values in firsts.items():
        if "loss" in values:
            print(f"{first} loses for Black: White has a reply after which Black to move "
                  f"loses")


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
    parser.add_argument("--two-ply", action="store_true",
                        help="instead of MCGS's list: every position after two plies")
    parser.add_argument("--first", nargs="+", metavar="MOVE",
                        help="with --two-ply: only the positions after these first moves")
    parser.add_argument("--moves", nargs="+", metavar="'FIRST REPLY'",
                        help="with --two-ply: only these positions, by their moves")
    parser.add_argument("--list", action="store_true",
                        help="with --two-ply: print the positions (moves, then the position "
                             "in agon's notation) and prove none")
    parser.add_argument("--focus", type=int, metavar="NODES",
                        help="with --two-ply: prove only that Black's move chosen by a "
                             "search of NODES nodes wins (a win found faster; a loss or "
                             "unknown is then recorded as unknown)")
    parser.add_argument("--report", action="store_true",
                        help="with --two-ply: prove nothing, print the tables of what "
                             "DIR/two-ply.tsv holds")
    parser.add_argument("--part", type=int, nargs=2, metavar=("K", "N"),
                        help="with --two-ply: only the K-th of every N positions to try "
                             "(runs side by side, each with its own K)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="with --two-ply: positions proved at once")
    parser.add_argument("--agon", default=os.path.join(root, "target/release/agon"),
                        help="the engine (default: this checkout's release build)")
    args = parser.parse_args()
    if args.part and not 1 <= args.part[0] <= args.part[1]:
        sys.exit(f"mcgs-6x6: --part K N needs 1 <= K <= N, not {args.part[0]} {args.part[1]}")
    if not (args.two_ply and args.list) and not os.access(args.agon, os.X_OK):
        sys.exit(f"mcgs-6x6: no engine at {args.agon}: run cargo build --release first")
    if args.two_ply:
        sweep(args)
        return
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
        ours, best, nodes, wall = solve(args, moves, journal, args.time)
        theirs = f"{value} ({mcgs_time})" if value else f"unsolved ({mcgs_time})"
        if value and ours != "unknown" and ours != value:
            disagree = True
            theirs += " **disagrees**"
        side = "white" if board.endswith(" w") else "black"
        print(f"| {game} | {moves} | {side} | {theirs} | {ours} for the side to move | "
              f"{best or 'none'} | {nodes:,} | {wall:.0f} s |",
              flush=True)
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
