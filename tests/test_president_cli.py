"""The `president` command: check, personalities, decide, trace, stats, simulate; errors for people."""
from __future__ import annotations

import csv
import io
import itertools
import json
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from personalities.catalog import shipped, shipped_names
from president.cli.main import main

PRESIDENT = Path(sys.executable).with_name("president")
LOCATION = re.compile(r"^(?P<file>[^\s:]+\.rul):(?P<line>\d+):(?P<col>\d+): error: ", re.M)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str):
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text and 'File "' not in text, text


@pytest.fixture
def rul_files(tmp_path):
    good = tmp_path / "Good.rul"
    good.write_text("; A clean personality.\nLp CardVal < Q\nL*\n", encoding="utf-8")
    bad = tmp_path / "Bad.rul"
    bad.write_text("; Broken.\nLx CardVal < Q\nL TotMy > 1\nL CardVal < Queen\nL*\n", encoding="utf-8")
    warn = tmp_path / "Warn.rul"
    warn.write_text("; Works but not as meant.\nL*\nL*\n", encoding="utf-8")
    never = tmp_path / "Never.rul"  # nobody ever holds more than 13 cards at a 5-player table
    never.write_text("; Stats test.\nK TotMyCards > 20\nL*\n", encoding="utf-8")
    return {"good": good, "bad": bad, "warn": warn, "never": never, "dir": tmp_path}


# --- check ----------------------------------------------------------------------------

def test_check_clean_files_exit_0(capsys, rul_files):
    shipped_paths = [str(resources.files("personalities").joinpath(f"{n}.rul")) for n in shipped_names()]
    code, out, err = run(capsys, "check", str(rul_files["good"]), *shipped_paths)
    assert code == 0, out + err
    assert f"{rul_files['good']}: ok" in out
    assert f"{len(shipped_paths) + 1} file(s): 0 error(s), 0 warning(s)" in out


def test_check_warnings_alone_exit_0(capsys, rul_files):
    code, out, _ = run(capsys, "check", str(rul_files["warn"]))
    assert code == 0
    assert f"{rul_files['warn']}:3:1: warning:" in out
    assert "0 error(s), 1 warning(s)" in out


def test_check_errors_exit_3_with_every_location(capsys, rul_files):
    code, out, err = run(capsys, "check", str(rul_files["bad"]), str(rul_files["good"]))
    assert code == 3
    no_traceback(out, err)
    located = [(Path(m["file"]).name, int(m["line"]), int(m["col"])) for m in LOCATION.finditer(out)]
    assert [(f, line) for f, line, _ in located] == [("Bad.rul", 2), ("Bad.rul", 3), ("Bad.rul", 4)]
    assert located[0][2] == 2  # the `x` of `Lx`
    assert located[1][2] == 3  # `TotMy`
    assert "TotMyCards" in out and "TotMyTwos" in out  # the ambiguous prefix lists both
    assert f"{rul_files['good']}: ok" in out
    assert "2 file(s): 3 error(s)" in out


def test_check_json(capsys, rul_files):
    code, out, _ = run(capsys, "check", "--json", str(rul_files["bad"]))
    assert code == 3
    data = json.loads(out)
    assert [(Path(d["file"]).name, d["line"], d["severity"]) for d in data] == [
        ("Bad.rul", 2, "error"), ("Bad.rul", 3, "error"), ("Bad.rul", 4, "error")]
    assert all({"column", "message", "expected", "hint"} <= set(d) for d in data)
    assert run_json(capsys, "check", "--json", str(rul_files["good"])) == []


def test_check_unreadable_files_exit_3_without_traceback(capsys, rul_files):
    binary = rul_files["dir"] / "Binary.rul"
    binary.write_bytes(b"\xff\xfe L*\n")
    missing = rul_files["dir"] / "Missing.rul"
    code, out, err = run(capsys, "check", str(binary), str(missing), str(rul_files["dir"]))
    assert code == 3
    no_traceback(out, err)
    assert f"{binary}:1:1: error: not UTF-8" in out
    assert f"{missing}:1:1: error: cannot read file" in out
    assert "3 file(s): 3 error(s)" in out


