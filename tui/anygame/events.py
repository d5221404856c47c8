"""The game's events in words, for one viewer: what a transcript records, minus what it may not see.

The interpreter logs every effect with the player on turn (`Store.log`, the
source of transcripts, `recycle.interp.transcript`). A transcript names every
card; the log on screen names a moved card only when the viewer could see it
leave or arrive (a bot's discard into a hidden pile stays "a card"). Runs of
moves between the same two places are told once ("5 cards from game STOCK to
p1 HAND"), a storage written several times in a row shows its last value, and
cycle bookkeeping is left out, and so is storage the table does not show (`names`:
what the players' choices read or write and the score, see `recycle.about`).
"""
from __future__ import annotations

from recycle.interp.effects import (
    CycleSet,
    Forget,
    Move,
    Pass,
    Remember,
    Reorder,
    SetValue,
)
from recycle.interp.store import loc_text

from tui.anygame.faces import CardFaces

MAX_FACES = 8  # cards named in one line at most; more are counted


def words(entries: list, table, viewer: int, faces: CardFaces, names: frozenset[str] | None = None) -> list[str]:
    """The phrases of a run of log entries (effects, or the dict records between them)."""
    out: list[str] = []
    moves: dict[tuple, list[int | None]] = {}  # (src, dst) -> cards (None: unseen), in the order of first move
    slots: dict[tuple, int] = {}  # (src, dst) / storage name -> index of its phrase in `out`
    for entry in entries:
        if isinstance(entry, dict):
            phrase = _record(entry)
            if phrase:
                out.append(phrase)
            continue
        effect = entry[0] if isinstance(entry, tuple) else entry
        if isinstance(effect, Move):
            pair = (effect.src, effect.dst)
            seen = table.visible(effect.src, viewer) or table.visible(effect.dst, viewer)
            if pair not in moves:
                moves[pair] = []
                slots[pair] = len(out)
                out.append("")
            moves[pair].append(effect.card if seen else None)
        elif isinstance(effect, SetValue):
            if effect.kind not in ("ints", "strs") or (names is not None and effect.key[-1] not in names):
                continue  # point maps, the game's arithmetic: not values a person follows
            name = effect.name()
            phrase = effect.text(table, None, viewer)
            if name in slots and out[slots[name]].startswith(f"set {name}"):
                out[slots[name]] = phrase  # the last value written wins
            else:
                slots[name] = len(out)
                out.append(phrase)
        elif isinstance(effect, (Remember, Forget)):
            verb, where = ("remember", effect.dst) if isinstance(effect, Remember) else ("forget", effect.src)
            out.append(f"{verb} {faces.words(faces.text(effect.card))} in {loc_text(where)}")  # mem: seen by all
        elif isinstance(effect, Reorder):
            out.append(f"{effect.why} {loc_text(effect.key)}")
        elif isinstance(effect, Pass):
            out.append("pass")
        elif isinstance(effect, CycleSet):
            continue
    for pair, cards in moves.items():
        out[slots[pair]] = _moves(pair, cards, faces)
    return [p for p in out if p]


def _moves(pair: tuple, cards: list, faces: CardFaces) -> str:
    src, dst = (loc_text(k) for k in pair)
    if len(cards) <= MAX_FACES and all(c is not None for c in cards):
        what = " ".join(faces.label(c) for c in cards) if faces.standard else ", ".join(faces.text(c) for c in cards)
    elif len(cards) == 1:
        what = "a card"
    else:
        what = f"{len(cards)} cards"
    return f"move {what} from {src} to {dst}"


def _record(entry: dict) -> str:
    kind = entry.get("t")
    if kind == "deck":
        return f"a deck of {len(entry.get('cards', ()))} cards in {entry.get('to')}"
    if kind == "called":
        return f"the game is called after {entry.get('choices')} choices (the limit) and scored as it stands"
    return ""  # the header, choices and the end are told by the session
