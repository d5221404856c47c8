"""How the table words what it shows: cards as drawn on screen, places, counts."""
from __future__ import annotations

from typing import Sequence

from president.game.cards import JOKER, Card

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_label(card: Card) -> str:
    """`7♥`, `T♠`, `Jk`: two cells wide, the way cards are drawn on screen."""
    return "Jk" if card.value == JOKER else str(card)[:-1] + SUIT_SYMBOLS[card.suit]


def ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def plural(n: int, word: str) -> str:
    """`1 card`, `2 cards`."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def cards_label(cards: Sequence[Card]) -> str:
    return " ".join(card_label(c) for c in cards)

