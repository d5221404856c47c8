"""`president evolve`: valid mutations, the paired test's error rates, resume and -j determinism."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from personalities.catalog import shipped, shipped_names
from personalities.mutation import Candidate, Mutator
from personalities.reader import check_text, parse_personality
from president.cli import main
from president.authoring.evolution import Paired

DONORS = [(rule, f"{name} line {rule.line}") for name in shipped_names() for rule in shipped(name).rules]
TINY = ["--generations", "2", "--population", "2", "--deals", "3", "--rounds", "1", "--seed", "4",
        "--against", "Cautious,Gambler,Counter,Aggressive,TwoHoarder,Beginner"]  # more than a table seats


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(shipped_names()), st.integers(0, 2**32 - 1))
def test_every_mutation_is_a_file_check_accepts(name, seed):
    rng = random.Random(seed)
    mutator = Mutator(DONORS)
    candidate = Candidate.of(shipped(name), name)
    for generation in range(30):  # chains of edits, as evolution makes them
        child, what = mutator.mutate(candidate, rng, f"generation {generation}")
        errors = [d for d in check_text(child.text) if d.severity.name == "ERROR"]
        assert not errors, (what, child.text, errors)
        assert parse_personality(child.text).rules == child.personality.rules
        assert len(child.origins) == len(child.personality.rules)
        assert all(len(rule.conditions) <= 10 for rule in child.personality.rules)
        candidate = child


def test_mutations_change_the_file_and_say_how():
    rng = random.Random(1)
    mutator = Mutator(DONORS)
    start = Candidate.of(shipped("Classic"), "Classic")
    kinds = set()
    for _ in range(200):
        child, what = mutator.mutate(start, rng, "g1")
        assert child.text != start.text
        kinds.add(what.split(":")[0])
    assert kinds == {"threshold", "comparison", "add condition", "remove condition", "potential",
                     "delete rule", "move rule", "copy rule", "append rule"}


def _streams(rng: random.Random, gain: float, deals: int) -> Paired:
    return Paired(tuple(rng.gauss(gain, 1.0) for _ in range(deals)))


def test_paired_test_error_rates_on_synthetic_streams():
    rng = random.Random(7)
    # No real difference: a child is kept by luck in about alpha of the trials, not more.
    false = sum(_streams(rng, 0.0, 20).better(0.05) for _ in range(4000)) / 4000
    assert 0.035 <= false <= 0.065
    # A real gain of 0.8 standard deviations over 20 deals is found almost always.
    power = sum(_streams(rng, 0.8, 20).better(0.05) for _ in range(1000)) / 1000
    assert power > 0.95
    # A loss is never taken for a gain.
    assert sum(_streams(rng, -0.5, 20).better(0.05) for _ in range(1000)) == 0


def test_paired_interval_and_degenerate_streams():
    assert Paired((0.0, 0.0, 0.0)).better(0.05) is False  # identical play: nothing proven
    assert Paired((0.5, 0.5)).better(0.05) is True  # every deal better by the same amount
    lo, hi = Paired((1.0, 2.0, 3.0)).interval()
    assert lo < 2.0 < hi and hi - 2.0 == pytest.approx(2.0 - lo)


def run_evolve(tmp_path: Path, *argv: str, out: str = "x.rul") -> str:
    assert main(["evolve", *argv, "--out", str(tmp_path / out)]) == 0
    return (tmp_path / out).read_text()


@pytest.mark.slow
def test_resume_after_a_kill_equals_an_uninterrupted_run_and_j2_equals_j1(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    whole = run_evolve(tmp_path, "Classic.rul", *TINY, "--journal", str(tmp_path / "a.jsonl"), out="a.rul")
    assert check_text(whole) == [] or all(d.severity.name != "ERROR" for d in check_text(whole))
    assert "Lineage" in whole and "Fired" in whole and "Field: Cautious, Gambler, Counter" in whole

    # A kill after the first generation: the journal holds the header and one generation.
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    assert json.loads(lines[1])["kind"] == "generation"
    (tmp_path / "b.jsonl").write_text("\n".join(lines[:2]) + "\n")
    resumed = run_evolve(tmp_path, "--resume", str(tmp_path / "b.jsonl"), out="a.rul")
    assert resumed == whole

    parallel = run_evolve(tmp_path, "Classic.rul", *TINY, "-j", "2", "--journal", str(tmp_path / "c.jsonl"),
                          out="a.rul")
    assert parallel == whole


def test_bad_start_and_bad_journal_are_one_line_errors(tmp_path, capsys):
    assert main(["evolve", str(tmp_path / "missing.rul"), "--out", str(tmp_path / "x.rul")]) == 2
    (tmp_path / "j.jsonl").write_text("[1, 2]\n")
    assert main(["evolve", "--resume", str(tmp_path / "j.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "missing.rul" in err and "not an evolve journal" in err and "Traceback" not in err


def test_the_output_folder_may_be_new_but_must_be_creatable(tmp_path):
    import argparse

    from recycle.cli.arguments import new_output_file

    assert new_output_file(str(tmp_path / "evolved" / "deeper" / "x.rul")).endswith("x.rul")
    (tmp_path / "plain").write_text("a file, not a folder")
    with pytest.raises(argparse.ArgumentTypeError):
        new_output_file(str(tmp_path / "plain" / "x.rul"))


def test_a_fifo_given_as_the_journal_is_refused_without_opening_it(tmp_path, capsys):
    import os

    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)  # opening it would block until someone writes (found by the command-line fuzzer)
    assert main(["evolve", "--resume", str(pipe)]) == 3
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.slow
def test_resume_writes_the_original_out_and_nothing_lands_in_the_current_folder(tmp_path, monkeypatch, capsys):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    small = ["--generations", "1", "--population", "1", "--deals", "2", "--rounds", "1", "--seed", "4",
             "--against", "Cautious,Gambler"]
    out = tmp_path / "elsewhere" / "x.rul"
    assert main(["evolve", "Classic", *small, "--out", str(out)]) == 0
    first = out.read_text()
    # a start that evolution did not improve on fresh deals is written unchanged, and said so
    assert "the start is written unchanged" in capsys.readouterr().out.replace("\n", " ")
    journal = tmp_path / "elsewhere" / "x-evolve-4.jsonl"
    assert journal.is_file() and list(here.iterdir()) == []
    # a kill after the header: resumed without --out, the result goes to the run's own --out
    journal.write_text(journal.read_text().splitlines(keepends=True)[0])
    out.unlink()
    assert main(["evolve", "--resume", str(journal)]) == 0
    assert out.read_text() == first and list(here.iterdir()) == []
