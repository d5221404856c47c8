"""Driving `PlayApp` from Textual's Pilot: for the tests, the docs screenshots and demos.

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)                          # the bots have moved up to my turn
        await play_to_end(pilot, random.Random(1))   # random options until the game is over
"""
from __future__ import annotations

import asyncio
import random
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.pilot import Pilot


def ended(app) -> bool:
    """Is the game-over (or game-error) dialog up?"""
    from tui.anygame.app import ErrorScreen, GameOverScreen

    return isinstance(app.screen, (GameOverScreen, ErrorScreen))


def my_turn(app) -> bool:
    table = app.table
    return table.is_current and table.thinking is None and app.session.human_turn()


async def settle(pilot: Pilot, seconds: float = 60.0) -> None:
    """Wait until the bots have moved: my turn, or the game over."""
    app = pilot.app
    deadline = time.monotonic() + seconds
    while not (my_turn(app) or ended(app)):
        if time.monotonic() > deadline:
            raise TimeoutError("the bots never stopped thinking")
        await asyncio.sleep(0.001)  # bots think in worker threads; their results come as messages
    await pilot.pause()


async def choose_by_keys(pilot: Pilot, rng: random.Random) -> None:
    """Take a random option the way a person would: its digit among the first nine listed,
    else arrows down the list and enter."""
    table = pilot.app.table
    k = rng.randrange(len(table.shown))
    if k < 9:
        await pilot.press(str(k + 1))
    else:
        table.query_one("#options").focus()
        await pilot.press("home", *["down"] * k, "enter")


async def play_to_end(pilot: Pilot, rng: random.Random, by_keys: int = 2, seconds: float = 120.0) -> int:
    """Take random options on my turns until the game is over; the first `by_keys` by key presses,
    the rest through the screen's own `take` (as the keys do, without a key's round trip).
    Returns how many choices I made."""
    app = pilot.app
    deadline = time.monotonic() + seconds
    mine = 0
    while not ended(app):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the game did not end within {seconds} s")
        if not my_turn(app):
            await asyncio.sleep(0.001)
            continue
        if mine < by_keys:
            await choose_by_keys(pilot, rng)
        else:
            table = app.table
            table.take(table.shown[rng.randrange(len(table.shown))].index)
        mine += 1
    await pilot.pause()
    return mine
