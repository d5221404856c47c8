"""An edited copy of a shipped personality (in the per-user folder) is "Classic (your copy)" in every
table, journal and report of the commands: never mistaken for the shipped Classic (issue 32, part 6)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from personalities.catalog import YOUR_COPY, shipped_text, shown_name
from president.cli import main as president
from fuzzing.commands import call
from recycle.cli import main as recycle

COPY = f"Classic {YOUR_COPY}"


@pytest.fixture
def edited(user_rules_folder) -> Path:
    """The editor's save: the shipped Classic with one more comment, in the per-user folder."""
    path = user_rules_folder / "Classic.rul"
    path.write_text(shipped_text("Classic") + "; my change\n", encoding="utf-8")
    return path


def test_a_name_that_finds_the_users_copy_is_shown_as_such(edited, user_rules_folder):
    assert shown_name("Classic", (user_rules_folder,)) == COPY
    assert shown_name("classic", (user_rules_folder,)) == COPY  # names are case-insensitive everywhere
    assert shown_name("Cautious", (user_rules_folder,)) == "Cautious"  # not edited: the shipped one
    assert shown_name("random", (user_rules_folder,)) == "random"


def test_without_a_copy_the_shipped_name_is_unchanged(user_rules_folder):
    assert shown_name("Classic", (user_rules_folder,)) == "Classic"


def test_simulate_names_the_copy_in_its_table_and_json(edited, tmp_path):
    out = tmp_path / "s.json"
    code, text, err = call(president, ["simulate", "--players", "Classic,random", "--rounds", "1", "--matches", "1",
                                       "--seed", "1", "--json", str(out)])
    assert code == 0, err
    assert COPY in json.dumps(json.loads(out.read_text()))


def test_tournament_table_and_journal_name_the_copy(edited, tmp_path):
    journal, report = tmp_path / "t.jsonl", tmp_path / "t.json"
    code, text, err = call(president, ["tournament", "Classic", "random", "--matches", "1", "--rounds", "1",
                                       "--seed", "1", "-j1", "--out", str(journal), "--json", str(report)], 60)
    assert code == 0, err
    assert COPY in text  # the table
    assert json.loads(journal.read_text().splitlines()[0])["config"]["bot_labels"][0] == COPY
    assert [b["bot"] for b in json.loads(report.read_text())["bots"]].count(COPY) == 1


def test_personalities_lists_the_copy_by_that_name(edited):
    code, text, _ = call(president, ["personalities"])
    assert code == 0 and COPY in text


def test_recycle_run_names_the_copy(tmp_path, edited, user_rules_folder):
    out = tmp_path / "r.json"
    code, _, err = call(recycle, ["run", "President5", "--players", "Classic,random", "--games", "1", "--seed", "1",
                                  "--rules-dir", str(user_rules_folder), "--json", str(out)])
    assert code == 0, err
    assert [s["agent"] for s in json.loads(out.read_text())["seats"]][:2] == [COPY, "random"]


def test_evolve_starts_from_the_copy_under_its_name(edited, user_rules_folder):
    from president.cli.commands.evolve import _start

    assert _start("Classic", (user_rules_folder,)).personality.name == COPY
    assert _start("Cautious", (user_rules_folder,)).personality.name == "Cautious"
