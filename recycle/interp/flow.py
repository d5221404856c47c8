"""Game flow as a resumable machine: stages, sequences and choices.

The position in the game is an explicit stack of immutable frame tuples, not
Python recursion or generators, so a state stops at a choice, is cloned by
copying one short list, and resumes after `apply`:

    (SEQ, items, next index, env)             a body or a (do ...) being run
    (EACH, items, next index, var, action, env)  an (all ...) holding a choice
    (STAGE, node, env, rounds)                a stage; rounds -1 before it starts

Only nodes that can reach a choice (or a stage) are run through frames; all
other actions run at once in the executor. Stage semantics follow the
reference engine: entering a stage pushes a copy of the enclosing player (or
team) cycle; before each round the end condition is tested, and from the
second round on the cycle moves to the next member first (or to the queued
one, `cycle next`); leaving the stage pops the cycle.

A `(choice ...)` stops the machine: its options are found for the current
player (`actions.Executor.options`) and kept in the state until `apply`.
`(any C 'V ACTION)` outside a choice runs ACTION for every element, as the
reference engine does (corpus games rely on it).

Dialect C modes: `once` runs one round per member of the cycle and ends;
`simultaneous` is played the same way, as sequential turns (each player
decides in seating order seeing what earlier ones did — not hidden).
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.compat import reference_options, reference_walk
from recycle.interp.canonical import canonical_texts, frozen, kept, options_by_rule, rules_matter
from recycle.interp.undo import all_read_apart, option_texts
from recycle.interp.errors import LimitError, NoOptionsError

SEQ, EACH, STAGE = 0, 1, 2

#: Frames deeper than this are a game that nests without end.
MAX_FRAMES = 200
#: Options of one choice beyond this are an error, not a decision.
MAX_OPTIONS = 5000


def flow_nodes(game) -> set[int]:
    """ids of the flow nodes that contain a choice or a stage (the ones run as frames)."""
    found: set[int] = set()

    def visit(node) -> bool:
        kind = type(node)
        if kind in (T.Choice, T.Stage):
            hit = True
            if kind is T.Stage:
                for b in node.body:
                    visit(b)
        elif kind is T.Do:
            hit = any([visit(a) for a in node.actions])
        elif kind in (T.Conditional, T.Let, T.AllDo, T.AnyDo):
            hit = visit(node.action)
        else:
            hit = False
        if hit:
            found.add(id(node))
        return hit

    for item in game.flow:
        visit(item)
    return found


def no_semicolon(game) -> bool:
    """Does no string of the game hold a ';'? Then no effect's text does either (they are made of
    the game's names and values, numbers and our words), and an option's text has one "; " fewer
    than it has effects."""
    stack = [game]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if ";" in x:
                return False
        elif isinstance(x, (tuple, list, set, frozenset)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.items())
        elif isinstance(x, T.Node):
            stack.extend(getattr(x, f) for f in x.__dataclass_fields__)
    return True


class _Every:
    """Every node, as far as `advance` asks: each item of a sequence is started by `enter`
    (which asks `Machine.flowy`, the real set), a frame written per item."""

    def __contains__(self, key) -> bool:
        return True


_EVERY = _Every()


class Machine:
    """Drives one game's flow for any `RecycleState` of it (shared by all clones)."""

    def __init__(self, executor, game) -> None:
        self.ex = executor
        self.flowy = flow_nodes(game)
        self.sized = no_semicolon(game)
        self._named = (-1, False)
        self._stages: dict[int, tuple] = {}  # id(stage node) -> what each round needs (`stage_round`)
        self.loops: dict[int, object] = {}  # id(stage node) -> its `rounds.RoundLoop`, or None

    def advance(self, s) -> None:
        """Run `s` until a choice with options (s.options set) or the end (s.over)."""
        ex, st, stack, flowy = self.ex, s.st, s.stack, self.flowy
        max_steps = ex.max_steps
        if not ex.compiling:  # the reference engine: every item started by `enter`, by its runner
            flowy, runs, made = _EVERY, ex._runs, ex.runner
        elif st.journal is None and st.log is None:  # nothing to record: the quiet runners
            runs, made = ex.compiler._quiets, ex.compiler.quiet
        else:
            runs, made = ex._runs, ex.runner
        while stack:
            frame = stack[-1]
            kind = frame[0]
            if kind == SEQ:
                _, items, i, env = frame
                n = len(items)
                try:  # the items holding no choice run here, one after another: the frame is
                    # written back when one is entered, or if one fails (as if at every item)
                    while i < n:
                        last = items[i]
                        i += 1
                        if id(last) in flowy:
                            break
                        ex.at = last  # what `enter` does with an action holding no choice
                        (runs.get(id(last)) or made(last))(env, st)
                        st.steps += 1
                        if st.steps > max_steps:
                            raise ex.too_long(last)
                    else:
                        stack.pop()
                        continue
                except BaseException:
                    stack[-1] = (SEQ, items, i, env)
                    raise
                stack[-1] = (SEQ, items, i, env)
                if type(last) is T.Choice:  # (the commonest item holding a choice)
                    self.choose(s, last, env)
                    return
                if self.enter(s, last, env):
                    return
            elif kind == EACH:
                _, items, i, var, action, env = frame
                if i >= len(items):
                    stack.pop()
                    continue
                stack[-1] = (EACH, items, i + 1, var, action, env)
                last = action
                if self.enter(s, action, ex.bind(env, var, items[i])):
                    return
            else:
                last = frame[1]
                self.stage_round(s, frame)
            st.steps += 1
            if st.steps > max_steps:
                raise ex.too_long(last)
        s.over = True

    def compile_from_now(self) -> None:
        """The executor's speed layers on (see `engine`); a stage's end test is made again."""
        self.ex.compile_from_now()
        self._stages.clear()
        self.loops.clear()  # (a loop holds functions of the executor, see `rounds`)

    def stage_round(self, s, frame) -> None:
        _, node, env, rounds = frame
        ex = self.ex
        ex.at = node
        st, stack = s.st, s.stack
        plan = self._stages.get(id(node))
        if plan is None:  # (a player cycle?, members, the end test's function or None: once)
            plan = self._stages[id(node)] = (
                node.cycle == "player", s.table.num_players if node.cycle == "player" else len(s.table.teams),
                ex.fn(node.end) if node.mode == "end" else None)
        player, count, end = plan
        cycles = st.pcycles if player else st.tcycles
        if rounds < 0:  # entering: a copy of the enclosing cycle, without its queued player
            cycles.append((cycles[-1][0], -1))
            rounds = 0
        # once / simultaneous: one round per member
        if end(env, st) if end is not None else rounds >= count:
            cycles.pop()
            stack.pop()
            return
        if rounds > 0:
            idx, queued = cycles[-1]
            cycles[-1] = (queued if queued >= 0 else (idx + 1) % count, -1)
        stack[-1] = (STAGE, node, env, rounds + 1)
        if len(stack) >= MAX_FRAMES:
            raise self.too_deep(node)
        stack.append((SEQ, node.body, 0, env))

    def push(self, s, frame, node) -> None:
        if len(s.stack) >= MAX_FRAMES:
            raise self.too_deep(node)
        s.stack.append(frame)

    def too_deep(self, node):
        return self.ex.error(node, f"the game nests deeper than {MAX_FRAMES} stages and blocks", LimitError)

    def choose(self, s, node, env) -> None:
        """Stop at a choice: its options offered to the current player."""
        self.ex.at = node
        s.pending = (node, env)
        self.offer(s)

    def enter(self, s, node, env) -> bool:
        """Start one flow item; True when it stopped at a choice."""
        self.ex.at = node
        if id(node) not in self.flowy:
            self.ex.run(node, env, s.st)
            return False
        kind = type(node)
        if kind is T.Choice:
            self.choose(s, node, env)
            return True
        if kind is T.Stage:
            self.push(s, (STAGE, node, env, -1), node)
        elif kind is T.Do:
            self.push(s, (SEQ, node.actions, 0, env), node)
        elif kind is T.Conditional:
            if self.ex.ev(node.condition, env, s.st):
                self.push(s, (SEQ, (node.action,), 0, env), node)
        elif kind is T.Let:
            self.push(s, (SEQ, (node.action,), 0, self.ex.bind(env, node.var, self.ex.ev(node.value, env, s.st))), node)
        else:  # AllDo, or AnyDo outside a choice: every element (see actions.Executor)
            items = tuple(self.ex.iterate(node.collection, env, s.st))
            self.push(s, (EACH, items, 0, node.var, node.action, env), node)
        return False

    def named(self, table) -> bool:
        """Has every card its own name (kept while no card is added)?"""
        if self._named[0] != len(table.text):
            self._named = (len(table.text), len(set(table.text)) == len(table.text))
        return self._named[1]

    def merged(self, found: list, table, st, player: int, canonical: bool = False) -> tuple[list | None, tuple]:
        """(texts, options): options with identical texts are one decision (identical cards), the
        first kept. Where no text holds a ';' (`self.sized`), options with different numbers of
        effects never read alike: when all differ so, no text is made (None: made if asked for,
        see `RecycleState.options`). `canonical`: worded by `canonical` (a choice reading faces;
        its texts read alike exactly when their full words do, so the same shortcuts hold)."""
        if self.sized and (len({len(effects) for effects in found}) == len(found)
                           or self.named(table) and all_read_apart(found, table, st, player)):
            return None, frozen(found)
        texts = (canonical_texts if canonical else option_texts)(found, table, st, player)
        if len(set(texts)) < len(texts):
            first: dict[str, int] = {}
            for i, text in enumerate(texts):
                first.setdefault(text, i)  # the first of each, in order
            texts, found = list(first), kept(found, first.values())
        return texts, frozen(found)

    def countable(self, leaves, s) -> bool:
        """Are these counted options exactly what exploring would offer (`counting`)? Errors
        (no option, too many) are left to exploring; two options could only be merged where
        some card has no name of its own, a text may hold a ';', or two sites that can have
        as many effects both offer options."""
        n = len(leaves)
        if n == 1:
            return True
        if not 0 < n <= MAX_OPTIONS:
            return False
        if s.rules.cardstock:
            return True
        plan = leaves.plan
        return self.sized and plan.apart and self.named(s.table) and not (plan.overlaps and plan.clash(leaves))

    def offer(self, s) -> None:
        """Find the options of the pending choice for the current player (s.options)."""
        node, env = s.pending
        # a random playout: only how many, where that is proven (`counting`)
        self.offer_by(s, node, env, self.ex.plan_of(node) if s.counting and s.st.log is None else None)

    def offer_by(self, s, node, env, plan) -> None:
        """`offer`, counting the options by `plan` (None: explored)."""
        st = s.st
        player = st.pcycles[-1][0]
        if plan is not None and not (s.rules.cardstock and reference_walk(node)):  # (counts ordered selections)
            leaves = self.ex.compiler.count(plan, env, st)  # (a plan is the compiler's)
            if leaves is not None and self.countable(leaves, s):
                s._options, s.found, s.chooser = None, leaves, player
                st.steps = 0
                return
        self.explore(s, node, env, player)

    def explore(self, s, node, env, player: int) -> None:
        """The options of the pending choice found by trying each (`Executor.options`)."""
        st, table = s.st, s.table
        if s.rules.cardstock and reference_walk(node):  # several `any` in one option, see `compat`
            found = reference_options(self.ex, node, env, st, MAX_OPTIONS)
        elif id(node) in s.rules.by_rule:  # each option's rule kept (`canonical`)
            found = options_by_rule(self.ex, node, env, st)
        else:
            found = self.ex.options(node, env, st)
            if s.rules.faces(node) and type(node) is T.Choice and rules_matter(found, table, st, player):
                s.rules.by_rule.add(id(node))  # from now on at once (the same options either way)
                found = options_by_rule(self.ex, node, env, st)
        if len(found) > MAX_OPTIONS:
            raise self.ex.error(node, f"a choice with {len(found):,} options (at most {MAX_OPTIONS:,})", LimitError)
        if not found:
            raise self.ex.error(node, f"player p{player} has no possible option in this choice",
                                NoOptionsError, "every option's condition is false or it has nothing to do")
        if len(found) == 1 or s.rules.cardstock:  # nothing to merge (the reference offers one option
            # per physical card): the texts are made if asked for (`RecycleState.options`)
            s._options, s.found = None, frozen(found)
        else:
            s._options, s.found = self.merged(found, table, st, player, s.rules.faces(node))
        s.chooser = player
        st.steps = 0
