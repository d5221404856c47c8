"""`(any player 'P (OP (size ('P LOC NAME)) 0))` and its `(all ...)`: whether some (every) player's
place is (not) empty, a climbing game's end test ("someone is out"), written in as one test over
the players' lists (`codegen._seated_test`) instead of a call of the loop's function, also inside
a stage's rounds (`rounds.round_source`). It must say what the reference engine says, for each
of the four ways to ask, also while a seat has no list yet (no card ever went there)."""
from __future__ import annotations

import random

import pytest
from recycle_engines import first_difference, trace
from test_recycle_rounds import playout

from recycle.interp import new_game, source
from recycle.interp.engine import Engine
from recycle.lang import parse_game

#: Players draw cards to their hands, pass them on to a pile, or count; END is the stage's end.
GAME = """(game (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE)))))
  (stage player (end END)
    (choice ((inc (game sto N) 1)
             ((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))
             ((> (size ((current player) iloc HAND)) 0)
              (move (top ((current player) iloc HAND)) (top (game iloc PILE)))))))
  (scoring max ((current player) sto N)))"""

#: End tests over the players' hands: every emptiness operator, (any ...) and (all ...), alone
#: (the hands do not exist at first) and under a condition that lets the hands fill first.
ENDS = ["(all player 'P (!= (size ('P iloc HAND)) 0))",
        "(and (> (game sto N) 2) (any player 'P (== (size ('P iloc HAND)) 0)))",
        "(and (> (game sto N) 3) (all player 'P (<= (size ('P iloc HAND)) 0)))",
        "(or (> (game sto N) 6) (any player 'P (> (size ('P iloc HAND)) 1)))",
        "(any player 'P (> (size ('P iloc HAND)) 0))"]


@pytest.mark.parametrize("end", ENDS)
def test_the_written_end_test_plays_as_the_reference_engine(end):
    game = parse_game(GAME.replace("END", end), "seated.rcy")
    for seed in range(8):
        assert first_difference(trace(game, seed, Engine.REFERENCE), trace(game, seed)) is None
    assert [playout(game, seed, Engine.REFERENCE) for seed in range(8)] == [playout(game, seed) for seed in range(8)]


def test_the_ends_reach_both_answers():
    """Not vacuous: each end test is false at some choice and true at the end of every game."""
    for end in ENDS:
        game = parse_game(GAME.replace("END", end), "seated.rcy")
        lengths = {len(trace(game, seed)) for seed in range(8)}
        assert max(lengths) > 3, end


def test_the_rounds_ask_it_without_a_call(monkeypatch):
    built = []
    real = source.Source.build

    def recording(self, node):
        built.append((type(node).__name__, self.text()))
        return real(self, node)
    monkeypatch.setattr(source.Source, "build", recording)
    game = parse_game(GAME.replace("END", ENDS[1]), "seated.rcy")
    new_game(game, 0, engine=Engine.COMPILED).random_playout(random.Random(0))
    stage = [text for kind, text in built if kind == "Stage"]
    assert stage and "_seated(" in stage[0] and "(not _c" in stage[0]
