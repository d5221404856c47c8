"""The `recycle` command: check, run, test against a corpus and replay RECYCLE games.

    recycle check FILE...                     located errors and warnings (exit 3 on errors)
    recycle run GAME --games N --seed S       agents play; a table per seat (JSON/CSV too)
    recycle trace GAME BOT --seed S           a personality's decisions in one game, as traces
    recycle corpus DIR --games N              every file parsed and played; pass/fail table
    recycle replay TRANSCRIPT...              re-play transcripts, check they reproduce
"""
from __future__ import annotations

import argparse
import sys

from recycle.commands import corpus, files, run, trace
from recycle.kernel.cli_support import EXIT_FAILED, EXIT_USAGE, run_main
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.protocol import GameError
from recycle.kernel.specs import AgentSpecError

#: Errors a user can cause; printed as a message, never as a traceback.
USER_ERRORS = (AgentSpecError, DiagnosticError, GameError, OSError, ValueError)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="recycle", description="Read, play and test RECYCLE card games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    files.add_parsers(sub)
    run.add_parser(sub)
    trace.add_parser(sub)
    corpus.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_main(build_parser(), argv, USER_ERRORS,
                    lambda exc: EXIT_FAILED if isinstance(exc, GameError) else EXIT_USAGE)


if __name__ == "__main__":
    sys.exit(main())
