"""The compiled collection work of climbing games (`recycle/interp/_cardsets.c`) against its pure
Python reference: the sets of k cards of one score, the sets that beat a bound, the highest card;
`RECYCLE_PURE=1` and `recycle --version`; whole BigTwo4 games alike with and without it."""
from __future__ import annotations

import importlib.util
import random
import subprocess
from itertools import combinations, repeat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.games import game_path
from recycle.interp import cardsets, counting, fast, new_game
from recycle.interp.store import PointMap
from recycle.kernel.protocol import RandomAgent, play_game
from recycle.lang import load_game

from pure_runs import run_module

C = cardsets._C
needs_c = pytest.mark.skipif(C is None, reason="the compiled collection work is not in use (not built, or RECYCLE_PURE=1)")

RANKS, SUITS = [str(r) for r in range(2, 15)], "CDHS"
ATTRS = [{"RANK": r, "SUIT": s} for r in RANKS for s in SUITS]

point_maps = st.lists(
    st.tuples(st.one_of(st.tuples(st.just("RANK"), st.sampled_from(RANKS)), st.tuples(st.just("SUIT"), st.sampled_from(SUITS))),
              st.integers(-6, 60)),
    max_size=10).map(lambda awards: PointMap(tuple(((pair,), points) for pair, points in awards)))
hands = st.lists(st.integers(0, len(ATTRS) - 1), unique=True, max_size=20)


def reference_sets(pm: PointMap, k: int, cards: list) -> list:
    """`(tuples k cards using pm)` as the meaning (`CollectionsMixin._Tuples`) makes it."""
    groups: dict[int, list] = {}
    for c in cards:
        groups.setdefault(pm.score(c, ATTRS), []).append(c)
    return [list(t) for s in sorted(groups) for t in combinations(groups[s], k)] if k > 0 else []


def slow(pm, k, cards):
    return ("slow", k)


def scored(pm: PointMap, cards) -> PointMap:
    for c in cards:
        pm.score(c, ATTRS)
    return pm


@needs_c
@settings(max_examples=150, deadline=None)
@given(point_maps, hands, st.integers(-1, 5))
def test_sets_of_one_score_are_the_meanings(pm, hand, k):
    made = C.HandSets(slow, PointMap, cardsets.MAX_MADE)
    if hand and not all(c in pm._cache for c in hand):
        assert made(pm, k, hand) == ("slow", k)  # cards not scored yet: the Python closure scores them
    assert made(scored(pm, hand), k, hand) == reference_sets(pm, k, hand)


@needs_c
def test_sets_leave_everything_unusual_to_the_python_closure():
    fives = ((("RANK", "5"),), 1)  # the fives score 1, every other card 0
    pm = scored(PointMap((fives,)), range(len(ATTRS)))
    made = C.HandSets(slow, PointMap, cardsets.MAX_MADE)
    assert made(pm, 2, [1, 2, 3]) == [[1, 2], [1, 3], [2, 3]]
    for args in [("not a map", 2, [1]), (pm, "2", [1]), (pm, 2, (1, 2)), (pm, 2, [1, "x"]), (pm, True, [1]),
                 (pm, 2, [1, len(ATTRS)])]:
        assert made(*args) == ("slow", args[1])
    few = C.HandSets(slow, PointMap, 5)  # more sets than allowed: the closure raises the located error
    assert few(pm, 2, [0, 1, 2, 3]) == ("slow", 2) and few(pm, 2, [0, 1, 2]) == [[0, 1], [0, 2], [1, 2]]


def outcome(f, *args):
    try:
        return f(*args)
    except (ValueError, TypeError) as e:
        return type(e) if type(e) is TypeError else ValueError


@needs_c
@settings(max_examples=150, deadline=None)
@given(point_maps, point_maps, st.lists(hands, max_size=8), st.sampled_from([1, -1]), st.integers(0, 5),
       st.integers(-10, 70))
def test_sift_is_its_reference(pick, score, sets, sign, op, bound):
    every = {c for s in sets for c in s}
    scored(pick, every), scored(score, every)  # (either scores on demand; here both find them known)
    want = outcome(cardsets.sift, sets, pick, sign, score, ATTRS, op, bound)
    assert outcome(C.sift, sets, pick, sign, score, ATTRS, op, bound) == want
    if isinstance(want, list):  # the sets themselves, in order
        assert all(a is b for a, b in zip(C.sift(sets, pick, sign, score, ATTRS, op, bound), want))


