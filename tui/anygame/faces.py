"""Card faces from a RECYCLE game's card attributes: `7♥` for standard names, compact codes otherwise.

RECYCLE cards are attribute dictionaries (`RANK`, `SUIT`, `COLOR`, or names a
game invents). A game whose cards use only standard names (ranks TWO..ACE,
A/J/Q/K, JOKER; the four French suits) gets rank and suit symbols, as on a
real card. Any other value is shown by a one-character code (cards are two
cells wide, see `tui.shared.cards.CardFace`) and explained in a legend. COLOR is left off the face when the card has a SUIT (it follows
from it) but always colours the face.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

SUIT_SYMBOLS = {"HEARTS": "♥", "DIAMONDS": "♦", "CLUBS": "♣", "SPADES": "♠"}
RANK_SYMBOLS = {"ACE": "A", "A": "A", "KING": "K", "K": "K", "QUEEN": "Q", "Q": "Q", "JACK": "J", "J": "J",
                "TEN": "T", "NINE": "9", "EIGHT": "8", "SEVEN": "7", "SIX": "6", "FIVE": "5", "FOUR": "4",
                "THREE": "3", "TWO": "2", "JOKER": "Jk"}
#: A number word beyond a standard deck that still fits one cell (ELEVEN and up get codes).
NUMBERS = {"ONE": "1"}
#: Number words of any other attribute (a VALUE ONE..TEN) as on a card.
COUNTING = {**NUMBERS, **{w: s for w, s in RANK_SYMBOLS.items() if s.isdigit() or w == "TEN"}}
RED_SUITS = {"HEARTS", "DIAMONDS"}
#: Colour words a game may give its cards, as terminal colours.
COLOURS = {"RED": "red", "BLACK": "", "BLUE": "blue", "GREEN": "green", "YELLOW": "yellow"}
STANDARD_KEYS = {"RANK", "SUIT", "COLOR"}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Face:
    """One card as drawn: its label and the colour of the label (`""`: the default)."""

    label: str
    colour: str = ""


def _codes(values: list[str], known: dict[str, str], taken: set[str]) -> dict[str, str]:
    """A code per value: its known symbol, else one character (cards are two cells wide): its
    first letter when free, else its next letters, else another letter, a digit, a small letter. `taken` (updated)
    holds the codes other attributes use: one letter never means two things in the legend."""
    codes = {v: known[v] for v in values if v in known}
    taken.update(codes.values())
    for v in values:
        if v in codes:
            continue
        pick = next((ch for ch in v.upper() + LETTERS + "0123456789" + LETTERS.lower()
                     if ch.isalnum() and ch not in taken), v[:1] or "?")
        codes[v] = pick
        taken.add(pick)
    return codes


class CardFaces:
    """The faces of every card of one game (`table` from `recycle.interp.store.Table`)."""

    def __init__(self, table) -> None:
        attrs: list[dict] = table.attrs
        keys: list[str] = []
        values: dict[str, list[str]] = {}
        for a in attrs:
            for k, v in a.items():
                if k not in values:
                    keys.append(k)
                    values[k] = []
                if v not in values[k]:
                    values[k].append(v)
        self.standard = bool(attrs) and set(keys) <= STANDARD_KEYS and "RANK" in values and all(
            v in RANK_SYMBOLS for v in values["RANK"]) and all(v in SUIT_SYMBOLS for v in values.get("SUIT", ()))
        codes: dict[str, dict[str, str]] = {}
        plain: dict[str, set[str]] = {}  # values whose code needs no legend (a symbol, a number)
        taken: set[str] = set()
        for k in keys:
            known = {"RANK": {**RANK_SYMBOLS, **NUMBERS}, "SUIT": SUIT_SYMBOLS}.get(k, COUNTING)
            codes[k] = _codes(values[k], known, taken)
            plain[k] = {v for v in values[k] if v in known or codes[k][v] == v}
        # An attribute every card has with the same value says nothing on a face.
        shown = [k for k in keys if (len(values[k]) > 1 or any(k not in a for a in attrs))
                 and not (k == "COLOR" and "SUIT" in values)]
        self.faces = [self._face(a, shown, codes) for a in attrs]
        # Hands are sorted suit by suit, then by the order the deck lists its values in.
        order = sorted(keys, key=lambda k: (k != "SUIT", k != "RANK"))
        self._sort = [tuple(values[k].index(a[k]) if k in a else -1 for k in order) for a in attrs]
        self.legend = () if self.standard else tuple(
            f"{k}: " + " ".join(f"{codes[k][v]}={v}" for v in values[k] if v not in plain[k])
            for k in shown if any(v not in plain[k] for v in values[k]))
        self.width = max((len(f.label) for f in self.faces), default=2)
        self._texts = table.text
        # Card texts inside option and log texts, longest first so "TEN RED HEARTS" wins over a prefix.
        by_text = {t: self.faces[c].label for c, t in enumerate(table.text)}
        self._by_text = by_text
        self._pattern = re.compile("|".join(re.escape(t) for t in sorted(by_text, key=len, reverse=True))
                                   ) if by_text else None

    @staticmethod
    def _face(a: dict, shown: list[str], codes: dict) -> Face:
        label = "".join(codes[k][a[k]] for k in shown if k in a) or "?"
        suit, colour = a.get("SUIT"), a.get("COLOR", "")
        if suit is not None and suit in SUIT_SYMBOLS:
            tint = "red" if suit in RED_SUITS else ""
        else:
            tint = COLOURS.get(colour, "")
        if a.get("RANK") == "JOKER":
            label = "Jk"
        return Face(label, tint)

    def face(self, card: int) -> Face:
        return self.faces[card]

    def sort_key(self, card: int) -> tuple:
        """Where `card` goes in a sorted hand: by suit, then rank, then the other attributes."""
        return self._sort[card]

    def label(self, card: int) -> str:
        return self.faces[card].label

    def text(self, card: int) -> str:
        """The card in the game's own words (`SEVEN RED HEARTS`)."""
        return self._texts[card]

    def words(self, text: str) -> str:
        """`text` (an option, a log line) with every card's text replaced by its face, for standard
        cards; custom cards keep the game's words (a one-letter code reads worse than its name)."""
        if self._pattern is None or not self.standard:
            return text
        return self._pattern.sub(lambda m: self._by_text[m.group(0)], text)
