"""Compiled closures for the commonest expression forms (a speed layer, same meaning).

`Evaluator.ev` turns each node, the first time it is evaluated, into a
function `f(env, st)` kept by the node's id (the game's tree lives as long as
its rules). The forms below get a closure that calls its children's closures
directly, with constant names folded in; every other form gets a closure that
calls its `Evaluator._Form` method. Results and errors are exactly those of
the methods (the tests run both through the same corpus games).
"""
from __future__ import annotations

from itertools import combinations
from operator import attrgetter

from recycle.lang import tree as T

from recycle.interp.cardsets import MAX_MADE, tuple_count
from recycle.interp.store import PointMap

#: Hands and answers of a `(tuples ...)` kept per node (see `tuple_sets`).
MAX_KEPT = 256


def _in_score_order(pm, cards: list, attrs) -> list:
    """The cards sorted by their score in `pm` (stable), scored first where not known yet."""
    score = pm._cache.__getitem__
    try:
        return sorted(cards, key=score)
    except KeyError:  # scores not known yet
        for c in cards:
            pm.score(c, attrs)
        return sorted(cards, key=score)


def _shared_scores(ordered: list, score) -> list:
    """The runs of 2 or more cards of one score in `ordered` (cards in score order), in that
    order. (A dict of runs by score: cheaper than `itertools.groupby`, whose groups are
    iterators made into lists one by one.)"""
    runs: dict = {}
    for c in ordered:
        s = score(c)
        run = runs.get(s)
        if run is None:
            runs[s] = [c]
        else:
            run.append(c)
    return [run for run in runs.values() if len(run) > 1]


def _same_score_sets(n, found: list, pm, k: int, size: int, check) -> list:
    """The sets of `k` (2 or more) cards of one score of a hand `found` keeps (see `tuple_sets`);
    `check(n, groups, k)` raises the located error of too many."""
    if found[1] is None:  # the cards that share their score, by score
        found[1] = _shared_scores(found[0], pm._cache.__getitem__)
    if size > 16 and tuple_count(found[1], k) > MAX_MADE:  # (16 cards: at most 12,870)
        check(n, found[1], k)
    out = []
    for group in found[1]:
        if len(group) >= k:
            out += map(list, combinations(group, k))
    return out


