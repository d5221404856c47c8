"""Counted options (`recycle.interp.counting`) are exactly the explored ones.

A random playout counts a choice's options without trying them only where the
choice's shape proves that trying would give one option per leaf, none merged,
none failing. These tests play the same games with counting and with exploring
(counting switched off) and compare everything: moves, draws, final state, errors.
The games are drawn from a family of choice shapes that includes what the proof
must refuse: options that merge, may do nothing, may fail, move hidden cards,
draw at random, or come near the step bound.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from recycle_engines import new_compiled_game

from recycle.games import game_path
from recycle.interp import new_game
from recycle.interp.engine import Engine
from recycle.interp.counting import Leaves, small_scores
from recycle.interp.evaluate import MAX_INT
from recycle.interp.store import PointMap
from recycle.interp.errors import LimitError, RecycleRuntimeError
from recycle.lang import load_game, parse_game

HAND, SHOWN, HIDDEN = "((current player) iloc HAND)", "((current player) vloc SHOWN)", "(game hloc POOL)"
TABLE = "(game vloc TABLE)"
FILTERED = f"(filter {HAND} 'H (!= (cardatt RANK 'H) ONE))"
TOP = f"(set (game sto TOP) (score (top {TABLE}) using (game points VALUE)))"


def _game(options: list[str], rounds: int = 12, table: int = 0) -> str:
    """Three players, 16 cards of 4 values (4 each), `table` of them on the table; a stage of
    `rounds` turns whose choice has the given options (they may use TABLE, DISCARD, A, B, C, TOP)."""
    return f"""
(game
 (setup
  (create players 3)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR))
                                       (COLOR (RED (SUIT (HEARTS, DIAMONDS))) (BLACK (SUIT (CLUBS, SPADES)))))))
 (do (
      (set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)))
      (set (game points ORDER) (((RANK : ONE) 10) ((RANK : TWO) 20) ((RANK : THREE) 30) ((RANK : FOUR) 40)
                                ((SUIT : HEARTS) 1) ((SUIT : DIAMONDS) 2) ((SUIT : CLUBS) 3) ((SUIT : SPADES) 4)))
      (shuffle (game iloc STOCK))
      (repeat 3 (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (all player 'P (move (top (game iloc STOCK)) (top ('P vloc SHOWN))))
      (repeat 2 (move (top (game iloc STOCK)) (top (game hloc POOL))))
      (repeat {table} (move (top (game iloc STOCK)) (top (game vloc TABLE))))))
 (stage player
        (end (or (>= (game sto ROUNDS) {rounds}) (== (size ((current player) iloc HAND)) 0)))
        (do ((inc (game sto ROUNDS) 1)))
        (choice ({' '.join(options)})))
 (scoring max (game sto A)))
