"""`president play --preset uecda`: the table at 80x24, and selected cards making suited plays."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from president.game.cards import parse_cards
from president.game.settings import preset
from recycle.kernel.protocol import IllegalAction
from test_uecda_rules import position
from tui.president.options import MatchOptions
from tui.president.pilot import settle
from tui.president.session import _suited_play

RULES = Path("snapshot-rules")


@pytest.fixture(autouse=True)
def fixed_user_folder(monkeypatch):
    from personalities.catalog import USER_FOLDER_ENV

    monkeypatch.setenv(USER_FOLDER_ENV, str(RULES))


def test_the_uecda_table_fits_80x24(snap_compare):
    from tui.president.app import PresidentApp

    app = PresidentApp(MatchOptions(preset("uecda"), 1, rules_dir=RULES, delay=0))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)


def test_selected_cards_make_a_sequence_a_group_or_a_lone_joker():
    state = position("5h 6h 7h 7s Jk 9c")
    assert str(_suited_play(state, parse_cards("5h 6h 7h"))) == "5h 6h 7h"
    assert str(_suited_play(state, parse_cards("7s 7h"))) == "7h 7s"
    assert str(_suited_play(state, parse_cards("Jk"))) == "Jk"


def test_selected_cards_that_make_no_play_say_why():
    state = position("5h 6h 7h 7s 9c Kd", up="8d", lock="d")
    with pytest.raises(IllegalAction, match="locked"):
        _suited_play(state, parse_cards("9c"))
    with pytest.raises(IllegalAction, match="neither"):
        _suited_play(state, parse_cards("5h 9c"))


# ---- the prompts say the uecda rules in force, as the engine applies them ---------------------
def test_the_lead_prompt_offers_sequences_only_where_they_are_played():
    from tui.president.prompts import lead_prompt

    assert "sequence" in lead_prompt(preset("uecda")) and "sequence" not in lead_prompt(preset("classic"))


def test_on_a_lone_joker_the_prompt_names_the_spade_three_the_engine_accepts():
    from test_uecda_rules import UECDA, legal
    from dataclasses import replace
    from tui.president.prompts import follow_prompt

    state = position("3s 3h 2c", up="Jk")
    assert "3♠ beats a lone joker" in follow_prompt(UECDA, state) and "3s" in legal(state)
    without = replace(UECDA, spade_three=False)
    state = position("3s 3h 2c", up="Jk", settings=without)
    assert "nothing beats a lone joker" in follow_prompt(without, state) and legal(state) == {"pass"}


def test_a_sequence_and_a_lock_are_said_as_the_engine_holds_them():
    from test_uecda_rules import UECDA, legal
    from tui.president.prompts import follow_prompt

    state = position("8h 9h Th 9c Tc Jc", up="5h 6h 7h")
    text = follow_prompt(UECDA, state)
    assert "a sequence of 3 cards of one suit" in text
    assert all(len(play.split()) == 3 for play in legal(state) - {"pass"})
    locked = position("9h 9s Ts", up="7h", lock="h")
    assert "Locked to ♥." in follow_prompt(UECDA, locked) and legal(locked) == {"9h", "pass"}
    assert "Locked" not in follow_prompt(UECDA, position("9h 9s Ts", up="7h"))


# ---- seats redrawn (seat_change): the panels follow the turn ----------------------------------
def test_the_opponents_panels_stand_in_the_drawn_turn_order():
    from textual.containers import Horizontal

    from tui.president.app import PresidentApp
    from tui.president.widgets import SeatPanel

    async def scenario():
        app = PresidentApp(MatchOptions(preset("uecda"), 1, rules_dir=RULES, delay=0))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            session = app.table.session
            drawn = session.opponents_in_turn_order()
            assert drawn != (1, 2, 3, 4)  # seed 1 draws another seating: the test means something
            row = app.table.query_one("#opponents", Horizontal)
            assert tuple(panel.seat for panel in row.children if isinstance(panel, SeatPanel)) == drawn
            seating = session.state.seating
            assert drawn[0] == seating[(seating.index(0) + 1) % 5]  # first: the one who plays after you

    asyncio.run(scenario())


def test_a_new_seating_is_said_in_the_log_when_the_round_ends():
    import random
    from dataclasses import replace

    from tui.president.session import Session

    session = Session(MatchOptions(replace(preset("uecda"), seat_change=1, rounds=3), 2, rules_dir=RULES,
                                   delay=0))
    rng, said = random.Random(5), []
    for _ in range(2_000):  # bounded: three rounds of five players end far sooner
        if session.over:
            break
        state = session.state
        before = session.opponents_in_turn_order()
        out = session.apply(state.current_player(), rng.choice(state.legal_actions()))
        new = [line for line in out.lines if line.startswith("seats drawn anew")]
        if new:
            names = ", ".join(session.names[p] for p in session.opponents_in_turn_order())
            assert new == [f"seats drawn anew: after you play {names}"]
        # said exactly when the order after you changed (a seating rotated as a whole is the same table)
        assert bool(new) == (not session.over and session.opponents_in_turn_order() != before)
        said += new
    assert session.over and said  # seats were redrawn before rounds 2 and 3, and said at least once
