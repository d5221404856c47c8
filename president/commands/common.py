"""What every `president` subcommand shares: table options, bots, errors."""
from __future__ import annotations

import argparse
from pathlib import Path

from recycle.cli.arguments import RunError, UsageError
from recycle.kernel.protocol import ActionParseError
from recycle.kernel.specs import AgentSpecError
# Re-exported: what the subcommands share.
from recycle.cli.console import add_seed_option, console, err_console, print_table, seed_of, warn  # noqa: F401
from recycle.kernel.user_files import read_once  # noqa: F401
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.user_files import FileSet

from president.game.settings import Settings, SettingsError, parse_assignments, preset

#: Errors a user can cause; printed as a message, never as a traceback. A bare ValueError is
#: not one of them: it is a bug, reported as such.
USER_ERRORS = (AgentSpecError, SettingsError, DiagnosticError, UsageError, RunError, ActionParseError, OSError)


def recorded_personalities(journal: str, data) -> "FileSet":
    """The personality files a resumed journal recorded; any edited since is named (and not used)."""
    from recycle.kernel.journal_file import recorded_files

    return recorded_files(journal, data, warn)


def add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", default="classic", help="classic, pagat, daifugo or uecda (default classic)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="change one setting, e.g. --set players=6 --set revolution=on")


def table_settings(args: argparse.Namespace, **fixed) -> Settings:
    settings = preset(args.preset).with_overrides(parse_assignments(args.overrides))
    return settings.with_overrides({k: str(v) for k, v in fixed.items() if v is not None})


def rules_dirs(args: argparse.Namespace) -> tuple[Path, ...]:
    """`--rules-dir`, then the per-user folder: the one lookup rule (`personalities.catalog.search_dirs`)."""
    from personalities.catalog import search_dirs

    return search_dirs(getattr(args, "rules_dir", None))
