"""The likeliest hands: one guess of every opponent's hand, the one a belief expects to get most cards right.

The guess places every unseen card, gives every hand its size, is the best of
all such guesses by the belief's own chances (checked against every guess on
small cases), and is exactly the world when a belief is one world.
"""
from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from president.agents.bots import make_bot
from president.cli.main import main
from recycle.kernel.beliefs import guessed_right, placed_right, uniform_belief
from recycle.kernel.likeliest import best_guess
from recycle.kernel.protocol import decide

from test_beliefs import position, the_truth


def worth(guess, at_least) -> float:
    return sum(sum(at_least[o][i][:k]) for o, row in enumerate(guess) for i, k in enumerate(row))


def every_guess(supply, demand):
    """Every placement of the unseen cards into hands of the given sizes (small cases only)."""
    def rows(left, people):
        if people == 1:
            yield [list(left)]
            return
        for first in itertools.product(*(range(n + 1) for n in left)):
            if sum(first) == demand[len(demand) - people]:
                for rest in rows([a - b for a, b in zip(left, first)], people - 1):
                    yield [list(first)] + rest
    yield from rows(list(supply), len(demand))


@st.composite
def cases(draw):
    """Random worlds of 2-3 opponents and 2-4 kinds; the chances are those of the worlds drawn."""
    kinds, people = draw(st.integers(2, 4)), draw(st.integers(2, 3))
    supply = [draw(st.integers(0, 3)) for _ in range(kinds)]
    cards = [i for i, n in enumerate(supply) for _ in range(n)]
    cuts = sorted(draw(st.lists(st.integers(0, len(cards)), min_size=people - 1, max_size=people - 1)))
    demand = [b - a for a, b in zip([0] + cuts, cuts + [len(cards)])]
    rng = random.Random(draw(st.integers(0, 10**6)))
    tails = [[[0.0] * supply[i] for i in range(kinds)] for _ in range(people)]
    worlds = draw(st.integers(1, 6))
    for _ in range(worlds):
        rng.shuffle(cards)
        start = 0
        for o, size in enumerate(demand):
            for i in range(kinds):
                for k in range(cards[start:start + size].count(i)):
                    tails[o][i][k] += 1 / worlds
            start += size
    return tails, supply, demand


@settings(max_examples=150, deadline=None)
@given(cases())
def test_the_guess_places_every_card_and_is_the_best_of_all_guesses(case):
    at_least, supply, demand = case
    guess = best_guess(at_least, supply, demand)
    assert [sum(row) for row in guess] == demand
    assert [sum(col) for col in zip(*guess)] == supply
    best = max(worth(g, at_least) for g in every_guess(supply, demand))
    assert worth(guess, at_least) == pytest.approx(best)


def test_totals_that_disagree_are_refused():
    with pytest.raises(ValueError, match="3 unseen cards for hands of 2"):
        best_guess([[[1.0, 1.0, 1.0]]], [3], [2])


def test_a_belief_of_one_world_guesses_that_world():
    state, belief = the_truth(3, 30)
    right, total = guessed_right(belief, state.holdings())
    assert right == total > 0
    labels, rows = state.holdings()
    for h in belief.hands:
        assert dict(h.likeliest) == {label: n for label, n in zip(labels, rows[h.player]) if label and n}


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_a_uniform_belief_guesses_hands_of_the_right_sizes_from_the_unseen_cards(seed, steps):
    state = position(seed, steps)
    p = state.current_player()
    belief = uniform_belief(state.observation(p).sample_state(random.Random(1)), p)
    labels, rows = state.holdings()
    guessed = [0] * len(labels)
    for h in belief.hands:
        assert sum(k for _, k in h.likeliest) == state.sizes[h.player]
        for label, k in h.likeliest:
            guessed[labels.index(label)] += k
    unseen = [sum(rows[q][i] for q in range(len(rows)) if q != p) for i in range(len(labels))]
    assert guessed == unseen


def test_a_searched_belief_guesses_at_least_as_well_as_its_spread_on_average():
    """Over positions, the likeliest hands of the inference chain's worlds put at least as many cards right
    as the spread of expected counts does (the guess maximises that count by the belief's own chances)."""
    bot = make_bot("ismcts:iterations=200,rollout=Classic,model=on,infer=0.05,pool=200")
    guessed = spread = 0.0
    for seed in range(6):
        state = position(seed, 25)
        p = state.current_player()
        belief = decide(bot, state.observation(p), state.legal_actions(), random.Random(seed), explain=True).belief
        guessed += guessed_right(belief, state.holdings())[0]
        spread += placed_right(belief, state.holdings())[0]
    assert guessed >= spread


@pytest.mark.parametrize("bot", ["Classic", "ismcts:iterations=40"])
def test_decide_json_gives_each_opponents_likeliest_hand(capsys, bot):
    assert main(["decide", bot, "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4", "--opponents", "11,10,11,9",
                 "--seed", "1", "--json", "-"]) == 0
    beliefs = json.loads(capsys.readouterr().out)["beliefs"]
    assert [sum(b["likeliest"].values()) for b in beliefs] == [11, 10, 11, 9]
    assert sum(b["likeliest"].get("8", 0) for b in beliefs) == 1  # I hold three eights: one is unseen


def test_a_belief_works_out_its_likeliest_hands_only_when_one_is_read(monkeypatch):
    """A rule bot explains every decision (evolution counts the rules that fired that way): the min-cost
    flow behind the likeliest hands runs only where a hand is read, once for all of them; equality and
    pickling still carry the guess."""
    import pickle

    import recycle.kernel.beliefs as beliefs

    calls = []
    monkeypatch.setattr(beliefs, "best_guess", lambda *a: calls.append(1) or best_guess(*a))
    state = position(5, 20)
    p = state.current_player()
    belief = decide(make_bot("Classic"), state.observation(p), state.legal_actions(), random.Random(1),
                    explain=True).belief
    assert calls == []
    first = belief.hands[0].likeliest
    assert first and calls == [1]
    assert [h.likeliest for h in belief.hands] and calls == [1]
    again = uniform_belief(state.observation(p).sample_state(random.Random(2)), p, belief.method)
    assert again == belief and calls == [1, 1]
    assert pickle.loads(pickle.dumps(again)) == belief
    changed = beliefs.HandBelief(belief.hands[0].player, belief.hands[0].size,
                                 belief.hands[0].expected, ((first[0][0], first[0][1] + 1),) + first[1:])
    assert changed != belief.hands[0]
