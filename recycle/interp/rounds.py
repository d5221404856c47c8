"""A stage's rounds played straight through in a random playout (a speed layer of `flow`).

Most games are a stage whose body is a few actions, one choice and a few more actions:

    (stage player (end COND) PRE... (choice ...) POST...)

Driven by `flow.Machine.advance`, every choice of a playout passes through the whole
machine: the game's `_play` and `_run`, the frame stack's dispatch, `stage_round` and
`offer`. `play_rounds` does the very same steps in one loop for such a stage: the drawn
option, POST, the end test, the next player, PRE and the next choice's options, drawing
each choice as the playout would, until the stage ends or the choice limit comes near.
Then the general machine takes over from exactly where it would be.

Everything observable is the same, step for step: the frames on the stack (also when an
error stops the game), `st.steps` and the step bound, `executor.at` for errors, the
cycle's moves, and the draws. The loop runs only where nothing is recorded (no
transcript, no journal) and no check runs after each choice (`Rules.check`).
"""
from __future__ import annotations

from recycle.kernel.protocol import GameError
from recycle.lang import tree as T

from recycle.interp.compat import reference_walk
from recycle.interp.counting import Leaves, distinct_scores, small_scores
from recycle.interp.flow import MAX_OPTIONS, SEQ, STAGE
from recycle.interp.source import Source
from recycle.interp.undo import apply_all


class RoundLoop:
    """What `play_rounds` needs of one stage (one per stage node, shared by all states)."""

    __slots__ = ("stage", "body", "at", "pre", "post", "end", "player", "members", "made")

    def __init__(self, stage, at: int, end, members: int) -> None:
        self.stage, self.body, self.at, self.end = stage, stage.body, at, end
        self.pre, self.post = stage.body[:at], stage.body[at + 1:]
        self.player, self.members = stage.cycle == "player", members
        self.made: dict = {}  # counting? -> the rounds as one function (`round_source`)


def round_loop(machine, stage, table) -> RoundLoop | None:
    """The stage's loop, if its rounds have the shape `play_rounds` runs: an end test, and one
    item of the body reaching a choice, which is the choice itself."""
    if stage.mode != "end":
        return None
    reaching = [i for i, item in enumerate(stage.body) if id(item) in machine.flowy]
    if len(reaching) != 1 or type(stage.body[reaching[0]]) is not T.Choice:
        return None
    members = table.num_players if stage.cycle == "player" else len(table.teams)
    return RoundLoop(stage, reaching[0], machine.ex.fn(stage.end), members)


def loop_here(s) -> tuple | None:
    """(the loop, its env) when `s` waits at the choice of a stage `play_rounds` can run."""
    stack = s.stack
    if len(stack) < 2:
        return None
    top, below = stack[-1], stack[-2]
    if top[0] != SEQ or below[0] != STAGE:
        return None
    stage = below[1]
    machine = s.rules.machine
    loops = machine.loops
    loop = loops.get(id(stage), False)
    if loop is False:
        loop = loops[id(stage)] = round_loop(machine, stage, s.table)
    if loop is None or top[1] is not loop.body or top[2] != loop.at + 1 or top[3] is not below[2] \
            or s.pending is None or s.pending[0] is not loop.body[loop.at]:
        return None
    return loop, top[3]


def play_rounds(s, loop: RoundLoop, env: dict, index: int, rand, draw) -> int:
    """Play option `index` of the pending choice, then the stage's rounds, each choice drawn by
    `draw(n)` (or `int(rand() * n)`), as `RecycleState.random_playout` would; return how many
    choices were played. Stops, with the state as the machine leaves it, once the stage ends
    (the machine then runs on to the next choice or the end) or the choice limit is reached."""
    rules = s.rules
    ex, st, stack = rules.ex, s.st, s.stack
    first = s.choices
    rounds_of = loop.made.get(s.counting)
    if rounds_of is None:
        rounds_of = loop.made[s.counting] = round_source(loop, rules, s.counting)
    # The frames stay as they are at the choice, (STAGE, ...) and (SEQ, body, at + 1, env), and
    # are written as the machine would have them only when the loop stops or an error does.
    with rules.guarded:
        if rounds_of(s, st, env, index, rand, draw, stack[-2][3]):  # the stage is over: the machine goes on
            del stack[-2:]
            (st.pcycles if loop.player else st.tcycles).pop()
            st.steps += 1
            if st.steps > ex.max_steps:
                raise ex.too_long(loop.stage)
            rules.machine.advance(s)
    s._settle()
    return s.choices - first


