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

from recycle.cli.options import add_compat_option, add_engine_option, add_limit_options
from recycle.games import game_path, shipped_name
from recycle.cli.arguments import (
    CHOICES,
    GAMES,
    IntRange,
    UsageError,
    check_stdout_once,
    is_stdout,
    output_file,
    output_folder,
)
from recycle.cli.console import add_seed_option, add_wide_option, console, err_console, print_table, seed_of
from recycle.cli.output import progress_bar, write_csv, write_json
from recycle.kernel.schema import Bool, Maybe, Str
from recycle.tournament.cluster import cluster_argument, refuse_jobs_with_cluster, status_line

from recycle.cli.analysis_journal import EXIT_INTERRUPTED, analyze_journaled, open_journal, resumed_journal

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


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="heuristics (fairness, drama, ...) and game metrics with 95%% intervals",
                       formatter_class=FiguresHelp, epilog=FIGURES_EPILOG,
                       description="Play CardStock's three experiment sets (all random, an estimating AI at "
                                   "seat 0, all estimating AI) and report CardStock's heuristics and TAG's "
                                   "metrics with 95% bootstrap intervals. GAME may be a folder: every game "
                                   "in it is analysed into one table (resumable through --journal).")
    p.add_argument("game", metavar="GAME", nargs="?",
                   help="a .gdl/.rcy file, a shipped game's name, or a folder of games (not with --resume)")
    add_analysis_options(p)
    add_limit_options(p)
    add_compat_option(p)
    add_engine_option(p)
    add_wide_option(p)
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
    p.add_argument("-j", "--jobs", type=JOBS, default=None, help=f"processes ({JOBS.text}, default 1); "
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


def analyze_with_progress(subject: Any, config, jobs: int, label: str, done=(), on_log=None, cluster=None):
    """One analysis with a progress bar over its 3 x games games, and an ETA from what each kind of
    game is measured to cost (`recycle.analysis.eta`)."""
    from recycle.analysis import analyze
    from recycle.analysis.eta import Eta
    from recycle.analysis.result import todo_units

    done = list(done)
    eta = Eta((u.set for u in todo_units(config, done)), cluster.workers if cluster else jobs)
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


#: The options of `recycle analyze` that decide its numbers: kept in the journal, restored by --resume.
COMMAND_SHAPE = {"game": Str(4096), "max_choices": CHOICES.shape, "strict": Bool(), "compat": Maybe(Str(50))}


def run(args: argparse.Namespace) -> int:
    from recycle.analysis import RecycleSubject
    from recycle.kernel.diagnostics import DiagnosticError
    from recycle.kernel.protocol import GameError

    refuse_jobs_with_cluster(args)
    check_stdout_once(args, "json", "csv")
    if bool(args.game) == bool(args.resume):
        raise UsageError("name the game (or folder) to analyse, or --resume a journal (not both)")
    check_replay(args, "the game")
    journal = resumed_journal(args, COMMAND_SHAPE)
    config = config_of(args)
    target = Path(args.game)
    if target.is_dir() and args.replay is not None:
        raise UsageError("--replay plays a game of one game's analysis: name the game file, not its folder")
    if target.is_dir():
        files = game_files_of(target)
        subjects = [(p.name, lambda p=p: _subject(RecycleSubject(str(p), args.max_choices, args.compat, engine=args.engine), args))
                    for p in files]
        settings = {**config.to_json(), "folder": str(target.resolve()), "max_choices": args.max_choices,
                    "compat": args.compat}
        title, name = f"{target.name}: analysis of {{}} games", target.resolve().name
        catch: tuple = (DiagnosticError, GameError)  # a game that fails is listed, not fatal
    else:
        path = game_path(args.game)
        if not Path(path).is_file():
            from recycle.games import shipped_games
            from recycle.kernel.suggest import hint

            raise UsageError(f"{args.game}{hint(args.game, [g.name for g in shipped_games()])}: no such game "
                             "file or shipped game (see recycle games)")
        subjects = [(Path(path).name, lambda: _subject(RecycleSubject(str(path), args.max_choices, args.compat,
                                                                      engine=args.engine), args))]
        # A shipped game by its name: its installed path changes with the environment (a resume from
        # a source checkout, or another virtual environment, must still match).
        game = shipped_name(path) or str(Path(path).resolve())
        settings = {**config.to_json(), "game": game, "max_choices": args.max_choices,
                    "compat": args.compat}
        title, name, catch = "{}: game analysis", Path(path).stem, ()
        if args.replay is not None:
            return replay_game(subjects[0][1](), config, args.replay)
    with open_journal(args, journal, settings, COMMAND_SHAPE, f"analysis-{name}-{config.seed}") as journal:
        done = analyze_journaled(args, journal, config, subjects, "recycle analyze", catch,
                                 _folder_table if target.is_dir() else None)
    if done is None:
        return EXIT_INTERRUPTED
    analyses, failed = done
    limits = [*(["--compat", args.compat] if args.compat else []),
              *(["--max-choices", str(args.max_choices)] if args.max_choices != 500 else [])]
    paths = {Path(key).stem: str(target / key) for key, _ in subjects} if target.is_dir() else {}
    for a in analyses:
        a.replay = replay_command(["recycle", "analyze", paths.get(a.name, args.game)], config, limits)
    if target.is_dir():
        write_outputs(args, analyses, title.format(len(analyses)), lambda: _folder_table(analyses, failed, args.wide))
    else:
        write_outputs(args, analyses, title.format(analyses[0].name))
    return 0


def _subject(subject, args: argparse.Namespace):
    """Read once, used throughout: the game's text, read now, travels with every game played (here, in
    -j workers or on a cluster), so an edit during the run changes nothing."""
    from dataclasses import replace

    from recycle.kernel.diagnostics import read_user_file
    from recycle.lang.errors import GameSyntaxError
    from recycle.lang.lexer import MAX_CHARS

    text, problems = read_user_file(subject.path, MAX_CHARS, "a RECYCLE game")
    if text is None:
        raise GameSyntaxError(problems)
    return replace(subject, text=text)


def game_files_of(folder: Path):
    from recycle.analysis.folder import game_files

    return game_files(folder)


def _folder_table(analyses: Sequence, failed: Sequence[tuple[str, str]] = (), wide: bool = False) -> None:
    """The heuristics of every game: a game a column group with `wide`; else, to fit 80 columns, a row
    per game and heuristic."""
    from rich.table import Table

    from recycle.analysis.heuristics import HEURISTICS
    from recycle.analysis.result import figure_label, interval_text, number_text

    def interval(a, h):
        return a.heuristics.interval(h) if h in a.heuristics.point else None

    table = Table(title=f"{len(analyses)} games analysed",
                  caption="value [95% interval]" + ("" if wide else "; --wide: a row per game, a column per heuristic"))
    if wide:
        table.add_column("game")
        for h in HEURISTICS:
            table.add_column(figure_label(h), justify="right")
        for a in analyses:
            ivs = [interval(a, h) for h in HEURISTICS]
            table.add_row(a.name, *(f"{number_text(iv.value)} {interval_text(iv)}" if iv else "-" for iv in ivs))
    else:
        for name, justify in (("game", "left"), ("heuristic", "left"), ("value", "right"), ("95% interval", "right")):
            table.add_column(name, justify=justify, overflow="fold")
        for a in analyses:
            for k, h in enumerate(HEURISTICS):
                iv = interval(a, h)
                table.add_row(a.name if k == 0 else "", figure_label(h), number_text(iv.value) if iv else "-",
                              interval_text(iv) if iv else "")
            table.add_section()
    print_table(table, wide)
    for name, message in failed:
        err_console.print(f"[yellow]not analysed:[/] {name}: {message}", highlight=False)
