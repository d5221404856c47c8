"""Cards, values and the actions of President, as small immutable types.

Values run 3..15 in the normal order (T=10, J=11, Q=12, K=13, A=14, 2=15) and
a joker is 16. Suits never matter in play, so an action names values only:
`Play.parse("7 7")` is a pair of sevens and `str(play)` gives the text back.
The engine picks which suited cards leave the hand (the lowest suits first),
so the public record of play is still exact, card by card.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from personalities.view import JOKER, TWO  # noqa: F401  (re-exported: President's values are the climbing view's scale)
from recycle.kernel.protocol import ActionParseError

VALUES = tuple(range(3, 16))  # 3 .. 2, jokers excluded
SUITS = "cdhs"  # clubs first: the 3 of clubs opens the first round

_VALUE_TEXT = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A", 15: "2", 16: "Jk"}
_TEXT_VALUE = {"t": 10, "10": 10, "j": 11, "q": 12, "k": 13, "a": 14, "2": 15,
               "jk": 16, "joker": 16, **{str(v): v for v in range(3, 10)}}
_SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def value_text(value: int) -> str:
    """`3`..`9`, `T`, `J`, `Q`, `K`, `A`, `2`, `Jk`."""
    return _VALUE_TEXT.get(value, str(value))


#: The labels of a per-value count row (index = value; indices 0-2 unused): beliefs' kinds of card.
VALUE_LABELS = tuple("" if v < 3 else _VALUE_TEXT.get(v, str(v)) for v in range(17))


def parse_value(token: str) -> int:
    """A value from its text (`7`, `T`, `10`, `q`, `2`, `Jk`), ignoring a trailing suit."""
    t = token.strip().lower()
    if t in _TEXT_VALUE:
        return _TEXT_VALUE[t]
    if len(t) >= 2 and t[-1] in _SUIT_NAMES and t[:-1] in _TEXT_VALUE and t[:-1] != "jk":
        return _TEXT_VALUE[t[:-1]]
    raise ActionParseError(
        f"{token!r} is not a card value (use 3-9, T or 10, J, Q, K, A, 2, Jk; a suit c/d/h/s may follow)")


@dataclass(frozen=True, order=True)
class Card:
    """One physical card. `suit` is 'c', 'd', 'h', 's', or '' for a joker."""

    value: int
    suit: str

    def __str__(self) -> str:
        return value_text(self.value) + self.suit

    @classmethod
    def parse(cls, text: str) -> "Card":
        t = text.strip()
        if t.lower() in ("jk", "joker"):
            return cls(JOKER, "")
        if t.lower().startswith(("jk", "joker")):
            raise ActionParseError(f"{text!r}: a joker has no suit (write Jk)")
        if len(t) < 2 or t[-1].lower() not in _SUIT_NAMES:
            raise ActionParseError(f"{text!r} is not a card (examples: 7h, Tc, 2s, Jk)")
        return cls(parse_value(t[:-1]), t[-1].lower())


@dataclass(frozen=True, order=True)
class Play:
    """Cards played together: `count` cards of one `value`.

    `jokers` of them are wild jokers standing for that value; a lone joker
    played for itself has value 16. A pass is `Play.PASS` (count 0).

    At a table where suits matter (sequences or locks, `president.game.suited`) a
    play names its cards: `suits` is the mask of its suits (bit i: `SUITS[i]`),
    counting the suit a joker stands for, and `wild` says which cards are
    jokers (in a group, a mask of suits; in a sequence, of positions from the
    lowest). A sequence (`run`) is `count` consecutive values of one suit from
    `value` up. Plays where suits do not matter keep `suits` 0.
    """

    value: int
    count: int
    jokers: int = 0
    suits: int = 0
    run: bool = False
    wild: int = 0

    PASS: "Play" = None  # type: ignore[assignment]  # set below

    @property
    def is_pass(self) -> bool:
        return self.count == 0

    @property
    def naturals(self) -> int:
        """How many of the cards are of `value` itself (not wild jokers)."""
        return self.count - self.jokers

    def __str__(self) -> str:
        if self.count == 0:
            return "pass"
        if self.suits:
            return " ".join(("Jk:" if wild else "") + value_text(v) + suit for v, suit, wild in self.cells())
        return " ".join([value_text(self.value)] * self.naturals + ["Jk"] * self.jokers)

    def cells(self) -> list[tuple[int, str, bool]]:
        """A suited play's cards as (value, suit, is a joker standing for it), lowest first."""
        if self.run:
            suit = SUITS[self.suits.bit_length() - 1]
            return [(self.value + i, suit, bool(self.wild >> i & 1)) for i in range(self.count)]
        return [(self.value, suit, bool(self.wild >> i & 1)) for i, suit in enumerate(SUITS) if self.suits >> i & 1]

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    @classmethod
    def parse(cls, text: str, suited: bool = False) -> "Play":
        """`"7 7"`, `"7h 7c"`, `"pass"`, `"Jk"`, `"9 9 Jk"` (a joker as a wild nine); a sequence
        `"5h 6h 7h"` or `"5h Jk:6h 7h"`; with `suited` (a table where suits matter) `"7h 7c"` is
        those two sevens and `"7h Jk:7s"` a joker standing for the seven of spades."""
        tokens = text.replace(",", " ").split()
        if not tokens:
            raise ActionParseError("empty play: name the cards (e.g. '7 7') or 'pass'")
        if len(tokens) == 1 and tokens[0].lower() in ("pass", "p", "-"):
            return PASS
        if suited or (len(tokens) > 1 and (any(":" in t for t in tokens) or _distinct_suited(tokens))):
            from president.game.suited import parse_suited

            return parse_suited(tokens)
        values = [parse_value(t) for t in tokens]
        naturals = [v for v in values if v != JOKER]
        jokers = len(values) - len(naturals)
        if not naturals:
            if jokers != 1:
                raise ActionParseError("jokers alone are played one at a time")
            return play_of(JOKER, 1)
        if len(set(naturals)) != 1:
            raise ActionParseError(f"{text!r} mixes values: a play is cards of one value")
        return play_of(naturals[0], len(values), jokers)


