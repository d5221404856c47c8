"""Expressions compiled to Python source (the speed layer under `fast` and `runners`).

A closure per node still costs a Python call per node. For the common forms,
`ExprSource.expr(node)` writes one Python expression instead, its children
inlined: `(== (size ((current player) iloc HAND)) 0)` becomes
`len(st.locs.get(_players[st.pcycles[-1][0]] + _c1) or ()) == 0`. Forms it
does not write are called through their closure (`Evaluator.fn`).

Meaning and errors stay those of the closures. Each piece of source says
whether it is *safe* (it cannot raise: constant keys, integer comparisons...).
A function made from source that is not safe catches what Python raises and
evaluates the node again through its closure, which raises the game's
located error; that is only done for pure subtrees (no `random`, `new`, or
random tie-breaks), so nothing is drawn twice.

Nothing from a game file becomes code: every identifier of the generated
source is the interpreter's own; a file's names reach it only as string
literals (dictionary keys, written with `repr`, and the grammar only allows
upper-case names), its numbers as integer literals, everything else as
constants passed in (`_c12`). `tests/test_recycle_codegen_safety.py` reads
all source generated for the corpus and our games and checks exactly that.
"""
from __future__ import annotations

from functools import partial

from recycle.kernel.protocol import GameError
from recycle.lang import tree as T

from recycle.interp import forms
from recycle.interp.forms import ClosureSource
from recycle.interp.cardsets import PICK_BUILT, fast_pick
from recycle.interp.source import Piece, Source, place, seated, shifted
from recycle.interp.store import GAME, PointMap

#: Forms whose evaluation changes the state (a draw of the generator, a fresh name).
IMPURE = (T.NewName, T.Random, T.MaxCard, T.MinCard)
#: Deeper expressions are split into calls (Python's parser has nesting limits).
MAX_DEPTH = 24


