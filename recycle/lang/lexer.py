"""Tokens and s-expressions: the bottom layer of the RECYCLE reader.

A regular expression cuts the text into tokens; a small loop nests them into
`SList`s. Why not a full pyparsing grammar: measured on the corpus (690 kB,
129 files) a nested pyparsing s-expression grammar alone takes 2.8 s, over
the 3 s budget before any typing, while this tokenizer takes 0.25 s
(`bench/bench_recycle_parse.py --compare` repeats the measurement). Why not
pyparsing's `Regex` for the tokens (as before): the same expression through `re`
reads the same tokens (a property test compares them), and importing pyparsing
(about 70 ms of CPU) cost every `recycle` command that reads a game.

Lexing rules (all dialects): `;;` starts a comment to the end of the line (a
lone `;` is an error, not a comment); names are upper-case letters; keywords
lower-case; `'NAME` is a variable; integers are digits. Reading stops at the
parenthesis closing the first form: what follows `(game ...)` is ignored, with
a warning (several corpus files carry an extra `)`).
"""
from __future__ import annotations

import re
import unicodedata
from sys import intern

from recycle.lang.errors import Reject, SourceFile
from recycle.lang.vocab import KEYWORDS

MAX_CHARS = 1_000_000  # the largest corpus file is 11 kB
MAX_DEPTH = 100  # the deepest corpus file nests 19 levels
MAX_INT_DIGITS = 18

# Order matters: comments before the catch-all, `..` before `.`, two-character
# operators before one. A lone `;` takes its line along (reported once, not
# read as code). The final `.` makes every non-space character a token, so
# nothing is skipped silently.
# A variable is a quote and upper-case letters, so a keyword glued to it is a token of its own
# (`('OPvloc DISCARD)` reads as `('OP vloc DISCARD)`, as in the reference engine); any other
# tail stays in the token and is reported as a bad variable name.
_GLUED = "|".join(sorted(KEYWORDS, key=len, reverse=True))
#: One token (`_TOKEN` skips the whitespace before it).
TOKEN = (r";;[^\n]*|;[^\n]*|[()]|'[A-Z]+(?=(?:" + _GLUED + r")(?![A-Za-z0-9_]))"
         r"|['\u2018\u2019][A-Za-z0-9_]*|[A-Za-z0-9_]+|\.\.|==|!=|>=|<=|//|[<>+*%^:,-]|.")
#: Whitespace, then a token (group 1). The whitespace is skipped possessively: never given
#: back to be read as a `.` token at the end of the text. Tabs stay tabs: offsets are exact.
_TOKEN = re.compile(r"[ \t\r\n\f\v]*+(" + TOKEN + ")")


def _tokens(text: str):
    """(start, end) of each token of `text`, in order."""
    for m in _TOKEN.finditer(text):
        yield m.span(1)


_OPERATORS = {"==", "!=", ">=", "<=", "//", "<", ">", "+", "*", "%", "^", "-"}
_PUNCT = {",": "comma", ":": "colon", "..": "dots"}
# Likely typos read as what was meant, after the error, so one slip gives one error.
_REPAIRS = {"=": "==", "!": "!=", "/": "//"}
_BAD_HINTS = {
    "=": "equality is written '=='",
    "!": "inequality is written '!='",
    "/": "integer division is written '//'",
    ".": "a range is written (range LOW..HIGH)",
    '"': "names are written in capitals without quotes",
    "[": "forms are grouped with ( and ) only",
    "]": "forms are grouped with ( and ) only",
    "{": "forms are grouped with ( and ) only",
    "}": "forms are grouped with ( and ) only",
}


