"""The typed builder's collections: card collections, collections of them, any collection,
and point maps (a part of `build_game.GameBuilder`, see `build_expr`)."""
from __future__ import annotations

from recycle.lang import tree as T
from recycle.lang.build_expr import Part, found, head, is_index, storage_word
from recycle.lang.lexer import Atom, SList
from recycle.lang.vocab import COMPARISONS, DESCRIBE, ELEMENT, VISIBILITIES


class Collections(Part):
    """Builders of card collections, collections of collections and point maps."""

    USES = ("int_", "bool_", "str_", "owner", "team", "storage", "location_name", "points_ref", "names",
            "span", "using")
    PROVIDES = ("cards", "part", "cardsets", "collection", "filter", "over", "point_map")

    # --- card collections -----------------------------------------------------------

    def cards(self, sx) -> T.Node:
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
            if word is None and is_index(sx):
                index, sets = sx.items
                return T.CollectionAt(self.int_(index), self.cardsets(sets),
                                      line=sx.line, column=sx.column)
        self.expect(sx, "cards")

    def _end(self, sx: SList) -> T.Node:
        word, rest = sx.items[0].text, sx.items[1:]
        if len(rest) == 2:
            self.note("top-n", sx)
            return T.TopCards(word, self.int_(rest[0]), self.cards(rest[1]),
                              line=sx.line, column=sx.column)
        (x,) = self.args(sx, 1, f"({word} SETS) or ({word} N CARDS)")
        if type(x) is SList and self.kind_of(x) == "cards":
            self.fail(sx, f"({word} CARDS) is a card, not a card collection",
                      "a card collection", f"({word} N CARDS) is the {word} N cards")
        return T.CollectionAt(word, self.cardsets(x), line=sx.line, column=sx.column)

    def part(self, sx) -> T.Node:
        """A part of union/intersect/disjunction/partition: cards or sets of them."""
        return self.cardsets(sx) if self.kind_of(sx) == "cardsets" else self.cards(sx)

    def _set_op(self, sx: SList) -> T.Node:
        word, rest = sx.items[0].text, sx.items[1:]
        if not rest:
            self.arity(sx, rest, f"({word} CARDS ...)", 1)
        if word != "union":
            self.note(word, sx)
        cls = {"union": T.Union, "intersect": T.Intersect, "disjunction": T.Disjunction}[word]
        return cls(self.each(rest, self.part), line=sx.line, column=sx.column)

    def _sort(self, sx: SList) -> T.Node:
        self.note("sort", sx)
        x, pm = self.using(sx, "(sort CARDS using POINTS)")
        return T.Sort(self.cards(x), pm, line=sx.line, column=sx.column)

    def _filter_cards(self, sx: SList) -> T.Node:
        node, kind = self.filter(sx)
        if kind not in ("cards", "unknown"):
            self.fail(sx, f"expected a card collection, found a filter of {DESCRIBE[kind]}",
                      "(filter CARDS 'V CONDITION)")
        return node

    def _run(self, sx: SList) -> T.Node:
        self.note("run", sx)
        usage = "(run top|bottom N CARDS using POINTS)"
        rest = sx.items[1:]
        if len(rest) != 5:
            self.arity(sx, rest, usage, 5)
        end = self.keyword(rest[0], ("top", "bottom"), usage)
        self.keyword(rest[3], ("using",), usage)
        return T.Run(end, self.int_(rest[1]), self.cards(rest[2]), self.points_ref(rest[4]),
                     line=sx.line, column=sx.column)

    # --- collections of card collections ------------------------------------------------

    def cardsets(self, sx) -> T.Node:
        if type(sx) is Atom:
            if sx.kind == "var":
                return self.var(sx, "cardsets")
        else:
            method = _SETS_FORMS.get(head(sx))
            if method is not None:
                return method(self, sx)
        self.expect(sx, "cardsets")

    def _partition(self, sx: SList) -> T.Node:
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
        return T.Partition(self.str_(key), self.each(parts, self.part), line=sx.line, column=sx.column)

    def _subsets(self, sx: SList) -> T.Node:
        self.note("subsets", sx)
        rest = sx.items[1:]
        if len(rest) == 3:
            op = rest[1]
            if not (type(op) is Atom and op.text in COMPARISONS):
                self.fail(op, f"expected a comparison (> < >= <= == !=), found {found(op)}",
                          "(subsets CARDS > N)")
            self.note("subsets-size", sx)
            return T.Subsets(self.cards(rest[0]), op.text, self.int_(rest[2]),
                             line=sx.line, column=sx.column)
        (x,) = self.args(sx, 1, "(subsets CARDS) or (subsets CARDS > N)")
        return T.Subsets(self.cards(x), line=sx.line, column=sx.column)

    def _runs(self, sx: SList) -> T.Node:
        self.note("runs", sx)
        usage = "(runs largest|all N CARDS using POINTS)"
        rest = sx.items[1:]
        if len(rest) != 5:
            self.arity(sx, rest, usage, 5)
        mode = self.keyword(rest[0], ("largest", "all"), usage)
        self.keyword(rest[3], ("using",), usage)
        return T.Runs(mode, self.int_(rest[1]), self.cards(rest[2]), self.points_ref(rest[4]),
                      line=sx.line, column=sx.column)

    def _tuples(self, sx: SList) -> T.Node:
        usage = "(tuples N CARDS using POINTS)"
        rest = sx.items[1:]
        if len(rest) != 4:
            self.arity(sx, rest, usage, 4)
        self.keyword(rest[2], ("using",), usage)
        return T.Tuples(self.int_(rest[0]), self.cards(rest[1]), self.points_ref(rest[3]),
                        line=sx.line, column=sx.column)

    def _all_sets(self, sx: SList) -> T.Node:
        node, _, var, cards = self.over(sx, "(all COLLECTION 'V CARDS)", self.cards)
        return T.AllCollections(node, var, cards, line=sx.line, column=sx.column)

    def _indexed(self, sx: SList) -> T.Node:
        self.note("indexed", sx)
        usage = "(indexed OWNER vloc|iloc|hloc|oloc|mem NAME)"
        owner, vis, name = self.args(sx, 3, usage)
        vis = self.keyword(vis, VISIBILITIES, usage)
        return T.IndexedLocations(self.owner(owner), vis, self.location_name(name),
                                  line=sx.line, column=sx.column)

    # --- any collection -----------------------------------------------------------

    def collection(self, sx) -> tuple[T.Node, str]:
        """Something to iterate, filter or size: -> (node, its kind)."""
        pos = {"line": sx.line, "column": sx.column}
        if type(sx) is Atom:
            if sx.kind == "word" and sx.text in ("player", "team"):
                cls = T.Players if sx.text == "player" else T.Teams
                return cls(**pos), sx.text + "s"
            if sx.kind == "var":
                return self.var(sx, "collection"), self.kind_of(sx)
            self.expect(sx, "collection")
        items = sx.items
        if items and type(items[0]) is Atom and items[0].kind == "name":
            return T.StringList(self.names(sx, "names"), **pos), "strs"
        word = head(sx)
        if word == "other":
            (x,) = self.args(sx, 1, "(other player) or (other team)")
            x = self.keyword(x, ("player", "team"), "(other player) or (other team)")
            return (T.OtherPlayers if x == "player" else T.OtherTeams)(**pos), x + "s"
        if word == "range":
            self.core.saw_range = True
            low, high = self.span(sx, "(range LOW..HIGH)")
            return T.Range(low, high, self.core.inclusive_ranges, **pos), "ints"
        if word == "filter":
            return self.filter(sx)
        kind = self.kind_of(sx)
        if kind == "cards":
            return self.cards(sx), kind
        if kind == "cardsets":
            return self.cardsets(sx), kind
        if kind == "team":
            return T.TeamMembers(self.team(sx), **pos), kind
        self.expect(sx, "collection")

    def filter(self, sx: SList) -> tuple[T.Node, str]:
        node, kind, var, cond = self.over(sx, "(filter COLLECTION 'V CONDITION)", self.bool_)
        return T.Filter(node, var, cond, kind, line=sx.line, column=sx.column), kind

    def over(self, sx: SList, usage: str, build) -> tuple:
        """`(HEAD COLLECTION 'V BODY)`: -> (collection, its kind, Var, body built with
        'V bound to an element of the collection)."""
        coll, var, body = self.args(sx, 3, usage)
        node, kind = self.collection(coll)
        var, built = self.within(var, ELEMENT.get(kind, "unknown"), build, body)
        return node, kind, var, built

    # --- point maps -----------------------------------------------------------------

    def point_map(self, sx) -> T.PointMap:
        """`(((KEY : VAL) ... N) ...)`: the awards of a point map."""
        if type(sx) is not SList or head(sx) is not None:
            self.fail(sx, f"expected a parenthesised list of awards, found {found(sx)}",
                      "(((KEY : VALUE) POINTS) ...)")
        awards = self.each(sx.items, self.award)
        return T.PointMap(awards, line=sx.line, column=sx.column)

    def award(self, sx) -> T.Award:
        usage = "((KEY : VALUE) ... POINTS)"
        if type(sx) is not SList or len(sx.items) < 2 or type(sx.items[0]) is not SList:
            self.fail(sx, f"expected an award {usage}, found {found(sx)}", usage)
        conditions = self.each(sx.items[:-1], self.award_condition)
        return T.Award(conditions, self.int_(sx.items[-1]), line=sx.line, column=sx.column)

    def award_condition(self, sx) -> T.AwardCondition:
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
        return T.AwardCondition(key, value, line=sx.line, column=sx.column)


_CARDS_FORMS = {
    "top": Collections._end, "bottom": Collections._end,
    **dict.fromkeys(("union", "intersect", "disjunction"), Collections._set_op),
    "sort": Collections._sort, "filter": Collections._filter_cards,
    "run": Collections._run,
}
_SETS_FORMS = {
    "partition": Collections._partition, "subsets": Collections._subsets,
    "runs": Collections._runs, "tuples": Collections._tuples,
    "all": Collections._all_sets, "indexed": Collections._indexed,
}
