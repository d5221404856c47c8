"""The round's first pick, both hands private: the symmetric Bayesian game, its exact exploitability (checked
against brute force and an exact normal-form solution), the shipped table, the bot and `recycle tides-solve`."""
from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest

from recycle.games.tides.bayesian import BayesianGameError, SymmetricGame, solve_symmetric, type_gains
from recycle.games.tides.cards import cards_of
from recycle.games.tides.first_pick import opponent_hands
from recycle.games.tides.hands import HANDS_COUNT, hand_index, hand_masks, opponents_of
from recycle.games.tides.round_equilibrium import SCALE, from_quantized, hand_report, quantized, strategy_table
from recycle.games.tides.state import TidesState
from recycle.search.matrix_game import solve as solve_matrix

BOUND = 0.01  # points a game: the bound on the exploitability


def all_meet(types: int, actions: int, seed: int, integers: bool = False):
    """A random symmetric game where every type meets every other: (opponents, payoff per type pair)."""
    rng = np.random.default_rng(seed)
    opponents = np.array([[l for l in range(types) if l != k] for k in range(types)])
    payoff = np.zeros((types, types - 1, actions, actions))
    for k, l in itertools.combinations(range(types), 2):
        m = rng.integers(-5, 6, (actions, actions)) if integers else rng.normal(size=(actions, actions))
        payoff[k, l - 1], payoff[l, k] = m, -m.T
    return opponents, payoff


def pair_payoff(opponents, payoff, k: int, l: int) -> np.ndarray:
    return payoff[k, list(opponents[k]).index(l)]


def best_response_brute_force(opponents, payoff, strategy) -> float:
    """The most an opponent earns against `strategy`, over every pure strategy of its own (an action per type)
    and every ordered pair of types (K mine, L its), without the per-type decomposition."""
    types, actions = strategy.shape
    pairs = [(k, l) for k in range(types) for l in opponents[k]]
    return max(sum(pair_payoff(opponents, payoff, l, k)[pure[l]] @ strategy[k] for k, l in pairs) / len(pairs)
               for pure in itertools.product(range(actions), repeat=types))


def test_exploitability_is_what_a_brute_force_best_response_gains():
    opponents, payoff = all_meet(5, 3, seed=1)
    game = SymmetricGame.of(opponents, payoff)
    strategy = np.random.default_rng(2).dirichlet(np.ones(3), size=5)
    gains = type_gains(game, strategy)
    assert gains.min() >= 0
    assert gains.mean() == pytest.approx(best_response_brute_force(opponents, payoff, strategy), abs=1e-12)


def test_the_solved_strategy_is_an_equilibrium_of_the_exact_normal_form():
    # Three types, two actions: the 8 x 8 normal form (pure strategy = an action per type) solved exactly
    # in fractions by support enumeration; a symmetric game's value is 0.
    opponents, payoff = all_meet(3, 2, seed=4, integers=True)
    pairs = [(k, l) for k in range(3) for l in opponents[k]]
    pures = list(itertools.product(range(2), repeat=3))
    form = [[sum(Fraction(int(pair_payoff(opponents, payoff, k, l)[s[k], t[l]])) for k, l in pairs) / len(pairs)
             for t in pures] for s in pures]
    value, _, _ = solve_matrix(form, exact=True)
    assert value == 0
    s = solve_symmetric(SymmetricGame.of(opponents, payoff), tolerance=1e-7, max_iterations=20_000, check_every=10)
    assert s.gains.max() <= 1e-7
    assert best_response_brute_force(opponents, payoff, s.strategy) <= value + 1e-7


def test_float32_utilities_agree_with_the_exact_ones():
    opponents, payoff = all_meet(6, 5, seed=3)
    exact = SymmetricGame.of(opponents, payoff)
    single = SymmetricGame(exact.opponents, exact.payoff.astype(np.float32))
    strategy = np.random.default_rng(5).dirichlet(np.ones(5), size=6)
    assert single.utilities(strategy) == pytest.approx(exact.utilities(strategy, exact=True), abs=1e-5)


def test_a_game_that_is_not_symmetric_is_refused():
    opponents, payoff = all_meet(3, 2, seed=6)
    payoff[0, 0, 0, 0] += 1
    with pytest.raises(BayesianGameError, match="symmetrically"):
        SymmetricGame.of(opponents, payoff)
    with pytest.raises(BayesianGameError, match="shaped"):
        SymmetricGame.of(opponents, payoff[:, :, 0])


