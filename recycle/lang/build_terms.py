"""The typed builder's terms: owners, players and teams, storage and locations, names, and a
value of any kind (a part of `build_game.GameBuilder`, see `build_expr`)."""
from __future__ import annotations

from recycle.lang import tree as T
from recycle.lang.build_expr import Part, found, head, storage_word
from recycle.lang.lexer import Atom, SList
from recycle.lang.vocab import COLLECTIONS, DESCRIBE, EXPECTED, KEYWORDS, RELATIVE, STORAGE


class Terms(Part):
    """Builders of owners, storage, location names, point map references and names."""

    USES = ("int_", "card", "collection")
    PROVIDES = ("owner", "player", "team", "storage", "location_name", "points_ref", "str_", "names",
                "listed", "value", "span", "using")

    def span(self, sx: SList, usage: str) -> tuple:
        """`LOW..HIGH` after the head word."""
        rest = sx.items[1:]
        if len(rest) != 3:
            self.arity(sx, rest, usage, 3)
        if not (type(rest[1]) is Atom and rest[1].kind == "dots"):
            self.fail(rest[1], f"expected '..', found {found(rest[1])}", usage)
        return self.int_(rest[0]), self.int_(rest[2])

    def using(self, sx: SList, usage: str) -> tuple:
        """`(HEAD X using PM)` -> (X, built point map)."""
        x, word, pm = self.args(sx, 3, usage)
        self.keyword(word, ("using",), usage)
        return x, self.points_ref(pm)

    def value(self, sx) -> tuple[T.Node, str]:
        """Any value, typed by its shape (for declare, let, ==): -> (node, kind)."""
        kind = self.kind_of(sx)
        if type(sx) is Atom and sx.kind == "var":
            return self.var(sx, "any"), kind
        if kind in COLLECTIONS:
            return self.collection(sx)
        method = _BY_KIND.get(kind)
        if method is None:
            word = head(sx)
            if word is not None and word not in KEYWORDS:
                self.expect(sx, "value")
            self.fail(sx, f"cannot tell what kind of value {found(sx)} is", EXPECTED["value"])
        return self.builders[method](sx), kind

    # --- owners, players, teams -------------------------------------------------

    def owner(self, sx) -> T.Node:
        if type(sx) is Atom:
            if sx.kind == "word" and sx.text == "game":
                return T.GameOwner(line=sx.line, column=sx.column)
            if sx.kind == "var":
                return self.var(sx, "owner")
        kind = self.kind_of(sx)
        if kind == "player":
            return self.player(sx)
        if kind == "team":
            return self.team(sx)
        self.expect(sx, "owner")

    def player(self, sx) -> T.Node:
        return self._who(sx, "player")

    def team(self, sx) -> T.Node:
        return self._who(sx, "team")

    def _who(self, sx, kind: str) -> T.Node:
        if type(sx) is Atom and sx.kind == "var":
            return self.var(sx, kind)
        if type(sx) is SList and len(sx.items) == 2:
            first, second = sx.items
            if type(second) is Atom and second.kind == "word" and second.text == kind:
                if type(first) is Atom and first.kind == "word" and first.text in RELATIVE:
                    ref = T.PlayerRef if kind == "player" else T.TeamRef
                    return ref(first.text, line=sx.line, column=sx.column)
                at = T.PlayerAt if kind == "player" else T.TeamAt
                return at(self.int_(first), line=sx.line, column=sx.column)
            word = head(sx)
            if kind == "player" and word == "owner":
                return T.OwnerOf(self.card(second), line=sx.line, column=sx.column)
            if kind == "team" and word == "team":
                return T.TeamOf(self.player(second), line=sx.line, column=sx.column)
        self.expect(sx, kind)

    # --- storage and locations ----------------------------------------------------

    def storage(self, sx: SList, want: str) -> T.Node:
        """`(OWNER WORD NAME [INDEX])` where `want` is the kind expected."""
        word = sx.items[1].text
        kind = STORAGE[word]
        if kind != want:
            self.fail(sx, f"expected {DESCRIBE[want]}, found (OWNER {word} NAME) "
                      f"({DESCRIBE[kind]})", EXPECTED[want])
        items = sx.items
        if kind == "cards":
            if len(items) not in (3, 4):
                self.arity(sx, items[1:], f"(OWNER {word} NAME [INDEX])", 3)
            if word == "oloc":
                self.note("oloc", items[1])
            owner = self.owner(items[0])
            index = None
            if len(items) == 4:
                self.note("location-index", items[3])
                index = self.int_(items[3])
            return T.Location(owner, word, self.location_name(items[2]), index,
                              line=sx.line, column=sx.column)
        if len(items) != 3:
            self.arity(sx, items[1:], f"(OWNER {word} NAME)", 2)
        owner, name = self.owner(items[0]), self.str_(items[2])
        if kind == "str":
            self.note("str-storage", items[1])
            return T.StrStorage(owner, name, line=sx.line, column=sx.column)
        if kind == "points":
            self.note("points-storage", items[1])
            return T.PointStorage(owner, name, line=sx.line, column=sx.column)
        return T.IntStorage(owner, name, line=sx.line, column=sx.column)

    def location_name(self, sx) -> T.Node:
        if type(sx) is Atom:
            if sx.kind == "int":
                self.note("location-number", sx)
                return T.IntLit(int(sx.text), line=sx.line, column=sx.column)
            if sx.kind == "word" and sx.text == "new":
                self.note("location-new", sx)
                return T.NewName(line=sx.line, column=sx.column)
        return self.str_(sx)

    def points_ref(self, sx) -> T.Node:
        """The point map after `using`."""
        if type(sx) is Atom and sx.kind == "var":
            self.note("points-var", sx)
            return self.var(sx, "points")
        if type(sx) is SList and storage_word(sx) == "points":
            return self.storage(sx, "points")
        self.expect(sx, "points")

    # --- names ---------------------------------------------------------------

    def str_(self, sx) -> T.Node:
        if type(sx) is Atom:
            if sx.kind == "name":
                return T.Name(sx.text, line=sx.line, column=sx.column)
            if sx.kind == "var":
                return self.var(sx, "str")
        elif storage_word(sx):
            return self.storage(sx, "str")
        elif head(sx) == "cardatt":
            key, card = self.args(sx, 2, "(cardatt KEY CARD)")
            return T.CardAtt(self.str_(key), self.card(card), line=sx.line, column=sx.column)
        self.expect(sx, "str")

    def names(self, sx: SList, what: str) -> tuple[str, ...]:
        """`(A, B, C)`: names separated by commas."""
        return self.listed(sx.items, "name", what)

    def listed(self, items: list, kind: str, what: str) -> tuple[str, ...]:
        """Atoms of `kind` separated by commas (`A, B, C` or `0, 2`)."""
        out = []
        for i, item in enumerate(items):
            if i % 2:
                if not (type(item) is Atom and item.kind == "comma"):
                    self.fail(item, f"missing ',' in the list of {what}", f"({what}, ...)")
                if i == len(items) - 1:
                    self.fail(item, "',' ends the list", f"one of the {what} after ','")
            elif type(item) is Atom and item.kind == kind:
                out.append(item.text)
            else:
                self.fail(item, f"expected one of the {what}, found {found(item)}",
                          "an upper-case NAME" if kind == "name" else "a number")
        return tuple(out)


# The builder method for each kind `value` can type (collections go to `collection`).
_BY_KIND = {"int": "int_", "bool": "bool_", "str": "str_", "card": "card", "cards": "cards",
            "cardsets": "cardsets", "player": "player", "team": "team", "points": "points_ref"}
