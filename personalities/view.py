"""The climbing view: everything a rule personality may read to decide.

A game presents itself to the condition engine through this one value type,
so the engine never imports a game. Values use the `.rul` scale: 3..14 for
3..A, 15 for a two, 16 for a joker; `counts[v]` is how many of value v.
President builds one natively (`president/game/view.py`); a RECYCLE climbing game
builds one through an adapter.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Collection

#: The value scale of every climbing view (docs/rul-language.md): 3..14 as printed (T=10 ... A=14),
#: a two is 15, the highest plain card, and a joker 16.
TWO = 15
JOKER = 16
NO_RANK = 6

#: A concrete play: (value, count).
Play = tuple[int, int]
#: The third item of a resolved lead of a sequence, `(lowest value, length, RUN)`.
RUN = 1


@dataclass(frozen=True, init=False)
class ClimbingView:
    """One player's position in a climbing game, as rules see it.

    Built for every decision of every rule player: `__init__` is written out (one `__dict__`
    update instead of the frozen dataclass's fifteen `object.__setattr__`, a third of building
    a President view); tests/test_speed_paths.py checks it takes exactly the fields below.
    """

    hand: tuple[int, ...]
    """Cards I hold per value, indexed 0..16 (index 16: jokers)."""
    upcards: Play | None
    """The play to beat, or None when I have the lead."""
    legal: Collection[Play]
    """The (value, count) plays the rules allow me now (naturals only); supports `in`."""
    can_pass: bool
    """May I pass now? (Not when I lead.)"""
    unseen: tuple[int, ...]
    """Per value, cards I have not seen: not in my hand, not played."""
    opponent_counts: tuple[int, ...]
    """Cards held by each opponent still in the round."""
    played: int
    """How many cards have been played this round."""
    deck_size: int
    """Cards in the pack (jokers included)."""
    order: tuple[int, ...] = tuple(range(3, 16))
    """Values from weakest to strongest (reversed during a revolution)."""
    rank: int = NO_RANK
    """My rank from the previous round: 1 President .. 5 Loser, 6 none."""
    higher_players: int = 0
    """Players of higher rank than me still in the round."""
    jokers_beat_singles: bool = True
    """Does a lone joker beat any single (for FollowOdds)?"""
    wild_jokers: bool = False
    """Do jokers complete sets of a natural value (for FollowOdds)?"""
    actions: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """The game's action for each legal (value, count) play."""
    pass_action: Any = field(default=None, compare=False, repr=False)
    """The game's action for passing (when `can_pass`)."""

    def __init__(self, hand: tuple[int, ...], upcards: Play | None, legal: Collection[Play], can_pass: bool,
                 unseen: tuple[int, ...], opponent_counts: tuple[int, ...], played: int, deck_size: int,
                 order: tuple[int, ...] = tuple(range(3, 16)), rank: int = NO_RANK, higher_players: int = 0,
                 jokers_beat_singles: bool = True, wild_jokers: bool = False, actions: dict[Any, Any] | None = None,
                 pass_action: Any = None) -> None:
        self.__dict__.update(
            hand=hand, upcards=upcards, legal=legal, can_pass=can_pass, unseen=unseen,
            opponent_counts=opponent_counts, played=played, deck_size=deck_size, order=order, rank=rank,
            higher_players=higher_players, jokers_beat_singles=jokers_beat_singles, wild_jokers=wild_jokers,
            actions={} if actions is None else actions, pass_action=pass_action)

    #: Where suits matter (a game overrides them): is the trick locked to the upcards' suits, and are
    #: the upcards a sequence? Class attributes, not fields: most games never have either.
    locked = False
    sequence_up = False
    #: Where sequences exist, the game's action for each sequence I may lead (no joker), by (lowest
    #: value, length); a resolved lead of one is `(value, length, RUN)`. Empty elsewhere.
    runs = MappingProxyType({})  # no annotation: a class attribute, not a dataclass field

    def action(self, play: Play | None) -> Any:
        """The game's action for a resolved play, or for a pass (None)."""
        if play is None:
            return self.pass_action
        return self.runs[play[:2]] if len(play) == 3 else self.actions[play]

    @property
    def lead(self) -> bool:
        return self.upcards is None

    @property
    def players_left(self) -> int:
        return len(self.opponent_counts) + 1

    def strength(self, value: int) -> int:
        """Position of a value in the current order (jokers above everything)."""
        return len(self.order) if value == JOKER else self.order.index(value)


_LETTER_VALUES = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_VALUE_LETTERS = {v: k for k, v in _LETTER_VALUES.items()} | {TWO: "2"}


def card_text(value: int) -> str:
    """A card value 3..15 as a rule file writes it (`10` -> `T`, `15` -> `2`)."""
    if not 3 <= value <= TWO:
        raise ValueError(f"not a card value: {value}")
    return _VALUE_LETTERS.get(value, str(value))


def card_value(text: str) -> int:
    """The value of a card as written in a potential: `3`..`9`, `10`, T J Q K A, `2`."""
    key = text.upper()
    if key in _LETTER_VALUES:
        return _LETTER_VALUES[key]
    if key.isascii() and key.isdigit() and int(key) in range(2, 11):
        return TWO if int(key) == 2 else int(key)
    raise ValueError(f"not a card: {text!r}")


def cards_text(value: int, count: int, run: int = 0) -> str:
    """`(10, 2)` -> `T T`; a sequence `(5, 3, RUN)` -> `5 6 7`."""
    if run:
        return " ".join(card_text(value + i) for i in range(count))
    text = "Jk" if value == JOKER else card_text(value)
    return " ".join([text] * count)


def hand_text(hand: tuple[int, ...], order: tuple[int, ...]) -> str:
    """A hand per value, weakest first, jokers last: `3 3 T Jk`."""
    return " ".join(cards_text(v, hand[v]) for v in (*order, JOKER) if hand[v])


@dataclass(frozen=True)
class ExchangeView:
    """A choice of cards to hand over (President's exchange): `count` cards from `hand`."""

    hand: tuple[int, ...]
    count: int
    receiver: int
    order: tuple[int, ...] = tuple(range(3, 16))
    actions: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """The game's action for each sorted tuple of values that may be given."""
