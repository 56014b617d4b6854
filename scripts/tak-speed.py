#!/usr/bin/env python3
"""Search speed on Tak 6x6 (komi 2) middle games, to compare builds.

Every position of tests/data/tak-speed-positions.txt is searched to a fixed number of
nodes (NODES, default 400000) after `teinewgame 6`, through the TEI protocol; for each
binary this prints the time spent searching, a checksum of the best moves and the sum of
the depths reached. Two builds whose searches are the same give the same checksum and
depths, so the time is a like-for-like speed comparison. Binaries are run in turn,
REPEAT times (default 3), alternating, on an idle machine:

    python3 scripts/tak-speed.py BASELINE-AGON target/release/agon
"""
import hashlib
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "tests" / "data" / "tak-speed-positions.txt"


def run(agon, lines, nodes):
    p = subprocess.Popen([agon], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(command):
        p.stdin.write(command + "\n")
        p.stdin.flush()

    def wait_for(word):
        for line in p.stdout:
            if line.startswith(word):
                return line
        sys.exit(f"{agon} ended before answering {word!r}")

    send("tei")
    wait_for("teiok")
    send("setoption name HalfKomi value 4")
    best, depths, spent = [], 0, 0.0
    for moves in lines:
        send("teinewgame 6")
        send("position startpos moves " + moves)
        send("isready")
        wait_for("readyok")
        start = time.perf_counter()
        send(f"go nodes {nodes}")
        last = ""
        for line in p.stdout:
            if line.startswith("info depth"):
                last = line
            elif line.startswith("bestmove"):
                best.append(line.strip())
                break
        spent += time.perf_counter() - start
        depths += int(last.split()[2]) if last else 0
    send("quit")
    p.wait()
    digest = hashlib.md5(" ".join(best).encode()).hexdigest()[:8]
    return spent, digest, depths


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    nodes = int(os.environ.get("NODES", "400000"))
    repeat = int(os.environ.get("REPEAT", "3"))
    lines = [l.strip() for l in POSITIONS.read_text().splitlines() if l.strip() and not l.startswith("#")]
    times = {agon: [] for agon in sys.argv[1:]}
    for _ in range(repeat):
        for agon in sys.argv[1:]:
            spent, digest, depths = run(agon, lines, nodes)
            times[agon].append(spent)
            print(f"{agon}: {spent * 1000:.0f} ms, {len(lines)} positions, best moves {digest}, depths {depths}", flush=True)
    base = sum(times[sys.argv[1]]) / repeat
    for agon, t in times.items():
        mean = sum(t) / repeat
        print(f"{agon}: mean {mean * 1000:.0f} ms, {base / mean:.3f}x the first")


if __name__ == "__main__":
    main()