class Atom:
    """One token: kind is word (lower-case keyword), name, int, var, op, comma,
    colon or dots; `text` is the token (for a var, without the quote)."""

    __slots__ = ("kind", "text", "offset", "line", "column")

    def __init__(self, kind: str, text: str, offset: int, line: int, column: int) -> None:
        # Interned: names become parts of location and storage keys, and dict lookups of equal keys
        # are faster when their strings are one object.
        self.kind, self.text, self.offset, self.line, self.column = kind, intern(text), offset, line, column

    @property
    def source(self) -> str:
        """The token as written (a variable with its quote)."""
        return "'" + self.text if self.kind == "var" else self.text

    @property
    def width(self) -> int:
        return len(self.source)

    def describe(self) -> str:
        """`keyword move`, `name HEARTS`, `variable 'P`... for messages."""
        return f"{_KIND_WORDS.get(self.kind, 'symbol')} {self.source}"

    def __repr__(self) -> str:
        return f"{self.kind}:{self.text}"


class SList:
    """A parenthesised form; `end` is the offset of its `)`."""

    __slots__ = ("items", "offset", "line", "column", "end")

    def __init__(self, offset: int, line: int, column: int) -> None:
        self.items: list[Atom | SList] = []
        self.offset, self.line, self.column, self.end = offset, line, column, -1

    width = 1  # a caret under the '('

    def __repr__(self) -> str:
        return "(" + " ".join(map(repr, self.items)) + ")"


class Reading:
    """The first top-level form, and where ignored trailing text starts (or -1)."""

    __slots__ = ("form", "trailing")

    def __init__(self, form: SList | None, trailing: int) -> None:
        self.form, self.trailing = form, trailing


