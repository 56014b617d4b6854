#!/usr/bin/env python3
"""Clobber 5x6 positions from games against OpenSpiel's MCTS, with their proved results:
how fast agon's region solver proves them, and how often agon's move keeps a win.

    scripts/clobber-positions.py collect JOURNAL... [--moves 3,4] [--movetime 10000] > FILE
    scripts/clobber-positions.py bench [--moves 4,5] [--movetime 3000]
    scripts/clobber-positions.py keep  [--moves 3,4] [--movetime 100 | --go LIMITS] [--cache FILE]

`collect` proves the positions after the first MOVES moves of every game of the arena
journals (each once; `solve movetime`) and prints the data file's lines: the moves from the
start, `|`, and `win MOVE`, `loss` or `unknown`. `bench` proves each position of the data
file again (a fresh engine each, so nothing is shared between positions), checks the
result against the file and prints the total time, the median and how many were proved in
under 76 ms (the solver's share of a 100 ms move from 27 stones down). `keep` asks the
engine for its move in every position of the file proved won (`go movetime`, a fresh
engine each) and proves the position after that move with the solver: the move keeps the
win when that position is lost for the opponent. Issue 21 reads Clobber's losses this
way: the game is decided at 25 to 27 stones, where the solver alone is too slow.

The data file defaults to tests/data/clobber-5x6-positions.txt; `--agon` names the engine
(default target/release/agon), `--solver` the one whose `solve` checks the moves (default
the same), `--jobs` how many engines run at once (default 2).
"""
import argparse
import json
import os
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

import agon_session

SPEC = "clobber rows=5 cols=6"


def ask(agon, moves, command, until, hash_mb=64, timeout=90):
    """The engine's reply to `command` on the 5x6 position after `moves`."""
    return agon_session.ask(agon, SPEC, moves, command, until, hash_mb, timeout)
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                    "clobber-5x6-positions.txt")


def solution(line):
    """(`win MOVE` | `loss` | `unknown`, time in ms) of a `solution` line."""
    words = line.split()
    if not words or words[0] != "solution":
        raise ValueError(f"the solver answered {line!r}")
    result = f"win {words[3]}" if words[1] == "win" else words[1]
    return result, int(words[words.index("time") + 1])


def load(path, counts):
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        moves, sep, result = line.partition("|")
        if not sep:
            sys.exit(f"{path}:{number}: expected 'MOVES | RESULT', got {line!r}")
        moves, result = moves.strip(), result.strip()
        if not (result in ("loss", "unknown") or result.startswith("win ")):
            sys.exit(f"{path}:{number}: the result must be 'win MOVE', 'loss' or 'unknown', "
                     f"got {result!r}")
        if counts is None or len(moves.split()) in counts:
            out.append((moves, result))
    if not out and counts is not None:
        sys.exit(f"{path}: no positions after {sorted(counts)} moves")
    return out


def collect(args):
    seen, order = set(), []
    for path in args.journals:
        try:
            records = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
        except (OSError, json.JSONDecodeError) as e:
            sys.exit(f"{path}: not an arena journal ({e})")
        for record in records:
            if record.get("spec") != SPEC or "moves" not in record:
                continue
            played = [m["mv"] for m in record["moves"]]
            for count in args.counts:
                if len(played) > count:
                    key = " ".join(played[:count])
                    if key not in seen:
                        seen.add(key)
                        order.append(key)
    proved = lambda key: solution(ask(args.solver, key, f"solve movetime {args.movetime}",
                                      "solution", 512, args.movetime / 1000 + 30))[0]
    print(f"# {SPEC}: positions after {','.join(map(str, args.counts))} moves of "
          f"{len(args.journals)} journal(s), solve movetime {args.movetime}")
    with ThreadPoolExecutor(args.jobs) as pool:
        for key, result in zip(order, pool.map(proved, order)):
            print(f"{key} | {result}", flush=True)


