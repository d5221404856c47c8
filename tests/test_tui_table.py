"""The President table as a person meets it: the layout at each terminal size, the trick and the
status line, the end of a match, edited personalities, the debug list, and `play` without a terminal."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from president.game.settings import preset
from tui.president.options import MatchOptions
from tui.president.pilot import play_match, play_round, screen_text, settle, simple_keys
from tui.president.session import HUMAN, Session
from tui.president.wording import card_label

SIZES = [(80, 24), (100, 30), (120, 40), (160, 50)]
MY_COPY = "; My Classic: always the highest cards.\nH*\n"


def make_app(tmp_path, seed: int = 1, settings=None, **overrides):
    from tui.president.app import PresidentApp

    options = MatchOptions(settings or preset("classic"), seed, rules_dir=tmp_path / "rules",
                           **({"delay": 0} | overrides))
    return PresidentApp(options)


def run(scenario) -> None:
    asyncio.run(scenario())


def visible(app, selector: str) -> bool:
    """The widget is displayed, not empty, and wholly inside the terminal."""
    widget = app.screen.query_one(selector)
    return widget.display and widget.region.area > 0 and app.screen.region.contains_region(widget.region)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_everything_needed_to_play_is_visible_at_each_size(tmp_path, size):
    from tui.president.widgets import HandView

    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            session, text = app.session, screen_text(app)
            assert session.human_turn() and session.trick
            for p in range(1, session.settings.players):
                assert visible(app, f"#seat-{p}") and session.names[p] in text
                assert f"▮ {session.state.sizes[p]}" in text  # the hidden hand and its count
            assert visible(app, "#felt") and visible(app, "#hand") and visible(app, "#message")
            for turn in session.trick:  # every turn of the trick, with suits
                assert all(card_label(c) in text for c in turn.cards) and session.names[turn.player] in text
            hand = app.screen.query_one(HandView)
            assert hand.compact_row == 0 and all(card_label(c) in text for c in hand.cards)
            assert "▲" in text and "Your turn: answer" in text and "thinking…" not in text  # drawn from now
            assert visible(app, "#log") == (size[0] >= 110)  # the sidebar only when wide

    run(scenario)


def test_the_revolution_and_jokers_are_shown_when_the_variant_has_them(tmp_path):
    from tui.president.widgets import HandView

    app = make_app(tmp_path, settings=preset("daifugo"))

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            text = screen_text(app)
            unplayed = 2 - app.session.state.played_counts[16]
            assert f"revolution: off · jokers: {unplayed} unplayed" in text
            app.session.state.reversed = True  # as after four of a kind: the felt says so at once
            app.table.refresh_table()
            await pilot.pause()
            assert "REVOLUTION: low cards win" in screen_text(app)
            faces = app.table.query_one(HandView).faces
            assert all(f.color == "magenta" for f in faces if f.rank == "Jk")

    run(scenario)


def test_classic_shows_no_variant_state(tmp_path):
    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            text = screen_text(app)
            assert "revolution" not in text.lower() and "jokers:" not in text
            assert "▶ You" in text and "▶ your turn" in text  # the player to move, marked

    run(scenario)


def test_scores_and_log_fold_behind_a_key_when_narrow(tmp_path):
    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert not visible(app, "#log")
            await pilot.press("l")
            assert visible(app, "#log") and visible(app, "#score") and "Ada plays" in screen_text(app)
            await pilot.press("l")
            assert not visible(app, "#log")
            assert app.session.human_turn()  # l is not a card key: nothing was played

    run(scenario)


def test_too_small_a_terminal_says_so_and_the_table_comes_back(tmp_path):
    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot)
            assert "terminal too small (need 70x22" in screen_text(app)
            hand = list(app.session.state.hand(HUMAN))
            await pilot.press("3", "space", "enter", "p")  # no card is played blind
            assert app.session.state.hand(HUMAN) == hand
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            text = screen_text(app)
            assert "too small" not in text and "Your turn" in text and visible(app, "#hand")
            await pilot.resize_terminal(79, 21)
            await pilot.pause()
            assert "terminal too small" in screen_text(app)

    run(scenario)


def i_am_skipped_in_round_one(seed: int) -> bool:
    """Round 1 with `play_round`'s strategy, without the app (the same seeds and rngs):
    is my turn ever skipped by an equal-value play?"""
    from president.game.cards import PASS

    session = Session(MatchOptions(preset("classic"), seed, delay=0))
    while not session.results:
        job = session.bot_job()
        if job is not None:
            decision = job.run()
            session.apply(job.player, decision.action, decision.trace)
        else:
            legal = session.state.legal_actions()
            plays = sorted((a for a in legal if not a.is_pass and not a.jokers), key=lambda a: (a.value, -a.count))
            session.apply(0, PASS if not plays else plays[0])
        if any(t.player == HUMAN and t.note == "skipped" for t in session.trick + session.last_trick):
            return True
    return False


def seed_where_i_am_skipped() -> int:
    return next(seed for seed in range(1, 80) if i_am_skipped_in_round_one(seed))


def test_the_status_line_follows_the_game_after_an_equal_value_skip(tmp_path):
    from tui.president.table import TableScreen

    app = make_app(tmp_path, seed_where_i_am_skipped())
    said: list[tuple[bool, str]] = []
    original = TableScreen.show_status

    def spy(self):
        original(self)
        said.append((self.session.human_turn(), (self.note or (self.status_text(), False))[0]))

    async def scenario():
        TableScreen.show_status = spy
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await play_round(pilot)
        finally:
            TableScreen.show_status = original
        assert any("You are skipped (equal value)" in text for _, text in said)
        assert not [text for mine, text in said if not mine and ("Your turn" in text or "Your lead" in text)]

    run(scenario)


def test_a_selection_is_cleared_by_playing_it_and_the_wording_is_plain(tmp_path):
    from tui.president.widgets import HandView

    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            hand = app.screen.query_one(HandView)
            keys = simple_keys(app)
            assert keys != ["p"]
            await pilot.press(keys[0])
            assert hand.selected and "enter plays them" in screen_text(app)
            await pilot.press("enter")
            await settle(pilot)
            assert not hand.selected and "selected" not in screen_text(app)
            text = screen_text(app)
            assert "1 cards" not in text and "card(s)" not in text and "plays give" not in text

    run(scenario)


@pytest.mark.slow
def test_the_final_standings_then_play_again(tmp_path):
    from tui.president.result import FinalScreen

    app = make_app(tmp_path, seed=2, settings=preset("classic").with_overrides({"rounds": "2"}))

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await play_match(pilot)
            assert isinstance(app.screen, FinalScreen)
            session = app.session
            text = screen_text(app)
            standings = session.standings()
            points = [row.points for row in standings]
            assert points == sorted(points, reverse=True) and "Final standings" in text
            assert [row.points for row in standings] == sorted(session.state.scores, reverse=True)
            for row in standings:
                assert " ".join(map(str, row.places)) in text and len(row.places) == 2
            assert "President most often" in text and "Play again" in text and "New match" in text
            await pilot.press("a")
            await settle(pilot)
            again = app.session
            assert again is not session and again.options.seed == session.options.seed + 1
            assert again.specs == session.specs and again.round_number == 1 and not again.over

    run(scenario)


@pytest.mark.parametrize("key", ["n", "q"])
def test_the_final_standings_offer_a_new_match_and_quit(tmp_path, key):
    from tui.president.newmatch import NewMatchScreen

    app = make_app(tmp_path, settings=preset("classic").with_overrides({"rounds": "1"}))

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await play_match(pilot)
            await pilot.press(key)
            await pilot.pause()
            if key == "n":
                assert isinstance(app.screen, NewMatchScreen)
                await pilot.press("escape")
                assert app.session.over and "The match is over" in screen_text(app)
                await pilot.press("ctrl+q")
        assert app.return_code == 0 and not app.is_running

    run(scenario)


def test_new_match_dialog_focuses_its_first_field_and_notes_rotation_only_when_it_applies(tmp_path):
    from textual.widgets import Input

    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("n")
            await pilot.pause()
            assert app.focused.id == "bot-1"
            note = app.screen.query_one("#rotation")
            assert not note.display
            assert str(app.screen.query_one("#rules-folder").content).startswith("Your .rul files: ")
            app.screen.query_one("#settings", Input).value = "players=7"
            await pilot.pause()
            assert note.display and "repeat in rotation" in str(note.content)

    run(scenario)


def test_the_debug_list_keeps_the_whole_match_and_filters_by_player(tmp_path):
    from tui.shared.traceview import DebugScreen

    app = make_app(tmp_path, seed=3)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await play_round(pilot, passive=True)
            await pilot.press("enter")
            for _ in range(50):  # into round 2, past the exchange
                await settle(pilot)
                if any(d.round == 2 for d in app.session.decisions) and app.session.human_turn():
                    break
                await pilot.press(*simple_keys(app))
            await pilot.press("d")
            screen = app.screen
            assert isinstance(screen, DebugScreen)
            assert {r.round for r in screen.records} == {1, 2} and len(screen.records) == len(app.session.decisions)
            assert "the whole game from round 1" in screen_text(app)
            await pilot.press("f")
            assert screen.player == 1 and screen.records and all(r.player == 1 for r in screen.records)
            assert f"Ada: {len(screen.records)} of {len(app.session.decisions)}" in screen_text(app)
            for _ in range(app.session.settings.players - 1):
                await pilot.press("f")
            assert screen.player is None and len(screen.records) == len(app.session.decisions)

    run(scenario)


def test_an_edited_copy_is_found_by_every_command_and_marked(tmp_path, user_rules_folder, capsys):
    from argparse import Namespace

    from president.cli.main import main
    from president.cli.common import rules_dirs
    from president.match.tournament import PresidentMatch

    copy = user_rules_folder / "Classic.rul"
    copy.write_text(MY_COPY)
    assert main(["personalities", "--json"]) == 0
    listed = {(e["name"], e["source"]): e for e in json.loads(capsys.readouterr().out)}
    assert listed[("Classic", "shipped")]["replaced"]
    mine = listed[("Classic", str(user_rules_folder))]
    assert mine["edited"] and mine["path"] == str(copy)
    assert main(["personalities"]) == 0
    assert "edited" in capsys.readouterr().out
    assert main(["decide", "Classic", "--hand", "3 5 9"]) == 0
    out = capsys.readouterr().out
    assert "→ 9" in out and "H*" in out  # the copy's rule, not the shipped L*
    assert main(["trace", "Classic", "--round", "1", "--seed", "1"]) == 0
    assert "H*" in capsys.readouterr().out
    bot = PresidentMatch(preset("classic"), rules_dirs(Namespace(rules_dir=None))).bot("Classic")
    assert [str(r) for r in bot.personality.rules] == ["H*"]  # as `tournament` makes its bots

    app = make_app(tmp_path, opponents=("Classic", "Cautious"))

    async def scenario():
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(pilot)
            session = app.session
            assert session.your_copy(1) and not session.your_copy(2)
            assert [str(r) for r in session.agents[1].personality.rules] == ["H*"]
            assert "Classic (your copy)" in screen_text(app)

    run(scenario)


def test_saving_a_shipped_personality_makes_the_seats_play_the_copy(tmp_path, user_rules_folder):
    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(pilot)
            await pilot.press("e", "enter")  # seat 1 · Ada · Classic (shipped)
            await pilot.press("ctrl+s", "escape")
            await settle(pilot)
            assert (user_rules_folder / "Classic.rul").is_file()
            assert app.session.sources[1].path == user_rules_folder / "Classic.rul" and app.session.your_copy(1)
            assert "Classic (your copy)" in screen_text(app)
            messages = " ".join(n.message for n in app._notifications)
            assert "Ada reloaded Classic.rul" in messages

    run(scenario)


def test_play_without_a_terminal_exits_with_a_clear_message():
    done = subprocess.run([sys.executable, "-m", "president.cli.main", "play", "--seed", "1"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "needs a terminal" in done.stderr and "Traceback" not in done.stderr
