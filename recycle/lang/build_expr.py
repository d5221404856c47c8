"""The typed builder's base: errors, variables, kind inference, owners, storage, names.

The builder turns s-expressions (`lexer`) into tree nodes, one method per kind
(`int_`, `bool_`, `card`, `cards`, ...), spread over a chain of classes:
ExprBuilder <- CollectionBuilder <- ValueBuilder <- ActionBuilder <- GameBuilder.
RECYCLE is typed by position: `(top X)` is a card where a card is expected and
a collection where one is. `kind_of` guesses a form's kind from its shape
alone, which settles the few overloaded forms (==, size, top, all, let).
Variables carry the kind of their binding, so `(top 'R)` over a run is right.
"""
from __future__ import annotations

from recycle.lang import tree as T
from recycle.lang.errors import Reject, SourceFile, did_you_mean
from recycle.lang.lexer import Atom, SList
from recycle.lang.tree import Feature
from recycle.lang.vocab import (COLLECTIONS, DESCRIBE, ELEMENT, EXPECTED, FEATURES, HEAD_KIND,
                                HEADS, KEYWORDS, RELATIVE, STORAGE)

# What a variable of each kind may stand for without a warning.
_FITS = {"owner": ("player", "team"), "collection": tuple(COLLECTIONS)}


def head(sx) -> str | None:
    """The keyword or operator opening a form, else None."""
    if type(sx) is SList and sx.items:
        first = sx.items[0]
        if type(first) is Atom and first.kind in ("word", "op"):
            return first.text
    return None


def storage_word(sx) -> str | None:
    """`sto`, `vloc`... when `sx` is `(OWNER WORD NAME ...)`, else None."""
    items = sx.items
    if len(items) >= 3:
        word = items[1]
        if type(word) is Atom and word.kind == "word" and word.text in STORAGE:
            return word.text
    return None


def is_index(sx: SList) -> bool:
    """`(N X)` with N a number, a variable or a form: an index into X."""
    first = sx.items[0]
    return len(sx.items) == 2 and (type(first) is SList or first.kind in ("int", "var"))


def found(sx) -> str:
    """A short description of what was written, for messages."""
    if type(sx) is Atom:
        return sx.describe()
    if not sx.items:
        return "()"
    first = sx.items[0]
    return f"({first.source} ...)" if type(first) is Atom else "((...) ...)"


