"""The forms written once, as source (`codegen.WRITTEN`: variables, players, storages, locations,
size, cards at a place, card attributes, scores): their closure is derived from their source
(`ExprSource.closure_of`, operands called), so there is one definition of each. Closure,
generated function and meaning (`evaluate.Evaluator`, the reference engine) must say the same:
the same value, or the same error at the same place, for operands of any type — an unbound
variable among them, so that which operand is evaluated first shows too."""
from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.games import game_path
from recycle.interp import new_game
from recycle.interp.codegen import WRITTEN
from recycle.interp.compiler import Compiler
from recycle.interp.engine import Engine
from recycle.interp.store import GAME, PointMap
from recycle.lang import load_game
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


@settings(max_examples=int(os.environ.get("FORMS_EXAMPLES", 600)), deadline=None)
@given(st.sampled_from(NODES), st.tuples(VALUES, VALUES))
def test_the_derived_closure_and_the_source_say_what_the_meaning_says(node, values):
    ex = STATE.rules.ex
    env = {name: v for name, v in zip(NAMES, values) if v is not UNBOUND}
    compiler = Compiler(ex)
    meaning = _outcome(lambda: getattr(ex, "_" + type(node).__name__)(node, env, STATE.clone().st))
    closure = compiler.maker(type(node))(node)
    assert _outcome(lambda: closure(env, STATE.clone().st)) == meaning  # (a store each: ties draw)
    generated = compiler.function(node)
    if generated is not None:
        assert _outcome(lambda: generated(env, STATE.clone().st)) == meaning


def test_each_written_form_has_one_definition_and_both_compilers_use_it():
    compiler = Compiler(STATE.clone().rules.ex)
    for kind in WRITTEN:
        assert not hasattr(compiler.expressions, "_make_" + kind.__name__)
        assert compiler.source_of(kind) is not None and compiler.maker(kind) is not None


def test_a_closure_is_its_forms_source_with_the_operands_called():
    ex = STATE.clone().rules.ex
    compiler = Compiler(ex)
    node = _at(T.Size, _at(T.Location, _at(T.Var, "P"), "iloc", _at(T.Name, "HAND")))
    made = compiler.maker(T.Size)(node)
    assert made.__code__.co_filename == "<recycle closure Size>"
    assert made({"P": ("p", 1)}, STATE.st) == len(STATE.st.locs[("p", 1, "iloc", "HAND")])
