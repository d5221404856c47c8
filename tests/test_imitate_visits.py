"""A search player's records keep its root visits (`president record --searches K`), and `imitate` learns and
scores against its preferred play, the most visited over the searches (docs/imitate.md, "Labels")."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from personalities.catalog import shipped
from personalities.matching import Scorer
from personalities.records import Label, Visit, labelled, load_records
from president.cli.main import main
from president.match.recording import record_matches, write_records
from president.game.settings import preset
from recycle.kernel.diagnostics import DiagnosticError

from test_imitate import GOOD, HEADER, read_or_located_error, records_file

#: A quick search player: enough iterations to prefer something, no clock (the same seed, the same search).
QUICK = "ismcts:iterations=24,rollout=Classic"
#: GOOD (upcards a pair of 9s, legal 9s, 10s, 2s or a pass) played with 9s, searched three times: 10s most.
VISITED = GOOD.replace('"play":[9,2]}', '"play":[9,2],"searches":3,"visits":[[9,2,50],[10,2,70],[15,2,0],[0,0,30]]}')


def test_visits_read_back_and_the_most_visited_is_the_preferred_play(tmp_path):
    head, [d] = load_records(records_file(tmp_path, HEADER + VISITED))
    assert d.play == (9, 2) and d.searches == 3
    assert d.visits == (Visit((9, 2), 50), Visit((10, 2), 70), Visit((15, 2), 0), Visit(None, 30))
    assert d.preferred().play == (10, 2) and d.preferred().view == d.view
    assert json.loads(VISITED) == d.to_json()  # written back as read
    tied = VISITED.replace("[10,2,70]", "[10,2,50]")
    assert load_records(records_file(tmp_path, HEADER + tied))[1][0].preferred().play == (9, 2)  # ties: as played


def test_records_without_visits_still_load_and_their_preferred_play_is_the_one_played(tmp_path):
    _, [d] = load_records(records_file(tmp_path, HEADER + GOOD))
    assert d.visits == () and d.searches == 0 and "visits" not in d.to_json()
    assert labelled([d], Label.PREFERRED) == [d]


@pytest.mark.parametrize("text, message", [
    (VISITED.replace("[15,2,0]", "[14,2,0]"), "field 'visits': [14, 2] is not one of the legal plays"),
    (VISITED.replace("[0,0,30]", "[5,0,30]"), "field 'visits': a pass is [0, 0, n]"),
    (VISITED.replace("[0,0,30]", "[0,0,30,1]"), "field 'visits': a pass is [0, 0, n]"),
    (VISITED.replace("[15,2,0]", "[1,1,0,1]"), "field 'visits': [1, 1] is not one of the legal plays"),
    (VISITED.replace('"can_pass":true', '"can_pass":false').replace('"play":[9,2],', '"play":[9,2],'),
     "a pass [0, 0, n] where passing was not allowed"),
    (VISITED.replace("[10,2,70]", "[10,2]"), "field 'visits[1]'"),
    (VISITED.replace('"visits":[[9,2,50],[10,2,70],[15,2,0],[0,0,30]]', '"visits":[]'), "field 'visits'"),
    (GOOD.replace('"play":[9,2]}', '"play":[9,2],"searches":2}'), "field 'searches': given without 'visits'"),
], ids=["illegal", "pass", "pass with a joker", "joker of no value", "no pass", "short", "empty", "searches"])
def test_bad_visits_are_located_errors(tmp_path, text, message):
    with pytest.raises(DiagnosticError) as error:
        load_records(records_file(tmp_path, HEADER + text))
    assert message in str(error.value) and "r.jsonl:2" in str(error.value)


@hsettings(max_examples=60, deadline=None)
@given(visits=st.one_of(st.none(), st.integers(), st.lists(st.lists(st.integers(-2, 20), max_size=5), max_size=6)),
       searches=st.one_of(st.none(), st.integers(-1, 2000)))
def test_any_visits_are_read_or_refused_with_a_location(tmp_path_factory, visits, searches):
    data = json.loads(GOOD)
    for key, value in (("visits", visits), ("searches", searches)):
        if value is not None:
            data[key] = value
    decision = read_or_located_error(tmp_path_factory, data)
    if decision is not None:  # what was read labels a legal play (or a pass), and scores
        preferred = decision.preferred()
        wild = 0 < preferred.jokers <= decision.view.hand[16] and preferred.jokers <= preferred.play[1] \
            and 3 <= preferred.play[0] <= 16
        assert (preferred.play is None and preferred.jokers == 0) or preferred.play in decision.view.legal or wild
        Scorer([preferred]).tally(shipped("Classic"))


def test_searching_more_records_visits_without_changing_the_game(tmp_path):
    """The first search decides with the game's random stream: three searches a position play the same
    game as one; every playing decision keeps the visits of all three, the play made among them."""
    table = preset("classic").with_overrides({"players": "3"})
    once = list(record_matches(QUICK, ["Classic"], table, 1, seed=2))
    thrice = list(record_matches(QUICK, ["Classic"], table, 1, seed=2, searches=3))
    assert [(d.view, d.play, d.gift) for d in once] == [(d.view, d.play, d.gift) for d in thrice]
    playing = [d for d in thrice if d.gift == ()]
    assert playing and all(d.searches == 3 and d.visits for d in playing)
    assert all(sum(v.visits for v in d.visits) >= 3 * 24 or len(d.visits) == 1 for d in playing)
    assert all(any(v.play == d.play and v.visits for v in d.visits) for d in playing)
    assert any(d.preferred().play != d.play for d in playing)  # a search's play is a noisy draw of its preference
    path = tmp_path / "q.jsonl"
    write_records(path, QUICK, iter(thrice), searches=3)
    assert [d.to_json() for d in load_records(path)[1]] == [d.to_json() for d in thrice]


def test_imitate_scores_the_label_asked_for(tmp_path):
    path = records_file(tmp_path, HEADER + VISITED)
    report = tmp_path / "e.json"
    for label, rate in (("played", 1.0), ("preferred", 0.0)):
        assert main(["imitate", str(path), "--evaluate", "Beginner", "--label", label, "--json", str(report)]) == 0
        data = json.loads(report.read_text())
        assert (data["label"], data["all"]["rate"]) == (label, rate)  # Beginner plays the 9s
    assert main(["imitate", str(path), "--evaluate", "Beginner", "--json", str(report)]) == 0
    assert json.loads(report.read_text())["label"] == "preferred"  # the default
