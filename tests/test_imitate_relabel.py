"""A search player's records relabelled over 4 searches by replaying their rounds (bench/imitate_relabel.py),
and the noise ceiling's majority (bench/imitate_ceilings.py): docs/imitate.md, "The label over four searches, and the ceilings"."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from personalities.records import load_records

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import imitate_ceilings  # noqa: E402
import imitate_relabel  # noqa: E402
from imitate_relabel import SMOKE_BOT, ReplayError, recorded_for_smoke, relabel, relabel_file, reproduced  # noqa: E402

ITERATIONS = 24  # SMOKE_BOT's budget a search


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    assert f"iterations={ITERATIONS}," in SMOKE_BOT
    return recorded_for_smoke(tmp_path_factory.mktemp("rec"), rounds=2, seed=5)


def _position(d) -> dict:
    return {k: v for k, v in d.to_json().items() if k not in ("visits", "searches")}


def test_relabelled_records_keep_every_position_and_play_and_add_two_searches(recorded, tmp_path):
    """The recorded searches are today's (reproduced); the records come back with the same positions and
    plays made, the visits of 4 searches (the recorded 2 among them), and 4 independent plays a position."""
    assert reproduced(recorded)
    again, positions, _ = relabel_file(recorded, tmp_path)
    assert again
    before, after = load_records(recorded), load_records(tmp_path / recorded.name)
    assert after[0]["searches"] == 4 and after[0]["seed"] == before[0]["seed"]
    assert [_position(d) for d in after[1]] == [_position(d) for d in before[1]]
    playing = [(b, a) for b, a in zip(before[1], after[1]) if not a.gift]
    assert len(playing) == positions > 5
    for b, a in playing:
        assert a.searches == 4
        old = {(v.play, v.jokers): v.visits for v in b.visits}
        new = {(v.play, v.jokers): v.visits for v in a.visits}
        assert all(new[k] >= n for k, n in old.items())
        assert sum(new.values()) - sum(old.values()) in (2 * ITERATIONS, 1, 2) or len(new) == 1
    side = [json.loads(x) for x in (tmp_path / (recorded.stem + ".searches.jsonl")).read_text().splitlines()]
    assert len(side) == positions
    for (b, _), d in zip(playing, side):
        assert d["recorded"] and len(d["plays"]) == 4 and len(d["visits"]) == 3
        assert d["plays"][0] == (None if b.play is None else list(b.play))


def test_records_of_another_search_are_labelled_by_new_searches_only(recorded, tmp_path):
    """Visits the search does not reproduce (records made by other code) do not count: four new searches."""
    lines = recorded.read_text().splitlines()
    k = next(i for i, line in enumerate(lines[1:], 1) if '"visits"' in line)
    d = json.loads(lines[k])
    d["visits"][0][2] += 1
    lines[k] = json.dumps(d)
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join(lines) + "\n")
    assert not reproduced(other)
    _, records, alone = relabel(other, recorded=False)
    assert alone and all(not a["recorded"] and len(a["plays"]) == len(a["visits"]) == 4 for a in alone)
    assert all(sum(v.visits for v in r.visits) in (4 * ITERATIONS, 4) or len(r.visits) == 1
               for r in records if not r.gift)


def test_a_replay_that_meets_another_position_stops(recorded, tmp_path):
    lines = recorded.read_text().splitlines()
    head = json.loads(lines[0])
    head["seed"] += 1  # other deals: the first position differs
    other = tmp_path / "moved.jsonl"
    other.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    with pytest.raises(ReplayError, match="not the recorded one"):
        relabel(other, recorded=True)


@given(st.lists(st.sampled_from("abcd"), min_size=1, max_size=6))
def test_the_majority_is_the_most_frequent_play_ties_broken_by_the_first(plays):
    best = imitate_ceilings.majority(plays)
    counts = {p: plays.count(p) for p in plays}
    assert counts[best] == max(counts.values())
    assert plays.index(best) == min(plays.index(p) for p in counts if counts[p] == counts[best])


def test_the_scripts_print_figures_in_smoke_mode(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["imitate_ceilings.py", "--smoke"])
    imitate_ceilings.main()
    out = capsys.readouterr().out
    assert "two single searches agree" in out and "Cautious" in out and "%" in out
    monkeypatch.setattr(sys, "argv", ["imitate_relabel.py", "--smoke"])
    imitate_relabel.main()
    assert "preferred play changed in" in capsys.readouterr().out
