"""Tides of Time's first pick as a one-sided game (simultaneous, the opponent's hand unknown to me, mine known
to it): the Bayesian game solver, its exact exploitability (checked against brute force), `first=one-sided`.
The round's own equilibrium (both hands private) is tests/test_tides_round_equilibrium.py."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from recycle.games.tides.bayesian import BayesianGameError, guarantee, reply_values, solve
from recycle.games.tides.cards import cards_of
from recycle.games.tides.equilibrium import first_pick_report
from recycle.games.tides.solver import Values, unseen_hands
from recycle.games.tides.state import TidesState
from recycle.search.matrix_game import solve as solve_matrix

BOUND = 0.01  # points a game: the bound on the exploitability


# ---- brute force: the normal form, every pure strategy of the opponent enumerated -------------------
def normal_form(games) -> list[list[float]]:
    """Rows: my actions; columns: the opponent's pure strategies (an action per type); entries: my mean
    payoff over the types. No decomposition by type: each column is a whole strategy."""
    types, m, n = np.shape(games)
    return [[sum(games[h][i][pure[h]] for h in range(types)) / types
             for pure in itertools.product(range(n), repeat=types)] for i in range(m)]


def pure_strategy_mix(responses) -> list[float]:
    """The opponent's mixes per type as one mix over its pure strategies (independent across types)."""
    return [float(np.prod([responses[h][a] for h, a in enumerate(pure)]))
            for pure in itertools.product(range(len(responses[0])), repeat=len(responses))]


def real_games(hand_seed: int, opponents: int) -> np.ndarray:
    """A real hand's 5 x 5 first-pick games against a few opponent hands, from the scalar recursion
    (`solver.Values`, not the batch that feeds the solver)."""
    hand = TidesState.new(hand_seed).hands[0]
    values, hands = Values(), unseen_hands(hand)
    return np.array([values.matrix(0, 0, hand, hands[k * 397 % len(hands)]) for k in range(opponents)])


@pytest.mark.parametrize("hand_seed", [2, 8])
def test_a_best_response_cannot_gain_brute_force_on_a_small_real_case(hand_seed):
    games = real_games(hand_seed, 3)  # 5 x 125 normal form
    s = solve(games, tolerance=1e-9, max_iterations=20_000)
    form = np.array(normal_form(games))
    worst_column = min(np.array(s.mix) @ form)  # the opponent's best pure strategy against my mix
    best_row = max(form @ np.array(pure_strategy_mix(s.responses)))  # my best pick against theirs
    assert worst_column == pytest.approx(s.lower, abs=1e-9) and best_row == pytest.approx(s.upper, abs=1e-9)
    assert best_row - worst_column <= 1e-8  # neither side can gain over the value


def test_the_value_equals_an_exact_solution_of_the_normal_form():
    # Two types, integer payoffs: the 3 x 4 normal form solved exactly in fractions by support enumeration.
    games = np.array([[[3, -1], [0, 2], [-2, 4]], [[-1, 3], [2, -2], [1, 0]]], dtype=float)
    exact, _, _ = solve_matrix([[Fraction(x) for x in row] for row in normal_form(games)], exact=True)
    s = solve(games, tolerance=1e-7, max_iterations=20_000)
    assert s.lower - 1e-12 <= exact <= s.upper + 1e-12 and s.exploitability <= 1e-7


def test_exploitability_measures_any_strategy_exactly():
    games = real_games(4, 3)
    form = np.array(normal_form(games))
    rng = np.random.default_rng(0)
    mix, responses = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5), size=3)
    assert guarantee(games, mix) == pytest.approx(min(mix @ form), abs=1e-12)
    assert reply_values(games, responses) == pytest.approx(form @ np.array(pure_strategy_mix(responses)), abs=1e-12)


def test_a_malformed_game_is_refused():
    with pytest.raises(BayesianGameError, match="shaped"):
        solve(np.zeros((2, 3)))


# ---- the real first pick -------------------------------------------------------------------------
def test_exploitability_of_the_one_sided_first_pick_is_within_the_bound():
    r = first_pick_report(TidesState.new(7).hands[1])
    assert 0 <= r.exploitability <= BOUND and r.opponents == 1287
    assert sum(r.mix) == pytest.approx(1.0) and min(r.mix) >= 0
    assert r.guaranteed <= r.value <= r.best_reply
    assert max(r.values) == pytest.approx(r.best_reply)
    assert r.previous_loss >= -r.exploitability  # the previous pick never guarantees more


# ---- the bot ---------------------------------------------------------------------------------------
def test_the_one_sided_first_pick_is_drawn_from_its_equilibrium_and_explained():
    from recycle.players import make_agent

    s = TidesState.new(12)
    d = make_agent("tides-solver:first=one-sided").explain(s.observation(0), s.legal_actions(), random.Random(5))
    r = first_pick_report(s.hands[0])
    names = [str(c) for c in cards_of(s.hands[0])]
    assert [c.card for c in d.trace.candidates] == names
    assert [c.share for c in d.trace.candidates] == pytest.approx(list(r.mix))
    assert [c.value for c in d.trace.candidates] == pytest.approx(list(r.values))
    assert d.trace.game_value == pytest.approx(r.value) and r.mix[names.index(str(d.action))] > 0
    again = make_agent("tides-solver:first=one-sided").explain(s.observation(0), s.legal_actions(), random.Random(5))
    assert again.action == d.action  # same generator, same draw


def test_the_previous_first_pick_is_kept_as_an_option():
    from recycle.kernel.specs import AgentSpecError
    from recycle.players import make_agent

    s = TidesState.new(12)
    d = make_agent("tides-solver:first=mean").explain(s.observation(0), s.legal_actions(), random.Random(5))
    assert "mean equilibrium margin" in d.trace.method and max(c.share for c in d.trace.candidates) == 1.0
    with pytest.raises(AgentSpecError, match="first=equilibrium"):
        make_agent("tides-solver:first=vote")
