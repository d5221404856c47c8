"""`(score (max CARDS using P) using P)`: read in one step by the compiled interpreter (a climbing
game's "its highest card beats the table"), and still exactly what its two steps give: the same
score, the same ties drawn (so every later draw is the same), the same errors."""
from __future__ import annotations

import pytest

from recycle.interp import RecycleRuntimeError, new_game
from recycle.lang import parse_game

DECK = "(deck (RANK (ONE, TWO, THREE, FOUR)) (COLOR (RED (SUIT (HEARTS, DIAMONDS)))))"
# Z ties the two suits of a rank; W has the same awards under another name, so a score of
# a max by Z using W is computed in two steps
MAPS = """(set (game points Z) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 3)))
          (set (game points W) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 3)))"""


def outcome(using: str, where: str = "(game iloc STOCK)", seed: int = 0):
    text = f"""(game (setup (create players 2) (create deck (game iloc STOCK) {DECK}))
      (do ({MAPS} (shuffle (game iloc STOCK))))
      (stage player (end (== (game sto DONE) 1))
         (do ((set (game sto S) (score ({'max'} {where} using (game points Z)) using (game points {using})))
              (set (game sto L) (score (min {where} using (game points Z)) using (game points {using})))
              (set (game str M) (cardatt SUIT (max (game iloc STOCK) using (game points Z))))))
         (choice ((set (game sto DONE) 1))))
      (scoring max 0))"""
    st = new_game(parse_game(text, "t.gdl"), seed=seed).st
    return st.ints[("g", 0, "S")], st.ints[("g", 0, "L")], st.strs[("g", 0, "M")]


def test_one_step_and_two_steps_agree_on_the_score_and_every_later_draw():
    got = [outcome("Z", seed=k) for k in range(24)]
    assert got == [outcome("W", seed=k) for k in range(24)]
    assert {g[:2] for g in got} == {(3, 1)}
    assert len({g[2] for g in got}) == 2  # the later tie really is drawn, both ways


def test_one_step_fails_where_two_steps_fail():
    for using in ("Z", "W"):
        with pytest.raises(RecycleRuntimeError, match="the max or min of an empty collection"):
            outcome(using, where="(game vloc NOWHERE)")