def test_quantized_mixes_sum_exactly_and_stay_within_one_step():
    mixes = np.random.default_rng(7).dirichlet(np.full(5, 0.3), size=200)
    q = quantized(mixes)
    assert q.dtype == np.uint16 and (q.astype(int).sum(axis=1) == SCALE).all()
    assert np.abs(from_quantized(q) - mixes).max() <= 1 / SCALE


# ---- the shipped table -----------------------------------------------------------------------------------
def test_the_shipped_table_is_a_mix_per_hand_numbered_as_the_opponent_batch():
    table = strategy_table()
    assert table.shape == (HANDS_COUNT, 5) and np.allclose(table.sum(axis=1), 1) and table.min() >= 0
    hand = TidesState.new(3).hands[0]
    # The batch's opponent hands come in hand-number order: the table's rows for them line up.
    assert (opponent_hands(hand).sum(axis=1) == hand_masks()[opponents_of(hand_index(hand))]).all()


def test_the_bot_plays_the_tables_mix(monkeypatch):
    from recycle.games.tides import round_equilibrium
    from recycle.players import make_agent

    s = TidesState.new(12)
    rigged = strategy_table().copy()
    rigged[hand_index(s.hands[0])] = [0, 0, 0, 1, 0]
    monkeypatch.setattr(round_equilibrium, "strategy_table", lambda: rigged)
    agent = make_agent("tides-solver")
    assert str(agent.choose(s.observation(0), s.legal_actions(), random.Random(1))).endswith(
        str(cards_of(s.hands[0])[3]))


def test_first_pick_gains_on_a_sampled_deal_are_within_the_bound_and_explained():
    from recycle.players import make_agent

    for seat in (0, 1):
        s = TidesState.new(21)
        if seat:
            s.apply(s.legal_actions()[0])  # seat 0 has picked (face down): seat 1's turn
        r = hand_report(s.hands[seat], compare=True)
        assert r.opponents == 1287 and sum(r.mix) == pytest.approx(1) and 0 <= r.gain <= BOUND
        assert r.one_sided_gain >= -1e-9  # nothing does better against the equilibrium's mixes than a best reply
        d = make_agent("tides-solver").explain(s.observation(seat), s.legal_actions(), random.Random(5))
        assert [c.share for c in d.trace.candidates] == pytest.approx(list(r.mix))
        assert [c.value for c in d.trace.candidates] == pytest.approx(list(r.values))
        assert d.trace.game_value == pytest.approx(r.value) and "round's equilibrium" in d.trace.method
        again = make_agent("tides-solver").choose(s.observation(seat), s.legal_actions(), random.Random(5))
        assert again == d.action  # the look-up draws what explain draws


def test_tides_solve_reports_the_same_for_the_same_seed(tmp_path, capsys):
    from recycle.cli.main import main

    runs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        assert main(["tides-solve", "--exploitability", "--deals", "1", "--seed", "3", "--json", str(out)]) == 0
        runs.append(json.loads(out.read_text()))
    shown = capsys.readouterr().out
    assert "exploitability on the 2 sampled hands" in shown and "one-sided" in shown
    first, second = runs
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    assert first["within_bound"] and first["largest_gain"] <= BOUND and first["whole_game_exploitability"] <= BOUND
    seat = first["per_deal"][0]["seats"][0]
    assert len(seat["hand"]) == 5 and sum(c["share"] for c in seat["cards"]) == pytest.approx(1.0)


def test_tides_solve_fails_beyond_its_bound(monkeypatch):
    from recycle.cli.main import main
    from recycle.games.tides import round_equilibrium

    # Uniform mixes everywhere: far from the equilibrium, a best response gains at every mixing hand.
    monkeypatch.setattr(round_equilibrium, "strategy_table", lambda: np.full((HANDS_COUNT, 5), 0.2))
    hand_report.cache_clear()
    try:
        assert main(["tides-solve", "--exploitability", "--deals", "1", "--seed", "3", "--bound", "0.01"]) == 1
    finally:
        hand_report.cache_clear()


def test_tides_solve_refuses_bad_options(capsys):
    from recycle.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["tides-solve", "--exploitability", "--deals", "0"])
    assert done.value.code == 2 and "--deals" in capsys.readouterr().err
