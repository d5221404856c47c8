"""Cards on screen, for any card game: faces, backs, a row of played cards, and a hand.

Nothing here knows a game. A card is drawn from a `CardFace` (its rank text,
suit symbol and colour), so the President table and the table of any RECYCLE
game draw the same cards:

    face = CardFace("7", "♥", "red")
    draw_cards([face, CardFace("Jk", color="magenta")])     # a Rich Text, 3 lines (4 with raised cards)
    hand = HandRow(id="hand"); hand.set_faces(faces, keys)  # selection by keys and clicks
    draw_trick([TrickEntry("Ada", (face,)), TrickEntry("Bo", note="pass")], width=60)
    draw_backs(9, width=12)                                 # an opponent's hidden hand: ▮▮▮▮▮▮▮▮▮ 9

The API of this module is shared by both tables: keep it stable.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

CARD_WIDTH = 4  # cells per drawn card: a border, two cells of face, a border
CARD_HEIGHT = 3  # lines per drawn card (a raised card takes one more line above)
COMPACT_WIDTH = 3  # a face and a space: hands too big for boxes, two lines a row
BACK = "▮"  # one hidden card in `draw_backs`


@dataclass(frozen=True)
class CardFace:
    """What one card shows: `rank` (1-2 cells: "7", "T", "Jk"), a `suit` symbol ("♥" or "")
    and the Rich colour of the face ("red", "" for the terminal's own). `marked` draws the card
    with a highlighted edge and a dot (President: received in the exchange)."""

    rank: str
    suit: str = ""
    color: str = ""
    marked: bool = False

    @property
    def label(self) -> str:
        """The two cells drawn inside the card: rank then suit, clipped, left-aligned."""
        return f"{(self.rank + self.suit)[:2]:<2}"

    @property
    def style(self) -> str:
        return f"bold {self.color}".strip()


def draw_cards(faces: Sequence[CardFace], raised: set[int] = frozenset(), cursor: int | None = None,
               lift: bool = False) -> Text:
    """Cards as little boxes side by side: 3 lines, or 4 when some are `raised` (selected ones
    sit one line up) or `lift` keeps that line anyway (a hand that does not jump when a card is
    selected); the card at `cursor` has a yellow edge."""
    lines = 4 if raised or lift else 3
    rows = [Text() for _ in range(lines)]
    for i, face in enumerate(faces):
        edge = "bold yellow" if i == cursor else ("green" if i in raised else ("bold cyan" if face.marked else ""))
        top = 0 if i in raised or lines == 3 else 1
        bottom = "╰─•╯" if face.marked else "╰──╯"
        for r in range(lines):
            if r == top:
                rows[r].append("╭──╮", edge)
            elif r == top + 1:
                rows[r].append("│", edge).append(face.label, face.style).append("│", edge)
            elif r == top + 2:
                rows[r].append(bottom, edge)
            else:
                rows[r].append(" " * CARD_WIDTH)
    return Text("\n").join(rows)


def draw_compact(faces: Sequence[CardFace], raised: set[int], cursor: int | None, per_row: int) -> Text:
    """Faces only, in rows of `per_row`, each row two lines: raised (selected) faces on the first."""
    lines = []
    for start in range(0, len(faces), per_row):
        up, down = Text(), Text()
        for i in range(start, min(start + per_row, len(faces))):
            face = faces[i]
            style = face.style + (" underline yellow" if i == cursor else "") + (" reverse" if face.marked else "")
            shown, blank = (face.label, style), " " * (COMPACT_WIDTH - 1)
            (up if i in raised else down).append(*shown)
            (down if i in raised else up).append(blank)
            up.append(" ")
            down.append(" ")
        lines += [up, down]
    return Text("\n").join(lines)


def draw_backs(count: int, width: int, style: str = "blue") -> Text:
    """A hidden hand as a bar of card backs and its count (`▮▮▮▮▮ 5`), never wider than `width`."""
    number = f" {count}"
    bars = max(0, min(count, width - len(number)))
    return Text.assemble((BACK * bars, style), number)


@dataclass(frozen=True)
class TrickEntry:
    """One turn of a trick: who (`label`), the cards played, or a `note` ("pass") when none."""

    label: str
    faces: tuple[CardFace, ...] = ()
    note: str = ""
    style: str = ""  # the label's style (the human's own turns in bold, say)

    @property
    def width(self) -> int:
        """Cells this entry takes drawn as cards (a column of at least its label and note)."""
        return max(len(self.label), len(self.note), CARD_WIDTH * len(self.faces))

    @property
    def text(self) -> str:
        """The entry in one line of text: `Ada 7♥7♠`, `Bo pass`."""
        return f"{self.label} " + (" ".join(f.rank + f.suit for f in self.faces) or self.note)


def draw_trick(entries: Sequence[TrickEntry], width: int, gap: int = 2, center: bool = True) -> Text:
    """The turns of a trick in order, as columns of a label above hand-size cards (a note such as
    "pass" stands where cards would be). The newest turns that fit in `width` are drawn as cards;
    older ones are listed on a line of text above, so the whole trick is always readable.
    Every line is `width` cells (the columns `center`ed), so the Text must not be re-justified."""
    shown: list[TrickEntry] = []
    used = 0
    for entry in reversed(entries):
        need = entry.width + (gap if shown else 0)
        if shown and used + need > width:
            break
        shown.insert(0, entry)
        used += need
    earlier = entries[: len(entries) - len(shown)]
    rows = [Text() for _ in range(1 + CARD_HEIGHT)]
    for k, entry in enumerate(shown):
        if k:
            for row in rows:
                row.append(" " * gap)
        w = entry.width
        rows[0].append(f"{entry.label:<{w}}"[:w], entry.style or "bold")
        if entry.faces:
            cards = draw_cards(entry.faces).split()
            for r in range(CARD_HEIGHT):
                rows[1 + r].append_text(cards[r])
                rows[1 + r].append(" " * (w - cards[r].cell_len))
        else:
            for r in range(CARD_HEIGHT):
                rows[1 + r].append(f"{entry.note if r == 1 else '':<{w}}", "dim italic")
    left = (width - used) // 2 if center else 0
    for row in rows:
        row.pad_left(left)
        row.pad_right(max(0, width - row.cell_len))
    head = []
    if earlier:
        line = Text("earlier: " + " · ".join(e.text for e in earlier), style="dim")
        line.truncate(width, overflow="ellipsis", pad=True)
        head = [line]
    return Text("\n").join(head + rows)


class HandRow(Widget):
    """A hand of cards with a cursor and a selection, driven by keys (via the screen's actions)
    and clicks. It shows `CardFace`s and reports selections by index and by the caller's keys.

    The hand is drawn as boxes on one line when they fit, else as compact faces in rows.
    Posts `HandRow.Changed` whenever the selection changes.
    """

    DEFAULT_CSS = "HandRow { height: 5; }"

    class Changed(Message):
        """The selection changed (a click, a key): `keys` are the selected cards' keys, in hand order."""

        def __init__(self, hand: HandRow, keys: list) -> None:
            super().__init__()
            self.hand, self.keys = hand, keys

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.faces: list[CardFace] = []
        self.keys: list[Hashable] = []
        self.cursor = 0
        self.selected: set[int] = set()

    def set_faces(self, faces: Sequence[CardFace], keys: Sequence[Hashable]) -> None:
        """Show a hand: one face per card and the caller's key for it (the card itself, an index...).
        The selection is kept only while the keys are unchanged."""
        faces, keys = list(faces), list(keys)
        if keys != self.keys:
            self.keys, self.selected = keys, set()
            self.cursor = min(self.cursor, max(0, len(keys) - 1))
            self.faces = faces
            self._changed()
        elif faces != self.faces:  # same cards, new marks
            self.faces = faces
            self.refresh()

    def selected_keys(self) -> list:
        return [self.keys[i] for i in sorted(self.selected)]

    def select(self, indices: set[int]) -> None:
        """Select exactly these cards (the cursor goes to the first)."""
        self.selected = {i for i in indices if 0 <= i < len(self.keys)}
        if self.selected:
            self.cursor = min(self.selected)
        self._changed()

    def move(self, delta: int) -> None:
        if self.keys:
            self.cursor = (self.cursor + delta) % len(self.keys)
            self.refresh()

    def toggle(self, index: int | None = None) -> None:
        i = self.cursor if index is None else index
        if 0 <= i < len(self.keys):
            self.cursor = i
            self.selected ^= {i}
            self._changed()

    def clear(self) -> None:
        if self.selected:
            self.selected = set()
            self._changed()

    def _changed(self) -> None:
        self.refresh()
        self.post_message(self.Changed(self, self.selected_keys()))

    @property
    def compact_row(self) -> int:
        """Cards per row of compact faces, or 0 when the hand fits on one line of boxes."""
        width = max(self.content_size.width, CARD_WIDTH)
        return 0 if len(self.faces) * CARD_WIDTH <= width else width // COMPACT_WIDTH

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        per_row = self.compact_row
        if per_row:
            index = offset.y // 2 * per_row + min(offset.x // COMPACT_WIDTH, per_row - 1)
        else:
            index = offset.x // CARD_WIDTH
        if index < len(self.faces):
            self.toggle(index)

    def render(self) -> Text:
        if not self.faces:
            return Text("(no cards)", style="dim")
        if self.compact_row:
            return draw_compact(self.faces, self.selected, self.cursor, self.compact_row)
        marker = Text(" " * (CARD_WIDTH * self.cursor + 1) + "▲", style="bold yellow")
        return Text("\n").join([draw_cards(self.faces, self.selected, self.cursor, lift=True), marker])
