"""What one seat sees of a RECYCLE game, grouped by owner: piles, storage, teams.

Built from the state with the interpreter's visibility (`Table.visible`, the
same test `RecycleObservation` uses): cards of locations the viewer cannot
see appear as a count, never as faces, and the hidden cards it knows the place
of (`Store.known`, see `recycle.interp.knowledge`) are listed as known.
"""
from __future__ import annotations

from dataclasses import dataclass

from recycle.interp.state import owner_text

#: The order of owner groups: the game's piles first, then players, then teams.
_KIND_ORDER = {"g": 0, "p": 1, "t": 2}


@dataclass(frozen=True)
class PileView:
    """One location as the viewer sees it."""

    key: tuple  # the interpreter's location key: (owner kind, owner number, visibility, name)
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
        return f"{owner_text(self.key)} {self.key[3]}"

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
        return owner_text(self.owner)


@dataclass(frozen=True)
class Board:
    """Everything the viewer may see now."""

    viewer: int
    owners: tuple[OwnerView, ...]
    teams: tuple[tuple[int, ...], ...]  # only when some team has two or more players
    team_of: tuple[int, ...] = ()  # each player's team

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


def board_of(state, viewer: int, shown: set[tuple]) -> Board:
    """The board `viewer` sees. `shown` (updated here) holds every location the game has made so
    far, so a pile emptied between two looks (a trick gathered) keeps its place on screen."""
    st, table = state.st, state.table
    shown.update(st.locs)
    known: dict[tuple, list[int]] = {}
    for (q, card), key in st.known.items():
        if q == viewer:
            known.setdefault(key, []).append(card)
    groups: dict[tuple, list[PileView]] = {}
    for key in sorted(shown, key=_key_order):
        cards = st.locs.get(key, ())
        seen = table.visible(key, viewer)
        groups.setdefault((key[0], key[1]), []).append(
            PileView(key, seen, tuple(cards) if seen else (), len(cards), tuple(sorted(known.get(key, ())))))
    stores: dict[tuple, list] = {}
    for values in (st.ints, st.strs):
        for k, v in values.items():
            stores.setdefault((k[0], k[1]), []).append((str(k[2]), v))
    owners = sorted(set(groups) | set(stores), key=lambda o: (_KIND_ORDER.get(o[0], 3), o[1]))
    teams = table.team_members if any(len(m) > 1 for m in table.team_members) else ()
    views = tuple(OwnerView(o, tuple(groups.get(o, ())), tuple(sorted(stores.get(o, ()), key=lambda s: s[0])))
                  for o in owners)
    # Every player has a group, even one that holds nothing yet (the table shows every seat).
    have = {o.owner for o in views}
    extra = tuple(OwnerView(("p", p), (), ()) for p in range(state.num_players) if ("p", p) not in have)
    return Board(viewer, tuple(sorted(views + extra, key=lambda o: (_KIND_ORDER.get(o.owner[0], 3),
                                                                     o.owner[1]))), teams, table.team_of)


def _key_order(key: tuple) -> tuple:
    return (_KIND_ORDER.get(key[0], 3), key[1], str(key[3]), key[2])
