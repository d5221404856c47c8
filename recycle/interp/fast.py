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

from recycle.lang import tree as T

from .cardsets import _COMPARE
from .state import GAME, PointMap


class FastMixin:
    """`_make_Form(node) -> f(env, st)` for hot forms; needs `fn`, `error`, `table`, `attrs`."""

    def _make_Name(self, n):
        value = n.value
        return lambda env, st: value

    _make_IntLit = _make_Name

    def _make_GameOwner(self, n):
        return lambda env, st: GAME

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
        key_of = self.storage_key

        def read(env, st):
            if suffix is None:
                return getattr(st, attr).get(key_of(n, env, st), default)
            o = owner(env, st)
            if type(o) is not tuple:
                key_of(n, env, st)  # raises the located error
            return getattr(st, attr).get(o + suffix, default)
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
            return "" if c is None else attrs[c].get(key, "")
        return cardatt

    def _make_CardAt(self, n):
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
        read = self._make_storage(n, "points", None)
        empty = PointMap(())
        return lambda env, st: read(env, st) or empty

    def _make_Score(self, n):
        card, points, attrs = self.fn(n.card), self._points_fn(n.using), self.attrs

        def score(env, st):
            c = card(env, st)
            if c is None:
                raise self.error(n, "(score ...) of no card: the collection is empty")
            return points(env, st).score(c, attrs)
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
            return lambda env, st: slow(n, env, st)
        made = []

        def point_map(env, st):
            if not made:
                made.append(slow(n, env, st))
            return made[0]
        return point_map

    def _make_Tuples(self, n):
        """Sets of `size` cards of one score. The grouping by score is kept for the next call
        with the same cards and point map: a choice asks for sets of 1, 2, 3, 4 cards of one hand."""
        points, size, cards, attrs = self._points_fn(n.using), self.fn(n.size), self.fn(n.cards), self.attrs
        last = [None, None, None]  # point map, cards, their groups in score order

        def tuples(env, st):
            pm = points(env, st)
            k = size(env, st)
            cs = cards(env, st)
            if pm is last[0] and cs == last[1]:
                ordered = last[2]
            else:
                cache, score, groups = pm._cache, pm.score, {}
                for c in cs:
                    s = cache.get(c)
                    if s is None:
                        s = score(c, attrs)
                    group = groups.get(s)
                    if group is None:
                        groups[s] = [c]
                    else:
                        group.append(c)
                ordered = [groups[s] for s in sorted(groups)]
                last[:] = pm, list(cs), ordered
            if not k > 0:
                return []
            if k == 1:
                return [[c] for group in ordered for c in group]
            return [list(t) for group in ordered for t in combinations(group, k)]
        return tuples

    def _make_Compare(self, n):
        left, right, op, slow = self.fn(n.left), self.fn(n.right), _COMPARE[n.op], self._Compare

        def compare(env, st):
            try:
                return op(left(env, st), right(env, st))
            except TypeError:
                return slow(n, env, st)  # raises the located error
        return compare

    def _make_And(self, n):
        parts = [self.fn(x) for x in n.operands]

        def and_(env, st):
            for p in parts:
                if not p(env, st):
                    return False
            return True
        return and_

    def _make_Or(self, n):
        parts = [self.fn(x) for x in n.operands]

        def or_(env, st):
            for p in parts:
                if p(env, st):
                    return True
            return False
        return or_

    def _make_Not(self, n):
        operand = self.fn(n.operand)
        return lambda env, st: not operand(env, st)

    def _make_Arithmetic(self, n):
        slow = self._Arithmetic
        if n.op not in ("+", "-") or len(n.operands) != 2:
            return lambda env, st: slow(n, env, st)
        a, b = self.fn(n.operands[0]), self.fn(n.operands[1])
        if n.op == "+":
            return lambda env, st: a(env, st) + b(env, st)
        return lambda env, st: a(env, st) - b(env, st)

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
