#!/usr/bin/env python3
"""Nodes and time of each searcher to the same depth from the Clobber starts.

Run from the repository root after `cargo build --release`:
    python3 scripts/compare-searchers.py
"""
import subprocess, sys
def run(game, searcher, ordering, depth):
    p = subprocess.Popen(["./target/release/agon"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"setoption name Game value {game}\nsetoption name Searcher value {searcher}\nsetoption name Ordering value {ordering}\nsetoption name Hash value 64\ngo depth {depth}\n"); p.stdin.flush()
    last = None
    for line in p.stdout:
        if line.startswith("info depth"): last = line.strip()
        if line.startswith("bestmove"): break
    p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
    return last
if __name__ == "__main__":
  for game in ["clobber rows=6 cols=5", "clobber rows=5 cols=6"]:
    for depth in [5, 7, 8]:
        for s, o in [("pvs","true"),("alphabeta","true"),("alphabeta","false"),("minimax","true")]:
            if s == "minimax" and depth > 5: continue
            if s == "alphabeta" and o == "false" and depth > 7: continue
            info = run(game, s, o, depth)
            f = info.split()
            print(f"{game:24} depth {depth} {s:9} ordering={o:5} nodes {f[f.index('nodes')+1]:>10} time {f[f.index('time')+1]:>6} ms score {' '.join(f[f.index('score')+1:f.index('score')+3])}")
