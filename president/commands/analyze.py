"""`president analyze`: CardStock's heuristics, TAG's metrics and climbing figures for President variants.

    president analyze --preset daifugo --report out/
    president analyze --compare classic pagat daifugo      side by side, with significant differences

A game of the analysis is a match of `--rounds` rounds (default 3: two
round-to-round transitions per match for the climbing figures, at a third of
a full match's cost); the heuristics are per round.
"""
from __future__ import annotations

import argparse
from collections.abc import Sequence

from rich.table import Table

from recycle.commands.analysis_journal import EXIT_INTERRUPTED, analyze_journaled, open_journal, resumed_journal
from recycle.commands.analyze import (
    FIGURES_EPILOG,
    FiguresHelp,
    add_analysis_options,
    config_of,
    replay_command,
    replay_game,
    write_outputs,
)
from recycle.kernel.arguments import UsageError
from recycle.kernel.arguments import ROUNDS
from recycle.analysis.result import figure_label, interval_text, number_text
from recycle.kernel.schema import ListOf, Maybe, Str
from recycle.tournament.cluster import refuse_jobs_with_cluster

from ..analysis import PresidentSubject
from .common import add_table_options, print_table, table_settings


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
    if args.replay is not None and (args.resume or len(args.compare or ()) > 1):
        raise UsageError("--replay plays a game of one variant's analysis: give --preset (and its --set, "
                         "--rounds, --games, --seed), not --compare or --resume")
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
        differences = compare(analyses)
        for a, diffs in zip(analyses[1:], differences):
            a.extra_json = {"compare": {"against": analyses[0].name, **{
                d.figure: {**d.diff.to_json(), "significant": d.significant} for d in diffs}}}
        write_outputs(args, analyses, "President variants compared",
                      lambda: print_table(compare_table(analyses, differences)))
    else:
        write_outputs(args, analyses, f"President ({analyses[0].name}): game analysis")
    return 0


def compare(analyses: Sequence) -> list[list]:
    """For each analysis after the first, every shared figure's difference from the first."""
    from recycle.analysis.stats import difference

    base = analyses[0]
    out = []
    for a in analyses[1:]:
        figures = [n for n in a.figures() if n in base.figures() and not n.startswith("branching_curve_")]
        out.append([difference(base.figures()[n][1], a.figures()[n][1], n) for n in figures])
    return out


def compare_table(analyses: Sequence, differences: Sequence[Sequence]) -> Table:
    base = analyses[0]
    c = base.config
    table = Table(title=f"President variants: {c.games} matches per set, estimator {c.estimator}, seed {c.seed}",
                  caption=f"value [95% interval]; *: differs from {base.name} (the 95% interval of the "
                          "difference excludes 0; no correction for the many figures compared)")
    table.add_column("figure")
    for a in analyses:
        table.add_column(a.name, justify="right", overflow="fold")
    significant = [{d.figure: d for d in diffs} for diffs in differences]
    for name, (_, b) in base.figures().items():
        if name.startswith("branching_curve_"):
            continue
        cells = [_cell(b.interval(name))]
        for a, sig in zip(analyses[1:], significant):
            figures = a.figures()
            if name not in figures:
                cells.append("-")
                continue
            d = sig.get(name)
            cells.append(_cell(figures[name][1].interval(name), d is not None and d.significant))
        table.add_row(figure_label(name), *cells)
    return table


def _cell(iv, significant: bool = False) -> str:
    return f"{number_text(iv.value)}{' *' if significant else ''} {interval_text(iv)}"
