"""The table's widgets: seats, the felt with the upcards, my hand, the score.

They draw what a `Session` says and report what the person does by posting
messages; none of them changes the game.
"""
from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from president.cards import JOKER, Card, value_text
from president.state import Phase

from .session import HUMAN, Session, card_label, ordinal

CARD_WIDTH = 4  # cells per drawn card: a border, two cells of face, a border
COMPACT_WIDTH = 3  # a face and a space: hands too big for boxes (two decks, few players), two lines a row


def draw_cards(labels: list[str], red: set[int] = frozenset(), raised: set[int] = frozenset(),
               cursor: int | None = None) -> Text:
    """Cards as little boxes, 4 lines high: raised (selected) cards sit one line up."""
    rows = [Text() for _ in range(4)]
    for i, label in enumerate(labels):
        face_style = "bold red" if i in red else "bold"
        edge = "bold yellow" if i == cursor else ("green" if i in raised else "")
        top = 0 if i in raised else 1
        for r in range(4):
            if r == top:
                rows[r].append("╭──╮", edge)
            elif r == top + 1:
                rows[r].append("│", edge).append(f"{label:<2}", face_style).append("│", edge)
            elif r == top + 2:
                rows[r].append("╰──╯", edge)
            else:
                rows[r].append("    ")
    return Text("\n").join(rows)


def draw_compact(labels: list[str], red: set[int], raised: set[int], cursor: int, per_row: int) -> Text:
    """Faces only, in rows of `per_row`, each row two lines: raised (selected) faces on the first."""
    lines = []
    for start in range(0, len(labels), per_row):
        up, down = Text(), Text()
        for i in range(start, min(start + per_row, len(labels))):
            style = ("bold red" if i in red else "bold") + (" underline yellow" if i == cursor else "")
            face, blank = (f"{labels[i]:<2}", style), " " * (COMPACT_WIDTH - 1)
            (up if i in raised else down).append(*face)
            (down if i in raised else up).append(blank)
            up.append(" ")
            down.append(" ")
        lines += [up, down]
    return Text("\n").join(lines)


class HandView(Widget):
    """My cards, lowest value first; a cursor and a selection, driven by keys and clicks."""

    class Changed(Message):
        """The selection changed (a click, a key): the screen says whether it can be played."""

        def __init__(self, cards: list[Card]) -> None:
            super().__init__()
            self.cards = cards

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cards: list[Card] = []
        self.cursor = 0
        self.selected: set[int] = set()

    def set_cards(self, cards: list[Card]) -> None:
        """Show a new hand; the selection is kept only while the hand is unchanged."""
        cards = sorted(cards)
        if cards != self.cards:
            self.cards, self.selected = cards, set()
            self.cursor = min(self.cursor, max(0, len(cards) - 1))
            self._changed()

    def selected_cards(self) -> list[Card]:
        return [self.cards[i] for i in sorted(self.selected)]

    def move(self, delta: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + delta) % len(self.cards)
            self.refresh()

    def toggle(self, index: int | None = None) -> None:
        i = self.cursor if index is None else index
        if 0 <= i < len(self.cards):
            self.cursor = i
            self.selected ^= {i}
            self._changed()

    def select_value(self, value: int, count: int | None) -> None:
        """Select `count` cards of `value` (all when None); the same key again clears them."""
        indices = [i for i, c in enumerate(self.cards) if c.value == value]
        wanted = set(indices[:count] if count else indices)
        self.selected = set() if wanted and self.selected == wanted else wanted
        if indices:
            self.cursor = indices[0]
        self._changed()

    def clear(self) -> None:
        if self.selected:
            self.selected = set()
            self._changed()

    def _changed(self) -> None:
        self.refresh()
        self.post_message(self.Changed(self.selected_cards()))

    @property
    def compact_row(self) -> int:
        """Cards per row of compact faces, or 0 when the hand fits on one line of boxes."""
        width = max(self.content_size.width, CARD_WIDTH)
        return 0 if len(self.cards) * CARD_WIDTH <= width else width // COMPACT_WIDTH

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        per_row = self.compact_row
        if per_row:
            index = offset.y // 2 * per_row + min(offset.x // COMPACT_WIDTH, per_row - 1)
        else:
            index = offset.x // CARD_WIDTH
        if index < len(self.cards):
            self.toggle(index)

    def render(self) -> Text:
        if not self.cards:
            return Text("(no cards)", style="dim")
        labels = [card_label(c) for c in self.cards]
        red = {i for i, c in enumerate(self.cards) if c.suit in "hd" and c.value != JOKER}
        if self.compact_row:
            return draw_compact(labels, red, self.selected, self.cursor, self.compact_row)
        marker = Text(" " * (CARD_WIDTH * self.cursor + 1) + "▲", style="bold yellow")
        return Text("\n").join([draw_cards(labels, red, self.selected, self.cursor), marker])


