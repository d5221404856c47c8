"""Tides of Time's first pick as the Bayesian game it is: the solver, the exact exploitability measure
(checked against brute force on small games), the shipped equilibrium, `recycle tides-solve`, the bot."""
from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

from recycle.games.tides.bayesian import BayesianGameError, PairGame, solve, type_gains
from recycle.games.tides.cards import cards_of
from recycle.games.tides.equilibrium import deal_reports, first_pick_mix, first_pick_report, strategy_table
from recycle.games.tides.first_pick import root_matrices
from recycle.games.tides.hands import HANDS_COUNT, hand_bits, hand_index, hand_masks, opponents_of
from recycle.games.tides.state import TidesState

BOUND = 0.01  # points a game: the bound on what a best response may gain


# ---- small games: the solver and the exploitability measure against brute force ---------------
def toy_game(seed: int, deck: int = 5, hand: int = 2, actions: int = 2):
    """Types: the `hand`-card hands of a `deck`-card deck; hands that share no card meet; random payoffs."""
    hands = list(itertools.combinations(range(deck), hand))
    pairs = [(a, b) for a in range(len(hands)) for b in range(a + 1, len(hands))
             if not set(hands[a]) & set(hands[b])]
    payoff = np.random.default_rng(seed).integers(-5, 6, size=(len(pairs), actions, actions)).astype(float)
    return hands, pairs, payoff


def brute_force_best_gain(hands, pairs, payoff, strategy) -> float:
    """The most a deviator gains against `strategy`, over every pure strategy of the normal form (one
    action per type), each scored over every dealt pair of types, both seats: no decomposition used."""
    deals = [(a, b, payoff[p]) for p, (a, b) in enumerate(pairs)] + \
            [(b, a, -payoff[p].T) for p, (a, b) in enumerate(pairs)]
    own = sum(strategy[a] @ m @ strategy[b] for a, b, m in deals) / len(deals)
    best = max(sum(m[pure[a]] @ strategy[b] for a, b, m in deals) / len(deals)
               for pure in itertools.product(range(payoff.shape[1]), repeat=len(hands)))
    return best - own


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_best_response_cannot_gain_against_the_solution_brute_force(seed):
    hands, pairs, payoff = toy_game(seed)
    game = PairGame.build(len(hands), [a for a, _ in pairs], [b for _, b in pairs], payoff)
    solution = solve(game, tolerance=1e-7, max_iterations=2_000)
    assert brute_force_best_gain(hands, pairs, payoff, solution.strategy) <= 1e-6
    assert np.allclose(solution.strategy.sum(axis=1), 1.0) and (solution.strategy >= 0).all()


@pytest.mark.parametrize("seed", [3, 4])
def test_exploitability_is_exact_for_any_strategy(seed):
    # Every type meets the same number of types here, so a deal's type is uniform and the brute force's
    # mean over deals equals the mean over types of each type's gain.
    hands, pairs, payoff = toy_game(seed)
    game = PairGame.build(len(hands), [a for a, _ in pairs], [b for _, b in pairs], payoff)
    strategy = np.random.default_rng(seed).dirichlet(np.ones(2), size=len(hands))
    gains = type_gains(game, strategy)
    assert (gains >= 0).all() and gains.mean() > 0.01
    assert gains.mean() == pytest.approx(brute_force_best_gain(hands, pairs, payoff, strategy), abs=1e-12)


def test_rock_paper_scissors_types_mix_evenly():
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    game = PairGame.build(2, [0], [1], [rps])
    solution = solve(game, tolerance=1e-6)
    assert np.allclose(solution.strategy, 1 / 3, atol=1e-3) and solution.exploitability <= 1e-6


def test_a_malformed_pair_table_is_refused():
    with pytest.raises(BayesianGameError, match="two different types"):
        PairGame.build(2, [0], [0], np.zeros((1, 2, 2)))
    with pytest.raises(BayesianGameError, match="shaped"):
        PairGame.build(2, [0], [1], np.zeros((1, 2, 3)))


