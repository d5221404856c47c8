"""Compiled closures for expression forms (a speed layer, same meaning).

`Evaluator.ev` turns each node, the first time it is evaluated, into a
function `f(env, st)` kept by the node's id (the game's tree lives as long as
its rules). The forms written as source (`forms.WRITTEN`) get the closure
derived from it (`written`, see `codegen.closure_of`); the forms below (point
maps, sums, filters and quantifiers) get a closure of their own that calls its
children's closures directly; every other form gets a closure that calls its
`Evaluator._Form` method. Results and errors are exactly those of the methods
(the tests run both through the same corpus games). The sets of a
`(tuples ...)` found once per hand are kept here (`tuple_sets`).
"""
from __future__ import annotations

from itertools import combinations

from recycle.lang import tree as T

from recycle.interp.cardsets import MAX_MADE, fast_pick, made_sets, tuple_count
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
    """`_make_Form(node) -> f(env, st)` for the forms not written as source, `written(node)` for
    those that are; needs `fn`, `error`, `table`, `attrs`."""

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

    def written(self, n):
        """The closure of a form written once, as source (`forms.WRITTEN`): derived from it
        (`closure_of`), else the form's meaning; `(score (max ...))` fused, and `(top (filter
        ...))` read from the top (`finding`), where they apply."""
        fused = self._score_of_extreme(n) if type(n) is T.Score else None
        if fused is not None:
            return fused
        meaning = getattr(self, "_" + type(n).__name__)
        made = self.closure_of(n) or (lambda env, st: meaning(n, env, st))
        return (self.top_of_filter(n, made) or made) if type(n) is T.CardAt else made

    def _points_fn(self, node):
        pm = self.fn(node)

        def points(env, st):
            value = pm(env, st)
            if type(value) is not PointMap:
                raise self.error(node, f"expected a point map, found {value!r}")
            return value
        return points

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
        sign, picked = 1 if type(pick) is T.MaxCard else -1, fast_pick

        def score(env, st):
            pm = st.points.get(key)  # (the map's key is fixed)
            if type(pm) is not PointMap:  # none stored: the empty map (or the located error)
                pm = points(env, st)
            cs = cards(env, st)
            c = picked(cs, pm, attrs, sign)  # (in C where built; None: ties draw, errors)
            return pm.score(extreme(pick, pm, cs, st, sign) if c is None else c, attrs)
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
        made = self._sets[id(n)] = made_sets(sets)  # (in C where built)
        return made

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