def _distinct_suited(tokens: list[str]) -> bool:
    """Cards of several values, every one with a suit: a sequence (never a valid set of one value)."""
    try:
        cards = [Card.parse(t) for t in tokens]
    except ActionParseError:
        return False
    return len({c.value for c in cards}) > 1


PASS = Play(0, 0)
Play.PASS = PASS
_PLAYS: dict[tuple[int, int, int], Play] = {}


def play_of(value: int, count: int, jokers: int = 0) -> Play:
    """The interned `Play` (plays are compared and hashed a lot in search)."""
    key = (value, count, jokers)
    play = _PLAYS.get(key)
    if play is None:
        play = _PLAYS[key] = Play(value, count, jokers)
    return play


@dataclass(frozen=True, order=True)
class Give:
    """Cards handed over in the exchange, by value, lowest first: `give 3 4`."""

    values: tuple[int, ...]

    def __str__(self) -> str:
        return "give " + " ".join(value_text(v) for v in self.values)

    @classmethod
    def parse(cls, text: str) -> "Give":
        tokens = text.replace(",", " ").split()
        if not tokens or tokens[0].lower() != "give" or len(tokens) < 2:
            raise ActionParseError(f"{text!r} is not a gift (example: 'give 3 4')")
        return cls(tuple(sorted(parse_value(t) for t in tokens[1:])))


def parse_action(text: str, suited: bool = False) -> Play | Give:
    """Any President action from its text form (`suited`: at a table where plays name their suits)."""
    if text.strip().lower().startswith("give"):
        return Give.parse(text)
    return Play.parse(text, suited)


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def parse_cards(text: str) -> list[Card]:
    """Suited cards: `"7h Tc 2s Jk"`."""
    return [Card.parse(t) for t in text.replace(",", " ").split()]
