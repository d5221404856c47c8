"""Steps counted at once (`source.merge_steps`) hit the step bound where counting them one by
one does (the reference engine): the same located error, at the same node, after the same
number of steps."""
from __future__ import annotations

import pytest
from recycle.interp import LimitError, new_game, source
from recycle.interp.engine import Engine
from recycle.lang import parse_game

#: Nested blocks and repeats: actions whose steps follow one another with nothing between.
LOOPING = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))
  (stage player (end (== 1 0))
    (do ((do ((do ((set (game sto A) 1) (inc (game sto B) 1)))
              (repeat 3 (do ((do ((inc (game sto C) 1))))))
              (all player 'P (do ((set ('P sto D) 1))))))))
    (choice ((inc (game sto N) 1) (inc (game sto N) 2))))
  (scoring max ((current player) sto N)))"""


def _failure(max_steps: int, engine: Engine) -> tuple:
    game = parse_game(LOOPING, "loop.rcy")  # a new Game: rules (and their code) made anew
    try:
        state = new_game(game, 0, max_steps=max_steps, engine=engine)
        for _ in range(3):
            state.apply(state.legal_actions()[0])
    except LimitError as e:
        return str(e), e.line, e.column
    return None, state.st.steps, state.st.ints


@pytest.mark.parametrize("max_steps", range(1, 40))
def test_steps_counted_at_once_stop_where_one_by_one_stops(max_steps):
    assert _failure(max_steps, Engine.COMPILED) == _failure(max_steps, Engine.REFERENCE)


def test_the_looping_game_has_steps_counted_at_once():
    lines = ["st.steps += 1", "if st.steps > 9:", "    raise _too_long(_c1)", "_ex.at = _c1"] * 2
    assert source.merge_steps(lines) == ["st.steps += 2", "if st.steps > 9:", "    _over(st, 2, (_c1, _c1))",
                                          "_ex.at = _c1"]
