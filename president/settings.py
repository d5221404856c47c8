"""Table settings: every variant of docs/president-rules.md, and the presets.

`Settings` is immutable; `preset("classic").with_overrides({"players": "6"})`
derives a new table. Settings have text names (used by `--set key=value`)
that are exactly the field names.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace

from recycle.kernel.suggest import hint


MAX_ROUNDS = 100_000  # rounds of one match (as `--rounds`)
MAX_TARGET = 100_000  # a target score (points a match is played to)


class SettingsError(ValueError):
    """A setting name or value that does not exist; the message lists the valid ones."""


class EqualValue(enum.Enum):
    """May a play equal the upcards' value (instead of beating it)?"""

    SKIP = "skip"
    """Yes, and the next player is skipped (classic)."""
    ALLOW = "allow"
    """Yes, with no skip."""
    NO = "no"
    """No: plays must be strictly higher (pagat's basic game)."""


class JokerMode(enum.Enum):
    """What a joker does."""

    HIGH = "high"
    """A joker is played alone and beats any single."""
    WILD = "wild"
    """A joker alone beats any single, and in a set it stands for any value."""


class FirstLeader(enum.Enum):
    """Who leads the first round of a match."""

    THREE_OF_CLUBS = "three-of-clubs"
    """The holder of the 3 of clubs (classic)."""
    THREE_OF_DIAMONDS = "three-of-diamonds"
    """The holder of the 3 of diamonds (UECda)."""
    LEFT_OF_DEALER = "left-of-dealer"
    """The player to the dealer's left."""


class LaterLeader(enum.Enum):
    """Who leads the rounds after the first."""

    LOSER = "loser"
    """The Loser of the previous round (classic)."""
    PRESIDENT = "president"
    """The President of the previous round."""


@dataclass(frozen=True)
class Settings:
    """One table's rules. Defaults are the `classic` preset."""

    players: int = 5
    decks: int = 1
    jokers: int = 0
    joker_mode: JokerMode = JokerMode.HIGH
    pass_locks: bool = False
    equal_value: EqualValue = EqualValue.SKIP
    twos_end_trick: bool = True
    exchange_big: int = 2  # President <-> Loser
    exchange_small: int = 1  # Vice-President <-> Vice-Loser
    first_leader: FirstLeader = FirstLeader.THREE_OF_CLUBS
    later_leader: LaterLeader = LaterLeader.LOSER
    revolution: bool = False
    eight_cut: bool = False
    no_going_out_on_two: bool = False
    rounds: int = 10
    target_score: int = 0  # 0: no target; the match lasts `rounds` rounds
    # Suits matter from here on (president/game/suited.py); all off at the tables above.
    sequences: bool = False  # three or more consecutive values of one suit are a play (kaidan)
    lock: bool = False  # a play of the same suits as the one it beats locks the trick to them (shibari)
    spade_three: bool = False  # a lone joker is beaten by the 3 of spades alone
    last_place_points: int = 0  # points of the last place a round (UECda: 1, so 5..1 with 5 players)

    def __post_init__(self) -> None:
        if not 3 <= self.players <= 7:
            raise SettingsError(f"players must be 3 to 7, not {self.players}")
        if self.decks not in (1, 2):
            raise SettingsError(f"decks must be 1 or 2, not {self.decks}")
        if not 0 <= self.jokers <= 2 * self.decks:
            raise SettingsError(f"jokers must be 0 to {2 * self.decks} with {self.decks} deck(s), not {self.jokers}")
        if not 0 <= self.exchange_small <= self.exchange_big <= 4:
            raise SettingsError("exchange counts must satisfy 0 <= exchange_small <= exchange_big <= 4")
        if self.rounds < 1 and self.target_score <= 0:
            raise SettingsError("a match needs rounds >= 1 or a target_score")
        if self.rounds < 0 or self.target_score < 0:
            raise SettingsError("rounds and target_score cannot be negative")
        if (self.sequences or self.lock or self.spade_three) and self.decks != 1:
            raise SettingsError("sequences, lock and spade_three need one deck (a card is named by its suit)")
        if not 0 <= self.last_place_points <= 100:
            raise SettingsError(f"last_place_points must be 0 to 100, not {self.last_place_points}")
        if self.rounds > MAX_ROUNDS or self.target_score > MAX_TARGET:
            # a match of 10**20 rounds is a typo that would never end
            raise SettingsError(f"rounds must be at most {MAX_ROUNDS:,} and target_score at most {MAX_TARGET:,}")

    @property
    def suited(self) -> bool:
        """Do suits matter at this table (which cards a play names)?"""
        return self.sequences or self.lock or self.spade_three

    @property
    def deck_size(self) -> int:
        return 52 * self.decks + self.jokers

    def with_overrides(self, overrides: dict[str, str]) -> "Settings":
        """A copy with settings given as text (`{"players": "6", "revolution": "on"}`)."""
        by_name = {f.name: f for f in fields(self)}
        changes = {}
        for key, text in overrides.items():
            name = key.strip().replace("-", "_").lower()
            if name not in by_name:
                raise SettingsError(f"unknown setting {key!r}{hint(name, by_name)}; settings are: {', '.join(by_name)}")
            changes[name] = _convert(name, getattr(self, name), text)
        return replace(self, **changes)

    def describe(self) -> dict[str, str]:
        """Every setting as text, in declaration order (for tables and JSON)."""
        return {f.name: _to_text(getattr(self, f.name)) for f in fields(self)}


def _to_text(value: object) -> str:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


_TRUE = {"on", "yes", "true", "1"}
_FALSE = {"off", "no", "false", "0"}


def _convert(name: str, current: object, text: str) -> object:
    t = text.strip().lower()
    if isinstance(current, bool):
        if t in _TRUE:
            return True
        if t in _FALSE:
            return False
        raise SettingsError(f"{name} is on or off, not {text!r}{hint(t, _TRUE | _FALSE)}")
    if isinstance(current, enum.Enum):
        options = [m.value for m in type(current)]
        if t not in options:
            raise SettingsError(f"{name} must be one of {', '.join(options)}, not {text!r}{hint(t, options)}")
        return type(current)(t)
    try:
        return int(t)
    except ValueError:
        raise SettingsError(f"{name} is a whole number, not {text!r}") from None


PRESETS: dict[str, Settings] = {
    "classic": Settings(),
    "pagat": Settings(equal_value=EqualValue.NO, exchange_big=1, exchange_small=0,
                      later_leader=LaterLeader.PRESIDENT, first_leader=FirstLeader.LEFT_OF_DEALER),
    "daifugo": Settings(revolution=True, eight_cut=True, jokers=2, joker_mode=JokerMode.WILD),
    # The computer Daifugo competition's standard rules (docs/uecda.md): strictly higher plays, a pass
    # sits out the trick, twos do not end it, 8-cut, revolution, sequences, lock, one wild joker.
    "uecda": Settings(jokers=1, joker_mode=JokerMode.WILD, pass_locks=True, equal_value=EqualValue.NO,
                      twos_end_trick=False, first_leader=FirstLeader.THREE_OF_DIAMONDS, revolution=True,
                      eight_cut=True, sequences=True, lock=True, spade_three=True, last_place_points=1),
}


def preset(name: str) -> Settings:
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise SettingsError(f"unknown preset {name!r}{hint(name, PRESETS)}; presets are: "
                            f"{', '.join(PRESETS)}") from None


def parse_assignments(items: list[str]) -> dict[str, str]:
    """`["players=6", "revolution=on"]` -> a dict, with a clear error for a bad item."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SettingsError(f"--set takes key=value, not {item!r}")
        out[key.strip()] = value.strip()
    return out
