#!/usr/bin/env python3
"""Generate Agon's perft and move-list fixtures for m,n,k games and Clobber from OpenSpiel.

What it does
------------
Counts perft (leaf nodes of the legal-move tree) with OpenSpiel's own rules code
(`pyspiel`: `legal_actions`, `clone`, `apply_action`; nothing is memoised), translates
OpenSpiel's boards and actions into Agon's notation, and writes

    tests/data/mnk.perft          tests/data/clobber.perft
    tests/data/mnk_moves.txt      tests/data/clobber_moves.txt

Perft convention: perft(0) = 1; a finished game at depth > 0 counts 0; otherwise the sum
over the legal moves of perft(child, depth - 1). At depth 1 the count is
len(legal_actions()), which OpenSpiel makes empty for a finished game (bulk counting;
same numbers).

Before writing, it also checks (and aborts on any mismatch):
  * tic-tac-toe: 255,168 complete games (X 131,184 / O 77,904 / draws 46,080; by length
    1,440 / 5,328 / 47,952 / 72,576 / 127,872 for 5..9 plies) and 5,478 distinct reachable
    positions including the empty board, the published numbers;
  * OpenSpiel's `mnk` m=3 n=3 k=3 against OpenSpiel's separate `tic_tac_toe` game;
  * every perft line whose tree is small enough, and every move list, against a small
    independent pure-Python implementation of the rules written here that reads only
    Agon's position strings and names moves in Agon's notation (so a translation or
    orientation slip shows up as a mismatch of move names);
  * every custom Clobber position by loading its translated board string into OpenSpiel
    (`new_initial_state(board_string)`) and comparing with the position reached by play.

How to run (from the repository root; about two to three minutes on 2 cores):

    pip install open_spiel==2.0.2
    python3 tests/oracle/gen_perft.py

It refuses any other open_spiel version unless given --any-version (the version is
written into the files' headers). Rerunning with 2.0.2 reproduces the files byte for
byte: the date in the header is the constant GENERATED_ON below, and the mid-game
positions come from fixed move lists or from random.Random(seed) choosing among the
legal moves sorted in Agon's notation.

Notation translation (OpenSpiel -> Agon)
----------------------------------------
m,n,k (`pyspiel.load_game("mnk", {"m": M, "n": N, "k": K})`):
  * OpenSpiel's m is the width (number of columns) and n the height (number of rows),
    as in Agon (mnk.h: "m: width of the board (i.e., number of columns)"; the state
    prints n lines of m characters).
  * Action id = row * m + col, string "x(row,col)" / "o(row,col)"; row 0 is the first
    line printed by str(state). We take that first printed line as the TOP row, so
    OpenSpiel (row, col) = Agon square chr(ord('a') + col) + str(n - row). The rules are
    symmetric under a reflection, so any consistent choice describes the same game;
    this one matches the printed picture.
  * Player 0 plays 'x' and moves first = Agon's 'x'; player 1 = 'o'.
  * Agon position string: the printed lines in order (top first), '.' runs as numbers,
    joined by '/', then ' x' or ' o' for the side to move.
Clobber (`pyspiel.load_game("clobber", {"rows": R, "columns": C})`):
  * OpenSpiel's `columns` is Agon's `cols`. Row index 0 is the top line of str(state),
    labelled R; the move string is from-square + to-square with row number 1 at the
    bottom ("a5b5"), which is Agon's "a5-b5".
  * 'o' = White = player 0 moves first = Agon 'w'; 'x' = Black = player 1 = Agon 'b'.
    The start position has White on a1 (bottom left), checkerboard, as Agon's.
  * Agon position string: rows top to bottom, 'w'/'b', numbers for runs of empties, '/'
    between rows, then ' w' or ' b'. OpenSpiel's custom board string is
    "<0|1>" + the R*C cells row-major from the top-left as 'o'/'x'/'.'.

Output format (one block per position; '#' lines are comments):
    game mnk m=3 n=3 k=3            | game clobber rows=5 cols=6
    position startpos               | position <Agon position string>
    perft <depth> <count>           (in *.perft)
    moves <m1> <m2> ...             (in *_moves.txt; sorted as plain ASCII strings)
"""

import argparse
import importlib.metadata
import os
import random
import re
import sys
import time

import pyspiel

