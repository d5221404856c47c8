"""The 20 game variables that `.rul` conditions compare (docs/rul-language.md, "Game variables").

A variable is named in a rule by its full name (`TotMyTwos`), its short name
(`G`) or any unambiguous prefix of its full name (`TotMyT`), ignoring case;
`resolve_variable` implements exactly that, and a short name wins over a prefix
(`T` is TwosLeft even though `T` also starts `TotMyCards`).

Ranges (`low`/`high`, `possible_values`) are those of the default table
(5 players, 52 cards); the reader uses them only to warn about conditions that
can never be true, the engine computes the real values from the game.
"""
from __future__ import annotations

import enum


class VariableError(ValueError):
    """A name in a condition that does not designate exactly one game variable."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


class UnknownVariable(VariableError):
    """No variable has this full name, short name or name prefix."""

    def __init__(self, name: str) -> None:
        super().__init__(name, f"unknown variable {name!r}")


class AmbiguousVariable(VariableError):
    """The name is a prefix of several full names; `candidates` lists them all."""

    def __init__(self, name: str, candidates: tuple["Variable", ...]) -> None:
        names = " or ".join(v.full for v in candidates)
        super().__init__(name, f"ambiguous variable {name!r}: could be {names}")
        self.candidates = candidates


class Variable(enum.Enum):
    """A game variable; its enum value is its full name (`Variable("Lead")`)."""

    # short, full name, meaning, low, high; flags below
    LEAD = ("L", "Lead", "Do I have the lead (no upcards)? 0 no, 1 yes", 0, 1)
    RANK = (
        "P", "Rank",
        "My rank from the previous round: 1 President, 2 Vice-President, "
        "3 Neutral, 4 Vice-Loser, 5 Loser, 6 none yet (first round)", 1, 6,
    )
    NUM_DIFF_VALS = (
        "V", "NumDiffVals", "How many different values do I hold, not counting twos?", 0, 13,
    )
    TWOS_LEFT = ("T", "TwosLeft", "Twos not in my hand and not yet played", 0, 4)
    CARD_VAL = ("C", "CardVal", "Value of the considered play (a two is 15)", 3, 15, "card", "play")
    RANDOM = ("R", "Random", "A fresh random number each time it is referenced", 1, 100)
    PERCENT_PLAYED = ("%", "%Played", "Percent of the deck already played (rounded down)", 0, 100)
    HIGHEST_OPP_CARDS = (
        "N", "HighestOppCards", "Most cards held by any opponent still in the round", 0, 13,
    )
    NUM_THIS_VALUE = (
        "S", "NumThisValue", "How many cards of the considered value do I hold?", 1, 4, "play",
    )
    FOLLOW_ODDS = (
        "O", "FollowOdds",
        "Chance, in percent, that at least one opponent still in the round can beat "
        "the considered play", 0, 100, "play",
    )
    HIGHER_PLAYERS = (
        "H", "HigherPlayers",
        "Players of higher rank than me still in the round (0 in the first round)", 0, 4,
    )
    PLAYERS_LEFT = ("F", "PlayersLeft", "Players still in the round, me included", 1, 7)
    TOT_MY_CARDS = ("I", "TotMyCards", "How many cards do I hold?", 0, 27)
    TOT_MY_TWOS = ("G", "TotMyTwos", "How many twos do I hold?", 0, 4)
    HAND_VALUE = (
        "A", "HandValue",
        "Average value of my hand not counting twos, rounded down (0 if only twos)",
        0, 14, "card", "zero",
    )
    MATCHES_UP_CARD = (
        "M", "MatchesUpCard", "Does the considered value equal the upcards' value? 0 no, 1 yes",
        0, 1, "play",
    )
    MY_LOWEST_CARD = (
        "W", "MyLowestCard", "My lowest value, not counting twos (0 if none)", 0, 14, "card", "zero",
    )
    MY_HIGHEST_CARD = (
        "E", "MyHighestCard", "My highest value, not counting twos (0 if none)", 0, 14, "card", "zero",
    )
    # Tables where suits matter (docs/president-rules.md: the `uecda` preset); always 0 elsewhere.
    LOCKED = ("B", "Locked", "Is the trick locked to the upcards' suits (shibari)? 0 no, 1 yes", 0, 1)
    SEQUENCE_UP = (
        "X", "SequenceUp", "Are the upcards a sequence (consecutive values of one suit)? 0 no, 1 yes", 0, 1,
    )

    def __new__(cls, short: str, full: str, meaning: str, low: int, high: int, *flags: str):
        member = object.__new__(cls)
        member._value_ = full
        member.short = short
        member.full = full
        member.meaning = meaning
        member.__doc__ = meaning
        member.low = low
        member.high = high
        # compared with card letters; a literal `2` means a two (15)
        member.is_card_value = "card" in flags
        # "of the considered play": 0 when the potential play is P (docs/rul-language.md)
        member.depends_on_play = "play" in flags
        # "0 if none, else a card value": 1 and 2 never occur
        member._zero_or_card = "zero" in flags
        return member

    @property
    def possible_values(self) -> frozenset[int]:
        """Every value the variable can take on the default table."""
        values = frozenset(range(self.low, self.high + 1))
        return values - {1, 2} if self._zero_or_card else values

    @property
    def range_text(self) -> str:
        """The range as docs/rul-language.md writes it, e.g. `0-4` or `0, 3-14`."""
        return span_text(self.possible_values)

    def __str__(self) -> str:
        return self.full


def span_text(values: frozenset[int]) -> str:
    """A set of integers as runs: `{0, 3, 4, 5}` -> `0, 3-5`."""
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


_BY_FULL = {v.full.lower(): v for v in Variable}
_BY_SHORT = {v.short.lower(): v for v in Variable}


def resolve_variable(name: str) -> Variable:
    """The variable a rule file means by `name` (case-insensitive).

    Order: full name, then short name, then unambiguous prefix of a full name.
    Raises `UnknownVariable` or `AmbiguousVariable` (with `.candidates`).
    """
    key = name.lower()
    found = _BY_FULL.get(key) or _BY_SHORT.get(key)
    if found is not None:
        return found
    matches = tuple(v for full, v in _BY_FULL.items() if key and full.startswith(key))
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise AmbiguousVariable(name, matches)
    raise UnknownVariable(name)


def shortest_prefixes(candidates: tuple[Variable, ...], typed: str = "") -> list[str]:
    """For each candidate, the shortest prefix longer than `typed` that names it alone."""
    out = []
    for v in candidates:
        for n in range(len(typed) + 1, len(v.full) + 1):
            prefix = v.full[:n]
            try:
                if resolve_variable(prefix) is v:
                    out.append(prefix)
                    break
            except VariableError:
                continue
        else:  # pragma: no cover - every full name resolves to itself
            out.append(v.full)
    return out
