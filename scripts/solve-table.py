#!/usr/bin/env python3
"""The README's table of solved boards, measured on this machine.

Runs `agon solve` on every board of the table (Clobber and m,n,k), one after another,
and prints a Markdown table: board, value, a winning first move or "none", nodes, time,
peak memory (the solver process's maximum resident set), beside the published value and
time with its source. Any value that disagrees with the published one is marked and makes
the script exit with status 1.

    scripts/solve-table.py                 # every board (about 30 minutes on 2 cores)
    scripts/solve-table.py --quick         # the boards that take under a minute
    scripts/solve-table.py --only 5x6 4x7  # some boards, by their first column

Build first: cargo build --release (the script runs target/release/agon).
"""

import argparse
import os
import platform
import re
import subprocess
import sys
import time

# Board, game spec, extra solve arguments, published value (None: none published),
# published time and source, quick (under a minute here).
CLOBBER = "Grossman, TCS 313 (2004), App. A"
MCGS = "MCGS (ualberta-mueller-group, 2026)"
HSU = "Hsu, Ko, Chen, Wei, Hsueh, Wu, TCS 815 (2020)"
BOARDS = [
    ("Clobber 2x6", "clobber rows=2 cols=6", [], "P", CLOBBER, True),
    ("Clobber 2x10", "clobber rows=2 cols=10", [], "N", MCGS, True),
    ("Clobber 3x6", "clobber rows=3 cols=6", [], "P", CLOBBER, True),
    ("Clobber 3x8", "clobber rows=3 cols=8", [], "P", MCGS, True),
    ("Clobber 3x9", "clobber rows=3 cols=9", [], "N", MCGS + ": 228 s", True),
    ("Clobber 4x5", "clobber rows=4 cols=5", [], "N", CLOBBER, True),
    ("Clobber 4x6", "clobber rows=4 cols=6", [], "P", CLOBBER, True),
    ("Clobber 5x5", "clobber rows=5 cols=5", [], "P", CLOBBER, True),
    ("Clobber 4x7", "clobber rows=4 cols=7", [], "N", MCGS + ": 2,142 s", True),
    ("Clobber 3x10", "clobber rows=3 cols=10", ["--threads", "2", "--hash", "8192"], "P",
     MCGS + ": 14,149 s", False),
    ("Clobber 3x11", "clobber rows=3 cols=11", ["--threads", "2", "--hash", "12288"], "N",
     "no published value; MCGS's conjecture, 3xn is P iff n is even, predicts N", False),
    ("Clobber 2x17", "clobber rows=2 cols=17", [], "N", MCGS + ": 17,987 s", False),
    ("Clobber 2x18", "clobber rows=2 cols=18", ["--hash", "4096"], None,
     "no published value; MCGS's conjecture, 2xn is P iff n is a multiple of 3, predicts P",
     False),
    ("Clobber 4x8", "clobber rows=4 cols=8", ["--threads", "2", "--hash", "16384"], "N",
     "no published value; MCGS gave up after 100,000 s", False),
    ("Clobber 5x6", "clobber rows=5 cols=6", ["--threads", "2", "--hash", "16384"], "P",
     "Grossman 2002: about 43 h; " + MCGS + ": 43,797 s", False),
    ("3,3,3 (tic-tac-toe)", "tictactoe", [], "draw", "folklore", True),
    ("4,4,4", "mnk m=4 n=4 k=4", [], "draw", "Uiterwijk & van den Herik (2000)", True),
    ("5,5,4", "mnk m=5 n=5 k=4", [], "draw", "C.Y. Lee, in Winning Ways", True),
    ("5,6,4", "mnk m=5 n=6 k=4", [], "first-player win", "Uiterwijk & van den Herik (2000)", True),
    ("6,6,5", "mnk m=6 n=6 k=5", [], None, "no published value in our sources", True),
    ("7,7,5", "mnk m=7 n=7 k=5", [], "draw", HSU + ": 2.5 s", True),
    ("8,7,5", "mnk m=8 n=7 k=5", [], None, "no published value in our sources", True),
    ("8,8,5", "mnk m=8 n=8 k=5", ["--hash", "8192"], "draw", HSU + ": 17.4 h", False),
]

MOVER_WINS = {"Clobber": "N", "mnk": "first-player win"}
MOVER_LOSES = {"Clobber": "P", "mnk": "second-player win"}


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = f", {kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}"


def solve(agon, spec, extra):
    """Runs one solve; returns (fields, seconds, peak MiB)."""
    start = time.monotonic()
    proc = subprocess.Popen(
        [agon, "--game", spec, "solve", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - start
    if status != 0:
        raise RuntimeError(f"agon solve --game '{spec}' failed:\n{out}")
    fields = dict(
        line.split(": ", 1) for line in out.splitlines() if ": " in line
    )
    return fields, seconds, usage.ru_maxrss / 1024


def value_of(kind, result):
    if result.startswith("win"):
        return MOVER_WINS[kind]
    if result.startswith("loss"):
        return MOVER_LOSES[kind]
    if result.startswith("draw"):
        return "draw"
    return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the boards under a minute")
    parser.add_argument("--only", nargs="+", metavar="BOARD",
                        help="boards whose name contains one of these words")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--agon", default=os.path.join(root, "target/release/agon"),
                        help="the engine to run (default: this checkout's release build)")
    args = parser.parse_args()
    if not os.access(args.agon, os.X_OK):
        sys.exit(f"{args.agon}: no such program; build it first (cargo build --release)")
    rows = [b for b in BOARDS if b[5] or not args.quick]
    if args.only:
        rows = [b for b in rows if any(w in b[0] for w in args.only)]
        if not rows:
            sys.exit(f"--only {' '.join(args.only)}: no board of the table matches")
    print(f"Machine: {machine()}\n")
    print("| Board | Value | Winning first move | Nodes | Threads | Time | Peak memory | Published |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    wrong = 0
    for name, spec, extra, published, source, _ in rows:
        fields, seconds, peak = solve(args.agon, spec, extra)
        kind = "Clobber" if spec.startswith("clobber") else "mnk"
        value = value_of(kind, fields.get("result", ""))
        if published is not None and value != published:
            wrong += 1
            value = f"**{value} (disagrees)**"
        move = fields.get("best move", "none") if value == MOVER_WINS[kind] else "none"
        nodes = int(re.sub(r"\D", "", fields.get("nodes", "0")) or 0)
        threads = extra[extra.index("--threads") + 1] if "--threads" in extra else "1"
        print(
            f"| {name} | {value} | {move} | {nodes:,} | {threads} | {seconds:.1f} s "
            f"| {peak:,.0f} MiB "
            f"| {f'{published} ({source})' if published else f'{value}: ' + source} |",
            flush=True,
        )
    if wrong:
        sys.exit(f"{wrong} value(s) disagree with the published ones")


if __name__ == "__main__":
    main()
