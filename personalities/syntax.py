"""The `.rul` rule model: small immutable values whose `str()` is canonical text.

Like python-chess moves, every value prints as the text a rule file would hold
and parses back to an equal value (`parse_potential(str(p)) == p` (`personalities.reader`)).

Canonical text form (what `str()` writes):
- potentials: values `3`..`9`, `T`, `J`, `Q`, `K`, `A`, `2` (so `10` prints `T`);
  `L`/`H` upper case with a lower-case modifier, a single written bare
  (`L`, `Lp`, `Lt`, `Lq`, `L*`; `Ls` prints `L`); pass `P`;
- conditions: `FullName <op> value` with single spaces, the comparison as
  docs/rul-language.md writes it (`>`, `<`, `=`, `!`, `>=`, `<=`; `==`/`!=` print `=`/`!`),
  card-valued variables' values as card letters (`CardVal < Q`, 15 prints `2`),
  others as integers (`TotMyTwos > 1`);
- rules: the potential then each condition, separated by single spaces;
- personalities: `; description` on the first line, then one rule per line.
"""
from __future__ import annotations

import enum
import operator
from dataclasses import dataclass, field
from typing import Callable

from recycle.kernel.diagnostics import Diagnostic

from personalities.variables import Variable
from personalities.view import TWO, card_text

MAX_CONDITIONS = 10
"""At most this many conditions per rule (the 1997 manual's limit)."""
MAX_FILE_BYTES = 1_000_000
"""The largest `.rul` file read."""
MAX_VALUE = 999_999_999
"""Largest value a condition may compare with: 9 digits keeps `int()` cheap."""

class PotentialKind(enum.Enum):
    """What a rule's potential cards designate."""

    VALUE = "value"
    """A given card value (`7`, `Q`, `2`)."""
    LOWEST = "L"
    """My lowest value that applies, not counting twos."""
    HIGHEST = "H"
    """My highest value that applies, not counting twos."""
    PASS = "P"
    """Passing."""


class Modifier(enum.Enum):
    """How many cards `L`/`H` play; the value is the modifier letter."""

    SINGLE = "s"
    """A value of which I hold exactly 1 card (also written with no modifier)."""
    PAIR = "p"
    """A value of which I hold exactly 2 cards."""
    TRIPS = "t"
    """A value of which I hold exactly 3 cards."""
    QUADS = "q"
    """A value of which I hold exactly 4 cards."""
    NEEDED = "*"
    """As many as the upcards (sets broken); all cards of the value when leading."""
    RUN = "r"
    """A sequence of one suit (where suits matter): when leading, the longest I hold from the
    chosen value up; when following a sequence, one of the upcards' length."""

    @property
    def count(self) -> int | None:
        """Exact number of cards held, or None for NEEDED (the situation decides)."""
        return {"s": 1, "p": 2, "t": 3, "q": 4}.get(self.value)


#: The modifiers that count cards of one value: what mutation and induction draw from (a sequence
#: is written by hand), so their draws are those of files written before `r`.
COUNT_MODIFIERS = tuple(m for m in Modifier if m is not Modifier.RUN)


@dataclass(frozen=True)
class Potential:
    """The potential cards of a rule: a value, L/H with a modifier, or P."""

    kind: PotentialKind
    value: int | None = None  # 3..15 for VALUE (10 is T, 15 is a two), else None
    modifier: Modifier | None = None  # L/H only; None there means SINGLE

    def __post_init__(self) -> None:
        if self.kind is PotentialKind.VALUE:
            if not isinstance(self.value, int) or not 3 <= self.value <= TWO or self.modifier:
                raise ValueError(f"a value potential needs a value 3..15 and no modifier: {self!r}")
        elif self.value is not None:
            raise ValueError(f"{self.kind.name} takes no value")
        elif self.kind is PotentialKind.PASS and self.modifier is not None:
            raise ValueError("P takes no modifier")
        elif self.kind is not PotentialKind.PASS and self.modifier is None:
            object.__setattr__(self, "modifier", Modifier.SINGLE)  # L means Ls


    def __str__(self) -> str:
        if self.kind is PotentialKind.VALUE:
            return card_text(self.value)
        if self.kind is PotentialKind.PASS:
            return "P"
        suffix = "" if self.modifier is Modifier.SINGLE else self.modifier.value
        return self.kind.value + suffix