# --- personalities -----------------------------------------------------------------------

def test_personalities_lists_every_shipped_one(capsys):
    code, out, _ = run(capsys, "personalities")
    assert code == 0
    flat = " ".join(out.replace("│", " ").split())
    for name in shipped_names():
        assert re.search(rf"\b{name}\b", out)
        first_words = " ".join(shipped(name).description.split()[:2])  # on the name's line
        assert first_words in flat


def test_personalities_json(capsys):
    data = run_json(capsys, "personalities", "--json")
    assert [d["name"] for d in data] == shipped_names()
    assert len(data) >= 8
    for d in data:
        assert d["description"] == shipped(d["name"]).description and d["description"]
        assert d["source"] == "shipped"


def test_personalities_with_a_rules_dir(capsys, rul_files):
    data = run_json(capsys, "personalities", "--json", "--rules-dir", str(rul_files["dir"]))
    user = {d["name"]: d for d in data if d["source"] != "shipped"}
    assert user["Good"]["description"] == "A clean personality."
    assert user["Bad"]["description"].startswith("(has errors")
    assert [d["name"] for d in data][:len(shipped_names())] == shipped_names()


# --- decide ----------------------------------------------------------------------------------

DECIDE = ["decide", "Classic", "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4", "--seed", "1"]


def test_decide_json_for_the_manual_position(capsys):
    data = run_json(capsys, *DECIDE, "--json", "-")
    assert set(data) >= {"play", "rule_line", "trace"}
    assert data["play"] == ["T", "T"]
    assert data["rule_line"] == 9  # `Lp CardVal < Q` in Classic.rul
    trace = data["trace"]
    assert trace["personality"] == "Classic" and trace["action"] == "T T" and trace["rule_line"] == 9
    assert trace["situation"]["hand"] == "3 3 8 8 8 9 T T J" and trace["situation"]["upcards"] == "4 4"
    # 52 - 9 in hand - 2 upcards = 41 unseen, shared among the 4 others
    assert trace["situation"]["opponent_counts"] == [11, 10, 10, 10]
    rules = trace["rules"]
    assert [r["line"] for r in rules] == [5, 7, 8, 9]
    assert [r["applies"] for r in rules] == [False, False, False, True]
    assert rules[0]["reason"] == "not held"
    assert rules[1]["reason"].startswith("wrong count") and rules[2]["reason"].startswith("wrong count")
    assert rules[3]["cards"] == "T T" and rules[3]["fired"] is True
    assert rules[3]["conditions"] == [{"condition": "CardVal < Q", "variable": "CardVal", "value": 10,
                                       "verdict": True, "needed": True}]


def test_decide_text_shows_the_trace(capsys):
    code, out, _ = run(capsys, *DECIDE)
    assert code == 0
    assert "Classic" in out and "T T" in out and "✔ fired" in out and "CardVal = 10" in out


def test_decide_with_opponents_played_rank(capsys):
    # 52 cards - 3 in hand - the upcard - 5 played = 43 unseen
    data = run_json(capsys, "decide", "Classic", "--hand", "5 9 K", "--upcards", "7", "--played", "3 3 3 3 4",
                    "--opponents", "12,11,10,10", "--rank", "5", "--higher-players", "2", "--json", "-")
    situation = data["trace"]["situation"]
    assert situation["opponent_counts"] == [12, 11, 10, 10]
    assert situation["rank"] == 5
    assert data["play"] == ["9"] and data["rule_line"] == 11  # `L CardVal < Q`


def test_decide_opponents_must_sum_to_the_unseen_cards(capsys):
    code, out, err = run(capsys, *DECIDE, "--opponents", "3,4")
    assert code == 2
    no_traceback(out, err)
    assert "7" in err and "41" in err and "unseen" in err
    assert out == ""


