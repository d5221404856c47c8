"""Driving the app from Textual's Pilot: for the tests, the docs screenshots and demos.

    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)                    # the bots have played up to my turn
        await pilot.press(value_key(3), "enter")
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from president.game.cards import JOKER, Play, value_text

if TYPE_CHECKING:
    from textual.pilot import Pilot


def value_key(value: int) -> str:
    """The key that selects cards of `value` on the table screen."""
    return "x" if value == JOKER else value_text(value).lower()


async def settle(pilot: "Pilot", limit: int = 2000) -> None:
    """Wait until no bot is thinking: the human's turn, a round result, or another screen shown."""
    app = pilot.app
    for _ in range(limit):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.table.thinking is None and not any(w.group == "bots" for w in app.workers):  # type: ignore
            return
    raise TimeoutError("the bots never stopped thinking")


def screen_text(app) -> str:
    """The screen as plain text, the way it is drawn (modal dialogs over the screen below)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def simple_keys(app, passive: bool = False) -> list[str]:
    """Keys for a plain strategy: lead all cards of my lowest value, follow as low as I can
    (or never, when `passive`), else pass."""
    session = app.session
    legal = session.state.legal_actions()
    if session.giving():
        return []  # the exchange is not a play: callers choose the cards to give
    plays = sorted((a for a in legal if isinstance(a, Play) and not a.is_pass and not a.jokers),
                   key=lambda a: a.value)
    if not plays or (passive and session.state.upcards is not None):
        return ["p"]
    return [value_key(plays[0].value), "enter"]


def give_keys(app) -> list[str]:
    """Keys that give my lowest cards when I must choose what to give in the exchange."""
    give = app.session.giving()
    if not give:
        return []
    hand = app.table.query_one("#hand")
    return ["escape", *(["left"] * hand.cursor), *(["space", "right"] * give[1]), "enter"]


async def play_match(pilot: "Pilot", passive: bool = False, limit: int = 4000) -> None:
    """Play a whole match by keys (`simple_keys`, lowest cards given in the exchange), through
    every round result, until the final standings are shown."""
    from tui.president.result import FinalScreen, RoundResultScreen

    app = pilot.app
    for _ in range(limit):
        await settle(pilot)
        if isinstance(app.screen, FinalScreen):
            await pilot.pause()
            return
        if isinstance(app.screen, RoundResultScreen):
            await pilot.press("enter")
            continue
        await pilot.press(*(give_keys(app) or simple_keys(app, passive)))
    raise TimeoutError("the match never ended")


async def play_round(pilot: "Pilot", passive: bool = False, limit: int = 400) -> None:
    """Play my turns with `simple_keys` until the round result is shown."""
    from tui.president.result import RoundResultScreen

    app = pilot.app
    for _ in range(limit):
        await settle(pilot)
        if isinstance(app.screen, RoundResultScreen):
            await pilot.pause()  # drawn before the caller reads it
            return
        keys = simple_keys(app, passive)
        if not keys:
            raise AssertionError("the round is waiting for an exchange choice")
        await pilot.press(*keys)
    raise TimeoutError("the round never ended")
