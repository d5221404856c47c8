"""Expression forms written once for both compilers: the constants (an integer, a name, the
game as an owner), the operators (`not`, `and`, `or`, the comparisons, `+`/`-` of two
integers) and the forms written as source (variables, players, storages, locations, size,
cards at a place, card attributes, scores, max/min, tuples: `WRITTEN`).

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

A form written as source is one function `(c, src, node, env, bound, depth) -> Piece | None`
(`c`: the expression compiler, `codegen.ExprSource`, whose `expr` writes the operands): its
source, operands inlined. Its closure is the same function run on a `ClosureSource`, where the
compiler writes each operand as a call of its function instead, unless it can neither raise nor
draw (`ExprSource.operand`, `closure_of`): both evaluate the same operands in the same order,
and where the source could raise, the meaning (`_Form`) runs and raises the located error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from recycle.lang import tree as T

from recycle.interp.source import EnvRef, Piece, Source
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


# --- forms written as source (their closures derived: `codegen.closure_of`) ---------------

class ClosureSource(Source):
    """The source of a closure (see `ExprSource.closure_of`): operands called, not inlined; its
    code compiled once per text (closures of one shape share it)."""

    def build(self, node):
        text = self.text()
        code = _CLOSURES.get(text)
        if code is None:
            if len(_CLOSURES) >= MAX_CLOSURES:  # (games come and go: a bound, not a leak)
                _CLOSURES.clear()
            code = _CLOSURES[text] = compile(text, f"<recycle closure {type(node).__name__}>", "exec")
        exec(code, self.ns)  # noqa: S102 — our own source
        return self.ns["f"]


#: Closures' compiled code, by their text, at most `MAX_CLOSURES` of them.
_CLOSURES: dict[str, object] = {}
MAX_CLOSURES = 4096


def var(c, src, n, env, bound, depth):
    """'V: the local the source binds it to, else read from the env (the outermost one the source
    builds: binding copies, so it holds the same value)."""
    if n.name in bound:
        kind, local = bound[n.name]
        return Piece(local, kind, True)
    if n.name in c.gvar_names():
        return None  # may be a game-wide value: the closure looks there
    while type(env) is EnvRef:  # not one the source binds: the env its bindings were added to has it
        env = env.outer
    return Piece(f"{env}[{n.name!r}]")  # unbound: KeyError, the closure says which

def player_ref(c, src, n, env, bound, depth):
    """(current player); the others are the meaning's."""
    return Piece(f"_players[{src.seat}]", "seat", True) if n.which == "current" else None


def _storage(c, src, n, env, bound, depth, attr: str, default: str, kind: str):
    key = c.key(src, n, (), env, bound, depth)
    return None if key is None else Piece(f"{src.store(attr)}.get({key.code}, {default})", kind, key.safe)

def int_storage(c, src, n, env, bound, depth):
    """(OWNER sto NAME): 0 where nothing is stored."""
    return _storage(c, src, n, env, bound, depth, "ints", "0", "int")

def str_storage(c, src, n, env, bound, depth):
    """(OWNER str NAME): '' where nothing is stored."""
    return _storage(c, src, n, env, bound, depth, "strs", "''", "str")

def point_storage(c, src, n, env, bound, depth):
    """(OWNER points NAME): the empty map where none is stored."""
    key = c.key(src, n, (), env, bound, depth)
    if key is None:
        return None
    stored = src.points(src.ns[key.fixed], key.code) if key.fixed is not None else f"st.points.get({key.code})"
    if key.fixed is not None and src.places is not None and src.steady:  # (read once a call: `Source.points`)
        return Piece(src.once(f"({stored} or _EMPTY_PM)"), "points", key.safe)
    return Piece(f"({stored} or _EMPTY_PM)", "points", key.safe)

def location(c, src, n, env, bound, depth):
    """(OWNER vloc NAME): the place's live list (kept per store where its key is known)."""
    key = c.key(src, n, (n.visibility,), env, bound, depth)
    return None if key is None else Piece(f"({src.place(key)} or [])", "cards", key.safe)

# --- integers and conditions ------------------------------------------------

def size(c, src, n, env, bound, depth):
    """(size COLL): of a place, its list's length; of a filter, its own function counts (`codegen._loop`)."""
    coll = n.collection
    if type(coll) is T.Filter and type(src) is not ClosureSource:  # its own function, which counts (see `_loop`)
        return Piece(f"{src.call(c.fn(n))}({env}, st)", "int", called=True)
    if type(coll) is T.Location:
        key = c.key(src, coll, (coll.visibility,), env, bound, depth)
        if key is not None:
            return Piece(f"len({src.place(key)} or ())", "int", key.safe)
    inner = c.expr(src, coll, env, bound, depth)
    return Piece(f"len({inner.code})", "int", inner.safe) if inner.kind in ("cards", "set", "list") else None


