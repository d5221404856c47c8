"""Expression nodes of the RECYCLE syntax tree (re-exported by `recycle.lang.tree`).

Every node is a frozen dataclass carrying `line` and `column` (1-based, of its
first character). Positions are keyword-only and excluded from `==`, so two
trees compare equal when they say the same thing.

Field names are the language's own words: `(max CARDS using POINTS)` is
`MaxCard(cards, using)`, `(OWNER sto NAME)` is `IntStorage(owner, name)`.
A field typed `Node` documents in its comment which family it holds.
"""
from __future__ import annotations

from dataclasses import KW_ONLY, field

from recycle.lang.frozen import Frozen, node


@node
class Node(Frozen):
    """Base class: every node knows where it was written."""

    _: KW_ONLY
    # Left out of == and repr: trees written at different places still compare equal.
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)


# --- leaves -------------------------------------------------------------------

@node
class Var(Node):
    """`'NAME` — a variable. `kind` says what its binding holds (int, str, card,
    cards, player, points... see `recycle.lang.vocab`), "unknown" when the
    bound value could not be typed without running the game."""

    name: str
    kind: str = "unknown"


@node
class IntLit(Node):
    """`23` — an integer literal (never negative)."""

    value: int


@node
class Name(Node):
    """`HEARTS` — an upper-case name, the language's string literal."""

    value: str


@node
class NewName(Node):
    """`new` as a location name: a fresh location (dialect B)."""


# --- owners, players, teams -------------------------------------------------------

@node
class GameOwner(Node):
    """`game` as an owner of storage and locations."""


@node
class PlayerRef(Node):
    """`(current player)`, `(next player)`, `(previous player)`; `which` is that word."""

    which: str


@node
class PlayerAt(Node):
    """`(N player)` — the player in seat N (from 0)."""

    index: Node  # integer


@node
class OwnerOf(Node):
    """`(owner CARD)` — the player holding the card."""

    card: Node


@node
class TeamRef(Node):
    """`(current team)`, `(next team)`, `(previous team)`."""

    which: str


@node
class TeamAt(Node):
    """`(N team)` — team number N (from 0)."""

    index: Node  # integer


@node
class TeamOf(Node):
    """`(team PLAYER)` — the team a player is on."""

    player: Node


# --- storage ------------------------------------------------------------------

@node
class IntStorage(Node):
    """`(OWNER sto NAME)` — an integer store. Owner: GameOwner, player, team or Var."""

    owner: Node
    name: Node  # string


@node
class StrStorage(Node):
    """`(OWNER str NAME)` — a string store (dialect B)."""

    owner: Node
    name: Node


@node
class PointStorage(Node):
    """`(OWNER points NAME)` — a stored point map (dialect B)."""

    owner: Node
    name: Node


@node
class Location(Node):
    """`(OWNER vloc NAME)`, `(OWNER vloc NAME INDEX)` — a card location.

    `visibility` is vloc (all), iloc (owner), hloc (nobody), oloc (all but the
    owner) or mem (remembered copies). `name` is a string expression, an
    `IntLit` or `NewName`; `index` (dialect C) is None for the plain form."""

    owner: Node
    visibility: str
    name: Node
    index: Node | None = None


@node
class IndexedLocations(Node):
    """`(indexed OWNER vloc NAME)` — every indexed location of that name (C)."""

    owner: Node
    visibility: str
    name: Node


# --- strings ------------------------------------------------------------------

@node
class CardAtt(Node):
    """`(cardatt KEY CARD)` — the card's value for KEY ("" when absent)."""

    key: Node  # string
    card: Node


# --- integers -----------------------------------------------------------------

@node
class Arithmetic(Node):
    """`(+ A B ...)`, `(- A B)`, `(* A B ...)`, `(// A B)`, `(% A B)` / `(mod A B)`,
    `(^ A B)`. `op` is one of + - * // % ^ (`mod` is stored as %)."""

    op: str
    operands: tuple[Node, ...]


@node
class Tri(Node):
    """`(tri N)` — the N-th triangular number."""

    n: Node


@node
class Fib(Node):
    """`(fib N)` — the N-th Fibonacci number."""

    n: Node


@node
class Random(Node):
    """`(random N)` — 0..N inclusive (`low` None); `(random L..H)` — L..H inclusive."""

    low: Node | None
    high: Node


@node
class Size(Node):
    """`(size COLLECTION)` — of any collection: cards, players, teams, range, names."""

    collection: Node


@node
class Sum(Node):
    """`(sum CARDS using POINTS)` — the cards' points added up."""

    cards: Node
    using: Node  # point map


@node
class Score(Node):
    """`(score CARD using POINTS)`."""

    card: Node
    using: Node


@node
class ScoreMax(Node):
    """`(scoremax CARDS using POINTS)` — the highest card score (C)."""

    cards: Node
    using: Node


@node
class ScoreMin(Node):
    """`(scoremin CARDS using POINTS)` — the lowest card score (C)."""

    cards: Node
    using: Node


@node
class Pid(Node):
    """`(pid PLAYER)` — the player's seat number (C)."""

    player: Node


@node
class Tid(Node):
    """`(tid TEAM)` — the team's number (C)."""

    team: Node


@node
class AllSum(Node):
    """`(all COLLECTION 'V INTEGER)` — the integer summed over the collection."""

    collection: Node
    var: Var
    value: Node


# --- booleans -----------------------------------------------------------------

@node
class And(Node):
    """`(and B B ...)` — two or more."""

    operands: tuple[Node, ...]


@node
class Or(Node):
    """`(or B B ...)` — two or more."""

    operands: tuple[Node, ...]


@node
class Not(Node):
    """`(not B)`."""

    operand: Node


@node
class Compare(Node):
    """`(OP A B)` for OP in == != < > <= >=. `kind` is what is compared:
    int, str, card, player, team ("unknown" for two untyped variables)."""

    op: str
    left: Node
    right: Node
    kind: str


@node
class AllTrue(Node):
    """`(all COLLECTION 'V BOOLEAN)` — true when it holds for every element."""

    collection: Node
    var: Var
    condition: Node


@node
class AnyTrue(Node):
    """`(any COLLECTION 'V BOOLEAN)` — true when it holds for some element."""

    collection: Node
    var: Var
    condition: Node


# --- cards --------------------------------------------------------------------

@node
class CardAt(Node):
    """`(top CARDS)`, `(bottom CARDS)`, `(N CARDS)` — `position` is "top",
    "bottom" or an integer expression (0 is the top)."""

    position: str | Node
    cards: Node


@node
class MaxCard(Node):
    """`(max CARDS using POINTS)` — ties broken at random."""

    cards: Node
    using: Node


@node
class MinCard(Node):
    """`(min CARDS using POINTS)` — ties broken at random."""

    cards: Node
    using: Node


@node
class Actual(Node):
    """`(actual CARD)` — the real card behind a virtual one (from union, min...)."""

    card: Node
