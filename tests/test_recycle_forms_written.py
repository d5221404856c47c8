"""The forms written once, as source (`forms.WRITTEN`: variables, players, storages, locations,
size, cards at a place, card attributes, scores): their closure is derived from their source
(`ExprSource.closure_of`, operands called), so there is one definition of each. Closure,
generated function and meaning (`evaluate.Evaluator`, the reference engine) must say the same:
the same value, or the same error at the same place, for operands of any type — an unbound
variable among them, so that which operand is evaluated first shows too."""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from recycle_engines import first_difference, trace

from recycle.games import game_path
from recycle.interp import new_game
from recycle.interp.forms import WRITTEN
from recycle.interp.compiler import Compiler
from recycle.interp.engine import Engine
from recycle.interp.source import Source
from recycle.interp.store import GAME, PointMap
from recycle.lang import load_game, parse_game
from recycle.lang import tree as T

STATE = new_game(load_game(game_path("President5")), 3, engine=Engine.REFERENCE)
UNBOUND = object()  # the variable has no value
POINTS = PointMap(((((("RANK", "ACE"),), 14),), ((("RANK", "TWO"),), 15)))
VALUES = st.one_of(st.integers(-3, 60), st.booleans(), st.sampled_from(["", "HAND", "RANK", "ACE"]), st.none(),
                   st.lists(st.integers(-1, 55), max_size=3), st.lists(st.lists(st.integers(0, 51), max_size=2),
                                                                       max_size=2),
                   st.sampled_from([("p", 0), ("p", 4), ("p", 9), ("t", 0), GAME, POINTS, UNBOUND]))
NAMES = ("A", "B")


def _at(cls, *args, **kw):
    return cls(*args, line=1, column=1, **kw)


def _nodes() -> list:
    a, b = (_at(T.Var, name) for name in NAMES)
    hand, rank, game = _at(T.Name, "HAND"), _at(T.Name, "RANK"), _at(T.GameOwner)
    me = _at(T.PlayerRef, "current")
    places = [_at(T.Location, a, "iloc", hand), _at(T.Location, me, "iloc", hand), _at(T.Location, a, "iloc", b),
              _at(T.Location, a, "iloc", hand, index=b), _at(T.Location, game, "vloc", hand)]
    stored = [_at(cls, owner, name) for cls in (T.IntStorage, T.StrStorage, T.PointStorage)
              for owner, name in ((a, hand), (game, hand), (me, hand), (a, b))]
    value = _at(T.PointStorage, game, _at(T.Name, "VALUE"))  # President5's ranks
    cards = [_at(T.CardAt, where, c) for where in ("top", "bottom") for c in (a, places[0], places[1])]
    return [a, *(_at(T.PlayerRef, w) for w in ("current", "next", "previous")), _at(T.Players), *places, *stored,
            *(_at(T.Size, c) for c in (a, places[0], places[1])), *cards,
            *(_at(T.CardAtt, key, c) for key in (rank, b) for c in (a, cards[0])),
            *(_at(T.Score, c, pm) for c in (a, cards[1]) for pm in (b, stored[8], value)),
            *(_at(cls, c, pm) for cls in (T.MaxCard, T.MinCard) for c in (a, places[1]) for pm in (b, stored[8], value)),
            *(_at(T.Tuples, k, c, pm) for k in (a, _at(T.IntLit, 2)) for c in (b, places[1]) for pm in (a, stored[8], value))]


NODES = _nodes()


def _outcome(f):
    try:
        value = f()
        return "value", value, type(value)
    except Exception as e:  # noqa: BLE001 — an error is an outcome: its class, text and place
        return "error", type(e).__name__, str(e)


#: The meaning (the reference engine's executor) and the compiler derived over it.
EX = STATE.rules.ex
COMPILER = Compiler(EX)


