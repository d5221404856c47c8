"""Expression forms written once for both compilers: the constants (an integer, a name, the
game as an owner) and the operators (`not`, `and`, `or`, the comparisons, `+`/`-` of two
integers).

A constant is a `Constant`: its value, what it is, and whether the source writes it as a
literal; its source and its closure (`lambda env, st: value`) both come from it.

An operator is an `Operator`: the Python operator joining its operands (`word`), whether they are
evaluated only as needed (`lazy`), what the operands must be, and what Python may raise where
the meaning reports a located error. From it come both the Python source of the form with its
children inlined (`operator_piece`, used by `codegen`) and its closure over its children's
functions (`operator_closure`, used by the compiler): the closure is the same expression,
written by the same `render`, over calls of the children's functions, compiled once per shape
(`_factory`).
The meaning stays `evaluate.Evaluator`'s `_Not`, `_And`, ... (the reference engine, no
generated code); where Python's operator would not say what the meaning says (an operand of
the wrong type), the compiled form calls it and it raises the located error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from recycle.lang import tree as T

from recycle.interp.source import Piece
from recycle.interp.store import GAME


@dataclass(frozen=True)
class Constant:
    """A form whose value is the same at every evaluation: `value(node)`, of kind `kind`, written
    in source as a Python literal (`literal`: integers only) or as a constant passed in."""

    value: Callable
    kind: str
    literal: bool = False


#: The constant forms, by node class.
CONSTANTS: dict[type, Constant] = {
    T.IntLit: Constant(lambda n: n.value, "int", literal=True),
    T.Name: Constant(lambda n: n.value, "str"),
    T.GameOwner: Constant(lambda n: GAME, "owner"),
}


def constant_piece(src, n) -> Piece | None:
    """Source for constant node `n` (None: an integer literal that is not an integer)."""
    form = CONSTANTS[type(n)]
    value = form.value(n)
    if form.literal:
        return Piece(repr(value), form.kind, True) if type(value) is int else None
    return Piece(src.const(value), form.kind, True)


def constant_closure(n):
    """`f(env, st)` giving constant node `n`'s value."""
    value = CONSTANTS[type(n)].value(n)
    return lambda env, st: value


@dataclass(frozen=True)
class Operator:
    """One operator form. `word(node)`: the Python operator for the node, or None when the
    compilers leave it to the meaning; `operands(node)`: the child nodes, in the order they are
    evaluated; `lazy`: later operands are evaluated only as needed (`and`, `or`: a truth value
    is made of what they give); `ints`: the operands must be integers (closures check their
    types; source checks those it does not know as integers, and a failure falls back on the
    meaning);
    `total(node, kinds)`: the operator cannot raise on operands of these kinds (else `raises`,
    the exception Python gives, means the meaning's located error)."""

    word: Callable
    operands: Callable
    gives: str = "bool"
    lazy: bool = False
    ints: bool = False
    total: Callable = lambda n, kinds: True
    raises: type | None = None


def render(word: str, codes: list[str], coerce: bool = False) -> str:
    """The Python expression joining `codes` by operator `word` (a truth value made of it with
    `coerce`): `(not A)`, `(A < B)`, `(A and B and C)`, `(bool(A or B))`."""
    if word == "not":
        return f"(not {codes[0]})"
    joined = f" {word} ".join(codes)
    return f"(bool({joined}))" if coerce else f"({joined})"


def _orders(n, kinds) -> bool:
    """== and != never raise; an order between two integers or two strings neither."""
    return n.op in ("==", "!=") or kinds[0] == kinds[1] and kinds[0] in ("int", "str")


#: The Python operators a form may be written with (a game's text reaches the source only through
#: this table: anything else is a KeyError, never code).
_PYTHON = {op: op for op in ("==", "!=", "<", ">", "<=", ">=", "+", "-")}

