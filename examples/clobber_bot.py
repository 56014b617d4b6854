#!/usr/bin/env python3
"""A minimal Clobber bot for the Agon protocol (standard library only).

It learns the board size from the Game option (`setoption name Game value clobber rows=5
cols=6`, or the one-word `clobber:rows=5,cols=6`), knows the rules itself, and plays the
capture that leaves the opponent the fewest replies. Run it with
`arena check --game clobber:rows=5,cols=6 -- examples/clobber_bot.py`.

Rules (protocol.md section 8): White (w) moves first; a move takes one of your stones to
an orthogonally adjacent square holding an opponent's stone, which is removed; a player
who cannot move loses. The start fills the board with alternating stones, a white one on
a1 (bottom left). Squares are a column letter and a row number: a1, b1, ...; a move is
from-square and to-square joined by '-': a1-b1.
"""
import sys

rows, cols = 5, 6  # until the Game option says otherwise


def start():
    """Stone on (col, row), counted from a1: white where col + row is even."""
    return {(c, r): "w" if (c + r) % 2 == 0 else "b" for c in range(cols) for r in range(rows)}


def square(name):
    try:
        return ord(name[0]) - ord("a"), int(name[1:]) - 1
    except (IndexError, ValueError):
        return None


def name(c, r):
    return chr(ord("a") + c) + str(r + 1)


def moves(board, me):
    other = "b" if me == "w" else "w"
    found = []
    for (c, r), stone in board.items():
        if stone != me:
            continue
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if board.get((c + dc, r + dr)) == other:
                found.append(((c, r), (c + dc, r + dr)))
    return found


def play(board, move):
    (frm, to) = move
    board[to] = board.pop(frm)


def best_move(board, me):
    other = "b" if me == "w" else "w"
    best, fewest = None, None
    for move in moves(board, me):
        after = dict(board)
        play(after, move)
        replies = len(moves(after, other))
        if fewest is None or replies < fewest:
            best, fewest = move, replies
    return best


def game_size(spec):
    """rows and cols from 'clobber rows=5 cols=6' or 'clobber:rows=5,cols=6'."""
    global rows, cols
    for word in spec.replace(":", " ").replace(",", " ").split():
        key, _, value = word.partition("=")
        if key == "rows":
            rows = int(value)
        elif key == "cols":
            cols = int(value)


def say(line):
    print(line, flush=True)  # flush: the controller reads a pipe


board, me = start(), "w"
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] in ("ugi", "uci"):
        say("id name ClobberBot")
        say("option name Game type string default clobber rows=5 cols=6")
        say(words[0] + "ok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "setoption" and "value" in words and words[2].lower() == "game":
        game_size(" ".join(words[words.index("value") + 1:]))
    elif words[0] == "position":
        board, me = start(), "w"
        played = words[words.index("moves") + 1:] if "moves" in words else []
        for mv in played:
            frm, _, to = mv.partition("-")
            move = (square(frm), square(to)) if to else None
            if move not in moves(board, me):
                say("error illegal-move " + mv)  # keep the position before it
                break
            play(board, move)
            me = "b" if me == "w" else "w"
    elif words[0] == "go":
        move = best_move(board, me)
        say("bestmove " + (name(*move[0]) + "-" + name(*move[1]) if move else "none"))
    elif words[0] == "quit":
        break
    # Anything else (uginewgame, stop, ...) is ignored.
