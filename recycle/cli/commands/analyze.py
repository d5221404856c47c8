"""`recycle analyze GAME|DIR`: CardStock's heuristics and TAG's metrics, with intervals, tables and a report.

    recycle analyze Agram4.gdl --games 100 --report out/      one game: a table, JSON/CSV, an HTML page
    recycle analyze corpus/gdl/ --json all.json               every game of a folder: one table, resumable

The options shared with `president analyze` (games, estimator, rollouts, seed,
-j, outputs) and the output writing live here too.
"""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from recycle.cli.options import add_compat_option, add_engine_option, add_limit_options
from recycle.games import game_path, shipped_name
from recycle.cli.arguments import (CHOICES, check_stdout_once)
from recycle.kernel.errors import UsageError
from recycle.cli.console import add_wide_option, err_console, print_table
from recycle.kernel.schema import Bool, Maybe, Str
from recycle.tournament.cluster import refuse_jobs_with_cluster

from recycle.cli.analysis_journal import EXIT_INTERRUPTED, analyze_journaled, open_journal, resumed_journal
from recycle.cli.analysis import (FIGURES_EPILOG, FiguresHelp, add_analysis_options, check_replay, config_of, replay_command, replay_game, write_outputs)


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


#: The options of `recycle analyze` that decide its numbers: kept in the journal, restored by --resume.
COMMAND_SHAPE = {"game": Str(4096), "max_choices": CHOICES.shape, "strict": Bool(), "compat": Maybe(Str(50))}


def run(args: argparse.Namespace) -> int:
    from recycle.interp.analysis_subject import RecycleSubject
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
    made = replace(subject, text=text)
    made.players  # read and set up here: a game that cannot be read fails now, not in a -j worker
    return made


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
