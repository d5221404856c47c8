"""What each player knows about hidden cards, and determinization that keeps it.

A player who watches a card go from a place it can see into one it cannot
(a card picked up from a face-up discard pile into an opponent's hand)
knows where that card is. `Store.known[(player, card)]` holds that location
key. The entries are kept by the move and reorder effects (each effect carries
its own `changes`, so undo restores them) and follow only what the player
saw: when a card it cannot see leaves a hidden location, the player no longer
knows which of the cards it placed there are still there, so it forgets them
all. Hence every entry is true, and derived from the player's view alone.

`redeal` is `determinize`'s core: known cards stay in their location (at a
random one of its places), every other card the player cannot see is dealt
at random into the remaining places, within each deck (card backs are
public). The result depends only on the player's view and `rng`; the other
players' knowledge is kept only where it stays true in the new deal.
"""
from __future__ import annotations

import random

from recycle.interp.store import Store, Table

#: `Random._randbelow` where the generator draws with `getrandbits` (CPython's default; a subclass
#: overriding `random()` alone draws otherwise). Its loop is written out here (`shuffle`) and in the
#: rounds (`rounds.round_source`): the same numbers without a call.
RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def shuffle(rng: random.Random, items: list) -> None:
    """`rng.shuffle(items)`, the very same draws and order: where it is CPython's own shuffle
    over `_randbelow_with_getrandbits`, that loop written out (no call per card; a
    determinization shuffles the unseen cards at every rollout)."""
    if type(rng).shuffle is not random.Random.shuffle or RANDBELOW is None \
            or getattr(rng._randbelow, "__func__", None) is not RANDBELOW:
        rng.shuffle(items)
        return
    n = len(items)
    if n < 2:
        return
    bits = rng.getrandbits
    steps = _STEPS[n - 2::-1] if n <= len(_STEPS) else [(i, (i + 1).bit_length()) for i in range(n - 1, 0, -1)]
    for i, k in steps:
        j = bits(k)
        while j > i:
            j = bits(k)
        items[i], items[j] = items[j], items[i]


#: `shuffle`'s steps from the bottom: (i, the bits `_randbelow(i + 1)` draws) for i = 1, 2, ...
#: (read backwards, from the top of the cards: no bit count worked out per card).
_STEPS = tuple((i, (i + 1).bit_length()) for i in range(1, 256))


#: One change of knowledge: ((player, card), old location or None, new location or None).
Change = tuple


def move_changes(table: Table, st: Store, card: int, src: tuple, dst: tuple) -> tuple[Change, ...]:
    """How knowledge changes when `card` moves from `src` to `dst`."""
    if src == dst:
        return ()
    known, out = st.known, []
    if not known:  # only who saw it go where they cannot see learns something
        return tuple(((q, card), None, dst) for q in table.learning(src, dst))
    to, of = table.sight(dst), table.sight(src)
    for q in range(table.num_players):
        if to[q]:
            if (q, card) in known:
                out.append(((q, card), known[(q, card)], None))
        elif of[q]:
            if known.get((q, card)) != dst:
                out.append(((q, card), known.get((q, card)), dst))
        else:  # an unseen card left src: what q placed there may be the one that went
            out += [((kq, kc), src, None) for (kq, kc), where in known.items() if kq == q and where == src]
    return tuple(out)


def reorder_changes(table: Table, st: Store, key: tuple, cards) -> tuple[Change, ...]:
    """How knowledge changes when a location's content becomes `cards` (a shuffle keeps it,
    a swap or faro moves it with the location, in everyone's sight)."""
    known, out = st.known, []
    if not known:  # nobody knows where any hidden card is: nothing to keep or forget
        return ()
    for q in range(table.num_players):
        seen = table.visible(key, q)
        for c in cards:
            old = known.get((q, c))
            if seen and old is not None:
                out.append(((q, c), old, None))
            elif not seen and old is not None and old != key:
                out.append(((q, c), old, key))
    return tuple(out)


def apply_changes(st: Store, changes: tuple[Change, ...], undo: bool = False) -> None:
    known = st.known
    for k, old, new in (reversed(changes) if undo else changes):
        value = old if undo else new
        if value is None:
            known.pop(k, None)
        else:
            known[k] = value


def redeal(table: Table, st: Store, player: int, slots: list[tuple], rng: random.Random) -> None:
    """Re-deal, in place, the cards at `slots` ((key, index) of every card `player` cannot see)."""
    Redealer(table, st, player, slots)(st, rng)


class Redealer:
    """`redeal` of one position for one player, its groups worked out once for many deals (a search's
    or an estimator's determinizations): called with a copy of the position's store and a generator,
    it deals as `redeal` does, draw for draw."""

    __slots__ = ("free", "groups", "known")

    def __init__(self, table: Table, st: Store, player: int, slots: list[tuple]) -> None:
        deck_of, known = table.deck_of, st.known
        groups: dict[tuple, list[int]] = {}  # (key, deck) -> indices of that location with that back
        pinned: dict[tuple, list[int]] = {}  # (key, deck) -> cards known to be there
        free: dict[str, list[int]] = {}  # deck -> the other hidden cards
        for key, i in slots:
            card = st.locs[key][i]
            group = (key, deck_of[card])
            groups.setdefault(group, []).append(i)
            if known.get((player, card)) == key:
                pinned.setdefault(group, []).append(card)
            else:
                free.setdefault(deck_of[card], []).append(card)
        # the deal depends on the set of cards only, not on where they are now
        self.free = tuple((deck, sorted(cards)) for deck, cards in free.items())
        self.groups = tuple((key, deck, places, sorted(pinned.get((key, deck), ())))
                            for (key, deck), places in groups.items())
        # What the others know stays only where `player` can vouch for it: about cards it sees,
        # or knows to be in the same place (others' entries about re-dealt cards would be false).
        hidden = {st.locs[key][i] for key, i in slots}
        self.known = {(q, c): key for (q, c), key in known.items()
                      if q == player or c not in hidden or known.get((player, c)) == key}

    def __call__(self, st: Store, rng: random.Random) -> None:
        free = {}
        for deck, cards in self.free:
            free[deck] = cards = cards[:]
            shuffle(rng, cards)
        locs, where = st.locs, st.where
        for key, deck, places, mine in self.groups:
            cards = locs[key]
            if not mine:  # (the common case: every place takes a free card, from the end)
                pop = free[deck].pop
                for i in places:
                    cards[i] = card = pop()
                    where[card] = key
                continue
            places = places[:]
            shuffle(rng, places)  # known to be here, not known where
            for n, i in enumerate(places):
                cards[i] = card = mine[n] if n < len(mine) else free[deck].pop()
                where[card] = key
        st.known = self.known.copy()
