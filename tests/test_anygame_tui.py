"""`recycle play`: the Textual table of any RECYCLE game, driven with Pilot.

Bots are `random` (or small fixed-iteration searches) at delay 0 and seeded, so every run plays the same.
"""
from __future__ import annotations

import asyncio
import functools
import random

from conftest import corpus_file

from recycle.cli import main
from recycle.games import game_path
from recycle.interp.transcript import replay
from recycle.lang import load_game
from tui.anygame.app import ErrorScreen, GameOverScreen, PlayApp
from tui.anygame.pilot import choose_by_keys, play_to_end, settle
from tui.anygame.session import play_options
from tui.president.pilot import screen_text
from tui.shared.traceview import DebugScreen


def synchronously(test):
    """Run an async test body with asyncio (the suite has no async test plugin)."""
    @functools.wraps(test)
    def run(*args, **kwargs):
        asyncio.run(test(*args, **kwargs))
    return run


def app_for(path, players="you,random", seed=3, **kw) -> PlayApp:
    return PlayApp(play_options(load_game(path), players, kw.pop("seat", None), seed, **kw))


@synchronously
async def test_hearts_at_80x24_by_keys_and_clicks_to_game_over_and_again(shared_dir, tmp_path):
    target = tmp_path / "hearts.jsonl"
    app = app_for(corpus_file("rcy/Hearts4.rcy"), "you,ismcts:iterations=20,random", transcript=target)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.table
        text = screen_text(app)
        for seen in ("Hearts4", "p1 ismcts", "p2 random", "p3 ismcts", "your turn", "1 play "):
            assert seen in text
        hand = table.query_one("#hand")
        assert len(hand.keys) == 13 and hand.faces[0].label[1] in "♣♦♥♠"
        # A click on a card that only one option moves plays it.
        before = app.session.state.choices
        card = next(k for k in hand.keys if app.session.sole_option(k) is not None)
        index = hand.keys.index(card)
        await pilot.click("#hand", offset=(4 * index + 1, 2))
        assert app.session.state.choices > before
        assert f"p0 you: play {app.session.faces.label(card)}" in app.session.log
        await settle(pilot)
        await choose_by_keys(pilot, random.Random(1))
        await settle(pilot)
        # The bots' decisions as I saw them; their reasoning names their hands: sealed for now.
        await pilot.press("d")
        assert isinstance(app.screen, DebugScreen)
        text = screen_text(app)
        assert "sealed until the game is over" in text and "ISMCTS" not in text and "visits" not in text
        await pilot.press("escape")
        # The log folds behind `l` at 80 columns.
        await pilot.press("l")
        assert table.has_class("-show-log") and "p0 you: play" in screen_text(app)
        await pilot.press("l")
        await play_to_end(pilot, random.Random(2))
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        assert "game over" in text and "p0 you" in text and "(you)" not in text and "recycle replay" in text
        # The game is over: the table shows every card, and the reasoning opens.
        await pilot.press("escape")
        assert "every card shown" in screen_text(app)
        await pilot.press("d")
        assert "sealed" not in screen_text(app)
        await pilot.press("f")  # p1's decisions only
        text = screen_text(app)
        assert app.screen.player == 1 and "ISMCTS" in text and "visits" in text
        await pilot.press("escape")
        report = replay(target)
        assert report.ok and report.choices == app.session.state.choices
        await pilot.press("n")
        await settle(pilot)
        assert app.session.number == 2 and app.session.options.seed == 4
        assert "game 2 · seed 4" in screen_text(app)


@synchronously
async def test_poker_selected_cards_filter_the_discard_options():
    app = app_for(game_path("Poker5"), seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        while not any(o.cards for o in app.session.options_now()):  # bet first: take "pass"
            await pilot.press("1")
            await settle(pilot)
        table = app.table
        everything = len(table.shown)
        await pilot.press("right", "space")
        hand = table.query_one("#hand")
        picked = hand.keys[1]
        assert hand.selected_keys() == [picked]
        assert 1 < len(table.shown) < everything and all(picked in o.cards for o in table.shown)
        assert table.shown[0].cards == (picked,)  # the option moving exactly my selection comes first
        assert "options" in screen_text(app) and f"{len(table.shown)} of {everything}" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert f"p0 you: discard {app.session.faces.label(picked)}" in app.session.log


@synchronously
async def test_a_game_failing_while_playing_shows_its_located_error_and_quits_cleanly():
    app = app_for(corpus_file("gdl/StealingBundles5.gdl"), seed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_end(pilot, random.Random(0))
        assert isinstance(app.screen, ErrorScreen)
        assert "StealingBundles5.gdl:30:" in screen_text(app) and "nothing to move" in screen_text(app)
        await pilot.press("q")
    assert app.return_code == 0


def test_a_file_that_does_not_load_prints_its_located_error(tmp_path, capsys):
    bad = tmp_path / "Broken2.gdl"
    bad.write_text("(game\n (setup (create players 2))\n (stage player (end (== 1 1)) (choice (oops))))\n")
    assert main(["play", str(bad)]) == 3
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "^" in err and "Traceback" not in err


def test_bad_seats_and_no_terminal_are_one_line_errors(capsys):
    assert main(["play", "Poker5", "--players", "you,you"]) == 2
    assert "one person plays" in capsys.readouterr().err
    assert main(["play", "Poker5", "--players", "you,nosuchbot"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["play", "Poker5", "--seed", "1"]) == 2  # pytest's stdin is not a terminal
    assert "needs a terminal" in capsys.readouterr().err


@synchronously
async def test_too_small_a_terminal_says_so_ignores_game_keys_and_recovers():
    app = app_for(game_path("Poker5"), seed=2)
    async with app.run_test(size=(50, 18)) as pilot:
        await settle(pilot)
        assert "terminal too small (need 60x20" in screen_text(app)
        await pilot.press("1")
        assert app.session.state.choices == 0
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "your turn" in screen_text(app) and "too small" not in screen_text(app)
        await pilot.press("1")
        assert app.session.state.choices >= 1
        assert any(line.startswith("p0 you: ") for line in app.session.log)


@synchronously
async def test_the_game_opens_with_its_description_and_the_bots_wait_for_me_to_read_it():
    app = PlayApp(play_options(load_game(game_path("Daifugo4")), "random,you", None, 3), about_first=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Dai Fugo / Dai Hinmin" in text and "pagat.com" in text
        await asyncio.sleep(0.2)
        assert app.session.state.choices == 0  # the bot to move first has not moved behind the dialog
        await pilot.press("escape")
        await settle(pilot)
        assert app.session.state.choices >= 1 and "score: your SCORE; the highest wins" in screen_text(app)
        await pilot.press("question_mark")
        assert "Dai Fugo / Dai Hinmin" in screen_text(app)


@synchronously
async def test_poker_encodings_stay_off_the_table_and_are_on_the_values_screen():
    app = app_for(game_path("Poker5"), "you,random", seed=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await play_to_end(pilot, random.Random(1))
        text = screen_text(app)
        assert "p1 random HAND " in text  # the showdown: every hand laid down
        await pilot.press("escape")
        text = screen_text(app)
        assert "every card shown" in text and "CHIPS" in text and "POINTS" not in text and "TIE" not in text
        await pilot.press("v")
        text = screen_text(app)
        assert "POINTS" in text and "CHIPS" in text