class ExprSource:
    """Writes expressions of one game as Python source (a mixin of `evaluate.Evaluator`)."""

    def _source_base(self) -> dict:
        return {"_players": self.table.players, "_attrs": self.attrs, "_GameError": GameError, "_place": place,
                "_seated": seated,
                "_EMPTY_PM": PointMap(()), "_iterate": self.iterate}

    def pure(self, node) -> bool:
        got = self._pure.get(id(node))
        if got is None:
            got = self._pure[id(node)] = not any(isinstance(n, IMPURE) for n in T.walk(node))
        return got

    def gvar_names(self) -> frozenset:
        """Names `(put points 'V ...)` can give a value outside any binding."""
        if self._gvars is None:
            game = self.table.game
            self._gvars = frozenset(n.var.name for n in T.walk((game.setup, game.flow)) if type(n) is T.PutPoints)
        return self._gvars

    def call(self, src: Source, node, env: str) -> Piece:
        """A call of the node's function (a closure, or generated itself)."""
        return Piece(f"{src.call(self.fn(node))}({env}, st)", _CALLED_KINDS.get(type(node), "any"), called=True)

    def expr(self, src: Source, node, env: str = "env", bound: dict | None = None, depth: int = 0) -> Piece:
        """Source for `node` (children inlined where this module knows their form). `env`: source
        giving the env dict; `bound`: variable -> (kind, Python local) of the names the enclosing
        source binds (reading them cannot fail, see `Source.bind`)."""
        got = src.hoisted.get(id(node))
        if got is not None:
            return got
        if type(src) is ClosureSource and type(node) not in forms.CONSTANTS:  # a closure's operand (see `closure_of`)
            return self.operand(src, node, env, bound, depth)
        make = self.source_of(type(node))
        if make is None or depth > MAX_DEPTH:
            return self.call(src, node, env)
        got = make(src, node, env, bound or {}, depth + 1)
        return self.call(src, node, env) if got is None else got

    def operand(self, src: Source, node, env: str, bound: dict, depth: int) -> Piece:
        """An operand of a closure's form: inlined as in source where that cannot raise nor draw
        (a constant key's storage...), else a call of its function where the source would have
        inlined it (so the closure evaluates what the source does, in the same order)."""
        make = self.source_of(type(node)) if self.pure(node) else None
        piece = make and make(src, node, env, bound, depth + 1)
        if piece is not None and piece.safe:
            return piece
        kind = _GIVES.get(type(node)) or _CALLED_KINDS.get(type(node), "any")
        return Piece(f"{src.call(self.fn(node))}({env}, st)", kind, called=True)

    def closure_of(self, node):
        """The closure of a form written as source (`forms.WRITTEN`): the same source,
        its operands called (`operand`) instead of inlined; where the source could raise, a
        failure is the meaning's to report (its `_Form` method runs, and raises the located
        error). None where the writer leaves the node to the meaning."""
        meaning = getattr(self, "_" + type(node).__name__)
        src = ClosureSource(self._source_base())
        src.emit(0, "def f(env, st):")
        piece = self.source_of(type(node))(src, node, "env", {}, 1)
        if piece is None:
            return None
        if piece.safe:
            src.emit(1, f"return {piece.code}")
        else:
            slow = src.const(lambda env, st: meaning(node, env, st))
            for line in ("try:", f"    return {piece.code}", "except _GameError:", "    raise", "except Exception:",
                         f"    return {slow}(env, st)"):
                src.emit(1, line)
        return src.build(node)

    def source_of(self, kind):
        """The writer of source for nodes of class `kind` (a constant's and an operator's derived
        from its `forms.Constant` or `forms.Operator`, a written form's `forms.WRITTEN` function,
        the others `_src_<Form>` methods), or None."""
        if kind in forms.OPERATORS:
            return self._operator
        if kind in forms.CONSTANTS:
            return self._constant
        written = forms.WRITTEN.get(kind)
        if written is not None:
            return partial(written, self)
        return getattr(self, "_src_" + kind.__name__, None)

    def _constant(self, src, n, env, bound, depth):
        return forms.constant_piece(src, n)

    def _operator(self, src, n, env, bound, depth):
        if type(n) is T.Compare:  # is a place empty: not the operator, its list read as a truth value
            got = self._empty_place(src, n, env, bound, depth)
            if got is not None:
                return got
        return forms.operator_piece(self.expr, src, n, env, bound, depth)

    def function(self, node):
        """A generated `f(env, st)` for `node`, or None when source would not pay (a leaf, an impure form)."""
        kind = type(node)
        if kind not in _WORTH or not self.pure(node):
            return None
        src = Source(self._source_base())
        slow = src.const(self._later(node))
        src.emit(0, "def f(env, st):")
        src.emit(1, "try:")
        if kind in _LOOPS or kind is T.Size and type(node.collection) is T.Filter:
            self._loop(src, node)
            safe = False
        else:
            piece = self.source_of(kind)(src, node, "env", {}, 1)
            if piece is None:  # not a form it writes after all (a call of itself would loop)
                return None
            src.emit(2, f"return {piece.code}")
            safe = piece.safe
        if safe:
            src.lines[1:] = [shifted(line, -1) for line in src.lines[2:]]  # no try needed
        else:  # errors are the closure's: it runs again and raises the located one
            src.emit(1, "except _GameError:")
            src.emit(2, "raise")
            src.emit(1, "except Exception:")
            src.emit(2, f"return {slow}(env, st)")
        try:
            return src.build(node)
        except (SyntaxError, RecursionError, MemoryError):  # beyond Python's limits: the closure
            return None

    def _later(self, node):
        """The node's closure, made on first use (most generated functions never need it)."""
        made = []

        def slow(env, st):
            if not made:
                made.append(self.closure(node))
            return made[0](env, st)
        return slow

    def items(self, src: Source, coll, env: str, bound: dict, indent: int = 0) -> tuple[str, str, bool]:
        """(source of the elements of a collection to loop over, their kind, is it a fresh list:
        else the live list of a location, to copy before the loop changes the game). `indent`:
        where a statement may compute it first (0: in a function whose failures all fall back)."""
        if type(coll) is T.Players:
            return "_players", "seat", True
        piece = self.expr(src, coll, env, bound)
        if piece.kind in ("cards", "set") and piece.safe:  # a set is never a location's live list
            return piece.code, "card", piece.kind == "set"
        if type(coll) in _CALLED_KINDS:  # a form that always makes a new list
            elements = _ELEMENT_KINDS.get(type(coll), "any")
            if piece.called or not self.pure(coll):
                return self.call(src, coll, env).code, elements, True
            return (piece.code if piece.safe or not indent else self.value(src, coll, env, bound, indent)[0],
                    elements, True)
        return f"_iterate({src.const(coll)}, {env}, st)", "any", True

    def _loop(self, src: Source, n) -> None:
        """The body of a filter, (all ...) or (any ...) condition over a collection, or of the
        size of a filter (counted, no list made)."""
        size, n = type(n) is T.Size, (n.collection if type(n) is T.Size else n)
        if size and type(n.collection) is T.Players and self._count_seated(src, n):
            return
        items, kind, _ = self.items(src, n.collection, "env", {})
        if type(n) is T.Filter:
            src.emit(2, "_n = 0" if size else "_out = []")
        src.emit(2, f"for _x in {items}:")
        env, bound = src.bind(3, "env", {}, n.var.name, kind, "_x")
        cond = self.expr(src, n.condition, env, bound)
        if type(n) is T.Filter:
            test = f"_x and {cond.code}" if n.kind == "cardsets" else cond.code  # empty sets never pass
            src.emit(3, f"if {test}:")
            src.emit(4, "_n += 1" if size else "_out.append(_x)")
            src.emit(2, "return _n" if size else "return _out")
        elif type(n) is T.AllTrue:
            src.emit(3, f"if not {cond.code}:")
            src.emit(4, "return False")
            src.emit(2, "return True")
        else:
            src.emit(3, f"if {cond.code}:")
            src.emit(4, "return True")
            src.emit(2, "return False")

    def _count_seated(self, src: Source, n) -> bool:
        """`(size (filter player 'P (OP (size ('P LOC NAME)) 0)))`, how many players' place is
        (not) empty, as one count in C over the players' lists (kept per store, `seated`);
        False (nothing written) for any other filter."""
        found = self._seated_test(src, n)
        if found is None:
            return False
        empty, lists = found
        src.emit(2, f"_h = {lists}")
        src.emit(2, "return sum(map(bool, _h))" if empty == "not not " else "return len(_h) - sum(map(bool, _h))")
        return True

    def _seated_test(self, src: Source, n) -> tuple[str, str] | None:
        """(the test's prefix, source giving every seat's list of the place, kept per store:
        `seated`) when `n`'s condition asks whether player `n.var`'s place is (not) empty, over
        all players; else None."""
        if type(n.collection) is not T.Players or type(n.condition) is not T.Compare:
            return None
        test = emptiness(n.condition)
        if test is None or type(test[1].owner) is not T.Var or test[1].owner.name != n.var.name:
            return None
        empty, place = test
        key = self.key(src, place, (place.visibility,), "env", {n.var.name: ("seat", "_x")}, 1)
        if key is None or key.seats is None:
            return None
        made = src.kept(1, "0", f"_seated({{cells}}, st, {key.seats[0]})")[1]
        if src.places is None:
            return empty, made
        if src.placed:  # (found at the start of the call)
            return empty, src.seated(key.seats[0])
        # (a stage's rounds: in a local for the call, once every seat has its list)
        local, t = src.places.setdefault(("seated", key.seats[0]), (f"_L{len(src.places)}", "None"))[0], src.temp()
        return empty, f"({local} if {local} is not None else ({t} if None in ({t} := {made}) else ({local} := {t})))"

    def score_of_extreme(self, src: Source, n, env, bound, depth) -> Piece | None:
        """`(score (max CARDS using P) using P)`, P one fixed point storage, as the fused closure
        does it (`fast._score_of_extreme`) without a call: the card picked in C, its kept score;
        where that does not answer (no map stored, a tie to draw for, a score not kept yet) the
        closure is called, which does all again (reading changes nothing). None: not that form."""
        pick = n.card
        if not PICK_BUILT or type(pick) not in (T.MaxCard, T.MinCard) or type(pick.using) is not T.PointStorage \
                or type(n.using) is not T.PointStorage:
            return None
        key = self.fixed_key(pick.using, ())
        if key is None or key != self.fixed_key(n.using, ()):
            return None
        cards = self.expr(src, pick.cards, env, bound, depth)
        if not cards.safe or cards.kind != "cards":
            return None
        m, k, got = src.temp(), src.temp(), src.temp()
        sign, pm_class, picked = 1 if type(pick) is T.MaxCard else -1, src.const(PointMap), src.const(fast_pick)
        return Piece(f"({got} if type({m} := {src.points(key)}) is {pm_class} and ({k} := {picked}("
                     f"{cards.code}, {m}, _attrs, {sign})) is not None and ({got} := {m}._cache.get({k})) is not None "
                     f"else {self.call(src, n, env).code})", "int", exact=True)

    def _src_AnyTrue(self, src, n, env, bound, depth):
        """`(any player 'P (OP (size ('P LOC NAME)) 0))` (a climbing game's end: someone is out)
        as one test in C over the players' lists (`_seated_test`); else None (the loop's function)."""
        found = self._seated_test(src, n)
        if found is None:
            return None
        empty, lists = found
        every, some = src.const(all), src.const(any)  # (names of the source's own: no builtin named)
        return Piece(f"(not {every}({lists}))" if empty == "not " else f"{some}({lists})", "bool", True)

    def _src_AllTrue(self, src, n, env, bound, depth):
        """`(all player 'P (OP (size ('P LOC NAME)) 0))` as `_src_AnyTrue` writes its (any ...)."""
        found = self._seated_test(src, n)
        if found is None:
            return None
        empty, lists = found
        every, some = src.const(all), src.const(any)
        return Piece(f"(not {some}({lists}))" if empty == "not " else f"{every}({lists})", "bool", True)

    # --- leaves and owners ------------------------------------------------------

    def _src_PlayerAt(self, src, n, env, bound, depth):
        if type(n.index) is T.IntLit and type(n.index.value) is int and 0 <= n.index.value < len(self.table.players):
            return Piece(src.const(self.table.players[n.index.value]), "seat", True)
        return None

    def fixed_key(self, n, words: tuple) -> tuple | None:
        """The key of a storage or location that is the same at every evaluation (the game's,
        or a numbered player's, with a constant name), else None."""
        if type(n.name) is not T.Name or getattr(n, "index", None) is not None:
            return None
        owner, players = n.owner, self.table.players
        if type(owner) is T.GameOwner:
            return self.table.key(GAME + words + (n.name.value,))
        if type(owner) is T.PlayerAt and type(owner.index) is T.IntLit and type(owner.index.value) is int \
                and 0 <= owner.index.value < len(players):
            return self.table.key(players[owner.index.value] + words + (n.name.value,))
        return None

    def key(self, src, n, words: tuple, env, bound, depth) -> Piece | None:
        """The key of a storage or location with a constant name: `owner + (words..., NAME)`."""
        if type(n.name) is not T.Name or getattr(n, "index", None) is not None:
            return None
        suffix = words + (n.name.value,)
        fixed = self.fixed_key(n, words)
        if fixed is not None:
            name = src.const(fixed)
            return Piece(name, "key", True, fixed=name)
        if type(n.owner) is T.PlayerRef and n.owner.which == "current":  # one key per seat, made once
            seats = src.const(tuple(self.table.key(p + suffix) for p in self.table.players))
            return Piece(f"{seats}[{src.seat}]", "key", True, seats=(seats, src.seat))
        owner = self.expr(src, n.owner, env, bound, depth)
        if owner.kind == "seat":  # a player ("p", i): its key made once, found by its number
            seats = src.const(tuple(self.table.key(p + suffix) for p in self.table.players))
            return Piece(f"{seats}[{owner.code}[1]]", "key", owner.safe, seats=(seats, f"{owner.code}[1]"))
        return Piece(f"({owner.code} + {src.const(suffix)})", "key", owner.safe and owner.kind == "owner")

    # --- storage and locations --------------------------------------------------

    def _empty_place(self, src, n, env, bound, depth):
        """`(OP (size PLACE) 0)` asking whether a place is empty: its list (or None) read as a truth
        value, no length taken; None for any other comparison."""
        test = emptiness(n)
        if test is not None:
            empty, coll = test
            key = self.key(src, coll, (coll.visibility,), env, bound, depth)
            if key is not None:
                return Piece(f"({empty}{src.place(key)})", "bool", key.safe)
        return None

    # --- cards ------------------------------------------------------------------

    def _src_Range(self, src, n, env, bound, depth):
        """A range of two literals is a list written out (a new one at every evaluation)."""
        low, high = n.low, n.high
        if type(low) is not T.IntLit or type(high) is not T.IntLit or type(low.value) is not int \
                or type(high.value) is not int:
            return None
        numbers = range(low.value, high.value + 1 if n.inclusive else high.value)
        return Piece(repr(list(numbers)), "list", True) if len(numbers) <= SHORT_RANGE else None

