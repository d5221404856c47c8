"""Actions: the executor, and the options of a choice.

Every change to a game is one primitive effect (`effects`: a move, a copy
into memory, a storage write, a reordering, a cycle change, a pass). The
`Executor` runs action nodes at once, effect by effect, through `Store.do`
(the `_do_Form` methods below say what each does; `runners` compiles the
common ones to Python source that does the same).

A choice's options are found the way the reference engine finds them: each
option is *tried* (executed with a journal of effects), every `any` forks
the trial into one branch per element, and the effects of each finished branch
become one option; everything tried is undone. So an option is a list of
concrete effects, computed against the very state it will be applied to, and
its text says exactly what it does (`move SEVEN RED HEARTS from p0 HAND to p0 TRICK`).
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.effects import MISSING, CycleSet, Forget, Move, Pass, Remember, Reorder, SetValue
from recycle.interp.errors import LimitError
from recycle.interp.evaluate import Evaluator
from recycle.interp.undo import undo_to
from recycle.interp.knowledge import move_changes, reorder_changes
from recycle.interp.store import Store, Table, loc_text

#: Control forms that `_explore` walks itself (no step counted for them).
WALKED = (T.Do, T.Conditional, T.Let, T.AllDo)


class Executor(Evaluator):
    """Runs action nodes against a `Store`; finds the options of a choice: the meaning of every
    action form. The fast engine's `compiler` (see `compiler.executor`) offers runners, walks,
    explorers and counted options for the same nodes; they are asked for only while `compiling`."""

    def __init__(self, table: Table, max_steps: int) -> None:
        super().__init__(table)
        self.max_steps = max_steps
        self.at = None  # the action or flow node being run
        self._actions = {cls: getattr(self, "_do_" + cls.__name__) for cls in vars(T).values()
                         if isinstance(cls, type) and hasattr(self, "_do_" + cls.__name__)}
        self._runs: dict[int, object] = {}  # id(node) -> run(env, st), see `runner`
        self._flats: dict[int, object] = {}  # id(node) -> the walk `_explore` does, or None
        self.make_compiler = None  # how the fast engine makes its compiler when it starts compiling

    def compile_from_now(self) -> None:
        """Switch the compiler on (the fast engine after its warm-up, see `engine`): the plain
        functions made so far are dropped, the compiled ones made as nodes are used again."""
        if self.compiler is None:
            self.compiler = self.make_compiler()
        self.compiling = True
        for made in (self._fns, self._runs, self._flats):
            made.clear()
        self.compiler.forget()

    def run(self, node, env: dict, st: Store) -> None:
        """Run one action: a step counted (bounded), `at` set, its `_do_Form` done (see `runner`)."""
        f = self._runs.get(id(node))
        if f is None:
            f = self.runner(node)
        f(env, st)

    def runner(self, node):
        """The function running `node` as `run` does (made once per node): the compiler's, else
        its `_do_Form` method with the step counted."""
        f = self._runs.get(id(node))
        if f is None:
            f = self._runs[id(node)] = (self.compiling and self.compiler.generated_runner(node)) or self._stepped(node)
        return f

    def flat(self, node):
        """The function doing what `_explore` does with `node` when no `any` or `choice` is in it
        (do, conditionals, let and all walked, no step counted for them; other actions run);
        None when one is: `_explore` forks there itself."""
        key = id(node)
        if key in self._flats:
            return self._flats[key]
        kind = type(node)
        if kind is T.AnyDo or kind is T.Choice:
            f = None
        elif kind in WALKED:
            parts = [self.flat(a) for a in (node.actions if kind is T.Do else (node.action,))]
            f = None if None in parts else (self.compiling and self.compiler.generated_walk(node)) or self._walker(node, parts)
        else:
            f = self.runner(node)
        self._flats[key] = f
        return f

    def _walker(self, n, parts):
        """`flat` as closures over the parts' functions."""
        kind, ev, iterate = type(n), self.ev, self.iterate
        if kind is T.Do:
            def walk(env, st):
                for part in parts:
                    part(env, st)
        elif kind is T.Conditional:
            def walk(env, st):
                if ev(n.condition, env, st):
                    parts[0](env, st)
        elif kind is T.Let:
            def walk(env, st):
                parts[0](self.bind(env, n.var, ev(n.value, env, st)), st)
        else:
            def walk(env, st):
                for x in iterate(n.collection, env, st):
                    parts[0](self.bind(env, n.var, x), st)
        return walk

    def _stepped(self, node):
        """A runner calling the node's `_do_Form` method."""
        ex, max_steps, method = self, self.max_steps, self._actions.get(type(node))

        def run(env, st):
            st.steps += 1
            if st.steps > max_steps:
                raise ex.too_long(node)
            if method is None:
                raise ex.error(node, f"{type(node).__name__} is not an action that can run here")
            ex.at = node
            method(node, env, st)
        return run

    def too_long(self, node):
        return self.error(node, f"more than {self.max_steps:,} steps without a player choice "
                          "(does the game loop?)", LimitError)

    def over(self, st, k: int, nodes: tuple) -> None:
        """`k` steps counted at once went past the bound: raise where counting them one by one
        (setting `at` to each node after its step) would have."""
        before = st.steps - k
        j = max(1, self.max_steps - before + 1)  # the first of them past the bound (1-based)
        st.steps = before + j
        if j > 1:
            self.at = nodes[j - 2]
        raise self.too_long(nodes[j - 1])

    def not_int(self, node, value):
        return self.error(node, f"expected an integer, found {value!r}")

    def plan_of(self, node):
        """How to count the options of choice `node` (the compiler's `counting.Plan`), or None:
        they are explored."""
        return self.compiler.plan_of(node) if self.compiling else None

    def quiet(self, node):
        """The function running `node` for a state keeping no record: the compiler's quiet one
        (see `quiet`), else the runner."""
        return self.compiler.quiet(node) if self.compiling else self.runner(node)

    # --- control ------------------------------------------------------------

    def _do_Do(self, n, env, st):
        for a in n.actions:
            self.run(a, env, st)

    def _do_Conditional(self, n, env, st):
        if self.ev(n.condition, env, st):
            self.run(n.action, env, st)

    def _do_AllDo(self, n, env, st):
        for x in self.iterate(n.collection, env, st):
            self.run(n.action, self.bind(env, n.var, x), st)

    def _do_Let(self, n, env, st):
        self.run(n.action, self.bind(env, n.var, self.ev(n.value, env, st)), st)

    def _do_Repeat(self, n, env, st):
        for _ in range(self._int(n.times, env, st)):
            self.run(n.action, env, st)

    def _do_RepeatAll(self, n, env, st):
        source = getattr(n.action, "card", None)
        if not isinstance(source, T.CardAt):
            raise self.error(n, "(repeat all ...) needs a move or forget from (top|bottom CARDS)")
        cards = list(self.ev(source.cards, env, st))
        if type(n.action) is T.Move and type(source.cards) is not T.Location:
            # From a computed collection ('RUN, a filter...): the reference engine empties that
            # virtual collection as it moves, so every card of it moves, top first.
            for card in (reversed(cards) if source.position != "bottom" else cards):
                st.steps += 1
                self._move(n.action, card, self._real(n.action.card, card, st), env, st)
            return
        for _ in range(len(cards)):  # as many as the source holds now
            self.run(n.action, env, st)

    # Outside a choice the reference engine runs `(any C 'V ACTION)` for every element,
    # like `all` (corpus games rely on it: Stealing Bundles, Poker).
    _do_AnyDo = _do_AllDo

    # --- cards --------------------------------------------------------------

    def card_ref(self, n, env, st) -> tuple:
        """(location key or None, index, card or None) of a card expression."""
        if type(n) is T.CardAt and type(n.cards) is T.Location:
            key = self.loc_key(n.cards, env, st)
            cards = st.locs.get(key) or ()
            i = self.position(n, env, st, len(cards))
            return key, i, None if i is None else cards[i]
        return None, None, self.ev(n, env, st)

    def target(self, n, env, st) -> tuple:
        """(key, position word or N) of where a card goes: `(top|bottom|N LOCATION)`."""
        if type(n) is not T.CardAt:
            raise self.error(n, "cards go to a position of a location: (top|bottom (OWNER vloc NAME))")
        pos = n.position if isinstance(n.position, str) else self.ev(n.position, env, st)
        if type(n.cards) is T.Location:
            return self.loc_key(n.cards, env, st), pos
        return self._bound_location(n.cards, env, st), pos

    def _bound_location(self, n, env, st) -> tuple:
        """The key of a location held by a variable (`let`, or `any`/`all` over `(indexed ...)`):
        a location's value is its live list of cards, so it is found by identity."""
        cards = self.ev(n, env, st)
        if type(cards) is list:
            for key, pile in st.locs.items():
                if pile is cards:
                    return key
        raise self.error(n, "cards go to a position of a location, and this names none here",
                         hint="write (top|bottom (OWNER vloc NAME)), or bind 'V to a location "
                              "that holds or has held cards")

    @staticmethod
    def _insert_at(pos, size: int) -> int:
        if pos == "top":
            return size
        if pos == "bottom":
            return 0
        return max(0, min(size, size - pos))

    def _real(self, n, card: int, st) -> tuple:
        """(key, index) of where a card really is."""
        if type(card) is not int or not 0 <= card < len(st.where):
            raise self.error(n, f"expected a card, found {card!r}")
        key = st.where[card]
        if key is None:
            raise self.error(n, f"{self.table.text[card]} is in no location")
        return key, st.locs[key].index(card)

    def _source(self, n, env, st, verb: str) -> tuple:
        key, i, card = self.card_ref(n, env, st)
        if card is None:
            raise self.error(n, f"nothing to {verb}: the collection is empty")
        if key is None or key[2] == "mem":  # a virtual card: act on the real one
            key, i = self._real(n, card, st)
        return key, i, card

    def _do_Move(self, n, env, st):
        src, si, card = self._source(n.card, env, st, "move")
        self._move(n, card, (src, si), env, st)

    def _move(self, n, card: int, source: tuple, env, st) -> None:
        src, si = source
        dst, pos = self.target(n.to, env, st)
        if dst[2] == "mem":
            raise self.error(n.to, "a card cannot move into memory", hint="use (remember CARD CARD)")
        size = len(st.locs.get(dst) or ()) - (dst == src)
        if pos not in ("top", "bottom") and type(pos) is not int:
            raise self.error(n.to, f"a card goes to the top, the bottom or a numbered place, not {pos!r}")
        st.do(Move(card, src, si, dst, self._insert_at(pos, size), len(st.locs[src]) - 1 - si,
                   move_changes(self.table, st, card, src, dst)))

    def _do_Remember(self, n, env, st):
        _, _, card = self.card_ref(n.card, env, st)
        if card is None:
            raise self.error(n, "nothing to remember: the collection is empty")
        dst, pos = self.target(n.to, env, st)
        if dst[2] != "mem":  # a copy in a real location would be a second real card
            raise self.error(n.to, f"(remember ...) copies a card into a mem location, not into {dst[2]} "
                                   f"{loc_text(dst)}", hint="a real card goes to a location with (move CARD CARD)")
        st.do(Remember(card, dst, self._insert_at(pos, len(st.locs.get(dst) or ()))))

    def _do_Forget(self, n, env, st):
        key, i, card = self.card_ref(n.card, env, st)
        if card is None:
            raise self.error(n, "nothing to forget: the collection is empty")
        if key is None or key[2] != "mem":  # forgetting a real card would destroy it
            raise self.error(n, "(forget ...) needs a card of a mem location: (top (OWNER mem NAME))",
                             hint="a real card leaves a location with (move CARD CARD)")
        st.do(Forget(card, key, i))

    def _real_and_mem(self, n, a: tuple, b: tuple) -> None:
        """A located error when exactly one of two locations is `mem`: exchanging their contents
        would put copies among the real cards and real cards out of play."""
        if (a[2] == "mem") != (b[2] == "mem"):
            raise self.error(n, f"cannot exchange cards between a mem location and a real one "
                                f"({loc_text(a)}, {loc_text(b)})", hint="mem locations hold copies of real cards")

    def _location(self, n, env, st) -> tuple:
        if type(n) is not T.Location:
            raise self.error(n, "this needs a location (OWNER vloc|iloc|hloc|oloc|mem NAME)")
        return self.loc_key(n, env, st)

    def _reorder(self, st, key, old, new, why: str) -> None:
        st.do(Reorder(key, old, new, why, reorder_changes(self.table, st, key, new)))

    def _do_Shuffle(self, n, env, st):
        key = self._location(n.cards, env, st)
        cards = list(st.locs.get(key) or ())
        new = cards[:]
        st.rng.shuffle(new)
        self._reorder(st, key, cards, new, "shuffle")

    def _do_FaroShuffle(self, n, env, st):
        a, b = self._location(n.first, env, st), self._location(n.second, env, st)
        self._real_and_mem(n, a, b)
        ca, cb = list(st.locs.get(a) or ()), list(st.locs.get(b) or ())
        mixed = [c for pair in zip(ca, cb) for c in pair] + ca[len(cb):] + cb[len(ca):]
        self._reorder(st, b, cb, [], "faro")
        self._reorder(st, a, ca, mixed, "faro")

    def _do_SwapLocations(self, n, env, st):
        a, b = self._location(n.first, env, st), self._location(n.second, env, st)
        self._real_and_mem(n, a, b)
        ca, cb = list(st.locs.get(a) or ()), list(st.locs.get(b) or ())
        self._reorder(st, a, ca, cb, "swap")
        self._reorder(st, b, cb, ca, "swap")

    def _do_SwapCards(self, n, env, st):
        (ka, ia, ca), (kb, ib, cb) = self._source(n.first, env, st, "swap"), self._source(n.second, env, st, "swap")
        la, lb = list(st.locs[ka]), list(st.locs[kb])
        if ka == kb:
            new = la[:]
            new[ia], new[ib] = cb, ca
            self._reorder(st, ka, la, new, "swap")
            return
        na, nb = la[:], lb[:]
        na[ia], nb[ib] = cb, ca
        self._reorder(st, ka, la, na, "swap")
        self._reorder(st, kb, lb, nb, "swap")

    # --- storage and turns --------------------------------------------------

    def _write(self, st, kind: str, key, value) -> None:
        st.do(SetValue(kind, key, getattr(st, kind).get(key, MISSING), value))

    def _int(self, n, env, st) -> int:
        value = self.ev(n, env, st)
        if type(value) is not int:
            raise self.error(n, f"expected an integer, found {value!r}")
        return value

    def _do_SetInt(self, n, env, st):
        self._write(st, "ints", self.storage_key(n.storage, env, st), self.bounded(n, self._int(n.value, env, st)))

    def _do_Inc(self, n, env, st):
        key = self.storage_key(n.storage, env, st)
        self._write(st, "ints", key, self.bounded(n, st.ints.get(key, 0) + self._int(n.amount, env, st)))

    def _do_Dec(self, n, env, st):
        key = self.storage_key(n.storage, env, st)
        self._write(st, "ints", key, self.bounded(n, st.ints.get(key, 0) - self._int(n.amount, env, st)))

    def _do_SetStr(self, n, env, st):
        self._write(st, "strs", self.storage_key(n.storage, env, st), str(self.ev(n.value, env, st)))

    def _do_SetPoints(self, n, env, st):
        self._write(st, "points", self.storage_key(n.storage, env, st), self._points(n.points, env, st))

    def _do_UpdatePoints(self, n, env, st):
        key = self.storage_key(n.storage, env, st)
        old = st.points.get(key)
        new = self._points(n.points, env, st)
        self._write(st, "points", key, old.updated(new) if old is not None else new)

    def _do_PutPoints(self, n, env, st):
        self._write(st, "gvars", n.var.name, self._points(n.points, env, st))

    def _do_Cycle(self, n, env, st):
        idx, queued = st.pcycles[-1]
        who = n.who
        if isinstance(who, str):
            target = self._player_index(who, st, st.pcycles, self.table.num_players)
        else:
            player = self.ev(who, env, st)
            if not (isinstance(player, tuple) and player[0] == "p"):
                raise self.error(who, f"(cycle ...) needs a player, found {player!r}")
            target = player[1]
        new = (idx, target) if n.mode == "next" else (target, queued)
        st.do(CycleSet(len(st.pcycles) - 1, (idx, queued), new, n.mode))

    def _do_TurnPass(self, n, env, st):
        st.do(Pass())

    # --- the options of a choice ----------------------------------------------

    def options(self, node, env: dict, st: Store) -> list[tuple]:
        """Every option of a choice (or of a lone `any`), each a tuple of effects."""
        out: list[tuple] = []
        saved = st.journal, st.log
        st.journal, st.log = [], None
        try:
            if self.compiling:
                self.compiler.explorer(node)(env, st, out, None)
            else:  # the meaning itself
                self._explore((node, env, None), st, out)
        finally:
            undo_to(st, st.journal, 0)
            st.journal, st.log = saved
        return out

    def _explore(self, work, st: Store, out: list) -> None:
        """Run `work` (a linked list of (node, env, rest)); fork at every `any`. (The meaning
        of exploring; `explorers` compiles it for each choice, and calls back here for
        the rest of the work and the shapes it does not write.)"""
        flats, flat = self._flats, self.flat
        while work is not None:
            node, env, work = work
            f = flats[id(node)] if id(node) in flats else flat(node)
            if f is not None:  # nothing to fork in it: walked or run at once
                f(env, st)
                continue
            kind = type(node)
            if kind is T.Do:
                for a in reversed(node.actions):
                    work = (a, env, work)
            elif kind is T.Conditional:
                if self.ev(node.condition, env, st):
                    work = (node.action, env, work)
            elif kind is T.Let:
                work = (node.action, self.bind(env, node.var, self.ev(node.value, env, st)), work)
            elif kind is T.AllDo:
                for x in reversed(self.iterate(node.collection, env, st)):
                    work = (node.action, self.bind(env, node.var, x), work)
            elif kind is T.AnyDo or kind is T.Choice:
                branches = ([(node.action, self.bind(env, node.var, x)) for x in self.iterate(node.collection, env, st)]
                            if kind is T.AnyDo else [(o, env) for o in node.options])
                if not branches:  # an `any` over nothing does nothing; the rest of the work goes on
                    continue
                for action, benv in branches:
                    mark = len(st.journal)
                    self._explore((action, benv, work), st, out)
                    undo_to(st, st.journal, mark)
                return
        if st.journal:  # an option that changes nothing is not offered (as the reference engine)
            out.append(tuple(st.journal))
