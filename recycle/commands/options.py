"""Options shared by the `recycle` commands: the choice limit, and personalities at climbing games."""
from __future__ import annotations

import argparse
from pathlib import Path

from recycle.cli.arguments import CHOICES
from recycle.kernel.deal_file import DealSpec


def add_limit_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-choices", type=CHOICES, default=500,
                   help=f"choices after which a game is called and scored as it stands ({CHOICES.text}, "
                        "default 500)")
    p.add_argument("--strict", action="store_true", help="a game reaching --max-choices is an error instead")


def add_engine_option(p: argparse.ArgumentParser) -> None:
    """`--engine reference|fast`: which engine runs the games (they play identically)."""
    p.add_argument("--engine", choices=("fast", "reference"), default="fast",
                   help="fast (default): the interpreter with its speed layers; reference: the plain meaning of "
                        "every form, no generated code or playout shortcuts (slower; games play identically)")


def add_compat_option(p: argparse.ArgumentParser) -> None:
    """`--compat cardstock`: play as the reference engine where its quirks move statistics."""
    from recycle.interp.compat import COMPAT_MODES

    p.add_argument("--compat", choices=COMPAT_MODES, default=None,
                   help="cardstock: as the reference engine (CardStock) plays: ties of max/min walked with "
                        "coin flips, one option per physical card, games called after the 501st choice, "
                        "variables after vloc/iloc/... read as literal names (default: our reading)")


def limits_of(args: argparse.Namespace, deal: DealSpec | None = None) -> dict:
    """Keyword arguments of `recycle.interp.new_game` from the options above (and `--compat`)."""
    return {"max_choices": args.max_choices, "strict": args.strict, "deal": deal,
            "compat": getattr(args, "compat", None), "engine": getattr(args, "engine", None)}


def add_bot_options(p: argparse.ArgumentParser) -> None:
    """The options that make personalities play a climbing game."""
    p.add_argument("--fallback", default="random", metavar="SPEC",
                   help="the agent that takes a personality's decisions that are not plays or passes "
                        "(bets, discards); default random")
    p.add_argument("--climbing", default=None, metavar="META",
                   help='the climbing metadata, e.g. "hand=HAND table=SEQUENCE order=PRECEDENCE" '
                        "(default: the game's ';; climbing:' header or a STEM.climbing file beside it)")
    p.add_argument("--rules-dir", default=None, help="a folder of .rul files to find personalities in")


def bot_options(args: argparse.Namespace) -> dict:
    """Keyword arguments of `make_climbing_bots` from the options above."""
    return {"fallback": args.fallback, "meta": args.climbing,
            "rules_dirs": (Path(args.rules_dir),) if args.rules_dir else ()}