def test_sift_refuses_what_would_draw_or_fail():
    ranks = PointMap(tuple(((("RANK", r),), i) for i, r in enumerate(RANKS)))
    for f in [cardsets.sift] + ([C.sift] if C else []):
        assert f([[0], [4, 8], [8]], ranks, 1, ranks, ATTRS, cardsets.SIFT_OPS[">"], 1) == [[4, 8], [8]]
        for bad in ([[0, 1]], [[]]):  # two cards of one rank tie (a draw); an empty set has no max
            with pytest.raises(ValueError):
                f(bad, ranks, 1, ranks, ATTRS, 4, 0)
        with pytest.raises(TypeError):
            f([["x"]], ranks, 1, ranks, ATTRS, 4, 0)


@needs_c
@settings(max_examples=100, deadline=None)
@given(point_maps, hands, st.sampled_from([1, -1]))
def test_pick_is_the_extreme_or_none_where_it_would_draw(pm, hand, sign):
    scored(pm, hand)
    scores = [sign * pm.score(c, ATTRS) for c in hand]
    unique = hand and scores.count(max(scores)) == 1
    assert C.pick(hand, pm, ATTRS, sign) == (hand[scores.index(max(scores))] if unique else None)


def run_recycle(*args: str, pure: bool) -> subprocess.CompletedProcess:
    return run_module("recycle.cli.main", cardsets.PURE_VARIABLE, pure, *args)


def test_version_says_which_collection_work_runs():
    assert "collections: pure Python (RECYCLE_PURE is set)" in run_recycle("--version", pure=True).stdout
    built = importlib.util.find_spec("recycle.interp._cardsets") is not None
    expected = "compiled (C: recycle.interp._cardsets)" if built else "pure Python (the compiled part is not built)"
    assert f"collections: {expected}" in run_recycle("--version", pure=False).stdout


def playouts(games: int) -> list:
    game = load_game(game_path("BigTwo4"))
    out = []
    for seed in range(games):
        state = new_game(game, seed)
        results = play_game(state, [RandomAgent()] * 4, random.Random(seed))
        out.append((state.choices, results))
    return out


def test_bigtwo_plays_alike_compiled_and_pure(monkeypatch):
    """Same games, move for move, with the sets, sifts and leaves of the C module and with the pure
    reference (which is then seen to judge and append the counted options)."""
    compiled = playouts(6)
    sifted, appended = [], []

    def reference(*args):
        sifted.append(1)
        return cardsets.sift(*args)

    def leaves(*args):
        appended.append(1)
        return cardsets.leaves(*args)

    monkeypatch.setattr(cardsets, "_C", None)
    monkeypatch.setattr(counting, "fast_sift", reference)
    monkeypatch.setattr(counting, "fast_leaves", leaves)
    monkeypatch.setattr(fast, "fast_pick", lambda cards, pm, attrs, sign: None)
    assert playouts(6) == compiled
    assert sifted and appended


@needs_c
def test_a_remembered_question_is_asked_once_per_map_and_number_of_cards():
    asked = []

    def question(pm, attrs):
        asked.append((pm, len(attrs)))
        return len(pm.awards) % 2 == 1

    memo = C.Memo(question)
    maps = [PointMap(tuple(((("RANK", RANKS[i % 13]),), j) for j in range(i))) for i in range(20)]
    for pm in maps[:5] * 3:
        assert memo(pm, ATTRS) is (len(pm.awards) % 2 == 1)
    assert asked == [(pm, len(ATTRS)) for pm in maps[:5]]
    assert memo(maps[0], ATTRS[:4]) is False and asked[-1] == (maps[0], 4)  # another game's cards: asked again
    for pm in maps:  # more maps than it keeps: the oldest are asked again, answered alike
        memo(pm, ATTRS)
    assert memo(maps[1], ATTRS) is True and asked[-1] == (maps[1], len(ATTRS))


def test_distinct_scores_answers_as_its_question():
    ranks = PointMap(tuple(((("RANK", r),), i) for i, r in enumerate(RANKS)))
    order = PointMap(ranks.awards + tuple(((("SUIT", s),), i * 20) for i, s in enumerate(SUITS)))
    for pm in (ranks, order, ranks, order):
        assert counting.distinct_scores(pm, ATTRS) is counting._distinct(pm, ATTRS) is (pm is order)


