"""`president analyze`: CardStock's heuristics, TAG's metrics and climbing figures for President variants.

    president analyze --preset daifugo --report out/
    president analyze --compare classic pagat daifugo      side by side, with significant differences

A game of the analysis is a match of `--rounds` rounds (default 3: two
round-to-round transitions per match for the climbing figures, at a third of
a full match's cost); the heuristics are per round.
"""
from __future__ import annotations

import argparse

from recycle.cli.analysis_journal import EXIT_INTERRUPTED, analyze_journaled, open_journal, resumed_journal
from recycle.cli.commands.analyze import (
    FIGURES_EPILOG,
    FiguresHelp,
    add_analysis_options,
    check_replay,
    config_of,
    replay_command,
    replay_game,
    write_outputs,
)
from recycle.cli.arguments import UsageError
from recycle.cli.arguments import ROUNDS
from recycle.analysis.compare import compare, compare_table
from recycle.kernel.schema import ListOf, Maybe, Str
from recycle.tournament.cluster import refuse_jobs_with_cluster

from president.match.analysis import PresidentSubject
from president.cli.common import add_table_options, print_table, table_settings


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="heuristics, game metrics and climbing figures with 95%% intervals",
                       formatter_class=FiguresHelp, epilog=FIGURES_EPILOG,
                       description="Play CardStock's three experiment sets on President matches and report "
                                   "CardStock's heuristics, TAG's metrics and how titles move between rounds, "
                                   "with 95% bootstrap intervals; --compare puts variants side by side.")
    add_table_options(p)
    p.add_argument("--rounds", type=ROUNDS, default=3,
                   help=f"rounds per analysed match ({ROUNDS.text}, default 3)")
    p.add_argument("--compare", nargs="+", metavar="PRESET", default=None,
                   help="analyse these presets (with the --set changes) side by side, e.g. classic pagat daifugo")
    add_analysis_options(p)
    p.set_defaults(run=run)


#: The options of `president analyze` that decide its numbers: kept in the journal, restored by --resume.
COMMAND_SHAPE = {"preset": Str(100), "overrides": ListOf(Str(1000), 0, 100), "rounds": ROUNDS.shape,
                 "compare": Maybe(ListOf(Str(100), 1, 100))}


def run(args: argparse.Namespace) -> int:
    refuse_jobs_with_cluster(args)
    check_replay(args, "--preset, --set and --rounds")
    if args.replay is not None and len(args.compare or ()) > 1:
        raise UsageError("--replay plays a game of one variant's analysis: give its --preset, not --compare")
    resumed = resumed_journal(args, COMMAND_SHAPE)
    config = config_of(args)
    chosen = args.preset
    subjects, described = [], []
    for name in args.compare or [args.preset]:
        args.preset = name
        settings = table_settings(args, rounds=args.rounds)
        subject = PresidentSubject(settings, name + "".join(f" {o}" for o in args.overrides))
        subjects.append((subject.name, lambda subject=subject: subject))
        described.append(settings.describe())
    args.preset = chosen
    if args.replay is not None:
        return replay_game(subjects[0][1](), config, args.replay)
    with open_journal(args, resumed, {**config.to_json(), "variants": described}, COMMAND_SHAPE,
                      f"president-analysis-{config.seed}") as journal:
        done = analyze_journaled(args, journal, config, subjects, "president analyze")
    if done is None:
        return EXIT_INTERRUPTED
    analyses, _ = done
    for a, name in zip(analyses, args.compare or [args.preset]):  # every variant analysed (none is skipped)
        a.replay = replay_command(["president", "analyze", "--preset", name,
                                   *(x for o in args.overrides for x in ("--set", o)), "--rounds", str(args.rounds)],
                                  config)
    if len(analyses) > 1:
        comparison = compare(analyses)
        for k, a in enumerate(analyses[1:], 1):
            a.extra_json = {"compare": comparison.to_json(k)}
        write_outputs(args, analyses, "President variants compared",
                      lambda: print_table(compare_table(comparison)), comparison)
    else:
        write_outputs(args, analyses, f"President ({analyses[0].name}): game analysis")
    return 0
