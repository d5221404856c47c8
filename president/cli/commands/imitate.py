"""`president imitate F.jsonl... --start START --out ME.rul`: the `.rul` file that plays as the records do.

    president record Expert --rounds 300 --seed 1 --out expert.jsonl
    president imitate expert.jsonl --start Beginner --out Like-Expert.rul
    president imitate fresh.jsonl --evaluate Like-Expert.rul

Prints how often the file plays the recorded play, on the decisions it learned
from and on held-out ones, with 95% Wilson intervals, by situation.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.table import Table

from personalities.catalog import find_personality, known_names
from personalities.matching import MatchRate, Scorer
from personalities.records import Label, Situation, label_shown, load_all, load_records
from recycle.cli.arguments import SEED, FloatRange, IntRange, is_stdout, new_output_file, output_file
from recycle.kernel.errors import UsageError
from recycle.cli.output import write_json
from recycle.kernel.suggest import hint

from president.authoring.imitation import firings, imitate, imitated_text, playing, rate_text, tally_json
from president.cli.common import console, err_console, print_table, rules_dirs, seed_of

HOURS, HOLDOUT, JOBS = FloatRange(0.0, 1000.0, open_low=True), FloatRange(0.0, 0.9, open_high=False), IntRange(1, 64)
#: Default search budget: a few minutes (induction alone usually does most of the work).
DEFAULT_HOURS = 0.05


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("imitate", help="a .rul file that plays like recorded decisions, with match rates",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("records", nargs="+", metavar="F.jsonl", help="decision records (president record, or your "
                                                                  "own from the table's decisions folder)")
    p.add_argument("--start", default=None, metavar="START",
                   help="the personality the search starts from (a file or a name; default: the shipped "
                        "personality matching most training decisions)")
    p.add_argument("--out", metavar="ME.rul", type=new_output_file, help="the personality written")
    p.add_argument("--evaluate", metavar="RUL", help="only score this personality against the records")
    p.add_argument("--budget-hours", type=HOURS, default=DEFAULT_HOURS, metavar="H",
                   help=f"the search's budget (default {DEFAULT_HOURS}: three minutes), counted in decisions "
                        "replayed at a fixed pace, so the same seed gives the same file on any machine")
    p.add_argument("--seed", type=SEED, default=None, help="random seed (printed when omitted)")
    p.add_argument("--holdout", type=HOLDOUT, default=0.2, metavar="SHARE",
                   help="share of the rounds held out, to measure on decisions not trained on (default 0.2)")
    p.add_argument("-j", "--jobs", type=JOBS, default=1, metavar="J", help="processes scoring candidates (default 1)")
    p.add_argument("--label", choices=[x.value for x in Label], default=Label.PREFERRED.value,
                   help="what a match is: the play recorded (played), or a search player's preferred play, the "
                        "most visited over the searches its records keep (preferred, the default; the same as "
                        "played for records without visits)")
    p.add_argument("--json", metavar="FILE", type=output_file, help="also write the match rates as JSON")
    p.add_argument("--rules-dir", default=None, metavar="DIR", help="a folder of .rul files to find personalities in")
    p.set_defaults(run=run)


def _personality(spec: str, folders):
    found = find_personality(spec, folders)
    if found is None:
        raise UsageError(f"no personality {spec!r}{hint(spec, known_names(folders))}: name a .rul file or a "
                         "shipped personality")
    return found


def _players(paths) -> list[str]:
    return list(dict.fromkeys(load_records(p)[0]["player"] for p in paths))


def rates_table(columns: list[tuple[str, MatchRate]], label: Label = Label.PLAYED) -> Table:
    table = Table(title=f"plays {label.words} (95% interval)")
    table.add_column("situation")
    for title, _ in columns:
        table.add_column(title, justify="right")
    for s in Situation:
        cells = []
        for _, tally in columns:
            m, n = next(((m, n) for x, m, n in tally.by_situation if x is s), (0, 0))
            cells.append(f"{rate_text(m, n)} of {n}" if n else "-")
        table.add_row(s.value, *cells)
    table.add_row("playing", *[f"{rate_text(*playing(t))} of {playing(t)[1]}" for _, t in columns])
    table.add_row("all", *[f"{rate_text(t.matched, t.total)} of {t.total}" for _, t in columns])
    return table


def run(args: argparse.Namespace) -> int:
    folders = rules_dirs(args)
    paths = [str(p) for p in args.records]
    label = Label(args.label)
    if args.evaluate:
        personality = _personality(args.evaluate, folders)
        records = load_all(paths, label)
        label = label_shown(records, label)
        tally = Scorer(records, args.seed or 0).tally(personality)  # the seed only feeds Random
        if not is_stdout(args.json):
            print_table(rates_table([(personality.name, tally)], label))
        if args.json:
            write_json(args.json, {"personality": personality.name, "records": paths, "label": label.value,
                                   **tally_json(tally)})
        return 0
    if not args.out:
        raise UsageError("give --out ME.rul (the file written), or --evaluate RUL to score a file")
    start = _personality(args.start, folders) if args.start else None
    seed = seed_of(args)
    began = time.monotonic()
    got = imitate(paths, start, start.name if start else "", seed, args.holdout, args.budget_hours * 3600,
                  args.jobs, note=lambda text: err_console.print(text, highlight=False), label=label)
    records, start = got.records, got.start
    train, held = Scorer(records.train, seed), Scorer(records.held_out, seed)
    label = label_shown(records.train + records.held_out, label)
    personality = got.found.personality
    t_train, t_held = train.tally(personality), held.tally(personality)
    about = {"player": ", ".join(_players(paths)), "start": start.name, "seed": seed,
             "records": [Path(p).name for p in paths], "label": label}
    text = imitated_text(got.found, about, got.lineage, t_train, got.cross_validated, t_held,
                         firings(personality, records.train, seed))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text, encoding="utf-8")
    s_held = held.tally(start)
    if not is_stdout(args.json):
        print_table(rates_table([("training", t_train), ("cross-validated", got.cross_validated),
                                 ("held out", t_held), (f"{start.name}, held out", s_held)], label))
        console.print(f"{len(personality.rules)} rules written to {args.out} "
                      f"({time.monotonic() - began:.0f} s)", highlight=False)
    if args.json:
        write_json(args.json, {"out": str(args.out), "start": start.name, "seed": seed, "records": paths,
                               "label": label.value, "training": tally_json(t_train),
                               "cross_validated": tally_json(got.cross_validated), "held_out": tally_json(t_held),
                               "start_held_out": tally_json(s_held), "lineage": got.lineage})
    return 0
