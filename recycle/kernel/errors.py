"""The two errors a run reports to its user without a traceback: a usage mistake, and a failure outside the program.

They live here, below every layer, because readers, tournaments and analyses raise them as well as the command lines."""
from __future__ import annotations


class UsageError(ValueError):
    """The command line asks for something impossible; the message says what to give instead (exit 2).

    A `ValueError` for callers that catch those; the commands catch this class only, so a
    bare `ValueError` (a bug) is never mistaken for a user's mistake."""


class RunError(RuntimeError):
    """The run cannot go on for a reason outside the program and its command line (a cluster that
    cannot be reached or stopped answering): one line saying what happened, exit 1."""

    exit_code = 1
