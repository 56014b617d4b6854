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
    # A file named without a directory is run from here, not looked up on PATH.
    command = os.path.abspath(agon) if os.path.exists(agon) else agon
    try:
        p = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        sys.exit(f"tak-speed: cannot run {agon!r}: {e.strerror}")

    def send(command):
        try:
            p.stdin.write(command + "\n")
            p.stdin.flush()
        except BrokenPipeError:
            sys.exit(f"tak-speed: {agon} stopped reading (sending {command!r})")

    def wait_for(word):
        for line in p.stdout:
            if line.startswith(word):
                return line
        sys.exit(f"tak-speed: {agon} ended before answering {word!r}")

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
        else:
            sys.exit(f"tak-speed: {agon} ended before answering 'go' after: position startpos moves {moves}")
        spent += time.perf_counter() - start
        depths += int(last.split()[2]) if last else 0
    send("quit")
    p.wait()
    digest = hashlib.md5(" ".join(best).encode()).hexdigest()[:8]
    return spent, digest, depths


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    settings = {}
    for name, default in (("NODES", "400000"), ("REPEAT", "3")):
        text = os.environ.get(name, default)
        if not text.isdigit() or int(text) == 0:
            sys.exit(f"tak-speed: {name} must be a positive whole number, not {text!r}")
        settings[name] = int(text)
    nodes, repeat = settings["NODES"], settings["REPEAT"]
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
