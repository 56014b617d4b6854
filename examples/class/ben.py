#!/usr/bin/env python3
"""Ben's bot for 5x5 four in a row (Agon protocol)"""
NAME = 'ben'
GAME = 'mnk m=5 n=5 k=4'  # the game played until a `setoption name Game` says otherwise
LEVEL = 3
P_RANDOM = 0.35  # probability of a uniformly random legal move
DEPTH = 2  # alpha-beta plies
NODE_BUDGET = 2500  # nodes per move: deeper iterations stop here (deterministic)
SEED = 'sample-ben'
FAULT = None
import time

import hashlib
import random
import sys

WIN = 1000000


class Abort(Exception):
    pass


def parse_spec(spec):
    """('mnk', m, n, k) or ('clobber', rows, cols) from a Game option value."""
    words = spec.lower().replace(":", " ").replace(",", " ").split()
    if not words:
        return None
    name, rest = words[0], words[1:]
    if name in ("tictactoe", "gomoku"):
        name, base = "mnk", ({"m": 3, "n": 3, "k": 3} if name == "tictactoe" else {"m": 15, "n": 15, "k": 5})
    elif name == "mnk":
        base = {"m": 3, "n": 3, "k": 3}
    elif name == "clobber":
        base = {"rows": 5, "cols": 6}
    else:
        return None
    order = list(base)
    pos = 0
    for word in rest:
        key, eq, value = word.partition("=")
        try:
            if eq:
                if key in base:
                    base[key] = int(value)
            elif pos < len(order):
                base[order[pos]] = int(word)
                pos += 1
        except ValueError:
            pass
    if name == "mnk":
        return ("mnk", base["m"], base["n"], base["k"])
    return ("clobber", base["rows"], base["cols"])


def square_index(name, width, height):
    """Index (row * width + col, row 0 at the bottom) of a square like 'b2', or None."""
    if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
        return None
    col, row = ord(name[0].lower()) - ord("a"), int(name[1:]) - 1
    if 0 <= col < width and 0 <= row < height:
        return row * width + col
    return None


