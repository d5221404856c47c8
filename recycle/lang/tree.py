"""The typed syntax tree of a RECYCLE game — what the interpreter walks.

Every node is a frozen dataclass with `line`/`column` (1-based, keyword-only,
ignored by `==`). Expression nodes live in `recycle.lang.expr` and are
re-exported here, so `from recycle.lang.tree import *` gives every class.

Form → node (dialect letters where a form is not common to all):

Game structure
  (game DECLARE* SETUP FLOW* SCORING)      Game
  (declare VALUE 'V)                       Declare
  (setup (create players N) ...)           Setup
  (create teams (0, 2) (1 (3)))            CreateTeams of TeamSpec (nested: B)
  (create deck [NAME] CARDS (deck ...))    CreateDeck, Deck, Attribute, ValueGroup
  (repeat N (create deck ...))             Repeat (inside Setup.decks)
  (stage player|team (end B) BODY*)        Stage(mode="end")
  (stage player simultaneous|once BODY*)   Stage(mode=...)  (C)
  (scoring max|min INT)                    Scoring
Actions
  (do (A ...)) / (choice (A ...))          Do / Choice
  (BOOLEAN ACTION)                         Conditional
  (all COLL 'V ACTION) / (any ... ACTION)  AllDo (sequence) / AnyDo (one option each)
  (let VALUE 'V ACTION)                    Let
  (move C C) (remember C C) (forget C)     Move, Remember, Forget
  (shuffle CS) / (shuffle faro CS CS)      Shuffle / FaroShuffle (B)
  (swap C C) / (swap CS CS)                SwapCards / SwapLocations (C)
  (set (O sto N) INT)                      SetInt
  (set (O str N) STR)                      SetStr (B)
  (set (O points N) (AWARD ...))           SetPoints (B)
  (put points 'V (AWARD ...))              PutPoints (A)
  (update (O points N) (AWARD ...))        UpdatePoints (C)
  (inc S [INT]) / (dec S [INT])            Inc / Dec (no amount: 1, C)
  (cycle next|current WHO)                 Cycle
  (turn pass)                              TurnPass
  (repeat N A) / (repeat all A)            Repeat / RepeatAll
Expressions (modules `expr` and `coll`)
  'V, 12, NAME, new                        Var, IntLit, Name, NewName
  game, (current player), (2 player)       GameOwner, PlayerRef, PlayerAt
  (owner C), (current team), (1 team)      OwnerOf, TeamRef, TeamAt
  (team P), (pid P), (tid T)               TeamOf, Pid, Tid (C)
  (O sto N) (O str N) (O points N)         IntStorage, StrStorage (B), PointStorage (B)
  (O vloc|iloc|hloc|oloc|mem N [I])        Location (oloc: B, index I: C)
  (indexed O vloc N)                       IndexedLocations (C)
  (+ - * // % mod ^ ...)                   Arithmetic (% ^: B; n-ary + *: C)
  (tri N) (fib N) (random N) (random L..H) Tri, Fib, Random (B)
  (size X) (sum CS using PM)               Size, Sum
  (score C using PM)                       Score
  (scoremax|scoremin CS using PM)          ScoreMax, ScoreMin (C)
  (all COLL 'V INT)                        AllSum (C)
  (and ..) (or ..) (not B) (== A B) ...    And, Or, Not, Compare
  (all|any COLL 'V BOOLEAN)                AllTrue, AnyTrue
  (cardatt KEY C)                          CardAtt
  (top CS) (bottom CS) (N CS)              CardAt
  (max CS using PM) (min ...) (actual C)   MaxCard, MinCard, Actual
  (union ..) (intersect ..) (disjunction)  Union, Intersect (B), Disjunction (B)
  (sort CS using PM)                       Sort (B)
  (filter COLL 'V B)                       Filter
  (top SETS) (bottom SETS) (N SETS)        CollectionAt
  (top N CS) (bottom N CS)                 TopCards (B)
  (run top|bottom N CS using PM)           Run (B)
  (partition KEY CS) (subsets CS [> N])    Partition (B), Subsets (B; size filter C)
  (runs largest|all N CS using PM)         Runs (B)
  (tuples N CS using PM)                   Tuples
  (all COLL 'V CS)                         AllCollections
  player team (other player) (other team)  Players, Teams, OtherPlayers, OtherTeams
  a team expression as a collection        TeamMembers
  (range L..H)                             Range (exclusive in A, inclusive in B/C)
  (A, B, C)                                StringList
  (((KEY : VAL) ... N) ...)                PointMap, Award, AwardCondition
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from recycle.kernel.diagnostics import Diagnostic
from recycle.lang.coll import *  # noqa: F401,F403 — one namespace for the interpreter
from recycle.lang.expr import *  # noqa: F401,F403
from recycle.lang.expr import Node, Var, node


# --- game structure -------------------------------------------------------------

@dataclass(frozen=True)
class Feature:
    """A form that marks a dialect, as first seen in the file."""

    dialect: str  # "A", "B" or "C"
    name: str
    line: int
    column: int


@node
class Declare(Node):
    """`(declare VALUE 'V)` — a game-wide constant (integer, name, collection...)."""

    var: Var
    value: Node


@node
class TeamSpec(Node):
    """One team of `(create teams ...)`: `(0, 2)`; nested lists are sub-teams (B)."""

    members: tuple[int, ...]
    subteams: tuple["TeamSpec", ...] = ()


@node
class CreateTeams(Node):
    """`(create teams (0, 2) (1, 3))`. Players left out get teams of their own."""

    teams: tuple[TeamSpec, ...]


@node
class Attribute(Node):
    """`(KEY GROUP ...)` in a deck: every card gets one value of KEY per group value."""

    key: str
    groups: tuple["ValueGroup", ...]


@node
class ValueGroup(Node):
    """`(V1, V2, ... SUB-ATTRIBUTE*)`: values of the enclosing key; the cards
    with one of them also get the sub-attributes (`(RED (SUIT (HEARTS, ...)))`).
    `values` is a `Var` when written `('NAMES)` (a declared name list)."""

    values: tuple[str, ...] | Var
    attributes: tuple[Attribute, ...] = ()


@node
class Deck(Node):
    """`(deck ATTRIBUTE ...)` — one card per combination of the attributes' values."""

    attributes: tuple[Attribute, ...]


