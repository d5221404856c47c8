"""Every command and subcommand prints its help (a `%` in a help text once broke `--help`)."""
from __future__ import annotations

import pytest

from president.cli.main import build_parser as president_parser
from recycle.cli.main import build_parser as recycle_parser


def subcommands(parser):
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sorted(sub.choices)


@pytest.mark.parametrize("build", [president_parser, recycle_parser], ids=["president", "recycle"])
def test_every_help_prints(build, capsys):
    parser = build()
    for argv in [["--help"]] + [[name, "--help"] for name in subcommands(parser)]:
        with pytest.raises(SystemExit) as done:
            build().parse_args(argv)
        assert done.value.code == 0, argv
        out = capsys.readouterr().out
        assert out.startswith("usage:"), argv


@pytest.mark.parametrize("program", ["president", "recycle"])
def test_every_registered_subcommand_is_in_the_static_table(program):
    """`--help` lists subcommands from a static table without importing their modules: a module
    registering a subcommand the table does not list (or with another help line) would be
    forgotten by `--help` and never run."""
    import argparse
    import importlib
    import pkgutil

    from recycle.cli.subcommands import registrar

    cli = importlib.import_module(f"{program}.cli")
    commands = importlib.import_module(f"{program}.commands")
    table = {c.name: (c.module, c.help) for c in cli.COMMANDS}
    registered = {}
    for info in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if not (hasattr(module, "add_parser") or hasattr(module, "add_parsers")):
            continue
        sub = argparse.ArgumentParser().add_subparsers()
        registrar(module)(sub)
        for action in sub._choices_actions:
            registered[action.dest] = (module.__name__, action.help)
    assert registered == table
    assert [c.name for c in cli.COMMANDS] == list(cli.build_parser()._subparsers._group_actions[0].choices)


@pytest.mark.parametrize("program", ["president", "recycle"])
def test_help_imports_no_command_module(program):
    """`president --help` answers from the table alone (start-up under 0.15 s): no command module,
    rich or the game engines are imported."""
    import subprocess
    import sys

    code = (f"import sys; from {program}.cli import main\n"
            f"try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if '.commands.' in m or m.startswith(('rich', 'pyparsing', "
            "'textual', 'president.game.state', 'recycle.interp'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"


def test_lazy_agent_table_names_every_search_player():
    """recycle.players lists the search players by name (to import them only when used):
    the names must be exactly SEARCH_PLAYERS', each built by the same factory."""
    from recycle.players import AGENT_FACTORIES, SEARCH_PLAYER_NAMES
    from recycle.search import SEARCH_PLAYERS

    assert set(SEARCH_PLAYER_NAMES) == set(SEARCH_PLAYERS) <= set(AGENT_FACTORIES)
    for name, factory in SEARCH_PLAYERS.items():
        assert factory.__module__ == f"recycle.search.{name}" and factory.__name__ == "from_spec"
