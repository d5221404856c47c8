"""`president review`: a finished round of a match played at the table, with all hands open (the coach)."""
from __future__ import annotations

import argparse
import random

from recycle.cli.arguments import IntRange, UsageError, output_file
from recycle.cli.output import write_json

from president.match.saved import find, load, replay_all
from president.match.review import WORLDS, review_round
from president.cli.common import add_seed_option, console, err_console, seed_of

WORLDS_RANGE = IntRange(1, 1000)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("review", help="review a round of a match you played, with all hands open",
                       description="Review a finished round of a match played with president play (saved in "
                                   "your data folder unless --no-save): all hands open; each of your plays with "
                                   "a choice beside what each level would have played and the expected round "
                                   "points of every choice (by search); the bots' beliefs against the truth.")
    p.add_argument("match", nargs="?", default=None, metavar="MATCH",
                   help="a saved match: its file, or its name in the data folder (default: the latest)")
    p.add_argument("--round", type=IntRange(1, 100_000), default=None,
                   help="the round to review (default: the last finished one)")
    p.add_argument("--worlds", type=WORLDS_RANGE, default=WORLDS,
                   help=f"worlds each choice is played out in ({WORLDS_RANGE.text}, default {WORLDS})")
    p.add_argument("--no-levels", action="store_true", help="leave out what each level would have played (faster)")
    add_seed_option(p)
    p.add_argument("--json", metavar="FILE", type=output_file,
                   help="write JSON to FILE ('-': standard output) instead of the text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = find(args.match)
    record = load(path)
    finished = replay_all(record, str(path)).round_no
    if not finished:
        raise UsageError(f"{path}: no round of this match is finished yet: nothing to review")
    round_no = finished if args.round is None else args.round
    if not args.json:
        err_console.print(f"reviewing round {round_no} of {path.name} ({args.worlds} worlds per choice)…")
    review = review_round(record, round_no, random.Random(seed_of(args)), args.worlds, levels=not args.no_levels)
    if args.json:
        write_json(args.json, {"match": str(path), **review.to_json()})
    else:
        console.print(review.text(), markup=False, highlight=False, soft_wrap=True)
    return 0
