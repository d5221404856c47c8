"""Bots' reasoning on screen, for any game: a trace widget and the AI debug screen.

    TraceView().show_trace(decision.trace)             # a rule tree, a visit table, or JSON
    DebugScreen(records, names, subtitle="round 3")      # every bot decision (BotDecision)
                                                         # of the game, newest first; f filters by player

A trace is drawn with its `__rich__` when it has one (rule personalities,
search players), else as JSON (`trace_json`). The API of this module is
shared by both tables: keep it stable.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.json import JSON
from rich.pretty import Pretty
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from recycle.kernel.protocol import trace_json

from tui.shared.botjob import BotDecision


def render_belief(belief: Any, names: Sequence[str] | None = None) -> RenderableType:
    """A bot's belief, compact: a column per opponent, a row per kind of card, expected counts."""
    lines = [Text(f"belief, expected cards: {belief.method}", style="italic")]
    lines += [Text(line, style="bold" if i == 0 else "") for i, line in enumerate(belief.grid(names))]
    return Group(*lines)


def render_guess(belief: Any, names: Sequence[str] | None = None) -> RenderableType:
    """Each opponent's likeliest hand, a line each (shown after the trace: the grid and the trace come first)."""
    return Group(*(Text(line, style="italic" if i == 0 else "") for i, line in enumerate(belief.guess_lines(names))))


def render_trace(trace: Any, as_json: bool = False, belief: Any = None,
                 names: Sequence[str] | None = None) -> RenderableType:
    """The trace as rich draws it (a rule personality's tree), or as JSON on request; the bot's
    belief (when given) under its summary."""
    if trace is None:
        return Text("This bot gives no account of its decisions.", style="dim italic")
    parts: list[RenderableType] = []
    if hasattr(trace, "summary"):
        parts.append(Text(trace.summary(), style="bold"))
    if belief is not None and not as_json:
        parts.append(render_belief(belief, names))
    if as_json or not hasattr(trace, "__rich__"):
        data = trace_json(trace)
        if belief is not None and isinstance(data, dict):
            data = {**data, "beliefs": belief.to_json()}
        try:
            parts.append(JSON(json.dumps(data, default=str)))
        except (TypeError, ValueError):  # not JSON-like: show it as Python sees it
            parts.append(Pretty(data))
    else:
        parts.append(trace)
    if belief is not None and not as_json:
        parts.append(render_guess(belief, names))
    return Group(*parts)


class TraceView(Static):
    """A decision's full trace; `t` on the hosting screen flips between tree and JSON."""

    def show_trace(self, trace: Any, as_json: bool = False, belief: Any = None,
                   names: Sequence[str] | None = None) -> None:
        self.update(render_trace(trace, as_json, belief, names))


class DebugScreen(Screen[None]):
    """Bot decisions on the left (newest first, preselected), the highlighted one's trace on the right.

    `records` is the whole game's list (the screen keeps no copy of its own beyond the
    filter); `names` are the seats' names, for the player filter (`f` cycles: all players,
    then each seat that decided something); `describe(record)` titles the trace
    ("Ada (Classic) · 7♥")."""

    DEFAULT_CSS = """
    DebugScreen #debug-filter { height: auto; padding: 0 1; background: $boost; }
    DebugScreen #debug-main { height: 1fr; }
    DebugScreen #decisions { width: 40; height: 1fr; }
    DebugScreen.-narrow #decisions { width: 30; }
    DebugScreen #trace-scroll { width: 1fr; height: 1fr; }
    TraceView { border: round $accent; border-title-style: bold; padding: 0 1; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("d", "close", "Back", show=False),
        Binding("t", "toggle_json", "Tree/JSON"),
        Binding("f", "next_filter", "Filter player"),
    ]

    def __init__(self, records: Sequence[BotDecision], names: Sequence[str], subtitle: str = "",
                 describe: Callable[[BotDecision], str] | None = None, empty: str = "") -> None:
        super().__init__()
        self.all_records = list(records)[::-1]  # newest first: usually the one to look at
        self.names = list(names)
        self.subtitle = subtitle
        self.describe = describe or (lambda r: f"{r.name} · {r.action}")
        self.empty = empty or "No bot has decided anything yet."
        self.as_json = False
        self.player: int | None = None  # the filter: None shows everyone
        self.records = self.all_records

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="debug-filter")
        with Horizontal(id="debug-main"):
            yield OptionList(id="decisions")
            with VerticalScroll(id="trace-scroll"):
                yield TraceView(id="trace")
        yield self.footer()

    def footer(self) -> Footer:
        """The screen's footer (a table may give one that keeps its quit key in sight)."""
        return Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self._fill()

    def players(self) -> list[int]:
        """Seats with at least one decision, in seat order: the filter's choices."""
        return sorted({r.player for r in self.all_records})

    def filter_player(self, player: int | None) -> None:
        """Show only `player`'s decisions (None: everyone's)."""
        self.player = player
        self._fill()

    def action_next_filter(self) -> None:
        choices: list[int | None] = [None, *self.players()]
        at = choices.index(self.player) if self.player in choices else 0
        self.filter_player(choices[(at + 1) % len(choices)])

    def set_records(self, records: Sequence[BotDecision]) -> None:
        """Show another version of the game's records (same decisions, e.g. masked or whole), keeping
        the filter and, where it can, the decision highlighted."""
        at = self.query_one("#decisions", OptionList).highlighted
        self.all_records = list(records)[::-1]
        self._fill()
        if at is not None and 0 < at < len(self.records):
            self.query_one("#decisions", OptionList).highlighted = at

    def banner(self) -> str:
        """The line above the list: whose decisions are shown, how many, and the keys."""
        who = "all players" if self.player is None else self.names[self.player]
        total = len(self.all_records)
        span = f"the whole game from round {self.all_records[-1].round}" if total else "none yet"
        return (f"{who}: {len(self.records)} of {total} bot decision{'' if total == 1 else 's'} ({span})"
                " · f: next player · t: tree/JSON")

    def _fill(self) -> None:
        self.records = [r for r in self.all_records if self.player is None or r.player == self.player]
        self.sub_title = " · ".join(x for x in ("AI debug", self.subtitle) if x)
        self.query_one("#debug-filter", Static).update(self.banner())
        decisions = self.query_one("#decisions", OptionList)
        decisions.clear_options()
        decisions.add_options([Option(r.label, id=str(i)) for i, r in enumerate(self.records)])
        view = self.query_one(TraceView)
        if self.records:
            decisions.highlighted = 0
            decisions.focus()
            self._show(0)
        else:
            view.border_title = ""
            view.update(self.empty)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def _show(self, index: int | None) -> None:
        if index is None or not 0 <= index < len(self.records):
            return
        record = self.records[index]
        view = self.query_one(TraceView)
        view.border_title = self.describe(record)
        view.show_trace(record.trace, self.as_json, record.belief, self.names)

    def action_toggle_json(self) -> None:
        self.as_json = not self.as_json
        self._show(self.query_one("#decisions", OptionList).highlighted)

    def action_close(self) -> None:
        self.dismiss(None)
