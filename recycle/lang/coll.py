"""Collection and point-map nodes of the RECYCLE syntax tree (re-exported by `tree`).

Conventions as in `recycle.lang.expr`: frozen dataclasses, positions
keyword-only and left out of `==`, fields named in the language's words.
"""
from __future__ import annotations

from recycle.lang.expr import Node, Var, node


# --- card collections ---------------------------------------------------------------

@node
class Union(Node):
    """`(union C ...)`. Each part is a card collection or a collection of
    collections (e.g. `(all player 'P ('P vloc TRICK))`), flattened."""

    parts: tuple[Node, ...]


@node
class Intersect(Node):
    """`(intersect C ...)` — parts as in `Union` (dialect B)."""

    parts: tuple[Node, ...]


@node
class Disjunction(Node):
    """`(disjunction C ...)` — cards in exactly one part (dialect B)."""

    parts: tuple[Node, ...]


@node
class Sort(Node):
    """`(sort CARDS using POINTS)` (dialect B)."""

    cards: Node
    using: Node


@node
class Filter(Node):
    """`(filter COLLECTION 'V BOOLEAN)` — the elements for which it holds;
    `kind` is the collection's kind (cards, players, teams, ints, strs, cardsets)."""

    collection: Node
    var: Var
    condition: Node
    kind: str


@node
class CollectionAt(Node):
    """`(top SETS)`, `(bottom SETS)`, `(N SETS)` — one collection of a
    collection of collections."""

    position: str | Node
    collections: Node


@node
class TopCards(Node):
    """`(top N CARDS)` / `(bottom N CARDS)` — the N cards at that end (B);
    `end` is "top" or "bottom"."""

    end: str
    count: Node
    cards: Node


@node
class Run(Node):
    """`(run top|bottom N CARDS using POINTS)` — the run of at least N cards
    that includes that end (B)."""

    end: str
    length: Node
    cards: Node
    using: Node


# --- collections of card collections ------------------------------------------------

@node
class Partition(Node):
    """`(partition KEY CARDS ...)` (or KEY last) — groups by the card attribute KEY."""

    key: Node  # string
    parts: tuple[Node, ...]


@node
class Subsets(Node):
    """`(subsets CARDS)` — every subset; `(subsets CARDS > 2)` keeps those whose
    size compares true (`compare` the operator, `size` the integer; C)."""

    cards: Node
    compare: str | None = None
    size: Node | None = None


@node
class Runs(Node):
    """`(runs largest|all N CARDS using POINTS)` — runs of at least N cards."""

    mode: str
    length: Node
    cards: Node
    using: Node


@node
class Tuples(Node):
    """`(tuples N CARDS using POINTS)` — groups of N cards scoring equal."""

    size: Node
    cards: Node
    using: Node


@node
class AllCollections(Node):
    """`(all COLLECTION 'V CARDS)` — one card collection per element."""

    collection: Node
    var: Var
    cards: Node


# --- other collections ----------------------------------------------------------

@node
class Players(Node):
    """`player` as a collection: every player, in seating order."""


@node
class Teams(Node):
    """`team` as a collection: every team."""


@node
class OtherPlayers(Node):
    """`(other player)` — every player but the current one."""


@node
class OtherTeams(Node):
    """`(other team)` — every team but the current one."""


@node
class TeamMembers(Node):
    """A team expression used as a collection: its players."""

    team: Node


@node
class Range(Node):
    """`(range L..H)`. `inclusive` is False in dialect A (H excluded), True in B/C."""

    low: Node
    high: Node
    inclusive: bool = True


@node
class StringList(Node):
    """`(YELLOW, GREEN, BLUE)` — a collection of names."""

    values: tuple[str, ...]


# --- point maps -----------------------------------------------------------------

@node
class AwardCondition(Node):
    """`(KEY : VALUE)`, `(KEY (VALUE))` or `(KEY (cardatt ...))` inside an award."""

    key: Node  # string
    value: Node  # string


@node
class Award(Node):
    """`((KEY : VAL) ... POINTS)` — POINTS when every condition matches the card."""

    conditions: tuple[AwardCondition, ...]
    points: Node  # integer


@node
class PointMap(Node):
    """The parenthesised list of awards after `set (... points NAME)` or `put points`."""

    awards: tuple[Award, ...]