class FastMixin:
    """`_make_Form(node) -> f(env, st)` for hot forms; needs `fn`, `error`, `table`, `attrs`."""

    def _make_Var(self, n):
        name, slow = n.name, self._Var

        def var(env, st):
            try:
                return env[name]
            except KeyError:
                return slow(n, env, st)
        return var

    def _make_PlayerRef(self, n):
        players = self.table.players
        if n.which == "current":
            return lambda env, st: players[st.pcycles[-1][0]]
        slow = self._PlayerRef
        return lambda env, st: slow(n, env, st)

    def _owner_suffix(self, n, *words):
        """(owner closure, constant key suffix or None) of a storage or location node."""
        if type(n.name) is T.Name and getattr(n, "index", None) is None:
            return self.fn(n.owner), words + (n.name.value,)
        return self.fn(n.owner), None

    def _key_fn(self, n, suffix, slow):
        """f(env, st) -> the key `slow(n, env, st)` gives, with a constant suffix folded in."""
        if suffix is None:
            return lambda env, st: slow(n, env, st)
        owner = self.fn(n.owner)

        def key(env, st):
            o = owner(env, st)
            if type(o) is not tuple:
                slow(n, env, st)  # raises the located error
            return o + suffix
        return key

    def storage_key_fn(self, n):
        """f(env, st) -> `storage_key(n, env, st)`."""
        return self._key_fn(n, self._owner_suffix(n)[1], self.storage_key)

    def loc_key_fn(self, n):
        """f(env, st) -> `loc_key(n, env, st)`."""
        return self._key_fn(n, self._owner_suffix(n, n.visibility)[1], self.loc_key)

    def _make_storage(self, n, attr: str, default):
        owner, suffix = self._owner_suffix(n)
        key_of, store, fixed = self.storage_key, attrgetter(attr), self.fixed_key(n, ())
        if fixed is not None:  # the same key at every evaluation
            return lambda env, st: store(st).get(fixed, default)

        def read(env, st):
            if suffix is None:
                return store(st).get(key_of(n, env, st), default)
            o = owner(env, st)
            if type(o) is not tuple:
                key_of(n, env, st)  # raises the located error
            return store(st).get(o + suffix, default)
        return read

    def _make_IntStorage(self, n):
        return self._make_storage(n, "ints", 0)

    def _make_StrStorage(self, n):
        return self._make_storage(n, "strs", "")

    def _make_Location(self, n):
        owner, suffix = self._owner_suffix(n, n.visibility)
        if suffix is None:
            slow = self._Location
            return lambda env, st: slow(n, env, st)
        key_of = self.loc_key

        def location(env, st):
            o = owner(env, st)
            if type(o) is not tuple:
                key_of(n, env, st)  # raises the located error
            return st.locs.get(o + suffix) or []
        return location

    def _make_CardAtt(self, n):
        attrs, card = self.attrs, self.fn(n.card)
        if type(n.key) is not T.Name:
            slow = self._CardAtt
            return lambda env, st: slow(n, env, st)
        key = n.key.value

        def cardatt(env, st):
            c = card(env, st)
            if type(c) is int:
                return attrs[c].get(key, "") if 0 <= c < len(attrs) else slow(n, env, st)
            return "" if c is None else slow(n, env, st)  # (slow: the located error)
        slow = self._CardAtt
        return cardatt

    def _make_CardAt(self, n):
        general = self._card_at(n)
        return self.top_of_filter(n, general) or general

    def _card_at(self, n):
        slow = self._CardAt
        if n.position not in ("top", "bottom"):
            return lambda env, st: slow(n, env, st)
        cards, end = self.fn(n.cards), -1 if n.position == "top" else 0

        def card_at(env, st):
            cs = cards(env, st)
            if not cs:
                return None
            c = cs[end]
            return slow(n, env, st) if type(c) is list else c  # a collection of collections
        return card_at

    def _points_fn(self, node):
        pm = self.fn(node)

        def points(env, st):
            value = pm(env, st)
            if type(value) is not PointMap:
                raise self.error(node, f"expected a point map, found {value!r}")
            return value
        return points

    def _make_PointStorage(self, n):
        empty, fixed = PointMap(()), self.fixed_key(n, ())
        if fixed is not None:
            return lambda env, st: st.points.get(fixed) or empty
        read = self._make_storage(n, "points", None)
        return lambda env, st: read(env, st) or empty

    def _make_Score(self, n):
        fused = self._score_of_extreme(n)
        if fused is not None:
            return fused
        card, points, attrs = self.fn(n.card), self._points_fn(n.using), self.attrs

        def score(env, st):
            c = card(env, st)
            if c is None:
                raise self.error(n, "(score ...) of no card: the collection is empty")
            return points(env, st).score(c, attrs)
        return score

    def _score_of_extreme(self, n):
        """`(score (max CARDS using P) using P)` with P one fixed point storage (a climbing game's
        "the highest card of this set beats the table"): the map read once, not twice (nothing
        between the two reads can change it), the card picked as `max` picks it (ties drawn)."""
        pick = n.card
        if type(pick) not in (T.MaxCard, T.MinCard) or type(pick.using) is not T.PointStorage \
                or type(n.using) is not T.PointStorage:
            return None
        key = self.fixed_key(pick.using, ())
        if key is None or key != self.fixed_key(n.using, ()):
            return None
        points, cards, extreme, attrs = self._points_fn(pick.using), self.fn(pick.cards), self.extreme_of, self.attrs
        sign = 1 if type(pick) is T.MaxCard else -1

        def score(env, st):
            pm = points(env, st)
            return pm.score(extreme(pick, pm, cards(env, st), st, sign), attrs)
        return score

    def _make_Sum(self, n):
        cards, points, attrs = self.fn(n.cards), self._points_fn(n.using), self.attrs

        def total(env, st):
            pm = points(env, st)
            return sum(pm.score(c, attrs) for c in cards(env, st))
        return total

    def _make_PointMap(self, n):
        """A point map written with constants only is the same map at every evaluation."""
        constant = all(type(a.points) is T.IntLit and all(type(c.key) in (T.Name, T.IntLit) and
                                                          type(c.value) in (T.Name, T.IntLit) for c in a.conditions)
                       for a in n.awards)
        slow = self._PointMap
        if not constant:
            return self._varying_point_map(n)
        made = []

        def point_map(env, st):
            if not made:
                made.append(slow(n, env, st))
            return made[0]
        return point_map

    def _varying_point_map(self, n):
        """A point map with computed keys, values or points (`(SUIT : (game str LEAD))`): its
        constant awards made once, the others evaluated in the order `_PointMap` does."""
        def part(x, text: bool):
            if type(x) in (T.Name, T.IntLit):
                return str(x.value) if text else x.value
            f = self.fn(x)
            return (lambda env, st: str(f(env, st))) if text else f

        def award(a):
            conds = [(part(c.key, True), part(c.value, True)) for c in a.conditions]
            points = part(a.points, False)
            if not any(callable(x) for pair in conds for x in pair) and not callable(points):
                return tuple(conds), points
            return lambda env, st: (tuple((k if not callable(k) else k(env, st), v if not callable(v) else v(env, st))
                                          for k, v in conds), points(env, st) if callable(points) else points)

        awards, interned = [award(a) for a in n.awards], self.point_map_of
        return lambda env, st: interned(tuple(a(env, st) if callable(a) else a for a in awards), n)

    def _make_Tuples(self, n):
        points, size, cards, sets = self._points_fn(n.using), self.fn(n.size), self.fn(n.cards), self.tuple_sets(n)
        return lambda env, st: sets(points(env, st), size(env, st), cards(env, st))

    def tuple_sets(self, n):
        """`sets(point map, size, cards)`: the sets of `size` cards of one score, for `(tuples ...)`
        node `n`. What is found of a hand is kept, by its cards, for one point map (values are
        never changed by their users): the cards in score order, the groups of one score, and
        the sets of each size. A choice asks for sets of 1, 2, 3, 4 cards of one hand, and the
        same hands come back turn after turn."""
        made = self._sets.get(id(n))
        if made is not None:
            return made
        attrs = self.attrs
        mapped, kept = None, 0  # the point map the hands below were scored by, how many answers they keep
        known: dict[tuple, list] = {}  # cards -> [them in score order (stable), groups of 2+, {size: sets}]

        def sets(pm, k, cs):
            nonlocal mapped, kept
            if pm is not mapped or kept >= MAX_KEPT or type(cs) is not list:  # (`mapped` is a point map)
                if type(pm) is not PointMap:
                    raise self.error(n.using, f"expected a point map, found {pm!r}")
                if type(cs) is not list:
                    raise self.error(n.cards, f"(tuples ...) needs cards, found {cs!r}")
                if pm is not mapped or kept >= MAX_KEPT:
                    known.clear()
                    mapped, kept = pm, 0
            try:
                hand = tuple(cs)
                found = known.get(hand)
            except TypeError:  # not cards: the sets are made (or refused) below, and not kept
                hand = found = None
            if found is None:
                found = [_in_score_order(pm, cs, attrs), None, {}]
                if hand is not None:
                    known[hand] = found
                    kept += 1
            elif type(k) is int:
                got = found[2].get(k)
                if got is not None:
                    return got
            if type(k) is not int:
                self.check_tuples(n, (), k)  # raises the located error
            if not k > 0:
                return []
            # (sets of one card: a new list each, made in C)
            out = list(map(list, zip(found[0]))) if k == 1 else \
                _same_score_sets(n, found, pm, k, len(cs), self.check_tuples)
            found[2][k] = out
            kept += 1
            return out
        self._sets[id(n)] = sets
        return sets

    def _make_MaxCard(self, n):
        return self._extreme_fn(n, 1)

    def _make_MinCard(self, n):
        return self._extreme_fn(n, -1)

    def _extreme_fn(self, n, sign: int):
        """max/min by a point map, its map and cards read by their closures (a climbing game's
        options compare the highest card of every set a hand holds: the generic evaluation of
        both operands was two thirds of a BigTwo4 playout's comparisons)."""
        points, cards, extreme = self._points_fn(n.using), self.fn(n.cards), self.extreme_of
        return lambda env, st: extreme(n, points(env, st), cards(env, st), st, sign)

    def _make_Size(self, n):
        coll, slow = self.fn(n.collection), self._Size

        def size(env, st):
            value = coll(env, st)
            return len(value) if type(value) is list else slow(n, env, st)
        return size

    def _quantifier(self, n, want_all: bool):
        """Filter, AllTrue, AnyTrue over a collection; one scratch env per evaluation."""
        coll, cond, name, iterate = n.collection, self.fn(n.condition), n.var.name, self.iterate
        is_filter, drop_empty = type(n) is T.Filter, getattr(n, "kind", "") == "cardsets"

        def run(env, st):
            items = iterate(coll, env, st)
            scratch = env.copy()
            if is_filter:
                out = []
                for x in items:
                    scratch[name] = x
                    if (x or not drop_empty) and cond(scratch, st):
                        out.append(x)
                return out
            for x in items:
                scratch[name] = x
                if bool(cond(scratch, st)) is not want_all:
                    return not want_all
            return want_all
        return run

    def _make_Filter(self, n):
        return self._quantifier(n, False)

    def _make_AllTrue(self, n):
        return self._quantifier(n, True)

    def _make_AnyTrue(self, n):
        return self._quantifier(n, False)

    def _make_Players(self, n):
        players = self.table.players
        return lambda env, st: list(players)
