"""Compiled exploration of a choice's options (a speed layer over `Executor._explore`).

`_explore(work, st, out)` runs a linked list of `(node, env, rest)`, forking
at every `any` and at the choice itself: each branch runs to the end of the
work and its effects (the journal) become one option, then it is undone.
`explorer(node)` writes that walk as Python source for one node, so the usual
shape of an option — conditions, then `any` over a collection, then actions
— is nested loops in one function:

    if <condition>:
        for x in <collection>:
            mark = len(journal)
            <the actions>            (as `runners.flat` runs them)
            <the rest of the work>   (the option is recorded when none is left)
            <undo to mark>           (`journal.undo_to`)

Everything is done in the order `_explore` does it. A fork that is not the
last thing in its block (`(do ((any ...) more))`) is left to `_explore`.
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.source import Piece, Source
from recycle.interp.undo import undo_to
from recycle.interp.runners import MAX_INDENT, MAX_LOOPS


#: Storage reads (safe at a constant key: a missing value reads as its default).
_STORAGE = (T.IntStorage, T.StrStorage, T.PointStorage)


class ExplorersMixin:
    """`explorer(node) -> f(env, st, out, work)` for `actions.Executor`."""

    def explorer(self, node):
        """The function doing what `_explore((node, env, work), st, out)` does."""
        f = self._explorers.get(id(node))
        if f is None:
            src = Source({**self._statement_base(), "_xp": self._explore, "_undo": undo_to})
            src.journaled = True
            src.emit(0, "def f(env, st, out, work):")
            src.emit(1, "_j = st.journal")
            self.xstmt(src, node, "env", {}, 1, 0)
            try:
                f = src.build(node)
            except (SyntaxError, RecursionError, MemoryError):  # beyond Python's limits: the walk
                xp = self._explore

                def f(env, st, out, work):
                    xp((node, env, work), st, out)
            self._explorers[id(node)] = f
        return f

    def _finish(self, src: Source, indent: int) -> None:
        """The rest of the work, then the option (when it changed anything)."""
        src.emit(indent, "if work is None:")
        src.emit(indent + 1, "if _j:")
        src.emit(indent + 2, "out.append(tuple(_j))")
        src.emit(indent, "else:")
        src.emit(indent + 1, "_xp(work, st, out)")

    def _undo_to(self, src: Source, mark: str, indent: int) -> None:
        """Undo, last first, what the branch did since `mark`."""
        src.emit(indent, f"if len(_j) > {mark}:")
        src.emit(indent + 1, f"_undo(st, _j, {mark})")

    def xstmt(self, src: Source, n, env: str, bound: dict, indent: int, loops: int) -> None:
        """Source exploring `n`, then the rest of the work."""
        kind = type(n)
        if self.flat(n) is not None:  # no fork in it: run, then go on
            self.stmt(src, n, env, bound, indent, False, loops)
            self._finish(src, indent)
            return
        tail = kind is T.Do and n.actions and all(self.flat(a) is not None for a in n.actions[:-1])
        if loops > MAX_LOOPS or indent > MAX_INDENT or kind is T.AllDo or (kind is T.Do and not tail):
            src.emit(indent, f"_xp(({src.const(n)}, {env}, work), st, out)")
            return
        if kind is T.Do:
            for a in n.actions[:-1]:
                self.stmt(src, a, env, bound, indent, False, loops)
            self.xstmt(src, n.actions[-1], env, bound, indent, loops)
        elif kind is T.Conditional:
            cond, _ = self.value(src, n.condition, env, bound, indent)
            src.emit(indent, f"if {cond}:")
            self.xstmt(src, n.action, env, bound, indent + 1, loops)
            src.emit(indent, "else:")
            self._finish(src, indent + 1)
        elif kind is T.Let:
            value, vkind = self.value(src, n.value, env, bound, indent)
            v = src.temp()
            src.emit(indent, f"{v} = {value}")
            env, bound = src.bind(indent, env, bound, n.var.name, vkind, v)
            self.xstmt(src, n.action, env, bound, indent, loops)
        elif kind is T.AnyDo:
            items, ikind, fresh = self.items(src, n.collection, env, bound, indent)
            if not fresh:
                items = f"list({items})"  # a copy: the branches move cards
            x, mark, body, each = src.temp(), src.temp(), n.action, src.temp()
            # An `any` over nothing does nothing: the option goes on with the rest of its work
            # (as the reference engine, which keeps every option holding an action).
            src.emit(indent, f"{each} = {items}")
            src.emit(indent, f"if not {each}:")
            self._finish(src, indent + 1)
            if type(body) is T.Conditional and self.flat(body) is not None:
                self._any_if(src, body, each, x, mark, n.var.name, ikind, env, bound, indent, loops)
                return
            src.emit(indent, f"for {x} in {each}:")
            inner, ibound = src.bind(indent + 1, env, bound, n.var.name, ikind, x)
            src.emit(indent + 1, f"{mark} = len(_j)")
            self.xstmt(src, body, inner, ibound, indent + 1, loops + 1)
            self._undo_to(src, mark, indent + 1)
        else:  # the choice: each option in turn
            for option in n.options:
                mark = src.temp()
                src.emit(indent, f"{mark} = len(_j)")
                self.xstmt(src, option, env, bound, indent, loops)
                self._undo_to(src, mark, indent)

    def hoist(self, src: Source, node, env: str, bound: dict, indent: int) -> None:
        """What `node` reads from storage at a constant key, read once before a loop whose every
        element sees the same state (until `src.hoisted` is cleared)."""
        for n in T.walk(node):
            if type(n) in _STORAGE and self.fixed_key(n, ()) is not None:
                piece, h = self.expr(src, n, env, bound), src.temp()
                src.emit(indent, f"{h} = {piece.code}")
                src.hoisted[id(n)] = Piece(h, piece.kind, True)

    def _any_if(self, src: Source, body, items: str, x: str, mark: str, var: str, kind: str, env, bound, indent, loops):
        """`(any C 'V (COND ACTION))` without a fork in ACTION, the usual filter of candidates:
        an element whose condition is false changes nothing, so its branch is the work so far,
        done only when that is something (`quiet`: the same for every element)."""
        quiet = src.temp()
        src.emit(indent, f"{quiet} = work is None and not _j")
        # Every element starts from the same state (each branch is undone): see `hoist`
        self.hoist(src, body.condition, env, bound, indent)
        src.emit(indent, f"for {x} in {items}:")
        inner, ibound = src.bind(indent + 1, env, bound, var, kind, x)
        cond, _ = self.value(src, body.condition, inner, ibound, indent + 1)
        src.hoisted.clear()
        src.emit(indent + 1, f"if {cond}:")
        src.emit(indent + 2, f"{mark} = len(_j)")
        self._block(src, body.action, inner, ibound, indent + 2, False, loops + 1)
        self._finish(src, indent + 2)
        self._undo_to(src, mark, indent + 2)
        src.emit(indent + 1, f"elif not {quiet}:")
        self._finish(src, indent + 2)
