"""The constant forms (integers, names, the game) and the operator forms (`not`, `and`, `or`,
comparisons, `+`/`-`) are written once (`recycle/interp/forms.py`): their source and their
closures are derived from one `Constant` or `Operator` each. Both must say what the meaning
says (`evaluate.Evaluator`): the same value, or the same located error, for operands of any
type."""
from __future__ import annotations

from hypothesis import given, settings
from recycle_engines import first_difference, trace
from hypothesis import strategies as st

from recycle.interp import forms
from recycle.interp.compiler import Compiler, executor
from recycle.interp.engine import Engine
from recycle.interp.errors import RecycleRuntimeError
from recycle.interp.source import Source
from recycle.interp.store import Store, Table
from recycle.lang import parse_game
from recycle.lang import tree as T

GAME = parse_game("(game (setup (create players 2)) (do ((inc (game sto N)))) (scoring max 0))", "ops.gdl")
VALUES = st.one_of(st.integers(-5, 5), st.booleans(), st.sampled_from(["", "A", "B"]), st.none(),
                   st.lists(st.integers(0, 3), max_size=2), st.sampled_from([("p", 0), ("p", 1)]))
NAMES = ("A", "B", "C")


def _var(name: str) -> T.Var:
    return T.Var(name, "unknown", line=1, column=1)


def _nodes():
    a, b, c = map(_var, NAMES)
    ops = [T.Not(a, line=1, column=1), T.And((a, b), line=1, column=1), T.Or((a, b, c), line=1, column=1)]
    ops += [T.Compare(op, a, b, "unknown", line=1, column=1) for op in ("==", "!=", "<", ">", "<=", ">=")]
    ops += [T.Arithmetic(op, (a, b), line=1, column=1) for op in ("+", "-", "*")]
    return ops


NODES = _nodes()


def _outcome(f):
    try:
        value = f()
        return "value", value, type(value)
    except RecycleRuntimeError as e:
        return "error", str(e), None


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(NODES), st.tuples(VALUES, VALUES, VALUES))
def test_the_derived_closure_and_source_say_what_the_meaning_says(node, values):
    ex = executor(Table(GAME, "ops.gdl", 2, (), (0, 0)), 1000, Engine.REFERENCE)
    compiler, env, store = Compiler(ex), dict(zip(NAMES, values)), Store()
    meaning = _outcome(lambda: getattr(ex, "_" + type(node).__name__)(node, env, store))
    closure = compiler.maker(type(node))(node)
    assert _outcome(lambda: closure(env, store)) == meaning
    generated = compiler.function(node)
    if generated is not None:
        assert _outcome(lambda: generated(env, store)) == meaning


def test_source_arithmetic_of_a_truth_value_is_the_meanings_error():
    game = parse_game("""(game (setup (create players 2))
      (stage player (end (== (game sto N) 3))
        (let (== 1 1) 'X (do ((inc (game sto N) (+ 'X 0)))))
        (do ((cycle next next))))
      (scoring max 0))""", "boolplus.gdl")
    reference, fast = trace(game, 0, Engine.REFERENCE), trace(game, 0, Engine.COMPILED)
    assert first_difference(reference, fast) is None


def test_each_form_of_the_table_is_written_once_and_the_compilers_use_it():
    ex = executor(Table(GAME, "ops.gdl", 2, (), (0, 0)), 1000, Engine.REFERENCE)
    compiler = Compiler(ex)
    for kind in (*forms.OPERATORS, *forms.CONSTANTS):
        assert not hasattr(compiler.expressions, "_make_" + kind.__name__)
        assert not hasattr(compiler.expressions, "_src_" + kind.__name__)
        assert compiler.source_of(kind) is not None and compiler.maker(kind) is not None


def test_a_constant_gives_its_value_in_source_and_in_its_closure():
    ex = executor(Table(GAME, "ops.gdl", 2, (), (0, 0)), 1000, Engine.REFERENCE)
    compiler, store = Compiler(ex), Store()
    for node in (T.IntLit(7, line=1, column=1), T.Name("HAND", line=1, column=1), T.GameOwner(line=1, column=1)):
        meaning = getattr(ex, "_" + type(node).__name__)(node, {}, store)
        assert compiler.maker(type(node))(node)({}, store) == meaning
        src = Source({})
        piece = compiler.source_of(type(node))(src, node, "env", {}, 1)
        assert piece.safe and eval(piece.code, src.ns) == meaning  # noqa: S307 — our own source


def test_an_operator_becomes_the_same_text_in_source_and_in_its_closure():
    assert forms.render("<", ["_v0", "_v1"]) == "(_v0 < _v1)"
    assert forms.render("and", ["a", "b", "c"], coerce=True) == "(bool(a and b and c))"
    assert forms.render("not", ["x"]) == "(not x)"
