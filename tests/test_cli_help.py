"""Every command and subcommand prints its help (a `%` in a help text once broke `--help`)."""
from __future__ import annotations

import pytest

from president.cli import build_parser as president_parser
from recycle.cli import build_parser as recycle_parser


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
