"""The `president` command: play, simulate, check and explain bots."""
from __future__ import annotations

import argparse
import sys

from recycle.cli.arguments import ArgumentParser, add_version
from recycle.cli.subcommands import (
    Subcommand,
    add_subcommands,
    answer_without_subcommand,
    chosen,
)

_C = "president.cli.commands."
#: Every subcommand, in the order `president --help` lists them, with the module that builds its
#: parser: only the module of the subcommand being run is imported (see recycle.cli.subcommands).
#: A new subcommand gets a row here (tests/test_cli_help.py fails otherwise).
COMMANDS = [
    Subcommand("play", _C + "play", "play President in the terminal against bots"),
    Subcommand("simulate", _C + "simulate", "bots play matches; print finishing positions and points"),
    Subcommand("check", _C + "rules", "report every error and warning in .rul files (exit 3 on errors)"),
    Subcommand("personalities", _C + "rules",
               "list the personalities (shipped, and your .rul files) with their descriptions"),
    Subcommand("review", _C + "review", "review a round of a match you played, with all hands open"),
    Subcommand("trace", _C + "explain", "play a seeded match and print every decision of one bot as a trace"),
    Subcommand("decide", _C + "explain", "what would this bot play in a given position, with the trace"),
    Subcommand("stats", _C + "explain", "how often each rule of a bot fired, and which never did"),
    Subcommand("tournament", _C + "tournament", "duplicate-deal tournament: strength with confidence intervals"),
    Subcommand("crosscheck", _C + "crosscheck",
               "native President and RECYCLE President5 on the same deals: same plays?"),
    Subcommand("analyze", _C + "analyze", "heuristics, game metrics and climbing figures with 95%% intervals"),
    Subcommand("uecda-server", _C + "uecda", "host a UECda match: remote clients and our bots at one table"),
    Subcommand("uecda-client", _C + "uecda", "one of our bots plays on a UECda server"),
    Subcommand("evolve", _C + "evolve",
               "evolve a personality: mutations kept only when a paired test proves them better"),
    Subcommand("record", _C + "record", "record a bot's decisions: the position its seat saw, and its play"),
    Subcommand("imitate", _C + "imitate", "a .rul file that plays like recorded decisions, with match rates"),
]


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser: every subcommand's when `argv` is None, else only the one `argv` runs."""
    parser = ArgumentParser(prog="president", description="President against rule-file personalities.")
    add_version(parser, _engine)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_subcommands(sub, COMMANDS, argv)
    return parser


def _engine() -> str:
    """Which President engine and FollowOdds counting run: compiled, or pure Python."""
    from personalities.odds import odds_engine
    from president.game.fastplay import engine

    return f"engine: {engine()}; rule odds: {odds_engine()}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    if chosen(argv, COMMANDS) is None:  # --help, --version: answered without importing any command
        return answer_without_subcommand(parser, argv)
    from recycle.cli.console import run_main

    from president.cli.common import USER_ERRORS

    return run_main(parser, argv, USER_ERRORS)


if __name__ == "__main__":
    sys.exit(main())
