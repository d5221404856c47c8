"""The typed builder's values: integers, conditions and cards (a part of `build_game.GameBuilder`,
see `build_expr`)."""
from __future__ import annotations

from recycle.lang import tree as T
from recycle.lang.build_expr import Part, head, is_index, storage_word
from recycle.lang.lexer import Atom, SList
from recycle.lang.vocab import COMPARISONS, DESCRIBE

_COMPARABLE = ("int", "str", "card", "player", "team")
_BINARY = {"-": None, "//": None, "%": "percent", "mod": "mod", "^": "pow"}


class ValueForms(Part):
    """Builders of integers, conditions and cards."""

    USES = ("storage", "span", "using", "collection", "cards", "over", "player", "team", "value")
    PROVIDES = ("int_", "bool_", "card")

    # --- integers -------------------------------------------------------------

    def int_(self, sx) -> T.Node:
        if type(sx) is Atom:
            if sx.kind == "int":
                return T.IntLit(int(sx.text), line=sx.line, column=sx.column)
            if sx.kind == "var":
                return self.var(sx, "int")
        elif sx.items:
            if storage_word(sx):
                return self.storage(sx, "int")
            method = _INT_FORMS.get(head(sx))
            if method is not None:
                return method(self, sx)
        self.expect(sx, "int")

    def _arith(self, sx: SList) -> T.Node:
        op, rest = sx.items[0].text, sx.items[1:]
        if op in ("+", "*"):
            if len(rest) < 2:
                self.arity(sx, rest, f"({op} A B ...)", 2)
            if len(rest) > 2:
                self.note("nary", sx)
        else:
            self.args(sx, 2, f"({op} A B)")
            if _BINARY[op]:
                self.note(_BINARY[op], sx)
        operands = self.each(rest, self.int_)
        return T.Arithmetic("%" if op == "mod" else op, operands, line=sx.line, column=sx.column)

    def _size(self, sx: SList) -> T.Node:
        (x,) = self.args(sx, 1, "(size COLLECTION)")
        return T.Size(self.collection(x)[0], line=sx.line, column=sx.column)

    def _tri_fib(self, sx: SList) -> T.Node:
        word = sx.items[0].text
        (n,) = self.args(sx, 1, f"({word} N)")
        self.note(word, sx)
        return (T.Tri if word == "tri" else T.Fib)(self.int_(n), line=sx.line, column=sx.column)

    def _random(self, sx: SList) -> T.Node:
        self.note("random", sx)
        rest = sx.items[1:]
        if len(rest) == 1:
            return T.Random(None, self.int_(rest[0]), line=sx.line, column=sx.column)
        low, high = self.span(sx, "(random N) or (random LOW..HIGH)")
        return T.Random(low, high, line=sx.line, column=sx.column)

    def _scored(self, sx: SList) -> T.Node:
        word = sx.items[0].text
        cls, arg = _SCORED[word]
        x, pm = self.using(sx, f"({word} {arg.upper()} using POINTS)")
        if word in ("scoremax", "scoremin"):
            self.note(word, sx)
        built = self.card(x) if arg == "card" else self.cards(x)
        return cls(built, pm, line=sx.line, column=sx.column)

    def _pid_tid(self, sx: SList) -> T.Node:
        word = sx.items[0].text
        (x,) = self.args(sx, 1, f"({word} {'PLAYER' if word == 'pid' else 'TEAM'})")
        self.note(word, sx)
        if word == "pid":
            return T.Pid(self.player(x), line=sx.line, column=sx.column)
        return T.Tid(self.team(x), line=sx.line, column=sx.column)

    def _all_sum(self, sx: SList) -> T.Node:
        self.note("all-sum", sx)
        node, _, var, value = self.over(sx, "(all COLLECTION 'V INTEGER)", self.int_)
        return T.AllSum(node, var, value, line=sx.line, column=sx.column)

    # --- conditions -------------------------------------------------------------

    def bool_(self, sx) -> T.Node:
        word = head(sx)
        if word is not None:
            method = _BOOL_FORMS.get(word)
            if method is not None:
                return method(self, sx)
        elif type(sx) is Atom and sx.kind == "var":
            return self.var(sx, "bool")
        self.expect(sx, "bool")

    def _and_or(self, sx: SList) -> T.Node:
        word, rest = sx.items[0].text, sx.items[1:]
        if len(rest) < 2:
            self.arity(sx, rest, f"({word} CONDITION CONDITION ...)", 2)
        cls = T.And if word == "and" else T.Or
        return cls(self.each(rest, self.bool_), line=sx.line, column=sx.column)

    def _not(self, sx: SList) -> T.Node:
        (x,) = self.args(sx, 1, "(not CONDITION)")
        return T.Not(self.bool_(x), line=sx.line, column=sx.column)

    def _compare(self, sx: SList) -> T.Node:
        op = sx.items[0].text
        a, b = self.args(sx, 2, f"({op} A B)")
        if op in ("==", "!="):
            ka, kb = self.kind_of(a), self.kind_of(b)
            for k, x in ((ka, a), (kb, b)):
                if k not in _COMPARABLE and k != "unknown":
                    self.fail(x, f"{op} compares integers, names, cards, players or teams, "
                              f"not {DESCRIBE[k]}", "two values of the same kind")
            kind = ka if ka != "unknown" else kb
            if "unknown" not in (ka, kb) and ka != kb:
                self.fail(b, f"cannot compare {DESCRIBE[ka]} with {DESCRIBE[kb]}",
                          f"{DESCRIBE[ka]} on both sides")
        else:
            kind = "int"
        if kind == "unknown":
            left, right = self.each((a, b), lambda x: self.value(x)[0])
        else:
            build = self.builders[{"int": "int_", "str": "str_"}.get(kind, kind)]
            left, right = self.each((a, b), build)
        return T.Compare(op, left, right, kind, line=sx.line, column=sx.column)

    def _quantified(self, sx: SList) -> T.Node:
        word = sx.items[0].text
        node, _, var, cond = self.over(sx, f"({word} COLLECTION 'V CONDITION)", self.bool_)
        cls = T.AllTrue if word == "all" else T.AnyTrue
        return cls(node, var, cond, line=sx.line, column=sx.column)

    # --- cards ------------------------------------------------------------------

    def card(self, sx) -> T.Node:
        if type(sx) is Atom:
            if sx.kind == "var":
                return self.var(sx, "card")
        elif sx.items:
            word = head(sx)
            if word in ("top", "bottom"):
                if len(sx.items) == 3:
                    self.fail(sx, f"({word} N CARDS) is a collection of N cards, not a card",
                              f"({word} CARDS)")
                (x,) = self.args(sx, 1, f"({word} CARDS)")
                if type(x) is SList and self.kind_of(x) == "cardsets":
                    self.fail(sx, f"({word} SETS) is a card collection, not a card",
                              "a card", f"({word} ({word} ...)) is the {word} card of it")
                return T.CardAt(word, self.cards(x), line=sx.line, column=sx.column)
            if word in ("max", "min"):
                x, pm = self.using(sx, f"({word} CARDS using POINTS)")
                cls = T.MaxCard if word == "max" else T.MinCard
                return cls(self.cards(x), pm, line=sx.line, column=sx.column)
            if word == "actual":
                (x,) = self.args(sx, 1, "(actual CARD)")
                return T.Actual(self.card(x), line=sx.line, column=sx.column)
            if word is None and is_index(sx) and self.kind_of(sx) == "card":
                index, cards = sx.items
                return T.CardAt(self.int_(index), self.cards(cards), line=sx.line, column=sx.column)
        self.expect(sx, "card")


_INT_FORMS = {
    **dict.fromkeys(("+", "-", "*", "//", "%", "mod", "^"), ValueForms._arith),
    "size": ValueForms._size, "tri": ValueForms._tri_fib, "fib": ValueForms._tri_fib,
    "random": ValueForms._random, "pid": ValueForms._pid_tid, "tid": ValueForms._pid_tid,
    **dict.fromkeys(("sum", "score", "scoremax", "scoremin"), ValueForms._scored),
    "all": ValueForms._all_sum,
}
_SCORED = {"sum": (T.Sum, "cards"), "score": (T.Score, "card"),
           "scoremax": (T.ScoreMax, "cards"), "scoremin": (T.ScoreMin, "cards")}
_BOOL_FORMS = {
    "and": ValueForms._and_or, "or": ValueForms._and_or, "not": ValueForms._not,
    **dict.fromkeys(COMPARISONS, ValueForms._compare),
    "all": ValueForms._quantified, "any": ValueForms._quantified,
}