def read_form(src: SourceFile) -> Reading:
    """Read the first top-level form of `src.text`, reporting lexical errors."""
    text = src.text
    if len(text) > MAX_CHARS:
        src.report(0, f"file too large ({len(text):,} characters; the limit is {MAX_CHARS:,})",
                   hint="a RECYCLE game is a few kilobytes")
        raise Reject
    stack: list[SList] = []
    line, line_start, pos, prev_line = 1, 0, 0, 0
    suspect: tuple[SList, int] | None = None  # a '(' whose ')' is probably missing
    stray_reported = False
    tokens = _tokens(text)
    for start, end in tokens:
        newlines = text.count("\n", pos, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", pos, start) + 1
        pos = end
        column = start - line_start + 1
        tok = text[start:end]
        first = tok[0]
        if first == "(":
            if len(stack) >= MAX_DEPTH:
                src.report(start, f"forms nested too deeply (more than {MAX_DEPTH} levels)",
                           hint="a game nests a few dozen levels at most; check the parentheses")
                raise Reject
            form = SList(start, line, column)
            if stack:
                top = stack[-1]
                # Indentation as evidence: a form starting a line left of (or
                # level with) a still-open form was probably meant to close it.
                if (suspect is None and line != prev_line and top.line < line
                        and column <= top.column):
                    suspect = (top, line)
                top.items.append(form)
            stack.append(form)
        elif first == ")":
            if not stack:
                src.report(start, "unbalanced parenthesis: ')' closes nothing",
                           expected="(game ...)", hint="remove this ')'")
            else:
                done = stack.pop()
                done.end = start
                if not stack:
                    return Reading(done, _trailing(tokens, text))
        elif first == ";":
            if not tok.startswith(";;"):
                src.report(start, "a single ';' does not start a comment",
                           hint="a comment starts with ';;' (this line is skipped)")
            continue
        else:
            atom = _atom(src, tok, start, line, column)
            if atom is not None:
                if stack:
                    stack[-1].items.append(atom)
                elif not stray_reported:
                    stray_reported = True
                    src.report(start, f"unexpected {atom.describe()} outside any form",
                               length=atom.width, expected="(game ...)")
        prev_line = line
    if stack:
        _unbalanced(src, stack, suspect)
        raise Reject
    return Reading(None, -1)


def _trailing(tokens, text: str) -> int:
    for start, _ in tokens:
        if not text.startswith(";;", start):
            return start
    return -1


def _unbalanced(src: SourceFile, stack: list[SList], suspect: tuple[SList, int] | None) -> None:
    outer, inner = stack[0], stack[-1]
    where = suspect[0] if suspect else inner
    message = (f"unbalanced parenthesis: '(' opened at line {outer.line}, column "
               f"{outer.column} is never closed")
    if suspect:
        hint = (f"this form probably lacks its ')': line {suspect[1]} starts at its "
                f"indentation while it is still open")
    elif inner is outer:
        hint = "add ')' at the end of the file"
    else:
        hint = f"the form opened here (line {inner.line}) is still open at the end of the file"
    src.report(where.offset, message, expected="')'", hint=hint)


def _atom(src: SourceFile, tok: str, start: int, line: int, column: int) -> Atom | None:
    """Classify one token; report and repair (or drop) malformed ones."""
    first = tok[0]
    if first in "'\u2018\u2019":
        body = tok[1:]
        if not body:
            _lex_error(src, start, "a quote must be followed by a variable name",
                       expected="'NAME (upper-case letters)")
            return None
        if first != "'":
            _lex_error(src, start, f"a variable starts with the plain quote ', not {first!r}",
                       hint=f"write '{_upper(body) or 'X'}")
        elif not (body.isalpha() and body.isupper()):
            _lex_error(src, start, f"bad variable name {tok!r}: variables are upper-case letters",
                       length=len(tok), hint=f"write '{_upper(body) or 'X'}")
        return Atom("var", _upper(body) or "X", start, line, column)
    if first.isascii() and first.isdigit():  # ASCII only: str.isdigit() also takes '⓷', which int() refuses
        if tok.isascii() and tok.isdigit():
            if len(tok) > MAX_INT_DIGITS:
                _lex_error(src, start, f"integer literal too long ({len(tok)} digits)",
                           length=len(tok), hint=f"at most {MAX_INT_DIGITS} digits")
                return Atom("int", "0", start, line, column)
            return Atom("int", tok, start, line, column)
        _lex_error(src, start, f"{tok!r} is neither a number nor a name", length=len(tok),
                   hint="names are upper-case letters only, numbers digits only")
        return Atom("name", _upper(tok) or "X", start, line, column)
    if first.isalpha() or first == "_":
        if tok.isalpha():
            if tok.islower():
                return Atom("word", tok, start, line, column)
            if tok.isupper():
                return Atom("name", tok, start, line, column)
        hint = (f"keywords are lower-case: {tok.lower()}" if tok.lower() in KEYWORDS
                else f"write {_upper(tok) or 'X'}")
        _lex_error(src, start, f"bad name {tok!r}: names are upper-case letters only",
                   length=len(tok), hint=hint)
        if tok.lower() in KEYWORDS:
            return Atom("word", tok.lower(), start, line, column)
        return Atom("name", _upper(tok) or "X", start, line, column)
    if tok in _OPERATORS:
        return Atom("op", tok, start, line, column)
    if tok in _PUNCT:
        return Atom(_PUNCT[tok], tok, start, line, column)
    if tok in _REPAIRS:
        _lex_error(src, start, f"unexpected character {tok!r}", hint=_BAD_HINTS[tok])
        return Atom("op", _REPAIRS[tok], start, line, column)
    name = unicodedata.name(first, "")
    shown = f"{first!r} (U+{ord(first):04X}{' ' + name if name else ''})"
    _lex_error(src, start, f"unexpected character {shown}",
               hint=_BAD_HINTS.get(first, "RECYCLE uses letters, digits, ( ) ' and operators"))
    return None


def _lex_error(src: SourceFile, start: int, message: str, **kw) -> None:
    """A token-level error: recorded so the builder does not re-report its effects."""
    src.lexical.append(start)
    src.report(start, message, **kw)


def _upper(word: str) -> str:
    return "".join(ch for ch in word.upper() if "A" <= ch <= "Z")


_KIND_WORDS = {"word": "keyword", "name": "name", "int": "number", "var": "variable"}