def left_at(s, env: dict, i: int, rounds: int) -> None:
    """The frames as the machine leaves them when item `i` of the stage's body fails (-1: the
    stage itself, its end test)."""
    stack = s.stack
    stage = stack[-2][1]
    stack[-2] = (STAGE, stage, env, rounds)
    if i < 0:
        stack.pop()
    else:
        stack[-1] = (SEQ, stage.body, i, env)


def round_source(loop: RoundLoop, rules, counting: bool):
    """`rounds_of(s, st, env, index, rand, draw, rounds) -> over`: `play_rounds`' loop as one
    generated function, the stage's items, its end test, the next player's move and the
    counting of the choice's options written out in the order the machine does them (its
    `advance`, `stage_round`, `offer_by`, `CountingMixin.count`, `countable`, and the state's
    `_do`). Returns True when the stage is over (its frames still on the stack); else the
    choice limit stopped it, the frames written."""
    ex, machine = rules.ex, rules.machine
    stage, body, at = loop.stage, loop.body, loop.at
    choice = body[at]
    plan = ex.plan_of(choice) if counting else None
    src = Source({"_ex": ex, "_stage": stage, "_choice": choice, "_end": loop.end, "_too_long": ex.too_long,
                  "_Leaves": Leaves, "_apply_all": apply_all, "_left_at": left_at, "_explore": machine.explore,
                  "_GameError": GameError, "_STAGE": STAGE})
    cycles = "st.pcycles" if loop.player else "st.tcycles"
    max_steps = ex.max_steps
    src.emit(0, "def f(s, st, env, index, rand, draw, rounds):")
    src.emit(1, "while True:")
    # the drawn option (`RecycleState._do`; no warm-up left in a playout, see `random_playout`)
    src.emit(2, "_f = s.found")
    src.emit(2, "if type(_f) is _Leaves:")  # (`Leaves.play`)
    src.emit(3, "_l = _f[index]")
    src.emit(3, "_t = _f.plan.sites[_l[0]]")
    src.emit(3, "(_t.run or _f.ex.leaf_runner(_t))(_f.env, st, *_l[1:])")
    src.emit(3, "st.steps = 0")
    src.emit(2, "else:")
    src.emit(3, "_apply_all(st, _f[index])")
    src.emit(2, "s.choices += 1")
    src.emit(2, "s._options = s.found = ()")
    src.emit(2, "s.pending = None")
    src.emit(2, f"_i = {at + 1}")
    src.emit(2, "try:")
    # POST, the stage (end test, next player), PRE; `_i`: the frame an item failing leaves
    for i, item in [(at + k + 2, item) for k, item in enumerate(loop.post)] + [(-1, stage)] \
            + [(k + 1, item) for k, item in enumerate(loop.pre)]:
        src.emit(3, f"_i = {i}")
        if item is stage:
            src.emit(3, "_ex.at = _stage")
            src.emit(3, "if _end(env, st):")
            src.emit(4, "return True")
            src.emit(3, f"_ix, _qd = {cycles}[-1]")
            src.emit(3, f"{cycles}[-1] = (_qd if _qd >= 0 else (_ix + 1) % {loop.members}, -1)")
            src.emit(3, "rounds += 1")
            src.emit(3, "_i = 0")  # (the new round's frame)
            name = "_stage"
        else:
            name = src.const(item)
            src.emit(3, f"_ex.at = {name}")
            src.emit(3, f"{src.call(ex.quiet(item))}(env, st)")
        src.emit(3, "st.steps += 1")
        src.emit(3, f"if st.steps > {max_steps}:")
        src.emit(4, f"raise _too_long({name})")
    src.emit(3, f"_i = {at + 1}")
    src.emit(3, "_ex.at = _choice")
    src.emit(3, "s.pending = (_choice, env)")
    src.emit(3, "_p = st.pcycles[-1][0]")  # (the chooser: `offer_by`)
    if plan is None or (rules.cardstock and reference_walk(choice)):
        src.emit(3, "_explore(s, _choice, env, _p)")
    else:
        counted(src, 3, plan, ex.compiler, machine, rules.cardstock)
    src.emit(2, "except BaseException:")
    src.emit(3, "_left_at(s, env, _i, rounds)")
    src.emit(3, "raise")
    src.emit(2, f"if s.choices >= {rules.max_choices}:")
    src.emit(3, "s.stack[-2] = (_STAGE, _stage, env, rounds)")
    src.emit(3, "return False")
    src.emit(2, "_n = len(s.found)")
    src.emit(2, "if not _n:")
    src.emit(3, "raise _GameError('no legal action in a position that is not over')")
    src.emit(2, "index = int(rand() * _n) if draw is None else draw(_n)")
    return src.build(stage)


