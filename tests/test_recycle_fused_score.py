"""`(score (max CARDS using P) using P)` (a climbing game's "the highest card of this set"),
written into generated source (`codegen.score_of_extreme`: the card picked in C, its kept
score) with a call of its closure wherever that does not answer: a tie to draw for, no map
stored, an empty table. It must play as the reference engine, draws and errors included."""
from __future__ import annotations

import random

import pytest
from recycle_engines import first_difference, trace
from test_recycle_rounds import playout

from recycle.interp import cardsets, new_game, source
from recycle.interp.engine import Engine
from recycle.lang import parse_game

#: Each player moves a card of their hand to the table and the game keeps the table's highest
#: score by MAP: RANK alone ties (a draw picks the card), RANK and SUIT never tie. MAP is set
#: only after the first round (no map stored: the empty map); the table starts empty (an error
#: when asked of it first, in the variant reading the score before any move).
GAME = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE))
                                                                 (SUIT (RED, BLUE)))))
  (do ((shuffle (game iloc STOCK)) (repeat 3 (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player (end (== (size ((current player) iloc HAND)) 0))
    (do (((> (game sto R) 0) (set (game points M) MAP))))
    (choice ((any ((current player) iloc HAND) 'C
              (do ((move 'C (top (game vloc TABLE))) (inc (game sto R) 1)
                   (set (game sto TOP) (score (max (game vloc TABLE) using (game points M)) using (game points M))))))))
    (do (((== (game sto A) 1) (set (game sto B) (score (max (game vloc PILE) using (game points M)) using (game points M)))))))
  (scoring max ((current player) sto TOP)))"""
TIES = "(((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3))"
APART = "(((RANK : ONE) 10) ((RANK : TWO) 20) ((RANK : THREE) 30) ((SUIT : BLUE) 1))"


@pytest.mark.parametrize("points", [TIES, APART])
@pytest.mark.parametrize("asked", [0, 1])
def test_the_written_score_plays_as_the_reference_engine(points, asked):
    text = GAME.replace("MAP", points).replace("(game sto A) 1", f"(game sto A) {1 - asked}")
    game = parse_game(text, "fused.rcy")
    for seed in range(6):
        assert first_difference(trace(game, seed, Engine.REFERENCE), trace(game, seed)) is None
    assert [playout(game, seed, Engine.REFERENCE) for seed in range(6)] == [playout(game, seed) for seed in range(6)]


@pytest.mark.skipif(not cardsets.PICK_BUILT, reason="the pick in C is not built: nothing is written in")
def test_the_score_is_written_in(monkeypatch):
    built = []
    real = source.Source.build

    def recording(self, node):
        built.append(self.text())
        return real(self, node)
    monkeypatch.setattr(source.Source, "build", recording)
    game = parse_game(GAME.replace("MAP", APART), "fused.rcy")
    new_game(game, 0, engine=Engine.COMPILED).random_playout(random.Random(0))
    assert any("._cache.get(" in text and "_attrs, 1)" in text for text in built)


#: A climbing stage whose map changes every round, between one that ties and one that does not:
#: the options are counted (no draw) only under the map that scores every card apart, so the
#: rounds (`rounds.round_source`) must ask again whenever another map is stored.
TIES4 = TIES[:-1] + " ((RANK : FOUR) 4))"
APART4 = APART[:-1] + " ((RANK : FOUR) 40) ((SUIT : GREEN) 2))"
CLIMB = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR))
                                                                  (SUIT (RED, BLUE, GREEN)))))
  (do ((set (game points K) TIES) (shuffle (game iloc STOCK)) (repeat 6 (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player (end (any player 'P (== (size ('P iloc HAND)) 0)))
    (do (((== (game sto R) 0) (set (game points M) TIES)) ((== (game sto R) 1) (set (game points M) APART))
         (set (game sto R) (- 1 (game sto R)))
         ((> (game sto PASSES) 0) (do ((repeat all (move (top (game vloc TABLE)) (top (game vloc DISCARD))))
                                       (set (game sto PASSES) 0) (set (game sto TOP) 0))))))
    (choice (((== (size (game vloc TABLE)) 0)
              (any (range 1..2) 'N (any (tuples 'N ((current player) iloc HAND) using (game points K)) 'T
                   (do ((all 'T 'C (move 'C (top (game vloc TABLE))))
                        (set (game sto TOP) (score (max (game vloc TABLE) using (game points M)) using (game points M))))))))
             ((> (size (game vloc TABLE)) 0)
              (any (tuples (size (game vloc TABLE)) ((current player) iloc HAND) using (game points K)) 'T
                   ((> (score (max 'T using (game points M)) using (game points M)) (game sto TOP))
                    (do ((repeat all (move (top (game vloc TABLE)) (top (game vloc DISCARD))))
                         (all 'T 'C (move 'C (top (game vloc TABLE))))
                         (set (game sto TOP) (score (max (game vloc TABLE) using (game points M)) using (game points M))))))))
             ((> (size (game vloc TABLE)) 0) (inc (game sto PASSES) 1)))))
  (scoring max ((current player) sto TOP)))""".replace("TIES", TIES4).replace("APART", APART4)


def test_rounds_ask_again_about_each_map_stored():
    game = parse_game(CLIMB, "climb.rcy")
    assert [playout(game, seed, Engine.REFERENCE) for seed in range(12)] == [playout(game, seed) for seed in range(12)]
