"""Many small zero-sum matrix games at once (numpy): the batched form of `matrix_game`.

    values, cols = solve_many(games)   # games: array (N, m, n); row player maximises

The same method as `matrix_game.solve`, run over a whole batch: for each
square support (I, J), smallest first (1 x 1 supports are the pure saddle
points), the Shapley-Snow kernel formulas give the candidate in closed form
from the adjugate of A_IJ (no division by a singular matrix):
s = 1'adj(A)1, y = adj(A)1/s, x' = 1'adj(A)/s, v = det(A)/s; a game takes the
first candidate whose mixes are probabilities and against which no pure
strategy does better than v (within `TOLERANCE`). Games already solved drop
out of the batch, so most supports are tried on few games.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from recycle.search.matrix_game import TOLERANCE, MatrixGameError


def _det(a: np.ndarray) -> np.ndarray:
    k = a.shape[-1]
    if k == 0:
        return np.ones(a.shape[0])
    if k == 1:
        return a[:, 0, 0]
    if k == 2:
        return a[:, 0, 0] * a[:, 1, 1] - a[:, 0, 1] * a[:, 1, 0]
    if k == 3:
        return (a[:, 0, 0] * (a[:, 1, 1] * a[:, 2, 2] - a[:, 1, 2] * a[:, 2, 1])
                - a[:, 0, 1] * (a[:, 1, 0] * a[:, 2, 2] - a[:, 1, 2] * a[:, 2, 0])
                + a[:, 0, 2] * (a[:, 1, 0] * a[:, 2, 1] - a[:, 1, 1] * a[:, 2, 0]))
    return np.linalg.det(a)


def _adjugate(a: np.ndarray) -> np.ndarray:
    k = a.shape[-1]
    adj = np.empty_like(a)
    if k == 1:
        adj[:] = 1.0
        return adj
    idx = list(range(k))
    for i in range(k):
        rows = idx[:i] + idx[i + 1:]
        for j in range(k):
            cols = idx[:j] + idx[j + 1:]
            adj[:, j, i] = (-1) ** (i + j) * _det(a[:, rows][:, :, cols])
    return adj


def solve_many(games: np.ndarray, want_cols: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """(value per game, the column player's equilibrium mix per game or None) for games (N, m, n)."""
    games = np.asarray(games, dtype=float)
    if games.ndim != 3 or 0 in games.shape:
        raise MatrixGameError("solve_many takes a non-empty array of games shaped (N, m, n)")
    n_games, m, n = games.shape
    if m == n == 2 and not want_cols:
        return _two_by_two(games), None
    values = np.full(n_games, np.nan)
    cols_mix = np.zeros((n_games, n)) if want_cols else None
    # 1 x 1 supports first, all at once: pure saddle points.
    row_min, col_max = games.min(axis=2), games.max(axis=1)
    low, high = row_min.max(axis=1), col_max.min(axis=1)
    saddle = low == high
    values[saddle] = low[saddle]
    if want_cols:
        cols_mix[np.flatnonzero(saddle), col_max[saddle].argmin(axis=1)] = 1.0
    todo = np.flatnonzero(~saddle)
    g = games[todo]
    for k in range(2, min(m, n) + 1):
        for rows in combinations(range(m), k):
            for cols in combinations(range(n), k):
                if not todo.size:
                    return values, cols_mix
                sub = g[:, list(rows)][:, :, list(cols)]
                adj = _adjugate(sub)
                s = adj.sum(axis=(1, 2))
                ok = np.abs(s) > 1e-12
                s_safe = np.where(ok, s, 1.0)
                y = adj.sum(axis=2) / s_safe[:, None]
                x = adj.sum(axis=1) / s_safe[:, None]
                v = (sub[:, 0, :] * adj[:, :, 0]).sum(axis=1) / s_safe
                tol = TOLERANCE * (1 + np.abs(v))
                ok &= (y >= -TOLERANCE).all(axis=1) & (x >= -TOLERANCE).all(axis=1)
                row_payoff = np.einsum("grj,gj->gr", g[:, :, list(cols)], y)  # every row against y
                col_payoff = np.einsum("gic,gi->gc", g[:, list(rows), :], x)  # every column against x
                ok &= (row_payoff <= (v + tol)[:, None]).all(axis=1)
                ok &= (col_payoff >= (v - tol)[:, None]).all(axis=1)
                if ok.any():
                    done = todo[ok]
                    values[done] = v[ok]
                    if want_cols:
                        cols_mix[np.ix_(done, list(cols))] = np.clip(y[ok], 0.0, None)
                    todo, g = todo[~ok], g[~ok]
    if todo.size:  # pragma: no cover - the kernel theorem says this cannot happen
        raise MatrixGameError(f"{todo.size} game(s) without an equilibrium found (numerically degenerate)")
    return values, cols_mix


def _two_by_two(g: np.ndarray) -> np.ndarray:
    """Values of 2 x 2 games: the saddle point, else (ad - bc) / (a + d - b - c)."""
    a, b, c, d = g[:, 0, 0], g[:, 0, 1], g[:, 1, 0], g[:, 1, 1]
    low = np.maximum(np.minimum(a, b), np.minimum(c, d))
    high = np.minimum(np.maximum(a, c), np.maximum(b, d))
    saddle = low == high
    den = np.where(saddle, 1.0, a + d - b - c)  # never 0 without a saddle point
    return np.where(saddle, low, (a * d - b * c) / den)
