"""Collections: card collections, collections of collections, players, teams, ranges.

A mixin of `evaluate.Evaluator` (one dispatch table for every expression).
Card collections are lists of card ids in location order (the top card last);
collections of collections are lists of such lists.
"""
from __future__ import annotations

import importlib
import operator
import os
from itertools import combinations
from math import comb

from recycle.interp.errors import LimitError
from recycle.interp.store import PointMap

#: Point maps kept for reuse per game (see `_PointMap`).
MAX_POINT_MAPS = 1_000
#: Most cards `(subsets ...)` accepts (2**16 subsets).
MAX_SUBSET_CARDS = 16
#: Most elements a made collection may have: `(tuples ...)` sets, `(range ...)` integers
#: (over 52 equal cards `(tuples 5 ...)` would be 2.6 million sets).
MAX_MADE = 2**16


def tuple_count(groups, k: int) -> int:
    """How many sets of `k` cards `(tuples ...)` makes from `groups` (lists of equal-scoring cards)."""
    return sum(comb(len(g), k) for g in groups) if k > 0 else 0

#: Set to 1 (or anything but empty/0) to run the pure Python collection work where the C one is built.
PURE_VARIABLE = "RECYCLE_PURE"

#: `sift`'s operators, numbered as C's rich comparisons are (Py_LT ... Py_GE).
SIFT_OPS = {"<": 0, "<=": 1, "==": 2, "!=": 3, ">": 4, ">=": 5}
_SIFT_TESTS = (operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge)


class SiftError(ValueError):
    """A set `sift` cannot judge without a draw or an error of its own (empty, its cards tie; a
    TypeError: not cards): the caller explores the options instead, which says what the game does."""


def _picked(cards: list, pm: PointMap, attrs: list, sign: int) -> int:
    if not cards:
        raise SiftError("the max or min of an empty set")
    best = first = None
    tied = False
    for c in cards:
        if type(c) is not int:
            raise TypeError(f"sift: a set holds {c!r}, not a card")
        s = pm.score(c, attrs)
        if best is None or (s > best if sign > 0 else s < best):
            best, first, tied = s, c, False
        elif s == best:
            tied = True
    if tied:
        raise SiftError("two cards of a set tie")
    return first


def sift(sets: list, pick: PointMap, sign: int, score: PointMap, attrs: list, op: int, bound) -> list:
    """The sets whose highest (`sign` 1) or lowest (-1) card by `pick` scores, by `score`,
    OP `bound` (`SIFT_OPS`), in order: a climbing game's "which sets beat the last one",
    `(any SETS 'T ((> (score (max 'T using P) using P) BOUND) ...))`, without a call per set.
    (The reference of the compiled `sift`, which gives the same list or raises where this does.)"""
    if type(sets) is not list:
        raise TypeError("sift: the sets are a list")
    test = _SIFT_TESTS[op]
    return [s for s in sets if test(score.score(_picked(_listed(s), pick, attrs, sign), attrs), bound)]


def leaves(out: list, head: tuple, items) -> None:
    """A counted choice's leaves appended to its options `out`: `head + (x,)` for each of `items`
    (what `out.extend(zip(repeat(h0), ..., items))` appends; on an error, nothing). As the
    compiled one, a TypeError where `out` is not a list or `head` not a tuple."""
    _leaves_to(out, head)
    out.extend([(*head, x) for x in items])


def sift_into_of(sift_fn):
    """`sift_into(out, head, *args)`: `leaves(out, head, sift_fn(*args))` in one call (`out` and
    `head` checked first, as the compiled one does); the compiled one, with no list between,
    where `sift_fn` is the compiled `sift`."""
    if _C is not None and sift_fn is _C.sift:
        return _C.sift_into

    def sift_into(out: list, head: tuple, *args) -> None:
        _leaves_to(out, head)
        leaves(out, head, sift_fn(*args))
    return sift_into


def _leaves_to(out, head) -> None:
    if not isinstance(out, list) or type(head) is not tuple:
        raise TypeError("the leaves go to a list, their head is a tuple")


def _listed(s):
    if type(s) is not list:
        raise TypeError("sift: a set is a list of cards")
    return s


def _compiled():
    """(the compiled module or None, which collection work is in use)."""
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None, f"pure Python ({PURE_VARIABLE} is set)"
    try:  # (by name: the extension imports nothing, and an import statement would be read as
        # one of the package `recycle.interp`, which imports the compilers this layer must not)
        compiled = importlib.import_module("recycle.interp._cardsets")
    except ImportError:
        return None, "pure Python (the compiled part is not built)"
    return compiled, "compiled (C: recycle.interp._cardsets)"


