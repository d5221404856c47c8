"""The flow's quick paths play exactly as the general ones.

`Machine.advance` runs the items of a sequence that hold no choice in a loop of its own; the
general path starts each one through `Machine.enter`, a frame written per item. For a state
keeping no record it runs them by their quiet runners (`quiet`: no step checked when the
bound cannot be passed, nothing recorded); the general path is the runner. The reference
engine takes the general paths only (`engine`); both engines must give the same games (every option, observation and record of seeded random games, see
`test_recycle_speed_golden.trace`; without a transcript, every option and the final store)
and stop at the same step with the same error.
"""
from __future__ import annotations

import random

import pytest
from recycle_engines import assert_same_on_both
from test_recycle_speed_golden import OURS, corpus_names, game_path

from recycle.interp import LimitError, new_game
from recycle.interp.engine import Engine
from recycle.lang import load_game, parse_game

#: Plain actions and blocks between stages and choices, at the top and in a stage.
SEQUENCES = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))
  (do ((set (game sto A) 1)))
  (do ((inc (game sto A) 1) (repeat 2 (inc (game sto B) 1))))
  (stage player (end (>= (game sto N) 9))
    (do ((inc (game sto E) 1) (repeat all (move (top (game iloc STOCK)) (top (game iloc PILE))))
         (repeat all (move (top (game iloc PILE)) (top (game iloc STOCK))))))
    (do ((inc (game sto C) 1) (all player 'P (inc ('P sto D) 1))))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2)))
    (do ((inc (game sto E) 1)))
    (do ((inc (game sto C) 1) (repeat 2 (inc (game sto B) 1)))))
  (do ((inc (game sto F) 1)))
  (scoring max ((current player) sto N)))"""


def unrecorded(path, seed: int, engine: Engine = Engine.COMPILED) -> tuple:
    """Every option, the results and the final store of a seeded random game without a transcript."""
    state, rng, seen = new_game(load_game(path), seed, engine=engine), random.Random(seed), []
    while not state.is_terminal():
        legal = state.legal_actions()
        seen.append([a.text for a in legal])
        state.apply(legal[rng.randrange(len(legal))])
    st = state.st
    return seen, state.results(), st.steps, st.ints, st.strs, st.locs, st.where, st.pcycles, st.tcycles, st.rng.s


@pytest.mark.parametrize("key", OURS[::4] + corpus_names())
def test_games_play_as_through_the_general_path(key):
    name, seed = key.rsplit("#", 1)
    assert_same_on_both(load_game(game_path(name)), int(seed))
    assert unrecorded(game_path(name), int(seed)) == unrecorded(game_path(name), int(seed), Engine.REFERENCE)


def _outcome(max_steps: int, engine: Engine = Engine.COMPILED) -> tuple:
    try:
        state = new_game(parse_game(SEQUENCES, "seq.rcy"), 0, max_steps=max_steps, engine=engine)
        while not state.is_terminal():
            state.apply(state.legal_actions()[-1])
    except LimitError as e:
        return str(e), e.line, e.column
    return state.st.steps, state.st.ints, state.stack


@pytest.mark.parametrize("max_steps", range(1, 40))
def test_the_step_bound_stops_where_the_general_path_stops(max_steps):
    assert _outcome(max_steps) == _outcome(max_steps, Engine.REFERENCE)
