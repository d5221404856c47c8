"""Finding a card among the players' cards (`recycle/interp/finding.py`) gives what the
`_Form` methods give: `(union ...)`, `(all ...)` of collections, `(owner ...)` and
`(top (filter ...))` read from the top. Values, errors and where they point, and whole
games (`test_recycle_deals.assert_plays_alike`), must be the same with those closures as on
the reference engine.
"""
from __future__ import annotations

import pytest

from recycle.interp import new_game
from recycle.interp.engine import Engine
from recycle.lang import parse_game

#: Two cards to each player, one to the game's PILE, five left in its STOCK; the block's `let` is the expression
#: tested, evaluated by the test (the game never fails on it).
GAME = """(game (setup (create players 3)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (X, Y, Z)))))
  (do ((shuffle (game iloc STOCK)) (repeat 2 (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
       (move (top (game iloc STOCK)) (top (game vloc PILE))) (set (game str S) TWO)
       (set (game points V) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 2)))))
  (do (((== 1 2) (let EXPR 'V (inc (game sto N) 1)))))
  (stage player (end (>= (game sto M) 1)) (choice ((inc (game sto M) 1))))
  (scoring max 0))"""
HANDS = "(union (all player 'P ('P iloc HAND)))"
TWO = "(and (== (cardatt RANK 'C) TWO) (== (cardatt SUIT 'C) X))"
#: (expression, is it read from the top)
EXPRESSIONS = [
    (f"(owner (top (filter {HANDS} 'C {TWO})))", True),
    (f"(top (filter {HANDS} 'C (== (cardatt RANK 'C) (game str S))))", True),
    (f"(top (filter (union (game vloc PILE) (game iloc STOCK) {HANDS}) 'C (!= (cardatt SUIT 'C) Y)))", True),
    (f"(top (filter (union {HANDS} (game vloc PILE)) 'C (== (cardatt RANK 'C) THREE)))", True),
    ("(owner (top (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) FOUR))))", True),
    ("(top (filter ((1 player) iloc HAND) 'C (> (size ((current player) iloc HAND)) 1)))", True),
    (f"(bottom (filter {HANDS} 'C {TWO}))", False),
    (f"(top (filter {HANDS} 'C (== (// 4 (game sto Z)) 1)))", False),  # fails: no order shown
    (f"(top (filter {HANDS} 'C (== (// 6 (score 'C using (game points V))) 3)))", False),  # fails on FOURs
    (f"(top (filter {HANDS} 'C (== 'C (max {HANDS} using (game points V)))))", False),  # draws for ties
    ("(owner (top (game vloc PILE)))", False),
    (f"(owner (top (filter {HANDS} 'C (== (cardatt RANK 'C) FIVE))))", True),
    (f"(union (game vloc PILE) {HANDS} (game vloc NONE) (all player 'P ('P vloc NONE)))", False),
    ("(union (all player 'P (union ('P iloc HAND) (game vloc PILE))))", False),
]


def evaluated(expr: str, seed: int, engine: Engine = Engine.COMPILED) -> tuple:
    """(the value or the error, was a (top (filter ...)) read from the top) of a fresh game's rules
    (on the reference engine: the `_Form` methods alone)."""
    game = parse_game(GAME.replace("EXPR", expr), "find.rcy")
    state = new_game(game, seed, engine=engine)
    node, ex = game.flow[1].actions[0].action.value, state.rules.ex
    try:
        got = ex.ev(node, {}, state.st), state.st.rng.s
    except Exception as e:  # noqa: BLE001 — the error is what is compared
        got = (type(e).__name__, str(e))
    top = node if type(node).__name__ == "CardAt" else getattr(node, "card", None)
    made = top is not None and "reversed" in getattr(ex.fn(top), "__code__").co_names
    return got, made


@pytest.mark.parametrize("expr, from_top", EXPRESSIONS)
def test_the_closures_give_the_methods_values_and_errors(expr, from_top):
    found = [evaluated(expr, seed) for seed in range(8)]
    assert {made for _, made in found} == {from_top}
    assert [got for got, _ in found] == [evaluated(expr, seed, Engine.REFERENCE)[0] for seed in range(8)]
    assert {made for _, made in (evaluated(expr, 0, Engine.REFERENCE),)} == {False}


def test_the_expressions_reach_what_they_are_for():
    """Cards found and not found, each error, a union of every kind of place."""
    seen = " ".join(str(evaluated(expr, seed)[0]) for expr, _ in EXPRESSIONS for seed in range(8))
    for words in ("('p', 0)", "('p', 1)", "('p', 2)", "None", "of no card", "not held by a player",
                  "divides by zero"):
        assert words in seen