_C, _DESCRIPTION = _compiled()
#: `sift` as run: the compiled one where built.
fast_sift = sift if _C is None else _C.sift
#: The pure `sift_into` (the reference of the compiled one, `sift_into_of`).
sift_into = sift_into_of(sift)
#: `leaves(out, head, items)` as run: the compiled one where built.
fast_leaves = leaves if _C is None else _C.leaves
#: `pick(cards, pm, attrs, sign)`: the highest (1) or lowest (-1) of plain cards that do not tie, in C;
#: None there (a tie draws, an empty list is an error: `Evaluator.extreme_of`'s) and where not built.
fast_pick = (lambda cards, pm, attrs, sign: None) if _C is None else _C.pick
#: Is `fast_pick` the C one (else it always says None: worth no call written into source)?
PICK_BUILT = _C is not None


def engine() -> str:
    """Which collection work the options of climbing games use: `compiled (...)` or `pure Python (why)`."""
    return _DESCRIPTION


def remembered(question):
    """`question(pm, attrs)` about an (immutable) point map, asked once per map and number of cards
    in C where built (the last 16 kept); None where not built."""
    return None if _C is None else _C.Memo(question)


def made_sets(slow):
    """`slow(pm, k, cards)` (`fast.tuple_sets`' closure), its answer made in C where built and the
    cards are plain cards already scored by a point map; else (and for every error) `slow`'s."""
    return slow if _C is None else _C.HandSets(slow, PointMap, MAX_MADE)


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