class Panel(Static):
    """A Static that redraws only when what it shows has changed (each redraw costs a repaint)."""

    _shown: list | None = None

    def show_parts(self, parts: list, layout: bool = False) -> None:
        """`layout` only for panels whose height follows their content."""
        if parts != self._shown:
            self._shown = parts
            self.update(Group(*parts), layout=layout)


class SeatPanel(Panel):
    """One player at the table: name, personality, cards left, rank, last action."""

    def __init__(self, seat: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.seat = seat

    def show(self, session: Session, thinking: bool) -> None:
        p, state = self.seat, session.state
        self.border_title = session.names[p]
        self.border_subtitle = f"{state.scores[p]} pts"
        place = session.place(p)
        last = session.last_action(p)
        lines = [
            Text.assemble((session.personality_name(p), "italic"), f" · {state.sizes[p]} cards"),
            Text(session.rank_text(p), style="bold"),
            Text(f"out {ordinal(place)}" if place else (f"last: {last}" if last else ""),
                 style="bold green" if place else ""),
            Text("thinking…" if thinking else "", style="bold magenta"),
        ]
        if p == HUMAN:  # my own line is short: the hand below shows the cards
            lines = [Text(f"You · {session.rank_text(p)} · {state.sizes[p]} cards"
                          + (f" · out {ordinal(place)}" if place else (f" · last: {last}" if last else "")))]
        self.set_class(not session.over and state.current_player() == p, "to-move")
        self.set_class(thinking, "thinking")
        self.set_class(bool(place), "out")
        self.show_parts(lines)


class Felt(Panel):
    """The middle of the table: the upcards, who played them, whose turn it is."""

    def show(self, session: Session) -> None:
        state = session.state
        parts: list = []
        if session.over:
            best = max(state.scores)
            winners = " and ".join(session.names[p] for p, s in enumerate(state.scores) if s == best)
            parts += [Text("match over", style="bold"), Text(f"{winners} won with {best} points"),
                      Text("press n for a new match", style="dim")]
        elif state.phase is Phase.EXCHANGE:
            giver, receiver, count = state.pending[0]
            parts += [Text("exchange", style="bold"),
                      Text(f"{session.says(giver, 'gives', 'give')} {count} card(s) to {session.names[receiver]}")]
        elif state.upcards is None:
            parts += [Text(f"{session.names[state.current]} to lead", style="bold")]
        else:
            up = state.upcards
            labels = [value_text(up.value)] * up.naturals + ["Jk"] * up.jokers
            parts += [draw_cards(labels), Text(f"played by {session.names[state.last_player]}")]
        if not session.over:
            turn = "your turn" if session.human_turn() else f"{session.names[state.current]}'s turn"
            parts.append(Text(turn, style="bold yellow" if session.human_turn() else ""))
        for part in parts:
            part.justify = "center"
        self.show_parts(parts)


class ScoreBoard(Panel):
    """Points per player, with the round being played."""

    def show(self, session: Session) -> None:
        self.border_title = session.round_text()
        rows = [(name, session.title(p), str(session.state.scores[p])) for p, name in enumerate(session.names)]
        if rows == self._shown:
            return
        self._shown = rows
        table = Table(box=None, expand=True, pad_edge=False)
        table.add_column("player")
        table.add_column("rank")
        table.add_column("pts", justify="right")
        for row in rows:
            table.add_row(*row)
        self.update(table)
