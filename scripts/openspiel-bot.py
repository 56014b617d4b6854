#!/usr/bin/env python3
"""OpenSpiel's Monte Carlo tree search as a bot of the Agon protocol, for Clobber.

The reference opponent of issue 21: OpenSpiel's own MCTS (`open_spiel.python.algorithms.
mcts.MCTSBot`: UCT with random-rollout leaf values, proven wins and losses kept) on
OpenSpiel's own Clobber rules, behind the five commands a bot needs (protocol.md section
2): `ugi`/`uci`, `isready`, `position`, `go`, `quit`. It advertises the `Game` option so
the arena tells it the board (`clobber rows=R cols=C`, default 5x6).

Install OpenSpiel from PyPI (`pip install open-spiel`; measured with 2.0.2), then for
example:

    ./target/release/arena match --game "clobber rows=5 cols=6" --games 40 \\
        --openings random:2 --concurrency 1 \\
        --engine cmd=agon name=agon st=0.1 \\
        --engine "cmd=scripts/openspiel-bot.py" name=mcts-1000 args="--simulations 1000"

Options: --simulations N (default 1000), --uct-c C (2, OpenSpiel's example value),
--rollouts N (random rollouts per leaf, 1), --seed S (0; every search draws from it),
--no-solve (do not back up proven values). `go` limits are ignored: a move costs the
simulations it costs (about 0.1 s per 1000 simulations on 5x6).

Moves: OpenSpiel writes `a1b1` (column letter, row 1 at the bottom), Agon `a1-b1`; a
move is matched to OpenSpiel's legal actions by that text, so a move the rules refuse
is answered with an `info string` and `bestmove none` rather than played.
"""
import argparse
import re
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts


def say(line):
    print(line, flush=True)


def agon_move(text):
    """OpenSpiel's `a1b1` -> Agon's `a1-b1`."""
    m = re.fullmatch(r"([a-z]\d+)([a-z]\d+)", text)
    return f"{m.group(1)}-{m.group(2)}" if m else text


def openspiel_board(position, rows, cols):
    """Agon's position string (`wbw/b.b/wbw w`, rows from the top) -> OpenSpiel's custom
    board string (side `0`/`1`, then `o`/`x`/`.` row by row from the top-left)."""
    board, side = position.split()
    cells = []
    for row in board.split("/"):
        line = ""
        for ch in re.findall(r"\d+|[wb.]", row):
            line += "." * int(ch) if ch.isdigit() else {"w": "o", "b": "x", ".": "."}[ch]
        if len(line) != cols:
            raise ValueError(f"row '{row}' is not {cols} squares wide")
        cells.append(line)
    if len(cells) != rows:
        raise ValueError(f"{len(cells)} rows, expected {rows}")
    return {"w": "0", "b": "1"}[side] + "".join(cells)


class Bot:
    def __init__(self, args):
        self.args = args
        self.rng = np.random.RandomState(args.seed)
        self.set_game(5, 6)

    def set_game(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.game = pyspiel.load_game("clobber", {"rows": rows, "columns": cols})
        self.state = self.game.new_initial_state()
        self.bot = mcts.MCTSBot(
            self.game,
            self.args.uct_c,
            self.args.simulations,
            mcts.RandomRolloutEvaluator(self.args.rollouts, self.rng),
            random_state=self.rng,
            solve=not self.args.no_solve,
        )

    def setoption(self, words):
        text = " ".join(words)
        m = re.fullmatch(r"setoption name (\S+)(?: value (.*))?", text, re.IGNORECASE)
        if not m or m.group(1).lower() != "game":
            return
        spec = (m.group(2) or "").split()
        if not spec or spec[0] != "clobber":
            say(f"info string this bot plays clobber only, not '{m.group(2)}'")
            return
        params = {"rows": 5, "cols": 6}
        for i, word in enumerate(spec[1:]):
            key, _, value = word.partition("=")
            if not value:  # values in order: rows cols
                key, value = ["rows", "cols"][i], key
            params[key] = int(value)
        self.set_game(params["rows"], params["cols"])

    def play(self, text):
        wanted = text.replace("-", "")
        player = self.state.current_player()
        for action in self.state.legal_actions():
            if self.state.action_to_string(player, action) == wanted:
                self.state.apply_action(action)
                return True
        return False

    def position(self, words):
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        head = words[1:words.index("moves")] if "moves" in words else words[1:]
        if head and head[0] == "startpos":
            self.state = self.game.new_initial_state()
        elif head and head[0] in ("fen", "tps"):
            board = openspiel_board(" ".join(head[1:]), self.rows, self.cols)
            self.state = self.game.new_initial_state(board)
        else:
            raise ValueError("position: expected startpos or fen")
        for mv in moves:
            if self.state.is_terminal() or not self.play(mv):
                raise ValueError(f"illegal move {mv}")

    def go(self):
        if self.state.is_terminal():
            return "none"
        action = self.bot.step(self.state)
        return agon_move(self.state.action_to_string(self.state.current_player(), action))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-solve", action="store_true")
    args = parser.parse_args()
    bot = Bot(args)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] in ("ugi", "uci"):
                say(f"id name OpenSpiel-MCTS-{args.simulations}")
                say("id author OpenSpiel (DeepMind), protocol wrapper by the Agon developers")
                say("option name Game type string default clobber rows=5 cols=6")
                say(words[0] + "ok")
            elif words[0] == "isready":
                say("readyok")
            elif words[0] == "setoption":
                bot.setoption(words)
            elif words[0] == "position":
                bot.position(words)
            elif words[0] == "go":
                say("bestmove " + bot.go())
            elif words[0] == "quit":
                break
        except (ValueError, IndexError, KeyError) as e:
            say(f"info string {e}")
            if words[0] == "go":
                say("bestmove none")


if __name__ == "__main__":
    main()
