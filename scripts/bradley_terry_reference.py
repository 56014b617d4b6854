#!/usr/bin/env python3
"""Independent Bradley-Terry reference for arena/src/ratings.rs (standard library only).

Fits the same model by a different method: Zermelo's fixed-point iteration
(the MM algorithm of Hunter 2004, eq. 3: gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j)),
then error bars from a finite-difference Hessian of the log-likelihood (no closed form
shared with the Rust code). Draws count as half points. Prints JSON used by the tests:
    python3 scripts/bradley_terry_reference.py > arena/tests/data/bt_reference.json
"""
import json
import math

# points[i][j]: points of i against j; games[i][j]: games between them.
GAMES = [[0, 10, 10, 10], [10, 0, 10, 10], [10, 10, 0, 10], [10, 10, 10, 0]]
POINTS = [[0, 6.5, 7, 9], [3.5, 0, 6, 7.5], [3, 4, 0, 5.5], [1, 2.5, 4.5, 0]]
N = len(GAMES)
K = math.log(10) / 400


def loglik(r):
    total = 0.0
    for i in range(N):
        for j in range(N):
            if i != j and GAMES[i][j]:
                p = 1 / (1 + 10 ** ((r[j] - r[i]) / 400))
                total += POINTS[i][j] * math.log(p)
    return total


gamma = [1.0] * N
for _ in range(100000):
    new = []
    for i in range(N):
        w = sum(POINTS[i])
        denom = sum(GAMES[i][j] / (gamma[i] + gamma[j]) for j in range(N) if j != i)
        new.append(w / denom)
    g = math.exp(sum(math.log(x) for x in new) / N)
    new = [x / g for x in new]
    done = max(abs(a - b) for a, b in zip(new, gamma)) < 1e-15
    gamma = new
    if done:
        break
elo = [math.log(x) / K for x in gamma]
mean = sum(elo) / N
elo = [x - mean for x in elo]

# Hessian of the log-likelihood in Elo units by central differences.
h = 1e-2
H = [[0.0] * N for _ in range(N)]
for a in range(N):
    for b in range(N):
        def f(da, db):
            r = list(elo)
            r[a] += da
            r[b] += db
            return loglik(r)
        H[a][b] = (f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / (4 * h * h)
# Covariance of the centred ratings: pseudo-inverse of -H = inverse of (-H + 11'/n) - 11'/n
# (the Hessian's null space is the constant vector). Gauss-Jordan on a copy.
A = [[-H[i][j] + 1.0 / N for j in range(N)] + [1.0 if i == j else 0.0 for j in range(N)] for i in range(N)]
for c in range(N):
    p = max(range(c, N), key=lambda r: abs(A[r][c]))
    A[c], A[p] = A[p], A[c]
    piv = A[c][c]
    A[c] = [x / piv for x in A[c]]
    for r in range(N):
        if r != c:
            f = A[r][c]
            A[r] = [x - f * y for x, y in zip(A[r], A[c])]
cov = [[A[i][N + j] - 1.0 / N for j in range(N)] for i in range(N)]
z = 1.959963984540054
err = [z * math.sqrt(cov[i][i]) for i in range(N)]
los01 = 0.5 * (1 + math.erf((elo[0] - elo[1]) / math.sqrt(cov[0][0] + cov[1][1] - 2 * cov[0][1]) / math.sqrt(2)))
print(json.dumps({"games": GAMES, "points": POINTS, "elo": elo, "error95": err, "los_0_over_1": los01}, indent=1))
