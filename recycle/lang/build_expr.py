"""The typed builder's core and the base of its parts.

The builder turns s-expressions (`lexer`) into tree nodes, one method per kind
(`int_`, `bool_`, `card`, `cards`, ...). Each syntax family is a part of its own:
`Terms` (owners, storage, names: `build_terms`), `Collections` (`build_collections`),
`ValueForms` (integers, conditions, cards: `build_values`), `Actions` (`build_actions`) and
`Structure` (game, setup, stages: `build_game`), all held by `build_game.GameBuilder`.
They share one `Core` here: the source and its reports, the variables in scope and the
kind inference. A part names what it uses of the others (`Part.USES`), which the
`GameBuilder` binds from its table of builders: no part calls another through a base class.

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
from recycle.lang.vocab import (COLLECTIONS, DESCRIBE, ELEMENT, EXPECTED, FEATURES, HEAD_KIND, HEADS,
                                KEYWORDS, RELATIVE, STORAGE)

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


class Core:
    """What every part of the builder shares: the source (errors are reported in `src`), the
    dialect features seen, the variables in scope and the kind of a form from its shape."""

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

    def keyword(self, sx, words: tuple[str, ...], usage: str) -> str:
        """The keyword `sx`, which must be one of `words`."""
        if type(sx) is Atom and sx.kind == "word" and sx.text in words:
            return sx.text
        hint = did_you_mean(sx.text, words) if type(sx) is Atom else ""
        self.fail(sx, f"expected {' or '.join(words)}, found {found(sx)}", usage, hint)

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


class Part:
    """A syntax family of the builder. `USES`: the builders of the other families it calls
    (bound from the `GameBuilder`'s table by `connect`); `PROVIDES`: its own, for that table."""

    #: What every part reads of the `Core` (bound once, as attributes of the same names).
    CORE = ("src", "scope", "features", "fail", "expect", "note", "args", "arity", "keyword", "each",
            "all_of", "var", "within", "kind_of")
    USES: tuple[str, ...] = ()
    PROVIDES: tuple[str, ...] = ()

    def __init__(self, core: Core) -> None:
        self.core = core
        for name in self.CORE:
            setattr(self, name, getattr(core, name))

    def connect(self, builders: dict) -> None:
        """Bind the builders of the other families this part uses (a missing one: KeyError,
        at construction)."""
        self.builders = builders
        for name in self.USES:
            setattr(self, name, builders[name])
