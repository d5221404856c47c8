"""`president play`: play President in the terminal against bots (the Textual app in `tui/`)."""
from __future__ import annotations

import argparse
from pathlib import Path

from tui.options import DEFAULT_DELAY, DEFAULT_OPPONENTS, MatchOptions, default_rules_dir

from ..deals import read_deal_file
from .common import add_seed_option, add_table_options, seed_of, table_settings


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play President in the terminal against bots",
                       description="Play President against bots. Keys: arrows and space or a value key "
                                   "select cards, enter plays, p passes, d AI debug, e editor, h hint, "
                                   "n new match, ctrl+q quits.")
    add_seed_option(p)
    add_table_options(p)
    p.add_argument("--opponents", default=",".join(DEFAULT_OPPONENTS), metavar="A,B,C,D",
                   help="the opponents' bots, clockwise from your left; fewer are repeated in rotation "
                        f"(default {','.join(DEFAULT_OPPONENTS)})")
    p.add_argument("--delay", type=float, default=DEFAULT_DELAY, metavar="SECONDS",
                   help=f"how long a bot waits before playing, so you can follow (default {DEFAULT_DELAY})")
    p.add_argument("--rules-dir", default=None, metavar="DIR",
                   help="your folder of .rul files (default: a per-user data folder, created if missing)")
    p.add_argument("--deal", metavar="FILE", help="the first round starts from this deal file (you are p0)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.delay < 0:
        raise ValueError("--delay cannot be negative")
    settings = table_settings(args)
    rules_dir = Path(args.rules_dir) if args.rules_dir else default_rules_dir()
    rules_dir.mkdir(parents=True, exist_ok=True)
    opponents = tuple(s.strip() for s in args.opponents.split(",") if s.strip())
    deal = read_deal_file(args.deal, settings).hands if args.deal else None
    options = MatchOptions(settings, seed_of(args), opponents, rules_dir, args.delay, deal)
    from tui.app import PresidentApp  # Textual is imported only when the app is really started

    PresidentApp(options).run()
    return 0
