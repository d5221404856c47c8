"""Subcommands imported only when they run: a static table of name -> (module, one-line help).

`president --help` and `recycle --help` list every subcommand from the table
without importing any command module (their imports, rich tables, pyparsing,
Textual, matplotlib, Dask, cost most of a second); `president simulate ...`
imports `president.cli.commands.simulate` alone. A first pass over the command
line finds the subcommand: the first word that does not start with `-` (the
top-level parsers have no option taking a value).

Every command module keeps its `add_parser(sub)` (or `add_parsers(sub)` for a
module registering several subcommands); `tests/test_cli_help.py` checks that
every subcommand a module registers is in its program's table, with the same
help, so a new command cannot be forgotten.
"""
from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass
from types import ModuleType
from collections.abc import Sequence


@dataclass(frozen=True)
class Subcommand:
    """One row of a program's table: what `--help` lists, and where the parser is built."""

    name: str
    module: str  # dotted path of the module whose add_parser(s) registers `name`
    help: str  # exactly the module's help= text (argparse %-escapes included)


def chosen(argv: Sequence[str], table: Sequence[Subcommand]) -> Subcommand | None:
    """The subcommand the command line asks for, if the first non-option word names one."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return next((c for c in table if c.name == word), None)


def registrar(module: ModuleType):
    """The function by which a command module registers its subcommand(s)."""
    return getattr(module, "add_parser", None) or module.add_parsers


def add_subcommands(sub: argparse._SubParsersAction, table: Sequence[Subcommand],
                    argv: Sequence[str] | None) -> None:
    """Register the subcommands of `table`, in its order: every module when `argv` is None
    (a full parser, for tests and tools), else only the chosen subcommand's module; the others
    get a placeholder parser carrying their help line (never parsed: it is not the chosen one)."""
    if argv is None:
        wanted = {c.module for c in table}
    else:
        command = chosen(argv, table)
        wanted = {command.module} if command else set()
    done: set[str] = set()
    for command in table:
        if command.name in sub.choices:  # registered with a sibling of the same module
            continue
        if command.module in wanted and command.module not in done:
            done.add(command.module)
            registrar(importlib.import_module(command.module))(sub)
        else:
            sub.add_parser(command.name, help=command.help)


def answer_without_subcommand(parser: argparse.ArgumentParser, argv: Sequence[str]) -> int:
    """No subcommand on the command line: argparse answers `--help`, `--version` and mistakes (it
    exits); a bare program name prints the help. Nothing is imported, nothing runs."""
    parser.parse_args(argv)
    parser.print_help()
    return 2  # cli_support.EXIT_USAGE, as run_main answers a missing subcommand
