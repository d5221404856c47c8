"""The HTML report says what each chart and figure is (issue 34): titles, axes, alt texts, definitions."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from analysis_games import TinySubject

from recycle.analysis import Config, analyze
from recycle.analysis.definitions import DEFINITIONS, definition
from recycle.analysis.heuristics import HEURISTICS
from recycle.analysis.report import _heuristics_figure, _plt, lead_figure, seat_figure, write_report
from recycle.analysis.stats import Interval

DOCS = Path(__file__).resolve().parents[1] / "docs" / "analysis.md"


@pytest.fixture(scope="module")
def tiny():
    config = Config(games=4, seed=1, rollouts=1, replicates=10)
    return [analyze(TinySubject(kind), config, speed=False) for kind in ("choice", "coin")]


@pytest.fixture(scope="module")
def page(tiny, tmp_path_factory):
    return write_report(tmp_path_factory.mktemp("report"), tiny[:1]).read_text()


def test_every_chart_has_an_alt_text_saying_what_it_shows(page):
    alts = re.findall(r'<img alt="([^"]*)"', page)
    assert len(alts) == page.count("<img") == 5
    assert "plot" not in alts
    assert len(set(alts)) == len(alts) and all(len(a) > 30 for a in alts)
    assert any("won" in a and "fair share" in a for a in alts)


def test_every_figure_in_the_report_has_its_definition_beside_it(tiny, page):
    shown = [n for n in tiny[0].figures() if not n.startswith("branching_curve_")]
    for name in ("meaningful_moves", "coolness", "convergence", "security", "total", "variance"):
        assert name in shown
    for name in shown:
        assert definition(name), name
        row = re.search(rf"<tr><td>{name}</td>.*?</tr>", page)
        assert row and html.escape(definition(name)) in row.group(0), name


def test_numbered_figures_have_definitions_and_unknown_ones_none():
    assert "seat 3" in definition("score_seat_3")
    assert "finishing 2" in definition("mean_place_after_place_2")
    assert definition("no_such_figure") == ""


def test_every_heuristic_is_defined_and_documented():
    docs = DOCS.read_text()
    for name in HEURISTICS:
        assert DEFINITIONS[name].endswith("."), name
        assert f"| {name} |" in docs, name


def test_footer_cites_the_shipped_docs(page):
    assert "ANALYSIS notes" not in page and "docs/analysis.md" in page
    assert DOCS.exists()


def test_lead_chart_is_named_for_what_it_plots(tiny):
    ax = lead_figure(_plt(), tiny[0]).axes[0]
    assert "win rate" not in ax.get_title() + ax.get_ylabel()
    assert "expected normalised place" in ax.get_title().lower()
    assert "expected normalised place" in ax.get_ylabel() and "1 first" in ax.get_ylabel()


def test_heuristics_title_mentions_boxes_only_when_there_are_other_games(tiny):
    alone = _heuristics_figure(_plt(), tiny[0], tiny[:1]).axes[0].get_title()
    among = _heuristics_figure(_plt(), tiny[0], tiny).axes[0].get_title()
    assert "box" not in alone and "95% intervals" in alone
    assert "boxes: the other games analysed" in among


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_seat_axis_is_in_whole_seats(seats):
    ax = seat_figure(_plt(), [Interval(0.3, 0.2, 0.4)] * seats).axes[0]
    assert list(ax.get_xticks()) == list(range(seats))
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"seat {p}" for p in range(seats)]


@pytest.mark.parametrize("main", ["recycle", "president"])
def test_analyze_help_lists_every_definition(main, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # one line per figure: each sentence found whole
    entry = __import__(f"{main}.cli", fromlist=["main"]).main
    with pytest.raises(SystemExit):
        entry(["analyze", "--help"])
    out = capsys.readouterr().out
    for name, sentence in DEFINITIONS.items():
        assert f"{name}: {sentence}" in out, name


def test_building_the_command_line_leaves_the_definitions_unimported():
    import subprocess
    import sys

    code = ("import sys; from recycle.cli.main import build_parser; build_parser(['analyze']); "
            "sys.exit('recycle.analysis' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
