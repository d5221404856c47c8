"""What a designer can act on (issue 34, part 2): findings with intervals, the games that show them, a replay
command that plays that very game again, and the reference set."""
from __future__ import annotations

import io
import json
import math
import re
import shlex
from fractions import Fraction

import pytest
from analysis_games import TinySubject
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from recycle.analysis import Config, analyze, compute
from recycle.analysis.designer import findings_table
from recycle.analysis.findings import _seat_line, bands, lead_changes, longest_run, no_real_choice, settled_at
from recycle.analysis.records import SETS, DecisionRecord, Episode, GameLog
from recycle.analysis.reference import COMPARED, reference
from recycle.analysis.replay import replay
from recycle.analysis.report import write_report
from recycle.analysis.stats import Interval
from recycle.analysis.verdicts import verdict
from recycle.cli.main import main as recycle_main
from recycle.kernel.tables import fitted

F = Fraction


def d(player, options=2, values=None, view=None):
    return DecisionRecord(player, options, values=values, view=view)


def test_lead_changes_count_a_new_leader_of_a_tenth_compared_exactly():
    views = [(F(1, 2), F(1, 3)),  # ten decisions, a tenth each; tenth 1: seat 0 leads
             (F(1, 2), F(1, 2)),  # a tie: nobody alone, no change
             (F(2, 6), F(1, 3)),  # equal as fractions: still a tie
             (F(1, 4), F(3, 4)),  # seat 1 alone: a change
             (F(1, 4), F(3, 4)),
             (F(1, 2), F(1, 2)), (F(1), F(0)),  # a tie leaves seat 1 leading; then seat 0
             None, (F(1, 2), F(2, 3)), (F(4, 5), F(0))]  # no view: nothing; then two changes
    play = Episode(tuple(d(i % 2, view=v) for i, v in enumerate(views)), (1, 2))
    assert lead_changes(play) == [3, 6, 8, 9]
    # twenty decisions: two per tenth; a noisy flip inside a tenth is no change
    noisy = [(F(3, 4), F(1, 4)), (F(1, 4), F(1, 2))] * 10
    assert lead_changes(Episode(tuple(d(i % 2, view=v) for i, v in enumerate(noisy)), (1, 2))) == []


def test_settled_follows_the_winners_lead_above_four_fifths():
    winner_1 = (2, 1)
    play = Episode((d(1, values=(F(1, 2),)), d(0, values=(F(1),)), d(1, values=(F(4, 5),)),
                 d(1, values=(F(9, 10),))), winner_1)
    assert settled_at(play) == (2, 3)  # its third decision of three: lead 4/5 is not above 4/5
    never = Episode((d(1, values=(F(4, 5),)),), winner_1)
    assert settled_at(never) == (1, 1)


def test_one_real_option_is_forced_or_options_valued_exactly_alike():
    assert no_real_choice(d(0, options=1))
    assert no_real_choice(d(0, options=3, values=(F(1, 3), F(2, 6), F(1, 3))))
    assert not no_real_choice(d(0, options=2, values=(F(1, 3), F(1, 2))))
    assert not no_real_choice(d(0, options=2))  # a random seat's choice: the options are not known alike
    play = Episode(tuple(d(0, options=o) for o in (2, 1, 1, 2, 1, 1, 1, 2)), (1,))
    assert longest_run(play) == (4, 3)


@given(st.lists(st.floats(0, 1), min_size=2, max_size=6), st.floats(0, 0.5), st.integers(2, 400))
def test_the_seat_verdict_follows_its_interval(values, half, games):
    rates = [Interval(v, max(0.0, v - half), min(1.0, v + half)) for v in values]
    fair = 1 / len(rates)
    best, line = _seat_line(rates, "In random play", [_log(0, "random", 2)] * games)
    iv = rates[best]
    if iv.low >= fair:
        assert line.endswith(f"seat {best} is favoured.")
    elif iv.high < fair:
        assert line.endswith("wins no more often than its fair share.")
    else:
        assert "cannot tell yet" in line


def _log(index, kind, players, decisions=()):
    return GameLog(index, kind, index, players, tuple(decisions), ((1,) + (2,) * (players - 1),),
                   (1,) + (2,) * (players - 1), (0.0,) * players)


@pytest.fixture(scope="module")
def tiny():
    a = analyze(TinySubject("choice", 3), Config(games=6, seed=2, rollouts=2, replicates=40), speed=False)
    a.replay = "recycle analyze tiny --games 6 --seed 2 --rollouts 2 --replay {index}"
    return a


