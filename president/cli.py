"""The `president` command: play, simulate, check and explain bots."""
from __future__ import annotations

import argparse
import sys

from .commands import explain, play, rules, simulate, tournament
from .commands.common import USER_ERRORS, report_user_error

COMMANDS = [play, simulate, rules, explain, tournament]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="president", description="President against rule-file personalities.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except USER_ERRORS as exc:
        return report_user_error(exc)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
