"""Errors that say what to do instead (issue 32, part 8): did-you-mean for every name a user
types, outputs into pipes and `/dev/stdout`, and what a game a personality cannot play takes."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from president.cli import main as president
from fuzzing.commands import call
from recycle.cli import main as recycle
from recycle.cli.arguments import output_file
from recycle.cli.output import write_csv, write_json
from recycle.kernel.suggest import did_you_mean, hint, nearest_names


# ---- did you mean ----------------------------------------------------------------------------------------
def test_the_nearest_name_keeps_its_own_spelling_and_ignores_case():
    assert did_you_mean("clasic", ["Classic", "Cautious", "Expert"]) == "did you mean Classic?"
    assert nearest_names("EXPRET", ["Expert", "Classic"]) == ["Expert"]
    assert hint("zzzz", ["Classic", "Expert"]) == ""  # nothing close: no guess


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=12), min_size=1,
                max_size=8, unique_by=str.lower), st.data())
def test_a_known_name_in_any_case_suggests_itself(names, data):
    name = data.draw(st.sampled_from(names))
    typed = data.draw(st.sampled_from([name, name.lower(), name.upper()]))
    assert did_you_mean(typed, names) == f"did you mean {name}?"


@pytest.mark.parametrize("main, argv, wanted", [
    (president, ["simulat"], "did you mean simulate?"),
    (recycle, ["gmes"], "did you mean games?"),
    (president, ["play", "--level", "expret"], "did you mean expert?"),
    (president, ["simulate", "--players", "Clasic", "--rounds", "1"], "did you mean Classic?"),
    (president, ["simulate", "--players", "Expret", "--rounds", "1"], "did you mean Expert?"),
    (recycle, ["run", "President5", "--players", "ismct"], "did you mean ismcts?"),
    (recycle, ["run", "Pokr5"], "did you mean Poker5?"),
    (president, ["tournament", "Classic", "random", "--game", "Presdent5"], "did you mean President5?"),
    (president, ["simulate", "--preset", "pagatt"], "did you mean pagat?"),
    (president, ["simulate", "--set", "playrs=4"], "did you mean players?"),
    (president, ["simulate", "--set", "joker_mode=wlid"], "did you mean wild?"),
    (president, ["evolve", "Clasic"], "did you mean Classic?"),
])
def test_a_mistyped_name_gets_the_nearest_one(main, argv, wanted, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = call(main, argv)
    assert code == 2 and wanted in err, err


# ---- a personality at a game it cannot play ---------------------------------------------------------------
def test_a_personality_at_a_game_without_a_climbing_view_names_the_agents_that_can():
    code, _, err = call(recycle, ["run", "TidesOfTime2", "--players", "Classic,random", "--games", "1"])
    assert code == 2
    assert "Classic is a President personality" in err and "TidesOfTime2" in err
    for agent in ("random", "ismcts", "tides-seed", "tides-solver"):
        assert agent in err
    assert "--climbing" not in err and ".climbing" not in err  # never: edit the installed package


def test_the_agents_a_game_takes_come_from_the_agent_table():
    from recycle.players import AGENT_FACTORIES, agents_for

    tides = agents_for("TidesOfTime2")
    assert set(tides) == set(AGENT_FACTORIES)
    president5 = agents_for("President5")
    assert "random" in president5 and "tides-seed" not in president5


# ---- outputs: pipes and standard output -------------------------------------------------------------------
def _opened_when_read(pipe: Path) -> None:
    """`output_file` as argparse calls it, once the reader thread is waiting on the pipe (it has just started)."""
    for _ in range(500):
        try:
            assert output_file(str(pipe)) == str(pipe)  # opened now, without waiting
            return
        except argparse.ArgumentTypeError:
            time.sleep(0.01)
    raise AssertionError("the reader never opened the pipe")


def _through_a_pipe(tmp_path: Path, name: str, write) -> str:
    """What a reader of the named pipe `name` got when `write(path)` wrote into it."""
    pipe = tmp_path / name
    os.mkfifo(pipe)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_text()))
    reader.start()
    try:
        _opened_when_read(pipe)
        write(str(pipe))
    finally:
        reader.join(10)
    return got[0]


def test_a_named_pipe_with_a_reader_is_written_to(tmp_path):
    got = _through_a_pipe(tmp_path, "out.json", lambda path: write_json(path, {"seats": [1, 2]}))
    assert json.loads(got) == {"seats": [1, 2]}


def test_a_named_pipe_takes_csv_too(tmp_path):
    got = _through_a_pipe(tmp_path, "out.csv", lambda path: write_csv(path, ["seat", "wins"], [[0, 3]]))
    assert got.splitlines() == ["seat,wins", "0,3"]


def test_a_pipe_nothing_reads_is_refused_at_once(tmp_path):
    pipe = tmp_path / "nobody.json"
    os.mkfifo(pipe)
    code, _, err = call(recycle, ["run", "President5", "--games", "1", "--json", str(pipe)], seconds=10)
    assert code == 2 and "nothing reads from" in err


@pytest.mark.parametrize("option", ["--json", "--csv"])
def test_dev_stdout_into_a_pipe_is_standard_output(option):
    """`--json /dev/stdout | jq`: the machine-readable output alone, the table making way as for `-`."""
    done = subprocess.run([sys.executable, "-m", "recycle.cli.main", "run", "President5", "--games", "1", "--seed", "3",
                           option, "/dev/stdout"], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr
    if option == "--json":
        assert json.loads(done.stdout)["seed"] == 3
    else:
        assert done.stdout.splitlines()[0].startswith("seat,agent")


def test_an_input_that_never_ends_stays_refused():
    code, out, err = call(recycle, ["check", "/dev/zero"], seconds=10)
    assert code in (2, 3) and "regular file" in err + out


def test_recycle_games_says_how_to_play_one_yourself():
    code, out, _ = call(recycle, ["games"])
    assert code == 0 and "recycle play NAME" in " ".join(out.split())


@pytest.mark.parametrize("main, argv, game", [
    (president, ["simulate", "--players", "tides-seed,random", "--rounds", "1"], "President"),
    (recycle, ["run", "President5", "--players", "ismcts:iterations=2,rollout=tides-solver", "--games", "1"],
     "President5"),
])
def test_an_agent_written_for_another_game_is_refused_with_those_that_can(main, argv, game):
    code, _, err = call(main, argv)
    assert code == 2 and "plays TidesOfTime2 only" in err and f"agents that can play {game}: random" in err
    assert "tides-seed," not in err.split("can play")[1]


def test_a_pipe_the_command_never_writes_is_closed_so_its_reader_ends(tmp_path):
    """A command that fails after its output pipe was opened still lets the reading program finish."""
    pipe = tmp_path / "out.json"
    os.mkfifo(pipe)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_text()))
    reader.start()
    try:
        for _ in range(500):  # the reader thread is waiting on the pipe once it has started
            code, _, err = call(recycle, ["run", "Pokr5", "--json", str(pipe)])
            if "nothing reads from" not in err:
                break
            time.sleep(0.01)
        assert code == 2 and "did you mean Poker5?" in err
    finally:
        reader.join(10)
    assert not reader.is_alive() and got == [""]
