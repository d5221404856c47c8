"""Compiled actions: each action node made once into a function `run(env, st)` (a speed layer).

`Executor.run(node, env, st)` is `runner(node)(env, st)`. A runner does
exactly what the `_do_Form` methods do, in the same order: each action counts
one step (the `max_steps` bound), sets `Executor.at` (where an unexpected
failure is reported), then does its work. The common forms (do, conditionals,
let, all, repeat, moves between locations, integer storage, cycles) are
written as Python source, the whole subtree in one function, expressions
inlined where `codegen` knows they cannot fail (else called through their
function, which raises the located error); every other form is a call of a
closure around its `_do_Form` method. Errors are raised when the action runs,
never when it is compiled, so a broken branch that is never taken stays harmless.

Variables bound by the source (`let`, `all`, `any`) are Python locals; the env
dict a called function needs is made only when one is called (`Source.bind`).
Keys that are the same at every run (the game's locations, a numbered
player's) are constants, so a move between two of them is written for exactly
those two. Effects are applied in place and recorded as `journal` tuples (an
effect object is made only for a transcript).

Exploring a choice's options (`Executor._explore`) walks do, conditionals,
`let` and `all` itself, counting no step for them; `flat(node)` is that walk
compiled, for the parts of an option that hold no `any` or `choice`.
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.actions import WALKED
from recycle.interp.source import Piece, Source
from recycle.interp.effects import MISSING, CycleSet, Move, SetValue
from recycle.interp.evaluate import MAX_INT, MIN_INT
from recycle.interp.undo import CYCLE, INTS, MOVE, STRS
from recycle.interp.knowledge import apply_changes, move_changes

#: Raised, located, when a move takes its card from an empty collection.
NOTHING_TO_MOVE = "nothing to move: the collection is empty"
#: Deeper loops and blocks are split into calls (Python's compiler has nesting limits).
MAX_LOOPS, MAX_INDENT = 12, 40


def _is_location_card(n) -> bool:
    """`(top|bottom LOCATION)`: the card shape moves are written for."""
    return type(n) is T.CardAt and type(n.cards) is T.Location and n.position in ("top", "bottom")


class RunnersMixin:
    """Actions written as Python source, for the `compiler.Compiler` (needs `expr`, `items`,
    `quiet_start`, `deal_source` of its other parts, and the executor's `fn`, `runner`, `flat`...)."""

    def generated_runner(self, node):
        """`node` run as `Executor.run` runs it, written as Python source (None: a form not written
        so, or beyond Python's limits: the executor runs its `_do_Form` method)."""
        return self._generate(node, True) if self._writable(node) else None

    def generated_walk(self, node):
        """The walk `Executor.flat` does with `node`, written as Python source (None: beyond
        Python's limits)."""
        return self._generate(node, False)

    # --- generated source ---------------------------------------------------------

    def _statement_base(self) -> dict:
        """The names generated actions use."""
        return {**self._source_base(), "_ex": self.ex, "_MAX": self.max_steps, "_err": self.error,
                "_too_long": self.too_long, "_over": self.over, "_not_int": self.not_int, "_MISSING": MISSING,
                "_SetValue": SetValue, "_Move": Move, "_CycleSet": CycleSet, "_mc": move_changes,
                "_table": self.table, "_real": self._real, "_ac": apply_changes,
                "_learners": self.table.learners}

    def _generate(self, node, counted: bool, bound=None):
        src = Source(self._statement_base())
        src.emit(0, "def f(env, st):")
        if bound is not None:  # quiet: no step checked, nothing recorded (see `quiet`)
            self.quiet_start(src, node, bound)
        if not counted:  # a walk of `_explore`: only ever run while options are explored
            src.journaled = True
            src.emit(1, "_j = st.journal")
        self.stmt(src, node, "env", {}, 1, counted, 0)
        try:
            return src.build(node)
        except (SyntaxError, RecursionError, MemoryError):  # beyond Python's limits: closures
            return None

    def value(self, src: Source, node, env: str, bound: dict, indent: int, steady: bool = False):
        """(source evaluating `node` exactly, its kind): inlined when it cannot fail; when it can
        and is pure, computed first into a temporary, by the node's function if Python raises
        (it raises the located error); else a call of that function. `steady`: the node is known
        to draw nothing where the source runs (`counting.steady`), so it counts as pure."""
        piece = self.expr(src, node, env, bound)
        if piece.safe or piece.exact:
            return piece.code, piece.kind
        if piece.called or not (steady or self.pure(node)):
            return f"{src.call(self.fn(node))}({env}, st)", piece.kind
        t = src.temp()
        src.emit(indent, "try:")
        src.emit(indent + 1, f"{t} = {piece.code}")
        src.emit(indent, "except _GameError:")
        src.emit(indent + 1, "raise")
        src.emit(indent, "except Exception:")
        src.emit(indent + 1, f"{t} = {src.call(self.fn(node))}({env}, st)")
        return t, piece.kind

    def _key(self, src: Source, n, words: tuple, env: str, bound: dict, slow) -> str:
        piece = self.key(src, n, words, env, bound, 0)
        return piece.code if piece is not None and piece.safe else f"{src.call(slow(n))}({env}, st)"

    def stmt(self, src: Source, n, env: str, bound: dict, indent: int, counted: bool, loops: int) -> None:
        """Source running action `n` (`counted` False: walked as `_explore` does, see `flat`)."""
        kind = type(n)
        if not self._written(n, indent, loops):
            made = self.flat(n) if kind in WALKED and not counted else self.runner(n)
            src.emit(indent, f"{src.call(made)}({env}, st)")
            return
        write, step = getattr(self, "_stmt_" + kind.__name__), None
        if (counted or kind not in WALKED) and not src.bare:
            step = src.step(indent, 1, src.const(n), None if src.quiet else self.max_steps)
        start, calls = len(src.lines), src.calls
        write(src, n, env, bound, indent, counted or kind not in WALKED, loops)
        if len(src.lines) == start:
            src.emit(indent, "pass")
        elif step is not None and src.quiet and src.lines[start - 1] is step and src.calls == calls:
            # Where an error is placed matters only for what a call could raise (a game error
            # carries its own place): a quiet action calling nothing (no `src.call` while it was
            # written) leaves `at` at its block
            src.unplace(start - 1)

    def _written(self, n, indent: int, loops: int) -> bool:
        """Does `stmt` write `n` as source here (else: a call of its runner or walk)?"""
        return loops <= MAX_LOOPS and indent <= MAX_INDENT and self._writable(n)

    def _writable(self, n) -> bool:
        """Does this module write `n` as source (else: a call of its method's runner)?"""
        kind = type(n)
        if kind is T.Move:  # from the top or bottom of a location, or a card by value; to a location
            from_location = type(n.card) is T.CardAt and type(n.card.cards) is T.Location
            return (_is_location_card(n.card) or not from_location) and _is_location_card(n.to)
        if kind is T.Cycle:
            return isinstance(n.who, str)
        if kind is T.RepeatAll:
            return type(n.action) in (T.Move, T.Forget) and _is_location_card(n.action.card)
        return hasattr(self, "_stmt_" + kind.__name__)

    def _block(self, src, child, env, bound, indent, counted, loops) -> None:
        start = len(src.lines)
        self.stmt(src, child, env, bound, indent, counted, loops)
        if len(src.lines) == start:
            src.emit(indent, "pass")

    def _stmt_Do(self, src, n, env, bound, indent, counted, loops):
        for a in n.actions:
            self.stmt(src, a, env, bound, indent, counted, loops)

    def _stmt_Conditional(self, src, n, env, bound, indent, counted, loops):
        cond, _ = self.value(src, n.condition, env, bound, indent)
        src.emit(indent, f"if {cond}:")
        self._block(src, n.action, env, bound, indent + 1, counted, loops)

    def _stmt_Let(self, src, n, env, bound, indent, counted, loops):
        value, kind = self.value(src, n.value, env, bound, indent)
        v = src.temp()
        src.emit(indent, f"{v} = {value}")
        env, bound = src.bind(indent, env, bound, n.var.name, kind, v)
        self.stmt(src, n.action, env, bound, indent, counted, loops)

    def _stmt_AllDo(self, src, n, env, bound, indent, counted, loops):
        items, kind, fresh = self.items(src, n.collection, env, bound, indent)
        if not fresh:
            items = f"list({items})"  # a copy: the action may move the cards
        x = src.temp()
        src.emit(indent, f"for {x} in {items}:")
        env, bound = src.bind(indent + 1, env, bound, n.var.name, kind, x)
        self.stmt(src, n.action, env, bound, indent + 1, counted, loops + 1)

    _stmt_AnyDo = _stmt_AllDo  # outside a choice: every element (see actions.Executor)

    def _stmt_Repeat(self, src, n, env, bound, indent, counted, loops):
        if self.deal_source(src, n, indent):  # a deal done at once, else (below) card by card
            indent += 1
        times, kind = self.value(src, n.times, env, bound, indent)
        if kind != "int":  # a variable may hold anything (evaluated once: it may draw at random)
            t = src.temp()
            src.emit(indent, f"{t} = {times}")
            src.emit(indent, f"if type({t}) is not int:")
            src.emit(indent + 1, f"raise _not_int({src.const(n.times)}, {t})")
            times = t
        if self._until_false(src, n, indent, loops):
            self._repeat_until_false(src, n, times, env, bound, indent, counted, loops)
            return
        src.emit(indent, f"for _ in range({times}):")
        self._block(src, n.action, env, bound, indent + 1, counted, loops + 1)

    def _until_false(self, src: Source, n, indent: int, loops: int) -> bool:
        """Is `(repeat K (COND ACTION))` written in a quiet function with COND pure (see below)?"""
        action = n.action
        return src.quiet and type(action) is T.Conditional and self.pure(action.condition) \
            and self._written(action, indent + 1, loops + 1)

    def _repeat_until_false(self, src: Source, n, times: str, env, bound, indent, counted, loops) -> None:
        """`(repeat K (COND ACTION))` left at the first turn COND is false: that turn changed
        nothing, so COND (pure: it reads the state and draws nothing) is false at every turn
        after, which would only count its step. They are counted at once (a quiet function
        checked the bound at its start), and `Executor.at` is already at COND."""
        if not times.isdigit():  # evaluated once, before the turns (as `range` does)
            t = src.temp()
            src.emit(indent, f"{t} = {times}")
            times = t
        turn = src.temp()
        src.emit(indent, f"for {turn} in range({times}):")
        self.stmt(src, n.action, env, bound, indent + 1, counted, loops + 1)  # the step, then `if COND:`
        src.emit(indent + 1, "else:")
        if not src.bare:
            src.step(indent + 2, 0, more=f"{times} - 1 - {turn}")
        src.emit(indent + 2, "break")

    def _stmt_RepeatAll(self, src, n, env, bound, indent, counted, loops):
        cards, _ = self.value(src, n.action.card.cards, env, bound, indent)
        src.emit(indent, f"for _ in range(len({cards})):")  # as many as the source holds now
        self._block(src, n.action, env, bound, indent + 1, counted, loops + 1)

    def _record(self, src: Source, indent: int, entry: str, make: str, apply: list[str]) -> None:
        """Source doing one effect as `Store.do` does: the `apply` lines (`>` indents one more),
        then the effect recorded where asked: as the `journal` tuple `entry` while options are
        explored, as the object `make` in a transcript."""
        for line in apply:
            src.emit(indent + len(line) - len(line.lstrip(">")), line.lstrip(">"))
        if src.quiet:
            return
        if src.journaled:  # exploring options: the journal `_j` is always kept
            src.emit(indent, f"_j.append({entry})")
            return
        src.emit(indent, "if st.journal is not None:")
        src.emit(indent + 1, f"st.journal.append({entry})")
        src.emit(indent, "elif st.log is not None:")
        src.emit(indent + 1, f"st.log.append(({make}, st.pcycles[-1][0]))")

    def _stmt_Move(self, src, n, env, bound, indent, counted, loops):
        card, to = n.card, n.to
        e = lambda line, more=0: src.emit(indent + more, line)  # noqa: E731
        dst = self.fixed_key(to.cards, (to.cards.visibility,))
        if dst is not None and dst[2] == "mem":
            dst = None  # the error is the generic code's
        fixed = self.fixed_key(card.cards, (card.cards.visibility,)) if _is_location_card(card) else None
        if fixed is not None and fixed[2] == "mem":
            fixed = None
        s, d = ("_s" if fixed is None else src.const(fixed)), ("_d" if dst is None else src.const(dst))
        self._move_from(src, card, fixed, s, env, bound, indent)
        if dst is None:
            e(f"_d = {self._key(src, to.cards, (to.cards.visibility,), env, bound, self.loc_key_fn)}")
            e("if _d[2] == 'mem':")
            e(f"raise _err({src.const(to)}, 'a card cannot move into memory', hint='use (remember CARD CARD)')", 1)
        e(f"_dl = {src.place(Piece(d, fixed=None if dst is None else d))}")
        e("if _dl is None:")
        e(f"_dl = st.locs[{d}] = []", 1)
        apart = fixed is not None and dst is not None and fixed != dst  # two lists: no index shifts
        top_in, top_out = to.position == "top", fixed is not None and card.position == "top"
        if top_in:
            e(f"_di = {'len(_dl)' if apart else f'len(_dl) - ({s} == {d})'}")
        di = "_di" if top_in else "0"
        self._move_learning(src, fixed, dst, apart, s, d, indent)
        ft = "0" if top_out else "_ft"
        if not top_out and not src.quiet:  # (only recorded: a quiet function records nothing)
            e("_ft = len(_p) - 1 - _i")
        put = "_dl.append(_c)" if apart and top_in else f"_dl.insert({di}, _c)"
        self._record(src, indent, f"({MOVE}, _c, {s}, _i, {d}, {di}, {ft}, _kn)", f"_Move(_c, {s}, _i, {d}, {di}, {ft}, _kn)",
                     ["_p.pop()" if top_out else "del _p[_i]", put, f"st.where[_c] = {d}", "if _kn:", ">_ac(st, _kn)"])

    def _move_from(self, src, card, fixed, s: str, env, bound, indent) -> None:
        """Source setting `_p` (the list the moved card is in), `_i` (its index) and `_c` (the card);
        `s`: the name of `fixed`, the key of the one location it is taken from (or None)."""
        e = lambda line, more=0: src.emit(indent + more, line)  # noqa: E731
        if fixed is not None:  # from the top or bottom of one location: known at once
            e(f"_p = {src.place(Piece(s, fixed=s))}")
            e("if not _p:")
            e(f"raise _err({src.const(card)}, {NOTHING_TO_MOVE!r})", 1)
            e(f"_i = {'len(_p) - 1' if card.position == 'top' else '0'}")
            e("_c = _p[_i]")
        elif _is_location_card(card):
            e(f"_s = {self._key(src, card.cards, (card.cards.visibility,), env, bound, self.loc_key_fn)}")
            e("_p = st.locs.get(_s)")
            e("if not _p:")
            e(f"raise _err({src.const(card)}, {NOTHING_TO_MOVE!r})", 1)
            e(f"_i = {'len(_p) - 1' if card.position == 'top' else '0'}")
            e("_c = _p[_i]")
            e("if _s[2] == 'mem':")  # a virtual card: act on the real one
            e(f"_s, _i = _real({src.const(card)}, _c, st)", 1)
            e("_p = st.locs[_s]", 1)
        else:  # a card by value: where it really is
            value, kind = self.value(src, card, env, bound, indent)
            e(f"_c = {value}")
            e("if _c is None:")
            e(f"raise _err({src.const(card)}, {NOTHING_TO_MOVE!r})", 1)
            if kind != "card":  # a variable may hold cards, a player...: Executor._real says so
                e("if type(_c) is not int:")
                e(f"_real({src.const(card)}, _c, st)", 1)
            e("_s = st.where[_c]")  # as Executor._real
            e("if _s is None:")
            e(f"raise _err({src.const(card)}, _table.text[_c] + ' is in no location')", 1)
            e("_p = st.locs[_s]")
            e("_i = _p.index(_c)")

    def _move_learning(self, src, fixed, dst, apart: bool, s: str, d: str, indent: int) -> None:
        """Source setting `_kn`, what players learn from the move (see `knowledge.move_changes`)."""
        e = lambda line, more=0: src.emit(indent + more, line)  # noqa: E731
        # nobody knows anything yet, and nobody learns from this move (see knowledge.move_changes):
        # nobody learns from a move into a location all players see, or out of one nobody sees
        sight = self.table.sight
        if (apart and not self.table.learning(fixed, dst)) or (dst is not None and all(sight(dst))) \
                or (fixed is not None and not any(sight(fixed))):
            e(f"_kn = _mc(_table, st, _c, {s}, {d}) if st.known else ()")
        else:
            e(f"_kn = _mc(_table, st, _c, {s}, {d}) if st.known or _learners.get(({s}, {d})) != () else ()")

    def _storage_write(self, src, n, amount, new: str | None, env, bound, indent):
        """An integer write: of `amount` (`new` None), else of `new` written with `{old}` (the old
        value, 0 where none) and `{amount}`."""
        e = lambda line, more=0: src.emit(indent + more, line)  # noqa: E731
        k = self._key(src, n.storage, (), env, bound, self.storage_key_fn)
        if not k.isidentifier():
            e(f"_k = {k}")
            k = "_k"
        v, kind = self.value(src, amount, env, bound, indent)
        # a literal amount needs no bound check: adding it at every step of every choice a game
        # may make (10**8 steps) stays far from 2**127; nor a stored integer written as it is
        # (every write to the storage is checked, or adds such a literal); any other value is checked
        checked = not v.isdigit() and not (new is None and type(amount) is T.IntStorage)
        if not (v.isidentifier() or v.isdigit()):
            e(f"_v = {v}")
            v = "_v"
        if kind != "int":
            e(f"if type({v}) is not int:")
            e(f"raise _not_int({src.const(amount)}, {v})", 1)
        if not src.quiet:  # (the old value, to record)
            e(f"_o = {src.store('ints')}.get({k}, _MISSING)")
        if new is not None:  # (nothing recorded: the old value read where it is added to)
            old = f"{src.store('ints')}.get({k}, 0)" if src.quiet else "(0 if _o is _MISSING else _o)"
            e(f"_n = {new.format(old=old, amount=v)}")
            v = "_n"
        if checked:  # stored integers stay within 128 bits (see `evaluate.MAX_INT`)
            e(f"if not {MIN_INT} <= {v} <= {MAX_INT}:")
            e(f"_ex.bounded({src.const(n)}, {v})", 1)
        self._record(src, indent, f"({INTS}, {k}, _o, {v})", f"_SetValue('ints', {k}, _o, {v})", [f"{src.store('ints')}[{k}] = {v}"])

    def _stmt_SetStr(self, src, n, env, bound, indent, counted, loops):
        e = lambda line: src.emit(indent, line)  # noqa: E731
        e(f"_k = {self._key(src, n.storage, (), env, bound, self.storage_key_fn)}")
        e(f"_n = str({self.value(src, n.value, env, bound, indent)[0]})")
        e("_o = st.strs.get(_k, _MISSING)")
        self._record(src, indent, f"({STRS}, _k, _o, _n)", "_SetValue('strs', _k, _o, _n)", ["st.strs[_k] = _n"])

    def _stmt_SetInt(self, src, n, env, bound, indent, counted, loops):
        self._storage_write(src, n, n.value, None, env, bound, indent)

    def _stmt_Inc(self, src, n, env, bound, indent, counted, loops):
        self._storage_write(src, n, n.amount, "{old} + {amount}", env, bound, indent)

    def _stmt_Dec(self, src, n, env, bound, indent, counted, loops):
        self._storage_write(src, n, n.amount, "{old} - {amount}", env, bound, indent)

    def _stmt_Cycle(self, src, n, env, bound, indent, counted, loops):
        count = self.table.num_players
        target = {"current": "_ix", "next": f"(_qd if _qd >= 0 else (_ix + 1) % {count})"}.get(
            n.who, f"(_ix - 1) % {count}")  # previous: to the right
        new = f"(_ix, {target})" if n.mode == "next" else f"({target}, _qd)"
        src.emit(indent, "_ix, _qd = st.pcycles[-1]")
        src.emit(indent, f"_n = {new}")
        self._record(src, indent, f"({CYCLE}, len(st.pcycles) - 1, (_ix, _qd), _n, {n.mode!r})",
                     f"_CycleSet(len(st.pcycles) - 1, (_ix, _qd), _n, {n.mode!r})", ["st.pcycles[-1] = _n"])