def square_name(index, width):
    return chr(ord("a") + index % width) + str(index // width + 1)


def parse_board(text, stones):
    """Rows (top first) of a position string: a list of rows, each a list of cell chars."""
    rows = []
    for part in text.split("/"):
        row, digits = [], ""
        for ch in part:
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                row.extend(["."] * int(digits))
                digits = ""
            row.append(ch.lower() if ch.lower() in stones else ".")
        if digits:
            row.extend(["."] * int(digits))
        rows.append(row)
    return rows


class Mnk:
    """m,n,k game: board[i] is 0 (empty), 1 (x) or 2 (o); row 0 at the bottom."""

    def __init__(self, m, n, k):
        self.m, self.n, self.k = m, n, k
        self.size = m * n
        windows = []
        for r in range(n):
            for c in range(m):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    ec, er = c + dc * (k - 1), r + dr * (k - 1)
                    if 0 <= ec < m and 0 <= er < n:
                        windows.append([(r + dr * i) * m + c + dc * i for i in range(k)])
        self.windows = windows
        self.sq_windows = [[] for _ in range(self.size)]
        for w, squares in enumerate(windows):
            for s in squares:
                self.sq_windows[s].append(w)
        # open-window weights 4^stones; a full window is a win
        self.weight = [0] + [4 ** i for i in range(1, k)] + [0]
        cm, cn = (m - 1) / 2.0, (n - 1) / 2.0
        self.centre = sorted(range(self.size), key=lambda s: (-len(self.sq_windows[s]),
                             abs(s % m - cm) + abs(s // m - cn), s))
        self.reset()

    def reset(self):
        self.board = [0] * self.size
        nw = len(self.windows)
        self.count = [None, [0] * nw, [0] * nw]
        self.score = 0  # open-window score from x's side
        self.stones = 0
        self.winner = 0

    def load(self, rows, side):
        """A position string's rows (top first) and side to move ('x' or 'o')."""
        self.reset()
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                y = self.n - 1 - r
                if ch in "xo" and 0 <= y < self.n and c < self.m:
                    self.play(y * self.m + c, 1 if ch == "x" else 2)
        return 1 if side == "x" else 2

    def contrib(self, w):
        cx, co = self.count[1][w], self.count[2][w]
        if co == 0:
            return self.weight[cx]
        if cx == 0:
            return -self.weight[co]
        return 0

    def play(self, s, p):
        """Put p's stone on s; True if it makes k in a row."""
        board, own, other, weight, k = self.board, self.count[p], self.count[3 - p], self.weight, self.k
        board[s] = p
        self.stones += 1
        won = False
        delta = 0
        for w in self.sq_windows[s]:
            o = other[w]
            c = own[w]
            own[w] = c + 1
            if o == 0:
                delta += weight[c + 1] - weight[c]
                if c + 1 == k:
                    won = True
            elif c == 0:
                delta += weight[o]  # the window dies for the other side
        self.score += delta if p == 1 else -delta
        if won:
            self.winner = p
        return won

    def undo(self, s, p):
        board, own, other, weight = self.board, self.count[p], self.count[3 - p], self.weight
        board[s] = 0
        self.stones -= 1
        delta = 0
        for w in self.sq_windows[s]:
            o = other[w]
            c = own[w]
            own[w] = c - 1
            if o == 0:
                delta += weight[c - 1] - weight[c]
            elif c == 1:
                delta -= weight[o]
        self.score += delta if p == 1 else -delta
        self.winner = 0

    def legal(self):
        if self.winner or self.stones == self.size:
            return []
        return [s for s in range(self.size) if self.board[s] == 0]

    def candidates(self):
        """Empty squares worth searching, centre first: on a board over 64 squares only
        those within two of a stone."""
        board = self.board
        if self.size <= 64 or self.stones == 0:
            return [s for s in self.centre if board[s] == 0]
        m, n = self.m, self.n
        near = set()
        for s in range(self.size):
            if board[s]:
                c0, r0 = s % m, s // m
                for r in range(max(0, r0 - 2), min(n, r0 + 3)):
                    for c in range(max(0, c0 - 2), min(m, c0 + 3)):
                        if board[r * m + c] == 0:
                            near.add(r * m + c)
        return [s for s in self.centre if s in near]

    def winning_squares(self, p):
        """Empty squares where p would make k in a row."""
        found = []
        own, other, k = self.count[p], self.count[3 - p], self.k
        for w, squares in enumerate(self.windows):
            if own[w] == k - 1 and other[w] == 0:
                for s in squares:
                    if self.board[s] == 0 and s not in found:
                        found.append(s)
        return found

    def move_name(self, s):
        return square_name(s, self.m)

    def parse_move(self, text):
        return square_index(text, self.m, self.n)


class Clobber:
    """Clobber: board[i] is 0 (empty), 1 (w) or 2 (b); row 0 at the bottom."""

    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.size = rows * cols
        self.nb = []
        for s in range(self.size):
            r, c = divmod(s, cols)
            self.nb.append([t for t, ok in ((s + 1, c + 1 < cols), (s - 1, c > 0),
                                            (s + cols, r + 1 < rows), (s - cols, r > 0)) if ok])
        self.reset()

    def reset(self):
        cols = self.cols
        self.board = [1 if (s % cols + s // cols) % 2 == 0 else 2 for s in range(self.size)]

    def load(self, rows, side):
        self.board = [0] * self.size
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                y = self.rows - 1 - r
                if ch in "wb" and 0 <= y < self.rows and c < self.cols:
                    self.board[y * self.cols + c] = 1 if ch == "w" else 2
        return 1 if side == "w" else 2

    def moves(self, p):
        board, nb, q = self.board, self.nb, 3 - p
        return [(s, t) for s in range(self.size) if board[s] == p for t in nb[s] if board[t] == q]

    def legal(self, p):
        return self.moves(p)

    def movable(self):
        """Stones of w and of b that can capture."""
        board, nb = self.board, self.nb
        count = [0, 0, 0]
        for s in range(self.size):
            p = board[s]
            if p:
                q = 3 - p
                for t in nb[s]:
                    if board[t] == q:
                        count[p] += 1
                        break
        return count

    def move_name(self, move):
        return square_name(move[0], self.cols) + "-" + square_name(move[1], self.cols)

    def parse_move(self, text):
        if "-" in text:
            a, _, b = text.partition("-")
        else:
            i = 1
            while i < len(text) and text[i].isdigit():
                i += 1
            a, b = text[:i], text[i:]
        s, t = square_index(a, self.cols, self.rows), square_index(b, self.cols, self.rows)
        if s is None or t is None:
            return None
        return (s, t)


def rng_for(seed, position):
    digest = hashlib.sha256((str(seed) + "|" + position).encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def search_mnk(g, p, depth, budget, rng):
    """Best square for p: immediate win, else block, else iterative-deepening alpha-beta."""
    legal = g.legal()
    if not legal:
        return None
    wins = g.winning_squares(p)
    if wins:
        return sorted(wins)[0]
    threats = g.winning_squares(3 - p)
    if threats:
        return rng.choice(sorted(threats))
    roots = g.candidates()
    rng.shuffle(roots)
    nodes = [0]

    def negamax(d, alpha, beta, p):
        nodes[0] += 1
        if nodes[0] > budget:
            raise Abort
        if d == 0:
            return g.score if p == 1 else -g.score
        if g.stones == g.size:
            return 0
        best = -WIN * 2
        for s in g.candidates():
            if g.play(s, p):
                v = WIN + d
            else:
                v = -negamax(d - 1, -beta, -alpha, 3 - p)
            g.undo(s, p)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    best_move = roots[0]
    for d in range(1, depth + 1):
        scored = []
        try:
            alpha = -WIN * 2
            for s in roots:
                if g.play(s, p):
                    v = WIN + d
                else:
                    v = -negamax(d - 1, -WIN * 2, -alpha, 3 - p)
                g.undo(s, p)
                scored.append((v, s))
                if v > alpha:
                    alpha = v
        except Abort:
            g.undo(s, p)
            break
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        roots = [scored[i][1] for i in order]
        best_move = roots[0]
    return best_move


def search_clobber(g, p, depth, budget, rng):
    legal = g.moves(p)
    if not legal:
        return None
    rng.shuffle(legal)
    board = g.board
    nodes = [0]

    def negamax(d, alpha, beta, p):
        nodes[0] += 1
        if nodes[0] > budget:
            raise Abort
        if d == 0:
            count = g.movable()
            if count[p] == 0:
                return -WIN
            return count[p] - count[3 - p]
        moves = g.moves(p)
        if not moves:
            return -(WIN + d)
        best = -WIN * 2
        q = 3 - p
        for s, t in moves:
            board[s], board[t] = 0, p
            v = -negamax(d - 1, -beta, -alpha, q)
            board[s], board[t] = p, q
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    roots = legal
    best_move = roots[0]
    q = 3 - p
    for d in range(1, depth + 1):
        scored = []
        try:
            alpha = -WIN * 2
            for s, t in roots:
                board[s], board[t] = 0, p
                try:
                    v = -negamax(d - 1, -WIN * 2, -alpha, q)
                finally:
                    board[s], board[t] = p, q
                scored.append((v, (s, t)))
                if v > alpha:
                    alpha = v
        except Abort:
            break
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        roots = [scored[i][1] for i in order]
        best_move = roots[0]
    return best_move


class Bot:
    def __init__(self, p_random, depth, budget, seed, game="tictactoe"):
        self.p_random, self.depth, self.budget, self.seed = p_random, depth, budget, seed
        self.spec = ("mnk", 3, 3, 3)
        self.game = Mnk(3, 3, 3)
        self.set_game(game)
        self.side = 1
        self.position = "startpos"

    def set_game(self, spec):
        parsed = parse_spec(spec)
        if parsed is None:
            print("unknown game: " + spec, file=sys.stderr)
            return
        self.spec = parsed
        self.game = Mnk(*parsed[1:]) if parsed[0] == "mnk" else Clobber(*parsed[1:])
        self.side = 1

    def set_position(self, words):
        """`position startpos|fen <board> <side> [moves ...]` (words without 'position')."""
        self.position = " ".join(words)
        g = self.game
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        if words and words[0] == "fen" and len(words) >= 2:
            stones = "xo" if self.spec[0] == "mnk" else "wb"
            rows = parse_board(words[1], stones)
            side = words[2].lower() if len(words) > 2 and words[2] != "moves" else stones[0]
            self.side = g.load(rows, side)
        else:
            g.reset()
            self.side = 1
        for number, text in enumerate(moves, 1):
            move = g.parse_move(text)
            if move is None or move not in self.legal():
                # keep the position before it
                print("error illegal-move move %d of the list (%s) is illegal here" % (number, text), flush=True)
                return
            if self.spec[0] == "mnk":
                g.play(move, self.side)
            else:
                s, t = move
                g.board[s], g.board[t] = 0, g.board[s]
            self.side = 3 - self.side

    def legal(self):
        g = self.game
        return g.legal() if self.spec[0] == "mnk" else g.moves(self.side)

    def choose(self):
        """The move to play (a game move, not yet named), or None when there is none."""
        legal = self.legal()
        if not legal:
            return None
        rng = rng_for(self.seed, self.spec[0] + " " + " ".join(map(str, self.spec[1:])) + " " + self.position)
        if rng.random() < self.p_random:
            return rng.choice(legal)
        if self.spec[0] == "mnk":
            return search_mnk(self.game, self.side, self.depth, self.budget, rng)
        return search_clobber(self.game, self.side, self.depth, self.budget, rng)

    def illegal_move(self):
        """A well-formed move that is not legal here."""
        g = self.game
        if self.spec[0] == "mnk":
            taken = [s for s in range(g.size) if g.board[s]]
            return g.move_name(taken[0]) if taken else "z99"
        for s in range(g.size):
            if g.board[s] == 3 - self.side:
                return g.move_name((s, g.nb[s][0]))  # moving the opponent's stone
        return "a1-a1"


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