class CollectionsMixin:
    """Evaluation of every collection node (needs `ev`, `iterate`, `bind`, `attrs`, `table`)."""

    # --- card collections ---------------------------------------------------

    def _parts(self, parts, env, st) -> list[list[int]]:
        out = []
        for p in parts:
            value = self.ev(p, env, st)
            if value and isinstance(value[0], list):
                out.extend(value)
            else:
                out.append(value)
        return out

    def _Union(self, n, env, st):
        return [c for part in self._parts(n.parts, env, st) for c in part]

    def _counted(self, n, env, st, keep):
        parts = self._parts(n.parts, env, st)
        counts: dict[int, int] = {}
        for part in parts:
            for c in dict.fromkeys(part):
                counts[c] = counts.get(c, 0) + 1
        return [c for c, k in counts.items() if keep(k, len(parts))]

    def _Intersect(self, n, env, st):
        return self._counted(n, env, st, lambda k, total: k == total)

    def _Disjunction(self, n, env, st):
        return self._counted(n, env, st, lambda k, total: k == 1)

    def _Sort(self, n, env, st):
        pm = self._points(n.using, env, st)
        return sorted(self.ev(n.cards, env, st), key=lambda c: pm.score(c, self.attrs))

    def _Filter(self, n, env, st):
        items = self.iterate(n.collection, env, st)
        cond, var = n.condition, n.var
        if n.kind == "cardsets":
            items = [x for x in items if x]  # as the reference engine: empty sets never pass
        return [x for x in items if self.ev(cond, self.bind(env, var, x), st)]

    def _CollectionAt(self, n, env, st, sets=None):
        if sets is None:
            sets = self.ev(n.collections, env, st)
        pos = n.position
        i = 0 if pos == "top" else len(sets) - 1 if pos == "bottom" else self.ev(pos, env, st)
        return sets[i] if 0 <= i < len(sets) else []

    def _TopCards(self, n, env, st):
        cards, k = self.ev(n.cards, env, st), max(0, self.ev(n.count, env, st))
        return list(cards[len(cards) - k:]) if n.end == "top" else list(cards[:k])

    def _Run(self, n, env, st):
        pm, cards = self._points(n.using, env, st), list(self.ev(n.cards, env, st))
        least, best = self.ev(n.length, env, st), []
        for i in range(max(1, least), len(cards) + 1):
            part = cards[len(cards) - i:] if n.end == "top" else cards[:i]
            part.sort(key=lambda c: pm.score(c, self.attrs))
            scores = [pm.score(c, self.attrs) for c in part]
            if all(b == a + 1 for a, b in zip(scores, scores[1:])):
                best = part
        return best

    def _Partition(self, n, env, st):
        key, groups = self.ev(n.key, env, st), {}
        for part in self._parts(n.parts, env, st):
            for c in part:
                groups.setdefault(self.attrs[c].get(key, ""), []).append(c)
        return list(groups.values())

    def _Subsets(self, n, env, st):
        cards = list(self.ev(n.cards, env, st))
        if len(cards) > MAX_SUBSET_CARDS:
            raise self.error(n, f"(subsets ...) of {len(cards)} cards (at most {MAX_SUBSET_CARDS})", LimitError)
        out: list[list[int]] = [[]]
        for c in cards:
            out += [s + [c] for s in out]
        if n.compare is not None:
            k, test = self.ev(n.size, env, st), _COMPARE[n.compare]
            out = [s for s in out if test(len(s), k)]
        return out

    def _Runs(self, n, env, st):
        pm, least = self._points(n.using, env, st), self.ev(n.length, env, st)
        cards = sorted(self.ev(n.cards, env, st), key=lambda c: pm.score(c, self.attrs))
        runs, current = [], []
        for c in cards:
            s = pm.score(c, self.attrs)
            if current and s == pm.score(current[-1], self.attrs) + 1:
                current.append(c)
            elif not current or s != pm.score(current[-1], self.attrs):
                if len(current) >= least:
                    runs.append(current)
                current = [c]
        if len(current) >= least:
            runs.append(current)
        if n.mode == "largest" and runs:
            longest = max(len(r) for r in runs)
            runs = [r for r in runs if len(r) == longest]
        return runs

    def _Tuples(self, n, env, st):
        pm, k, cards = self._points(n.using, env, st), self.ev(n.size, env, st), self.ev(n.cards, env, st)
        if type(cards) is not list:  # a player, a name...: the located error, not Python's
            raise self.error(n.cards, f"(tuples ...) needs cards, found {cards!r}")
        groups: dict[int, list[int]] = {}
        for c in cards:
            groups.setdefault(pm.score(c, self.attrs), []).append(c)
        self.check_tuples(n, groups.values(), k)
        return [list(t) for s in sorted(groups) for t in combinations(groups[s], k)] if k > 0 else []

    def check_tuples(self, n, groups, k) -> None:
        """A located error when `(tuples ...)` would make more than `MAX_MADE` sets."""
        if type(k) is not int:
            raise self.error(n, f"(tuples N ...) needs an integer N, found {k!r}")
        count = tuple_count(groups, k)
        if count > MAX_MADE:
            raise self.error(n, f"(tuples {k} ...) makes {count:,} sets (at most {MAX_MADE:,})", LimitError,
                             hint="tuples of equal-scoring cards: is the point map the one meant?")

    def _AllCollections(self, n, env, st):
        return [self.ev(n.cards, self.bind(env, n.var, x), st) for x in self.iterate(n.collection, env, st)]

    # --- other collections --------------------------------------------------

    def _Players(self, n, env, st):
        return list(self.table.players)

    def _Teams(self, n, env, st):
        return list(self.table.teams)

    def _OtherPlayers(self, n, env, st):
        me = st.pcycles[-1][0]
        return [p for p in self.table.players if p[1] != me]

    def _OtherTeams(self, n, env, st):
        me = st.tcycles[-1][0]
        return [t for t in self.table.teams if t[1] != me]

    def _TeamMembers(self, n, env, st):
        team = self.ev(n.team, env, st)
        return [self.table.players[p] for p in self.table.team_members[team[1]]]

    def _Range(self, n, env, st):
        low, high = self.ev(n.low, env, st), self.ev(n.high, env, st)
        if type(low) is not int or type(high) is not int:
            raise self.error(n, f"(range LOW..HIGH) needs integers, found {low!r}..{high!r}")
        if high - low > MAX_MADE:
            raise self.error(n, f"(range {low}..{high}) has more than {MAX_MADE:,} numbers", LimitError)
        return list(range(low, high + 1 if n.inclusive else high))

    def _StringList(self, n, env, st):
        return list(n.values)

    def _PointMap(self, n, env, st):
        awards = tuple(
            (tuple((str(self.ev(c.key, env, st)), str(self.ev(c.value, env, st))) for c in a.conditions),
             self.ev(a.points, env, st))
            for a in n.awards)
        return self.point_map_of(awards, n)

    def point_map_of(self, awards: tuple, n=None) -> PointMap:
        """The map with these awards: the same awards give the same (immutable) map, so its
        scores stay known from game to game. (`n`: the point map node, where a bad award is.)"""
        try:
            known = self._point_maps.get(awards)
        except TypeError:  # unhashable: points that are not an integer (refused below)
            known = None
        if known is None:
            for _, points in awards:  # once per new map
                if type(points) is not int:
                    raise self.error(n, f"an award's points are an integer, not {points!r}")
            if len(self._point_maps) >= MAX_POINT_MAPS:
                self._point_maps.clear()
            known = self._point_maps[awards] = PointMap(awards)
        return known
