"""A simultaneous pick against an opponent of unknown type: a one-sided Bayesian game, solved (numpy).

    solution = solve(games)          # games: (types, m, n), my payoff against each opponent type
    solution.mix, solution.exploitability

I pick one of m actions knowing only that the opponent's type is one of
`types`, all equally likely; the opponent, knowing its type, picks one of n at
the same time; `games[h][i][j]` is my payoff (zero-sum). My strategy is one
mix; the opponent's, a mix per type. Exact measures of any pair of strategies:

- `guarantee(games, mix)`: what the mix earns against the worst reply of
  every type (each type's best response; the mean over types). No opponent
  strategy, whatever it knows, does better against the mix.
- `reply_values(games, responses)`: each of my actions' mean payoff against
  the types' mixes; the best of them is what my best response earns.

The game's value lies between the two, so their difference (`upper - lower`)
is exact and bounds what either side's best response gains over the value
(it is the sum of both gains). The solver is predictive CFR+ (Farina, Kroer
and Sandholm 2021): regret matching+ with the last instant regret as a
prediction, alternating updates, averages weighted by t squared; it stops
when that difference is below the tolerance, measured exactly every
CHECK_EVERY iterations.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CHECK_EVERY = 25


class BayesianGameError(ValueError):
    """An array that is not a stack of (types, m, n) payoff matrices."""


def guarantee(games: np.ndarray, mix: np.ndarray) -> float:
    """What `mix` earns when every opponent type answers it with its best reply (mean over types)."""
    return float(np.einsum("i,hij->hj", mix, games).min(axis=1).mean())


def reply_values(games: np.ndarray, responses: np.ndarray) -> np.ndarray:
    """(m,): each of my actions' mean payoff against the types' mixes `responses` (types, n)."""
    return np.einsum("hij,hj->i", games, responses) / len(games)


@dataclass(frozen=True)
class Solution:
    mix: np.ndarray        # (m,) my equilibrium mix
    responses: np.ndarray  # (types, n) each opponent type's equilibrium mix
    lower: float           # guarantee(games, mix)
    upper: float           # max of reply_values(games, responses)
    iterations: int

    @property
    def value(self) -> float:
        """The game's value, within `exploitability / 2`."""
        return (self.lower + self.upper) / 2

    @property
    def exploitability(self) -> float:
        """upper - lower: both sides' best-response gains over the value together (exact, >= 0)."""
        return self.upper - self.lower


def _regret_matching(regrets: np.ndarray) -> np.ndarray:
    positive = np.maximum(regrets, 0.0)
    total = positive.sum(axis=-1, keepdims=True)
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), 1.0 / regrets.shape[-1])


def _cleaned(mix: np.ndarray, floor: float) -> np.ndarray:
    kept = np.where(mix >= floor, mix, 0.0)
    return kept / kept.sum()


def solve(games, tolerance: float = 1e-6, max_iterations: int = 4000) -> Solution:
    """An equilibrium with `exploitability <= tolerance`, or the best one found in `max_iterations`."""
    games = np.asarray(games, dtype=float)
    if games.ndim != 3 or 0 in games.shape:
        raise BayesianGameError("a one-sided Bayesian game is an array of payoff matrices shaped (types, m, n)")
    types, m, n = games.shape
    mine, theirs = np.zeros(m), np.zeros((types, n))
    mine_next, theirs_next = np.zeros(m), np.zeros((types, n))  # the predictions: last instant regrets
    mine_sum, theirs_sum = np.zeros(m), np.zeros((types, n))
    best: Solution | None = None
    for t in range(1, max_iterations + 1):
        replies = _regret_matching(theirs + theirs_next)
        mix = _regret_matching(mine + mine_next)
        u = reply_values(games, replies)
        mine_next = u - mix @ u
        mine = np.maximum(mine + mine_next, 0.0)
        mix = _regret_matching(mine + mine_next)  # the opponent answers my updated mix (alternating)
        against = -np.einsum("i,hij->hj", mix, games)
        theirs_next = against - (replies * against).sum(axis=1, keepdims=True)
        theirs = np.maximum(theirs + theirs_next, 0.0)
        weight = float(t) * t
        mine_sum += weight * mix
        theirs_sum += weight * _regret_matching(theirs + theirs_next)
        if t % CHECK_EVERY == 0 or t == max_iterations:
            found = _measured(games, mine_sum / mine_sum.sum(), theirs_sum / theirs_sum.sum(axis=1, keepdims=True), t)
            if best is None or found.exploitability < best.exploitability:
                best = found
            if best.exploitability <= tolerance:
                break
    assert best is not None
    return best


def _measured(games: np.ndarray, mix: np.ndarray, responses: np.ndarray, t: int) -> Solution:
    """The averages measured exactly; my mix replaced by its cleaned or pure form when that guarantees
    more (averages never quite reach 0 on the actions an equilibrium leaves out)."""
    candidates = [np.eye(len(mix))[int(np.argmax(mix))], _cleaned(mix, 1e-3), mix]  # simplest first
    kept = max(candidates, key=lambda c: guarantee(games, c))  # the first of the best: ties go to simpler
    return Solution(kept, responses, guarantee(games, kept), float(reply_values(games, responses).max()), t)