def counted(src: Source, indent: int, plan, compiler, machine, cardstock: bool) -> None:
    """Source offering the choice's options counted by `plan` (`CountingMixin.count`, then
    `Machine.countable`), else explored (`Machine.explore`): `_p` is the chooser."""
    ns = src.ns
    ns.update(_walk=plan.walk, _plan=plan, _cx=compiler, _attrs=compiler.attrs, _distinct=distinct_scores,
              _small=small_scores, _psmall=plan.small, _named=machine.named, _table=compiler.table,
              _clash=plan.clash)
    emit = src.emit
    emit(indent, "_o = _Leaves()")
    if plan.ranked:  # max and min by these maps draw for ties: there must be none
        emit(indent, f"for _k in {src.const(tuple(plan.ranked))}:")
        emit(indent + 1, "_pm = st.points.get(_k)")
        emit(indent + 1, "if _pm is None or not _distinct(_pm, _attrs):")
        emit(indent + 2, "_o = None")
        emit(indent + 2, "break")
        emit(indent, "if _o is not None:")
        indent += 1
    emit(indent, "try:")
    emit(indent + 1, "_walk(env, st, _o)")
    emit(indent, "except Exception:")  # exploring raises it, or first what trying an earlier option raises
    emit(indent + 1, "_o = None")
    if plan.ranked:
        indent -= 1
    emit(indent, "if _o is not None:")
    emit(indent + 1, "_n = len(_o)")
    a, b = plan.steps
    per = f"({a} + {b} * len(st.where))" if b else str(a)
    emit(indent + 1, f"if st.steps + _n * {per} > {compiler.max_steps}:")  # the error must come where it does
    emit(indent + 2, "_o = None")
    for key in plan.points:  # (point maps are immutable: each asked about once)
        name = src.const(key)
        emit(indent, f"if _o is not None and (_pm := st.points.get({name})) is not None "
                     f"and _psmall.get({name}) is not _pm:")
        emit(indent + 1, "if _small(_pm):")
        emit(indent + 2, f"_psmall[{name}] = _pm")
        emit(indent + 1, "else:")
        emit(indent + 2, "_o = None")
    cond = "True" if cardstock else " and ".join(
        ["_named(_table)"] + (["not _clash(_o)"] if plan.overlaps else [])) if plan.apart and machine.sized else "False"
    emit(indent, f"if _o is not None and (_n == 1 or 0 < _n <= {MAX_OPTIONS} and {cond}):")
    emit(indent + 1, "_o.plan, _o.env, _o.ex = _plan, env, _cx")
    emit(indent + 1, "s._options, s.found, s.chooser = None, _o, _p")
    emit(indent + 1, "st.steps = 0")
    emit(indent, "else:")
    emit(indent + 1, "_explore(s, _choice, env, _p)")
