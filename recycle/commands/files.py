"""`recycle check FILE...` (located errors and warnings) and `recycle replay TRANSCRIPT...`."""
from __future__ import annotations

import argparse

from rich.markup import escape

from recycle.cli.options import add_engine_option
from recycle.cli.console import EXIT_FAILED, check_files, console, err_console


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="report every error and warning in RECYCLE files (exit 3 on errors)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    p.set_defaults(run=run_check)
    p = sub.add_parser("replay", help="re-play transcripts and check every record reproduces")
    p.add_argument("files", nargs="+", metavar="FILE")
    add_engine_option(p)
    p.set_defaults(run=run_replay)


def run_check(args: argparse.Namespace) -> int:
    from recycle.lang import check_file

    return check_files(args.files, check_file, args.json)


def run_replay(args: argparse.Namespace) -> int:
    from recycle.games import game_path
    from recycle.interp.transcript import replay

    bad = 0
    for path in args.files:
        report = replay(path, game_path, engine=args.engine)
        if report.warning:
            err_console.print(f"[yellow]warning:[/] {escape(report.warning)}")
        if report.ok:
            console.print(f"{escape(str(path))}: [green]reproduced[/] "
                          f"({report.choices} choices, {report.records} records)")
        else:
            bad += 1
            console.print(f"{escape(str(path))}: [red]differs[/] {escape(report.difference)}")
    return EXIT_FAILED if bad else 0
