"""Simultaneous picks by players of unknown types: Bayesian games of one move, solved (numpy).

    solution = solve(games)          # games: (types, m, n), my payoff against each opponent type
    solution.mix, solution.exploitability
    round = solve_symmetric(SymmetricGame.of(opponents, payoff))   # both types private
    round.strategy, round.gains, round.exploitability

`solve` is the one-sided game described below; `SymmetricGame` and
`solve_symmetric` (at the end) the game where both players' types are private.

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

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

CHECK_EVERY = 25
BLOCK, THREADS = 512, 2  # a symmetric game's utilities: types per block, threads summing the blocks


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


# ---- the round's game: both players' types private ----------------------------------------------------
@dataclass(frozen=True)
class SymmetricGame:
    """A symmetric zero-sum Bayesian game of one simultaneous move, every type meeting `opponents` others.

    Chance deals two types that can meet, every such pair equally likely (so each type meets each of its
    opponents with the same probability); each player sees only its own type and picks one of `actions`
    at once. `payoff[k, i, o * actions + j]` is what type k's holder gets playing i when it meets type
    `opponents[k, o]` playing j: for the other seat the same table read from that type's side, so one
    strategy (a mix per type) serves both seats and the game's value is 0. (The flat layout makes every
    type's utilities one matrix-vector product.)
    """

    opponents: np.ndarray  # (types, O) the types each type can meet
    payoff: np.ndarray     # (types, actions, O * actions)

    @property
    def types(self) -> int:
        return self.opponents.shape[0]

    @property
    def actions(self) -> int:
        return self.payoff.shape[1]

    @classmethod
    def of(cls, opponents, payoff) -> SymmetricGame:
        """From per-type tables: `payoff[k, o]` is type k's (actions, actions) matrix against
        `opponents[k, o]`; refused unless zero-sum and symmetric (k against l is -(l against k).T)."""
        opponents, payoff = np.asarray(opponents, dtype=np.int64), np.asarray(payoff)
        types, meet = opponents.shape
        if payoff.shape[:2] != (types, meet) or payoff.ndim != 4 or payoff.shape[2] != payoff.shape[3]:
            raise BayesianGameError("a symmetric game needs payoffs shaped (types, opponents, actions, actions)")
        for k in range(types):
            for o, l in enumerate(opponents[k]):
                back = np.flatnonzero(opponents[l] == k)
                if l == k or len(back) != 1 or not np.allclose(payoff[l, back[0]], -payoff[k, o].T):
                    raise BayesianGameError(f"types {k} and {l} do not meet symmetrically")
        a = payoff.shape[2]
        return cls(opponents, np.ascontiguousarray(payoff.transpose(0, 2, 1, 3)).reshape(types, a, meet * a))

    def utilities(self, strategy: np.ndarray, exact: bool = False) -> np.ndarray:
        """(types, actions): each type's actions' mean payoff against `strategy` (a mix per type), in the
        payoffs' precision, or summed in float64 (`exact`). Blocks of types go to THREADS threads (numpy
        releases the GIL in the gather and the sums)."""
        out = np.empty((self.types, self.actions))
        mixes = strategy if exact else strategy.astype(self.payoff.dtype)

        def block(start: int) -> None:
            rows = slice(start, start + BLOCK)
            flat = mixes[self.opponents[rows]].reshape(len(self.opponents[rows]), -1)
            payoff = self.payoff[rows].astype(float) if exact else self.payoff[rows]
            out[rows] = np.einsum("kiq,kq->ki", payoff, flat)

        if self.types <= BLOCK:
            block(0)
        else:
            with ThreadPoolExecutor(THREADS) as pool:
                list(pool.map(block, range(0, self.types, BLOCK)))
        return out / self.opponents.shape[1]


def type_gains(game: SymmetricGame, strategy: np.ndarray, exact: bool = True) -> np.ndarray:
    """(types,): what a best response gains at each type over `strategy`'s own mix there, summed in
    float64 (or in the payoffs' precision: `exact=False`, to follow a solve). Their mean is the
    exploitability: a best response chooses per type, and the strategy against itself earns the value, 0."""
    u = game.utilities(strategy, exact=exact)
    return u.max(axis=1) - (u * strategy).sum(axis=1)


@dataclass(frozen=True)
class RoundSolution:
    strategy: np.ndarray  # (types, actions): a mix per type
    gains: np.ndarray     # (types,): type_gains of that strategy
    iterations: int

    @property
    def exploitability(self) -> float:
        """The most a best-responding opponent gains over the game's value (0), a game on average."""
        return float(self.gains.mean())


def solve_symmetric(game: SymmetricGame, tolerance: float = 1e-4, max_iterations: int = 5000,
                    check_every: int = CHECK_EVERY, progress=lambda t, gains: None,
                    keep=lambda solution: None) -> RoundSolution:
    """A strategy whose every type's gain is at most `tolerance` (or the best after `max_iterations`), by
    predictive CFR+ as `solve`: the two seats updated in turn, their t-squared averages mixed. The gains
    are followed in the payoffs' precision (`type_gains(exact=False)`); measure the result exactly.
    `progress` hears of every measure, `keep` of every better solution (a long solve can be stopped)."""
    shape = (game.types, game.actions)
    regrets, prediction, total = ([np.zeros(shape), np.zeros(shape)] for _ in range(3))
    best: RoundSolution | None = None
    for t in range(1, max_iterations + 1):
        for seat in (0, 1):  # alternating: seat 1 answers seat 0's new mix
            other = _regret_matching(regrets[1 - seat] + prediction[1 - seat])
            mix = _regret_matching(regrets[seat] + prediction[seat])
            u = game.utilities(other)
            prediction[seat] = u - (u * mix).sum(axis=1, keepdims=True)
            regrets[seat] = np.maximum(regrets[seat] + prediction[seat], 0.0)
            total[seat] += float(t) * t * mix
        if t % check_every == 0 or t == max_iterations:
            # The game is symmetric: either seat's average serves both seats, and so does their mean.
            average = sum(x / x.sum(axis=1, keepdims=True) for x in total) / 2
            average = np.where(average >= 1e-6, average, 0.0)  # averages never quite reach 0
            average /= average.sum(axis=1, keepdims=True)
            found = RoundSolution(average, type_gains(game, average, exact=False), t)
            progress(t, found.gains)
            if best is None or found.gains.max() < best.gains.max():
                best = found
                keep(best)
            if best.gains.max() <= tolerance:
                break
    assert best is not None
    return best
