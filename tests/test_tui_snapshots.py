"""Screenshots of the app compared with accepted SVGs (`pytest --snapshot-update` accepts new ones).

Fixed seed, 120x40, bots at delay 0, taken when the bots have played up to
my turn, so every run draws the same thing.
"""
from __future__ import annotations

from pathlib import Path

from president.settings import preset
from tui.options import MatchOptions
from tui.pilot import settle

SIZE = (120, 40)
RULES = Path("snapshot-rules")  # never written; a fixed name, because the editor shows it


def make_app():
    from tui.app import PresidentApp

    return PresidentApp(MatchOptions(preset("classic"), 1, rules_dir=RULES, delay=0))


def test_table(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=settle)


def test_debug_screen(snap_compare):
    async def open_debug(pilot):
        await settle(pilot)
        await pilot.press("d", "end")  # the first decision of the round

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_debug)


def test_editor_with_an_error(snap_compare):
    async def edit(pilot):
        await settle(pilot)
        await pilot.press("e", "enter")  # seat 1 · Ada · Classic
        await pilot.press("down", "down", "down", "down", "end", *" TotMyTwoz > 1")
        await pilot.pause(0.6)  # past the debounce: the diagnostics are up to date

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=edit)
