"""Beliefs: every agent deciding under hidden information says what it thinks each opponent holds.

Expected counts of each value add up to each opponent's hand size; a belief
is one entry per opponent; searching changes no decision; scores against the
truth behave as their definitions say.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president.agents.bots import make_bot
from president.cli.main import main
from president.game.settings import Settings
from president.game.state import PresidentState
from recycle.kernel.beliefs import BeliefTally, brier, placed_right, uniform_belief
from recycle.kernel.protocol import decide

AGENTS = ["Classic", "pimc:iterations=6,rollout=greedy", "ismcts:iterations=25",
          "ismcts:iterations=25,rollout=Classic,model=on,infer=0.05,pool=10", "vote:samples=4"]


def position(seed: int, steps: int) -> PresidentState:
    """A match of Classic copies, `steps` decisions in (or the first decision of the second round)."""
    state = PresidentState.new_match(Settings(), seed)
    bots, rng = [make_bot("Classic") for _ in range(5)], random.Random(seed)
    for _ in range(steps):
        p = state.current_player()
        state.apply(bots[p].choose(state.observation(p), state.legal_actions(), rng))
        if state.round_no:
            break
    return state


def check_sums(belief, state: PresidentState, observer: int) -> None:
    assert belief is not None
    assert [h.player for h in belief.hands] == [p for p in range(state.num_players) if p != observer]
    for h in belief.hands:
        assert h.size == state.sizes[h.player]
        assert sum(x for _, x in h.expected) == pytest.approx(state.sizes[h.player], abs=1e-6)
        assert all(x >= 0 for _, x in h.expected)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), agent=st.sampled_from(AGENTS))
def test_every_agent_believes_hands_of_the_right_sizes(seed, steps, agent):
    state = position(seed, steps)
    p = state.current_player()
    decision = decide(make_bot(agent), state.observation(p), state.legal_actions(), random.Random(seed), explain=True)
    check_sums(decision.belief, state, p)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80))
def test_a_uniform_belief_spreads_exactly_the_unseen_cards(seed, steps):
    state = position(seed, steps)
    p = state.current_player()
    belief = uniform_belief(state.observation(p).sample_state(random.Random(1)), p)
    check_sums(belief, state, p)
    unseen = [state.lay.counts(state.lay.full & ~state.played & ~state.masks[p])]
    labels, _ = state.holdings()
    for v in range(3, 17):
        total = sum(h.of(labels[v]) for h in belief.hands)
        assert total == pytest.approx(unseen[0][v], abs=1e-6)


def the_truth(seed: int, steps: int):
    """A position and its mover's belief of one world, the true one."""
    state = position(seed, steps)
    tally = BeliefTally(state.current_player())
    tally.add(state)
    return state, tally.belief("the truth")


def test_the_truth_scores_perfectly_and_a_belief_less_well():
    state, exact = the_truth(3, 30)
    p = state.current_player()
    right, total = placed_right(exact, state.holdings())
    assert right == pytest.approx(total)
    assert brier(exact, state.holdings())[0] == pytest.approx(0.0)
    guess = uniform_belief(state, p)
    right, total = placed_right(guess, state.holdings())
    assert 0 < right < total
    score, cards = brier(guess, state.holdings())
    assert cards == total and score > 0


def test_the_tally_draws_nothing_so_decisions_do_not_change():
    """A search's belief is counted from worlds it draws anyway: two runs on one seed agree, and the
    rng stream after the decision is where it was before beliefs existed (one draw)."""
    state = position(11, 25)
    p = state.current_player()
    bot = make_bot("ismcts:iterations=60,rollout=Classic,model=on,infer=0.05,pool=20")
    rng = random.Random(5)
    first = decide(bot, state.observation(p), state.legal_actions(), rng, explain=True)
    after = rng.random()
    rng = random.Random(5)
    rng.getrandbits(64)
    assert rng.random() == after
    again = decide(bot, state.observation(p), state.legal_actions(), random.Random(5), explain=True)
    assert again.action == first.action and again.belief == first.belief
    assert first.belief.worlds == 60


@pytest.mark.parametrize("bot", ["Classic", "ismcts:iterations=40", "pimc:iterations=5"])
def test_decide_json_gives_one_belief_per_opponent(capsys, bot):
    code = main(["decide", bot, "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4", "--opponents", "11,10,11,9",
                 "--seed", "1", "--json", "-"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    beliefs = out["beliefs"]
    assert [b["cards"] for b in beliefs] == [11, 10, 11, 9]
    for b in beliefs:
        assert sum(b["expected"].values()) == pytest.approx(b["cards"], abs=0.02)
        assert b["method"]


def test_decide_text_prints_the_belief_grid(capsys):
    assert main(["decide", "Classic", "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "belief: uniform deal of the unseen cards" in out
    grid = out.split("belief: ")[1].splitlines()[1:]
    assert grid[1].split() == ["cards", "11", "10", "10", "10"]
    assert max(len(line) for line in grid) <= 40


def test_trace_json_carries_beliefs(capsys):
    assert main(["trace", "Classic", "--seed", "2", "--round", "1", "--rounds", "1", "--json", "-"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(len(r["beliefs"]) == 4 for r in rows if r["trace"]["kind"] == "play")
