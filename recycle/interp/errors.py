"""Errors of a running RECYCLE game: always located at a line of the game file.

Every error of a game the interpreter raises is a `RecycleRuntimeError` (a
`recycle.kernel.protocol.GameError`), so callers catch one family, and its message
starts with `file:line:column:` like the reader's diagnostics. A failure of the
interpreter itself is an `InternalError`, which is not a `GameError`.
"""
from __future__ import annotations

from recycle.kernel.diagnostics import Diagnostic
from recycle.kernel.protocol import GameError


class RecycleRuntimeError(GameError):
    """The game itself went wrong while playing (a defect of the game, or of ours)."""

    def __init__(self, message: str, filename: str = "<game>", line: int = 0, column: int = 0,
                 hint: str = "") -> None:
        self.filename, self.line, self.column = filename, line, column
        self.reason, self.hint = message, hint
        text = f"{filename}:{line}:{column}: {message}"
        super().__init__(text + (f" (hint: {hint})" if hint else ""))

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.filename, max(1, self.line), max(1, self.column), self.reason, hint=self.hint)


class NoOptionsError(RecycleRuntimeError):
    """A choice was reached with no possible option for the player."""


class LimitError(RecycleRuntimeError):
    """A bound was hit (choices per game, steps between choices, depth, cards)."""


def located(node, filename: str, message: str, cls=RecycleRuntimeError, hint: str = "") -> RecycleRuntimeError:
    """An error of class `cls` placed at `node` (any syntax-tree node, or None)."""
    return cls(message, filename, getattr(node, "line", 0), getattr(node, "column", 0), hint)


class InternalError(RuntimeError):
    """A defect of the interpreter, not of the game file: a Python failure while running a game,
    or a broken invariant (`invariants`). Deliberately *not* a `GameError`: callers that
    report a bad game must not blame the user's file for it. The message says where in the
    game the interpreter was (to help a bug report); the original exception is `__cause__`."""

    def __init__(self, message: str, filename: str = "<game>", line: int = 0, column: int = 0) -> None:
        self.filename, self.line, self.column, self.reason = filename, line, column, message
        super().__init__(f"internal error of the RECYCLE interpreter while running {filename}:{line}:{column}: "
                         f"{message}")


class guard:
    """`with guard(executor):` keeps the interpreter's own failures apart from the game's: a
    Python exception escaping the interpreter (a bug of ours) becomes an `InternalError` placed
    at `executor.at` (the action or flow node being run), never a located error that would
    blame the game file. Deep nesting and memory exhaustion are the game's doing: they become
    located `LimitError`s. (A class, not a generator: it wraps every choice.)"""

    __slots__ = ("executor",)

    def __init__(self, executor) -> None:
        self.executor = executor

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, traceback) -> bool:
        if kind is None or issubclass(kind, (GameError, InternalError)) or not issubclass(kind, Exception):
            return False
        executor = self.executor
        if issubclass(kind, RecursionError):
            raise located(executor.at, executor.table.filename, "expressions nest too deeply to evaluate",
                          LimitError) from None
        if issubclass(kind, MemoryError):
            raise located(executor.at, executor.table.filename, "this needs more memory than there is",
                          LimitError) from None
        at = executor.at
        raise InternalError(f"{kind.__name__}: {exc}", executor.table.filename, getattr(at, "line", 0),
                            getattr(at, "column", 0)) from exc
