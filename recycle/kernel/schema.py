"""Typed reading of the JSON files the programs write and read back (journals, transcripts).

A file may have been edited, cut short or replaced by anything at all, so
every line is checked against a *shape* before any of it is used:

    RECORD = Obj({"game": Int(0), "seats": ListOf(Int(0, 9), 2, 7), "note": Maybe(Str())})
    for line, data in json_lines(path, max_bytes=10**8, kind="a results file"):
        record = line.check(data, RECORD)          # the dict, or a located DiagnosticError

An error names the file, the line and the field, shows the line, and says
what was expected and what was found:

    t.jsonl:3:1: error: field 'seats[1]': expected a whole number 0..9, got "x"

Reading is bounded: special files (FIFOs, devices) are refused before
opening, the file and each line have a byte limit, and nesting too deep
for the JSON parser is a located error, never a RecursionError.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from recycle.kernel.diagnostics import Diagnostic, DiagnosticError, not_a_regular_file

MAX_LINE_BYTES = 1_000_000  # one record; a whole game's transcript line is a few kilobytes
SHOWN = 120  # characters of an offending line shown under the error


class Mismatch(Exception):
    """A value that does not have its shape: where (a field path) and what was expected."""

    def __init__(self, where: str, expected: str, value: Any) -> None:
        super().__init__(where, expected)
        self.where, self.expected, self.value = where, expected, value


def describe(value: Any) -> str:
    """What a JSON value is, short, for an error message: `null`, `"ten"`, `a list of 3`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value[:40] + ("..." if len(value) > 40 else ""))
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= 24 else text[:20] + "..."
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return "an object"


