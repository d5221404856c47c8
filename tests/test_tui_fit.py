"""The table tells the truth and fits (issue 32): prompts worded from the rules in force, no
instruction cut at 80x24, quitting in sight at every width, Ctrl-C asks, your copy reverted.
"""
from __future__ import annotations

import asyncio
import random
import re

import pytest

from personalities.catalog import NothingToRevert, locate, revert_copy, shipped_text
from president.game.cards import play_of
from president.agents.levels import SEARCH
from president.game.settings import EqualValue, preset
from president.game.state import Phase, PresidentState
from recycle.kernel.protocol import IllegalAction
from tui.president.options import MatchOptions
from tui.president.pilot import give_keys, play_round, screen_text, settle, simple_keys
from tui.president.prompts import follow_prompt, lead_prompt

SMALL = (80, 24)


def make_app(tmp_path, **overrides):
    from tui.president.app import PresidentApp

    return PresidentApp(MatchOptions(preset("classic"), 1, rules_dir=tmp_path / "rules", **({"delay": 0} | overrides)))


def run(scenario) -> None:
    asyncio.run(scenario())


def flat(text: str) -> str:
    """The screen's words in order, whatever the line breaks (a wrapped line reads on)."""
    return " ".join(text.split())


def shown_whole(app, sentence: str) -> bool:
    return flat(sentence) in flat(screen_text(app))


# ---- prompts from the rules ----------------------------------------------------------------
def a_follow(settings, seed: int = 0) -> PresidentState:
    """A state of the play phase with upcards to answer (random legal plays until there are)."""
    rng = random.Random(seed)
    state = PresidentState.new_match(settings, seed)
    while state.upcards is None or state.phase is not Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("equal", list(EqualValue))
def test_the_prompt_says_what_an_equal_value_does_at_this_table(equal):
    settings = preset("classic").with_overrides({"equal_value": equal.value})
    state = a_follow(settings)
    up = state.upcards
    text = follow_prompt(settings, state)
    assert str(up) in text and "p to pass" in text
    assert ("or equal" in text) == (equal is not EqualValue.NO)
    assert ("skips the next player" in text) == (equal is EqualValue.SKIP)
    # What the words say is what the engine does with an equal set of the right size.
    state.counts[state.current][up.value] = up.count  # (give the player such a set)
    try:
        state.check_play(play_of(up.value, up.count))
        accepted = True
    except IllegalAction:
        accepted = False
    assert accepted == ("or equal" in text)


def test_a_revolution_asks_for_lower_cards_and_jokers_are_mentioned_only_where_played():
    settings = preset("daifugo")
    state = a_follow(settings)
    state.reversed = True
    text = follow_prompt(settings, state)
    assert "lower" in text and "higher" not in text and "Jokers are wild" in text
    assert "joker" not in follow_prompt(preset("classic"), a_follow(preset("classic"))).lower()
    assert "X a joker" in lead_prompt(settings) and "X" not in lead_prompt(preset("classic"))


def test_the_leader_is_never_told_to_pass(tmp_path):
    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=SMALL) as pilot:
            for _ in range(200):  # play until I lead a trick
                await settle(pilot)
                if app.session.human_turn() and app.session.state.upcards is None:
                    break
                await pilot.press(*(give_keys(app) or simple_keys(app)))
            assert app.session.state.upcards is None and app.session.human_turn()
            assert shown_whole(app, lead_prompt(app.session.settings))
            await pilot.press("escape", "enter")  # nothing selected
            text = flat(screen_text(app))
            assert "the leader cannot pass" in text and "press p to pass" not in text

    run(scenario)


# ---- 80x24 ---------------------------------------------------------------------------------
def test_at_80x24_the_prompts_the_exchange_and_the_keys_are_whole(tmp_path):
    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            table = app.table
            assert shown_whole(app, table.status_text()) and "^q Quit" in screen_text(app)
            await play_round(pilot)
            await pilot.press("enter")
            await settle(pilot)
            exchange = app.session.my_exchange()
            assert exchange and shown_whole(app, "exchange: " + "; ".join(exchange))
            assert shown_whole(app, table.status_text())
            assert "…" not in screen_text(app)

    run(scenario)


def test_at_80x24_the_picker_and_the_editor_show_their_whole_instructions(tmp_path, monkeypatch):
    from personalities.catalog import USER_FOLDER_ENV

    monkeypatch.setenv(USER_FOLDER_ENV, str(tmp_path / "user"))
    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await pilot.press("e")
            await pilot.pause()
            assert "Edit which personality?" in screen_text(app) and shown_whole(app, "escape: cancel")
            await pilot.press("enter")
            await pilot.pause()
            assert shown_whole(app, f"ctrl+s saves your copy in {tmp_path / 'user'}")
            assert "^q Quit" in screen_text(app) and "^s Save" in screen_text(app)

    run(scenario)


