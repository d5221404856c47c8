"""Deal files: the cards each place gets, written down independently of any seed.

    # comments start with '#'
    p0: 3c 4d 4h ...                  a player: the one place the deal gives it cards
    p1 HAND: 5s 9d ...                or a place named in full (OWNER NAME)
    p2: THREE BLACK CLUBS, FOUR RED HEARTS   a game's own card text, comma-separated

This module is the file format only (reading with located errors, writing);
`president.game.deals` checks a deal against a President table and
`recycle.interp.arrange` arranges a RECYCLE game's first shuffle to produce it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from recycle.kernel.diagnostics import Diagnostic, DiagnosticError, read_user_file

MAX_DEAL_BYTES = 1_000_000
MAX_PLACES = 1_000  # a deal file is user input: bounded


@dataclass(frozen=True)
class Word:
    """A piece of a deal file and where it starts (1-based line and column)."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class DealEntry:
    """One line: a place and the cards it gets, in order."""

    place: Word
    cards: tuple[Word, ...]


@dataclass(frozen=True)
class DealSpec:
    """A parsed deal file (its text is kept to show the lines of errors)."""

    filename: str
    text: str
    entries: tuple[DealEntry, ...]

    def error(self, word: Word, message: str, hint: str = "", length: int | None = None) -> Diagnostic:
        lines = self.text.splitlines()
        source = lines[word.line - 1] if 0 < word.line <= len(lines) else ""
        return Diagnostic(self.filename, word.line, word.column, message, source_line=source,
                          length=len(word.text) if length is None else length, hint=hint)

    def places(self) -> dict[str, list[str]]:
        """{place: [card, ...]} as written."""
        return {e.place.text: [c.text for c in e.cards] for e in self.entries}


def _words(line: str, start: int, line_no: int, commas: bool) -> list[Word]:
    """The words of `line[start:]`, split at commas (game text has spaces) or at spaces."""
    out, i, n = [], start, len(line)
    while i < n:
        while i < n and (line[i].isspace() or line[i] == ","):
            i += 1
        j = i
        while j < n and line[j] != "," and (commas or not line[j].isspace()):
            j += 1
        text = line[i:j].strip()
        if text:
            out.append(Word(" ".join(text.split()), line_no, i + 1))
        i = j
    return out


def parse_deal(text: str, filename: str = "<deal>") -> DealSpec:
    """A deal file's lines; raises `DiagnosticError` for a line that is not `PLACE: CARDS`."""
    entries, problems, seen = [], [], {}
    spec = DealSpec(filename, text, ())
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0]
        if not line.strip():
            continue
        head, colon, rest = line.partition(":")
        indent = len(head) - len(head.lstrip())
        place = Word(" ".join(head.split()), line_no, indent + 1)
        if not colon or not place.text:
            problems.append(spec.error(place, "a deal line is PLACE: CARDS", length=max(1, len(line.strip())),
                                       hint="e.g. 'p0: 3c 4d 4h' (a comment starts with '#')"))
            continue
        key = place.text.lower()
        if key in seen:
            problems.append(spec.error(place, f"{place.text} is dealt twice (first on line {seen[key]})"))
            continue
        seen[key] = line_no
        entries.append(DealEntry(place, tuple(_words(line, len(head) + 1, line_no, "," in rest))))
        if len(entries) > MAX_PLACES:
            problems.append(spec.error(place, f"more than {MAX_PLACES} places"))
            break
    if problems:
        raise DiagnosticError(problems)
    return DealSpec(filename, text, tuple(entries))


def read_deal(path: str | Path) -> DealSpec:
    """A deal file from disk (bounded; unreadable or non-UTF-8 files give located errors)."""
    text, problems = read_user_file(path, MAX_DEAL_BYTES, "a deal file")
    if text is None:
        raise DiagnosticError(problems)
    return parse_deal(text, str(path))


def deal_text(places: Mapping[str, Sequence[str]], comment: str = "") -> str:
    """The deal file of {place: [card, ...]} (cards with spaces are comma-separated)."""
    out = [f"# {line}" for line in comment.splitlines()]
    for place, cards in places.items():
        sep = ", " if any(" " in c for c in cards) else " "
        out.append(f"{place}: {sep.join(cards)}".rstrip())
    return "\n".join(out) + "\n"


def as_spec(deal: "DealSpec | Mapping[str, Sequence[str]]") -> DealSpec:
    """A `DealSpec` from a spec or a mapping (written out, so its errors are located too)."""
    return deal if isinstance(deal, DealSpec) else parse_deal(deal_text(deal))