#: (size PLACE) OP 0, as a test of the place's list: "not " for empty, "not not " for not.
_EMPTINESS = {"==": "not ", "<=": "not ", ">": "not not ", "!=": "not not "}


def emptiness(n) -> tuple[str, T.Location] | None:
    """(the test's prefix, the place) when comparison `n` asks whether a place is empty."""
    empty = _EMPTINESS.get(n.op)
    if empty is None or type(n.left) is not T.Size or type(n.left.collection) is not T.Location \
            or type(n.right) is not T.IntLit or type(n.right.value) is not int or n.right.value != 0:
        return None
    return empty, n.left.collection


#: Ranges written out as a list in the source, at most this long.
SHORT_RANGE = 64
#: What the elements of the lists some closures make are: cards, card sets (fresh lists, never a
#: location's live one), players.
_ELEMENT_KINDS = {T.Union: "card", T.Intersect: "card", T.Disjunction: "card", T.Tuples: "set",
                  T.Subsets: "set", T.Runs: "set", T.Partition: "set", T.Players: "seat",
                  T.OtherPlayers: "owner"}
#: What the functions of some forms give, whatever their operands (a closure's operands, see `operand`).
_GIVES = {T.PointStorage: "points", T.Location: "cards"}
#: Conditions over a collection, generated as loops.
_LOOPS = frozenset({T.Filter, T.AllTrue, T.AnyTrue})
#: Forms worth a generated function of their own (leaves are as fast as closures).
_WORTH = frozenset({T.IntStorage, T.StrStorage, T.Location, T.Size, T.Arithmetic, T.Compare, T.And, T.Or,
                    T.Not, T.CardAt, T.CardAtt, T.Score}) | _LOOPS
#: What the closures of some forms return: flat card lists, or lists of anything.
_CALLED_KINDS = {T.Union: "cards", T.Intersect: "cards", T.Disjunction: "cards",
                 T.Sort: "list", T.TopCards: "list", T.Filter: "list", T.Tuples: "list", T.Range: "list",
                 T.OtherPlayers: "list", T.Players: "list", T.Teams: "list", T.OtherTeams: "list",
                 T.Subsets: "list", T.Runs: "list", T.Partition: "list"}
