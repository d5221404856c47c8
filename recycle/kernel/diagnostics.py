"""Errors for people: located diagnostics shared by every reader of user files.

A `Diagnostic` says where (file, line, column), what went wrong, what was
expected and a hint; `render()` prints it the way compilers do:

    Cautious.rul:4:9: error: unknown variable 'TotMyTwo'
        lp  TotMyTwo > 1
            ^~~~~~~~
      expected: a game variable
      hint: did you mean TotMyTwos?

Both the `.rul` reader (`personalities`) and the RECYCLE reader use this one
module, so every file a user writes fails the same readable way.
"""
from __future__ import annotations

import enum
import os
import stat
from dataclasses import dataclass, field

from recycle.kernel import user_files as uploads


class Severity(enum.Enum):
    """How serious a diagnostic is."""

    ERROR = "error"
    """The file cannot be used."""
    WARNING = "warning"
    """The file works, but something in it is almost certainly not meant."""


@dataclass(frozen=True)
class Diagnostic:
    """One located message about a user's file."""

    filename: str
    line: int  # 1-based
    column: int  # 1-based
    message: str
    source_line: str = ""
    length: int = 1  # how many characters the caret underlines
    expected: str = ""
    hint: str = ""
    severity: Severity = Severity.ERROR

    @property
    def location(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"

    def headline(self) -> str:
        """`file:line:col: error: message`, the first line of `render()`."""
        return f"{self.location}: {self.severity.value}: {self.message}"

    def render(self) -> str:
        """The full multi-line text: headline, source line, caret, expected, hint."""
        out = [self.headline()]
        if self.source_line:
            shown = self.source_line.expandtabs(1).rstrip("\r\n")
            out.append("    " + shown)
            pad = " " * (self.column - 1)
            out.append("    " + pad + "^" + "~" * max(0, self.length - 1))
        if self.expected:
            out.append(f"  expected: {self.expected}")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def to_json(self) -> dict:
        return {
            "file": self.filename,
            "line": self.line,
            "column": self.column,
            "severity": self.severity.value,
            "message": self.message,
            "expected": self.expected,
            "hint": self.hint,
        }


def locate(text: str, offset: int) -> tuple[int, int, str]:
    """The 1-based (line, column) of a character offset, and that line's text."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    if line_end < 0:
        line_end = len(text)
    line = text.count("\n", 0, offset) + 1
    return line, offset - line_start + 1, text[line_start:line_end]


@dataclass
class DiagnosticError(Exception):
    """A file could not be used; carries every error (and warning) found in it."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.render())

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)

    def __str__(self) -> str:
        return self.render()


def not_a_regular_file(path) -> str | None:
    """Why `path` must not be opened as a user's file (a folder, a FIFO, a device), or None.

    Asked before opening: opening a FIFO blocks until someone writes to it, and
    a device such as /dev/zero never ends. A path that does not exist is None
    here (opening it then says so)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return None
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if not stat.S_ISREG(mode):
        return "not a regular file (a FIFO, device or socket is refused)"
    return None


def read_user_file(path, max_bytes: int, kind: str) -> tuple[str | None, list[Diagnostic]]:
    """A user's text file, or None and located diagnostics saying why it cannot be read.

    Bounded (at most `max_bytes` are read); a bad UTF-8 byte is reported at its
    line and column with the line shown. `kind` names the file in the hint
    ("a .rul file", "a RECYCLE game").
    """
    filename = str(path)
    files = uploads.served()
    if files is not None:  # a task on a cluster worker: the driver's copy, never this machine's disk
        text = files.text(filename)
        if text is None:
            return None, [Diagnostic(filename, 1, 1, "cannot read file: it was not sent with this task")]
        return text, []
    text, problems = _read_from_disk(path, max_bytes, kind)
    if text is not None:
        uploads.note(path, text)
    return text, problems


def _read_from_disk(path, max_bytes: int, kind: str) -> tuple[str | None, list[Diagnostic]]:
    filename = str(path)
    refused = not_a_regular_file(path)
    if refused:
        return None, [Diagnostic(filename, 1, 1, f"cannot read file: {refused}")]
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        reason = getattr(exc, "strerror", None) or str(exc)
        return None, [Diagnostic(filename, 1, 1, f"cannot read file: {reason}")]
    if len(data) > max_bytes:
        return None, [Diagnostic(filename, 1, 1, f"file too large (over {max_bytes:,} bytes)",
                                 hint=f"{kind} is a few kilobytes")]
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line_end = data.find(b"\n", exc.start)
        source = data[line_start:line_end if line_end >= 0 else len(data)].decode("utf-8", "replace")
        column = len(data[line_start:exc.start].decode("utf-8", "replace")) + 1
        return None, [Diagnostic(
            filename, data.count(b"\n", 0, exc.start) + 1, column,
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be decoded",
            source_line=source.rstrip("\r"), expected="a UTF-8 text file", hint="save the file as UTF-8")]