@pytest.mark.parametrize("bot", ["Classic", "Counter"])
def test_decide_rejects_negative_opponent_counts(capsys, bot):
    code, out, err = run(capsys, "decide", bot, "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4",
                         "--opponents", "42,-1", "--seed", "1", "--json", "-")
    assert code == 2 and out == ""
    assert "opponent" in err and "factorial" not in err


def test_decide_empty_hand_is_a_clear_error(capsys):
    code, out, err = run(capsys, "decide", "Classic", "--hand", "", "--seed", "1")
    assert code == 2
    no_traceback(out, err)
    assert "hand" in err and "min()" not in err


def test_decide_pass_and_lead(capsys):
    data = run_json(capsys, "decide", "Classic", "--hand", "3 4", "--upcards", "K", "--json", "-", "--seed", "2")
    assert data["play"] == "pass" and data["rule_line"] is None
    assert data["trace"]["note"] == "no rule applied: pass"
    data = run_json(capsys, "decide", "Classic", "--hand", "K 2 2", "--json", "-", "--seed", "2")
    assert data["play"] == ["2", "2"] and data["rule_line"] == 5


@pytest.mark.parametrize("argv", [
    ["decide", "ismcts:nonsense=1", "--hand", "3 4"],
    ["decide", "ismcts:iterations=0", "--hand", "3 4"],
    ["decide", "Classic", "--hand", "3 X"],
    ["decide", "Classic", "--hand", "3 3 3 3 3"],
    ["decide", "Classic", "--hand", "3 4", "--upcards", "5 6"],
    ["decide", "Nobody", "--hand", "3 4"],
])
def test_decide_bad_input_is_a_clear_error(capsys, argv):
    code, out, err = run(capsys, *argv, "--seed", "1")
    assert code == 2
    no_traceback(out, err)
    assert err.startswith("error: ")


def test_decide_is_deterministic(capsys):
    first = run(capsys, *DECIDE, "--json", "-")
    assert run(capsys, *DECIDE, "--json", "-") == first


# --- decide with search players and other agents ------------------------------------------------
SEARCH_DECIDE = ["decide", "ismcts:iterations=300", "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4",
                 "--seed", "3", "--json", "-"]
# Legal answers to a pair of fours from that hand (the pair of jacks is not held).
LEGAL_ON_FOURS = ("pass", ["8", "8"], ["T", "T"])


def test_decide_search_player_prints_a_legal_play_with_its_visit_table(capsys):
    data = run_json(capsys, *SEARCH_DECIDE)
    assert data["play"] in LEGAL_ON_FOURS
    trace = data["trace"]
    assert trace["iterations"] == 300 and not trace["cheating"] and not trace["endgame_solver"]
    actions = {c["action"]: c for c in trace["candidates"]}
    assert set(actions) == {"pass", "8 8", "T T"}
    assert sum(c["visits"] for c in actions.values()) == 300
    assert all(0.0 <= c["value"] <= 1.0 for c in actions.values())
    chosen = " ".join(data["play"]) if data["play"] != "pass" else "pass"
    assert trace["action"] == chosen
    assert actions[chosen]["visits"] == max(c["visits"] for c in actions.values())


def test_decide_search_player_same_seed_same_move(capsys):
    first, second = run_json(capsys, *SEARCH_DECIDE), run_json(capsys, *SEARCH_DECIDE)
    for data in (first, second):
        data["trace"].pop("seconds")
    assert first == second


def test_decide_search_player_text_shows_visits_and_values(capsys):
    code, out, _ = run(capsys, *SEARCH_DECIDE[:-2])
    assert code == 0
    assert "visits" in out and "mean value" in out and "300 iterations" in out