#: The operator forms, by node class.
OPERATORS: dict[type, Operator] = {
    T.Not: Operator(lambda n: "not", lambda n: (n.operand,)),
    T.And: Operator(lambda n: "and", lambda n: n.operands, lazy=True),
    T.Or: Operator(lambda n: "or", lambda n: n.operands, lazy=True),
    T.Compare: Operator(lambda n: _PYTHON[n.op], lambda n: (n.left, n.right), total=_orders, raises=TypeError),
    T.Arithmetic: Operator(lambda n: _PYTHON[n.op] if n.op in ("+", "-") and len(n.operands) == 2 else None,
                           lambda n: n.operands, gives="int", ints=True),
}


def operator_piece(expr, src, n, env: str, bound: dict, depth: int) -> Piece | None:
    """Source for operator node `n`, its operands written by `expr` (`codegen.ExprSource.expr`),
    or None when the form is left to its closure."""
    form = OPERATORS[type(n)]
    word = form.word(n)
    if word is None:
        return None
    pieces = [expr(src, x, env, bound, depth) for x in form.operands(n)]
    kinds = [p.kind for p in pieces]
    ints = all(k == "int" for k in kinds)
    codes = [p.code for p in pieces]
    if form.ints and not ints:  # Python's + takes a truth value as 1: the meaning reports an error
        check = src.const(_integer)
        codes = [c if k == "int" else f"{check}({c})" for c, k in zip(codes, kinds)]
    code = render(word, codes, form.lazy and any(k != "bool" for k in kinds))
    safe = all(p.safe for p in pieces) and (ints or not form.ints) and form.total(n, kinds)
    return Piece(code, form.gives if ints or not form.ints else "any", safe)


def _integer(value):
    """`value` if it is an integer (a truth value is not); else a TypeError, on which the source
    falls back on the meaning, which reports the located error."""
    if type(value) is int:
        return value
    raise TypeError("not an integer")


def operator_closure(fn, slow, n):
    """`f(env, st)` for operator node `n` over its operands' functions (`fn(child)`). `slow(n, env,
    st)`: the node's meaning, called where Python would not say what it says (and for the
    forms the compilers leave to it)."""
    form = OPERATORS[type(n)]
    word = form.word(n)
    if word is None:
        return lambda env, st: slow(n, env, st)
    operands = [fn(x) for x in form.operands(n)]
    make = _factory(word, len(operands), form.lazy, form.ints, form.raises)
    return make(*operands, lambda env, st: slow(n, env, st))


_FACTORIES: dict[tuple, Callable] = {}


def _factory(word: str, arity: int, lazy: bool, ints: bool, raises: type | None) -> Callable:
    """`make(a0, ..., slow) -> f(env, st)` for one shape of operator, compiled once: `f` is the
    operator's `render`ed expression over the operands' calls (lazy) or values."""
    shape = (word, arity, lazy, ints, raises)
    made = _FACTORIES.get(shape)
    if made is not None:
        return made
    names = [f"_a{i}" for i in range(arity)]
    lines = [f"def make({', '.join(names)}, _slow):", "    def f(env, st):"]
    if lazy:
        lines.append(f"        return {render(word, [f'{a}(env, st)' for a in names], True)}")
    else:
        values = [f"_v{i}" for i in range(arity)]
        lines += [f"        {v} = {a}(env, st)" for v, a in zip(values, names)]
        result = render(word, values)
        if ints:  # (a bool is not an integer here: `type`, not `isinstance`)
            lines.append(f"        if {' and '.join(f'type({v}) is int' for v in values)}:")
            lines += [f"            return {result}", "        return _slow(env, st)"]
        elif raises is not None:
            lines += ["        try:", f"            return {result}", f"        except {raises.__name__}:",
                      "            return _slow(env, st)"]
        else:
            lines.append(f"        return {result}")
    lines.append("    return f")
    namespace: dict = {}
    code = compile("\n".join(lines), f"<recycle operator {word}/{arity}>", "exec")
    exec(code, namespace)  # noqa: S102 — our own source, its words from `_PYTHON`
    made = _FACTORIES[shape] = namespace["make"]
    return made
