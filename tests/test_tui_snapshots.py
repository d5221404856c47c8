"""Screenshots of the app compared with accepted SVGs (`pytest --snapshot-update` accepts new ones).

Fixed seed, bots at delay 0, taken when the bots have played up to my turn,
so every run draws the same thing. The table is taken at 80x24 (the usual
default terminal), 100x30, 120x40 and 160x50. The README's screenshots in
`docs/` are copies of some of these (`DOCS`); after `--snapshot-update`, copy them:

    python -c "import tests.test_tui_snapshots as t; t.copy_docs()"
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from president.game.settings import preset
from tui.president.options import MatchOptions
from tui.president.pilot import play_match, settle

SIZE = (120, 40)
SIZES = [(80, 24), (100, 30), (120, 40), (160, 50)]
RULES = Path("snapshot-rules")  # never written; a fixed name, because the editor shows it
HERE = Path(__file__).parent
SNAPSHOTS = HERE / "__snapshots__" / "test_tui_snapshots"
DOCS = {  # docs/ file: the snapshot it copies
    "table.svg": "test_table[120x40].svg",
    "table-80x24.svg": "test_table[80x24].svg",
    "debug.svg": "test_debug_screen.svg",
    "final-80x24.svg": "test_final_standings.svg",
}


@pytest.fixture(autouse=True)
def fixed_user_folder(monkeypatch):
    """The per-user folder appears on screen (editor, dialogs): a fixed name, never written."""
    from personalities.catalog import USER_FOLDER_ENV

    monkeypatch.setenv(USER_FOLDER_ENV, str(RULES))


def make_app(**settings):
    from tui.president.app import PresidentApp

    return PresidentApp(MatchOptions(preset("classic").with_overrides(settings), 1, rules_dir=RULES, delay=0))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_table(snap_compare, size):
    assert snap_compare(make_app(), terminal_size=size, run_before=settle)


def test_debug_screen(snap_compare):
    async def open_debug(pilot):
        await settle(pilot)
        await pilot.press("d", "end")  # the first decision of the round

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_debug)


def test_debug_screen_beliefs_with_open_hands(snap_compare):
    """Open hands at 80x24: the latest decision's belief, a column per opponent, fits beside the list."""
    async def open_hands(pilot):
        await settle(pilot)
        await pilot.press("d", "o", "y")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_hands)


def test_editor_with_an_error(snap_compare):
    async def edit(pilot):
        await settle(pilot)
        await pilot.press("e", "enter")  # seat 1 · Ada · Classic
        pilot.app.screen.query_one("#source").move_cursor((6, 0))  # line 7: `Lq   CardVal < Q`
        await pilot.press("end", *"  CardValx > 1")  # no such variable
        await pilot.pause(0.6)  # past the debounce: the diagnostics are up to date

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=edit)


@pytest.mark.slow
def test_final_standings(snap_compare):
    assert snap_compare(make_app(rounds="2"), terminal_size=(80, 24), run_before=play_match)


def test_the_docs_screenshots_are_the_accepted_snapshots():
    docs = HERE.parent / "docs"
    stale = [name for name, snapshot in DOCS.items()
             if (docs / name).read_bytes() != (SNAPSHOTS / snapshot).read_bytes()]
    assert not stale, f"docs/{stale} differ from their snapshots: run copy_docs() (see this module's docstring)"


def copy_docs() -> None:
    """Copy the accepted snapshots named in `DOCS` into docs/."""
    for name, snapshot in DOCS.items():
        shutil.copyfile(SNAPSHOTS / snapshot, HERE.parent / "docs" / name)
