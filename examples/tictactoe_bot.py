#!/usr/bin/env python3
"""A minimal tic-tac-toe bot for the Agon protocol (standard library only).

It knows the rules itself, takes a win when it has one, blocks the opponent's, and
otherwise plays the first free square of a preference list. Run it with
`arena check -- examples/tictactoe_bot.py` and `arena match --engine cmd=examples/tictactoe_bot.py`.
"""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
PREFERENCE = [4, 0, 2, 6, 8, 1, 3, 5, 7]  # centre, corners, edges


def square(name):
    """'a1' -> 0 ... 'c3' -> 8 (a1 bottom left)."""
    return (int(name[1]) - 1) * 3 + (ord(name[0]) - ord("a"))


def name(sq):
    return "abc"[sq % 3] + str(sq // 3 + 1)


def winner(board):
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return None


def best_move(board, me):
    free = [sq for sq in range(9) if not board[sq]]
    if not free or winner(board):
        return None
    other = "o" if me == "x" else "x"
    for player in (me, other):  # win if we can, else block
        for sq in free:
            board[sq] = player
            won = winner(board) == player
            board[sq] = None
            if won:
                return sq
    return next(sq for sq in PREFERENCE if sq in free)


def say(line):
    print(line, flush=True)  # flush: the controller reads a pipe


board, me = [None] * 9, "x"
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] in ("ugi", "uci"):
        say("id name TicTacToeBot")
        say("id author an Agon student")
        say(words[0] + "ok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        board = [None] * 9
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        for i, mv in enumerate(moves):
            board[square(mv)] = "x" if i % 2 == 0 else "o"
        me = "x" if len(moves) % 2 == 0 else "o"
    elif words[0] == "go":
        sq = best_move(board, me)
        say("bestmove " + (name(sq) if sq is not None else "none"))
    elif words[0] == "quit":
        break
    # Anything else (setoption, uginewgame, stop, ...) is ignored.
