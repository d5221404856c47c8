"""`president play`: play President in the terminal against bots (the Textual app in `tui/`)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from recycle.cli.arguments import FloatRange, UsageError
from recycle.kernel.specs import fill_seats, split_specs
from recycle.players import PRESIDENT, check_agents_for
from tui.president.options import DEFAULT_DELAY, DEFAULT_OPPONENTS, MatchOptions, default_rules_dir

from president.game.deals import read_deal_file
from president.agents.levels import LEVELS, level
from president.cli.common import add_seed_option, add_table_options, seed_of, table_settings

DELAY = FloatRange(0.0, 60.0)  # seconds; nan or inf would freeze the table


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play President in the terminal against bots",
                       description="Play President against bots. Keys: arrows and space or a value key "
                                   "select cards, enter plays, p passes, d AI debug, e editor, h hint, "
                                   "n new match, ctrl+q quits.")
    add_seed_option(p)
    add_table_options(p)
    p.add_argument("--opponents", default=None, metavar="A,B,C,D",
                   help="the opponents' bots, clockwise from your left, comma-separated (a comma before key= "
                        "continues a spec's parameters); fewer are repeated in rotation "
                        f"(default {','.join(DEFAULT_OPPONENTS)})")
    p.add_argument("--level", choices=list(LEVELS), default=None,
                   help="opponents by difficulty instead of --opponents: "
                        + "; ".join(f"{lv.name}: {', '.join(lv.opponents)}" for lv in LEVELS.values()))
    p.add_argument("--delay", type=DELAY, default=DEFAULT_DELAY, metavar="SECONDS",
                   help=f"how long a bot waits before playing, so you can follow ({DELAY.text}, "
                        f"default {DEFAULT_DELAY})")
    p.add_argument("--rules-dir", default=None, metavar="DIR",
                   help="your folder of .rul files (default: a per-user data folder, created if missing)")
    p.add_argument("--deal", metavar="FILE", help="the first round starts from this deal file (you are p0)")
    p.add_argument("--no-save", dest="saving", action="store_false",
                   help="save nothing (by default each match is saved in your data folder for president review, "
                        "and your decisions as records for president imitate)")
    p.set_defaults(run=run)


def has_terminal() -> bool:
    """stdin and stdout are both a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def run(args: argparse.Namespace) -> int:
    settings = table_settings(args)
    if args.level is not None:
        if args.opponents is not None:
            raise UsageError("give --level or --opponents, not both")
        opponents = level(args.level).opponents
    elif args.opponents is None:
        opponents = DEFAULT_OPPONENTS
    else:  # a user's list must fit the table (the default four are cut to a smaller one)
        opponents = tuple(split_specs(args.opponents))
        fill_seats(opponents, settings.players - 1, "opponents")
        check_agents_for(opponents, PRESIDENT)
    rules_dir = Path(args.rules_dir) if args.rules_dir else default_rules_dir()
    rules_dir.mkdir(parents=True, exist_ok=True)
    deal = read_deal_file(args.deal, settings).hands if args.deal else None
    options = MatchOptions(settings, seed_of(args), opponents, rules_dir, args.delay, deal, args.saving)
    if not has_terminal():  # Textual would draw into a pipe, or wait for keys that never come
        raise UsageError("president play needs a terminal: stdin and stdout must both be a TTY "
                         "(for games without one, use president simulate or president tournament)")
    from tui.president.app import PresidentApp  # Textual is imported only when the app is really started

    PresidentApp(options).run()
    return 0
