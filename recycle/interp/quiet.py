"""Quiet runners: a block run by the flow for a state that keeps no record (no journal, no
transcript), without the per-action step checks and records (a speed layer over `runners`).

The bound on steps between two choices (`max_steps`) is checked once, at the start: a block
whose actions take at most `a + b * cards` steps (`steps_bound`) cannot pass it when that
many more still fit, so none of its actions needs to look. When they do not fit, or when no
bound is known (a loop over a computed collection or count), it is the runner, which stops
at the very step. Steps are still counted and `Executor.at` still set at every action, as
the runner does; only the records (`runners.RunnersMixin._record`) are left out.
"""
from __future__ import annotations

from functools import partial

from recycle.lang import tree as T

from recycle.interp.source import later

#: Forms holding actions: their steps are their actions' (known only for those written as source).
HOLDERS = (T.Do, T.Choice, T.Conditional, T.AllDo, T.AnyDo, T.Let, T.Repeat, T.RepeatAll, T.Stage)


class QuietMixin:
    """`quiet(node)` for `actions.Executor` (needs `runner`, `_generate`, `_writable`)."""

    def quiet(self, node):
        """The function running `node` as `runner(node)` does, for a state keeping no record."""
        f = self._quiets.get(id(node))
        if f is None:
            bound = self.steps_bound(node) if type(node) in HOLDERS else None  # a single action: its runner
            f = self._quiets[id(node)] = (bound and self._generate(node, True, bound)) or self.runner(node)
        return f

    def steps_bound(self, n, cards: frozenset = frozenset()) -> tuple[int, int] | None:
        """(a, b): running `n` takes at most a + b * (the number of cards) steps; None: unknown.
        `cards`: names of variables known to hold cards (at most all of them)."""
        kind = type(n)
        if not self._writable(n):
            return None if kind in HOLDERS else (1, 0)
        if kind is T.Do:
            parts = [self.steps_bound(a, cards) for a in n.actions]
            return None if None in parts else (1 + sum(a for a, _ in parts), sum(b for _, b in parts))
        if kind not in HOLDERS:
            return (1, 0)
        inner = self.steps_bound(n.action, cards)
        if inner is None:
            return None
        return self._looped_bound(n, inner, cards)

    def _looped_bound(self, n, inner: tuple[int, int], cards: frozenset) -> tuple[int, int] | None:
        """`steps_bound` of a form holding one action, whose own bound is `inner`."""
        kind, (a, b) = type(n), inner
        if kind in (T.Conditional, T.Let):
            return (1 + a, b)
        if kind is T.RepeatAll:  # as often as the source holds cards: at most all real ones
            return None if b or n.action.card.cards.visibility == "mem" else (1, a)
        if kind is T.Repeat:
            times = n.times.value if type(n.times) is T.IntLit and type(n.times.value) is int else None
        elif type(n.collection) is T.Var and n.collection.name in cards:  # at most all cards
            return None if b else (1, a)
        else:  # all, any: known for the players only
            times = self.table.num_players if type(n.collection) is T.Players else None
        return None if times is None else (1 + max(times, 0) * a, max(times, 0) * b)

    def quiet_start(self, src, node, bound: tuple[int, int]) -> None:
        """The first lines of a quiet function: the runner when the bound may be passed."""
        src.quiet = True
        src.emit(1, f"if {self.past_room(bound)}:")
        src.emit(2, f"return {src.call(later(partial(self.runner, node)))}(env, st)")
        src.head = len(src.lines)

    def past_room(self, bound: tuple[int, int], src=None, steps: str = "st.steps") -> str:
        """Source true where a block taking at most `bound` steps (`steps_bound`) could pass the
        bound on steps from here (`_attrs`: the game's cards, the table's list; made during the
        setup only, so the room is computed once a call where `src` says so, `Source.once`; `steps`:
        where the count is, a local in a stage's rounds)."""
        a, b = bound
        more = "" if not b else " - len(_attrs)" if b == 1 else f" - {b} * len(_attrs)"
        room = f"{self.max_steps - a}{more}"
        return f"{steps} > {src.once(room) if src is not None and more else room}"
