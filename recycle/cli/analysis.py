"""What the analyze commands of both tools share: the options, the run with its progress bar, the outputs
(console, JSON, CSV, report) and the replay of one game."""
from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from typing import Any

from recycle.cli.arguments import (GAMES, IntRange, check_stdout_once, is_stdout, output_file, output_folder)
from recycle.kernel.errors import UsageError
from recycle.cli.console import add_seed_option, console, err_console, print_table, seed_of
from recycle.cli.output import progress_bar, write_csv, write_json
from recycle.tournament.cluster import cluster_argument, status_line


ROLLOUTS = IntRange(1, 10_000)


JOBS = IntRange(1, 256)


REPLICATES = IntRange(10, 100_000)


REPLAY = IntRange(0, 3 * GAMES.high)


#: The analyze commands' epilog: replaced by every figure's definition when help is printed, and only
#: then, since importing recycle.analysis would slow every start of the command line.
FIGURES_EPILOG = "figures:"


class FiguresHelp(argparse.HelpFormatter):
    """Help whose epilog lists the definitions of every figure, imported when the help is printed."""

    def _format_text(self, text: str) -> str:
        if text != FIGURES_EPILOG:
            return super()._format_text(text)
        from recycle.analysis.definitions import listing

        return listing(max(self._width - 2, 40)) + "\n\n"


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
    p.add_argument("-j", "--jobs", type=JOBS, default=None,
                   help=f"processes ({JOBS.text}, default: one per core this process may use); "
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
    p.add_argument("--journal", metavar="FILE", type=output_file,
                   help="the journal that makes the run resumable (default: a new one in the per-user state "
                        "folder, its path printed); an existing one of the same settings is continued")
    p.add_argument("--resume", metavar="FILE", help="continue the analysis journaled in FILE (its settings are "
                                                    "taken from it; outputs and -j may be given again)")
    p.add_argument("--replay", metavar="N", type=REPLAY,
                   help="play game N of this analysis (same game, --games, --seed and estimator) again, move by "
                        "move, and stop: the report and the findings name the games that show each finding")


def config_of(args: argparse.Namespace):
    from recycle.analysis import Config
    from recycle.analysis.estimator import make_estimator

    make_estimator(args.estimator, args.rollouts)  # a bad spec fails now, not in a worker
    return Config(args.games, seed_of(args), args.estimator, args.rollouts, args.bootstrap, args.drama)


def jobs_of(args: argparse.Namespace) -> int:
    """-j, else one process per core this process may use: an analysis is hours of one core's work
    that splits by game, and the same seed gives the same numbers on any number of processes."""
    if args.jobs:
        return args.jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))  # the cores it may run on (a container, taskset)
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def analyze_with_progress(subject: Any, config, jobs: int, label: str, done=(), on_log=None, cluster=None):
    """One analysis with a progress bar over its 3 x games games, and an ETA from what each kind of
    game is measured to cost (`recycle.analysis.eta`)."""
    from recycle.analysis import analyze
    from recycle.analysis.eta import Eta
    from recycle.analysis.result import todo_units

    done = list(done)
    todo = [u.set for u in todo_units(config, done)]
    jobs = max(1, min(jobs, len(todo)))  # no process started for nothing to play
    eta = Eta(todo, cluster.workers if cluster else jobs)
    with progress_bar(console, 3 * config.games, label, status=status_line if cluster else None,
                      eta=eta.seconds_left) as advance:
        return analyze(subject, config, jobs, advance, done, on_log, cluster=cluster,
                       on_played=lambda log, seconds: eta.finished(log.set, seconds))


def write_outputs(args: argparse.Namespace, analyses: Sequence, title: str,
                  tables: Callable[[], None] | None = None, comparison=None) -> None:
    """Tables on the terminal (unless JSON/CSV go there), then the files asked for."""
    check_stdout_once(args, "json", "csv")
    if not (is_stdout(args.json) or is_stdout(args.csv)):
        if tables:
            tables()
        else:
            for a in analyses:
                print_table(a.table())
                print_findings(a)
    if args.json:
        write_json(args.json, [a.to_json() for a in analyses])
    if args.csv:
        rows = [a.csv_row() for a in analyses]
        header = list(dict.fromkeys(k for r in rows for k in r))
        write_csv(args.csv, header, [[r.get(k, "") for k in header] for r in rows])
    if args.report:
        from recycle.analysis.report import write_report

        path = write_report(args.report, analyses, title=title, comparison=comparison)
        err_console.print(f"report: {path}")


def print_findings(analysis) -> None:
    """The findings' compact table, then the command that replays a game (whole, to be copied)."""
    from recycle.analysis.designer import findings_table, replay_hint

    print_table(findings_table(analysis))
    hint = replay_hint(analysis)
    if hint:
        console.print(hint, soft_wrap=True, highlight=False)


def replay_command(program: Sequence[str], config, extra: Sequence[str] = ()) -> str:
    """The command (a template with {index}) that replays one game of an analysis with `config`."""
    import shlex

    from recycle.analysis.estimator import DEFAULT_ROLLOUTS

    parts = [*program, *extra, "--games", str(config.games), "--seed", str(config.seed)]
    if config.estimator != "cardstock":
        parts += ["--estimator", config.estimator]
    if config.rollouts != DEFAULT_ROLLOUTS:
        parts += ["--rollouts", str(config.rollouts)]
    quoted = " ".join(shlex.quote(x).replace("{", "{{").replace("}", "}}") for x in parts)
    return quoted + " --replay {index}"


def check_replay(args: argparse.Namespace, alone: str) -> None:
    """`--replay N` names a game of an analysis given by its options: its seed among them; `alone` says
    what else it excludes."""
    if args.replay is not None and (args.resume or args.seed is None):
        raise UsageError(f"--replay needs the analysis's own options ({alone}, --games, --seed and the "
                         "estimator's), not --resume")


def replay_game(subject: Any, config, index: int) -> int:
    """`--replay N`: game N of the analysis, move by move."""
    from recycle.analysis.replay import replay, replay_table

    try:
        again = replay(subject, config, index)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print_table(replay_table(again, subject.name, config.games))
    return 0