def card_at(c, src, n, env, bound, depth):
    """(top CARDS), (bottom CARDS) of cards or sets (else a collection of collections: the meaning's)."""
    if n.position not in ("top", "bottom"):
        return None
    cards = c.expr(src, n.cards, env, bound, depth)
    if cards.kind not in ("cards", "set"):  # maybe a collection of collections: the closure knows
        return None
    t = src.temp()
    return Piece(f"({t}[{-1 if n.position == 'top' else 0}] if ({t} := {cards.code}) else None)", "card", cards.safe)

def card_att(c, src, n, env, bound, depth):
    """(cardatt KEY CARD)."""
    if type(n.key) is not T.Name:
        return None
    card, t, key = c.expr(src, n.card, env, bound, depth), src.temp(), src.const(n.key.value)
    if card.kind == "card":
        return Piece(f"('' if ({t} := {card.code}) is None else _attrs[{t}].get({key}, ''))", "str", card.safe)
    # not known as a card: a truth value or a negative number would index one (`_not_card`:
    # the meaning's located error)
    return Piece(f"(_attrs[{t}].get({key}, '') if type({t} := {card.code}) is int and {t} >= 0 "
                 f"else '' if {t} is None else {src.const(_not_card)}())", "str")

def score(c, src, n, env, bound, depth):
    """(score CARD using POINTS)."""
    fused = c.score_of_extreme(src, n, env, bound, depth) if type(src) is not ClosureSource else None
    if fused is not None:
        return fused
    pm, card = c.expr(src, n.using, env, bound, depth), c.expr(src, n.card, env, bound, depth)
    if pm.kind != "points":
        return None
    # the map's kept score, else its `score` (no card: that fails on None, and the meaning
    # raises the located error)
    m, c, got = src.temp(), src.temp(), src.temp()
    if pm.safe:  # the map cannot fail: read first, as the card's failures come first all the same
        return Piece(f"({got} if ({got} := ({m} := {pm.code})._cache.get({c} := {card.code})) is not None "
                     f"else {m}.score({c}, _attrs))", "int")
    # the card first, as the meaning: no card fails (`_no_card`) before the map is read
    return Piece(f"(({got} if ({got} := ({m} := {pm.code})._cache.get({c})) is not None else {m}.score({c}, _attrs))"
                 f" if ({c} := {card.code}) is not None else {src.const(_no_card)}())", "int")

def max_card(c, src, n, env, bound, depth):
    """(max CARDS using POINTS)."""
    return _extreme(c, src, n, env, bound, depth, 1)

def min_card(c, src, n, env, bound, depth):
    """(min CARDS using POINTS)."""
    return _extreme(c, src, n, env, bound, depth, -1)

def _extreme(c, src, n, env, bound, depth, sign: int):
    """max/min by a point map: `extreme_of` called on the map and the cards, read in the closure's
    order (see `fast._extreme_fn`). Impure (a tie draws): only written where the caller knows it
    cannot tie (`counting`: the map scores every card apart), else the closure is called."""
    pm = c.expr(src, n.using, env, bound, depth)
    if pm.kind != "points":
        return None
    cards = c.expr(src, n.cards, env, bound, depth)
    return Piece(f"{src.call(c.extreme_of)}({src.const(n)}, {pm.code}, {cards.code}, st, {sign})", "card")

def tuples(c, src, n, env, bound, depth):
    """(tuples N CARDS using POINTS): the sets a hand's sets are kept in (`fast.tuple_sets`)."""
    pm = c.expr(src, n.using, env, bound, depth)
    if pm.kind != "points":
        return None
    k, cards = c.expr(src, n.size, env, bound, depth), c.expr(src, n.cards, env, bound, depth)
    return Piece(f"{src.call(c.tuple_sets(n))}({pm.code}, {k.code}, {cards.code})", "list")


def players(c, src, n, env, bound, depth):
    """(players): a new list of them."""
    return Piece("list(_players)", "list", True)


def _not_card():
    """A card's attribute asked of what is not a card: the meaning reports the located error."""
    raise TypeError("not a card")


def _no_card():
    """A card's score asked of no card: the meaning reports the located error."""
    raise TypeError("no card")


#: The forms written as source, by node class: their closure is derived (`codegen.closure_of`).
WRITTEN: dict[type, Callable] = {
    T.Var: var, T.PlayerRef: player_ref, T.Players: players, T.IntStorage: int_storage, T.StrStorage: str_storage,
    T.PointStorage: point_storage, T.Location: location, T.Size: size, T.CardAt: card_at, T.CardAtt: card_att,
    T.Score: score, T.MaxCard: max_card, T.MinCard: min_card, T.Tuples: tuples,
}
