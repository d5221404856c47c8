"""Screenshots of `recycle play` compared with accepted SVGs (`pytest --snapshot-update` accepts new ones).

Fixed seeds, random bots at delay 0, taken when the bots have played up to my turn, at the
smallest usual terminal (80x24) and a roomy one (120x40, the log beside the table).
"""
from __future__ import annotations

import random
from importlib import resources

import pytest

from recycle.lang import load_game
from tui.anygame.pilot import choose_by_keys, play_to_end, settle
from tui.anygame.session import play_options

GAMES = {name: (lambda name=name: resources.files("recycle.games") / f"{name}.gdl")
         for name in ("Poker5", "Hearts4", "TidesOfTime2")}  # the project's own games: no ../shared needed


def make_app(name: str):
    from tui.anygame.app import PlayApp

    return PlayApp(play_options(load_game(GAMES[name]()), "you,random", None, 5))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_table(snap_compare, name, size):
    assert snap_compare(make_app(name), terminal_size=size, run_before=settle)


def test_hearts_after_three_tricks(snap_compare):
    """The trick on the table, the tricks taken, the log of what the bots did."""
    async def play(pilot):
        await settle(pilot)
        rng = random.Random(4)
        for _ in range(3):
            await choose_by_keys(pilot, rng)
            await settle(pilot)

    assert snap_compare(make_app("Hearts4"), terminal_size=(80, 24), run_before=play)


def test_reasoning_of_rule_bots(snap_compare):
    """`d` at BigTwo4 against rule personalities, hands open: every rule each bot tried."""
    from tui.anygame.app import PlayApp

    app = PlayApp(play_options(load_game(resources.files("recycle.games") / "BigTwo4.gdl"),
                               "you,Classic,Gambler,Classic", None, 2, open_hands=True))

    async def play(pilot):
        await settle(pilot)
        rng = random.Random(1)
        for _ in range(2):
            await choose_by_keys(pilot, rng)
            await settle(pilot)
        await pilot.press("d")

    assert snap_compare(app, terminal_size=(120, 40), run_before=play)


def test_poker_discard_with_two_cards_selected(snap_compare):
    """The discard at Poker5: two cards selected, the options moving them listed first."""
    async def select(pilot):
        await settle(pilot)
        await pilot.press("1")  # no bet
        await settle(pilot)
        await pilot.press("space", "right", "space")

    assert snap_compare(make_app("Poker5"), terminal_size=(80, 24), run_before=select)


def test_reasoning_sealed_while_the_bots_hold_hidden_cards(snap_compare):
    """`d` at Daifugo4 during the game: the decisions as I saw them, the reasoning sealed."""
    from tui.anygame.app import PlayApp

    app = PlayApp(play_options(load_game(resources.files("recycle.games") / "Daifugo4.gdl"),
                               "you,Classic,random,Classic", None, 2))

    async def look(pilot):
        await settle(pilot)
        await choose_by_keys(pilot, random.Random(1))
        await settle(pilot)
        await pilot.press("d")

    assert snap_compare(app, terminal_size=(80, 24), run_before=look)


def test_poker_showdown_lays_down_every_hand(snap_compare):
    """The game over at Poker5: the standings and every hand, shown now that nothing is hidden."""
    async def play(pilot):
        await play_to_end(pilot, random.Random(1))

    assert snap_compare(make_app("Poker5"), terminal_size=(80, 24), run_before=play)


def test_tides_rules_on_question_mark(snap_compare):
    """`?` at TidesOfTime2: the game's own description, how it is scored, the card legend."""
    async def ask(pilot):
        await settle(pilot)
        await pilot.press("question_mark")

    assert snap_compare(make_app("TidesOfTime2"), terminal_size=(80, 24), run_before=ask)
