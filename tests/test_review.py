"""Matches saved at the table, and the coach: `president review` and the review at the end of a round."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from president.cli import main
from president.match.saved import MatchFileError, load, replay_all, saved_matches
import president.match.review
from president.match.review import level_bots, review_round
from president.game.settings import preset
from tui.president.options import MatchOptions
from tui.president.session import HUMAN, Session


#: The levels' bots with the master's search at a test's budget (its own is a second a play).
CHEAP_LEVELS = {spec if not spec.startswith("ismcts") else "ismcts:iterations=40,rollout=Classic,model=on": names
                for spec, names in level_bots().items()}


def play(session: Session, rounds: int | None = None, seed: int = 0) -> Session:
    """I play at random, the bots as the table drives them, until `rounds` rounds are over (or the match)."""
    rng = random.Random(seed)
    while not session.over and (rounds is None or len(session.results) < rounds):
        p = session.state.current_player()
        if p == HUMAN:
            legal = session.state.legal_actions()
            session.apply(HUMAN, legal[rng.randrange(len(legal))])
        else:
            job = session.bot_job()
            decision = job.run()
            session.apply(job.player, decision.action, decision.trace, decision.belief)
    return session


def new_session(saving: bool = True, rounds: str = "2") -> Session:
    return Session(MatchOptions(preset("classic").with_overrides({"rounds": rounds}), 3, delay=0, saving=saving))


def test_a_match_is_saved_each_round_and_replays_to_the_same_state(user_data_folder):
    session = play(new_session(), rounds=1)
    assert session.saving is True
    files = saved_matches()
    assert files == [session.saved_as] and files[0].parent == user_data_folder / "matches"
    record = load(files[0])
    assert replay_all(record).round_log == session.state.round_log
    assert record.beliefs and all(record.actions[i][0] != HUMAN for i in record.beliefs)
    play(session)
    assert saved_matches() == files  # the same file, rewritten
    assert replay_all(load(files[0])).masks == session.state.masks


def test_no_save_saves_nothing(user_data_folder):
    session = play(new_session(saving=False), rounds=1)
    assert session.saving is False and not saved_matches() and not any(user_data_folder.iterdir())


def test_play_has_a_no_save_option():
    from president.cli.main import build_parser

    args = build_parser(["play", "--no-save"]).parse_args(["play", "--no-save"])
    assert args.saving is False


def test_review_of_a_round_lists_my_plays_levels_points_and_beliefs():
    session = play(new_session(), rounds=1)
    review = review_round(load(session.saved_as), 1, random.Random(0), worlds=3, level_specs=CHEAP_LEVELS)
    assert review.places == tuple(session.results[0].places)
    assert review.decisions and all(d.choices[0].points >= c.points for d in review.decisions for c in d.choices)
    chosen = {who for d in review.decisions for c in d.choices for who in c.chosen_by}
    assert {"you", "easy", "normal", "hard", "expert", "master"} <= chosen
    assert {b.player for b in review.beliefs} == {1, 2, 3, 4} and all(0 <= b.right <= 1 for b in review.beliefs)
    text = review.text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "Hands when the play began" in text and "beliefs against the truth" in text
    json.dumps(review.to_json())


def test_only_finished_rounds_are_reviewed():
    """The round being played keeps its hands hidden: it cannot be reviewed until it is over."""
    session = play(new_session(), rounds=1)
    while session.state.current_player() != HUMAN or session.state.round_no != 1:
        job = session.bot_job()
        if job is None:
            session.apply(HUMAN, session.state.legal_actions()[0])
            continue
        session.apply(job.player, job.run().action)
    with pytest.raises(MatchFileError, match="round 2 is not finished"):
        review_round(session.record(), 2, random.Random(0), worlds=1, levels=False)


def test_the_review_command_text_and_json(capsys):
    session = play(new_session(), rounds=1)
    assert main(["review", "--worlds", "2", "--no-levels", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Round 1: you finished" in out and max(len(line) for line in out.splitlines()) <= 80
    assert main(["review", session.saved_as.name, "--round", "1", "--worlds", "2", "--no-levels", "--seed", "1",
                 "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["round"] == 1 and len(data["seats"]) == 5 and data["decisions"]


def test_the_review_command_refuses_in_one_line(capsys, tmp_path):
    assert main(["review"]) != 0
    assert "no saved match" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    assert main(["review", str(bad)]) != 0
    err = capsys.readouterr().err
    assert "not readable as a saved match" in err and "Traceback" not in err


def test_the_result_screen_opens_the_review(tmp_path, monkeypatch):
    from tui.president.app import PresidentApp
    from tui.president.pilot import play_round, screen_text, settle

    monkeypatch.setattr(president.match.review, "level_bots", lambda: CHEAP_LEVELS)
    monkeypatch.setattr(president.match.review, "WORLDS", 2)

    async def scenario():
        app = PresidentApp(MatchOptions(preset("classic"), 1, rules_dir=tmp_path / "rules", delay=0))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await play_round(pilot)
            assert "r: review this round" in screen_text(app)
            await pilot.press("r")
            for _ in range(600):
                await pilot.pause(0.1)
                if "Hands when the play began" in screen_text(app):
                    break
            assert "Hands when the play began" in screen_text(app)
            await pilot.press("escape")

    asyncio.run(scenario())