def bench(args):
    positions = [p for p in load(args.data, args.counts) if p[1] != "unknown"]
    times, unknown = [], 0
    for moves, expected in positions:
        result, ms = solution(ask(args.agon, moves, f"solve movetime {args.movetime}", "solution",
                                  timeout=args.movetime / 1000 + 30))
        if result == "unknown":
            unknown += 1
            ms = args.movetime
        elif result.split()[0] != expected.split()[0]:
            sys.exit(f"WRONG: after '{moves}' the solver says {result}, the file {expected}")
        times.append(ms)
    print(f"{args.agon}: {len(times)} positions, total {sum(times)} ms, median "
          f"{statistics.median(times):.0f} ms, under 76 ms {sum(t < 76 for t in times)}, "
          f"unknown in {args.movetime} ms {unknown}")


def keep(args):
    positions = [m for m, r in load(args.data, args.counts) if r.startswith("win")]
    cache = dict(load(args.cache, None)) if args.cache and os.path.exists(args.cache) else {}

    def move(moves):
        words = ask(args.agon, moves, f"go {args.go or f'movetime {args.movetime}'}",
                    "bestmove").split()
        if len(words) < 2 or words[0] != "bestmove":
            sys.exit(f"after '{moves}' the engine answered {' '.join(words)!r}")
        return f"{moves} {words[1]}"

    def proved(child):
        if child not in cache:
            cache[child] = solution(ask(args.solver, child, "solve movetime 60000", "solution",
                                        512, 90))[0]
        return cache[child]

    with ThreadPoolExecutor(args.jobs) as pool:
        children = list(pool.map(move, positions))
        results = list(pool.map(proved, children))
    if args.cache:
        with open(args.cache, "w") as f:
            for child, result in sorted(cache.items()):
                f.write(f"{child} | {result}\n")
    by_count = {}
    for moves, result in zip(positions, results):
        kept, total, unknown = by_count.setdefault(len(moves.split()), [0, 0, 0])
        by_count[len(moves.split())] = [kept + (result == "loss"), total + 1,
                                        unknown + (result == "unknown")]
    parts = [f"after {c} moves {k}/{t}" + (f" ({u} unknown)" if u else "")
             for c, (k, t, u) in sorted(by_count.items())]
    kept = sum(v[0] for v in by_count.values())
    print(f"{args.agon}: the move keeps the win in {kept} of {len(positions)} won positions "
          f"({100 * kept / len(positions):.1f}%): {', '.join(parts)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["collect", "bench", "keep"])
    ap.add_argument("journals", nargs="*", help="arena journals (collect)")
    ap.add_argument("--moves", help="positions after this many moves, comma-separated")
    ap.add_argument("--movetime", type=int, help="ms per solve (collect, bench) or move (keep)")
    ap.add_argument("--agon", default="target/release/agon")
    ap.add_argument("--solver", help="the engine that proves (default: --agon)")
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--cache", help="keep: a file of proved positions, read and extended")
    ap.add_argument("--go", help="keep: the go command's limits instead of movetime, e.g. "
                    "'nodes 20000' (the root solver then sits out; the search alone, load-proof)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    defaults = {"collect": ("3,4", 10000), "bench": ("4,5", 3000), "keep": ("3,4", 100)}
    moves, movetime = defaults[args.command]
    try:
        args.counts = [int(c) for c in (args.moves or moves).split(",")]
    except ValueError:
        sys.exit(f"--moves: expected numbers separated by commas, got {args.moves!r}")
    if args.movetime is not None and args.movetime <= 0:
        sys.exit(f"--movetime: expected a positive number of ms, got {args.movetime}")
    if args.jobs < 1:
        sys.exit(f"--jobs: expected at least 1, got {args.jobs}")
    if any(c < 0 for c in args.counts):
        sys.exit(f"--moves: expected counts of moves (0 or more), got {args.moves!r}")
    args.movetime = args.movetime or movetime
    args.solver = args.solver or args.agon
    for binary in {args.agon, args.solver}:
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            sys.exit(f"{binary}: no agon binary there (build it: cargo build --release, or "
                     "pass --agon PATH)")
    if args.command == "collect" and not args.journals:
        sys.exit("collect: name at least one arena journal")
    try:
        {"collect": collect, "bench": bench, "keep": keep}[args.command](args)
    except BrokenPipeError:
        pass
    except ValueError as e:
        sys.exit(str(e))


if __name__ == "__main__":
    main()
