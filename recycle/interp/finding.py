"""Finding a card among the players' cards, as in
`(owner (top (filter (union (all player 'P ('P iloc HAND))) 'C TEST)))` (a speed layer).

Closures for `(union ...)` and `(all ...)` of collections that join whole lists (no Python
step per card), `(owner CARD)` without the dispatch, and `(top (filter ...))` read from the
top: the first card from the top that passes the test is the top card of the filter. That
last one only where it cannot show which cards the test was asked about: the test cannot fail
and draws nothing (`codegen`: a safe, pure piece of source), and the elements are cards.
Results and errors are those of the `_Form` methods.
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.source import Source


class FindingMixin:
    """`_make_Union`, `_make_AllCollections`, `_make_OwnerOf` and `top_of_filter` for `evaluate.Evaluator`."""

    def _make_Union(self, n):
        parts = [self.fn(p) for p in n.parts]

        def union(env, st):
            values = [part(env, st) for part in parts]  # all first, as `_parts`
            out = []
            for value in values:
                if value and isinstance(value[0], list):  # a collection of collections: each
                    for each in value:
                        out += each
                else:
                    out += value
            return out
        return union

    def _make_AllCollections(self, n):
        coll, cards, name, iterate = n.collection, self.fn(n.cards), n.var.name, self.iterate

        def each(env, st):
            items = iterate(coll, env, st)
            scratch, out = env.copy(), []  # (one env rebound: values never keep theirs)
            for x in items:
                scratch[name] = x
                out.append(cards(scratch, st))
            return out
        return each

    def _make_OwnerOf(self, n):
        card, owner_of = self.fn(n.card), self.owner_of
        return lambda env, st: owner_of(n, card(env, st), st)

    def top_of_filter(self, n, general):
        """`f(env, st)` giving `(top (filter ...))` node `n` by reading the filter from the top,
        or None where that could show (see above). `general`: the node's closure (for errors)."""
        f = n.cards
        if n.position != "top" or type(f) is not T.Filter or f.kind == "cardsets" or not self.pure(n):
            return None
        src = Source(self._source_base())
        slow = src.const(general)
        src.emit(0, "def f(env, st):")
        src.emit(1, "try:")
        items, kind, _ = self.items(src, f.collection, "env", {})
        src.emit(2, f"for _x in reversed({items}):")
        env, bound = src.bind(3, "env", {}, f.var.name, kind, "_x")
        test = self.expr(src, f.condition, env, bound)
        if kind != "card" or not test.safe:
            return None
        src.emit(3, f"if {test.code}:")
        src.emit(4, "return _x")
        src.emit(2, "return None")
        src.emit(1, "except _GameError:")
        src.emit(2, "raise")
        src.emit(1, "except Exception:")  # (the collection failed: the closure raises the located error)
        src.emit(2, f"return {slow}(env, st)")
        try:
            return src.build(n)
        except (SyntaxError, RecursionError, MemoryError):  # beyond Python's limits: the closure
            return None
