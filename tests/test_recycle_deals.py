"""A deal done at once (`recycle/interp/deals.py`) leaves exactly what its moves one by one leave.

`(repeat N (all player 'P (move (top PLACE) (top ('P iloc HAND)))))` in a block run for a
state that keeps no record is done in one go when nothing can differ. Everything a caller
can see must be what the moves one by one give: the cards and their places, the steps, the
node an error would name, the rest of the game, an error and where it points.
"""
from __future__ import annotations

import random

import pytest
from test_recycle_rounds import _seen
from test_recycle_speed_golden import OURS, corpus_names, game_path
from recycle_engines import new_compiled_game

from recycle.interp import new_game
from recycle.interp.engine import Engine
from recycle.interp.deals import DealsMixin
from recycle.interp.store import Store
from recycle.lang import load_game, parse_game

#: VARIANT: 1 a hand holds a card before the deal, 2 a player knows where a hidden card is,
#: 3 the deal is from a place all see (players learn where cards go), 4 to places all see,
#: 5 from a player's hand (one of the places dealt to).
DEALT = """(game (setup (create players 3)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (X, Y, Z)))))
  (do ((shuffle (game iloc STOCK))
       ((== VARIANT 1) (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))
       ((== VARIANT 2) (do ((move (top (game iloc STOCK)) (top (game vloc UP)))
                            (move (top (game vloc UP)) (top ((0 player) iloc HAND))))))
       ((== VARIANT 3) (repeat all (move (top (game iloc STOCK)) (top (game vloc UP)))))
       ((== VARIANT 3) (repeat ROUNDS (all player 'P (move (top (game vloc UP)) (top ('P iloc HAND))))))
       ((== VARIANT 4) (repeat ROUNDS (all player 'P (move (top (game iloc STOCK)) (top ('P vloc HAND))))))
       ((== VARIANT 5) (repeat all (move (top (game iloc STOCK)) (top ((1 player) iloc HAND)))))
       ((== VARIANT 5) (repeat ROUNDS (all player 'P (move (top ((1 player) iloc HAND)) (top ('P iloc HAND))))))
       ((< VARIANT 3) (repeat ROUNDS (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))
       (set (game sto N) (size (game iloc STOCK)))))
  (stage player (end (>= (game sto M) 3))
    (choice ((inc (game sto M) 1)
             ((> (size ((current player) iloc HAND)) 0)
              (move (top ((current player) iloc HAND)) (top (game iloc STOCK)))))))
  (scoring max ((current player) sto N)))"""

ROUNDS = [1, 3, 4, 5]


def dealt(variant: int, rounds: int):
    return parse_game(DEALT.replace("VARIANT", str(variant)).replace("ROUNDS", str(rounds)), "dealt.rcy")


def played(make, seeds, engine: Engine = Engine.COMPILED, **limits) -> list:
    """Seeded random playouts of fresh copies of a game (its rules compiled anew): the result
    or error, the state and the node the executor was at when stopped by an error (where an
    unexpected failure would be reported; after a game that ended it means nothing), the draws."""
    out = []
    for seed in seeds:
        rng, state, rules = random.Random(seed), None, None
        try:
            state = new_game(make(), seed, engine=engine, **limits)
            rules = state.rules
            got = state.random_playout(rng, rng._randbelow if seed % 2 else None)
        except Exception as e:  # noqa: BLE001 — the error is what is compared
            got = (type(e).__name__, str(e), getattr(e, "line", None), getattr(e, "column", None))
        at = rules and type(got) is tuple and rules.ex.at
        seen = state and (_seen(state), list(state.st.locs))  # (and the order places were made in)
        out.append((got, seen, at and (type(at).__name__, at.line, at.column), rng.getstate()))
    return out


@pytest.fixture
def at_once(monkeypatch):
    """How many deals were done at once (a line counting them added to each one's source)."""
    used = []
    write = DealsMixin.deal_source

    def counting(self, src, n, indent):
        if not write(self, src, n, indent):
            return False
        src.ns["_used"] = used
        src.lines.insert(len(src.lines) - 1, "    " * (indent + 1) + "_used.append(1)")
        return True
    monkeypatch.setattr(DealsMixin, "deal_source", counting)
    return used


def assert_plays_alike(key: str) -> None:
    """Playouts of game `key` ("name#seed", two seeds) are the same on the compiled engine as on
    the reference one (no speed layer at all)."""
    name, seed = key.rsplit("#", 1)
    path, seeds = game_path(name), range(int(seed), int(seed) + 2)
    fast = played(lambda: load_game(path), seeds)
    assert played(lambda: load_game(path), seeds, Engine.REFERENCE) == fast