heads = st.tuples(st.integers(0, 3)) | st.tuples(st.integers(0, 3), st.integers(1, 4))


@settings(max_examples=100, deadline=None)
@given(heads, st.lists(hands, max_size=8), st.lists(st.tuples(st.integers()), max_size=3))
def test_leaves_append_what_zip_of_repeats_appends(head, sets, before):
    """A counted choice's leaves: (site, outer values..., each element), after what `out` held."""
    want = before + list(zip(*(repeat(h) for h in head), sets))
    for f in [cardsets.leaves] + ([C.leaves] if C else []):
        out = list(before)
        assert f(out, head, sets) is None and out == want
        assert all(a[-1] is b for a, b in zip(out[len(before):], sets))  # the sets themselves
        out = list(before)
        f(out, head, iter(sets))  # any iterable, as zip takes
        assert out == want


@settings(max_examples=150, deadline=None)
@given(heads, point_maps, point_maps, st.lists(hands, max_size=8), st.sampled_from([1, -1]), st.integers(0, 5),
       st.integers(-10, 70))
def test_sift_into_appends_the_leaves_of_what_sift_keeps(head, pick, score, sets, sign, op, bound):
    every = {c for s in sets for c in s}
    scored(pick, every), scored(score, every)
    args = (sets, pick, sign, score, ATTRS, op, bound)
    want = outcome(cardsets.sift, *args)
    for f in [cardsets.sift_into, cardsets.sift_into_of(cardsets.sift)] + ([C.sift_into] if C else []):
        out = [(9,)]
        got = outcome(f, out, head, *args)
        if isinstance(want, list):
            assert got is None and out == [(9,)] + [(*head, s) for s in want]
            assert all(a[-1] is b for a, b in zip(out[1:], want))
        else:  # the same error, and nothing appended
            assert got == want and out == [(9,)]


@needs_c
def test_the_compiled_sift_into_is_used_with_the_compiled_sift_only():
    assert cardsets.sift_into_of(C.sift) is C.sift_into
    assert cardsets.sift_into_of(cardsets.sift) is not C.sift_into


@pytest.mark.parametrize("which", ["pure", "compiled"])
def test_leaves_refuse_what_is_not_a_list_and_a_head_and_undo_a_failed_append(which):
    """The pure functions and the compiled ones alike: a TypeError for what is not a list of
    options or a tuple head (checked before any set is sifted), nothing appended on an error."""
    if which == "compiled" and C is None:
        pytest.skip("the compiled collection work is not in use")
    leaves, sift_into = (C.leaves, C.sift_into) if which == "compiled" else (cardsets.leaves, cardsets.sift_into)
    with pytest.raises(TypeError, match="the leaves go to a list, their head is a tuple"):
        leaves((), (0,), [1])
    with pytest.raises(TypeError, match="the leaves go to a list, their head is a tuple"):
        leaves([], [0], [1])
    with pytest.raises(TypeError, match="the leaves go to a list, their head is a tuple"):
        sift_into([], [1], "not the sets", None, 1, None, ATTRS, 4, 0)

    def broken():
        yield [1]
        raise ValueError("a set that cannot be made")

    out = [(2,)]
    with pytest.raises(ValueError):
        leaves(out, (0,), broken())
    assert out == [(2,)]


@pytest.mark.parametrize("which", ["pure", "compiled"])
def test_leaves_of_the_options_list_itself_are_those_it_held(which):
    """The options' list read as it was when the call started (as the pure functions do), not
    past what the call appends to it."""
    if which == "compiled" and C is None:
        pytest.skip("the compiled collection work is not in use")
    leaves, sift_into = (C.leaves, C.sift_into) if which == "compiled" else (cardsets.leaves, cardsets.sift_into)
    out = [(1,), (2,)]
    leaves(out, (0,), out)
    assert out == [(1,), (2,), (0, (1,)), (0, (2,))]
    ranks = PointMap(tuple(((("RANK", r),), i) for i, r in enumerate(RANKS)))
    scored(ranks, set(range(len(ATTRS))))
    out = [[0], [5]]
    sift_into(out, (1,), out, ranks, 1, ranks, ATTRS, 4, -1)  # every set kept (> -1)
    assert out == [[0], [5], (1, [0]), (1, [5])]