def test_decide_shows_the_endgame_solvers_exact_values(capsys):
    # One opponent left holding the three unseen cards (2 2 2): a determined two-player ending.
    played = "3 3 3 3 4 4 4 4 5 5 5 6 6 6 6 7 7 7 8 8 8 8 9 9 9 T T T T J J J J Q Q Q Q K K K A A A A 2"
    data = run_json(capsys, "decide", "ismcts:iterations=300", "--hand", "5 9 K", "--upcards", "7",
                    "--played", played, "--opponents", "3", "--seed", "1", "--json", "-")
    trace = data["trace"]
    assert trace["endgame_solver"] and trace["solver_nodes"] > 0
    assert {c["action"] for c in trace["candidates"]} == {"9", "K", "pass"}
    assert all("exact" in c or "upper_bound" in c for c in trace["candidates"])
    # Three twos against my 5 9 K: every line loses, and the solver knows it.
    assert max(c.get("exact", 0.0) for c in trace["candidates"]) == 0.0


@pytest.mark.parametrize("bot", ["random", "mcts:iterations=100", "pimc:samples=4", "vote:samples=2",
                                 "alphabeta:nodes=2000"])
def test_decide_every_agent_plays_legally(capsys, bot):
    data = run_json(capsys, "decide", bot, "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4", "--seed", "5",
                    "--json", "-")
    assert data["play"] in LEGAL_ON_FOURS
    assert data["trace"]["agent"] == data["agent"]
    if bot.startswith("mcts"):
        assert data["trace"]["cheating"] is True  # it searched the dealt hands and says so


def test_decide_search_player_leads_from_a_large_hand(capsys):
    data = run_json(capsys, "decide", "ismcts:iterations=200", "--hand", "3 4 4 6 7 7 7 9 T J Q K 2",
                    "--seed", "2", "--json", "-")
    held = {"3": 1, "4": 2, "6": 1, "7": 3, "9": 1, "T": 1, "J": 1, "Q": 1, "K": 1, "2": 1}
    assert data["play"] != "pass"
    assert len(set(data["play"])) == 1 and len(data["play"]) <= held[data["play"][0]]


def test_decide_with_a_rul_file(capsys, rul_files):
    data = run_json(capsys, "decide", str(rul_files["good"]), "--hand", "3 3 8 8 8 9 T T J", "--upcards", "4 4",
                    "--json", "-", "--seed", "1")
    assert data["play"] == ["T", "T"] and data["rule_line"] == 2


def test_decide_with_a_bad_rul_file_exits_3(capsys, rul_files):
    code, out, err = run(capsys, "decide", str(rul_files["bad"]), "--hand", "3 4", "--seed", "1")
    assert code == 3
    no_traceback(out, err)
    assert LOCATION.search(err)


# --- trace ---------------------------------------------------------------------------------

def test_trace_json_one_round(capsys):
    everything = run_json(capsys, "trace", "Counter", "--seed", "4", "--rounds", "3", "--json", "-")
    assert {d["round"] for d in everything} == {1, 2, 3}
    two = run_json(capsys, "trace", "Counter", "--seed", "4", "--rounds", "3", "--round", "2", "--json", "-")
    assert two == [d for d in everything if d["round"] == 2] and two
    for d in everything:
        trace = d["trace"]
        assert trace["personality"] == "Counter" and trace["player"] == 0
        assert d["action"] == trace["action"]
        if trace["kind"] == "play":
            fired = [r for r in trace["rules"] if r["fired"]]
            assert (fired[0]["line"] if fired else None) == trace["rule_line"]
            for rule in trace["rules"]:
                assert rule["applies"] == (rule["reason"] is None)
                for c in rule["conditions"]:
                    assert c["variable"] in c["condition"]
        else:
            assert trace["kind"] == "exchange" and d["action"].startswith("give")


def test_trace_text(capsys):
    code, out, _ = run(capsys, "trace", "Classic", "--seed", "4", "--round", "1")
    assert code == 0
    assert "round 1" in out and "Classic (player 0)" in out
    assert re.search(r"(\d+) decision\(s\) of Classic \(seat 0\), seed 4", out)


