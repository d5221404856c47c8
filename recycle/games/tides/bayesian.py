"""Symmetric Bayesian games of one simultaneous move, solved by predictive CFR+ (numpy).

    game = PairGame.build(types, k, l, payoff)
    solution = solve(game, tolerance=1e-4)
    gains = type_gains(game, solution.strategy)   # exact, per type

The game: chance deals each player a *type* (in Tides of Time: its five-card
hand) from the pairs of types that can meet (two hands never share a card),
every pair equally likely; each player sees only its own type and picks an
action, both at once; `payoff[p]` is what type `k[p]`'s holder gets when it
meets type `l[p]` (rows: its actions; columns: the other's). The game is
zero-sum and symmetric (type `l` against `k` gets `-payoff[p].T`), so one
strategy, a mix per type, serves both seats, and the game's value is 0.

A type's utilities are its actions' mean payoffs over the types it can meet
(uniform), against their mixes. Its *gain* is what a best response gains
there over the strategy's own mix: the largest utility minus the mix's. As a
best response picks per type, the most a best-responding opponent gains over
the game value (0) is the types' mean gain: the exploitability, exact for any
strategy, whatever way it was found.

The solver is predictive CFR+ (Farina, Kroer and Sandholm 2021): regrets
floored at 0, the last instant regret as the prediction, averages weighted by
t squared, the two seats updated in turn (alternating updates converge far
faster than simultaneous ones here); the result is the mean of the two seats'
averages, measured exactly (`type_gains`) every CHECK_EVERY iterations.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

CHECK_EVERY = 20  # iterations between two exact measures of the average's gains


class BayesianGameError(ValueError):
    """A pair table that is not a symmetric Bayesian game (shapes, a type meeting itself)."""


@dataclass(frozen=True)
class PairGame:
    """Types 0..types-1, actions 0..actions-1; each unordered pair of types that can meet, once."""

    types: int
    k: np.ndarray        # (P,) the first type of each pair
    l: np.ndarray        # (P,) the second type (never k)
    payoff: np.ndarray   # (P, actions, actions): to k's holder
    meets: np.ndarray    # (types,) how many types each type can meet

    @property
    def actions(self) -> int:
        return self.payoff.shape[1]

    @classmethod
    def build(cls, types: int, k, l, payoff) -> PairGame:
        k, l, payoff = np.asarray(k, dtype=np.int64), np.asarray(l, dtype=np.int64), np.asarray(payoff)
        if payoff.ndim != 3 or payoff.shape[1] != payoff.shape[2] or len(k) != len(l) or len(k) != len(payoff):
            raise BayesianGameError("a pair game needs k, l of one length P and payoffs shaped (P, a, a)")
        if (k == l).any() or (np.minimum(k, l) < 0).any() or (np.maximum(k, l) >= types).any():
            raise BayesianGameError("every pair joins two different types among 0..types-1")
        meets = np.bincount(k, minlength=types) + np.bincount(l, minlength=types)
        return cls(types, k, l, payoff, meets)

    def utilities(self, strategy: np.ndarray) -> np.ndarray:
        """(types, actions): each type's actions' mean payoff against `strategy` (a mix per type)."""
        strategy = strategy.astype(self.payoff.dtype, copy=False)  # float32 tables stay float32 (speed)
        first = np.einsum("pij,pj->pi", self.payoff, strategy[self.l])
        second = -np.einsum("pij,pi->pj", self.payoff, strategy[self.k])
        out = np.empty((self.types, self.actions))
        for a in range(self.actions):
            out[:, a] = (np.bincount(self.k, first[:, a], minlength=self.types)
                         + np.bincount(self.l, second[:, a], minlength=self.types))
        return out / np.maximum(self.meets, 1)[:, None]


def type_gains(game: PairGame, strategy: np.ndarray) -> np.ndarray:
    """(types,): what a best response gains at each type over `strategy`'s own mix there (exact)."""
    u = game.utilities(strategy)
    return u.max(axis=1) - (u * strategy).sum(axis=1)


@dataclass(frozen=True)
class Solution:
    strategy: np.ndarray  # (types, actions): a mix per type
    gains: np.ndarray     # (types,): type_gains of that strategy
    iterations: int

    @property
    def exploitability(self) -> float:
        """The most a best-responding opponent gains over the game value (0), a game on average."""
        return float(self.gains.mean())


def regret_matching(regrets: np.ndarray) -> np.ndarray:
    """Mixes proportional to the positive regrets; uniform where none is positive."""
    positive = np.maximum(regrets, 0.0)
    total = positive.sum(axis=-1, keepdims=True)
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), 1.0 / regrets.shape[-1])


def solve(game: PairGame, tolerance: float = 1e-4, max_iterations: int = 5000,
          progress: Callable[[int, float], None] = lambda t, gain: None,
          keep: Callable[[Solution], None] = lambda solution: None) -> Solution:
    """An equilibrium whose every type's gain is at most `tolerance` (or the best after `max_iterations`).
    `progress(t, largest gain)` is told of every measure, `keep` of every better solution (to save it)."""
    shape = (game.types, game.actions)
    regrets, prediction, total = ([np.zeros(shape), np.zeros(shape)] for _ in range(3))
    best: Solution | None = None
    for t in range(1, max_iterations + 1):
        for seat in (0, 1):  # alternating: seat 1 answers seat 0's new mix
            other = regret_matching(regrets[1 - seat] + prediction[1 - seat])
            mix = regret_matching(regrets[seat] + prediction[seat])
            u = game.utilities(other)
            instant = u - (u * mix).sum(axis=1, keepdims=True)
            regrets[seat] = np.maximum(regrets[seat] + instant, 0.0)
            prediction[seat] = instant
            total[seat] += float(t) * t * mix
        if t % CHECK_EVERY == 0 or t == max_iterations:
            # The game is symmetric: either seat's average serves both, and so does their mean.
            average = clean(sum(x / x.sum(axis=1, keepdims=True) for x in total) / 2)
            gains = type_gains(game, average)
            progress(t, float(gains.max()))
            if best is None or gains.max() < best.gains.max():
                best = Solution(average, gains, t)
                keep(best)
            if gains.max() <= tolerance:
                break
    assert best is not None
    return best


def clean(strategy: np.ndarray, floor: float = 1e-6) -> np.ndarray:
    """Probabilities below `floor` dropped and the rest renormalised (averages never quite reach 0)."""
    kept = np.where(strategy >= floor, strategy, 0.0)
    return kept / kept.sum(axis=1, keepdims=True)