def test_a_master_opponent_is_named_by_its_level_not_its_spec(tmp_path):
    app = make_app(tmp_path, opponents=(SEARCH, "Expert"), delay=60)  # the search never starts thinking

    async def scenario():
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "master search" in text and "ismcts:" not in text

    run(scenario)


@pytest.mark.parametrize("size", [(70, 22), SMALL, (120, 40)])
def test_quitting_is_in_sight_at_every_width_and_ctrl_c_asks(tmp_path, size):
    app = make_app(tmp_path)
    exits = []

    async def scenario():
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert "^q Quit" in screen_text(app)
            app.exit = lambda *a, **k: exits.append(True)
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert "Quit President?" in screen_text(app) and not exits
            await pilot.press("n")
            await pilot.pause()
            assert "Quit President?" not in screen_text(app) and not exits
            await pilot.press("ctrl+c", "y")
            await pilot.pause()
            assert exits

    run(scenario)


# ---- your copy, and back -------------------------------------------------------------------
def test_revert_deletes_the_copy_that_is_played_and_only_that(tmp_path):
    folder = tmp_path / "user"
    folder.mkdir()
    with pytest.raises(NothingToRevert, match="no edited copy"):
        revert_copy("Classic", (folder,))
    with pytest.raises(NothingToRevert, match="not a shipped personality"):
        revert_copy("Mine", (folder,))
    (folder / "Mine.rul").write_text(shipped_text("Classic"))
    (folder / "classic.rul").write_text(shipped_text("Classic") + "; mine\n")
    assert locate("Classic", (folder,)) == folder / "classic.rul"
    assert revert_copy("CLASSIC", (folder,)) == folder / "classic.rul"
    assert locate("Classic", (folder,)) == "Classic" and (folder / "Mine.rul").exists()


def test_personalities_revert_says_what_it_did(tmp_path, capsys, monkeypatch):
    from personalities.catalog import USER_FOLDER_ENV
    from president.cli.main import main

    monkeypatch.setenv(USER_FOLDER_ENV, str(tmp_path))
    (tmp_path / "Classic.rul").write_text(shipped_text("Classic"))
    assert main(["personalities", "--revert", "classic"]) == 0
    out = flat(capsys.readouterr().out)
    assert f"deleted your copy {tmp_path / 'Classic.rul'}" in out and "the shipped one is played again" in out
    assert main(["personalities", "--revert", "Classic"]) == 2
    assert "no edited copy" in capsys.readouterr().err


def test_the_editor_reverts_your_copy_after_asking_and_the_seat_plays_the_shipped_rules(tmp_path, monkeypatch):
    from personalities.catalog import USER_FOLDER_ENV

    monkeypatch.setenv(USER_FOLDER_ENV, str(tmp_path / "user"))
    app = make_app(tmp_path)
    copy = tmp_path / "user" / "Classic.rul"

    async def scenario():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await pilot.press("e", "enter")  # seat 1 · Ada · Classic (shipped)
            await pilot.pause()
            assert "^o" not in screen_text(app)  # nothing to revert yet
            await pilot.press("end", *" ; mine", "ctrl+s")
            await pilot.pause()
            assert copy.exists() and app.session.sources[1].path == copy and "^o Revert" in screen_text(app)
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert "Delete your copy" in screen_text(app)
            await pilot.press("n")
            await pilot.pause()
            assert copy.exists()
            await pilot.press("ctrl+o", "y")
            await pilot.pause()
            assert not copy.exists() and app.session.sources[1].path is None
            assert "; mine" not in app.screen.query_one("#source").text
            assert re.search(r"shipped, read-only", screen_text(app))

    run(scenario)


def test_a_seat_playing_your_copy_is_named_so_in_the_result_tables(tmp_path, monkeypatch):
    from rich.console import Console

    from personalities.catalog import USER_FOLDER_ENV
    from tui.president.result import result_table, standings_table
    from tui.president.outcomes import RoundResult
    from tui.president.session import Session

    monkeypatch.setenv(USER_FOLDER_ENV, str(tmp_path / "user"))
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "Classic.rul").write_text(shipped_text("Classic"))
    session = Session(MatchOptions(preset("classic"), 1, opponents=("Classic", "Cautious")))
    assert session.bot_name(1) == "Classic (your copy)" and session.bot_name(2) == "Cautious"
    console = Console(width=100, record=True)
    console.print(result_table(session, RoundResult(1, (1, 2, 3, 4, 5), (4, 3, 2, 1, 0), False)))
    console.print(standings_table(session))
    assert console.export_text().count("Classic (your copy)") == 4  # seats 1 and 3, in both tables
