"""How a pack of cards maps to bits, so that a hand is one Python int.

Each value owns a slot of `width` bits (4 suits x decks); jokers sit in the
slot of value 16. A hand, the played cards or a gift is a bitmask; copying a
state copies a few ints, which is what makes search cheap.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import chain

from president.game.cards import JOKER, SUITS, Card

_VALUES_WITH_JOKER = tuple(range(3, 17))
#: Per byte of a one-deck hand, the cards of its two values (low nibble first), for `Layout.counts`.
_NIBBLE_COUNTS = [((b & 15).bit_count(), (b >> 4).bit_count()) for b in range(256)].__getitem__


class Layout:
    """Bit positions of every card for a given number of decks and jokers."""

    __slots__ = ("decks", "jokers", "width", "slot", "shift", "cards", "full", "value_of_bit", "lowest")

    def __init__(self, decks: int, jokers: int) -> None:
        self.decks = decks
        self.jokers = jokers
        self.width = 4 * decks
        self.slot = (1 << self.width) - 1
        self.shift = [0] * 17
        for v in _VALUES_WITH_JOKER:
            self.shift[v] = (v - 3) * self.width
        # cards[bit] is the Card at that bit (None where no card exists).
        self.cards: list[Card | None] = [None] * (14 * self.width)
        for v in range(3, 16):
            for s, suit in enumerate(SUITS):
                for d in range(decks):
                    self.cards[self.shift[v] + s * decks + d] = Card(v, suit)
        for j in range(jokers):
            self.cards[self.shift[JOKER] + j] = Card(JOKER, "")
        self.full = sum(1 << b for b, c in enumerate(self.cards) if c is not None)
        self.value_of_bit = [c.value if c else 0 for c in self.cards]
        # lowest[slot bits][k]: the k lowest of those bits. Taking cards is a table
        # look-up instead of a loop: it happens on every play of every rollout.
        self.lowest: list[list[int]] = []
        for bits in range(1 << self.width):
            row, taken = [0], 0
            while bits:
                low = bits & -bits
                taken |= low
                bits ^= low
                row.append(taken)
            self.lowest.append(row)

    def count(self, mask: int, value: int) -> int:
        return ((mask >> self.shift[value]) & self.slot).bit_count()

    def counts(self, mask: int) -> list[int]:
        """Cards held per value, indexed by value (0..16)."""
        if self.width == 4:  # one deck: the 14 slots are the nibbles of 7 bytes, two counts per byte looked up
            return [0, 0, 0, *chain.from_iterable(map(_NIBBLE_COUNTS, mask.to_bytes(7, "little")))]
        sl = self.slot
        return [0, 0, 0] + [((mask >> sh) & sl).bit_count() for sh in self.shift[3:]]

    def take(self, mask: int, value: int, n: int) -> int:
        """The mask of `n` cards of `value` from `mask`, lowest suits first (all of them if fewer)."""
        if n <= 0:
            return 0
        shift = self.shift[value]
        row = self.lowest[(mask >> shift) & self.slot]
        return row[min(n, len(row) - 1)] << shift

    def card_list(self, mask: int) -> list[Card]:
        """The cards of a mask, lowest value first."""
        out = []
        cards = self.cards
        while mask:
            low = mask & -mask
            out.append(cards[low.bit_length() - 1])
            mask ^= low
        return out

    def bits_of(self, cards: list[Card], used: int = 0) -> int:
        """The mask of suited cards, each physical card used once (not one of `used`)."""
        mask = 0
        for card in cards:
            for b, c in enumerate(self.cards):
                if c == card and not (mask | used) >> b & 1:
                    mask |= 1 << b
                    break
            else:
                raise ValueError(f"card {card} is not in this pack (or appears too often)")
        return mask

    def bit(self, card: Card, copy: int = 0) -> int:
        if card.value == JOKER:
            return 1 << (self.shift[JOKER] + copy)
        return 1 << (self.shift[card.value] + SUITS.index(card.suit) * self.decks + copy)


@lru_cache(maxsize=None)
def layout(decks: int, jokers: int) -> Layout:
    return Layout(decks, jokers)
