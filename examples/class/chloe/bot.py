#!/usr/bin/env python3
"""Chloe's bot for 5x5 four in a row (Agon protocol)"""
NAME = 'chloe'
GAME = 'mnk m=5 n=5 k=4'  # the game played until a `setoption name Game` says otherwise
LEVEL = 2
P_RANDOM = 0.15  # probability of a uniformly random legal move
DEPTH = 2  # alpha-beta plies
NODE_BUDGET = 2500  # nodes per move: deeper iterations stop here (deterministic)
SEED = 'sample-chloe'
FAULT = None
import time
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the submission
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from brain import Bot  # noqa: E402


def send(line):
    print(line, flush=True)


def main():
    print("%s: starting, level %s" % (NAME, LEVEL), file=sys.stderr, flush=True)
    bot = Bot(P_RANDOM, DEPTH, NODE_BUDGET, SEED, GAME)
    gos = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd in ("ugi", "uci"):
            send("id name " + NAME)
            send("id author " + NAME)
            send("option name Game type string default " + GAME)
            send(cmd + "ok")
        elif cmd == "isready":
            send("readyok")
        elif cmd == "setoption":
            low = [w.lower() for w in words]
            if "name" in low and "value" in low:
                name = " ".join(words[low.index("name") + 1:low.index("value")])
                if name.lower() == "game":
                    bot.set_game(" ".join(words[low.index("value") + 1:]))
        elif cmd == "position":
            bot.set_position(words[1:])
        elif cmd == "go":
            gos += 1
            if FAULT == "crash" and gos == 3:
                raise RuntimeError("%s: index out of range in my evaluation (on purpose)" % NAME)
            if FAULT == "slow" and gos >= 2:
                time.sleep(3)
            if FAULT == "garbage" and gos == 2:
                send("bestmove ???")
                continue
            if FAULT == "illegal" and gos == 2:
                send("bestmove " + bot.illegal_move())
                continue
            move = bot.choose()
            send("bestmove " + (bot.game.move_name(move) if move is not None else "none"))
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