class ExprBuilder:
    """Builds expression nodes, recording errors in `src` and features seen."""

    def __init__(self, src: SourceFile, inclusive_ranges: bool = True) -> None:
        self.src = src
        self.scope: dict[str, tuple[str, int]] = {}  # variable -> (kind, line bound)
        self.features: dict[str, Feature] = {}
        self.inclusive_ranges = inclusive_ranges
        self.saw_range = False

    # --- reporting ------------------------------------------------------------

    def fail(self, sx, message: str, expected: str = "", hint: str = "", at: int | None = None):
        """Report an error about `sx` (at offset `at` if given) and abandon the form.
        Stays quiet when a character-level error inside `sx` already explains it."""
        end = sx.end if type(sx) is SList else sx.offset + sx.width
        if not self.src.covers_lexical(sx.offset, end):
            if at is None:
                self.src.report(sx.offset, message, length=sx.width, expected=expected, hint=hint)
            else:
                self.src.report(at, message, expected=expected, hint=hint)
        raise Reject

    def expect(self, sx, kind: str):
        """Fail: `sx` is not a `kind`; say what it is and what would do."""
        word = head(sx)
        if word is not None and word not in KEYWORDS and word not in HEAD_KIND:
            self.fail(sx, f"unknown form ({word} ...)", EXPECTED[kind],
                      did_you_mean(word, HEADS.get(kind, ()) or KEYWORDS) or
                      did_you_mean(word, KEYWORDS))
        if type(sx) is Atom and sx.kind == "word" and sx.text not in KEYWORDS:
            self.fail(sx, f"unknown word {sx.text!r}", EXPECTED[kind], did_you_mean(sx.text, KEYWORDS))
        actual = self.kind_of(sx)
        what = f" ({DESCRIBE[actual]})" if actual != "unknown" else ""
        self.fail(sx, f"expected {DESCRIBE[kind]}, found {found(sx)}{what}", EXPECTED[kind])

    def note(self, key: str, sx) -> None:
        """Record a dialect marker (first sighting only)."""
        if key not in self.features:
            letter, name = FEATURES[key]
            self.features[key] = Feature(letter, name, sx.line, sx.column)

    def args(self, sx: SList, n: int, usage: str) -> list:
        """The `n` arguments after the head, or fail showing `usage`."""
        rest = sx.items[1:]
        if len(rest) != n:
            self.arity(sx, rest, usage, n)
        return rest

    def arity(self, sx: SList, rest: list, usage: str, n: int) -> None:
        """Fail on a wrong argument count: at the first extra one, or at the ')'."""
        name = usage[: usage.find(" ")] + " ...)" if " " in usage else usage
        if len(rest) > n:
            self.fail(rest[n], f"too many arguments to {name}", usage)
        self.fail(sx, f"missing argument to {name}", usage, at=sx.end)

    def _span(self, sx: SList, usage: str) -> tuple:
        """`LOW..HIGH` after the head word."""
        rest = sx.items[1:]
        if len(rest) != 3:
            self.arity(sx, rest, usage, 3)
        if not (type(rest[1]) is Atom and rest[1].kind == "dots"):
            self.fail(rest[1], f"expected '..', found {found(rest[1])}", usage)
        return self.int_(rest[0]), self.int_(rest[2])

    def keyword(self, sx, words: tuple[str, ...], usage: str) -> str:
        """The keyword `sx`, which must be one of `words`."""
        if type(sx) is Atom and sx.kind == "word" and sx.text in words:
            return sx.text
        hint = did_you_mean(sx.text, words) if type(sx) is Atom else ""
        self.fail(sx, f"expected {' or '.join(words)}, found {found(sx)}", usage, hint)

    def using(self, sx: SList, usage: str) -> tuple:
        """`(HEAD X using PM)` -> (X, built point map)."""
        x, word, pm = self.args(sx, 3, usage)
        self.keyword(word, ("using",), usage)
        return x, self.points_ref(pm)

    def each(self, items, build) -> tuple:
        """Build every item, reporting all failures before giving up."""
        return self.all_of(*((build, item) for item in items))

    def all_of(self, *jobs) -> tuple:
        """Run every (build, form) job; give up only after all were tried."""
        out, failed = [], False
        for build, item in jobs:
            try:
                out.append(build(item))
            except Reject:
                failed = True
        if failed:
            raise Reject
        return tuple(out)

    # --- variables ------------------------------------------------------------

    def var(self, sx: Atom, want: str) -> T.Var:
        bound = self.scope.get(sx.text)
        if bound is None:
            self.fail(sx, f"unknown variable '{sx.text}",
                      "a variable bound by declare, let, all, any, filter or put points",
                      did_you_mean(sx.text, list(self.scope)).replace("mean ", "mean '"))
        kind = bound[0]
        if kind != want and kind != "unknown" and want != "any" and kind not in _FITS.get(want, ()):
            self.src.warn(sx.offset, f"'{sx.text} holds {DESCRIBE[kind]} (bound at line "
                          f"{bound[1]}), but {DESCRIBE.get(want, want)} is expected here",
                          length=sx.width)
        return T.Var(sx.text, kind, line=sx.line, column=sx.column)

    def within(self, var_sx, kind: str, build, body):
        """Bind `var_sx` to `kind` while building `body`; -> (Var, node)."""
        if not (type(var_sx) is Atom and var_sx.kind == "var"):
            self.fail(var_sx, f"expected a variable 'NAME, found {found(var_sx)}", "'NAME")
        node = self._bound(var_sx, kind, build, body)
        return T.Var(var_sx.text, kind, line=var_sx.line, column=var_sx.column), node

    def _bound(self, var_sx: Atom, kind: str, build, body):
        """`build(body)` with the variable bound (shadowing any outer one)."""
        name = var_sx.text
        old = self.scope.get(name)
        self.scope[name] = (kind, var_sx.line)
        try:
            return build(body)
        finally:
            if old is None:
                del self.scope[name]
            else:
                self.scope[name] = old

    # --- kind inference -------------------------------------------------------

    def kind_of(self, sx) -> str:
        """The kind of a form from its shape ("unknown" when it cannot tell)."""
        if type(sx) is Atom:
            k = sx.kind
            if k == "int":
                return "int"
            if k == "name":
                return "str"
            if k == "var":
                return self.scope.get(sx.text, ("unknown",))[0]
            if k == "word":
                return {"player": "players", "team": "teams", "game": "owner"}.get(sx.text, "unknown")
            return "unknown"
        items = sx.items
        if not items:
            return "unknown"
        word = storage_word(sx)
        if word:
            return STORAGE[word]
        first = items[0]
        if type(first) is not Atom or first.kind in ("int", "var"):
            if len(items) == 2:  # (N player) (N team) (N CARDS) (N SETS)
                second = items[1]
                if type(second) is Atom and second.kind == "word" and second.text in ("player", "team"):
                    return second.text
                return "cards" if self.kind_of(second) == "cardsets" else "card"
            return "unknown"
        if first.kind == "name":
            return "strs"
        word = first.text
        kind = HEAD_KIND.get(word)
        if kind is not None:
            return kind
        if word in ("top", "bottom"):
            if len(items) == 2:
                return "cards" if self.kind_of(items[1]) == "cardsets" else "card"
            return "cards"
        if word in RELATIVE and len(items) == 2 and type(items[1]) is Atom:
            return {"player": "player", "team": "team"}.get(items[1].text, "unknown")
        if word == "filter" and len(items) == 4:
            return self.kind_of(items[1])
        if word == "other" and len(items) == 2 and type(items[1]) is Atom:
            return {"player": "players", "team": "teams"}.get(items[1].text, "unknown")
        if word in ("all", "any") and len(items) == 4 and getattr(items[2], "kind", "") == "var":
            element = ELEMENT.get(self.kind_of(items[1]), "unknown")
            body = self._bound(items[2], element, self.kind_of, items[3])
            if body == "bool":
                return "bool"
            if word == "all":
                return {"cards": "cardsets", "int": "int"}.get(body, "unknown")
        return "unknown"

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
        return getattr(self, method)(sx), kind

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
