"""Writes a class of ten tic-tac-toe submissions, each a variant of the example bot, for
scripts/grade-stability.sh: make_class.py EXAMPLE FOLDER."""
import os
import sys

example, folder = sys.argv[1], sys.argv[2]
good = open(example).read()
play = "        sq = best_move(board, me)"
loop = 'board, me = [None] * 9, "x"\n'
assert play in good and loop in good
perfect = '''
CACHE = {}


def value(board, me, other):
    """Minimax value for the side to move, me: +1 win, 0 draw, -1 loss (memoised)."""
    key = (tuple(board), me)
    if key not in CACHE:
        CACHE[key] = value_uncached(board, me, other)
    return CACHE[key]


def value_uncached(board, me, other):
    w = winner(board)
    if w:
        return 1 if w == me else -1
    free = [s for s in range(9) if not board[s]]
    if not free:
        return 0
    best = -2
    for s in free:
        board[s] = me
        best = max(best, -value(board, other, me))
        board[s] = None
    return best


def perfect_move(board, me):
    other = "o" if me == "x" else "x"
    free = [s for s in range(9) if not board[s]]
    if not free or winner(board):
        return None
    scored = []
    for s in free:
        board[s] = me
        scored.append((-value(board, other, me), -PREFERENCE.index(s), s))
        board[s] = None
    return max(scored)[2]

'''
bots = {
    "perfect": good.replace(loop, perfect + loop).replace(play, "        sq = perfect_move(board, me)"),
    "example": good,
    "random": good.replace(loop, "import random\n" + loop).replace(
        play, "        free = [s for s in range(9) if not board[s]]\n        sq = random.choice(free) if free and not winner(board) else None"),
    "firstfree": good.replace(play, "        sq = next((s for s in range(9) if not board[s]), None)"),
    "noblock": good.replace("for player in (me, other):", "for player in (me,):"),
    "crash": good.replace(play, "        sq = best_move(board, me) + undefined_name"),
    "illegal": good.replace(play, "        sq = next((s for s in range(9) if board[s]), 0)"),
    "noflush": good.replace("print(line, flush=True)", 'sys.stdout.write(line + "\\n")'),
    "junk": good.replace(play, "        print('thinking...', flush=True)\n" + play),
    "slowmoves": good.replace(loop, "import time\n" + loop).replace(play, "        time.sleep(0.05)\n" + play),
}
os.makedirs(folder, exist_ok=True)
os.chmod(folder, 0o755)
for name, text in bots.items():
    path = os.path.join(folder, name + ".py")
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