@pytest.mark.parametrize("kind", ["choice", "coin"])
def test_every_verdict_is_the_one_its_interval_supports(kind):
    a = analyze(TinySubject(kind, 2), Config(games=5, seed=7, rollouts=1, replicates=30), speed=False)
    for f in a.findings()[1:]:  # the favoured seat: the property test above
        assert f.value is not None and f.value.known, f
        supported = verdict(f.value, bands(f.key, "game"), a.config.games).sentence()
        assert f.lines[0].endswith(": " + supported), (f.lines[0], supported)


def test_every_finding_is_in_the_report_with_replay_commands(tiny, tmp_path):
    page = write_report(tmp_path, [tiny]).read_text()
    assert "What a designer can act on" in page
    for title in ("Favoured seat", "Lead changes", "Decisive end", "Where the game drags"):
        assert f"<h4>{title}</h4>" in page
    for f in tiny.findings():
        for e in f.examples:
            assert f"<code>recycle analyze tiny --games 6 --seed 2 --rollouts 2 --replay {e.index}</code>" in page
    assert "Against the reference set" in page and "published games" in page


def test_an_analysis_without_all_ai_games_says_so(tiny):
    partial = compute(tiny.name, tiny.players, {s: tiny.logs[s] for s in ("random", "one_ai")}, tiny.config)
    found = partial.findings()
    assert found[0].value is not None and "In random play" in found[0].lines[0]
    assert [f.lines for f in found[1:]] == [("No all-AI games: nothing to tell.",)] * 3
    assert all(f["value"] is None for f in partial.to_json()["findings"][1:])


def test_findings_are_the_same_from_the_journal(tiny):
    lines = {s: [GameLog.from_json(json.loads(g.to_line())) for g in tiny.logs[s]] for s in SETS}
    again = compute(tiny.name, tiny.players, lines, tiny.config)
    assert [f.to_json() for f in again.findings()] == [f.to_json() for f in tiny.findings()]


def test_a_replayed_game_is_the_analysed_game(tiny):
    for f in tiny.findings():
        for e in f.examples:
            g = next(g for s in SETS for g in tiny.logs[s] if g.index == e.index)
            again = replay(TinySubject("choice", 3), tiny.config, e.index)
            assert again.log == g and len(again.moves) == len(g.decisions)


def test_the_console_findings_fit_80_columns(tiny):
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(fitted(findings_table(tiny), 80))
    text = console.export_text()
    assert max(map(len, text.splitlines())) <= 80
    assert "Favoured seat" in text and "drags" in text


def test_the_reference_set_says_where_it_comes_from():
    ref = reference()
    assert set(ref.shipped) >= {"Hearts4", "TidesOfTime2"}
    assert ref.source["games"] >= 10 and "bench/analysis_reference.py" in ref.source["command"]
    for figures in ref.shipped.values():
        assert set(figures) <= set(COMPARED) and all(math.isfinite(v) for v in figures.values())
    assert "Hearts4" not in ref.others("fairness", exclude="Hearts4")
    assert re.search(r"above \d of 4 published games", ref.placing("fairness", 0.9))


def test_the_replay_command_of_a_finding_replays_that_game(shared_dir, tmp_path, capsys):
    agram2 = str(shared_dir / "recycle-corpus" / "gdl" / "Agram2.gdl")
    journal = tmp_path / "a.jsonl"
    assert recycle_main(["analyze", agram2, "--games", "3", "--rollouts", "2", "--bootstrap", "50", "--seed", "4",
                         "--journal", str(journal), "--json", str(tmp_path / "a.json"),
                         "--report", str(tmp_path / "r1")]) == 0
    out = capsys.readouterr().out
    # the journal keeps all the report needs: resumed (nothing left to play), the same page to the byte
    assert recycle_main(["analyze", "--resume", str(journal), "--report", str(tmp_path / "r2")]) == 0
    assert (tmp_path / "r1" / "index.html").read_bytes() == (tmp_path / "r2" / "index.html").read_bytes()
    capsys.readouterr()
    [obj] = json.loads((tmp_path / "a.json").read_text())
    assert [f["finding"] for f in obj["findings"]] == ["seat_advantage", "lead_changes", "late_decisions",
                                                       "one_real_option"]
    example = next(e for f in obj["findings"] for e in f["examples"])
    command = example["replay"]
    assert f"replay game N: {command.replace(str(example['game']), 'N')}" in out.replace("\n", "")
    program, *argv = shlex.split(command)
    assert program == "recycle"
    assert recycle_main(argv) == 0
    shown = capsys.readouterr().out
    logged = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    game = next(g for g in logged if g["game"] == example["game"])
    assert f"game {game['game']} " in shown and f"seed {game['seed']}" in shown
    places = "; ".join(f"seat {p}: {e}" for p, e in enumerate(game["episodes"][0]))
    assert places in " ".join(shown.split())
    assert len(re.findall(r"^│ +\d+ │", shown, re.M)) == len(game["decisions"])