_OPERATORS: dict[str, Callable[[int, int], bool]] = {
    ">": operator.gt, "<": operator.lt, "=": operator.eq,
    "!": operator.ne, ">=": operator.ge, "<=": operator.le,
}


class Comparison(enum.Enum):
    """A condition's comparison; the value is its canonical symbol."""

    GT = ">"
    """Greater than."""
    LT = "<"
    """Less than."""
    EQ = "="
    """Equal (also written `==`)."""
    NE = "!"
    """Not equal (also written `!=`)."""
    GE = ">="
    """Greater than or equal."""
    LE = "<="
    """Less than or equal."""

    @classmethod
    def from_symbol(cls, symbol: str) -> "Comparison":
        """`>`, `<`, `=`, `!`, `>=`, `<=`, and the synonyms `==`, `!=`."""
        return cls({"==": "=", "!=": "!"}.get(symbol, symbol))

    @property
    def compare(self) -> Callable[[int, int], bool]:
        """The function behind the symbol (`operator.gt` for `>`...), for compiled rules."""
        return _OPERATORS[self.value]

    def test(self, left: int, right: int) -> bool:
        """`left <op> right`."""
        return _OPERATORS[self.value](left, right)

    def can_hold(self, lefts: frozenset[int], right: int) -> bool:
        """Whether `left <op> right` holds for at least one of `lefts`."""
        if not lefts:
            return False
        match self:  # bounds suffice for orderings: no need to try every value
            case Comparison.GT | Comparison.GE:
                return self.test(max(lefts), right)
            case Comparison.LT | Comparison.LE:
                return self.test(min(lefts), right)
            case Comparison.EQ:
                return right in lefts
        return bool(lefts - {right})

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Condition:
    """`<variable> <comparison> <value>`; `column` (1-based, 0 if unknown) is not compared."""

    variable: Variable
    comparison: Comparison
    value: int
    column: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.value, int) or not 0 <= self.value <= MAX_VALUE:
            raise ValueError(f"condition values are whole numbers 0..{MAX_VALUE}: {self.value!r}")
        if self.variable.is_card_value and self.value == 2:
            # a written `2` means a two (15) for card variables: 2 has no spelling
            raise ValueError(f"{self.variable.full} cannot be compared with 2 (a two is 15)")


    @property
    def value_text(self) -> str:
        """The value as written: a card letter for card variables, else an integer."""
        if self.variable.is_card_value and 3 <= self.value <= TWO:
            return card_text(self.value)
        return str(self.value)

    def __str__(self) -> str:
        return f"{self.variable.full} {self.comparison.value} {self.value_text}"


@dataclass(frozen=True)
class Rule:
    """Potential cards and up to 10 conditions; `line`/`source` locate it, uncompared."""

    potential: Potential
    conditions: tuple[Condition, ...] = ()
    line: int = field(default=0, compare=False)
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "conditions", tuple(self.conditions))
        if len(self.conditions) > MAX_CONDITIONS:
            raise ValueError(f"at most {MAX_CONDITIONS} conditions per rule")

    def __str__(self) -> str:
        return " ".join([str(self.potential), *map(str, self.conditions)])


@dataclass(frozen=True)
class Personality:
    """A whole `.rul` file: rules in order; `filename`/`warnings` are not compared.

    `description` is the text of the file's first non-empty comment line.
    """

    name: str
    rules: tuple[Rule, ...] = ()
    description: str = ""
    filename: str = field(default="<string>", compare=False)
    warnings: tuple[Diagnostic, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", tuple(self.rules))
        object.__setattr__(self, "warnings", tuple(self.warnings))

    def __str__(self) -> str:
        """The canonical `.rul` text; parsing it gives equal rules and description."""
        lines = []
        # one line: only the reader's line breaks (LF, CR) are replaced; U+2028, NEL, form feeds
        # and the like are kept, as the reader keeps them (so the text reads back equal)
        description = " ".join(self.description.replace("\r\n", "\n").replace("\r", "\n").split("\n")).strip()
        if description:
            lines.append(f"; {description}")
        lines.extend(map(str, self.rules))
        return "".join(line + "\n" for line in lines)
