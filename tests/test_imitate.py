"""Decision records and `president imitate` (docs/imitate.md): the format, its loader, recording any bot,
the table saving the person's decisions, and a .rul file learned from records."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from personalities.catalog import shipped
from personalities.matching import Scorer
from personalities.reader import load_personality
from personalities.records import RecordsError, Situation, load_records
from president.cli.main import main
from president.match.recording import record_matches, record_of, write_records
from president.game.settings import preset
from president.game.state import PresidentState
from recycle.kernel.diagnostics import DiagnosticError

HEADER = '{"format": "president-decisions", "version": 1, "player": "x"}\n'
GOOD = ('{"situation":"following","round":1,"seat":0,"hand":[0,0,0,0,0,1,0,0,1,2,2,1,1,1,0,2,0],'
        '"order":[3,4,5,6,7,8,9,10,11,12,13,14,15],"upcards":[9,2],"legal":[[9,2],[10,2],[15,2]],'
        '"can_pass":true,"unseen":[0,0,0,2,4,1,4,4,3,0,2,3,3,3,4,2,0],"opponents":[9,8,8,10],"played":6,'
        '"deck_size":52,"rank":6,"higher_players":0,"jokers_beat_singles":true,"wild_jokers":false,"play":[9,2]}\n')


def records_file(tmp_path, text: str):
    path = tmp_path / "r.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_line_reads_as_the_seats_view_and_its_play(tmp_path):
    head, [d] = load_records(records_file(tmp_path, HEADER + GOOD))
    assert head["player"] == "x" and d.situation is Situation.FOLLOWING
    assert d.view.upcards == (9, 2) and d.play == (9, 2) and d.view.can_pass and d.where.endswith("r.jsonl:2")


@pytest.mark.parametrize("text, message", [
    (GOOD, "r.jsonl:1:1: error: field 'format'"),  # no header: the first line is checked as one
    (HEADER + GOOD.replace('"play":[9,2]', '"play":[8,2]'), "field 'play': [8, 2] is not one of the legal plays"),
    (HEADER + GOOD.replace('"hand":[0,0,0,', '"hand":[0,0,'), "field 'hand'"),
    (HEADER + GOOD.replace('"can_pass":true', '"can_pass":"yes"'), "field 'can_pass': expected true or false"),
    (HEADER + GOOD.replace('"upcards":[9,2]', '"upcards":null'), "field 'upcards'"),
    (HEADER + GOOD.replace('"situation":"following"', '"situation":"bidding"'), "field 'situation'"),
    (HEADER + "{not json\n", "not JSON"),
    (HEADER + GOOD.replace('"play":[9,2]', '"play":null').replace('"can_pass":true', '"can_pass":false'),
     "a pass (null) where passing was not allowed"),
], ids=["no header", "play", "hand", "can_pass", "upcards", "situation", "json", "pass"])
def test_a_bad_line_is_a_located_error(tmp_path, text, message):
    with pytest.raises(DiagnosticError) as error:
        load_records(records_file(tmp_path, text))
    shown = str(error.value)
    assert message in shown and "r.jsonl:" in shown


def test_an_empty_file_and_a_folder_are_refused(tmp_path):
    with pytest.raises(RecordsError, match="empty"):
        load_records(records_file(tmp_path, "\n"))
    with pytest.raises(DiagnosticError, match="cannot read"):
        load_records(tmp_path)


def test_recorded_decisions_read_back_equal_and_replay_the_bots_own_play(tmp_path):
    settings = preset("classic")
    decisions = list(record_matches("Classic", ["Cautious", "Gambler"], settings, 4, seed=3))
    path = tmp_path / "classic.jsonl"
    assert write_records(path, "Classic", iter(decisions), seed=3) == len(decisions) > 20
    head, back = load_records(path)
    assert head["player"] == "Classic" and head["seed"] == 3
    assert [d.to_json() for d in back] == [d.to_json() for d in decisions]
    assert {d.situation for d in back} == set(Situation)  # 4 rounds: exchanges too
    assert Scorer(back).tally(shipped("Classic")).rate == 1.0  # a bot's records are its own plays
    assert Scorer(back).tally(shipped("Gambler")).rate < 0.95


def test_a_record_holds_only_what_the_seat_sees(tmp_path):
    """Two states a seat cannot tell apart give the very same record (the other hands re-dealt)."""
    rng = random.Random(5)
    compared = 0
    for seed in range(6):
        state = PresidentState.new_match(preset("classic"), seed)
        for _ in range(rng.randrange(5, 40)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        p = state.current_player()
        world = state.determinize(p, random.Random(seed))
        assert world.hand(p) == state.hand(p)
        legal = state.legal_actions()
        action = legal[-1]
        mine, theirs = record_of(state.observation(p), legal, action), \
            record_of(world.observation(p), world.legal_actions(), action)
        if mine is None:
            continue
        assert json.dumps(mine.to_json()) == json.dumps(theirs.to_json())
        compared += 1
    assert compared >= 3


def test_record_and_evaluate_on_the_command_line(tmp_path, capsys):
    out, report = tmp_path / "e.jsonl", tmp_path / "e.json"
    assert main(["record", "Expert", "--rounds", "3", "--seed", "4", "--out", str(out)]) == 0
    assert main(["imitate", str(out), "--evaluate", "Expert", "--json", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["all"]["rate"] == 1.0 and data["all"]["decisions"] > 10
    assert data["following"]["interval"][0] > 0.5
    # the playing decisions (what rules decide; a .rul file has no exchange rules) are reported apart
    assert data["playing"]["decisions"] == data["leading"]["decisions"] + data["following"]["decisions"]
    assert "playing" in capsys.readouterr().out
    bad = records_file(tmp_path, HEADER + "{}\n")
    assert main(["imitate", str(bad), "--evaluate", "Expert"]) != 0
    assert "r.jsonl:2" in capsys.readouterr().err


def test_imitate_learns_a_known_personality(tmp_path):
    """From 40 rounds of Classic, starting at Beginner: a file that passes check and plays as Classic does
    on rounds it never saw, written with where each rule came from."""
    train, fresh, out = tmp_path / "c.jsonl", tmp_path / "fresh.jsonl", tmp_path / "Like.rul"
    assert main(["record", "Classic", "--rounds", "40", "--seed", "1", "--out", str(train)]) == 0
    assert main(["record", "Classic", "--rounds", "10", "--seed", "2", "--out", str(fresh)]) == 0
    assert main(["imitate", str(train), "--start", "Beginner", "--out", str(out), "--seed", "1",
                 "--budget-hours", "0.0005", "--json", str(tmp_path / "i.json")]) == 0
    learned = load_personality(out)
    assert learned.description.startswith("Plays like Classic")
    assert "induced from the records" in out.read_text() and "played the recorded play" in out.read_text()
    assert main(["check", str(out)]) == 0
    _, decisions = load_records(fresh)
    assert Scorer(decisions).tally(learned).rate >= 0.93
    assert Scorer(decisions).tally(shipped("Beginner")).rate < 0.93
    report = json.loads((tmp_path / "i.json").read_text())
    assert report["held_out"]["all"]["decisions"] > 0 and report["training"]["all"]["rate"] >= 0.95
    # ...and it plays: a tournament seat
    assert main(["simulate", "--players", f"{out},Classic", "--matches", "1", "--rounds", "1"]) == 0


def test_the_table_saves_the_persons_decisions_unless_told_not_to(tmp_path, user_data_folder):
    from president.game.cards import PASS
    from tui.president.app import PresidentApp
    from tui.president.options import MatchOptions
    from tui.president.pilot import play_round
    from tui.president.session import Session

    table = preset("classic").with_overrides({"players": "3"})
    app = PresidentApp(MatchOptions(table, 3, rules_dir=tmp_path / "rules", delay=0, saving=True))

    async def scenario():
        async with app.run_test(size=(120, 40)) as pilot:
            await play_round(pilot)
    asyncio.run(scenario())
    assert app.session.saving is True
    [saved] = (user_data_folder / "decisions").glob("*.jsonl")
    head, decisions = load_records(saved)
    assert head["player"] == "person" and head["seed"] == 3
    assert decisions and all(d.seat == 0 for d in decisions)
    assert len(decisions) == app.session.decision_log.count
    # the person's records make a personality that plays
    mine = tmp_path / "Me.rul"
    assert main(["imitate", str(saved), "--out", str(mine), "--holdout", "0", "--budget-hours", "0.0002"]) == 0
    assert "Plays like person" in mine.read_text()
    assert main(["simulate", "--players", f"{mine},Classic", "--matches", "1", "--rounds", "1"]) == 0
    saved.unlink()
    # `president play --no-save`: the same round, nothing written
    session = Session(MatchOptions(table, 3, delay=0, saving=False))
    while not session.results:
        job = session.bot_job()
        if job is not None:
            session.apply(job.player, job.run().action)
        else:
            legal = session.state.legal_actions()
            session.apply(0, PASS if PASS in legal else legal[0])
    assert session.saving is False and not list((user_data_folder / "decisions").glob("*.jsonl"))


from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402

ODD = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**12), st.floats(allow_nan=True), st.text(max_size=5),
                st.lists(st.integers(-2, 20), max_size=20), st.lists(st.lists(st.integers(-1, 16), max_size=3),
                                                                      max_size=4), st.dictionaries(st.text(max_size=3),
                                                                                                   st.integers(),
                                                                                                   max_size=2))


def read_or_located_error(tmp_path_factory, data: dict):
    """The one decision of a record file holding `data`, or None when the reader refused it with an error
    located at its line (any other outcome fails the test)."""
    path = tmp_path_factory.mktemp("odd") / "odd.jsonl"
    path.write_text(HEADER + json.dumps(data) + "\n", encoding="utf-8")
    try:
        _, [decision] = load_records(path)
    except DiagnosticError as error:
        assert "odd.jsonl:2:" in str(error)
        return None
    return decision


@hsettings(max_examples=100, deadline=None)
@given(field=st.sampled_from(sorted(json.loads(GOOD))), value=ODD)
def test_any_value_in_any_field_is_read_or_refused_with_a_location(tmp_path_factory, field, value):
    data = json.loads(GOOD)
    data[field] = value
    decision = read_or_located_error(tmp_path_factory, data)
    if decision is not None:  # what was read is usable: a personality decides on it
        Scorer([decision]).tally(shipped("Classic"))


def test_simplifying_never_loses_earn_training_decisions_in_all():
    """Removals that each cost one decision (fewer than `earn`) must not add up past `earn`."""
    from types import SimpleNamespace

    from personalities.mutation import Candidate
    from president.authoring.imitation import Search

    class EachRemovalCostsOne:
        scorer = SimpleNamespace(records=[])  # earn: its smallest, 2
        replays = 0  # never counts: the budget never stops the simplification, only its losses do

        def __init__(self) -> None:
            self.now = 40

        def matched(self, candidates):
            self.now -= 1
            return [self.now] * len(candidates)

    start = Candidate.of(shipped("Classic"), "Classic")
    search = Search(EachRemovalCostsOne(), start, seed=0, replays=1, lineage=[])
    matched, kept = search.simplify((40, start))
    assert 40 - matched < search.earn
    assert kept.personality.rules  # one removal at most: Classic keeps rules