"""


def _outcome(game, seed: int, counting: bool, **limits):
    """How a random playout ends: its moves, draws and state, or the error it raised (not
    counting: on the reference engine, which tries every option)."""
    rng = random.Random(seed)
    try:
        state = new_game(game, seed, engine=Engine.COMPILED if counting else Engine.REFERENCE, **limits)
        steps = state.random_playout(rng, rng._randbelow)  # (draws as many bits as options need)
    except RecycleRuntimeError as e:
        return type(e).__name__, str(e), rng.random()
    s = state.st
    # (places as they hold cards: trying options leaves the empty ones they moved cards to)
    places = {key: cards for key, cards in s.locs.items() if cards}
    return steps, state.results(), places, s.ints, s.where, s.rng.s, rng.random()


# --- a family of choices -----------------------------------------------------------------------

STATEMENTS = [
    "(set (game sto A) 1)", "(inc (game sto B) 1)", "((== (game sto A) 1) (set (game sto C) 2))",
    f"(repeat all (move (top {TABLE}) (top (game vloc DISCARD))))", TOP,
    "(set (game sto C) (size (game vloc DISCARD)))",
    "((> (game sto B) 2) (inc (game sto A) 1))", "((< (game sto ROUNDS) 3) (inc (game sto A) 1))",
    "(set (game sto A) (random 1))",  # a draw: trying every option draws for each
    f"(remember (top {TABLE}) (top (game mem LAST)))", f"(move (top {TABLE}) (top (game vloc DISCARD)))",
    # the highest card by a map that scores every card differently (ORDER), or not (VALUE: ties drawn for)
    f"(set (game sto TOP) (score (max {TABLE} using (game points ORDER)) using (game points VALUE)))",
    f"(set (game sto TOP) (score (min {TABLE} using (game points VALUE)) using (game points VALUE)))",
    f"(set (game str LEAD) (cardatt SUIT (top {TABLE})))", "(set (game str LEAD) (game str LAST))",
    f"(set (game str LAST) (cardatt SUIT (max {HAND} using (game points VALUE))))",  # (ties drawn for)
]


@st.composite
def _option(draw) -> str:
    """One option: maybe a condition, maybe `any` over tuples or cards of some place, then
    statements around the move of the bound cards (or none: its options all alike)."""
    source = draw(st.sampled_from([HAND, HAND, SHOWN, HIDDEN, TABLE, FILTERED]))
    loop = draw(st.sampled_from(["tuples", "ranged", "doubled", "cards", "still", "none"]))
    before = draw(st.lists(st.sampled_from(STATEMENTS), max_size=1))
    after = draw(st.lists(st.sampled_from(STATEMENTS), max_size=2))
    if loop in ("none", "still"):
        body = before + after or ["((> (game sto B) 1) (inc (game sto A) 1))"]  # (it may do nothing)
    elif loop == "cards":
        body = before + [f"(move 'C (top {TABLE}))"] + after
    else:
        body = before + [f"(all 'T 'X (move 'X (top {TABLE})))"] + after
    action = f"(do ({' '.join(body)}))"
    size = draw(st.sampled_from(["1", "2", f"(size {TABLE})"]))
    tuples = f"(tuples {{}} {source} using (game points VALUE))"
    if loop == "tuples":
        action = f"(any {tuples.format(size)} 'T {action})"
    elif loop in ("ranged", "doubled"):  # doubled: every set twice, once per N
        inner = tuples.format("'N" if loop == "ranged" else size)
        action = f"(any (range 1..2) 'N (any {inner} 'T {action}))"
    elif loop in ("cards", "still"):
        action = f"(any {source} 'C {action})"
    if draw(st.integers(0, 9)) == 0:
        action = "(turn pass)"
    guard = draw(st.sampled_from(["", "", f"(== (size {TABLE}) 0)", f"(> (size {TABLE}) 0)", "(> (game sto B) 0)"]))
    return f"({guard} {action})" if guard else action


@settings(max_examples=250, deadline=None)
@given(st.lists(_option(), min_size=1, max_size=2), st.integers(0, 4), st.integers(0, 2**16))
@example(  # options whose moves come at different places: `undo.all_read_apart` read a non-move as one
    options=["(any (tuples 2 ((current player) iloc HAND) using (game points VALUE)) 'T "
             "(do ((all 'T 'X (move 'X (top (game vloc TABLE)))))))",
             "(any (range 1..2) 'N (any (tuples 1 ((current player) iloc HAND) using (game points VALUE)) 'T "
             "(do ((all 'T 'X (move 'X (top (game vloc TABLE)))) (set (game sto A) 1)))))"],
    twice=0, seed=0)
def test_counted_playouts_are_explored_playouts(options, twice, seed):
    """Whatever the choice, a playout that counts is the playout that explores."""
    if not twice:  # an option written twice: every option of it is offered once (merged)
        options = options + options[:1]
    game = parse_game(_game(options))
    assert _outcome(game, seed, True) == _outcome(game, seed, False)


def _counted(game, seed: int) -> tuple[int, int]:
    """(choices of two options or more that were counted, such choices) in one random playout."""
    state, seen, rng = new_compiled_game(game, seed), [0, 0], random.Random(seed)

    def draw(n: int) -> int:  # (asked at every choice, its options found)
        if n > 1:
            seen[0] += type(state.found) is Leaves
            seen[1] += 1
        return rng.randrange(n)

    state.random_playout(rng, draw)
    return seen[0], seen[1]


@pytest.mark.parametrize("name", ["President5", "BigTwo4"])
def test_every_choice_of_the_shipped_climbing_games_is_counted(name):
    """The choices of the shipped President and Big Two are all proven (leads, follows,
    passes; Big Two's highest card by a map that scores every card differently), so their
    random playouts never try options."""
    game = load_game(game_path(name))
    for seed in range(5):
        counted, asked = _counted(game, seed)
        assert asked > 30 and counted == asked, seed


@pytest.mark.parametrize("option, why", [
    (f"(any {HAND} 'C (do ((move 'C (top {TABLE})) (set (game sto TOP) (score (max {TABLE} using "
     "(game points VALUE)) using (game points VALUE))))))", "picks the highest card among cards that tie"),
    (f"(any (tuples 1 {HAND} using (game points VALUE)) 'T (do (((> (game sto B) 0) (inc (game sto A) 1)))))",
     "may do nothing"),
    (f"(any {HAND} 'C (do ((set (game sto A) (random 1)) (move 'C (top {TABLE})))))", "draws at random"),
    (f"((== (random 1) 0) (any {HAND} 'C (move 'C (top {TABLE}))))", "draws at random to offer it"),
    (f"(any {HAND} 'C (do ((move 'C (top {TABLE})) (set (game str LEAD) (cardatt SUIT (max {TABLE} using "
     "(game points VALUE)))))))", "names the suit of a card drawn among ties"),
    (f"(any {HIDDEN} 'C (move 'C (top {TABLE})))", "moves cards the chooser cannot see"),
    (f"(any {HAND} 'C (set (game sto A) 1))", "its options all read alike"),
    (f"(any (range 1..2) 'N (any (tuples 1 {HAND} using (game points VALUE)) 'T "
     f"(do ((all 'T 'X (move 'X (top {TABLE})))))))", "each option twice, once per N"),
    (f"(any {SHOWN} 'C (do ((move 'C (top {TABLE})) (set (game sto A) (score (top {HAND}) "
     "using (game points VALUE))))))", "may fail on an empty place"),
])
def test_a_choice_not_proven_is_explored(option, why):
    """(Alone, or with a way out where the option may offer nothing.)"""
    seen = []
    for options in ([option], [option, "(do ((inc (game sto B) 1) (set (game sto C) 2)))"]):
        try:
            seen.append(_counted(parse_game(_game(options)), 3))
        except RecycleRuntimeError:  # no option at some point: the way out is needed
            continue
    assert any(choices for _, choices in seen) and not any(counted for counted, _ in seen), why


@pytest.mark.parametrize("options, table", [(options, 0) for options in [
    ["(do (((< (game sto ROUNDS) 3) (inc (game sto A) 1))))"],  # from round 3 on: no option
    [f"(any {HAND} 'C (do ((move 'C (top {TABLE})) ((> (game sto ROUNDS) 2) (set (game sto A) "
     "(score (top (game vloc DISCARD)) using (game points VALUE)))))))"],  # round 3: fails
    [f"(any {HAND} 'C (move 'C (top {TABLE})))",  # with one card on the table, the other fails
     f"((> (size {TABLE}) 0) (do ((move (top {TABLE}) (top (game vloc DISCARD))) "
     f"(remember (top {TABLE}) (top (game mem LAST))))))"],
]] + [([f"(any {HAND} 'C (do ((move 'C (top {TABLE})) (move (top {TABLE}) (top (game vloc DISCARD))) "
        f"(remember (top {TABLE}) (top (game mem LAST))))))",  # fails once the table is empty
        f"((> (size {TABLE}) 0) (do ((inc (game sto B) 1) (repeat all (move (top {TABLE}) (top (game vloc DISCARD)))))))"],
       1)])
def test_an_option_that_may_do_nothing_or_fail_does_so_when_explored(options, table):
    """The playout stops with the error exploring finds, before drawing (not after, as it
    would if only the drawn option ran)."""
    game = parse_game(_game(options, table=table))
    got = _outcome(game, 2, True)
    assert got[0] in ("NoOptionsError", "RecycleRuntimeError") and got == _outcome(game, 2, False)


def test_counting_stops_where_trying_the_options_would_pass_the_step_bound():
    """Trying a lead of President counts a step per effect: with fewer steps left than that,
    offering the options raises the step limit, counting or not."""
    state = new_compiled_game(load_game(game_path("President5")), 1, max_steps=20_000)
    state.counting = True
    state.rules.machine.offer(state)
    assert type(state.found) is Leaves  # room enough: counted
    state.st.steps = 20_000 - len(state.found)
    with pytest.raises(LimitError, match="more than 20,000 steps"):
        state.rules.machine.offer(state)


def test_a_point_map_whose_scores_could_pass_the_bound_is_not_counted_on():
    """A lead writes the score of the card it plays: with a map whose awards could add up
    past 128 bits, writing could fail, so the options are tried."""
    state = new_compiled_game(load_game(game_path("President5")), 1)
    node, env = state.pending
    ex, points = state.rules.ex, state.st.points
    assert ex.compiler.leaves(node, env, state.st) is not None
    key = next(k for k in points if k[-1] == "VALUE")
    red, two = (("COLOR", "RED"),), (("RANK", "TWO"),)
    big = PointMap(((red, MAX_INT), (two, 1)))  # a red two scores past the bound
    assert small_scores(points[key]) and not small_scores(big)
    assert not small_scores(PointMap(((red, "A"),)))
    points[key] = big
    assert ex.compiler.leaves(node, env, state.st) is None


def test_a_game_listing_places_by_index_is_explored():
    """Trying an option leaves the place it moved a card to, empty: `(indexed ...)` lists it,
    so a game that lists places is played exploring, and sees them as it always did."""
    row = "(game vloc ROW)"
    options = [f"(any {HAND} 'C (move 'C (top {row})))",
               f"(any {SHOWN} 'C (do ((move 'C (top {TABLE})) (set (game sto A) 1))))",
               "((> (size (indexed game vloc ROW)) 0) (do ((inc (game sto B) 1) (set (game sto C) 2) "
               "(set (game sto A) 1))))"]
    game = parse_game(_game(options))
    for seed in range(6):
        assert _outcome(game, seed, True) == _outcome(game, seed, False)
    assert _counted(game, 1)[0] == 0


def test_near_the_step_bound_options_are_explored():
    """Counting stops where trying the options could pass the step bound; the error then comes
    at the same step, with the same words."""
    game = parse_game(_game([f"(any {HAND} 'C (move 'C (top {TABLE})))"]))
    for limit in (3, 5, 8, 20):
        got = _outcome(game, 1, True, max_steps=limit)
        assert got == _outcome(game, 1, False, max_steps=limit)
    assert "steps" in _outcome(game, 1, True, max_steps=5)[1]


def test_an_error_in_a_later_option_comes_after_what_trying_the_earlier_ones_raises():
    """Counting reads every option's condition before any step of trying them: where a later
    condition fails, the options are explored, and trying the earlier ones may first pass
    the step bound (that error comes), or not (the condition's)."""
    failing = "((== (score (top (game vloc DISCARD)) using (game points VALUE)) 1) (inc (game sto B) 1))"
    game = parse_game(_game([f"(any {HAND} 'C (move 'C (top {TABLE})))", failing]))
    errors = set()
    for limit in range(26, 40):  # (the setup takes about 30 steps)
        got = _outcome(game, 1, True, max_steps=limit)
        assert got == _outcome(game, 1, False, max_steps=limit)
        errors.add("steps" in got[1])
    assert errors == {True, False}  # both errors were seen


def test_clones_share_the_options_explored_once():
    """Search clones a position many times: its options are explored once, before the first
    clone, and every clone shares them."""
    state = new_compiled_game(load_game(game_path("President5")), 2)
    assert type(state.found) is Leaves
    clones = [state.clone() for _ in range(3)]
    assert type(state.found) is not Leaves
    assert all(c.found is state.found and c.legal_actions() == state.legal_actions() for c in clones)


def test_a_new_game_explores_its_first_options_when_asked_for():
    """A new game only counts its first options; asking for them (or their effects, or playing
    one) explores them: the same options as a game that never counted."""
    game = load_game(game_path("President5"))
    for seed in range(3):
        state = new_compiled_game(game, seed)
        assert type(state.found) is Leaves
        plain = new_game(game, seed, engine=Engine.REFERENCE)
        assert type(plain.found) is not Leaves
        assert state.legal_actions() == plain.legal_actions() and len(state.found) == len(plain.found)
        records = [[[e.record(s.table) for e in option] for option in s.effects] for s in (state, plain)]
        assert records[0] == records[1]
        played = new_compiled_game(game, seed)
        played.apply(plain.legal_actions()[-1])
        plain.apply(plain.legal_actions()[-1])
        assert played.st.locs == plain.st.locs and played.legal_actions() == plain.legal_actions()


#: Hands that come back (cards 0-11 are the twos, threes and fours: groups of one value).
_HANDS = [[0, 1, 2, 3, 4], [4, 5, 6, 7], [0, 4, 8, 9, 10, 11], [9, 1, 5, 2, 6], []]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.sampled_from(_HANDS), st.lists(st.integers(0, 51), max_size=9, unique=True)),
                          st.integers(-1, 5), st.booleans()), min_size=1, max_size=12),
       st.integers(1, 6))
def test_tuples_kept_between_asks_are_the_tuples_made_afresh(asks, kept):
    """`(tuples ...)` keeps what it found of a hand (its order, groups and sets of each size) for
    the next asks: hands coming back, other sizes, another point map, and the memory cleared
    when full (`MAX_KEPT`) answer as one that keeps nothing."""
    from recycle.interp import fast
    from recycle.lang import tree as T

    state = new_compiled_game(load_game(game_path("President5")), 0)
    ex = state.rules.ex
    node = next(x for x in T.walk(state.table.game) if type(x) is T.Tuples)
    maps = {True: next(iter(state.st.points.values())), False: PointMap(((((("SUIT", "HEARTS"),), 1),)))}
    with pytest.MonkeyPatch.context() as m:
        m.setattr(fast, "MAX_KEPT", kept)
        ex.compiler._sets.clear()
        keeping = ex.compiler.tuple_sets(node)
        for cards, size, by_value in asks:
            ex.compiler._sets.clear()
            afresh = ex.compiler.tuple_sets(node)(maps[by_value], size, list(cards))
            assert keeping(maps[by_value], size, list(cards)) == afresh