@node
class CreateDeck(Node):
    """`(create deck [NAME] LOCATION (deck ...))`; `name` is None unless given (B)."""

    name: Node | None
    location: Node  # card collection
    deck: Deck


@node
class Setup(Node):
    """`(setup (create players N) [(create teams ...)] (create deck ...)...)`.
    `decks` holds CreateDeck and Repeat(times, CreateDeck) in file order."""

    players: Node  # integer
    teams: CreateTeams | None
    decks: tuple[Node, ...]


@node
class Stage(Node):
    """`(stage player|team (end B) BODY...)`. `cycle` is "player" or "team";
    `mode` is "end" (then `end` is the condition), "simultaneous" or "once" (C).
    `body` holds Stage, Do, Choice, AllDo, AnyDo, Let."""

    cycle: str
    mode: str
    end: Node | None
    body: tuple[Node, ...]


@node
class Scoring(Node):
    """`(scoring max|min INT)` — INT is evaluated with each player as current."""

    goal: str  # "max" or "min": which end of the scores ranks first
    score: Node


@node
class Game(Node):
    """`(game ...)`: the whole file.

    `flow` holds the top-level Stage, Do, Choice, AllDo, AnyDo and Let in order.
    `dialect` is the set of dialect letters whose distinctive forms appear
    (empty: only forms common to all three); `features` lists those forms.
    `warnings` are readable notes that did not stop the reading."""

    declarations: tuple[Declare, ...]
    setup: Setup
    flow: tuple[Node, ...]
    scoring: Scoring
    dialect: frozenset[str] = frozenset()
    features: tuple[Feature, ...] = ()
    warnings: tuple[Diagnostic, ...] = ()
    filename: str = "<string>"


# --- control --------------------------------------------------------------------

@node
class Do(Node):
    """`(do (ACTION ...))` — run each in order."""

    actions: tuple[Node, ...]


