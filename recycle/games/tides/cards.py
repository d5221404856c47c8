"""The 18 cards of a Tides of Time round, as the seed's card list gives them.

Each card has a suit (or none), an objective kind, the suits the objective
names and its points. A card's text is its name (`most-palace`); `Card.parse`
reads that name in any case, with or without hyphens, and also the RECYCLE
version's card text (`GARDEN MOSTPALACE`), so a pick's text round-trips.

Cards are numbered 1..18 as in the seed; hands and kingdoms are often bitmasks
over those numbers (`bit(card) = 1 << number`), which the solver's caches key on.
"""
from __future__ import annotations

from dataclasses import dataclass

from recycle.kernel.protocol import ActionParseError

#: The five suits, in the seed's order (index 1..5; 0 is "no suit").
SUITS = ("palace", "library", "garden", "temple", "stronghold")
NO_SUIT = ""

# Objective kinds (the seed's strategy types).
EACH = "each"            # points for each set of the named suits
ALL_SUITS = "all-suits"  # points for holding all five suits
MAJORITY = "majority"    # points for more of the named suit than the opponent
WIN_TIES = "win-ties"    # win every tie (majorities, singletons, highest)
LACKING = "lacking"      # points for each suit you do not hold
SINGLETONS = "singletons"  # 8 for more suits held with exactly one card
DOUBLE = "double"        # double the count of your largest suit(s)
HIGHEST = "highest"      # 8 for the best single card's points
KINDS = (EACH, ALL_SUITS, MAJORITY, WIN_TIES, LACKING, SINGLETONS, DOUBLE, HIGHEST)


class CardParseError(ActionParseError):
    """Text that names no card of the game."""


@dataclass(frozen=True)
class Card:
    """One card: its seed number, name, suit ("" for none), objective kind, named suits, points."""

    number: int
    name: str
    suit: str
    kind: str
    names: tuple[str, ...]
    points: int

    def __post_init__(self) -> None:
        if self.suit not in SUITS + (NO_SUIT,) or self.kind not in KINDS or not set(self.names) <= set(SUITS):
            raise ValueError(f"not a Tides of Time card: {self!r}")

    @property
    def bit(self) -> int:
        return 1 << self.number

    @property
    def token(self) -> str:
        """The name as one upper-case word: the card's NAME in the RECYCLE version."""
        return self.name.replace("-", "").upper()

    def describe(self) -> str:
        """The objective in words, for tables and traces."""
        named = "+".join(self.names)
        return {EACH: f"{self.points} per {named} set", ALL_SUITS: f"{self.points} for all five suits",
                MAJORITY: f"{self.points} for most {named}", WIN_TIES: "win all ties",
                LACKING: f"{self.points} per suit lacking", SINGLETONS: f"{self.points} for most one-card suits",
                DOUBLE: "double your largest suit(s)", HIGHEST: f"{self.points} for the highest single card"}[self.kind]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def parse(text: str) -> Card:
        """The card `text` names: `most-palace`, `MOSTPALACE`, `Most Palace`, or `GARDEN MOSTPALACE`."""
        words = text.split()
        if len(text) > 200 or not words:
            raise CardParseError(f"{text[:40]!r} is not a card: name one of {', '.join(c.name for c in DECK)}")
        for candidate in ["".join(words)] + words:  # the whole text, else one of its words (RECYCLE's text)
            card = _BY_TOKEN.get(candidate.replace("-", "").replace("_", "").upper())
            if card is not None:
                return card
        raise CardParseError(f"{text!r} is not a card: name one of {', '.join(c.name for c in DECK)}")


def _card(number: int, name: str, suit: str, kind: str, names: tuple[str, ...] = (), points: int = 0) -> Card:
    return Card(number, name, suit, kind, names, points)


#: The deck, by seed number (the seed's `Init()`), DECK[i] being card number i + 1.
DECK: tuple[Card, ...] = (
    _card(1, "each-temple", "stronghold", EACH, ("temple",), 3),
    _card(2, "each-library", "palace", EACH, ("library",), 3),
    _card(3, "each-garden", "library", EACH, ("garden",), 3),
    _card(4, "each-palace", "temple", EACH, ("palace",), 3),
    _card(5, "each-stronghold", "garden", EACH, ("stronghold",), 3),
    _card(6, "most-palace", "garden", MAJORITY, ("palace",), 7),
    _card(7, "most-garden", "temple", MAJORITY, ("garden",), 7),
    _card(8, "most-library", "stronghold", MAJORITY, ("library",), 7),
    _card(9, "most-stronghold", "palace", MAJORITY, ("stronghold",), 7),
    _card(10, "most-temple", "library", MAJORITY, ("temple",), 7),
    _card(11, "library-garden", "temple", EACH, ("library", "garden"), 5),
    _card(12, "palace-stronghold-temple", "library", EACH, ("palace", "stronghold", "temple"), 9),
    _card(13, "all-suits", "garden", ALL_SUITS, (), 13),
    _card(14, "lacking", "stronghold", LACKING, (), 3),
    _card(15, "win-ties", "palace", WIN_TIES, (), 0),
    _card(16, "singletons", NO_SUIT, SINGLETONS, (), 8),
    _card(17, "double", NO_SUIT, DOUBLE, (), 0),
    _card(18, "highest", NO_SUIT, HIGHEST, (), 8),
)
_BY_TOKEN = {c.token: c for c in DECK}
BY_NUMBER = {c.number: c for c in DECK}
ALL_BITS = sum(c.bit for c in DECK)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, by number."""
    return tuple(c for c in DECK if mask & c.bit)


def mask_of(cards) -> int:
    """The bitmask of some cards."""
    out = 0
    for c in cards:
        out |= c.bit
    return out
