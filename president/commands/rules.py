"""`president check` and `president personalities`: rule files and the shipped bots."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.table import Table

from personalities.catalog import YOUR_COPY, catalog
from personalities.reader import check_file
from recycle.cli.arguments import UsageError
from recycle.cli.console import check_files, print_table

from president.cli.common import console, rules_dirs


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="report every error and warning in .rul files (exit 3 on errors)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    p.set_defaults(run=run_check)
    p = sub.add_parser("personalities", help="list the personalities (shipped, and your .rul files) with their descriptions")
    p.add_argument("--rules-dir", default=None, help="also list the .rul files of this folder (your per-user folder "
                                                     "is always listed: copies saved by the editor are marked edited)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--revert", metavar="NAME", help="delete your edited copy of the shipped personality NAME, "
                                                    "so that NAME is the shipped one again")
    p.set_defaults(run=run_personalities)


def run_check(args: argparse.Namespace) -> int:
    return check_files(args.files, check_file, args.json)


def run_revert(args: argparse.Namespace) -> int:
    """`--revert NAME`: your copy deleted (it must exist), and what NAME means now."""
    from personalities.catalog import NothingToRevert, locate, revert_copy

    folders = rules_dirs(args)
    try:
        path = revert_copy(args.revert, folders)
    except NothingToRevert as exc:
        raise UsageError(str(exc)) from None
    now = locate(path.stem, folders)
    still = f"another copy is played now: {now}" if isinstance(now, Path) else "the shipped one is played again"
    console.print(f"deleted your copy {path}: {still}", highlight=False, soft_wrap=True)
    return 0


def run_personalities(args: argparse.Namespace) -> int:
    if args.revert:
        return run_revert(args)
    entries = catalog(rules_dirs(args))
    if args.json:
        print(json.dumps([{"name": e.name, "description": e.description, "source": e.source,
                           "path": str(e.path) if e.path else None, "edited": e.edited, "replaced": e.replaced}
                          for e in entries], indent=2))
        return 0
    table = Table(title="personalities")
    table.add_column("name", style="bold", overflow="fold")
    table.add_column("description")
    table.add_column("from", style="dim", overflow="fold")
    for e in entries:
        if e.replaced:
            where = "shipped (replaced by your edited copy)"
        else:
            where = str(e.path or e.source)
        table.add_row(f"{e.name} {YOUR_COPY}" if e.edited else e.name, e.description, where)
    print_table(table)
    return 0
