"""The rule players' fast paths give exactly what the plain code gave (docs/performance.md, section 5)."""
from __future__ import annotations

import dataclasses
import random
from functools import lru_cache
from math import factorial, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from personalities import odds
from personalities.catalog import shipped
from personalities.player import RulePlayer
from personalities.reader import parse_personality
from president.game.settings import preset
from president.game.state import PresidentState
from president.game.view import president_view
from recycle.kernel.protocol import RandomAgent, play_game

_INV = [1.0 / factorial(i) for i in range(128)]


@lru_cache(maxsize=None)
def plain_allocations(hands: tuple[tuple[int, int], ...], groups: tuple[int, ...]) -> float:
    """FollowOdds' recursion as first written: nested tuples, every split in order."""
    if not groups:
        return prod(_INV[free] for free, _ in hands)
    total = 0.0
    for left, weight in plain_splits(groups[0], hands):
        total += weight * plain_allocations(left, groups[1:])
    return total


def plain_splits(cards: int, hands: tuple[tuple[int, int], ...]) -> list:
    out = []

    def extend(i: int, left: int, chosen: list[int]) -> None:
        free, limit = hands[i]
        if i == len(hands) - 1:
            if left <= limit and left <= free:
                split = chosen + [left]
                rest = tuple(sorted((f - a, lim) for (f, lim), a in zip(hands, split)))
                out.append((rest, prod(_INV[a] for a in split)))
            return
        for a in range(0, min(left, limit, free) + 1):
            extend(i + 1, left - a, chosen + [a])

    extend(0, cards, [])
    return out


def plain_chance(hands, groups, total) -> float:
    scale = prod(factorial(c) for c, _ in hands) * prod(factorial(u) for u in groups) * factorial(total - sum(groups))
    return float(scale) / factorial(total) * plain_allocations(hands, groups)


@st.composite
def odds_problems(draw):
    n = draw(st.integers(1, 5))
    hands = tuple(sorted((draw(st.integers(0, 14)), draw(st.integers(0, 3))) for _ in range(n)))
    groups = tuple(sorted(draw(st.lists(st.integers(1, 8), max_size=6))))
    total = sum(c for c, _ in hands)
    if sum(groups) > total:
        groups = ()
    return hands, groups, total


#: The recursion in pure Python, and compiled (personalities/_odds.c) where it was built.
ENGINES = ["pure"] + (["compiled"] if odds._COMPILED is not None else [])


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=400, deadline=None)
@given(problem=odds_problems(), limit=st.sampled_from([1 << 19, 3]))
def test_follow_odds_recursion_gives_the_plain_floats(engine, problem, limit):
    """Bit for bit, also when the memory is cleared between computations (a limit of 3 entries)."""
    hands, groups, total = problem
    saved = odds._Memo.LIMIT, odds._COMPILED
    odds._Memo.LIMIT = limit
    odds._COMPILED = saved[1] if engine == "compiled" else None
    try:
        odds._Memo.clear()
        odds._chance_nobody_holds.cache_clear()
        assert odds._chance_nobody_holds(hands, groups, total) == plain_chance(hands, groups, total)
    finally:
        odds._Memo.LIMIT, odds._COMPILED = saved
        odds._Memo.clear()
        odds._chance_nobody_holds.cache_clear()


def test_follow_odds_memory_stays_bounded(monkeypatch):
    """Past its limit the memory is cleared before the next computation, so it never holds more
    than the limit plus what one computation stores."""
    problems = [(((free, 1), (free + 1, 1), (13, 1)), (2, 3, 4, 4), 2 * free + 14) for free in range(2, 12)]
    alone = []
    for problem in problems:
        odds._Memo.clear()
        odds._chance_nobody_holds.cache_clear()
        odds._chance_nobody_holds(*problem)
        alone.append(odds._Memo.stored)
    monkeypatch.setattr(odds._Memo, "LIMIT", 50)
    odds._Memo.clear()
    odds._chance_nobody_holds.cache_clear()
    held = []
    for problem in problems:
        odds._chance_nobody_holds(*problem)
        held.append(sum(len(table) for table in odds._Memo.sums.values()))
    assert max(held) <= 50 + max(alone)
    assert sum(alone) > 50 + max(alone)  # unbounded, it would have held more


RANDOM_PASSER = "P Random < 40\nLp Random < 70\nL*\n"


def walk_every_decision(personality) -> RulePlayer:
    """A rule player that walks its rules even with one legal action (a fallback turns the shortcut off)."""
    return RulePlayer(personality, president_view, fallback=RandomAgent())


@pytest.mark.parametrize("table", ["classic", "daifugo"])
@pytest.mark.parametrize("names", ["Classic,Cautious,Aggressive,Counter,TwoHoarder", "random-passer"])
def test_a_forced_decision_is_skipped_only_where_nothing_changes(table, names):
    """Same moves and same generator state with and without the one-legal-action shortcut; a
    personality with a Random condition still draws at every decision."""
    if names == "random-passer":
        personalities = [parse_personality(RANDOM_PASSER, name="RandomPasser")] * 5
    else:
        personalities = [shipped(n) for n in names.split(",")]
    settings_ = dataclasses.replace(preset(table), rounds=4)
    for seed in range(3):
        fast, slow = PresidentState.new_match(settings_, seed), PresidentState.new_match(settings_, seed)
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        assert play_game(fast, [RulePlayer(p, president_view) for p in personalities], fast_rng) == \
            play_game(slow, [walk_every_decision(p) for p in personalities], slow_rng)
        assert fast.round_log == slow.round_log and fast.history == slow.history
        assert fast_rng.random() == slow_rng.random()
