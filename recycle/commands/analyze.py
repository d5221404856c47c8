"""`recycle analyze GAME|DIR`: CardStock's heuristics and TAG's metrics, with intervals, tables and a report.

    recycle analyze Agram4.gdl --games 100 --report out/      one game: a table, JSON/CSV, an HTML page
    recycle analyze corpus/gdl/ --json all.json               every game of a folder: one table, resumable

The options shared with `president analyze` (games, estimator, rollouts, seed,
-j, outputs) and the output writing live here too.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from recycle.commands.options import add_compat_option, add_limit_options
from recycle.games import game_path
from recycle.kernel.arguments import (
    GAMES,
    IntRange,
    UsageError,
    check_stdout_once,
    is_stdout,
    output_file,
    output_folder,
)
from recycle.kernel.cli_support import add_seed_option, console, err_console, seed_of
from recycle.kernel.output import progress_bar, write_csv, write_json
from recycle.tournament.cluster import cluster_argument, status_line

ROLLOUTS = IntRange(1, 10_000)
JOBS = IntRange(1, 256)
REPLICATES = IntRange(10, 100_000)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="heuristics (fairness, drama, ...) and game metrics with 95%% intervals",
                       description="Play CardStock's three experiment sets (all random, an estimating AI at "
                                   "seat 0, all estimating AI) and report CardStock's heuristics and TAG's "
                                   "metrics with 95% bootstrap intervals. GAME may be a folder: every game "
                                   "in it is analysed into one table (resumable through --journal).")
    p.add_argument("game", metavar="GAME", help="a .gdl/.rcy file, a shipped game's name, or a folder of games")
    add_analysis_options(p)
    p.add_argument("--journal", metavar="FILE", type=output_file,
                   help="folder runs: the journal that makes the run resumable (default: "
                        "analysis-FOLDER.jsonl here); running again continues it")
    add_limit_options(p)
    add_compat_option(p)
    p.set_defaults(run=run)


def add_analysis_options(p: argparse.ArgumentParser) -> None:
    """The options of every analyze command."""
    p.add_argument("--games", type=GAMES, default=100,
                   help=f"games in each of the three sets ({GAMES.text}, default 100 as CardStock)")
    p.add_argument("--estimator", default="cardstock", metavar="SPEC",
                   help="the estimating AI: cardstock (K random rollouts per option, CardStock's) or any agent "
                        "that reports option values, e.g. ismcts:iterations=200 (default cardstock)")
    p.add_argument("--rollouts", type=ROLLOUTS, default=10,
                   help=f"cardstock estimator: rollouts per option ({ROLLOUTS.text}, default 10)")
    add_seed_option(p)
    p.add_argument("-j", "--jobs", type=JOBS, default=1, help=f"processes ({JOBS.text}, default 1); "
                                                              "the numbers do not depend on it")
    p.add_argument("--cluster", metavar="ADDRESS", type=cluster_argument,
                   help="play on a Dask cluster instead: tcp://HOST:8786, or local[:N] for N worker processes "
                        "here (pip install 'president-rul[cluster]'); the numbers do not depend on it")
    p.add_argument("--drama", choices=("cardstock", "blog"), default="cardstock",
                   help="drama threshold: cardstock (0.5) or blog ((1 + (np-2)/(np-1)) / 2)")
    p.add_argument("--bootstrap", type=REPLICATES, default=1000, metavar="B",
                   help=f"bootstrap resamples per interval ({REPLICATES.text}, default 1000)")
    p.add_argument("--json", metavar="FILE", type=output_file, help="write the figures as JSON ('-': standard output)")
    p.add_argument("--csv", metavar="FILE", type=output_file, help="write one CSV row per game ('-': standard output)")
    p.add_argument("--report", metavar="DIR", type=output_folder,
                   help="write a self-contained HTML report (index.html with plots) into DIR")


def config_of(args: argparse.Namespace):
    from recycle.analysis import Config
    from recycle.analysis.estimator import make_estimator

    make_estimator(args.estimator, args.rollouts)  # a bad spec fails now, not in a worker
    return Config(args.games, seed_of(args), args.estimator, args.rollouts, args.bootstrap, args.drama)


def analyze_with_progress(subject: Any, config, jobs: int, label: str, done=(), on_log=None, cluster=None):
    """One analysis with a progress bar over its 3 x games games."""
    from recycle.analysis import analyze

    with progress_bar(console, 3 * config.games, label, status=status_line if cluster else None) as advance:
        return analyze(subject, config, jobs, advance, done, on_log, cluster=cluster)


def write_outputs(args: argparse.Namespace, analyses: Sequence, title: str,
                  tables: Callable[[], None] | None = None) -> None:
    """Tables on the terminal (unless JSON/CSV go there), then the files asked for."""
    check_stdout_once(args, "json", "csv")
    if not (is_stdout(args.json) or is_stdout(args.csv)):
        if tables:
            tables()
        else:
            for a in analyses:
                console.print(a.table())
    if args.json:
        write_json(args.json, [a.to_json() for a in analyses])
    if args.csv:
        rows = [a.csv_row() for a in analyses]
        header = list(dict.fromkeys(k for r in rows for k in r))
        write_csv(args.csv, header, [[r.get(k, "") for k in header] for r in rows])
    if args.report:
        from recycle.analysis.report import write_report

        path = write_report(args.report, analyses, title=title)
        err_console.print(f"report: {path}")


def run(args: argparse.Namespace) -> int:
    from recycle.analysis import RecycleSubject

    check_stdout_once(args, "json", "csv")
    config = config_of(args)
    target = Path(args.game)
    if target.is_dir():
        return _run_folder(args, target, config)
    path = game_path(args.game)
    if not Path(path).is_file():
        raise UsageError(f"{args.game}: no such game file or shipped game (see recycle games)")
    subject = RecycleSubject(str(path), args.max_choices, args.compat)
    if args.cluster:  # workers get the game's text, not a path that exists only here
        subject = subject.with_text()
    analysis = analyze_with_progress(subject, config, args.jobs, f"analysing {subject.name}", cluster=args.cluster)
    write_outputs(args, [analysis], f"{subject.name}: game analysis")
    return 0


def _run_folder(args: argparse.Namespace, folder: Path, config) -> int:
    """Every game of a folder, journaled game by game; files that fail are listed, not fatal."""
    from recycle.analysis import RecycleSubject
    from recycle.analysis.folder import AnalysisJournal, game_files
    from recycle.kernel.diagnostics import DiagnosticError
    from recycle.kernel.protocol import GameError

    files = game_files(folder)
    journal_path = Path(args.journal or f"analysis-{folder.resolve().name}.jsonl")
    settings = {**config.to_json(), "folder": str(folder.resolve()), "max_choices": args.max_choices,
                "compat": args.compat}
    analyses, failed = [], []
    with AnalysisJournal(journal_path, settings) as journal:
        if journal.played:
            err_console.print(f"resuming {journal_path}: {journal.played} games already played")
        for path in files:
            key = path.name
            if key in journal.errors:
                failed.append((key, journal.errors[key]))
                continue
            subject = RecycleSubject(str(path), args.max_choices, args.compat)
            try:
                if args.cluster:
                    subject = subject.with_text()
                analyses.append(analyze_with_progress(subject, config, args.jobs, f"analysing {path.stem}",
                                                      journal.logs.get(key, ()),
                                                      lambda log, k=key: journal.append(k, log), args.cluster))
            except (DiagnosticError, GameError) as exc:
                message = exc.render().splitlines()[0] if isinstance(exc, DiagnosticError) else str(exc)
                journal.fail(key, message)
                failed.append((key, message))
    write_outputs(args, analyses, f"{folder.name}: analysis of {len(analyses)} games",
                  lambda: _folder_table(analyses, failed))
    return 0


def _folder_table(analyses: Sequence, failed: Sequence[tuple[str, str]]) -> None:
    from rich.table import Table

    from recycle.analysis.heuristics import HEURISTICS

    table = Table(title=f"{len(analyses)} games analysed", caption="value [95% interval]")
    table.add_column("game")
    for h in HEURISTICS:
        table.add_column(h, justify="right")
    for a in analyses:
        cells = []
        for h in HEURISTICS:
            iv = a.heuristics.interval(h) if h in a.heuristics.point else None
            cells.append(f"{iv.value:.2f} {iv.bounds(2)}" if iv else "-")
        table.add_row(a.name, *cells)
    console.print(table)
    for name, message in failed:
        err_console.print(f"[yellow]not analysed:[/] {name}: {message}", highlight=False)
