"""`recycle analyze` and `president analyze`: outputs, report, -j, resumable folders, errors."""
from __future__ import annotations

import csv
import json
import re
import shutil

import pytest

from president.cli.main import main as president_main
from recycle.analysis.heuristics import HEURISTICS
from recycle.cli.main import main as recycle_main

FAST = ["--games", "3", "--rollouts", "2", "--bootstrap", "50", "--seed", "4"]


@pytest.fixture()
def agram2(shared_dir):
    return str(shared_dir / "recycle-corpus" / "gdl" / "Agram2.gdl")


def _without_timing(data):
    for obj in data:
        obj["metrics"].pop("forward_model")
    return data


def test_analyze_writes_json_csv_and_a_self_contained_report(agram2, tmp_path, capsys):
    out = tmp_path / "report"
    code = recycle_main(["analyze", agram2, *FAST, "--json", str(tmp_path / "a.json"),
                         "--csv", str(tmp_path / "a.csv"), "--report", str(out)])
    assert code == 0
    assert "fairness" in capsys.readouterr().out
    [obj] = json.loads((tmp_path / "a.json").read_text())
    assert (obj["game"], obj["players"], obj["games"]) == ("Agram2", 2, 3)
    assert list(obj["heuristics"]) == list(HEURISTICS)
    for name, figure in [*obj["heuristics"].items(), ("branching_factor", obj["metrics"]["branching_factor"])]:
        if name == "variance":  # a maximum: no interval, and the JSON says why
            assert figure["low"] is None and figure["high"] is None and "maximum" in figure["no_interval"]
            continue
        assert figure["low"] <= figure["value"] <= figure["high"] and figure["games_needed"] >= 1
    assert {"decisions", "action_space", "hidden_information", "forward_model"} <= set(obj["metrics"])
    [row] = list(csv.DictReader(open(tmp_path / "a.csv")))
    assert row["game"] == "Agram2" and float(row["fairness_low"]) <= float(row["fairness"])
    page = (out / "index.html").read_text()
    assert page.count("data:image/png;base64,") == 5
    assert "http://" not in page and "https://" not in page  # nothing fetched to view it


def test_same_numbers_for_any_jobs(agram2, tmp_path):
    for jobs in ("1", "2"):
        assert recycle_main(["analyze", agram2, *FAST, "-j", jobs, "--json", str(tmp_path / f"j{jobs}.json")]) == 0
    one, two = (_without_timing(json.loads((tmp_path / f"j{j}.json").read_text())) for j in "12")
    assert one == two


#: Set up, then stuck: its third choice has no option (a play-time error, not a reading one).
STUCK = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (ACE, KING)) (COLOR (RED (SUIT (HEARTS)))))))
 (stage player (end (== 0 1))
        (choice (((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))))
 (scoring max (size ((current player) iloc HAND))))
