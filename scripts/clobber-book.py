#!/usr/bin/env python3
"""Build agon's Clobber 5x6 opening book: every position after two plies from the start
(28 stones, the first player to move), proved by agon's region solver.

    scripts/clobber-book.py [--out src/games/clobber/book-5x6.txt] [--movetime 90000]
                            [--agon target/release/agon] [--hash 2048] [--jobs 1]
                            [--limit N] [--retry-unknown]

The positions are taken up to the board's one colour-keeping symmetry (rows reversed);
of each mirrored pair the one whose moves come first in text order is kept. Each is
proved with the protocol's `solve movetime` (a fresh engine each) and one line is
appended to the book: the two moves, `|`, and `win MOVE`, `loss` or `unknown` (not proved
in time). Positions already in the book are skipped, so a stopped run goes on where it
was; `--retry-unknown` proves the `unknown` ones again (give it a longer `--movetime`) and
writes each result in place of its line. The engine reads the book when it is built (`book.rs`): a proved win is played at
once, a proved loss is reported as such.

A position takes from one second to minutes of one core (the region solver at 28 stones;
median 10 s, 11% not proved within 30 s). Stop 34 did 878 of the 1,064 positions in about
90 minutes with `--jobs 2` (281 with 30 s, 447 with 15 s, 150 with 30 s); a run without
options goes on with the rest. `--limit` stops after N new positions.
"""
import argparse
import os
import random
import signal
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

import agon_session

SPEC = "clobber rows=5 cols=6"
ROWS = 5
BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "games",
                    "clobber", "book-5x6.txt")
HEADER = (
    "# Clobber 5x6 opening book: every position after two plies from the start, up to the\n"
    "# mirror (rows reversed), proved by agon's region solver. A line: the two moves |\n"
    "# win MOVE (a winning move for the first player), loss, or unknown (not proved in\n"
    "# time). Made by scripts/clobber-book.py (solve movetime {movetime}, Hash {hash} MiB).\n"
)


def mirror_move(move):
    """`move` with the rows reversed: a1-a2 -> a5-a4."""
    def square(s):
        return f"{s[0]}{ROWS + 1 - int(s[1:])}"
    return "-".join(square(s) for s in move.split("-"))


def legal_moves(agon, moves):
    answer = agon_session.ask(agon, SPEC, moves, "moves", "moves")
    words = answer.split()
    if not words or words[0] != "moves":
        sys.exit(f"{agon}: asked for the moves after '{moves}', it answered {answer!r}")
    return words[1:]


def openings(agon):
    """Every two-ply opening, one of each mirrored pair."""
    seen = set()
    out = []
    for first in legal_moves(agon, ""):
        for second in legal_moves(agon, first):
            line = (first, second)
            mirrored = (mirror_move(first), mirror_move(second))
            key = min(line, mirrored)
            if key not in seen:
                seen.add(key)
                out.append(" ".join(key))
    return out


def done(path, retry_unknown=False):
    """The openings already in the book (but for those not proved, with `retry_unknown`)."""
    if not os.path.exists(path):
        return set()
    have = set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            if "|" not in line:
                sys.exit(f"{path}:{number}: not a book line (moves | result): {line.strip()!r}")
            opening, result = (part.strip() for part in line.split("|", 1))
            if not (retry_unknown and result == "unknown"):
                have.add(opening)
    return have


def record(path, opening, result):
    """Writes `opening | result` to the book: in place of the opening's line if it has
    one (through a new file renamed over the old, so a stop leaves one or the other),
    else at the end."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    new = f"{opening} | {result}\n"
    for i, line in enumerate(lines):
        if not line.startswith("#") and "|" in line and line.split("|")[0].strip() == opening:
            lines[i] = new
            break
    else:
        lines.append(new)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        f.writelines(lines)
    os.replace(temporary, path)


def prove(agon, moves, movetime, hash_mb):
    answer = agon_session.ask(agon, SPEC, moves, f"solve movetime {movetime}", "solution",
                              hash_mb, timeout=movetime / 1000 + 60)
    words = answer.split()
    if not words or words[0] != "solution":
        return None, answer
    ms = words[words.index("time") + 1] if "time" in words else "?"
    if words[1] == "win":
        return f"win {words[3]}", ms
    return words[1], ms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=BOOK)
    ap.add_argument("--agon", default="target/release/agon")
    ap.add_argument("--movetime", type=int, default=90000, help="solver time per position, ms")
    ap.add_argument("--hash", type=int, default=2048, help="solver tables, MiB")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--limit", type=int, help="stop after this many new positions")
    ap.add_argument("--retry-unknown", action="store_true",
                    help="prove again the positions the book has as not proved in time "
                         "(with a longer --movetime)")
    args = ap.parse_args()
    if not (os.path.isfile(args.agon) and os.access(args.agon, os.X_OK)):
        sys.exit(f"{args.agon}: no agon binary there (build it: cargo build --release, or "
                 "pass --agon PATH)")
    signal.signal(signal.SIGINT, lambda *_: os._exit(130))
    todo = openings(args.agon)
    have = done(args.out, args.retry_unknown)
    todo = [o for o in todo if o not in have]
    # In a shuffled order (fixed), so that a book made in part is a uniform sample.
    random.Random(1).shuffle(todo)
    if args.limit is not None:
        todo = todo[:args.limit]
    print(f"{len(have)} positions in {args.out}, {len(todo)} to prove", file=sys.stderr)
    if not os.path.exists(args.out):
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(HEADER.format(movetime=args.movetime, hash=args.hash))
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(prove, args.agon, o, args.movetime, args.hash): o for o in todo}
        for n, future in enumerate(as_completed(futures), 1):
            result, detail = future.result()
            opening = futures[future]
            if result is None:
                print(f"{opening}: the solver answered {detail!r}; left out", file=sys.stderr)
                continue
            record(args.out, opening, result)
            print(f"[{n}/{len(todo)}] {opening} | {result} ({detail} ms)", file=sys.stderr)


if __name__ == "__main__":
    main()