OPENSPIEL_VERSION = "2.0.2"
GENERATED_ON = "2026-11-22"
# Independent cross-check of a perft line only when its tree has at most this many
# interior nodes (pure Python is slow).
CROSSCHECK_INTERIOR_LIMIT = 4_000_000

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")


def fail(msg):
    raise SystemExit("CHECK FAILED: " + msg)


def check(cond, msg):
    if not cond:
        fail(msg)


def log(*args):
    print(*args, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------
# Perft with OpenSpiel.
# --------------------------------------------------------------------------------------

def os_perft(state, depth):
    if depth == 0:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        total += os_perft(child, depth - 1)
    return total


def runs(cells):
    """Encode a row of cell chars ('.' = empty) with decimal runs for the empties."""
    out, gap = [], 0
    for ch in cells:
        if ch == ".":
            gap += 1
        else:
            if gap:
                out.append(str(gap))
                gap = 0
            out.append(ch)
    if gap:
        out.append(str(gap))
    return "".join(out)


def unruns(row, allowed):
    cells = []
    for tok in re.findall(r"\d+|.", row):
        if tok.isdigit():
            check(int(tok) > 0, "zero run in " + row)
            cells.extend("." * int(tok))
        else:
            check(tok in allowed, "bad char %r in %r" % (tok, row))
            cells.append(tok)
    return cells


def sq(col, rank):
    return chr(ord("a") + col) + str(rank)


def parse_sq(s):
    m = re.fullmatch(r"([a-z])(\d+)", s)
    check(m is not None, "bad square " + s)
    return ord(m.group(1)) - ord("a"), int(m.group(2))


# --------------------------------------------------------------------------------------
# m,n,k translation.
# --------------------------------------------------------------------------------------

def mnk_game(m, n, k):
    return pyspiel.load_game("mnk", {"m": m, "n": n, "k": k})


def mnk_lines(state, m, n):
    lines = str(state).split("\n")
    check(len(lines) == n and all(len(l) == m for l in lines), "mnk board shape")
    return lines


def mnk_pos(state, m, n):
    check(not state.is_terminal(), "position string of a finished mnk game")
    side = {0: "x", 1: "o"}[state.current_player()]
    return "/".join(runs(l) for l in mnk_lines(state, m, n)) + " " + side


def mnk_move_name(state, m, n, action):
    row, col = divmod(action, m)
    name = sq(col, n - row)
    # Cross-check with OpenSpiel's own action string "x(row,col)".
    s = state.action_to_string(state.current_player(), action)
    mt = re.fullmatch(r"[xo]\((\d+),(\d+)\)", s)
    check(mt is not None and (int(mt.group(1)), int(mt.group(2))) == (row, col),
          "mnk action string %s for %d" % (s, action))
    return name


def mnk_action(m, n, name):
    col, rank = parse_sq(name)
    check(0 <= col < m and 1 <= rank <= n, "square off board " + name)
    return (n - rank) * m + col


def mnk_play(m, n, k, names):
    g = mnk_game(m, n, k)
    s = g.new_initial_state()
    for name in names:
        a = mnk_action(m, n, name)
        check(a in s.legal_actions(), "illegal mnk move " + name)
        check(mnk_move_name(s, m, n, a) == name, "mnk move round trip " + name)
        before = mnk_lines(s, m, n)
        mover = "x" if s.current_player() == 0 else "o"
        s.apply_action(a)
        after = mnk_lines(s, m, n)
        # The stone must appear exactly where the name says (row n - rank from the top).
        col, rank = parse_sq(name)
        r = n - rank
        check(before[r][col] == "." and after[r][col] == mover, "mnk stone placement")
        check(sum(a != b for la, lb in zip(before, after) for a, b in zip(la, lb)) == 1,
              "mnk one cell changed")
    return s


# --------------------------------------------------------------------------------------
# Clobber translation.
# --------------------------------------------------------------------------------------

CL_TO_AGON = {"o": "w", "x": "b", ".": "."}
AGON_TO_CL = {"w": "o", "b": "x", ".": "."}


def clobber_game(rows, cols):
    return pyspiel.load_game("clobber", {"rows": rows, "columns": cols})


def clobber_lines(state, rows, cols):
    """Board lines top first, OpenSpiel chars, checking the printed row labels."""
    text = str(state).rstrip("\n").split("\n")
    check(len(text) == rows + 1, "clobber board shape")
    out = []
    for i, line in enumerate(text[:rows]):
        mt = re.fullmatch(r"\s*(\d+)([ox.]+)", line)
        check(mt is not None and len(mt.group(2)) == cols, "clobber line " + line)
        check(int(mt.group(1)) == rows - i, "clobber row label order")
        out.append(mt.group(2))
    check(text[rows].strip() == "".join(chr(ord("a") + c) for c in range(cols)),
          "clobber column labels")
    return out


def clobber_pos(state, rows, cols):
    # A finished game has no player to move in OpenSpiel; never written.
    check(not state.is_terminal(), "position string of a finished clobber game")
    side = {0: "w", 1: "b"}[state.current_player()]
    lines = clobber_lines(state, rows, cols)
    return "/".join(runs("".join(CL_TO_AGON[c] for c in l)) for l in lines) + " " + side


def clobber_board_string(pos, rows, cols):
    board, side = pos.split(" ")
    rws = board.split("/")
    check(len(rws) == rows, "rows in " + pos)
    cells = []
    for r in rws:
        row = unruns(r, "wb")
        check(len(row) == cols, "cols in " + pos)
        cells.extend(AGON_TO_CL[c] for c in row)
    return {"w": "0", "b": "1"}[side] + "".join(cells)


DIRS = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # OpenSpiel: up, right, down, left (row from top)


def clobber_move_name(state, rows, cols, action):
    # Decode the action id ourselves (mixed radix rows, cols, 4 directions) ...
    rest, d = divmod(action, 4)
    row, col = divmod(rest, cols)
    er, ec = row + DIRS[d][0], col + DIRS[d][1]
    name = sq(col, rows - row) + "-" + sq(ec, rows - er)
    # ... and compare with OpenSpiel's action string.
    s = state.action_to_string(state.current_player(), action)
    mt = re.fullmatch(r"([a-z]\d+)([a-z]\d+)", s)
    check(mt is not None and mt.group(1) + "-" + mt.group(2) == name,
          "clobber action string %s vs %s" % (s, name))
    return name


def clobber_moves(state, rows, cols):
    return {clobber_move_name(state, rows, cols, a): a for a in state.legal_actions()}


def clobber_apply(state, rows, cols, name, action):
    before = clobber_lines(state, rows, cols)
    mover = "o" if state.current_player() == 0 else "x"
    state.apply_action(action)
    after = clobber_lines(state, rows, cols)
    (fc, fr), (tc, tr) = (parse_sq(x) for x in name.split("-"))
    fr, tr = rows - fr, rows - tr
    check(before[fr][fc] == mover and before[tr][tc] not in (".", mover),
          "clobber move %s from/to cells" % name)
    check(after[fr][fc] == "." and after[tr][tc] == mover, "clobber move %s result" % name)
    check(sum(a != b for la, lb in zip(before, after) for a, b in zip(la, lb)) == 2,
          "clobber two cells changed")


# --------------------------------------------------------------------------------------
# Independent pure-Python rules on Agon's notation (cross-check only).
# --------------------------------------------------------------------------------------

class IndMnk:
    """grid[rank-1][col], rank 1 at the bottom; parsed from an Agon position string."""

    def __init__(self, m, n, k, pos):
        self.m, self.n, self.k = m, n, k
        if pos == "startpos":
            self.grid = [["."] * m for _ in range(n)]
            self.side = "x"
        else:
            board, self.side = pos.split(" ")
            check(self.side in ("x", "o"), "side in " + pos)
            rws = board.split("/")
            check(len(rws) == n, "rows in " + pos)
            top_first = [unruns(r, "xo") for r in rws]
            check(all(len(r) == m for r in top_first), "cols in " + pos)
            self.grid = list(reversed(top_first))
        nx = sum(r.count("x") for r in self.grid)
        no = sum(r.count("o") for r in self.grid)
        check(nx - no == (0 if self.side == "x" else 1), "stone counts in " + str(pos))
        self.over = self.has_line("x") or self.has_line("o") or nx + no == m * n

    def has_line(self, p):
        g, m, n, k = self.grid, self.m, self.n, self.k
        for y in range(n):
            for x in range(m):
                for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if all(0 <= y + i * dy < n and 0 <= x + i * dx < m
                           and g[y + i * dy][x + i * dx] == p for i in range(k)):
                        return True
        return False

    def line_through(self, x, y, p):
        g, m, n, k = self.grid, self.m, self.n, self.k
        for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cnt = 1
            for s in (1, -1):
                yy, xx = y + s * dy, x + s * dx
                while 0 <= yy < n and 0 <= xx < m and g[yy][xx] == p:
                    cnt += 1
                    yy += s * dy
                    xx += s * dx
            if cnt >= k:
                return True
        return False

    def moves(self):
        if self.over:
            return []
        return [(x, y) for y in range(self.n) for x in range(self.m) if self.grid[y][x] == "."]

    def names(self):
        return sorted(sq(x, y + 1) for x, y in self.moves())

    def perft(self, depth):
        if depth == 0:
            return 1
        mv = self.moves()
        if depth == 1:
            return len(mv)
        total, p = 0, self.side
        empties = len(mv)
        for x, y in mv:
            self.grid[y][x] = p
            self.side = "o" if p == "x" else "x"
            self.over = self.line_through(x, y, p) or empties == 1
            total += self.perft(depth - 1)
            self.grid[y][x] = "."
            self.side = p
            self.over = False
        return total


class IndClobber:
    """grid[rank-1][col], rank 1 at the bottom; parsed from an Agon position string."""

    def __init__(self, rows, cols, pos):
        self.rows, self.cols = rows, cols
        if pos == "startpos":
            self.grid = [["w" if (x + y) % 2 == 0 else "b" for x in range(cols)]
                         for y in range(rows)]
            self.side = "w"
        else:
            board, self.side = pos.split(" ")
            check(self.side in ("w", "b"), "side in " + pos)
            rws = board.split("/")
            check(len(rws) == rows, "rows in " + pos)
            top_first = [unruns(r, "wb") for r in rws]
            check(all(len(r) == cols for r in top_first), "cols in " + pos)
            self.grid = list(reversed(top_first))

    def moves(self):
        g, p = self.grid, self.side
        q = "b" if p == "w" else "w"
        out = []
        for y in range(self.rows):
            for x in range(self.cols):
                if g[y][x] == p:
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        xx, yy = x + dx, y + dy
                        if 0 <= xx < self.cols and 0 <= yy < self.rows and g[yy][xx] == q:
                            out.append((x, y, xx, yy))
        return out

    def names(self):
        return sorted(sq(x, y + 1) + "-" + sq(xx, yy + 1) for x, y, xx, yy in self.moves())

    def perft(self, depth):
        if depth == 0:
            return 1
        mv = self.moves()
        if depth == 1:
            return len(mv)
        total, p = 0, self.side
        q = "b" if p == "w" else "w"
        for x, y, xx, yy in mv:
            self.grid[y][x], self.grid[yy][xx] = ".", p
            self.side = q
            total += self.perft(depth - 1)
            self.grid[y][x], self.grid[yy][xx] = p, q
            self.side = p
        return total


# --------------------------------------------------------------------------------------
# Tic-tac-toe sanity checks against published numbers.
# --------------------------------------------------------------------------------------

def tictactoe_checks():
    g = mnk_game(3, 3, 3)
    games = {"x": 0, "o": 0, "draw": 0}
    by_len = {}
    seen = set()

    def walk(s, ply):
        seen.add(str(s) + "|" + str(s.current_player()))
        if s.is_terminal():
            r = s.returns()
            key = "x" if r[0] > 0 else "o" if r[1] > 0 else "draw"
            games[key] += 1
            by_len[ply] = by_len.get(ply, 0) + 1
            return
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            walk(c, ply + 1)

    walk(g.new_initial_state(), 0)
    total = sum(games.values())
    check(total == 255168, "tic-tac-toe games %d" % total)
    check(games == {"x": 131184, "o": 77904, "draw": 46080}, "tic-tac-toe results %s" % games)
    check(by_len == {5: 1440, 6: 5328, 7: 47952, 8: 72576, 9: 127872},
          "tic-tac-toe games by length %s" % by_len)
    # Side to move is determined by the board in tic-tac-toe, so this counts boards.
    check(len(seen) == 5478, "tic-tac-toe positions %d" % len(seen))
    boards = {k.split("|")[0] for k in seen}
    check(len(boards) == 5478, "tic-tac-toe boards %d" % len(boards))

    # The independent implementation agrees on the game count as well.
    ind_games = [0]

    def ind_walk(b):
        mv = b.moves()
        if not mv:
            ind_games[0] += 1
            return
        p = b.side
        empties = len(mv)
        for x, y in mv:
            b.grid[y][x] = p
            b.side = "o" if p == "x" else "x"
            b.over = b.line_through(x, y, p) or empties == 1
            ind_walk(b)
            b.grid[y][x] = "."
            b.side = p
            b.over = False

    ind_walk(IndMnk(3, 3, 3, "startpos"))
    check(ind_games[0] == 255168, "independent tic-tac-toe games %d" % ind_games[0])

    # OpenSpiel's separate tic_tac_toe game must agree with mnk 3,3,3 at every depth.
    t = pyspiel.load_game("tic_tac_toe")
    for d in range(0, 10):
        a, b = os_perft(g.new_initial_state(), d), os_perft(t.new_initial_state(), d)
        check(a == b, "mnk vs tic_tac_toe at depth %d: %d %d" % (d, a, b))
    log("tic-tac-toe: %d games (x %d, o %d, draw %d), %d positions"
        % (total, games["x"], games["o"], games["draw"], len(seen)))
    return total, len(seen)


# --------------------------------------------------------------------------------------
# Fixture definitions.
# --------------------------------------------------------------------------------------

# (m, n, k, moves from the start in Agon notation, max depth or None = to the end)
MNK_CASES = [
    (3, 3, 3, [], 9),
    (4, 4, 4, [], 6),
    (5, 5, 4, [], 5),
    (5, 5, 5, [], 5),
    (4, 3, 3, [], 7),
    (3, 4, 3, [], 7),
    (1, 1, 1, [], 2),
    (3, 3, 3, ["b2", "a1"], None),
    (3, 3, 3, ["a1", "b1", "a2"], None),
    (3, 3, 3, ["b2", "a1", "c3", "a3"], None),
    (4, 4, 4, ["b2", "c3", "a1", "d4", "b3", "c2", "a4"], None),
    (4, 4, 4, ["a1", "b1", "c1", "a2", "b3", "d4", "c2"], None),
    (4, 3, 3, ["a1", "b2", "d3"], None),
    # 5x5: threats on the board, so that wins within the first plies are counted.
    (5, 5, 4, ["c3", "b2", "c2", "d4", "c4", "a1"], 4),
    (5, 5, 4, ["a1", "e1", "b2", "d2", "c3", "c2", "e5", "b4"], 4),
    (5, 5, 5, ["a1", "e1", "b2", "e2", "c3", "e3", "d4"], 4),
]

MNK_MOVE_CASES = [
    (3, 3, 3, ["a1", "b1", "a2"]),
    (4, 3, 3, ["a1", "b2", "d3"]),
    (4, 4, 4, ["a1", "b1", "c1", "a2", "b3", "d4", "c2"]),
]

# (rows, cols, random seed or None for the start, random plies, depths)
CLOBBER_CASES = [
    (5, 6, None, 0, 5),
    (6, 5, None, 0, 5),
    (4, 4, None, 0, 7),
    (8, 8, None, 0, 4),
    (10, 10, None, 0, 3),
    (2, 2, None, 0, 4),
    (2, 3, None, 0, 6),
    (3, 2, None, 0, 6),
    (3, 3, None, 0, 9),
    (5, 6, 1, 8, 5),
    (5, 6, 2, 13, 5),
    (6, 5, 3, 9, 5),
    (4, 4, 4, 5, 11),
    (8, 8, 5, 20, 3),
    (10, 10, 6, 30, 3),
]

# Boards one square wide: OpenSpiel 2.0.2's clobber cannot play on them (its action
# encoding needs rows > 1 and columns > 1: "spiel_utils.cc:60 bases[i] > 1"), so these
# come from the independent implementation, each count also worked out by hand:
#   1x3 w b w, White to move: a1-b1 or c1-b1, then Black has no stone: 2, 0.
#   1x4 w b w b: a1-b1 (Black d1-c1, White b1-c1, end), c1-b1 (end), c1-d1 (Black
#   b1-a1, end): 3, 2, 1, 0.
# (rows, cols, hand-worked perft 1.., )
CLOBBER_ONE_WIDE = [
    (1, 3, [2, 0]),
    (3, 1, [2, 0]),
    (1, 4, [3, 2, 1, 0]),
    (4, 1, [3, 2, 1, 0]),
]

# A position given directly (finished: White to move and no White stone touches Black).
CLOBBER_FIXED = [
    (2, 2, "w1/1b w", 2),
    (3, 4, "w3/2b1/b1w1 b", 3),
]

CLOBBER_MOVE_CASES = [
    (5, 6, None, 0),
    (5, 6, 1, 8),
    (5, 6, 2, 13),
    (6, 5, 3, 9),
    (8, 8, 5, 20),
]


def clobber_reach(rows, cols, seed, plies):
    """Start position, then `plies` random legal moves chosen by random.Random(seed)
    from the legal moves sorted in Agon notation. Returns (state, Agon move list)."""
    s = clobber_game(rows, cols).new_initial_state()
    played = []
    if seed is None:
        return s, played
    rng = random.Random(seed)
    for _ in range(plies):
        mv = clobber_moves(s, rows, cols)
        check(mv, "random clobber game ended early")
        name = rng.choice(sorted(mv))
        clobber_apply(s, rows, cols, name, mv[name])
        played.append(name)
    check(not s.is_terminal(), "random clobber position is terminal")
    return s, played


def perft_lines(state, depths, ind, label):
    """perft 1..depths with OpenSpiel; cross-check small ones with the independent code."""
    lines, checked = [], 0
    interior = 1  # nodes at depth d-1 ~ interior nodes of the depth-d tree
    for d in range(1, depths + 1):
        t = time.time()
        n = os_perft(state, d)
        dt = time.time() - t
        if interior <= CROSSCHECK_INTERIOR_LIMIT:
            n2 = ind.perft(d)
            check(n == n2, "%s perft %d: OpenSpiel %d, independent %d" % (label, d, n, n2))
            checked = d
        interior = n
        lines.append("perft %d %d" % (d, n))
        log("  %s perft %d = %d (%.1fs)" % (label, d, n, dt))
    return lines, checked


def header(kind):
    return [
        "# source: OpenSpiel %s (pip open_spiel), generated by tests/oracle/gen_perft.py on %s"
        % (OPENSPIEL_VERSION_USED, GENERATED_ON),
        "# game <spec> ; position <Agon position string or startpos> ; perft <depth> <count>"
        if kind == "perft" else
        "# game <spec> ; position <Agon position string or startpos> ; moves <legal moves, "
        "Agon notation, sorted as ASCII strings>",
        "# perft(0) = 1; a finished game at depth > 0 counts 0. Translation from OpenSpiel "
        "and the checks done: see tests/oracle/README.md.",
    ]


def gen_mnk():
    out = header("perft")
    for m, n, k, seq, depth in MNK_CASES:
        spec = "game mnk m=%d n=%d k=%d" % (m, n, k)
        s = mnk_play(m, n, k, seq)
        pos = "startpos" if not seq else mnk_pos(s, m, n)
        if depth is None:
            depth = m * n - len(seq)
        ind = IndMnk(m, n, k, pos)
        lines, checked = perft_lines(s, depth, ind, spec + " " + pos)
        out.append("")
        if seq:
            out.append("# reached from startpos by: " + " ".join(seq))
        out.append("# independently cross-checked to depth %d" % checked)
        out += [spec, "position " + pos] + lines
    return out


def gen_mnk_moves():
    out = header("moves")
    for m, n, k, seq in MNK_MOVE_CASES:
        s = mnk_play(m, n, k, seq)
        pos = mnk_pos(s, m, n)
        names = sorted(mnk_move_name(s, m, n, a) for a in s.legal_actions())
        check(names == IndMnk(m, n, k, pos).names(), "mnk moves of " + pos)
        out += ["", "# reached from startpos by: " + " ".join(seq),
                "game mnk m=%d n=%d k=%d" % (m, n, k), "position " + pos,
                "moves " + " ".join(names)]
    return out


def clobber_reload_check(state, rows, cols, pos):
    bs = clobber_board_string(pos, rows, cols)
    s2 = clobber_game(rows, cols).new_initial_state(bs)
    check(str(s2) == str(state), "clobber board string reload of " + pos)
    check(s2.current_player() == state.current_player(), "clobber reload side " + pos)
    check(clobber_pos(s2, rows, cols) == pos, "clobber reload round trip " + pos)
    check(sorted(s2.legal_actions()) == sorted(state.legal_actions()), "reload moves " + pos)


def gen_clobber():
    out = header("perft")
    out.append("# Exception: the blocks for boards one square wide (rows=1 or cols=1) are marked "
               "NOT from OpenSpiel.")
    for rows, cols, seed, plies, depth in CLOBBER_CASES:
        spec = "game clobber rows=%d cols=%d" % (rows, cols)
        s, played = clobber_reach(rows, cols, seed, plies)
        if seed is None:
            pos = "startpos"
            check(IndClobber(rows, cols, "startpos").grid ==
                  list(reversed([[CL_TO_AGON[c] for c in l]
                                 for l in clobber_lines(s, rows, cols)])),
                  "clobber start position %dx%d" % (rows, cols))
            check(s.current_player() == 0, "White moves first")
        else:
            pos = clobber_pos(s, rows, cols)
            clobber_reload_check(s, rows, cols, pos)
        ind = IndClobber(rows, cols, pos)
        lines, checked = perft_lines(s, depth, ind, spec + " " + pos)
        out.append("")
        if played:
            out.append("# reached from startpos by random.Random(%d), %d plies: %s"
                       % (seed, plies, " ".join(played)))
        out.append("# independently cross-checked to depth %d" % checked)
        out += [spec, "position " + pos] + lines
    for rows, cols, hand in CLOBBER_ONE_WIDE:
        spec = "game clobber rows=%d cols=%d" % (rows, cols)
        ind = IndClobber(rows, cols, "startpos")
        counts = [ind.perft(d) for d in range(1, len(hand) + 1)]
        check(counts == hand, "%dx%d: independent %s, by hand %s" % (rows, cols, counts, hand))
        out += ["", "# NOT from OpenSpiel: its clobber rejects boards one square wide; from the",
                "# independent implementation in gen_perft.py, and worked out by hand there",
                spec, "position startpos"]
        out += ["perft %d %d" % (d, c) for d, c in enumerate(counts, 1)]
    for rows, cols, pos, depth in CLOBBER_FIXED:
        spec = "game clobber rows=%d cols=%d" % (rows, cols)
        s = clobber_game(rows, cols).new_initial_state(clobber_board_string(pos, rows, cols))
        ind = IndClobber(rows, cols, pos)
        lines, checked = perft_lines(s, depth, ind, spec + " " + pos)
        out += ["", "# given directly (loaded into OpenSpiel as board string %s)"
                % clobber_board_string(pos, rows, cols),
                "# independently cross-checked to depth %d" % checked,
                spec, "position " + pos] + lines
    return out


def gen_clobber_moves():
    out = header("moves")
    for rows, cols, seed, plies in CLOBBER_MOVE_CASES:
        s, played = clobber_reach(rows, cols, seed, plies)
        pos = clobber_pos(s, rows, cols)
        if played:
            clobber_reload_check(s, rows, cols, pos)
        names = sorted(clobber_moves(s, rows, cols))
        check(names == IndClobber(rows, cols, pos).names(), "clobber moves of " + pos)
        out.append("")
        if played:
            out.append("# reached from startpos by random.Random(%d), %d plies: %s"
                       % (seed, plies, " ".join(played)))
        else:
            out.append("# the start position")
        out += ["game clobber rows=%d cols=%d" % (rows, cols), "position " + pos,
                "moves " + " ".join(names)]
    return out


def write(name, lines):
    os.makedirs(DATA, exist_ok=True)
    path = os.path.join(DATA, name)
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    log("wrote", os.path.relpath(path, ROOT))


def main():
    global OPENSPIEL_VERSION_USED
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--any-version", action="store_true",
                    help="run with an open_spiel version other than %s" % OPENSPIEL_VERSION)
    args = ap.parse_args()
    OPENSPIEL_VERSION_USED = importlib.metadata.version("open_spiel")
    if OPENSPIEL_VERSION_USED != OPENSPIEL_VERSION and not args.any_version:
        sys.exit("open_spiel %s installed; these fixtures come from %s "
                 "(pip install open_spiel==%s, or pass --any-version)"
                 % (OPENSPIEL_VERSION_USED, OPENSPIEL_VERSION, OPENSPIEL_VERSION))
    t0 = time.time()
    tictactoe_checks()
    mnk, mnk_moves = gen_mnk(), gen_mnk_moves()
    clobber, clobber_moves_ = gen_clobber(), gen_clobber_moves()
    write("mnk.perft", mnk)
    write("mnk_moves.txt", mnk_moves)
    write("clobber.perft", clobber)
    write("clobber_moves.txt", clobber_moves_)
    log("all checks passed in %.0fs" % (time.time() - t0))


if __name__ == "__main__":
    main()