@pytest.mark.parametrize("form", sorted(WRITTEN, key=lambda kind: kind.__name__), ids=lambda kind: kind.__name__)
def test_the_derived_closure_and_the_source_say_what_the_meaning_says(form):
    @settings(max_examples=int(os.environ.get("FORMS_EXAMPLES", 60)), deadline=None)
    @given(st.sampled_from([n for n in NODES if type(n) is form]), st.tuples(VALUES, VALUES))
    def check(node, values):
        env = {name: v for name, v in zip(NAMES, values) if v is not UNBOUND}
        meaning = _outcome(lambda: getattr(EX, "_" + type(node).__name__)(node, env, STATE.clone().st))
        closure = COMPILER.maker(type(node))(node)
        assert _outcome(lambda: closure(env, STATE.clone().st)) == meaning  # (a store each: ties draw)
        generated = COMPILER.function(node)
        if generated is not None:
            assert _outcome(lambda: generated(env, STATE.clone().st)) == meaning
    check()


def test_each_written_form_has_one_definition_and_both_compilers_use_it():
    compiler = Compiler(STATE.clone().rules.ex)
    for kind in WRITTEN:
        assert not hasattr(compiler.expressions, "_make_" + kind.__name__)
        assert not hasattr(compiler.expressions, "_src_" + kind.__name__)
        assert compiler.source_of(kind) is not None and compiler.maker(kind) is not None


def test_a_closure_is_its_forms_source_with_the_operands_called():
    ex = STATE.clone().rules.ex
    compiler = Compiler(ex)
    node = _at(T.Size, _at(T.Location, _at(T.Var, "P"), "iloc", _at(T.Name, "HAND")))
    made = compiler.maker(T.Size)(node)
    assert made.__code__.co_filename == "<recycle closure Size>"
    assert made({"P": ("p", 1)}, STATE.st) == len(STATE.st.locs[("p", 1, "iloc", "HAND")])


def _both(text: str, name: str) -> list:
    game = parse_game(text, name)
    reference, fast = trace(game, 0, Engine.REFERENCE), trace(game, 0, Engine.COMPILED)
    assert first_difference(reference, fast) is None
    return fast


def test_a_card_attribute_of_a_truth_value_is_the_meanings_error_in_generated_source_too():
    # `_attrs[True]` is card 1's attributes: the source checks what it does not know as a card
    lines = _both("""(game (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
      (stage player (end (== (game sto N) 3))
        (let (== 1 1) 'X (do ((set (game str S) (cardatt RANK 'X)) (inc (game sto N)))))
        (do ((cycle next next))))
      (scoring max 0))""", "cardatt.gdl")
    assert lines[-1].what == "error" and "expected a card, found True" in lines[-1].value


def test_a_variable_bound_outside_a_loop_is_read_without_building_the_loops_env(monkeypatch):
    texts, build = [], Source.build
    monkeypatch.setattr(Source, "build", lambda self, node: texts.append(self.text()) or build(self, node))
    ex = STATE.clone().rules.ex
    outer = _at(T.Var, "C")
    cond = _at(T.Compare, "==", _at(T.CardAtt, _at(T.Name, "RANK"), _at(T.Var, "X")),
               _at(T.CardAtt, _at(T.Name, "RANK"), outer), "unknown")
    node = _at(T.Size, _at(T.Filter, _at(T.Location, _at(T.Var, "P"), "iloc", _at(T.Name, "HAND")), _at(T.Var, "X"),
                           cond, "cards"))
    hand = STATE.st.locs[("p", 1, "iloc", "HAND")]
    env = {"P": ("p", 1), "C": hand[0]}
    assert Compiler(ex).function(node)(env, STATE.st) == ex._Size(node, env, STATE.st) > 0
    assert "env['C']" in texts[-1] and "{**env" not in texts[-1]  # (the same value: binding copies)


def test_no_card_is_reported_before_a_map_that_fails_is_read():
    # the meaning evaluates the card first: with no card and a map whose owner is not one, "no card"
    a = _at(T.Var, "A")
    node = _at(T.Score, a, _at(T.PointStorage, a, _at(T.Name, "HAND")))
    env = {"A": None}
    meaning = _outcome(lambda: EX._Score(node, env, STATE.clone().st))
    assert "of no card" in meaning[2]
    assert _outcome(lambda: COMPILER.maker(T.Score)(node)(env, STATE.clone().st)) == meaning
    assert _outcome(lambda: COMPILER.function(node)(env, STATE.clone().st)) == meaning
