"""What every `president` subcommand shares: table options, bots, errors."""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from recycle.agents import AgentSpecError
from recycle.diagnostics import DiagnosticError

from ..settings import Settings, SettingsError, parse_assignments, preset

console = Console(width=None if sys.stdout.isatty() else 120)
err_console = Console(stderr=True)

#: Errors a user can cause; printed as a message, never as a traceback.
USER_ERRORS = (AgentSpecError, SettingsError, DiagnosticError, OSError, ValueError)

EXIT_USAGE = 2
EXIT_BAD_FILE = 3


def add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", default="classic", help="classic, pagat or daifugo (default classic)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="change one setting, e.g. --set players=6 --set revolution=on")


def table_settings(args: argparse.Namespace, **fixed) -> Settings:
    settings = preset(args.preset).with_overrides(parse_assignments(args.overrides))
    return settings.with_overrides({k: str(v) for k, v in fixed.items() if v is not None})


def add_seed_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=None, help="random seed (printed when omitted)")


def seed_of(args: argparse.Namespace) -> int:
    """The given seed, or a fresh one that is printed so the run can be repeated."""
    if args.seed is not None:
        return args.seed
    seed = random.SystemRandom().randrange(2**31)
    err_console.print(f"seed: {seed}")
    return seed


def rules_dirs(args: argparse.Namespace) -> tuple[Path, ...]:
    folder = getattr(args, "rules_dir", None)
    return (Path(folder),) if folder else ()


def fail(message: str, code: int = EXIT_USAGE) -> int:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return code


def report_user_error(exc: Exception) -> int:
    if isinstance(exc, DiagnosticError):
        print(exc.render(), file=sys.stderr)
        return EXIT_BAD_FILE
    return fail(str(exc))
