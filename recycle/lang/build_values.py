"""Typed expressions, continued: integers, conditions, cards, collections, point maps."""
from __future__ import annotations

from recycle.lang import expr as E
from recycle.lang.build_expr import ExprBuilder, found, head, storage_word
from recycle.lang.lexer import Atom, SList
from recycle.lang.vocab import COMPARISONS, DESCRIBE, ELEMENT

_COMPARABLE = ("int", "str", "card", "player", "team")
_BINARY = {"-": None, "//": None, "%": "percent", "mod": "mod", "^": "pow"}


def _is_index(sx: SList) -> bool:
    """`(N X)` with N a number, a variable or a form: an index into X."""
    first = sx.items[0]
    return len(sx.items) == 2 and (type(first) is SList or first.kind in ("int", "var"))


class ValueBuilder(ExprBuilder):
    """Adds the builders of every value kind to `ExprBuilder`."""

    # --- integers -------------------------------------------------------------

    def int_(self, sx) -> E.Node:
        if type(sx) is Atom:
            if sx.kind == "int":
                return E.IntLit(int(sx.text), line=sx.line, column=sx.column)
            if sx.kind == "var":
                return self.var(sx, "int")
        elif sx.items:
            if storage_word(sx):
                return self.storage(sx, "int")
            method = _INT_FORMS.get(head(sx))
            if method is not None:
                return method(self, sx)
        self.expect(sx, "int")

    def _arith(self, sx: SList) -> E.Node:
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
        return E.Arithmetic("%" if op == "mod" else op, operands, line=sx.line, column=sx.column)

    def _size(self, sx: SList) -> E.Node:
        (x,) = self.args(sx, 1, "(size COLLECTION)")
        return E.Size(self.collection(x)[0], line=sx.line, column=sx.column)

    def _tri_fib(self, sx: SList) -> E.Node:
        word = sx.items[0].text
        (n,) = self.args(sx, 1, f"({word} N)")
        self.note(word, sx)
        return (E.Tri if word == "tri" else E.Fib)(self.int_(n), line=sx.line, column=sx.column)

    def _random(self, sx: SList) -> E.Node:
        self.note("random", sx)
        rest = sx.items[1:]
        if len(rest) == 1:
            return E.Random(None, self.int_(rest[0]), line=sx.line, column=sx.column)
        low, high = self._span(sx, "(random N) or (random LOW..HIGH)")
        return E.Random(low, high, line=sx.line, column=sx.column)

    def _span(self, sx: SList, usage: str) -> tuple:
        """`LOW..HIGH` after the head word."""
        rest = sx.items[1:]
        if len(rest) != 3:
            self.arity(sx, rest, usage, 3)
        if not (type(rest[1]) is Atom and rest[1].kind == "dots"):
            self.fail(rest[1], f"expected '..', found {found(rest[1])}", usage)
        return self.int_(rest[0]), self.int_(rest[2])

    def _scored(self, sx: SList) -> E.Node:
        word = sx.items[0].text
        cls, arg = _SCORED[word]
        x, pm = self.using(sx, f"({word} {arg.upper()} using POINTS)")
        if word in ("scoremax", "scoremin"):
            self.note(word, sx)
        built = self.card(x) if arg == "card" else self.cards(x)
        return cls(built, pm, line=sx.line, column=sx.column)

    def _pid_tid(self, sx: SList) -> E.Node:
        word = sx.items[0].text
        (x,) = self.args(sx, 1, f"({word} {'PLAYER' if word == 'pid' else 'TEAM'})")
        self.note(word, sx)
        if word == "pid":
            return E.Pid(self.player(x), line=sx.line, column=sx.column)
        return E.Tid(self.team(x), line=sx.line, column=sx.column)

    def _all_sum(self, sx: SList) -> E.Node:
        self.note("all-sum", sx)
        coll, var, body = self.args(sx, 3, "(all COLLECTION 'V INTEGER)")
        node, kind = self.collection(coll)
        var, value = self.within(var, ELEMENT.get(kind, "unknown"), self.int_, body)
        return E.AllSum(node, var, value, line=sx.line, column=sx.column)

    # --- conditions -------------------------------------------------------------

    def bool_(self, sx) -> E.Node:
        word = head(sx)
        if word is not None:
            method = _BOOL_FORMS.get(word)
            if method is not None:
                return method(self, sx)
        elif type(sx) is Atom and sx.kind == "var":
            return self.var(sx, "bool")
        self.expect(sx, "bool")

    def _and_or(self, sx: SList) -> E.Node:
        word, rest = sx.items[0].text, sx.items[1:]
        if len(rest) < 2:
            self.arity(sx, rest, f"({word} CONDITION CONDITION ...)", 2)
        cls = E.And if word == "and" else E.Or
        return cls(self.each(rest, self.bool_), line=sx.line, column=sx.column)

    def _not(self, sx: SList) -> E.Node:
        (x,) = self.args(sx, 1, "(not CONDITION)")
        return E.Not(self.bool_(x), line=sx.line, column=sx.column)

    def _compare(self, sx: SList) -> E.Node:
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
            build = getattr(self, {"int": "int_", "str": "str_"}.get(kind, kind))
            left, right = self.each((a, b), build)
        return E.Compare(op, left, right, kind, line=sx.line, column=sx.column)

    def _quantified(self, sx: SList) -> E.Node:
        word = sx.items[0].text
        coll, var, body = self.args(sx, 3, f"({word} COLLECTION 'V CONDITION)")
        node, kind = self.collection(coll)
        var, cond = self.within(var, ELEMENT.get(kind, "unknown"), self.bool_, body)
        cls = E.AllTrue if word == "all" else E.AnyTrue
        return cls(node, var, cond, line=sx.line, column=sx.column)

    # --- cards ------------------------------------------------------------------

    def card(self, sx) -> E.Node:
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
                return E.CardAt(word, self.cards(x), line=sx.line, column=sx.column)
            if word in ("max", "min"):
                x, pm = self.using(sx, f"({word} CARDS using POINTS)")
                cls = E.MaxCard if word == "max" else E.MinCard
                return cls(self.cards(x), pm, line=sx.line, column=sx.column)
            if word == "actual":
                (x,) = self.args(sx, 1, "(actual CARD)")
                return E.Actual(self.card(x), line=sx.line, column=sx.column)
            if word is None and _is_index(sx) and self.kind_of(sx) == "card":
                index, cards = sx.items
                return E.CardAt(self.int_(index), self.cards(cards), line=sx.line, column=sx.column)
        self.expect(sx, "card")

    # --- card collections -----------------------------------------------------------

    def cards(self, sx) -> E.Node:
        if type(sx) is Atom:
            if sx.kind == "var":
                return self.var(sx, "cards")
        elif sx.items:
            word = storage_word(sx)
            if word:
                return self.storage(sx, "cards")
            word = head(sx)
            method = _CARDS_FORMS.get(word)
            if method is not None:
                return method(self, sx)
            if word is None and _is_index(sx):
                index, sets = sx.items
                return E.CollectionAt(self.int_(index), self.cardsets(sets),
                                      line=sx.line, column=sx.column)
        self.expect(sx, "cards")

    def _end(self, sx: SList) -> E.Node:
        word, rest = sx.items[0].text, sx.items[1:]
        if len(rest) == 2:
            self.note("top-n", sx)
            return E.TopCards(word, self.int_(rest[0]), self.cards(rest[1]),
                              line=sx.line, column=sx.column)
        (x,) = self.args(sx, 1, f"({word} SETS) or ({word} N CARDS)")
        if type(x) is SList and self.kind_of(x) == "cards":
            self.fail(sx, f"({word} CARDS) is a card, not a card collection",
                      "a card collection", f"({word} N CARDS) is the {word} N cards")
        return E.CollectionAt(word, self.cardsets(x), line=sx.line, column=sx.column)

    def part(self, sx) -> E.Node:
        """A part of union/intersect/disjunction/partition: cards or sets of them."""
        return self.cardsets(sx) if self.kind_of(sx) == "cardsets" else self.cards(sx)

    def _set_op(self, sx: SList) -> E.Node:
        word, rest = sx.items[0].text, sx.items[1:]
        if not rest:
            self.arity(sx, rest, f"({word} CARDS ...)", 1)
        if word != "union":
            self.note(word, sx)
        cls = {"union": E.Union, "intersect": E.Intersect, "disjunction": E.Disjunction}[word]
        return cls(self.each(rest, self.part), line=sx.line, column=sx.column)

    def _sort(self, sx: SList) -> E.Node:
        self.note("sort", sx)
        x, pm = self.using(sx, "(sort CARDS using POINTS)")
        return E.Sort(self.cards(x), pm, line=sx.line, column=sx.column)

    def _filter_cards(self, sx: SList) -> E.Node:
        node, kind = self.filter(sx)
        if kind not in ("cards", "unknown"):
            self.fail(sx, f"expected a card collection, found a filter of {DESCRIBE[kind]}",
                      "(filter CARDS 'V CONDITION)")
        return node

    def _run(self, sx: SList) -> E.Node:
        self.note("run", sx)
        usage = "(run top|bottom N CARDS using POINTS)"
        rest = sx.items[1:]
        if len(rest) != 5:
            self.arity(sx, rest, usage, 5)
        end = rest[0]
        if not (type(end) is Atom and end.text in ("top", "bottom")):
            self.fail(end, f"expected top or bottom, found {found(end)}", usage)
        if not (type(rest[3]) is Atom and rest[3].text == "using"):
            self.fail(rest[3], f"expected 'using', found {found(rest[3])}", usage)
        return E.Run(end.text, self.int_(rest[1]), self.cards(rest[2]), self.points_ref(rest[4]),
                     line=sx.line, column=sx.column)

    # --- collections of card collections ------------------------------------------------

    def cardsets(self, sx) -> E.Node:
        if type(sx) is Atom:
            if sx.kind == "var":
                return self.var(sx, "cardsets")
        else:
            method = _SETS_FORMS.get(head(sx))
            if method is not None:
                return method(self, sx)
        self.expect(sx, "cardsets")

    def _partition(self, sx: SList) -> E.Node:
        self.note("partition", sx)
        rest = sx.items[1:]
        if len(rest) < 2:
            self.arity(sx, rest, "(partition KEY CARDS ...)", 2)
        if self.kind_of(rest[0]) == "str":
            key, parts = rest[0], rest[1:]
        elif self.kind_of(rest[-1]) == "str":
            key, parts = rest[-1], rest[:-1]
        else:
            self.fail(sx, "partition needs a card attribute (a NAME) to group by",
                      "(partition KEY CARDS ...)")
        return E.Partition(self.str_(key), self.each(parts, self.part), line=sx.line, column=sx.column)

    def _subsets(self, sx: SList) -> E.Node:
        self.note("subsets", sx)
        rest = sx.items[1:]
        if len(rest) == 3:
            op = rest[1]
            if not (type(op) is Atom and op.text in COMPARISONS):
                self.fail(op, f"expected a comparison (> < >= <= == !=), found {found(op)}",
                          "(subsets CARDS > N)")
            self.note("subsets-size", sx)
            return E.Subsets(self.cards(rest[0]), op.text, self.int_(rest[2]),
                             line=sx.line, column=sx.column)
        (x,) = self.args(sx, 1, "(subsets CARDS) or (subsets CARDS > N)")
        return E.Subsets(self.cards(x), line=sx.line, column=sx.column)

    def _runs(self, sx: SList) -> E.Node:
        self.note("runs", sx)
        usage = "(runs largest|all N CARDS using POINTS)"
        rest = sx.items[1:]
        if len(rest) != 5:
            self.arity(sx, rest, usage, 5)
        mode = rest[0]
        if not (type(mode) is Atom and mode.text in ("largest", "all")):
            self.fail(mode, f"expected largest or all, found {found(mode)}", usage)
        if not (type(rest[3]) is Atom and rest[3].text == "using"):
            self.fail(rest[3], f"expected 'using', found {found(rest[3])}", usage)
        return E.Runs(mode.text, self.int_(rest[1]), self.cards(rest[2]), self.points_ref(rest[4]),
                      line=sx.line, column=sx.column)

    def _tuples(self, sx: SList) -> E.Node:
        usage = "(tuples N CARDS using POINTS)"
        rest = sx.items[1:]
        if len(rest) != 4:
            self.arity(sx, rest, usage, 4)
        if not (type(rest[2]) is Atom and rest[2].text == "using"):
            self.fail(rest[2], f"expected 'using', found {found(rest[2])}", usage)
        return E.Tuples(self.int_(rest[0]), self.cards(rest[1]), self.points_ref(rest[3]),
                        line=sx.line, column=sx.column)

    def _all_sets(self, sx: SList) -> E.Node:
        coll, var, body = self.args(sx, 3, "(all COLLECTION 'V CARDS)")
        node, kind = self.collection(coll)
        var, cards = self.within(var, ELEMENT.get(kind, "unknown"), self.cards, body)
        return E.AllCollections(node, var, cards, line=sx.line, column=sx.column)

    def _indexed(self, sx: SList) -> E.Node:
        self.note("indexed", sx)
        owner, vis, name = self.args(sx, 3, "(indexed OWNER vloc|iloc|hloc|oloc|mem NAME)")
        if not (type(vis) is Atom and vis.text in ("vloc", "iloc", "hloc", "oloc", "mem")):
            self.fail(vis, f"expected a visibility, found {found(vis)}", "vloc, iloc, hloc, oloc or mem")
        return E.IndexedLocations(self.owner(owner), vis.text, self.location_name(name),
                                  line=sx.line, column=sx.column)

    # --- any collection -----------------------------------------------------------

    def collection(self, sx) -> tuple[E.Node, str]:
        """Something to iterate, filter or size: -> (node, its kind)."""
        pos = {"line": sx.line, "column": sx.column}
        if type(sx) is Atom:
            if sx.kind == "word" and sx.text in ("player", "team"):
                cls = E.Players if sx.text == "player" else E.Teams
                return cls(**pos), sx.text + "s"
            if sx.kind == "var":
                return self.var(sx, "collection"), self.kind_of(sx)
            self.expect(sx, "collection")
        items = sx.items
        if items and type(items[0]) is Atom and items[0].kind == "name":
            return E.StringList(self.names(sx, "names"), **pos), "strs"
        word = head(sx)
        if word == "other":
            (x,) = self.args(sx, 1, "(other player) or (other team)")
            if not (type(x) is Atom and x.text in ("player", "team")):
                self.fail(x, f"expected player or team, found {found(x)}", "(other player)")
            return (E.OtherPlayers if x.text == "player" else E.OtherTeams)(**pos), x.text + "s"
        if word == "range":
            self.saw_range = True
            low, high = self._span(sx, "(range LOW..HIGH)")
            return E.Range(low, high, self.inclusive_ranges, **pos), "ints"
        if word == "filter":
            return self.filter(sx)
        kind = self.kind_of(sx)
        if kind == "cards":
            return self.cards(sx), kind
        if kind == "cardsets":
            return self.cardsets(sx), kind
        if kind == "team":
            return E.TeamMembers(self.team(sx), **pos), kind
        self.expect(sx, "collection")

    def filter(self, sx: SList) -> tuple[E.Node, str]:
        coll, var, cond = self.args(sx, 3, "(filter COLLECTION 'V CONDITION)")
        node, kind = self.collection(coll)
        var, cond = self.within(var, ELEMENT.get(kind, "unknown"), self.bool_, cond)
        return E.Filter(node, var, cond, kind, line=sx.line, column=sx.column), kind

    # --- point maps -----------------------------------------------------------------

    def point_map(self, sx) -> E.PointMap:
        """`(((KEY : VAL) ... N) ...)`: the awards of a point map."""
        if type(sx) is not SList or head(sx) is not None:
            self.fail(sx, f"expected a parenthesised list of awards, found {found(sx)}",
                      "(((KEY : VALUE) POINTS) ...)")
        awards = self.each(sx.items, self.award)
        return E.PointMap(awards, line=sx.line, column=sx.column)

    def award(self, sx) -> E.Award:
        usage = "((KEY : VALUE) ... POINTS)"
        if type(sx) is not SList or len(sx.items) < 2 or type(sx.items[0]) is not SList:
            self.fail(sx, f"expected an award {usage}, found {found(sx)}", usage)
        conditions = self.each(sx.items[:-1], self.award_condition)
        return E.Award(conditions, self.int_(sx.items[-1]), line=sx.line, column=sx.column)

    def award_condition(self, sx) -> E.AwardCondition:
        usage = "(KEY : VALUE) or (KEY (VALUE))"
        items = sx.items if type(sx) is SList else ()
        if len(items) == 3 and type(items[1]) is Atom and items[1].kind == "colon":
            self.note("award-pairs", items[1])
            key, value = items[0], items[2]
        elif len(items) == 2:
            key, value = items
            if type(value) is SList and len(value.items) == 1:
                value = value.items[0]  # (KEY (VALUE))
        else:
            self.fail(sx, f"expected a condition {usage}, found {found(sx)}", usage)
        key, value = self.each((key, value), self.str_)
        return E.AwardCondition(key, value, line=sx.line, column=sx.column)


