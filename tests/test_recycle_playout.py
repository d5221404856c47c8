"""The fast paths of random RECYCLE games give exactly what the plain paths give.

`RecycleState.random_playout` counts options without making their actions (and
`Machine.offer` leaves a lone option without its text); the general loop of
`GameState.random_playout` goes through `legal_actions()` and `apply_legal`.
Both must make the same moves, draw the same numbers and end in the same state.
"""
from __future__ import annotations

import random

import pytest
from conftest import game_file
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from recycle_engines import new_compiled_game

from recycle.interp.transcript import records
from recycle.interp.undo import effect
from recycle.kernel.protocol import GameState
from recycle.lang import load_game

#: Shipped games, and corpus games (Comet: identical cards, whose options merge).
GAMES = ["President5", "Daifugo4", "Poker5", "BigTwo4", "Hearts4", "gdl/Comet2.gdl", "rcy/Comet4.rcy", "rcy/Hearts4.rcy"]


@pytest.fixture(scope="module")
def games():
    """The games of GAMES that are here: the corpus's only with ../shared (a drawn one that is
    absent is passed over by `assume`)."""
    found = {}
    for name in GAMES:
        try:
            found[name] = load_game(game_file(name))
        except pytest.skip.Exception:
            continue
    return found


def _end(state, rng) -> tuple:
    st = state.st
    return (state.choices, state.results(), st.locs, st.ints, st.strs, st.where, st.rng.s, rng.random())


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(0, 2**32), st.booleans())
def test_the_playout_loop_makes_the_moves_of_the_general_loop(games, name, seed, rng_seed, drawn):
    assume(name in games)
    fast, slow = new_compiled_game(games[name], seed), new_compiled_game(games[name], seed)
    fast_rng, slow_rng = random.Random(rng_seed), random.Random(rng_seed)
    steps = fast.random_playout(fast_rng, fast_rng._randbelow if drawn else None)
    assert steps == GameState.random_playout(slow, slow_rng, slow_rng._randbelow if drawn else None)
    assert _end(fast, fast_rng) == _end(slow, slow_rng)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_a_transcript_is_the_same_from_either_loop(games, name, seed):
    assume(name in games)
    fast, slow = (new_compiled_game(games[name], seed, transcript=True) for _ in range(2))
    fast.random_playout(random.Random(seed))
    GameState.random_playout(slow, random.Random(seed))
    assert records(fast) == records(slow)


def _plain_options(state) -> tuple[list[str], list[tuple]]:
    """The options as offering once made them: every option's text from its effects' own
    `text` (no cache), identical texts merged (not in the cardstock mode)."""
    node, env = state.pending
    st_, table, viewer = state.st, state.table, state.chooser
    texts, chosen = [], []
    from recycle.interp.compat import reference_options, reference_walk
    from recycle.interp.flow import MAX_OPTIONS

    if state.rules.cardstock and reference_walk(node):  # several `any` in one option: the reference's own walk
        found = reference_options(state.rules.ex, node, env, st_, MAX_OPTIONS)
    else:
        found = state.rules.ex.options(node, env, st_)
    for entries in found:
        text = "; ".join(effect(e).text(table, st_, viewer) for e in entries)
        if state.rules.cardstock or text not in texts:
            texts.append(text)
            chosen.append(entries)
    return texts, chosen


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(0, 200), st.booleans())
def test_options_made_late_are_those_offering_once_made(games, name, seed, moves, cardstock):
    """Texts are made when asked for (a clone's, after the original moved on), through the
    phrase cache: they are those of the plain way, and so are the options' effects."""
    assume(name in games)
    state = new_compiled_game(games[name], seed, compat="cardstock" if cardstock else None)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        texts, chosen = _plain_options(state)
        late = state.clone()
        n = len(state.found)
        state.apply_legal(state.legal_actions()[rng._randbelow(n)] if rng.random() < 0.5 else
                          state.options[rng._randbelow(n)])
        assert [a.text for a in late.legal_actions()] == texts
        assert [a.index for a in late.legal_actions()] == list(range(len(texts)))
        assert _records(late.found, state.table) == _records(chosen, state.table)


def _records(options, table) -> list:
    return [[effect(e).record(table) for e in entries] for entries in options]


def test_a_semicolon_anywhere_in_a_game_keeps_every_text_made(games):
    """Options are told apart by their numbers of effects only where no text can hold a ';'."""
    import dataclasses

    from recycle.interp.flow import no_semicolon
    from recycle.lang import tree as T

    game = games["President5"]
    assert no_semicolon(game)
    name = next(n for n in T.walk(game) if type(n) is T.Name)
    renamed = dataclasses.replace(name, value=name.value + ";X")
    assert not no_semicolon((game, renamed))
    assert not no_semicolon({"k": ["a", ("b;",)]})


#: Cards of their own names, and a choice whose two ways do the same (those options read alike).
TWICE = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR))
                                                                         (COLOR (RED (SUIT (HEARTS)))))))
  (do ((shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
    (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))
             (any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))
             (any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc PILE))) (inc (game sto N) 1)))))))
  (scoring max ((current player) sto SCORE)))"""


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GAMES + ["twice"]), st.integers(0, 2**32), st.integers(0, 2**32))
def test_options_told_apart_by_their_cards_read_apart(games, name, seed, rng_seed):
    """`all_read_apart` (texts left unmade when options move different cards) says options
    differ only when their texts, made the plain way, all differ; where it is not sure, the
    texts decide as before."""
    assume(name == "twice" or name in games)
    from recycle.interp.undo import all_read_apart
    from recycle.lang import parse_game

    game = parse_game(TWICE, "twice.rcy") if name == "twice" else games[name]
    state, rng = new_compiled_game(game, seed), random.Random(rng_seed)
    machine = state.rules.machine
    while not state.is_terminal():
        node, env = state.pending
        found = state.rules.ex.options(node, env, state.st)
        texts = ["; ".join(effect(e).text(state.table, state.st, state.chooser) for e in entries)
                 for entries in found]
        if machine.sized and machine.named(state.table) and all_read_apart(found, state.table, state.st,
                                                                           state.chooser):
            assert len(set(texts)) == len(texts)
        assert len(state.found) == len(set(texts))
        state.apply_legal(state.legal_actions()[rng._randbelow(len(state.found))])
    assert machine.named(state.table) == (len(set(state.table.text)) == len(state.table.text))