"""


def test_a_folder_game_failing_in_a_worker_is_listed_as_one_failing_here(agram2, tmp_path, capsys):
    """With -j 2 the game fails in a worker process (an exception there reaches this process only as a
    traceback): the folder run still lists it in the error's own words, as with -j 1, and analyses the
    others alike."""
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(agram2, games / "Agram2.gdl")
    (games / "Stuck2.gdl").write_text(STUCK)
    said = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.json"
        assert recycle_main(["analyze", str(games), *FAST, "-j", jobs, "--json", str(out),
                             "--journal", str(tmp_path / f"j{jobs}.jsonl")]) == 0
        said[jobs] = " ".join(line.strip() for line in capsys.readouterr().err.split("not analysed:")[1].splitlines())
    for text in said.values():  # the error's own words (located or not), never a traceback
        assert text.startswith("Stuck2.gdl: ") and text.endswith("player p0 has no possible option in this choice "
                                                                  "(hint: every option's condition is false or it "
                                                                  "has nothing to do)")
        assert "Traceback" not in text and "NoOptionsError" not in text
    one, two = (_without_timing(json.loads((tmp_path / f"j{j}.json").read_text())) for j in "12")
    assert one == two and [o["game"] for o in two] == ["Agram2"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_game_failing_in_a_worker_is_the_game_error_not_an_internal_one(tmp_path, capsys, jobs):
    (tmp_path / "Stuck2.gdl").write_text(STUCK)
    code = recycle_main(["analyze", str(tmp_path / "Stuck2.gdl"), *FAST, "-j", jobs,
                         "--journal", str(tmp_path / "j.jsonl")])
    err = capsys.readouterr().err
    assert code == 1 and "internal error" not in err
    assert re.search(r"error: \S*Stuck2\.gdl:5:9: player p0 has no possible option in this choice", err)


def test_folder_table_resumes_after_an_interruption(agram2, tmp_path, capsys):
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(agram2, games / "Agram2.gdl")
    (games / "Broken2.gdl").write_text("(game (setup (create players 2)\n")
    args = ["analyze", str(games), *FAST, "--json"]
    assert recycle_main([*args, str(tmp_path / "whole.json"), "--journal", str(tmp_path / "whole.jsonl")]) == 0
    assert "not analysed: Broken2.gdl" in capsys.readouterr().err
    # an interrupted run: the journal keeps a few games and ends in a line cut short by a kill
    lines = (tmp_path / "whole.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "cut.jsonl").write_text("".join(lines[:4]) + lines[4][:20])
    assert recycle_main([*args, str(tmp_path / "resumed.json"), "--journal", str(tmp_path / "cut.jsonl")]) == 0
    assert "resuming" in capsys.readouterr().err
    whole, resumed = (_without_timing(json.loads((tmp_path / f).read_text())) for f in ("whole.json", "resumed.json"))
    assert whole == resumed and [o["game"] for o in whole] == ["Agram2"]
    # a journal is user input: an implausible line is a located error, not a hang
    bogus = lines[0] + lines[1].replace('"players":2', '"players":1000000000')
    (tmp_path / "bogus.jsonl").write_text(bogus)  # an edit: its digest no longer matches
    assert recycle_main([*args, str(tmp_path / "b.json"), "--journal", str(tmp_path / "bogus.jsonl")]) == 3
    assert "bogus.jsonl:2:1: error: this record does not match its integrity digest" in capsys.readouterr().err
    # the digest is no signature: a forged chain is still checked for plausibility
    from recycle.kernel.journal_file import chained_line

    header = json.loads(lines[0])
    record = json.loads(lines[1].replace('"players":2', '"players":1000000000'))
    del record["#"]
    (tmp_path / "bogus.jsonl").write_text(lines[0] + chained_line(header["#"], record)[0])
    assert recycle_main([*args, str(tmp_path / "b.json"), "--journal", str(tmp_path / "bogus.jsonl")]) == 2
    assert "bogus.jsonl:2: not an analysis record" in capsys.readouterr().err
    # other settings cannot continue the journal
    assert recycle_main(["analyze", str(games), "--games", "4", "--journal", str(tmp_path / "cut.jsonl")]) == 2
    assert "other settings" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--estimator", "cardstock:depth=2"], "rollouts"),
    (["--estimator", "nosuchbot"], "unknown bot"),
    (["--games", "0"], "--games"),
    (["--replay", "3"], "--replay needs the analysis's own options"),  # no --seed: no analysis to replay
    (["--replay", "9", "--games", "3", "--seed", "1"], "no game 9: an analysis of 3 games per set has games 0 to 8"),
])
def test_bad_options_are_one_line_errors(agram2, argv, message, capsys):
    with pytest.raises(SystemExit) if argv[0] == "--games" else _nothing():
        assert recycle_main(["analyze", agram2, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_game_is_an_error(tmp_path, capsys):
    assert recycle_main(["analyze", str(tmp_path / "nope.gdl"), "--seed", "1"]) == 2
    assert "no such game" in capsys.readouterr().err


def test_president_compare_marks_significant_differences(tmp_path, capsys, monkeypatch):
    import recycle.cli.analysis as command

    labels, bar = [], command.analyze_with_progress
    monkeypatch.setattr(command, "analyze_with_progress", lambda s, c, j, label, *rest: labels.append(label)
                        or bar(s, c, j, label, *rest))
    code = president_main(["analyze", "--compare", "classic", "daifugo", "--games", "3", "--rounds", "2",
                           "--rollouts", "1", "--bootstrap", "50", "--seed", "5", "--json", str(tmp_path / "c.json"),
                           "--report", str(tmp_path / "r")])
    assert code == 0
    out = capsys.readouterr().out
    assert labels == ["analysing classic (1 of 2)", "analysing daifugo (2 of 2)"]  # the bar says which variant
    assert "classic" in out and "daifugo" in out and "differs from classic" in out
    classic, daifugo = json.loads((tmp_path / "c.json").read_text())
    assert "president_keeps_title" in classic["metrics"] and "exchange_worth" in classic["metrics"]
    compare = daifugo["compare"]
    assert compare["against"] == "classic"
    # daifugo has jokers: its action space differs from classic's beyond doubt
    assert compare["action_space"]["significant"] is True
    # the report's table carries the intervals and the very marks of the console's, figure by figure
    marked = {name for name, d in compare.items() if name != "against" and d["significant"]}
    console = {" ".join(cells[0].split()).replace(" ", "_") for line in out.splitlines()
               if (cells := [c.strip() for c in line.split("│")[1:-1]]) and len(cells) == 3 and "*" in cells[2]}
    page = (tmp_path / "r" / "index.html").read_text()
    rows = re.findall(r"<tr><td>(\w+)</td><td>([^<]*)</td><td>([^<]*)</td><td class='def'>", page)
    assert len(rows) > 30 and all(re.search(r"\[-?[\d.]+, -?[\d.]+\]|no interval", c) for r in rows for c in r[1:])
    assert {name for name, first, second in rows if " * " in second} == marked == console
    assert not any(" * " in first for _, first, _ in rows)  # the first variant is the reference
    assert "Grouped bar chart: each heuristic of the 2 variants" in page and "All 2 games" not in page


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