# ---- the round's hands and the shipped equilibrium ---------------------------------------------
def test_hands_are_numbered_and_meet_1287_hands():
    assert len(hand_masks()) == HANDS_COUNT
    k = hand_index(int(hand_masks()[1234]))
    assert k == 1234 and len(opponents_of(k)) == 1287
    assert not (hand_masks()[opponents_of(k)] & hand_masks()[k]).any()


def test_the_opponent_subset_batch_equals_the_full_one():
    hand = TidesState.new(9).hands[0]
    k = hand_index(hand)
    some = opponents_of(k)[[0, 700, 1286]]
    assert np.allclose(root_matrices(hand, opponents=hand_bits()[some]), root_matrices(hand)[[0, 700, 1286]])


def test_the_shipped_table_is_a_mix_per_hand():
    table = strategy_table()
    assert table.shape == (HANDS_COUNT, 5) and (table >= 0).all() and np.allclose(table.sum(axis=1), 1.0)


def test_exploitability_of_the_shipped_equilibrium_is_within_the_bound():
    # Exact: each seat's hand is valued against the table's mixes of all 1,287 hands it may meet.
    for deal in deal_reports(2, seed=7):
        for seat in deal.seats:
            assert 0 <= seat.gain <= BOUND
            assert seat.value == pytest.approx(float(np.dot(seat.mix, seat.values)))
            assert max(seat.values) <= seat.value + BOUND


# ---- the command and the bot ---------------------------------------------------------------------
def test_tides_solve_reports_exploitability_as_table_and_json(tmp_path, capsys):
    from recycle.cli import main

    runs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        assert main(["tides-solve", "--exploitability", "--deals", "1", "--seed", "3", "--json", str(out)]) == 0
        runs.append(json.loads(out.read_text()))
    shown = capsys.readouterr().out
    assert "best-response gain" in shown and "exploitability: largest best-response gain" in shown
    first, second = runs
    first.pop("seconds"), second.pop("seconds")
    assert first == second  # same seed, same deals, same figures
    assert first["within_bound"] and first["largest_gain"] <= BOUND and len(first["per_deal"]) == 1
    seat = first["per_deal"][0]["seats"][0]
    assert len(seat["hand"]) == 5 and sum(c["share"] for c in seat["cards"]) == pytest.approx(1.0)


def test_tides_solve_fails_beyond_its_bound_and_refuses_bad_options(capsys):
    from recycle.cli import main

    assert main(["tides-solve", "--exploitability", "--deals", "1", "--bound", "-1"]) == 2
    assert main(["tides-solve", "--deals", "1"]) == 2  # --exploitability is the report asked for
    assert "--exploitability" in capsys.readouterr().err


def test_the_solver_draws_its_first_pick_from_the_equilibrium_and_explains_it():
    from recycle.players import make_agent

    s = TidesState.new(12)
    obs, legal = s.observation(0), s.legal_actions()
    agent = make_agent("tides-solver")
    d = agent.explain(obs, legal, random.Random(5))
    mix = first_pick_mix(s.hands[0])
    assert [c.share for c in d.trace.candidates] == pytest.approx(list(mix))
    assert [c.card for c in d.trace.candidates] == [str(c) for c in cards_of(s.hands[0])]
    assert d.trace.game_value == pytest.approx(first_pick_report(s.hands[0]).value)
    assert mix[[str(c) for c in cards_of(s.hands[0])].index(str(d.action))] > 0
    # choose (the table alone) draws the same card with the same generator
    assert agent.choose(obs, legal, random.Random(5)) == d.action


def test_the_previous_first_pick_is_kept_as_an_option():
    from recycle.kernel.specs import AgentSpecError
    from recycle.players import make_agent

    s = TidesState.new(12)
    d = make_agent("tides-solver:first=mean").explain(s.observation(0), s.legal_actions(), random.Random(5))
    assert "mean equilibrium margin" in d.trace.method and sorted(c.share for c in d.trace.candidates)[-1] == 1.0
    with pytest.raises(AgentSpecError, match="first=equilibrium"):
        make_agent("tides-solver:first=vote")