_INT_FORMS = {
    **dict.fromkeys(("+", "-", "*", "//", "%", "mod", "^"), ValueBuilder._arith),
    "size": ValueBuilder._size, "tri": ValueBuilder._tri_fib, "fib": ValueBuilder._tri_fib,
    "random": ValueBuilder._random, "pid": ValueBuilder._pid_tid, "tid": ValueBuilder._pid_tid,
    **dict.fromkeys(("sum", "score", "scoremax", "scoremin"), ValueBuilder._scored),
    "all": ValueBuilder._all_sum,
}
_SCORED = {"sum": (E.Sum, "cards"), "score": (E.Score, "card"),
           "scoremax": (E.ScoreMax, "cards"), "scoremin": (E.ScoreMin, "cards")}
_BOOL_FORMS = {
    "and": ValueBuilder._and_or, "or": ValueBuilder._and_or, "not": ValueBuilder._not,
    **dict.fromkeys(COMPARISONS, ValueBuilder._compare),
    "all": ValueBuilder._quantified, "any": ValueBuilder._quantified,
}
_CARDS_FORMS = {
    "top": ValueBuilder._end, "bottom": ValueBuilder._end,
    **dict.fromkeys(("union", "intersect", "disjunction"), ValueBuilder._set_op),
    "sort": ValueBuilder._sort, "filter": ValueBuilder._filter_cards, "run": ValueBuilder._run,
}
_SETS_FORMS = {
    "partition": ValueBuilder._partition, "subsets": ValueBuilder._subsets,
    "runs": ValueBuilder._runs, "tuples": ValueBuilder._tuples,
    "all": ValueBuilder._all_sets, "indexed": ValueBuilder._indexed,
}
