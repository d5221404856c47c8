"""Imitation never ends below a shipped file: the start is the best shipped personality on the training
decisions, and what is learned is kept only when it matches more decisions left out of its learning
(cross-validation, `president/authoring/crossval.py`); a search player's records can fix its budget in
iterations (`president record --iterations N`), so they mean the same on any machine (docs/imitate.md)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from personalities.catalog import shipped
from personalities.matching import Scorer
from personalities.mutation import Candidate
from personalities.records import load_records
from president.authoring.crossval import START_ALONE, cross_validate, fold_rounds
from president.authoring.imitation import imitate
from president.cli.main import main
from president.game.settings import preset
from president.match.recording import fixed_iterations, record_matches, write_records


def test_fixed_iterations_replaces_every_budget_and_the_cap():
    spec = "ismcts:time=1.5,rollout=Classic,cap=2,pool=300"
    assert fixed_iterations(spec, 1500) == "ismcts:iterations=1500,rollout=Classic,pool=300"
    assert fixed_iterations("ismcts:iterations=9,cap=2", 40) == "ismcts:iterations=40"
    assert fixed_iterations("ismcts", 40) == "ismcts:iterations=40"  # a bare search player's name


def test_record_iterations_fixes_the_budget_and_refuses_a_rule_bot(tmp_path, capsys):
    out = tmp_path / "m.jsonl"
    assert main(["record", "ismcts:rollout=Classic,cap=2", "--iterations", "16", "--rounds", "1", "--seed", "3",
                 "--out", str(out)]) == 0
    about, decisions = load_records(out)
    assert about["player"] == "ismcts:iterations=16,rollout=Classic" and decisions
    capsys.readouterr()
    assert main(["record", "Classic", "--iterations", "16", "--rounds", "1", "--out", str(tmp_path / "c.jsonl")]) != 0
    err = capsys.readouterr().err
    assert "not a search player" in err and "Traceback" not in err


def test_folds_are_whole_rounds_and_cover_the_training_once():
    records = list(record_matches("Classic", ["Classic"], preset("classic"), 12, 5))
    cut = fold_rounds(records, 5, seed=1)
    assert len(cut) == 5
    asides = [r for _, aside in cut for r in aside]
    assert sorted(r.where + str(r.round) for r in asides) == sorted(r.where + str(r.round) for r in records)
    for learn, aside in cut:
        assert not {r.round for r in learn} & {r.round for r in aside}


@pytest.fixture(scope="module")
def coin_records(tmp_path_factory):
    """A player without rules (random plays): nothing but chance to learn from."""
    path = tmp_path_factory.mktemp("coin") / "random.jsonl"
    write_records(path, "random", record_matches("random", ["Classic"], preset("classic"), 16, 9))
    return str(path)


@hsettings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_learning_from_chance_never_leaves_the_start_worse_on_left_out_decisions(coin_records, seed):
    """Whatever the seed, the plan kept matches more left-out decisions than the start alone, or is the
    start alone: nothing learned from chance is kept unless it validates."""
    _, records = load_records(coin_records)
    start = Candidate.of(shipped("Classic"), "Classic")
    cv = cross_validate(records, start, seed, supports=(6,))
    plan = cv.best()
    assert plan == START_ALONE or cv.score(plan) > cv.start_score
    for part in plan.parts:  # each group's rules kept only when they beat the start there
        assert part.kept and cv.scores[(plan.placement, part)] > cv.start_scores[part.group] or plan.alone


def test_without_a_start_imitation_begins_at_the_best_shipped_file(tmp_path):
    """Records of Cautious: the start chosen is Cautious, and the file plays as Cautious on held-out rounds."""
    path = tmp_path / "cautious.jsonl"
    write_records(path, "Cautious", record_matches("Cautious", ["Classic"], preset("classic"), 12, 2))
    got = imitate([str(path)], None, "", seed=1, holdout=0.2, budget_seconds=2)
    assert got.start.name == "Cautious" and "started from Cautious" in got.lineage[0]
    held = Scorer(got.records.held_out)
    assert held.matched(got.found.personality) >= held.matched(shipped("Cautious"))
    assert got.cross_validated.total == len(got.records.train)


def test_imitate_reports_the_cross_validated_rate(tmp_path):
    records, out, report = tmp_path / "e.jsonl", tmp_path / "Like.rul", tmp_path / "i.json"
    assert main(["record", "Expert", "--rounds", "15", "--seed", "1", "--out", str(records)]) == 0
    assert main(["imitate", str(records), "--out", str(out), "--seed", "1", "--budget-hours", "0.0005",
                 "--json", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["cross_validated"]["all"]["decisions"] == data["training"]["all"]["decisions"]
    assert data["cross_validated"]["all"]["rate"] >= 0.9
    assert "cross-validated" in out.read_text()
    assert main(["check", str(out)]) == 0


def test_rules_induced_above_a_start_are_grown_for_what_they_add_to_it():
    """Above Beginner, on Classic's decisions: every induced rule, where it decides first, plays the recorded
    play on more of the decisions Beginner got wrong than it breaks of those Beginner got right."""
    import random

    from personalities.evaluator import decide
    from personalities.induction import Features, induce
    from personalities.syntax import Personality

    features = Features(list(record_matches("Classic", ["Classic"], preset("classic"), 15, 3)))
    judge = Scorer(features.records)
    right = judge.mask(shipped("Beginner"))
    found = induce(features, max_rules=6, baseline=right)
    assert found
    covered = 0
    for induced in found:
        alone = Personality("one", induced.rules)
        fires = sum(1 << i for i, r in enumerate(features.records)
                    if decide(alone, r.view, random.Random(0))[1] is not None) & ~covered
        plays = judge.mask(alone)
        assert (fires & plays & ~right).bit_count() > (fires & right & ~plays).bit_count(), induced.rules
        covered |= fires


@pytest.mark.slow
def test_the_budget_is_counted_not_timed_so_the_same_seed_gives_the_same_file_for_any_jobs(tmp_path):
    """`--budget-hours` is counted in decisions replayed (`REPLAYS_PER_SECOND`): a search cut by its budget
    (not stopping on its own) writes the same file however busy the machine, in one process or two."""
    from president.authoring import imitation

    path = tmp_path / "c.jsonl"
    write_records(path, "Classic", record_matches("Classic", ["Classic"], preset("classic"), 12, 6))
    budget = 60 / imitation.REPLAYS_PER_SECOND * 300  # about 60 training decisions a step: a few steps each
    got = [imitate([str(path)], shipped("Beginner"), "Beginner", seed=2, holdout=0.2, budget_seconds=budget, jobs=j)
           for j in (1, 2)]
    assert got[0].found.text == got[1].found.text
    assert got[0].lineage == got[1].lineage