@pytest.mark.parametrize("key", OURS + corpus_names())
def test_deals_of_every_game_are_the_moves(key):
    assert_plays_alike(key)


@pytest.mark.parametrize("variant", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("rounds", ROUNDS)
@pytest.mark.parametrize("limits", [{}] + [{"max_steps": m} for m in range(2, 24, 3)])
def test_a_deal_short_of_cards_known_cards_and_step_bounds_are_the_moves(variant, rounds, limits):
    fast = played(lambda: dealt(variant, rounds), range(3), **limits)
    assert played(lambda: dealt(variant, rounds), range(3), Engine.REFERENCE, **limits) == fast


def test_the_cases_reach_what_they_are_for(at_once):
    """Deals are done at once where they can be (so the cases above compare something), and
    not where they cannot: too few cards, a known card, a deal others watch."""
    def once(variant, rounds, **limits) -> int:
        before = len(at_once)
        for got, *_ in played(lambda: dealt(variant, rounds), range(3), **limits):
            if not limits:
                assert (type(got) is tuple) == (rounds * 3 > 12 - (variant == 1))  # out of cards
        return len(at_once) - before
    assert once(0, 4) == once(0, 1) == once(1, 3) == once(4, 4) == 3
    assert once(1, 4) == once(0, 5) == once(2, 3) == once(3, 3) == once(5, 3) == 0
    assert once(0, 4, max_steps=11) == 0 and once(0, 4, max_steps=200) == 3  # the bound checked first
    for name in ("President5", "BigTwo4"):
        before = len(at_once)
        played(lambda: load_game(game_path(name)), range(2))
        assert len(at_once) - before >= 2, name


#: A deal alone in a block (run by the test, not the game), from the stock or from player 1's
#: hand to the players' hands (VIS: hloc, hands nobody sees: nobody learns where cards go).
DEAL = """(game (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)))))
  (do (((== 1 2) (do ((repeat ROUNDS (all player 'P (move (top FROM) (top ('P VIS HAND))))))))))
  (stage player (end (>= (game sto M) 1)) (choice ((inc (game sto M) 1))))
  (scoring max ((current player) sto M)))"""
STOCK = ("g", 0, "iloc", "STOCK")


def block(rules, node, quiet: bool, source: tuple, hand: tuple, cards: int, held: int, known: bool,
          steps: int) -> tuple:
    """What running the block does to a store with `cards` in the place dealt from and `held`
    in player 2's hand: quietly (the deal at once where it can be) or by the runner (card by card)."""
    ex, st = rules.ex, Store(0)
    st.locs[source], st.locs[hand] = list(range(cards)), list(range(cards, cards + held))
    st.where = [source] * cards + [hand] * held
    st.known, st.steps, ex.at = ({(0, 0): source} if known else {}), steps, None
    try:
        (ex.quiet(node) if quiet else ex.runner(node))({}, st)
        got = None
    except Exception as e:  # noqa: BLE001 — the error is what is compared
        got = (type(e).__name__, str(e))
    return got, st.locs, list(st.locs), st.where, st.known, st.steps, ex.at


@pytest.mark.parametrize("source", ["(game iloc STOCK)", "((1 player) hloc HAND)"])
@pytest.mark.parametrize("vis", ["iloc", "hloc"])
@pytest.mark.parametrize("rounds", ROUNDS)
def test_a_deal_at_once_leaves_what_the_moves_one_by_one_leave(source, vis, rounds, at_once):
    text = DEAL.replace("ROUNDS", str(rounds)).replace("FROM", source).replace("VIS", vis)
    game, plain = parse_game(text, "deal.rcy"), parse_game(text, "deal.rcy")
    rules, node = new_compiled_game(game, 0, max_steps=40).rules, game.flow[0].actions[0].action
    by_card, card_node = new_compiled_game(plain, 0, max_steps=40).rules, plain.flow[0].actions[0].action
    by_card.ex.compiler.shortcuts.deal = lambda n: None  # quiet too, but card by card
    done = len(at_once)
    key, hand = STOCK if "STOCK" in source else ("p", 1, "hloc", "HAND"), ("p", 2, vis, "HAND")
    for case in [(c, h, k, s) for c in (0, 3, 11, 12, 13, 16) for h in (0, 2)
                 for k in (False, True) for s in (0, 20, 40 - 4 * rounds, 30)]:
        quick = block(rules, node, True, key, hand, *case)
        # the runner sets `Executor.at` at every action, a quiet block only before a call out
        assert quick[:-1] == block(rules, node, False, key, hand, *case)[:-1], case
        assert quick == block(by_card, card_node, True, key, hand, *case), case
    assert (len(at_once) > done) == (key[2:] != hand[2:])  # (from a place dealt to: never at once)