class Shape:
    """What a JSON value must be; `check` returns the value (possibly converted) or raises `Mismatch`."""

    def check(self, value: Any, where: str) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Shape):
    """A whole number (not a boolean) in `low..high` (inclusive; None: unbounded)."""

    low: int | None = None
    high: int | None = None

    def check(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or \
                (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise Mismatch(where, f"a whole number{_range(self.low, self.high)}", value)
        return value


@dataclass(frozen=True)
class Float(Shape):
    """A finite number in `low..high`; whole numbers are accepted and returned as float."""

    low: float | None = None
    high: float | None = None

    def check(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or \
                (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise Mismatch(where, f"a finite number{_range(self.low, self.high)}", value)
        return float(value)


@dataclass(frozen=True)
class Str(Shape):
    """A string of at most `max_len` characters, without NUL (no name or path holds one, and the
    operating system refuses it in a path); one of `choices` when given."""

    max_len: int = 10_000
    choices: tuple[str, ...] = ()

    def check(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or len(value) > self.max_len or "\0" in value:
            raise Mismatch(where, f"a string of at most {self.max_len:,} characters (no NUL)", value)
        if self.choices and value not in self.choices:
            raise Mismatch(where, " or ".join(json.dumps(c) for c in self.choices), value)
        return value


@dataclass(frozen=True)
class Bool(Shape):
    """true or false."""

    def check(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise Mismatch(where, "true or false", value)
        return value


@dataclass(frozen=True)
class Maybe(Shape):
    """null, or a value of the inner shape."""

    inner: Shape

    def check(self, value: Any, where: str) -> Any:
        if value is None:
            return None
        try:
            return self.inner.check(value, where)
        except Mismatch as exc:
            if exc.where != where:
                raise
            raise Mismatch(where, f"null or {exc.expected}", value) from None


@dataclass(frozen=True)
class ListOf(Shape):
    """A list of `min_len..max_len` items of one shape (returned as a list)."""

    item: Shape
    min_len: int = 0
    max_len: int = 100_000

    def check(self, value: Any, where: str) -> list:
        if not isinstance(value, list) or not self.min_len <= len(value) <= self.max_len:
            size = (f"{self.min_len}" if self.min_len == self.max_len
                    else f"{self.min_len}..{self.max_len:,}")
            raise Mismatch(where, f"a list of {size} items", value)
        return [self.item.check(v, f"{where}[{i}]") for i, v in enumerate(value)]


@dataclass(frozen=True)
class MapOf(Shape):
    """An object of at most `max_len` keys, every value of one shape."""

    value: Shape
    max_len: int = 10_000

    def check(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict) or len(value) > self.max_len:
            raise Mismatch(where, f"an object of at most {self.max_len:,} fields", value)
        return {k: self.value.check(v, _field(where, k)) for k, v in value.items()}


@dataclass(frozen=True)
class Obj(Shape):
    """An object with these fields (all required unless named in `optional`); others are kept unchecked."""

    fields: Mapping[str, Shape]
    optional: frozenset[str] = field(default_factory=frozenset)

    def check(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise Mismatch(where, "an object {...}", value)
        out = dict(value)
        for name, shape in self.fields.items():
            if name in value:
                out[name] = shape.check(value[name], _field(where, name))
            elif name not in self.optional:
                raise Mismatch(_field(where, name), "this field (it is missing)", _MISSING)
        return out


@dataclass(frozen=True)
class AnyJson(Shape):
    """Any JSON value (already bounded by the line's size and the parser's depth)."""

    def check(self, value: Any, where: str) -> Any:
        return value


_MISSING = object()


def _field(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _range(low, high) -> str:
    if low is not None and high is not None:
        return f" {low:,}..{high:,}"
    if low is not None:
        return f" >= {low:,}"
    if high is not None:
        return f" <= {high:,}"
    return ""


@dataclass(frozen=True)
class Line:
    """One line of a file (1-based number), for located errors."""

    filename: str
    number: int
    text: str

    def error(self, message: str, expected: str = "", hint: str = "") -> DiagnosticError:
        shown = self.text.rstrip("\r\n")
        shown = shown if len(shown) <= SHOWN else shown[:SHOWN] + "..."
        return DiagnosticError([Diagnostic(self.filename, self.number, 1, message, source_line=shown,
                                           length=max(1, min(len(shown), SHOWN)), expected=expected, hint=hint)])

    def check(self, value: Any, shape: Shape, hint: str = "") -> Any:
        """`value` checked against `shape`, or a `DiagnosticError` naming this line and the field."""
        try:
            return shape.check(value, "")
        except Mismatch as exc:
            field_name = f"field '{exc.where}'" if exc.where else "the line"
            got = "nothing" if exc.value is _MISSING else describe(exc.value)
            raise self.error(f"{field_name}: expected {exc.expected}, got {got}", hint=hint) from None


def parse_line(line: Line) -> Any:
    """The JSON value of one line, or a located error (bad JSON, nested too deep, a huge number)."""
    try:
        return json.loads(line.text)
    except RecursionError:
        raise line.error("nested too deeply to be one of our records") from None
    except ValueError as exc:  # JSONDecodeError, and int() refusing thousands of digits
        raise line.error(f"not JSON: {str(exc).splitlines()[0][:100]}") from None


def open_checked(path: str | Path, kind: str):
    """A binary handle on a regular file, or a located error (special files are refused unopened)."""
    refused = not_a_regular_file(path)
    if refused:
        raise DiagnosticError([Diagnostic(str(path), 1, 1, f"cannot read {kind}: {refused}")])
    try:
        return open(path, "rb")
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise DiagnosticError([Diagnostic(str(path), 1, 1, f"cannot read {kind}: {reason}")]) from None


def raw_lines(path: str | Path, max_bytes: int, kind: str, start: int = 1) -> Iterator[Line]:
    """The lines of a file as text (blank ones included), bounded; from line `start` on."""
    filename = str(path)
    total = 0
    with open_checked(path, kind) as fh:
        for number, raw in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), b""), 1):
            total += len(raw)
            if total > max_bytes:
                raise DiagnosticError([Diagnostic(filename, number, 1,
                                                  f"file too large for {kind} (over {max_bytes:,} bytes)")])
            if len(raw) > MAX_LINE_BYTES:
                raise DiagnosticError([Diagnostic(filename, number, 1,
                                                  f"line longer than {MAX_LINE_BYTES:,} bytes: not {kind}")])
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DiagnosticError([Diagnostic(filename, number, exc.start + 1,
                                                  f"not UTF-8 text: not {kind}")]) from None
            if number >= start:
                yield Line(filename, number, text)


def json_lines(path: str | Path, max_bytes: int, kind: str, start: int = 1) -> Iterator[tuple[Line, Any]]:
    """(line, parsed JSON) for every non-blank line of a JSON Lines file, streamed and bounded."""
    for line in raw_lines(path, max_bytes, kind, start):
        if line.text.strip():
            yield line, parse_line(line)
