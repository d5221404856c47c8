"""The `recycle` command: check, run, test against a corpus and replay RECYCLE games.

    recycle check FILE...                     located errors and warnings (exit 3 on errors)
    recycle run GAME --games N --seed S       agents play; a table per seat (JSON/CSV too)
    recycle trace GAME BOT --seed S           a personality's decisions in one game, as traces
    recycle corpus DIR --games N              every file parsed and played; pass/fail table
    recycle games                             the shipped games, one line each
    recycle analyze GAME|DIR --report OUT     heuristics and metrics with intervals; HTML report
    recycle replay TRANSCRIPT...              re-play transcripts, check they reproduce
    recycle play GAME --players you,random    play a game yourself against bots (terminal)
    recycle crosscheck-tides --deals N         native Tides of Time against RECYCLE TidesOfTime2
    recycle audit GAME --agents A,B           agents alike in states a seat cannot tell apart (leak audit)
    recycle tides-solve --exploitability       Tides of Time's first pick: its mix and exact guarantee
"""
from __future__ import annotations

import argparse
import sys

from recycle.cli.arguments import ArgumentParser, add_version

from recycle.kernel.errors import UsageError
from recycle.cli.subcommands import (
    Subcommand,
    add_subcommands,
    answer_without_subcommand,
    chosen,
)

_C = "recycle.cli.commands."
#: Every subcommand, in the order `recycle --help` lists them, with the module that builds its
#: parser: only the module of the subcommand being run is imported (see recycle.cli.subcommands).
#: A new subcommand gets a row here (tests/test_cli_help.py fails otherwise).
COMMANDS = [
    Subcommand("check", _C + "files", "report every error and warning in RECYCLE files (exit 3 on errors)"),
    Subcommand("replay", _C + "files", "re-play transcripts and check every record reproduces"),
    Subcommand("run", _C + "run", "agents play a game; a table of each seat's scores and ranks"),
    Subcommand("trace", _C + "trace", "play one seeded game and print every decision of one bot as a trace"),
    Subcommand("corpus", _C + "corpus", "parse and play every game of a folder; a pass/fail table"),
    Subcommand("games", _C + "games", "list the shipped games (play one with recycle play NAME)"),
    Subcommand("analyze", _C + "analyze", "heuristics (fairness, drama, ...) and game metrics with 95%% intervals"),
    Subcommand("play", _C + "play", "play a game yourself against bots, in the terminal"),
    Subcommand("audit", _C + "audit", "check that agents decide and explain alike in states a seat cannot tell apart"),
    Subcommand("crosscheck-tides", _C + "tides", "native Tides of Time and RECYCLE TidesOfTime2 on the same "
                                                 "deals with the same agents: the same picks and scores?"),
    Subcommand("tides-solve", _C + "tides", "Tides of Time's first pick, the round's equilibrium, on sampled "
                                            "deals: each hand's mix, value and exact best-response gain"),
]


def user_errors() -> tuple[type[Exception], ...]:
    """Errors a user can cause; printed as a message, never as a traceback. A bare ValueError is
    not one of them: it is a bug, reported as such. (A function: imported only when a command runs.)"""
    from recycle.kernel.diagnostics import DiagnosticError
    from recycle.kernel.protocol import GameError
    from recycle.kernel.errors import RunError
    from recycle.kernel.specs import AgentSpecError

    return (AgentSpecError, DiagnosticError, GameError, UsageError, RunError, OSError)


def _engine() -> str:
    """Which collection work climbing games' options use: compiled, or pure Python."""
    from recycle.interp.cardsets import engine

    return f"collections: {engine()}"


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser: every subcommand's when `argv` is None, else only the one `argv` runs."""
    parser = ArgumentParser(prog="recycle", description="Read, play and test RECYCLE card games.")
    add_version(parser, _engine)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_subcommands(sub, COMMANDS, argv)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    if chosen(argv, COMMANDS) is None:  # --help, --version: answered without importing any command
        return answer_without_subcommand(parser, argv)
    from recycle.cli.console import EXIT_FAILED, EXIT_USAGE, run_main
    from recycle.kernel.protocol import GameError

    return run_main(parser, argv, user_errors(),
                    lambda exc: EXIT_FAILED if isinstance(exc, GameError) else EXIT_USAGE)


if __name__ == "__main__":
    sys.exit(main())
