"""The fast paths of issue 22 give exactly what the plain code gave (docs/performance.md)."""
from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from president.game.cards import Give, Play
from president.game.exchange import legal_gifts
from president.game.layout import layout
from president.game.settings import PRESETS, preset
from president.game.state import PresidentState
from recycle.kernel.protocol import IllegalAction, RandomAgent, play_game

TEN_ROUNDS = dataclasses.replace(preset("classic"), rounds=10)


def gifts_by_recursion(counts: list[int], count: int) -> list[Give]:
    """The definition: every multiset of held values, in lexicographic order."""
    values = [v for v in range(3, 17) if counts[v]]
    out: list[Give] = []

    def extend(start: int, chosen: list[int], left: int) -> None:
        if left == 0:
            out.append(Give(tuple(chosen)))
            return
        for i in range(start, len(values)):
            if chosen.count(values[i]) < counts[values[i]]:
                extend(i, chosen + [values[i]], left - 1)

    extend(0, [], count)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=14, max_size=14), st.integers(1, 4))
def test_legal_gifts_are_every_multiset_in_order(held, count):
    counts = [0, 0, 0] + held
    state = SimpleNamespace(pending=[(0, 1, count)], counts=[counts])
    assert legal_gifts(state) == gifts_by_recursion(counts, count)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([(1, 0), (1, 2), (2, 4)]), st.randoms(use_true_random=False))
def test_layout_counts_match_count_per_value(pack, rng):
    lay = layout(*pack)
    mask = rng.getrandbits(lay.full.bit_length()) & lay.full
    assert lay.counts(mask) == [0, 0, 0] + [lay.count(mask, v) for v in range(3, 17)]


def test_random_agent_draws_as_randrange():
    agent, mine, reference = RandomAgent(), random.Random(7), random.Random(7)
    for n in [1, 2, 3, 7, 64, 1000] * 50:
        actions = list(range(n))
        assert agent.choose(None, actions, mine) == actions[reference.randrange(n)]
    with pytest.raises(ValueError):
        agent.choose(None, [], mine)


class Copier(RandomAgent):
    """Returns an equal copy of the random choice: goes through the checking `apply`."""

    def choose(self, observation, legal_actions, rng):
        action = super().choose(observation, legal_actions, rng)
        return Play(action.value, action.count, action.jokers) if isinstance(action, Play) \
            else Give(tuple(action.values))


def test_copies_of_legal_actions_play_the_same_match():
    one, two = PresidentState.new_match(TEN_ROUNDS, 3), PresidentState.new_match(TEN_ROUNDS, 3)
    assert play_game(one, [RandomAgent()] * 5, random.Random(1)) == play_game(two, [Copier()] * 5, random.Random(1))
    assert one.round_log == two.round_log


class Cheater(RandomAgent):
    """Plays a pass where a lead is required: not from the legal list, so checked and refused."""

    def choose(self, observation, legal_actions, rng):
        return Play.PASS


def test_an_action_not_from_the_legal_list_is_still_checked():
    state = PresidentState.new_match(TEN_ROUNDS, 3)
    while state.legal_actions()[-1] is Play.PASS or isinstance(state.legal_actions()[0], Give):
        state.apply(state.legal_actions()[0])  # reach a lead, where passing is illegal
    before = (state.current_player(), list(state.masks), len(state.history))
    with pytest.raises(IllegalAction):
        play_game(state, [Cheater()] * 5, random.Random(1))
    assert (state.current_player(), list(state.masks), len(state.history)) == before


def test_climbing_view_init_takes_exactly_its_fields():
    """ClimbingView's hand-written __init__ (speed) must take every field, with the same defaults."""
    import dataclasses
    import inspect

    from personalities.view import ClimbingView

    params = list(inspect.signature(ClimbingView.__init__).parameters.values())[1:]
    fields = dataclasses.fields(ClimbingView)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, f.name
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is None, f.name
    view = ClimbingView((0,) * 17, (5, 1), frozenset({(7, 1)}), True, (1,) * 17, (3, 4), 10, 54)
    assert view.actions == {} and view.order == tuple(range(3, 16)) and view.rank == 6
    assert dataclasses.replace(view, rank=2) == ClimbingView((0,) * 17, (5, 1), frozenset({(7, 1)}), True,
                                                             (1,) * 17, (3, 4), 10, 54, rank=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.rank = 3


class Plain(RandomAgent):
    """RandomAgent's draws through the general loop (not the all-random fast path, which checks the type)."""


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32), st.integers(0, 2**32))
def test_an_all_random_table_plays_the_moves_of_the_general_loop(name, deal, seed):
    settings_ = dataclasses.replace(PRESETS[name], rounds=3)
    fast, slow = PresidentState.new_match(settings_, deal), PresidentState.new_match(settings_, deal)
    fast_rng, slow_rng = random.Random(seed), random.Random(seed)
    n = fast.num_players
    assert play_game(fast, [RandomAgent()] * n, fast_rng) == play_game(slow, [Plain()] * n, slow_rng)
    assert fast.history == slow.history and fast.round_log == slow.round_log
    assert fast_rng.random() == slow_rng.random()  # the streams advanced alike


@pytest.mark.parametrize("game", ["President5", "Daifugo4", "Poker5"])
def test_an_all_random_recycle_game_plays_the_moves_of_the_general_loop(game):
    from recycle.games import game_path
    from recycle.interp import new_game
    from recycle.lang import load_game

    loaded = load_game(game_path(game))
    for seed in range(3):
        fast, slow = new_game(loaded, seed), new_game(loaded, seed)
        n = fast.num_players
        assert play_game(fast, [RandomAgent()] * n, random.Random(seed)) == \
            play_game(slow, [Plain()] * n, random.Random(seed))
        assert fast.choices == slow.choices
