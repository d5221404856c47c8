"""The command lines and the files they read back: every reproducer of the reliability issue is a test.

Spec lists (`split_specs`, `fill_seats`), numbers in ranges, output paths
checked before the work, `--json -`, special files refused unopened, and
journals and transcripts read through one typed schema check.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from president.cli import main as president
from fuzzing.commands import call, output_problem
from recycle.cli import main as recycle
from recycle.games import game_path
from recycle.kernel.specs import AgentSpecError, fill_seats, join_specs, parse_spec, split_specs
from recycle.players import make_agent

def assert_clean(code: int, out: str, err: str, argv) -> None:
    """A known exit code, and no traceback."""
    problem = output_problem(code, out, err)
    assert problem is None, f"{argv}: {problem}"


TINY = ["tournament", "Classic", "random", "--matches", "1", "--rounds", "1", "--seed", "5", "-j1"]


# ---- one syntax for lists of specs ------------------------------------------------------------
@pytest.mark.parametrize("text, specs", [
    ("Classic,ismcts:time=1.0,rollout=Classic,random", ["Classic", "ismcts:time=1.0,rollout=Classic", "random"]),
    ("ismcts:time=1.0,rollout=Classic", ["ismcts:time=1.0,rollout=Classic"]),
    (" Classic , Gambler ", ["Classic", "Gambler"]),
    ("pimc:samples=3,rollout=ismcts:iterations=2", ["pimc:samples=3,rollout=ismcts:iterations=2"]),
    ("./a=b.rul,random", ["./a=b.rul", "random"]),
    ("", []),
])
def test_split_specs_examples(text, specs):
    assert split_specs(text) == specs


@pytest.mark.parametrize("text, message", [
    ("Classic,,random", "spec 2 is empty"),
    ("Classic,", "spec 2 is empty"),
    ("Classic,time=1", "write NAME:time=1"),
    ("time=1", "the first spec"),
])
def test_split_specs_refuses_ambiguous_lists(text, message):
    with pytest.raises(AgentSpecError, match=message):
        split_specs(text)


LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
NAME = st.builds(str.__add__, st.sampled_from(LETTERS), st.text(LETTERS + "0123456789_./-", max_size=11))
KEY = st.builds(str.__add__, st.sampled_from(LETTERS.lower()), st.text(LETTERS.lower() + "0123456789_", max_size=7))
VALUE = st.text(LETTERS + "0123456789_.:-", max_size=10)
SPEC = st.builds(lambda name, params: name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else ""),
                 NAME, st.dictionaries(KEY, VALUE, max_size=3))


@given(st.lists(SPEC, max_size=6))
@settings(max_examples=200, deadline=None)
def test_split_specs_round_trips(specs):
    assert split_specs(join_specs(specs)) == specs
    for text in specs:  # and every spec still reads as the agent name and parameters it was written with
        assert parse_spec(split_specs(text)[0]) == parse_spec(text)


@given(st.lists(NAME, min_size=1, max_size=7), st.integers(1, 9))
def test_fill_seats_repeats_in_rotation(specs, seats):
    if len(specs) > seats:
        with pytest.raises(AgentSpecError):
            fill_seats(specs, seats)
        return
    filled = fill_seats(specs, seats)
    assert len(filled) == seats and filled[:len(specs)] == specs
    assert all(filled[i] == specs[i % len(specs)] for i in range(seats))


def test_a_spec_with_two_parameters_plays_in_simulate_and_recycle_run():
    code, out, err = call(president, ["simulate", "--players", "ismcts:iterations=4,rollout=Classic,random",
                                      "--matches", "1", "--rounds", "1", "--seed", "1", "--json", "-"])
    assert code == 0, err
    assert [s["bot"] for s in json.loads(out)["seats"]][:2] == ["ismcts:iterations=4,rollout=Classic", "random"]
    code, out, err = call(recycle, ["run", "President5", "--players", "ismcts:iterations=3,rollout=random,Classic",
                                    "--games", "1", "--seed", "1", "--json", "-"])
    assert code == 0, err
    assert [s["agent"] for s in json.loads(out)["seats"]][:2] == ["ismcts:iterations=3,rollout=random", "Classic"]


# ---- numbers in ranges --------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["ismcts:time=inf", "ismcts:time=nan", "pimc:time=-inf", "ismcts:c=nan",
                                  "ismcts:time=1e9", "ismcts:iterations=99999999999999999999"])
def test_search_budgets_must_be_finite_and_bounded(spec):
    with pytest.raises(AgentSpecError):
        make_agent(spec)


@pytest.mark.parametrize("argv, option", [
    (["simulate", "--matches", "99999999999999999999999999"], "--matches"),
    (["simulate", "--matches", "0"], "--matches"),
    (["play", "--delay", "nan"], "--delay"),
    (["play", "--delay", "inf"], "--delay"),
    (["play", "--delay", "-1"], "--delay"),
    (["tournament", "a", "b", "--sprt-p0", "nan"], "--sprt-p0"),
    (["trace", "Classic", "--round", "0"], "--round"),
    (["stats", "Classic", "--rounds", "-5"], "--rounds"),
    (["simulate", "--seed", "1" + "0" * 5000], "--seed"),
])
def test_president_numbers_out_of_range_are_usage_errors(argv, option):
    code, out, err = call(president, argv)
    assert code == 2 and f"argument {option}" in err
    assert_clean(code, out, err, argv)


@pytest.mark.parametrize("argv", [["run", "President5", "--max-choices", "0"], ["run", "President5", "--games", "0"],
                                  ["corpus", ".", "--games", "nan"], ["trace", "President5", "Classic", "--seat", "-1"]])
def test_recycle_numbers_out_of_range_are_usage_errors(argv):
    code, out, err = call(recycle, argv)
    assert code == 2 and "argument --" in err
    assert_clean(code, out, err, argv)


# ---- outputs: checked first, '-' is standard output -------------------------------------------------
def test_an_unwritable_output_fails_before_any_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in ([*TINY, "--json", "/nonexistent/x.json"], [*TINY, "--csv", str(tmp_path)],
                 ["simulate", "--json", "/nonexistent/x.json"], ["crosscheck", "--json", "/nonexistent/x"]):
        code, out, err = call(president, argv, seconds=10)
        assert code == 2 and "cannot write" in err, argv
    assert not list(tmp_path.iterdir())  # no journal was started
    code, _, err = call(recycle, ["run", "President5", "--csv", "/nonexistent/x.csv"], seconds=10)
    assert code == 2 and "no such folder" in err


def test_json_dash_writes_to_standard_output_and_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = call(president, ["simulate", "--players", "random", "--matches", "2", "--seed", "3",
                                      "--json", "-"])
    assert code == 0 and json.loads(out)["matches"] == 2 and not (tmp_path / "-").exists()
    code, out, _ = call(recycle, ["run", "President5", "--games", "1", "--seed", "1", "--csv", "-"])
    assert code == 0 and out.splitlines()[0].startswith("seat,agent")
    code, _, err = call(president, ["simulate", "--json", "-", "--csv", "-"])
    assert code == 2 and "standard output" in err


def test_decide_json_follows_the_json_file_convention(tmp_path):
    argv = ["decide", "Classic", "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4", "--seed", "1"]
    code, out, _ = call(president, [*argv, "--json", "-"])
    to_stdout = json.loads(out)
    target = tmp_path / "d.json"
    assert call(president, [*argv, "--json", str(target)])[0] == 0
    assert json.loads(target.read_text()) == to_stdout and to_stdout["play"] == ["T", "T"]


@pytest.mark.parametrize("main, argv", [(recycle, ["trace", "--", "President5", "--"]),
                                        (president, ["decide", "--", "--"]), (president, ["trace", "--"])])
def test_a_lone_double_dash_is_not_a_value(main, argv):
    code, out, err = call(main, argv)  # Python 3.11's argparse hands the positional an empty list
    assert code == 2 and "error: " in err
    assert_clean(code, out, err, argv)


@pytest.mark.parametrize("main", [president, recycle])
def test_version(main):
    code, out, _ = call(main, ["--version"])
    assert code == 0 and out.split()[1][0].isdigit()


# ---- the other command-line reproducers ----------------------------------------------------------
@pytest.mark.parametrize("hand, played, message", [("3c 3c", "", "3c is named 2 times"),
                                                   ("3c 4d", "4D", "4d is named 2 times")])
def test_decide_refuses_a_card_named_twice(hand, played, message):
    code, out, err = call(president, ["decide", "Classic", "--hand", hand, "--played", played, "--seed", "1"])
    assert code == 2 and message in err
    ok = call(president, ["decide", "Classic", "--hand", "3c 3c", "--set", "decks=2", "--seed", "1"])
    assert ok[0] == 0, ok[2]  # two packs: two threes of clubs exist


def test_decide_counts_that_are_not_numbers_are_a_usage_error():
    code, out, err = call(president, ["decide", "Classic", "--hand", "3 4", "--opponents", "x,y"])
    assert code == 2 and "card counts" in err


def test_trace_round_beyond_the_match_is_an_error():
    code, out, err = call(president, ["trace", "Classic", "--round", "99", "--rounds", "2", "--seed", "1"])
    assert code == 2 and "the match had 2 round(s)" in err


def test_stats_shows_a_progress_bar(monkeypatch):
    import president.cli.commands.explain as explain
    from recycle.cli import output

    calls = []

    def recording(console, total, label, unit="games"):
        calls.append((total, unit))
        return output.progress_bar(console, total, label, unit)

    monkeypatch.setattr(explain, "progress_bar", recording)
    assert call(president, ["stats", "Classic", "--rounds", "12", "--seed", "1", "--json", "-"])[0] == 0
    assert calls == [(12, "rounds")]


def test_play_refuses_more_opponents_than_seats(monkeypatch, tmp_path):
    code, _, err = call(president, ["play", "--set", "players=3", "--opponents", "a,b,c", "--rules-dir", str(tmp_path)])
    assert code == 2 and "3 opponents for 2 seat(s)" in err


# ---- special files are refused before opening ---------------------------------------------------------
@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe.gdl"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("main, argv", [
    (president, ["check", "{}"]), (recycle, ["check", "{}"]), (president, ["simulate", "--deal", "{}"]),
    (president, ["tournament", "--resume", "{}"]), (recycle, ["replay", "{}"]), (recycle, ["run", "{}"]),
    (president, ["tournament", "Classic", "random", "--game", "{}", "-j1"]),
    (recycle, ["run", "President5", "--deal", "{}"]), (president, ["play", "--deal", "{}"]),
])
def test_a_fifo_as_input_is_refused_at_once(fifo, main, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("{}", str(fifo)) for a in argv]
    code, out, err = call(main, argv, seconds=10)
    assert code in (2, 3) and "regular file" in err + out, err
    assert_clean(code, out, err, argv)


def test_corpus_of_binary_files_and_a_fifo_finishes(tmp_path):
    import random

    rng = random.Random(13)
    for k in range(12):
        (tmp_path / f"b{k}.gdl").write_bytes(bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 4000))))
    (tmp_path / "nul.rcy").write_bytes(b"\0" * 50_000)
    os.mkfifo(tmp_path / "pipe.gdl")
    code, out, err = call(recycle, ["corpus", str(tmp_path), "--json", "-"], seconds=30)
    assert code == 1 and json.loads(out)["passed"] == 0 and len(json.loads(out)["files"]) == 14


# ---- journals: one typed check, errors naming the line and field ------------------------------------------
@pytest.fixture
def journal(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "t.jsonl"
    code, _, err = call(president, [*TINY, "--out", str(path), "--json", str(tmp_path / "ref.json")], seconds=60)
    assert code == 0, err
    return path


def _edit(path: Path, line: int, change) -> None:
    """Change one line, then forge the digest chain (an edit alone is refused by its digest:
    tests/test_journals.py), so that every later check still meets the changed value."""
    from recycle.kernel.journal_file import chained_line

    lines = path.read_text().splitlines()
    data = json.loads(lines[line - 1])
    change(data)
    lines[line - 1] = json.dumps(data)
    previous, forged = "", []
    for text in lines:
        content = json.loads(text)
        content.pop("#", None) if isinstance(content, dict) else None
        text, previous = chained_line(previous, content) if isinstance(content, dict) else (text + "\n", previous)
        forged.append(text)
    path.write_text("".join(forged))


def _resume(path: Path) -> tuple[int, str, str]:
    return call(president, ["tournament", "--resume", str(path), "-j1", "--json", "-"], seconds=60)


@pytest.mark.parametrize("change, where", [
    (lambda d: d.pop("config"), "field 'config'"),
    (lambda d: d["config"].update(matches=None), None),  # null: taken as "not given", the default applies
    (lambda d: d["config"].update(matches="ten"), "field 'config.matches'"),
    (lambda d: d["config"].update(matches=10**30), "field 'config.matches'"),
    (lambda d: d.update(config=[1, 2]), "field 'config'"),
    (lambda d: d["config"].update(bots="Classic"), "field 'config.bots'"),
    (lambda d: d["config"].update(seed=1.5), "field 'config.seed'"),
    (lambda d: d["config"].update(sprt_p0=float("nan")), "field 'config.sprt_p0'"),
])
def test_a_header_of_the_wrong_shape_is_a_located_error(journal, change, where):
    _edit(journal, 1, change)
    code, out, err = _resume(journal)
    assert_clean(code, out, err, ["--resume"])
    if where is None:
        assert code in (0, 2), err
    else:
        assert code == 3 and f"t.jsonl:1:1: error: {where}" in err, err


def test_a_deeply_nested_header_is_an_error_not_a_recursion_error(journal):
    lines = journal.read_text().splitlines()
    lines[0] = "[" * 100_000 + "]" * 100_000
    journal.write_text("\n".join(lines) + "\n")
    code, out, err = _resume(journal)
    assert code == 2 and "not a tournament results file" in err
    assert_clean(code, out, err, ["--resume"])


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(deal=10**6), "field 'deal': expected a whole number 0..0"),
    (lambda d: d.update(places=[]), "field 'places': expected a list of 1..100,000 items"),
    (lambda d: d.update(seats=[0] * len(d["seats"])), "game 1 is not the game this tournament plays"),
    (lambda d: d.update(points=[[None] * len(d["seats"])]), "field 'points[0][0]': expected a finite number"),
    (lambda d: d.update(places=[[0] * len(d["seats"])]), "field 'places[0][0]'"),
    (lambda d: d.update(game="3"), "field 'game'"),
    (lambda d: d.update(places=[[[[[1]]]]]), "field 'places[0]'"),
    (lambda d: d.update(game=10**6), "field 'game'"),
])
def test_an_edited_game_line_is_a_located_error(journal, change, message):
    _edit(journal, 3, change)
    code, out, err = _resume(journal)
    assert code == 3 and f"t.jsonl:3:1: error: {message}" in err, err
    assert_clean(code, out, err, ["--resume"])


def test_trailing_blank_lines_keep_a_journal_resumable(journal, tmp_path):
    reference = json.loads((tmp_path / "ref.json").read_text())
    journal.write_text(journal.read_text() + "\n\n")
    code, out, err = _resume(journal)
    assert code == 0, err
    resumed = json.loads(out)
    assert resumed["games"] == reference["games"] and resumed["bots"] == reference["bots"]
    assert journal.read_text().endswith("}\n")  # the blank lines are gone, nothing else


# ---- transcripts -----------------------------------------------------------------------------------------------
def _run_with_transcripts(game: str, folder: Path) -> list[Path]:
    code, _, err = call(recycle, ["run", game, "--games", "1", "--seed", "2", "--transcript", str(folder)])
    assert code == 0, err
    return sorted(folder.glob("*.jsonl"))


def test_a_transcript_names_a_shipped_game_by_name(tmp_path):
    [transcript] = _run_with_transcripts("President5", tmp_path / "t")
    assert json.loads(transcript.read_text().splitlines()[0])["file"] == "President5"
    moved = tmp_path / "elsewhere" / transcript.name
    moved.parent.mkdir()
    shutil.move(transcript, moved)
    code, out, err = call(recycle, ["replay", str(moved)])
    assert code == 0 and "reproduced" in out, err + out


def test_a_transcript_finds_its_game_relative_to_itself(tmp_path):
    project = tmp_path / "project"
    (project / "games").mkdir(parents=True)
    shutil.copy(game_path("President5"), project / "games" / "Mine5.gdl")
    [transcript] = _run_with_transcripts(str(project / "games" / "Mine5.gdl"), project / "runs")
    assert json.loads(transcript.read_text().splitlines()[0])["file"] == "../games/Mine5.gdl"
    shutil.move(project, tmp_path / "moved")  # the whole folder moves, as a venv or a checkout does
    code, out, err = call(recycle, ["replay", str(tmp_path / "moved" / "runs" / transcript.name)])
    assert code == 0 and "reproduced" in out, err + out


@pytest.mark.parametrize("line, text, message", [
    (1, '{"t": "game", "file": null, "seed": 1}', "field 'file': expected a string"),
    (1, '{"t": "game", "file": "President5", "seed": "1"}', "field 'seed': expected a whole number"),
    (1, '{"t": "game", "file": "President5"}', "field 'seed': expected this field"),
    (1, '[1, 2]', "the line: expected an object"),
    (1, '{"t": "choice"}', 'field \'t\': expected "game"'),
    (2, '{"t": "choice", "action": 7}', "field 'action': expected a string"),
    (2, '{"x": 1}', "field 't'"),
    (2, "[" * 50_000 + "]" * 50_000, "nested too deeply"),
    (2, '{"t": "move", "n": 1' + "0" * 5000 + "}", "not JSON"),
])
def test_a_transcript_of_the_wrong_shape_is_a_located_error(tmp_path, line, text, message):
    [transcript] = _run_with_transcripts("President5", tmp_path)
    lines = transcript.read_text().splitlines()
    lines[line - 1] = text
    transcript.write_text("\n".join(lines) + "\n")
    code, out, err = call(recycle, ["replay", str(transcript)])
    assert code == 3 and f"{transcript.name}:{line}:" in err and message in err, err
    assert_clean(code, out, err, ["replay"])
