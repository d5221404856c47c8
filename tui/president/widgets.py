"""The President table's widgets: seats, the felt with the trick, my hand, the score.

They draw what a `Session` says, with the generic pieces of `cards.py`, and
report what the person does by posting messages; none of them changes the game.
"""
from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from president.game.cards import JOKER, Card

from tui.shared.cards import CardFace, HandRow, TrickEntry, draw_backs, draw_trick
from tui.president.outcomes import Turn
from tui.president.session import HUMAN, Session
from tui.president.wording import card_label, ordinal, plural

SUIT_COLOURS = {"h": "red", "d": "red", "c": "", "s": ""}
SHORT_TITLES = {"President": "Pres", "Vice-President": "VP", "Vice-Loser": "VL"}  # narrow seats


def face_of(card: Card, marked: bool = False) -> CardFace:
    """A President card as drawn: `T♥` in red, `Jk` in magenta."""
    if card.value == JOKER:
        return CardFace("Jk", "", "magenta", marked)
    label = card_label(card)
    return CardFace(label[:-1], label[-1], SUIT_COLOURS[card.suit], marked)


class HandView(HandRow):
    """My cards, lowest value first; cards received in this round's exchange are marked."""

    @property
    def cards(self) -> list[Card]:
        return list(self.keys)

    def set_cards(self, cards: list[Card], received: list[Card] = ()) -> None:
        """Show a hand; `received` cards (still held) are marked. Same cards: the selection is kept."""
        cards = sorted(cards)
        marks = list(received)
        faces = []
        for card in cards:
            marked = card in marks
            if marked:
                marks.remove(card)
            faces.append(face_of(card, marked))
        self.set_faces(faces, cards)

    def selected_cards(self) -> list[Card]:
        return self.selected_keys()

    def select_value(self, value: int, count: int | None) -> None:
        """Select `count` cards of `value` (all when None); the same key again clears them."""
        indices = [i for i, c in enumerate(self.keys) if c.value == value]
        wanted = set(indices[:count] if count else indices)
        if wanted and self.selected == wanted:
            wanted = set()
        self.select(wanted)
        if indices:
            self.cursor = indices[0]


class Panel(Static):
    """A Static that redraws only when what it shows has changed (each redraw costs a repaint)."""

    _shown: list | None = None

    def show_parts(self, parts: list, layout: bool = False) -> None:
        """`layout` only for panels whose height follows their content."""
        if parts != self._shown:
            self._shown = parts
            self.update(Group(*parts), layout=layout)


class WidthPanel(Panel):
    """A panel whose drawing follows its width: a resize has the table drawn again, from the
    game as it is then (never from what was shown before)."""

    def on_resize(self) -> None:
        refresh = getattr(self.screen, "refresh_table", None)
        if refresh is not None:
            self.call_after_refresh(refresh)  # once the new size is known


class SeatPanel(WidthPanel):
    """One opponent: name and personality, the hidden hand as card backs, rank, last action."""

    def __init__(self, seat: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.seat = seat

    def show(self, session: Session, thinking: bool) -> None:
        p, state = self.seat, session.state
        to_move = not session.over and state.current_player() == p
        self.border_title = ("▶ " if to_move else "") + session.names[p]
        self.border_subtitle = f"{state.scores[p]} pts"
        place = session.place(p)
        last = session.last_action(p)
        width = max(6, self.content_size.width or 14)
        who = session.personality_name(p)
        if session.your_copy(p):  # never silent, even in a narrow box
            who = next((w for w in (f"{who} (your copy)", f"{who} (copy)") if len(w) <= width), "(your copy)")
        if thinking:
            doing = Text("thinking…", style="bold magenta")
        elif place:
            doing = Text(f"out {ordinal(place)}", style="bold green")
        else:
            doing = Text(last and (last if width < 20 else f"last: {last}"))
        title = session.title(p) if state.prev_places else ""
        if title and width < 20:
            title = SHORT_TITLES.get(title, title)
        lines = [
            Text(who, style="italic", overflow="ellipsis", no_wrap=True),
            draw_backs(state.sizes[p], width),
            Text.assemble((title, "bold"), " · " if title and doing.plain else "", doing,
                          overflow="ellipsis", no_wrap=True),
        ]
        self.set_class(to_move, "to-move")
        self.set_class(thinking, "thinking")
        self.set_class(bool(place), "out")
        self.show_parts(lines)


class MyLine(Panel):
    """My own line above the hand: rank, cards, points, place; marked when it is my turn."""

    def show(self, session: Session) -> None:
        state = session.state
        place = session.place(HUMAN)
        last = session.last_action(HUMAN)
        mine = session.human_turn()
        parts = [("▶ " if mine else "") + "You", session.rank_text(HUMAN), plural(state.sizes[HUMAN], "card"),
                 f"{state.scores[HUMAN]} pts"]
        if place:
            parts.append(f"out {ordinal(place)}")
        elif last:
            parts.append(f"last: {last}")
        self.set_class(mine, "to-move")
        self.show_parts([Text(" · ".join(parts), overflow="ellipsis", no_wrap=True)])


def trick_entries(session: Session, turns: list[Turn]) -> list[TrickEntry]:
    return [TrickEntry(session.names[t.player], tuple(face_of(c) for c in t.cards), t.note,
                       "bold yellow" if t.player == HUMAN else "bold") for t in turns]


def variant_state(session: Session) -> str:
    """The variant's live state: revolution and jokers, when the table plays with them."""
    settings, state = session.settings, session.state
    parts = []
    if settings.revolution:
        parts.append("REVOLUTION: low cards win" if state.reversed else "revolution: off")
    if settings.jokers:
        parts.append(f"jokers: {settings.jokers * settings.decks - state.played_counts[JOKER]} unplayed")
    return " · ".join(parts)


class Felt(WidthPanel):
    """The middle of the table: the trick so far (every turn, passes included), whose turn it is."""

    def show(self, session: Session, thinking: int | None) -> None:
        state = session.state
        width = max(20, self.content_size.width or 60)
        self.border_title = session.round_text() + (" · OPEN HANDS on the debug screen" if session.open_hands else "")
        self.border_subtitle = variant_state(session)
        parts: list[Text] = []
        if session.over:
            parts.append(Text("The match is over.", style="bold"))
        elif session.giving() or state.phase.value == "exchange":
            parts.append(Text("The exchange: the President and Vice-President choose cards to give.",
                              style="bold"))
        elif session.trick:
            trick = draw_trick(trick_entries(session, session.trick), width)
            trick.justify = "left"
            parts.append(trick)
        else:
            leader = "You lead" if session.human_turn() else f"{session.names[state.current]} leads"
            parts.append(Text(f"A new trick: {leader}.", style="bold"))
            if session.last_trick:
                winner = next(t.player for t in reversed(session.last_trick) if t.cards)
                last = " · ".join(e.text for e in trick_entries(session, session.last_trick))
                parts.append(Text(f"last trick, won by {session.names[winner]}: {last}", style="dim",
                                  overflow="ellipsis"))
        if not session.over:
            p = state.current_player()
            if p == HUMAN:
                turn = Text("▶ your turn", style="bold yellow")
            else:
                turn = Text(f"▶ {session.names[p]}'s turn" + (" (thinking…)" if thinking == p else ""))
            parts.append(turn)
        for part in parts:
            part.justify = part.justify or "center"  # a drawn trick is already laid out: left as it is
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
