"""Hidden stays hidden at the `recycle play` table: two games the person cannot tell apart (the
same cards for them, other cards for the bots, a bot's face-down pick) draw the same screens —
the table, the options, the log, the bots' reasoning, the values. The open-hands mode is the
control: it shows the bots' cards, so there the screens differ (the test can see a difference).

The reproducer: in TidesOfTime2 the bot's face-down pick was named in its debug record
(`move TEMPLE MOSTGARDEN from p0 HAND to p0 PICK`) before the reveal.
"""
from __future__ import annotations

import asyncio
from importlib import resources

import pytest

from recycle.lang import load_game
from tui.anygame.app import PlayApp
from tui.anygame.pilot import settle
from tui.anygame.session import GameSession, play_options
from tui.president.pilot import screen_text

#: (game, seats, the person's cards, a bot's cards in the first world, in the second)
CASES = {
    "TidesOfTime2": ("random,you", {"p1": ["PALACE MOSTSTRONGHOLD", "PALACE WINTIES", "LIBRARY MOSTTEMPLE",
                                           "STRONGHOLD MOSTLIBRARY", "NONE SINGLETONS"]},
                     {"p0": ["TEMPLE MOSTGARDEN", "TEMPLE EACHPALACE", "GARDEN ALLSUITS", "NONE DOUBLE",
                             "STRONGHOLD LACKING"]},
                     {"p0": ["LIBRARY EACHGARDEN", "GARDEN MOSTPALACE", "NONE HIGHEST", "TEMPLE LIBRARYGARDEN",
                             "PALACE EACHLIBRARY"]}),
    "Poker5": ("random,random,you", {"p2": ["2c", "7d", "9h", "Js", "Kc"]},
               {"p0": ["Ah", "As", "Ad", "Ac", "Kh"], "p1": ["3c", "4c", "5c", "6c", "8c"]},
               {"p0": ["2h", "3d", "5s", "8h", "Td"], "p1": ["4h", "6s", "9c", "Qd", "Th"]}),
}


def game(name: str):
    return load_game(resources.files("recycle.games") / f"{name}.gdl")


def options(name: str, world: int, open_hands: bool = False):
    seats, mine, first, second = CASES[name]
    return play_options(game(name), seats, None, 5, deal={**mine, **(first if world == 1 else second)},
                        open_hands=open_hands)


async def screens(name: str, world: int, open_hands: bool = False) -> tuple[list[str], str]:
    """Every screen the person can open at their first turn, as text; and the bots' hidden cards."""
    app = PlayApp(options(name, world, open_hands))
    out = []
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        out.append(screen_text(app))
        for key in ("d", "v", "question_mark"):  # the bots' reasoning, every value, the rules
            await pilot.press(key)
            out.append(screen_text(app))
            await pilot.press("escape")
        await pilot.press("l")
        out.append(screen_text(app))
        state = app.session.state
        hidden = repr(sorted((k, tuple(v)) for k, v in state.st.locs.items()
                             if not state.table.visible(k, app.session.me)))
    return out, hidden


@pytest.mark.parametrize("name", ["TidesOfTime2", pytest.param("Poker5", marks=pytest.mark.slow)])
def test_two_games_alike_for_the_person_draw_the_same_screens(name):
    first, hidden_first = asyncio.run(screens(name, 1))
    second, hidden_second = asyncio.run(screens(name, 2))
    assert hidden_first != hidden_second  # the bots' cards really differ
    for a, b in zip(first, second):
        assert a == b
    # The control: with every hand open the difference shows.
    assert asyncio.run(screens(name, 1, open_hands=True))[0] != asyncio.run(screens(name, 2, open_hands=True))[0]


def test_the_face_down_pick_is_not_named_before_the_reveal():
    """The reproducer, in the model: after the bot's face-down pick and before the person's."""
    session = GameSession(options("TidesOfTime2", 1))
    job = session.bot_job()
    decision = job.run()
    session.apply(job.player, decision.action, decision.trace)
    st = session.state.st
    pick = [session.state.table.text[c] for key, cards in st.locs.items() if key[3] == "PICK" for c in cards]
    assert pick and session.human_turn()
    record = session.reasoning()[-1]
    drawn = [record.label, str(record.trace.to_json()), *session.log]
    assert record.label.endswith("put a card in PICK") and "sealed" in record.trace.summary()
    assert not any(p in text for p in pick for text in drawn)
