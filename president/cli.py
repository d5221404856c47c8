"""The `president` command: play, simulate, check and explain bots."""
from __future__ import annotations

import argparse
import sys

from recycle.kernel.cli_support import run_main

from .commands import crosscheck, explain, play, rules, simulate, tournament
from .commands.common import USER_ERRORS

COMMANDS = [play, simulate, rules, explain, tournament, crosscheck]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="president", description="President against rule-file personalities.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_main(build_parser(), argv, USER_ERRORS)


if __name__ == "__main__":
    sys.exit(main())
