"""`president play --preset uecda`: the table at 80x24, and selected cards making suited plays."""
from __future__ import annotations

from pathlib import Path

import pytest

from president.cards import parse_cards
from president.settings import preset
from recycle.kernel.protocol import IllegalAction
from test_uecda_rules import position
from tui.options import MatchOptions
from tui.pilot import settle
from tui.session import _suited_play

RULES = Path("snapshot-rules")


@pytest.fixture(autouse=True)
def fixed_user_folder(monkeypatch):
    from personalities.catalog import USER_FOLDER_ENV

    monkeypatch.setenv(USER_FOLDER_ENV, str(RULES))


def test_the_uecda_table_fits_80x24(snap_compare):
    from tui.app import PresidentApp

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
