"""Every console table of `president` and `recycle` fits 80 columns (issue 32, part 4): no cut label
(no `…`), every word of every header visible, names never cut; the tournament ranks by the figure it shows.

One parametrized test: each command is run in this process with small arguments, the tables it
prints are caught at the console and drawn again at 80 columns, as a terminal of that width shows them.
"""
from __future__ import annotations

import io
import re
import shutil

import pytest
from rich.console import Console
from rich.table import Table

from personalities.catalog import shipped_text
from president.cli.main import main as president
from fuzzing.commands import call
from recycle.cli.main import main as recycle
from recycle.games import game_path
from recycle.cli import console as cli_support
from recycle.kernel.tables import fitted
from recycle.tournament import report

FAST = ["--games", "1", "--bootstrap", "10", "--rollouts", "1", "--seed", "1"]
#: name -> (program, arguments); `{tmp}` is the test's folder.
COMMANDS = {
    "tournament": (president, ["tournament", "Classic", "Cautious", "RankAware", "random", "--matches", "2",
                               "--rounds", "2", "-j1", "--seed", "1", "--out", "{tmp}/t.jsonl"]),
    "tournament your copy": (president, ["tournament", "Classic", "ismcts:iterations=2", "--matches", "1",
                                         "--rounds", "1", "-j1", "--seed", "2", "--out", "{tmp}/c.jsonl"]),
    "tournament head to head by pairs": (president, ["tournament", "Aggressive", "Beginner", "Cautious", "Closer",
                                                     "Counter", "random", "--matches", "1", "--rounds", "1", "-j1",
                                                     "--seed", "1", "--out", "{tmp}/p.jsonl"]),
    "simulate 7 players": (president, ["simulate", "--players", "Classic,TwoHoarder,random", "--rounds", "1",
                                       "--matches", "2", "--seed", "1", "--set", "players=7"]),
    "personalities": (president, ["personalities"]),
    "stats": (president, ["stats", "Classic", "--rounds", "1", "--seed", "1"]),
    "analyze --compare": (president, ["analyze", "--compare", "classic", "daifugo", "--rounds", "1", *FAST]),
    "run": (recycle, ["run", "President5", "--players", "Classic,ismcts:iterations=2,random", "--games", "1",
                      "--seed", "1"]),
    "games": (recycle, ["games"]),
    "corpus": (recycle, ["corpus", "{tmp}/games", "--games", "1"]),
    "recycle analyze": (recycle, ["analyze", "Poker5", *FAST]),  # the table of `president analyze` too
    "recycle analyze --replay": (recycle, ["analyze", "Poker5", *FAST, "--replay", "2"]),
    "tides-solve": (recycle, ["tides-solve", "--exploitability", "--deals", "1", "--seed", "0"]),
    "recycle analyze folder": (recycle, ["analyze", "{tmp}/games", "--journal", "{tmp}/a.jsonl", *FAST]),
}


@pytest.fixture
def caught_tables(monkeypatch) -> list[Table]:
    """The tables the commands print, caught at the console they share."""
    tables: list[Table] = []
    monkeypatch.setattr(cli_support.console, "print",
                        lambda *things, **_: tables.extend(t for t in things if isinstance(t, Table)))
    return tables


def at_80_columns(table: Table) -> str:
    """As `print_table` draws it on a terminal 80 columns wide."""
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(fitted(table, 80))
    return console.export_text()


def header_words(table: Table) -> list[str]:
    return [word for column in table.columns for word in str(column.header).split()]


def visible(word: str, text: str) -> bool:
    return re.search(rf"(?<!\S){re.escape(word)}(?!\S)", text) is not None


@pytest.mark.parametrize("name", COMMANDS)
def test_every_table_fits_80_columns(name, caught_tables, tmp_path, monkeypatch, user_rules_folder):
    monkeypatch.chdir(tmp_path)
    (user_rules_folder / "Classic.rul").write_text(shipped_text("Classic") + "; edited\n", encoding="utf-8")
    (tmp_path / "games").mkdir()
    for game in ("President5", "Poker5"):
        shutil.copy(game_path(game), tmp_path / "games" / f"{game}.gdl")
    main, argv = COMMANDS[name]
    code, _, err = call(main, [a.replace("{tmp}", str(tmp_path)) for a in argv], seconds=120)
    assert code == 0, err
    assert caught_tables, "the command printed no table"
    for table in caught_tables:
        text = at_80_columns(table)
        assert "…" not in text, text
        assert max(map(len, text.splitlines())) <= 80
        missing = [w for w in header_words(table) if not visible(w, text)]
        assert not missing, f"header words cut: {missing}\n{text}"
        if name.startswith("tournament"):
            names = [str(cell) for cell in table.columns[1]._cells]
            assert all(visible(n.split()[-1], text) for n in names if n), text


def test_the_tournament_ranks_by_the_figure_it_shows():
    """`#` follows points a round, the figure on screen, not the OpenSkill rating that only --wide shows."""
    def bot(name: str, points: float, ordinal: float) -> dict:
        estimate = {"value": 0.5, "ci95": [0.4, 0.6]}
        return {"bot": name, "rounds": 10, "first_rate": estimate, "last_rate": estimate, "mean_place": estimate,
                "mean_points": {"value": points, "ci95": [points - 0.1, points + 0.1]},
                "rating": {"mu": 25.0, "sigma": 1.0, "ordinal": ordinal}}

    summary = {"bots": [bot("Rated", 1.0, 30.0), bot("Scorer", 3.0, 10.0)], "head_to_head": []}
    for b in summary["bots"]:
        b["places"] = [5, 5]
    table = report.bot_table(summary, "t", "President", "Loser")
    assert [str(c) for c in table.columns[1]._cells] == ["Scorer", "Rated"]
    assert "rating μ ±σ" not in [str(c.header) for c in table.columns]
    wide = report.bot_table(summary, "t", "President", "Loser", wide=True)
    assert "rating μ ±σ" in [str(c.header) for c in wide.columns]
    assert report.csv_rows(summary)[1][0][1] == "Scorer"


def test_wide_prints_a_table_at_its_own_width(monkeypatch):
    """--wide never squeezes: the console draws the table as wide as its columns need."""
    widths: list[int | None] = []
    monkeypatch.setattr(cli_support.console, "print", lambda *a, width=None, **k: widths.append(width))
    table = Table(*[f"column number {k}" for k in range(12)])
    cli_support.print_table(table, wide=True)
    cli_support.print_table(table)
    assert widths[0] > 150 and widths[1] is None
