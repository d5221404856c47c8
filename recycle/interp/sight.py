"""Options a re-deal cannot change: a determinization keeps the position's options instead of finding them again.

A determinization for player P (`RecycleState.determinize`) re-deals the cards P cannot see, then
finds the pending choice's options again, and for a choice that reads faces re-deals until they read
as before. Search and the analysis' estimator determinize the same position hundreds of times
(CardStock's estimator: ten per option of every decision), and finding the options is most of
each determinization's cost.

A re-deal changes only the cards at places P cannot see (and what the others know of them, and the
game's generator, reseeded). A choice whose every read of cards is of places P sees (or only their
sizes, which a re-deal keeps) and that draws nothing while its options are found offers, in every
determinization, the very options it offers here: the same effects (the cards it moves are cards P
sees, whose knowledge the re-deal keeps), the same words, in the same order. `blind_to_redeal` proves
that from the choice's syntax and the position; anything it cannot prove is found again, as always.
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.codegen import IMPURE
from recycle.interp.counting import distinct_scores, steady

#: Kinds of value a variable from outside the choice may hold: none names a card (a card bound
#: outside could be one the re-deal moves).
_OPEN_KINDS = frozenset({"int", "str", "player", "team", "owner"})


def blind_to_redeal(state, player: int) -> bool:
    """Does the pending choice of `state` offer the same options in every determinization for `player`?

    False whenever it is not proven: a location read whose owner is not known here, a place `player`
    cannot see read for more than its size, a variable from outside holding cards, a draw (a
    random number, a new name, a shuffle, a max or min that could tie). (`--compat cardstock`
    lists options its own way, from the same reads: kept alike.)"""
    rules = state.rules
    if state.over or state.pending is None:
        return False
    node, env = state.pending
    ex, st = rules.ex, state.st
    if ex.compiler is None:  # (its proof of which maps rank without ties is the compiler's)
        return False
    shape = rules.sight.shape(ex.compiler.expressions, node)  # (fixed_key: the expression compiler's part)
    if shape is None:
        return False
    ranked, outside, reads = shape
    if any(name in env for name in outside):
        return False
    for key in ranked:  # a max or min by a map that could tie draws to break the tie
        pm = st.points.get(key)
        if pm is None or not distinct_scores(pm, ex.attrs):
            return False
    table = ex.table
    for loc in reads:
        try:
            key = ex.loc_key(loc, env, st)
        except Exception:  # noqa: BLE001 — an owner the game never evaluates here (a branch not taken)
            return False
        if key[2] != "mem" and not table.visible(key, player):  # (a memory: no re-deal touches it)
            return False
    return True


#: Choices whose shape one game's `Sight` keeps (a game has a few; the bound is for a runaway caller).
MAX_SHAPES = 256


class Sight:
    """What the syntax of each choice of one game tells (`shape`), kept by that game's rules."""

    __slots__ = ("shapes",)

    def __init__(self) -> None:
        self.shapes: dict[int, tuple] = {}  # id of a choice node -> (the node, so its id is not reused; `_learn`'s)

    def shape(self, compiler, node) -> tuple | None:
        """(the maps its max and min rank by, the variables that must not come from outside, the
        locations it reads for more than their size), or None: the syntax alone rules it out."""
        got = self.shapes.get(id(node))
        if got is None or got[0] is not node:
            if len(self.shapes) >= MAX_SHAPES:
                self.shapes.clear()
            got = self.shapes[id(node)] = (node, _learn(compiler, node))
        return got[1]


def _learn(compiler, node) -> tuple | None:
    ranked: set = set()
    if not steady(node, compiler.fixed_key, ranked):  # a draw, or a max or min by a map not stored at one key
        return None
    walked = list(T.walk(node))
    if any(type(n) in (T.Shuffle, T.IndexedLocations) for n in walked):
        return None
    # (bound by the choice, or else from outside: then it must not be)
    outside = {n.name for n in walked if type(n) is T.Var and n.kind not in _OPEN_KINDS}
    reads = _reads(node)
    if not all(_fixed(loc) for loc in reads):
        return None
    return frozenset(ranked), frozenset(outside), tuple(reads)


def _reads(node) -> list:
    """The `Location`s of `node` read for more than their size (`(size LOC)` reads only how many, though what
    names LOC is read: a card there could name another place in another world)."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(n)
        elif isinstance(n, T.Node):
            if type(n) is T.Size and type(n.collection) is T.Location:  # its key is still read: its parts are
                stack.extend((n.collection.owner, n.collection.name, n.collection.index))
                continue
            if type(n) is T.Location:
                out.append(n)
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__ if f not in ("line", "column"))
    return out


def _fixed(loc) -> bool:
    """Is the key of `loc` the same for every option (no variable, no card read, no draw in it)?"""
    return not any(type(n) in (T.Var, T.Location) or isinstance(n, IMPURE)
                   for n in T.walk((loc.owner, loc.name, loc.index)))


__all__ = ["Sight", "blind_to_redeal"]
