"""Errors of the RECYCLE reader: `GameSyntaxError` and the collector behind it.

Every problem becomes a `recycle.kernel.diagnostics.Diagnostic` (file:line:col, the
line, a caret, what was expected, a hint), so RECYCLE files fail exactly like
the project's other user files. The reader keeps going after an error where
it can and raises one `GameSyntaxError` carrying all of them.
"""
from __future__ import annotations

import bisect

from recycle.kernel.diagnostics import Diagnostic, DiagnosticError, Severity, locate
from recycle.kernel.suggest import did_you_mean  # noqa: F401  (re-exported for the builders)

#: Diagnostics kept per file; past this the reader stops (one more says so).
MAX_ERRORS = 50


class GameSyntaxError(DiagnosticError, ValueError):
    """A RECYCLE file could not be read; `.diagnostics` lists every error found."""


class TooManyErrors(Exception):
    """Internal: the collector is full, stop reading."""


class Reject(Exception):
    """Internal: the current form is wrong and has been reported; skip it."""


class SourceFile:
    """One file's text and the diagnostics found in it so far."""

    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.filename = filename
        self.diagnostics: list[Diagnostic] = []
        self.lexical: list[int] = []  # offsets of character-level errors, ascending

    def covers_lexical(self, start: int, end: int) -> bool:
        """Is a character-level error inside [start, end]? (Its effects are not re-reported.)"""
        i = bisect.bisect_left(self.lexical, start)
        return i < len(self.lexical) and self.lexical[i] <= end

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)

    def report(self, offset: int, message: str, *, length: int = 1, expected: str = "",
               hint: str = "", severity: Severity = Severity.ERROR) -> None:
        """Record a diagnostic at a character offset of the text."""
        line, column, source_line = locate(self.text, offset)
        if len(self.diagnostics) >= MAX_ERRORS:
            self.diagnostics.append(Diagnostic(
                self.filename, line, column, f"too many errors (over {MAX_ERRORS}); stopped reading",
                source_line, hint="fix the errors above first"))
            raise TooManyErrors
        length = max(1, min(length, len(source_line) - column + 1))
        self.diagnostics.append(Diagnostic(
            self.filename, line, column, message, source_line, length,
            expected, hint, severity))

    def warn(self, offset: int, message: str, **kw) -> None:
        self.report(offset, message, severity=Severity.WARNING, **kw)
