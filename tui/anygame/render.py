"""Rich drawing of the model for the screen: owners' piles and storage, option lines, standings."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from recycle.labels import human_sized

from tui.shared.cards import CardFace, draw_backs
from tui.anygame.board import Board, OwnerView, PileView
from tui.anygame.faces import CardFaces, Face

MAX_FANNED = 12  # faces drawn in a row before a pile shows only its top cards


def card_face(face: Face) -> CardFace:
    """The shared card widget's face for one of ours (labels are at most two cells)."""
    return CardFace(face.label, "", face.colour)


def faces_text(cards, faces: CardFaces) -> Text:
    text = Text()
    for i, c in enumerate(cards):
        face = faces.face(c)
        if i:
            text.append(" ")
        text.append(face.label, f"bold {face.colour}".strip())
    return text


def pile_text(pile: PileView, faces: CardFaces) -> Text:
    """`HAND ▮▮▮▮▮ 5`, `TRICK 7♥`, `DISCARD 52: … Q♠ 3♦ (top)`: fanned when short, else its top."""
    out = Text.assemble((pile.name, "italic"), " ")
    if not pile.visible:
        out.append_text(draw_backs(pile.size, 14) if pile.size else Text("–", style="dim"))
        if pile.known:
            out.append(" knows ", "dim").append_text(faces_text(pile.known, faces))
    elif not pile.cards:
        out.append("–", "dim")
    elif len(pile.cards) <= MAX_FANNED:
        out.append_text(faces_text(pile.cards, faces))
    else:  # the top of a pile is its end: show the last cards played onto it
        out.append(f"{len(pile.cards)}: … ", "dim").append_text(faces_text(pile.cards[-4:], faces))
        out.append(" (top)", "dim")
    return out


def followed(name: str, value, names: frozenset[str]) -> bool:
    """Is this storage one the table shows? Those the players' choices read or write and the score
    (`recycle.about`), when human sized; the rest is on the values screen (v)."""
    return name in names and human_sized(value)


def owner_text(owner: OwnerView, title: str, faces: CardFaces, skip: set[tuple] = frozenset(),
               status: str = "", style: str = "", names: frozenset[str] = frozenset()) -> Text:
    """One owner on one (wrapping) line: its name, piles, the storage in `names`, and status."""
    out = Text.assemble((title, f"bold {style}".strip()))
    if status:
        out.append(f" {status}", "bold magenta" if "thinking" in status else "bold yellow")
    for pile in owner.piles:
        if pile.key in skip:
            continue
        out.append("  ").append_text(pile_text(pile, faces))
    for name, value in owner.storage:
        if followed(name, value, names):
            out.append("  ").append(f"{name} ", "cyan").append(str(value), "bold")
    return out


def teams_text(board: Board) -> Text | None:
    if not board.teams:
        return None
    return Text("teams: " + "  ".join(f"t{t} = " + ", ".join(f"p{p}" for p in members)
                                      for t, members in enumerate(board.teams)), style="dim")


def standings_table(rows: list[tuple[int, int, str, float]], me: int) -> Table:
    table = Table(box=None, pad_edge=False)
    for name, justify in (("rank", "right"), ("player", "left"), ("score", "right")):
        table.add_column(name, justify=justify)
    for rank, seat, name, score in rows:
        table.add_row(str(rank), name, f"{score:g}",  # your seat's name says "you"; the row is marked
                      style="bold green" if seat == me else "")
    return table