def test_trace_is_deterministic(capsys):
    argv = ["trace", "Gambler", "--seed", "9", "--rounds", "2", "--opponents", "Gambler,Counter", "--json", "-"]
    first = run(capsys, *argv)
    assert first[0] == 0 and run(capsys, *argv) == first


# --- stats ---------------------------------------------------------------------------------

def test_stats_lists_rules_that_never_fired(capsys, rul_files):
    code, out, _ = run(capsys, "stats", str(rul_files["never"]), "--rounds", "5", "--seed", "1")
    assert code == 0
    assert "never fired: line(s) 2" in out
    assert "K TotMyCards > 20" in out


def test_stats_json(capsys, rul_files):
    data = run_json(capsys, "stats", str(rul_files["never"]), "--rounds", "5", "--seed", "1", "--json", "-")
    assert data["rounds"] == 5
    assert [(r["line"], r["rule"]) for r in data["rules"]] == [(2, "K TotMyCards > 20"), (3, "L*")]
    assert data["rules"][0]["fired"] == 0 and data["rules"][1]["fired"] > 0
    assert data["never_fired"] == [2]
    assert sum(r["fired"] for r in data["rules"]) + sum(data["fallbacks"].values()) == data["decisions"]
    # the only way past L* is holding nothing but twos on the lead, or following: pass
    assert set(data["fallbacks"]) <= {"no rule applied: pass", "no rule applied and I must lead: my weakest legal play"}


def test_stats_shipped_personality_is_deterministic(capsys):
    argv = ["stats", "Cautious", "--rounds", "8", "--seed", "2", "--json", "-"]
    first = run_json(capsys, *argv)
    assert run_json(capsys, *argv) == first
    assert [r["line"] for r in first["rules"]] == [r.line for r in shipped("Cautious").rules]
    assert first["never_fired"] == [r["line"] for r in first["rules"] if r["fired"] == 0]


def test_stats_of_a_non_rule_bot_is_an_error(capsys):
    code, out, err = run(capsys, "stats", "random", "--rounds", "1", "--seed", "1")
    assert code == 2
    no_traceback(out, err)
    assert err.startswith("error: ")


# --- simulate -------------------------------------------------------------------------------

def simulate(capsys, tmp_path, players: str, tag: str, *extra: str):
    json_path, csv_path = tmp_path / f"{tag}.json", tmp_path / f"{tag}.csv"
    code, out, err = run(capsys, "simulate", "--players", players, "--matches", "2", "--seed", "1",
                         "--json", str(json_path), "--csv", str(csv_path), *extra)
    assert code == 0, err
    return out, json.loads(json_path.read_text(encoding="utf-8")), csv_path.read_text(encoding="utf-8")


def test_simulate_writes_json_and_csv(capsys, tmp_path):
    out, data, text = simulate(capsys, tmp_path, "Classic,Counter,random", "a")
    assert "2 match(es), 20 rounds, seed 1" in out
    assert data["seed"] == 1 and data["matches"] == 2 and data["settings"]["players"] == "5"
    seats = data["seats"]
    assert [s["bot"] for s in seats] == ["Classic", "Counter", "random", "Classic", "Counter"]
    for s in seats:
        assert s["rounds"] == 20 and sum(s["places"]) == 20
        assert s["mean_place"] == pytest.approx(sum((k + 1) * c for k, c in enumerate(s["places"])) / 20)
        assert s["mean_points"] == pytest.approx(sum((5 - k - 1) * c for k, c in enumerate(s["places"])) / 20)
    for k in range(5):  # every place is taken by exactly one seat in each round
        assert sum(s["places"][k] for s in seats) == 20
    assert sum(s["match_wins"] for s in seats) == pytest.approx(2)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:8] == ["seat", "bot", "rounds", "place_1", "place_2", "place_3", "place_4", "place_5"]
    assert len(rows) == 6
    for row, s in zip(rows[1:], seats):
        assert row[1] == s["bot"] and int(row[2]) == 20 and [int(x) for x in row[3:8]] == s["places"]