@node
class Choice(Node):
    """`(choice (OPTION ...))` — the current player picks one enabled option."""

    options: tuple[Node, ...]


@node
class Conditional(Node):
    """`(BOOLEAN ACTION)` — the action only when the condition holds."""

    condition: Node
    action: Node


@node
class AllDo(Node):
    """`(all COLLECTION 'V ACTION)` — the action for each element, in order."""

    collection: Node
    var: Var
    action: Node


@node
class AnyDo(Node):
    """`(any COLLECTION 'V ACTION)` — one option per element (inside a choice)."""

    collection: Node
    var: Var
    action: Node


@node
class Let(Node):
    """`(let VALUE 'V ACTION)` — V names VALUE inside ACTION."""

    value: Node
    var: Var
    action: Node


# --- actions --------------------------------------------------------------------

@node
class Move(Node):
    """`(move CARD CARD)` — the first card goes to where the second one names."""

    card: Node
    to: Node


@node
class Remember(Node):
    """`(remember CARD CARD)` — copy the card into a `mem` location."""

    card: Node
    to: Node


@node
class Forget(Node):
    """`(forget CARD)` — drop a remembered copy."""

    card: Node


@node
class Shuffle(Node):
    """`(shuffle CARDS)`."""

    cards: Node


@node
class FaroShuffle(Node):
    """`(shuffle faro CARDS CARDS)` — interleave the two collections (B)."""

    first: Node
    second: Node


@node
class SwapCards(Node):
    """`(swap CARD CARD)` — exchange two cards (C)."""

    first: Node
    second: Node


@node
class SwapLocations(Node):
    """`(swap LOCATION LOCATION)` — exchange the contents of two locations (C)."""

    first: Node
    second: Node


@node
class SetInt(Node):
    """`(set (OWNER sto NAME) INT)`."""

    storage: Node
    value: Node


@node
class SetStr(Node):
    """`(set (OWNER str NAME) STRING)` (B)."""

    storage: Node
    value: Node


@node
class SetPoints(Node):
    """`(set (OWNER points NAME) (AWARD ...))` (B)."""

    storage: Node
    points: Node  # PointMap


@node
class PutPoints(Node):
    """`(put points 'V (AWARD ...))` — a point map held in a variable (A)."""

    var: Var
    points: Node


@node
class UpdatePoints(Node):
    """`(update (OWNER points NAME) (AWARD ...))` — add or replace awards (C)."""

    storage: Node
    points: Node


@node
class Inc(Node):
    """`(inc STORAGE INT)`; `(inc STORAGE)` (C) is built with amount IntLit(1)."""

    storage: Node
    amount: Node


@node
class Dec(Node):
    """`(dec STORAGE INT)`; `(dec STORAGE)` (C) is built with amount IntLit(1)."""

    storage: Node
    amount: Node


@node
class Cycle(Node):
    """`(cycle next|current WHO)`. `mode` "next" queues who moves after this turn,
    "current" changes the current one at once. `who` is the bare word
    "current", "next" or "previous" (relative to the stage's cycle), or a
    player expression ((owner C), 'V, (2 player)... )."""

    mode: str
    who: str | Node


@node
class TurnPass(Node):
    """`(turn pass)` — an action that changes nothing."""


@node
class Repeat(Node):
    """`(repeat N ACTION)`."""

    times: Node
    action: Node


@node
class RepeatAll(Node):
    """`(repeat all ACTION)` — repeat the move (or forget) until its source is empty."""

    action: Node


__all__ = [n for n, v in list(globals().items())
           if isinstance(v, type) and issubclass(v, Node)] + ["Feature", "Node"]


def walk(root: object) -> Iterator[Node]:
    """Every node of a syntax (sub)tree, in file order: a node before its fields, fields (and the
    items of tuples) in order. The tree is finite and acyclic (frozen dataclasses), so this ends."""
    stack = [root]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
        elif isinstance(n, Node):
            yield n
            stack.extend(reversed([getattr(n, f) for f in n.__dataclass_fields__ if f not in ("line", "column")]))
