"""Alpha-rank and Nash averaging of a tournament's head-to-head results."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from recycle.tournament import GameRecord, Tally
from recycle.tournament.ranking import POPULATION, alpha_rank, fixation, meta_game, nash_average, transitions
from recycle.tournament.report import ranking_table

RPS = [[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]]


def test_rock_paper_scissors_shares_the_mass_evenly():
    assert alpha_rank(RPS) == pytest.approx([1 / 3] * 3, abs=1e-9)
    mix, value = nash_average(RPS)
    assert mix == pytest.approx([1 / 3] * 3) and value == pytest.approx([0.0] * 3, abs=1e-12)


def test_a_bot_that_beats_every_other_takes_all_the_mass():
    payoff = [[0.5, 0.58, 0.7], [0.42, 0.5, 0.55], [0.3, 0.45, 0.5]]
    mass = alpha_rank(payoff)
    assert mass[0] > 0.999
    mix, value = nash_average(payoff)
    assert mix == pytest.approx([1, 0, 0]) and value == pytest.approx([0.0, -0.08, -0.2])


def test_a_neutral_mutant_fixates_with_chance_one_over_m():
    assert fixation(np.zeros(POPULATION - 1), 10.0) == pytest.approx(1 / POPULATION)
    assert fixation(np.full(POPULATION - 1, 100.0), 10.0) == pytest.approx(1.0)  # no overflow however strong
    assert fixation(np.full(POPULATION - 1, -100.0), 10.0) == pytest.approx(0.0, abs=1e-300)


def test_a_cycle_with_a_dominated_bot_leaves_it_nothing():
    """Rock, paper, scissors and a bot every one of them beats: the cycle keeps the mass."""
    payoff = np.full((4, 4), 0.5)
    payoff[:3, :3] = RPS
    payoff[:3, 3], payoff[3, :3] = 0.8, 0.2
    mass = alpha_rank(payoff)
    assert mass[3] < 1e-6 and mass[:3] == pytest.approx([1 / 3] * 3, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6).flatmap(lambda k: st.lists(st.floats(0.0, 1.0), min_size=k * k, max_size=k * k)))
def test_mass_is_a_distribution_that_follows_the_bots(values):
    k = int(round(len(values) ** 0.5))
    upper = np.triu(np.reshape(values, (k, k)), 1)
    payoff = upper + np.triu(1 - np.reshape(values, (k, k)), 1).T + np.eye(k) * 0.5  # p[j][i] = 1 - p[i][j]
    chain = transitions(payoff)
    assert np.allclose(chain.sum(axis=1), 1.0) and (chain >= -1e-12).all()
    mass = alpha_rank(payoff)
    assert mass.sum() == pytest.approx(1.0) and (mass >= 0).all()
    order = np.random.default_rng(0).permutation(k)  # renaming the bots renames their mass
    assert alpha_rank(payoff[np.ix_(order, order)]) == pytest.approx(mass[order], abs=1e-6)


def test_a_pair_that_never_met_counts_as_even():
    entries = [{"bot": "a", "other": "b", "value": 0.7}, {"bot": "b", "other": "a", "value": 0.3}]
    assert meta_game(["a", "b", "c"], entries).tolist() == [[0.5, 0.7, 0.5], [0.3, 0.5, 0.5], [0.5, 0.5, 0.5]]


def _record(index: int, seats: tuple[int, ...], places: tuple[int, ...]) -> GameRecord:
    return GameRecord(index, index // 3, index % 3, seats, (places,), (tuple(3 - p for p in places),))


def test_a_tournament_summary_carries_alpha_rank_in_its_json():
    tally = Tally(["strong", "middle", "weak"], 3, rating=False)
    for i in range(30):
        seats = [(0, 1, 2), (1, 2, 0), (2, 0, 1)][i % 3]
        tally.add(_record(i, seats, tuple(1 + seats[s] for s in range(3))))  # bot b finishes b+1th wherever it sits
    tally.finish()
    summary = json.loads(json.dumps(tally.summary()))
    mass = summary["alpha_rank"]["mass"]
    assert set(mass) == {"strong", "middle", "weak"} and mass["strong"] > 0.99
    assert summary["nash"]["mix"]["strong"] == pytest.approx(1.0)
    table = ranking_table(summary)
    assert table is not None and table.row_count == 3