def test_simulate_same_seed_same_output(capsys, tmp_path):
    first = simulate(capsys, tmp_path, "Gambler,Counter", "one")
    second = simulate(capsys, tmp_path, "Gambler,Counter", "two")
    assert first == second


def test_simulate_with_table_options(capsys, tmp_path):
    out, data, _ = simulate(capsys, tmp_path, "Classic,Aggressive,Cautious", "t", "--preset", "pagat",
                            "--set", "players=3", "--rounds", "4")
    assert data["settings"]["players"] == "3" and data["settings"]["equal_value"] == "no"
    assert [s["rounds"] for s in data["seats"]] == [8, 8, 8]


def test_shipped_personalities_simulate_differently(capsys, tmp_path):
    results = {}
    for name in shipped_names():
        _, data, _ = simulate(capsys, tmp_path, name, name)
        results[name] = [(s["places"], s["mean_points"], s["match_wins"]) for s in data["seats"]]
    for a, b in itertools.combinations(shipped_names(), 2):
        assert results[a] != results[b], f"{a} and {b} give the same simulate results"


# --- errors: one line, exit 2, never a traceback ----------------------------------------------

USER_ERRORS = [
    pytest.param(["simulate", "--players", "Nobody"], "unknown bot 'Nobody'", id="unknown-bot"),
    pytest.param(["simulate", "--players", "Classic", "--set", "players=9"], "players must be 3 to 7",
                 id="set-bad-value"),
    pytest.param(["simulate", "--players", "Classic", "--set", "players"], "--set takes key=value",
                 id="set-no-equals"),
    pytest.param(["simulate", "--players", "Classic", "--set", "flavour=on"], "unknown setting 'flavour'",
                 id="set-unknown-key"),
    pytest.param(["simulate", "--players", "Classic", "--set", "revolution=maybe"], "revolution is on or off",
                 id="set-bad-bool"),
    pytest.param(["simulate", "--players", "Classic", "--preset", "nope"], "unknown preset 'nope'",
                 id="bad-preset"),
    pytest.param(["trace", "Nobody"], "unknown bot 'Nobody'", id="trace-unknown-bot"),
    pytest.param(["stats", "Classic", "--preset", "nope"], "unknown preset", id="stats-bad-preset"),
]


@pytest.mark.parametrize(("argv", "message"), USER_ERRORS)
def test_user_errors_exit_2_without_traceback(capsys, argv, message):
    code, out, err = run(capsys, *argv, "--seed", "1")
    assert code == 2
    no_traceback(out, err)
    assert err.startswith("error: ")
    assert message in " ".join(err.split())


@pytest.mark.parametrize(("argv", "message"), USER_ERRORS)
def test_user_errors_are_one_line(capsys, monkeypatch, argv, message):
    monkeypatch.setenv("COLUMNS", "80")  # what a pipe or a standard terminal gets
    code, _, err = run(capsys, *argv, "--seed", "1")
    assert code == 2
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert message in err


def test_no_command_prints_help(capsys):
    code, out, _ = run(capsys)
    assert code == 2 and "simulate" in out and "decide" in out


# --- the installed command, as a user runs it -------------------------------------------------

def _installed(*argv: str) -> subprocess.CompletedProcess:
    if not PRESIDENT.exists():
        pytest.skip(f"no installed president command beside {sys.executable}")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return subprocess.run([str(PRESIDENT), *argv], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          env=env, timeout=60)


def test_installed_decide_json_subprocess():
    done = _installed(*DECIDE, "--json", "-")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["play"] == ["T", "T"] and data["rule_line"] == 9


def test_installed_unknown_bot_subprocess():
    done = _installed("simulate", "--players", "Nobody", "--seed", "1")
    assert done.returncode == 2
    no_traceback(done.stdout, done.stderr)
    assert done.stderr.startswith("error: unknown bot 'Nobody'")
