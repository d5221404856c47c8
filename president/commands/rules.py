"""`president check` and `president personalities`: rule files and the shipped bots."""
from __future__ import annotations

import argparse
import json

from rich.table import Table

from personalities.catalog import YOUR_COPY, catalog
from personalities.reader import check_file
from recycle.kernel.cli_support import check_files, print_table

from .common import rules_dirs


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="report every error and warning in .rul files (exit 3 on errors)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    p.set_defaults(run=run_check)
    p = sub.add_parser("personalities", help="list the personalities (shipped, and your .rul files) with their descriptions")
    p.add_argument("--rules-dir", default=None, help="also list the .rul files of this folder (your per-user folder "
                                                     "is always listed: copies saved by the editor are marked edited)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_personalities)


def run_check(args: argparse.Namespace) -> int:
    return check_files(args.files, check_file, args.json)


def run_personalities(args: argparse.Namespace) -> int:
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
