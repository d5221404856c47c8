"""What the `president` and `recycle` commands share: consoles, seeds, errors, `check`, `main`.

One piece of code per idea: both commands print user errors the same way
(one line, never a traceback), print a fresh seed when none is given, and
check user files with the same report.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import traceback
from typing import Callable, Iterable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from recycle.cli.arguments import SEED, close_pipes
from recycle.kernel.diagnostics import Diagnostic, DiagnosticError, Severity
from recycle.kernel.tables import fitted, natural_width

console = Console(width=None if sys.stdout.isatty() else 120)
err_console = Console(stderr=True)

EXIT_FAILED, EXIT_USAGE, EXIT_BAD_FILE = 1, 2, 3
#: A bug of ours (an exception no user input should cause).
EXIT_INTERNAL = 70


def fail(message: str, code: int = EXIT_USAGE) -> int:
    """Print a one-line error and return the exit code."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return code


#: The width every table fits by default: a terminal's classic width.
TABLE_WIDTH = 80


def add_wide_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wide", action="store_true",
                        help=f"show every column, however wide (default: the columns that fit {TABLE_WIDTH})")


def print_table(table: Table, wide: bool = False) -> None:
    """A table at the console's width; with `wide`, at its own width (no column squeezed, even past the
    terminal's edge)."""
    if wide:
        console.print(table, width=max(natural_width(table), console.width))
    else:
        console.print(fitted(table, console.width))


def warn(message: str) -> None:
    """Print a one-line warning (the run goes on)."""
    err_console.print(f"[yellow]warning:[/] {escape(message)}", highlight=False, soft_wrap=True)


def add_seed_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=SEED, default=None, help="random seed (printed when omitted)")


def seed_of(args: argparse.Namespace) -> int:
    """The given seed, or a fresh one that is printed so the run can be repeated."""
    if args.seed is not None:
        return args.seed
    seed = random.SystemRandom().randrange(2**31)
    err_console.print(f"seed: {seed}")
    return seed


def check_files(paths: Iterable[str], check: Callable[[str], list[Diagnostic]], as_json: bool) -> int:
    """Print every diagnostic of every file (or JSON); exit 3 if any error, else 0."""
    paths = list(paths)
    found, errors = [], 0
    for path in paths:
        diagnostics = check(path)
        found += diagnostics
        errors += sum(d.severity is Severity.ERROR for d in diagnostics)
        if not as_json:
            for d in diagnostics:
                print(d.render())
            if not any(d.severity is Severity.ERROR for d in diagnostics):
                print(f"{path}: ok")
    if as_json:
        print(json.dumps([d.to_json() for d in found], indent=2))
    else:
        print(f"{len(paths)} file(s): {errors} error(s), {len(found) - errors} warning(s)")
    return EXIT_BAD_FILE if errors else 0


def run_main(parser: argparse.ArgumentParser, argv: list[str] | None, user_errors: tuple[type, ...],
             code_of: Callable[[Exception], int] = lambda exc: EXIT_USAGE) -> int:
    """Parse, run the chosen subcommand, and turn a user's mistake into a message and exit code."""
    try:
        args = parser.parse_args(argv)
    except SystemExit:  # argparse's own error, perhaps after an output pipe was opened
        close_pipes()
        raise
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.run(args)
    except DiagnosticError as exc:
        print(exc.render(), file=sys.stderr)
        return EXIT_BAD_FILE
    except user_errors as exc:  # an error may carry its own code (a journal write failing: 1)
        return fail(str(exc), getattr(exc, "exit_code", None) or code_of(exc))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours, not the user's: one line, the traceback in a file
        return internal_error(parser.prog, exc)
    finally:
        close_pipes()


def internal_error(prog: str, exc: BaseException) -> int:
    """Report a bug of ours: one line naming a file that holds the traceback to send us."""
    text = "".join(traceback.format_exception(exc))
    try:
        with tempfile.NamedTemporaryFile("w", prefix=f"{prog}-internal-error-", suffix=".txt",
                                         delete=False, encoding="utf-8") as out:
            out.write(f"{prog} {' '.join(sys.argv[1:])}\n\n{text}")
        where = f"the traceback is in {out.name}"
    except OSError:
        where = f"{type(exc).__name__}: {exc}"
    err_console.print(f"[bold red]internal error[/] (a bug in {prog}, please report it): {escape(where)}",
                      highlight=False, soft_wrap=True)
    return EXIT_INTERNAL
