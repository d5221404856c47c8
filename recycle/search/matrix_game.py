"""Exact mixed equilibria of small two-player zero-sum matrix games.

    value, rows, cols = solve([[3, -1], [-2, 4]])   # the row player maximises

Method: a pure saddle point when maximin equals minimax; otherwise support
enumeration over square supports (Shapley and Snow 1950: every matrix game
has an optimal pair whose supports form a square nonsingular "kernel", so
the enumeration is complete). Each candidate is solved by Gaussian
elimination and kept only if both mixes are probabilities and no pure
strategy does better than the value against them. With `int` or `Fraction`
entries the arithmetic is exact (`Fraction`); with floats it is exact up to
rounding, and candidates are accepted within `TOLERANCE`. Not an iteration:
the result is an equilibrium, never an approximation of one.

The games here are at most 5 x 5 (Tides of Time's hands); the enumeration
is bounded by C(m, k) * C(n, k) supports, 251 for 5 x 5.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

TOLERANCE = 1e-9
MAX_SIDE = 8  # support enumeration grows as C(2n, n); larger games belong to an LP


class MatrixGameError(ValueError):
    """A matrix that is not a game this solver takes (empty, ragged, too large)."""


def solve(matrix: Sequence[Sequence], exact: bool = False) -> tuple:
    """(value, row mix, column mix) of the zero-sum game where the row player gets `matrix[i][j]`.

    `exact=True` computes in `Fraction` (entries must be ints or Fractions).
    Mixes are tuples of probabilities, one per row / column.
    """
    m = len(matrix)
    if not m or not len(matrix[0]) or any(len(r) != len(matrix[0]) for r in matrix):
        raise MatrixGameError("a matrix game needs a non-empty rectangular matrix")
    n = len(matrix[0])
    if max(m, n) > MAX_SIDE:
        raise MatrixGameError(f"{m} x {n} is too large for support enumeration (at most {MAX_SIDE} a side)")
    a = [[Fraction(x) for x in row] for row in matrix] if exact else matrix
    row_min = [min(r) for r in a]
    col_max = [max(a[i][j] for i in range(m)) for j in range(n)]
    low, high = max(row_min), min(col_max)
    if low == high:  # a saddle point: pure strategies
        i, j = row_min.index(low), col_max.index(high)
        return low, _unit(m, i, exact), _unit(n, j, exact)
    tol = 0 if exact else TOLERANCE
    for k in range(2, min(m, n) + 1):
        for rows in combinations(range(m), k):
            for cols in combinations(range(n), k):
                found = _try(a, rows, cols, m, n, tol, exact)
                if found is not None:
                    return found
    raise MatrixGameError("no equilibrium found (numerically degenerate game)")  # pragma: no cover


def _unit(size: int, at: int, exact: bool) -> tuple:
    one, zero = (Fraction(1), Fraction(0)) if exact else (1.0, 0.0)
    return tuple(one if k == at else zero for k in range(size))


def _try(a, rows, cols, m: int, n: int, tol, exact: bool):
    k = len(rows)
    # Column player's mix y on `cols` makes every row of `rows` worth v: A_IJ y = v, sum y = 1.
    y = _linear([[a[i][j] for j in cols] + [-1] for i in rows] + [[1] * k + [0]], [0] * k + [1], exact)
    if y is None:
        return None
    v = y[k]
    if any(p < -tol for p in y[:k]):
        return None
    # Row player's mix x on `rows` makes every column of `cols` worth v: x A_IJ = v.
    x = _linear([[a[i][j] for i in rows] + [-1] for j in cols] + [[1] * k + [0]], [0] * k + [1], exact)
    if x is None or any(p < -tol for p in x[:k]) or abs(x[k] - v) > tol + tol * abs(v):
        return None
    xs, ys = [0] * m, [0] * n
    for p, i in zip(x, rows):
        xs[i] = max(p, 0)
    for p, j in zip(y, cols):
        ys[j] = max(p, 0)
    # No pure reply does better than v against either mix.
    if any(sum(a[i][j] * ys[j] for j in cols) > v + tol for i in range(m)):
        return None
    if any(sum(a[i][j] * xs[i] for i in rows) < v - tol for j in range(n)):
        return None
    zero = Fraction(0) if exact else 0.0
    return v, tuple(p or zero for p in xs), tuple(p or zero for p in ys)


def _linear(rows: list[list], rhs: list, exact: bool):
    """Solve the square system `rows · z = rhs` by Gaussian elimination; None when singular."""
    size = len(rows)
    aug = [[Fraction(x) for x in r] + [Fraction(b)] if exact else [float(x) for x in r] + [float(b)]
           for r, b in zip(rows, rhs)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(aug[r][col]))
        if abs(aug[pivot][col]) <= (0 if exact else 1e-12):
            return None
        aug[col], aug[pivot] = aug[pivot], aug[col]
        p = aug[col][col]
        for r in range(size):
            if r != col and aug[r][col]:
                f = aug[r][col] / p
                row, prow = aug[r], aug[col]
                for c in range(col, size + 1):
                    row[c] -= f * prow[c]
    return [aug[r][size] / aug[r][r] for r in range(size)]
