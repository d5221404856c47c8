"""Rankings of a population from its head-to-head results: alpha-rank and Nash averaging.

Both read the tournament's *meta-game*: `payoff[i][j]`, the share of the rounds
i and j played at one table in which i finished above j (ties count half;
`payoff[i][i]` = 0.5; a pair that never met counts 0.5, as it says nothing).

**Alpha-rank** (Omidshafiei et al. 2019, as in OpenSpiel and TAG), single
population: a population of `m` copies of one bot, now and then a mutant
of another. The mutant's fitness against the population, and the
population's against it, come from the payoffs; the chance that the mutant
takes over (fixates) follows the Fermi rule with *ranking intensity*
`alpha`. The bots are the states of a Markov chain (a move to each other
bot with chance 1/(K-1) times its fixation probability); a bot's alpha-rank
mass is the chain's stationary probability of resting on it: the share of
evolutionary time the population spends playing it. A cycle (rock, paper,
scissors) shares the mass; a bot that beats every other takes all of it.
With payoffs on the 0..1 scale, `alpha` = 10 and `m` = 50 are strong
selection: differences of a few percent already decide a takeover.

**Nash averaging** (Balduzzi et al. 2018): an equilibrium mix of the
zero-sum game `payoff - 0.5`, solved exactly (`recycle.search.matrix_game`,
at most 8 bots), and each bot's payoff against that mix (0 for the bots in
its support, below 0 for the others): a rating that adding copies of a bot
cannot change.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

ALPHA, POPULATION = 10.0, 50
#: Nash averaging solves the meta-game by support enumeration: at most this many bots.
NASH_MAX = 8


def fixation(gain_mutant: Sequence[float], alpha: float) -> float:
    """The chance a single mutant takes over a population of `m` under the Fermi rule.

    `gain_mutant[k-1]` is the mutant's fitness minus the resident's when there are k mutants
    (k = 1..m-1). rho = 1 / (1 + sum_l prod_{k<=l} exp(-alpha * gain_k)), in log space so a
    large `alpha` cannot overflow."""
    logs = np.concatenate(([0.0], np.cumsum(-alpha * np.asarray(gain_mutant, dtype=float))))
    top = logs.max()
    return float(np.exp(-(top + np.log(np.exp(logs - top).sum()))))


def transitions(payoff: np.ndarray, alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """The Markov chain over the bots: row s, column t, the chance a population of s becomes t."""
    k = len(payoff)
    chain = np.zeros((k, k))
    mutants = np.arange(1, m)
    for s in range(k):
        for t in range(k):
            if s == t:
                continue
            # fitness with `mutants` copies of t among m: each plays the m - 1 others
            f_t = ((mutants - 1) * payoff[t, t] + (m - mutants) * payoff[t, s]) / (m - 1)
            f_s = (mutants * payoff[s, t] + (m - mutants - 1) * payoff[s, s]) / (m - 1)
            chain[s, t] = fixation(f_t - f_s, alpha) / (k - 1)
        chain[s, s] = 1.0 - chain[s].sum()
    return chain


def alpha_rank(payoff: Sequence[Sequence[float]], alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """Each bot's alpha-rank mass: the stationary distribution of `transitions` (sums to 1)."""
    p = np.asarray(payoff, dtype=float)
    k = len(p)
    if k == 1:
        return np.ones(1)
    chain = transitions(p, alpha, m)
    # pi (C - I) = 0 with sum(pi) = 1, by least squares (the chain may be nearly reducible)
    system = np.vstack([(chain - np.eye(k)).T, np.ones(k)])
    rhs = np.zeros(k + 1)
    rhs[-1] = 1.0
    pi = np.linalg.lstsq(system, rhs, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


def nash_average(payoff: Sequence[Sequence[float]]) -> tuple[np.ndarray, np.ndarray] | None:
    """(equilibrium mix, each bot's payoff against it) of the meta-game `payoff - 0.5`; None over 8 bots."""
    p = np.asarray(payoff, dtype=float)
    if len(p) > NASH_MAX:
        return None
    from recycle.search.matrix_game import solve  # imported here: only a tournament's summary needs it

    game = (p - 0.5).tolist()
    _, mix, _ = solve(game)
    mix = np.asarray(mix, dtype=float)
    return mix, (p - 0.5) @ mix


def meta_game(names: Sequence[str], head_to_head: Sequence[dict[str, Any]]) -> np.ndarray:
    """The payoff matrix of a tournament summary's head-to-head entries (0.5 where a pair never met)."""
    index = {name: i for i, name in enumerate(names)}
    payoff = np.full((len(names), len(names)), 0.5)
    for entry in head_to_head:
        if entry["value"] is not None:
            payoff[index[entry["bot"]], index[entry["other"]]] = entry["value"]
    return payoff


def rankings(names: Sequence[str], head_to_head: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The JSON of both rankings: `alpha_rank` (mass per bot, alpha, m) and `nash` (mix, payoff)."""
    payoff = meta_game(names, head_to_head)
    mass = alpha_rank(payoff)
    out: dict[str, Any] = {
        "alpha_rank": {"alpha": ALPHA, "population": POPULATION,
                       "mass": {name: round(float(v), 6) for name, v in zip(names, mass)}},
        "nash": None,
    }
    nash = nash_average(payoff)
    if nash is not None:
        mix, value = nash
        out["nash"] = {"mix": {name: round(float(v), 6) for name, v in zip(names, mix)},
                       "payoff": {name: round(float(v), 6) for name, v in zip(names, value)}}
    return out
