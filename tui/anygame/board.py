"""What one seat sees of a RECYCLE game, grouped by owner: piles, storage, teams.

Drawn from the seat's observation (`RecycleObservation`: every location's cards
the seat can see, the others' sizes, all storage, the hidden cards it knows the
place of), never from the game's own store, so nothing the seat cannot see can
reach the screen: the same observation agents get. For the "open hands" mode and
once the game is over, the observation is `OpenObservation` (every card face up).

Cards are ids of the game's card table (for faces), one per card text: two cards
with the same text look the same and are the same to the person.
"""
from __future__ import annotations

from dataclasses import dataclass

#: The order of owner groups: the game's piles first, then players, then teams.
_KIND_ORDER = {"g": 0, "p": 1, "t": 2}


@dataclass(frozen=True)
class View:
    """What is seen, as the observation says it: (location name `p0 iloc HAND`, card texts when
    seen, else a count), (`p0 CHIPS`, value) and (card text, location name) of known hidden cards."""

    locations: tuple
    storage: tuple
    known: tuple = ()
    team_members: tuple = ()  # the players of each team (public from the setup)
    team_of: tuple = ()  # each player's team
    players: int = 0


def seat_view(observation) -> View:
    """The view of an observation: a seat's (`state.observation(seat)`), or every card face up
    (`recycle.interp.observation.OpenObservation`, open hands or the game over)."""
    return View(observation.locations, observation.storage, observation.known, observation.team_members,
                observation.team_of, observation.num_players)


@dataclass(frozen=True)
class PileView:
    """One location as the viewer sees it."""

    key: tuple  # (owner kind, owner number, visibility, name), read from the location's name
    visible: bool  # can the viewer see its cards?
    cards: tuple[int, ...]  # card ids, bottom first (empty when not visible)
    size: int
    known: tuple[int, ...] = ()  # hidden cards the viewer knows are here

    @property
    def name(self) -> str:
        return str(self.key[3])

    @property
    def title(self) -> str:
        """`p1 HAND`: the location as option texts and the log name it."""
        return f"{_owner_text(self.key)} {self.key[3]}"

    @property
    def visibility(self) -> str:
        return self.key[2]


@dataclass(frozen=True)
class OwnerView:
    """An owner (the game, a player, a team) and what it holds."""

    owner: tuple  # ("g", 0), ("p", i), ("t", i)
    piles: tuple[PileView, ...]
    storage: tuple[tuple[str, object], ...]  # (NAME, value) of integer and string stores

    @property
    def tag(self) -> str:
        return _owner_text(self.owner)


@dataclass(frozen=True)
class Board:
    """Everything the viewer may see now."""

    viewer: int
    owners: tuple[OwnerView, ...]
    teams: tuple[tuple[int, ...], ...]  # only when some team has two or more players
    team_of: tuple[int, ...] = ()  # each player's team
    open: bool = False  # every card shown (open hands, or the game over)

    def owner(self, tag: str) -> OwnerView | None:
        return next((o for o in self.owners if o.tag == tag), None)

    def pile(self, title: str) -> PileView | None:
        return next((p for o in self.owners for p in o.piles if p.title == title), None)

    def hand(self) -> tuple[PileView, ...]:
        """The viewer's private piles (iloc of its own, or its team's): the cards it holds."""
        return tuple(p for o in self.owners for p in o.piles
                     if p.visibility == "iloc" and p.visible and o.owner[0] != "g" and _mine(o.owner, self))


def _mine(owner: tuple, board: Board) -> bool:
    if owner[0] == "p":
        return owner[1] == board.viewer
    return owner[0] == "t" and board.team_of[board.viewer] == owner[1]


def _owner_text(owner: tuple) -> str:
    return "game" if owner[0] == "g" else f"{owner[0]}{owner[1]}"


def _owner(word: str) -> tuple:
    """`game` -> ("g", 0), `p3` -> ("p", 3), `t1` -> ("t", 1)."""
    if word == "game":
        return ("g", 0)
    return (word[0], int(word[1:]))


def location_key(name: str) -> tuple:
    """`p0 iloc HAND` -> ("p", 0, "iloc", "HAND")."""
    owner, visibility, place = name.split(" ", 2)
    return _owner(owner) + (visibility, place)


def board_of(view: View, viewer: int, shown: dict[str, bool], card_of: dict[str, int],
             open: bool = False) -> Board:
    """The board of `view` (an observation's, nothing else). `shown` (updated here: location name -> seen)
    holds every location drawn so far, so a pile emptied between two looks (a trick gathered) keeps its
    place; `card_of` gives a card text's id (for faces)."""
    known: dict[str, list[int]] = {}
    for text, where in view.known:
        known.setdefault(where, []).append(card_of[text])
    now = dict(view.locations)
    for name, cards in now.items():
        shown[name] = isinstance(cards, tuple)
    groups: dict[tuple, list[PileView]] = {}
    for name in sorted(shown, key=_name_order):
        key = location_key(name)
        cards = now.get(name, ())
        seen = isinstance(cards, tuple) and (shown[name] or open)
        ids = tuple(card_of[t] for t in cards) if seen else ()
        groups.setdefault(key[:2], []).append(
            PileView(key, seen, ids, len(cards) if seen else int(cards or 0), tuple(sorted(known.get(name, ())))))
    stores: dict[tuple, list] = {}
    for label, value in view.storage:
        owner, store = label.split(" ", 1)
        stores.setdefault(_owner(owner), []).append((store, value))
    owners = set(groups) | set(stores) | {("p", p) for p in range(view.players)}  # every seat has a group
    teams = view.team_members if any(len(m) > 1 for m in view.team_members) else ()
    views = tuple(OwnerView(o, tuple(groups.get(o, ())), tuple(sorted(stores.get(o, ()), key=lambda s: s[0])))
                  for o in sorted(owners, key=lambda o: (_KIND_ORDER.get(o[0], 3), o[1])))
    return Board(viewer, views, teams, view.team_of, open)


def _name_order(name: str) -> tuple:
    k = location_key(name)
    return (_KIND_ORDER.get(k[0], 3), k[1], k[3], k[2])
