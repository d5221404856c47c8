"""A stage's rounds played straight through in a random playout (a speed layer of `flow`).

Most games are a stage whose body is a few actions, one choice and a few more actions:

    (stage player (end COND) PRE... (choice ...) POST...)

Driven by `flow.Machine.advance`, every choice of a playout passes through the whole
machine: the game's `_play` and `_run`, the frame stack's dispatch, `stage_round` and
`offer`. `play_rounds` does the very same steps in one loop for such a stage: the drawn
option, POST, the end test, the next player, PRE and the next choice's options, drawing
each choice as the playout would, until the stage ends or the choice limit comes near.
Then the general machine takes over from exactly where it would be.

The loop is one generated function per stage (`round_source`): the drawn option's action
(each site's, as `counting` writes its leaf runner), POST and PRE (as `quiet` writes their
functions), the end test, the cycle's move, the walk counting the next options and the
checks `offer_by` makes are written out in a row, so no call, dispatch or env is made between
two choices but the expressions' own; a location with a constant key is looked up once a call
(`Source.places`). Where writing an item in passes Python's limits, the items are called. The
draw too is written in where it is the generator's own `_randbelow` (all seats random,
`play_game`): its `getrandbits` loop, the same numbers without a call.

Everything observable is the same, step for step: the frames on the stack (also when an
error stops the game), `st.steps` and the step bound, `executor.at` for what a call raises
(a game error carries its own place), the cycle's moves, and the draws. (`executor.at` is set
only before items that call something: an item written in whole cannot raise but a game error,
which carries its place, so only a failure of Python itself there, out of memory, would be
placed at the item before.) What the machine
keeps in the state (the step and choice counts, the options, the pending choice) is kept in
locals between two choices and written where it is seen: an end, an error, a call. The loop runs only where nothing is recorded (no
transcript, no journal) and no check runs after each choice (`Rules.check`).
"""
from __future__ import annotations

from recycle.lang import tree as T

from recycle.interp.between import between, between_bound, synced
from recycle.interp.compat import reference_walk
from recycle.interp.counting import Leaves, count_source, site_source
from recycle.interp.flow import MAX_OPTIONS, SEQ, STAGE
from recycle.interp.knowledge import RANDBELOW
from recycle.interp.source import Source, shifted
from recycle.interp.undo import apply_all


class RoundLoop:
    """What `play_rounds` needs of one stage (one per stage node, shared by all states)."""

    __slots__ = ("stage", "body", "at", "pre", "post", "end", "player", "members", "made")

    def __init__(self, stage, at: int, end, members: int) -> None:
        self.stage, self.body, self.at, self.end = stage, stage.body, at, end
        self.pre, self.post = stage.body[:at], stage.body[at + 1:]
        self.player, self.members = stage.cycle == "player", members
        self.made: dict = {}  # (counting?, how it draws) -> the rounds as one function (`round_source`)


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
    # `draw` is the generator's own `_randbelow` (`play_game`'s random seats): its loop is written in
    bits = draw.__self__.getrandbits if getattr(draw, "__func__", None) is RANDBELOW else None
    drawing = "bits" if bits is not None else "rand" if draw is None else "draw"  # (one way a function)
    rounds_of = loop.made.get((s.counting, drawing))
    if rounds_of is None:
        rounds_of = loop.made[s.counting, drawing] = round_source(loop, rules, s.counting, drawing=drawing)
    # The frames stay as they are at the choice, (STAGE, ...) and (SEQ, body, at + 1, env), and
    # are written as the machine would have them only when the loop stops or an error does.
    with rules.guarded:
        if rounds_of(s, st, env, index, rand, draw, bits, stack[-2][3]):  # the stage is over: the machine goes on
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


def round_source(loop: RoundLoop, rules, counting: bool, inline: bool = True, *, drawing: str):
    """`rounds_of`, see `_round_source`."""
    return _round_source(loop, rules, counting, inline, drawing=drawing)


def _round_source(loop: RoundLoop, rules, counting: bool, inline: bool = True, *, drawing: str, general=None):
    """`rounds_of(s, st, env, index, rand, draw, bits, rounds) -> over`: `play_rounds`' loop as one
    generated function, the stage's items, its end test, the next player's move and the
    counting of the choice's options written out in the order the machine does them (its
    `advance`, `stage_round`, `offer_by`, `CountingMixin.count`, `countable`, and the state's
    `_do`). Returns True when the stage is over (its frames still on the stack); else the
    choice limit stopped it, the frames written. `inline`: the items and the end test written
    in (as their quiet functions and closures are), else called. `drawing`: how the choices are
    drawn, "bits" (`bits(k)`, as `_randbelow`), "draw" (`draw(n)`) or "rand" (`int(rand() * n)`),
    the one way written (`play_rounds` finds which). Where locations of constant keys are
    kept, a second function (`general`: the first) finds them all at its start and reads them
    as they are; it calls the first where one is missing. (The loop's own locals start with
    `_r`: statements written in use short names of their own.)"""
    ex, machine = rules.ex, rules.machine
    compiler = ex.compiler.shortcuts  # the playout shortcuts' part: it also holds what it needs of the statements'
    stage, body, at = loop.stage, loop.body, loop.at
    choice = body[at]
    plan = ex.plan_of(choice) if counting else None
    src = Source({**compiler._statement_base(), "_stage": stage, "_choice": choice, "_end": loop.end,
                  "_Leaves": Leaves, "_apply_all": apply_all, "_left_at": left_at, "_explore": machine.explore,
                  "_STAGE": STAGE, "_BaseException": BaseException})
    cycles = "st.pcycles" if loop.player else "st.tcycles"
    # the player the stage moves to stays current through PRE (no cycle moved, no stage in it):
    # kept in `_rw`, the chooser, from the move on
    steady = loop.player and not any(type(x) in (T.Cycle, T.Stage) for item in loop.pre for x in T.walk(item))
    # nothing the rounds run moves the cycle (only the loop does): "turning", `_rw` its current
    # player from the start of the call (see `between`)
    if steady and not any(type(x) in (T.Cycle, T.Stage) for x in T.walk(body)):
        steady = "turning"
    emit = src.emit
    emit(0, "def f(s, st, env, index, rand, draw, bits, rounds):")
    src.places = {} if inline else None  # (one store for the whole call: `Source.place`)
    src.placed = general is not None
    # no point map stored by anything the rounds run (their items, the options tried, the end
    # test): each map the loop reads is read once, at the start of the call
    src.steady = not any(type(x) in (T.SetPoints, T.UpdatePoints) for x in T.walk(stage))
    head = len(src.lines)
    # the state's choice count in a local, written back when the loop stops or an error does
    # (the whole loop in a `try`, added below); its options and pending choice are reset where
    # they are seen before they are set again: an end, an error, `_explore`
    emit(1, "_rc = s.choices")
    # (the pending choice, the loop's throughout: set once, reset only where the loop stops)
    emit(1, "s.pending = (_choice, env)")
    if steady == "turning":  # (so that the next player is `_rw`'s next, as the machine finds it)
        emit(1, "_ix, _qd = st.pcycles[-1]")
        emit(1, f"_rw = (_qd - 1) % {loop.members} if _qd >= 0 else _ix % {loop.members}")
    if plan is not None and inline:
        emit(1, "_ro = None")  # (the options last counted here: `leaves_played`)
    top = len(src.lines)
    emit(1, "while True:")
    # the drawn option (`RecycleState._do`; no warm-up left in a playout, see `random_playout`)
    emit(2, "_rf = s.found")
    if plan is not None and inline:
        leaves_played(src, 2, plan, compiler)
    emit(2, f"{'elif' if plan is not None and inline else 'if'} type(_rf) is _Leaves:")  # (`Leaves.play`)
    emit(3, "_rl = _rf[index]")
    emit(3, "_rs = _rf.plan.sites[_rl[0]]")
    emit(3, "(_rs.run or _rf.ex.leaf_runner(_rs))(_rf.env, st, *_rl[1:])")
    # the steps counted in a local until the next choice (`Step.counter`), from 0 after a leaf
    # (`Leaves.play`), written back before anything that reads or counts them (`synced`) and
    # when the loop stops or an error does; None while `st.steps` holds the count
    emit(3, "_sp = 0")
    emit(2, "else:")
    emit(3, "_apply_all(st, _rf[index])")
    emit(3, "_sp = st.steps")
    emit(2, "_rc += 1")
    emit(2, "try:")
    # POST, the stage (end test, next player), PRE, the step bound checked after each item; where
    # the count leaves room for the steps all of them can take, none checked (it cannot fire)
    seat, total = src.seat, between_bound(loop, compiler, inline)
    if total is not None:
        emit(3, f"if {compiler.past_room(total, src, '_sp')}:")
    between(src, loop, compiler, inline, cycles, steady, 3 + (total is not None), True)
    if total is not None:
        emit(3, "else:")
        src.seat = seat
        between(src, loop, compiler, inline, cycles, steady, 4, False)
    emit(3, f"_ri = {at + 1}")
    emit(3, "_ex.at = _choice")
    if not steady:
        emit(3, "_rw = st.pcycles[-1][0]")  # (the chooser: `offer_by`)
    if plan is None or (rules.cardstock and reference_walk(choice)):
        explored(src, 3)
    else:
        src.seat = "_rw"  # (the chooser's number while the options are counted: nothing moves the turn)
        counted(src, 3, choice, plan, compiler, machine, rules.cardstock, inline)
        src.seat = "st.pcycles[-1][0]"
    emit(2, "except _BaseException:")  # (an interruption too leaves the machine's frames)
    emit(3, "if _sp is not None:")
    emit(4, "st.steps = _sp")
    emit(3, "if s.found is _rf:")  # (not explored yet: the drawn option's options are behind)
    emit(4, "s._options = s.found = ()")
    emit(3, f"if _ri != {at + 1}:")
    emit(4, "s.pending = None")
    emit(3, "_left_at(s, env, _ri, rounds)")
    emit(3, "raise")
    emit(2, f"if _rc >= {rules.max_choices}:")
    emit(3, "s.choices = _rc")
    emit(3, "s.stack[-2] = (_STAGE, _stage, env, rounds)")
    emit(3, "return False")
    emit(2, "if not _rn:")  # (`_rn`: how many options `s.found` holds, `explored` or counted)
    emit(3, "raise _GameError('no legal action in a position that is not over')")
    drawn(src, drawing)
    src.lines[top:] = ["    try:"] + [shifted(e, 1) for e in src.lines[top:]] \
        + ["    except _BaseException:", "        s.choices = _rc", "        raise"]
    # (in the order they were asked for: one may read another, `counting.count_source`)
    src.lines[head:head] = [f"    {local} = {first}" for local, first in (src.places or {}).values()]
    if general is not None:  # (a location not made yet: the first function, which waits for it)
        src.ns["_general"] = general
        src.lines[head + len(src.places):head + len(src.places)] = [
            f"    if {' or '.join(src.fixed)}:",
            "        return _general(s, st, env, index, rand, draw, bits, rounds)"]
    try:
        made = src.build(stage)
    except (SyntaxError, RecursionError, MemoryError):  # beyond Python's limits: the items called
        if general is not None:
            return general
        if not inline:
            raise
        return _round_source(loop, rules, counting, False, drawing=drawing)
    return _round_source(loop, rules, counting, inline, drawing=drawing, general=made) if general is None and src.fixed else made


def drawn(src: Source, drawing: str) -> None:
    """Source drawing the next choice's option (`_rn` of them) into `index`, the one way `play_rounds`
    found: `bits` (the generator's own `Random._randbelow_with_getrandbits`, written out), `draw`, `rand`."""
    bits = ["_rb = _rn.bit_length()", "index = bits(_rb)", "while index >= _rn:", "    index = bits(_rb)"]
    src.lines += ["    " * 2 + line for line in {"bits": bits, "draw": ["index = draw(_rn)"],
                                                  "rand": ["index = int(rand() * _rn)"]}[drawing]]


def leaves_played(src: Source, indent: int, plan, compiler) -> None:
    """Source doing the drawn leaf of options counted by `plan` (`Leaves.play`), each site's
    action written in as its leaf runner writes it (`counting.site_source`): an `if` the caller
    goes on with `elif` (options counted by another plan) and `else` (explored options)."""
    src.ns["_plan"] = plan
    # (the options the loop counted last, `_ro`, are `plan`'s: asked first)
    src.emit(indent, "if _rf is _ro or type(_rf) is _Leaves and _rf.plan is _plan:")
    src.emit(indent + 1, "_rl = _rf[index]")
    src.emit(indent + 1, "_rk = _rl[0]")
    for k, site in enumerate(plan.sites):
        src.emit(indent + 1, f"{'if' if k == 0 else 'elif'} _rk == {k}:")
        values = [f"_rv{i}" for i in range(len(site.names))]
        if values:  # (a leaf is its site and a value per variable)
            src.emit(indent + 2, f"_rk, {', '.join(values)} = _rl")
        site_source(src, indent + 2, site, "_rf.env", values, compiler.stmt)  # (its env: for what is called)
    src.emit(indent + 1, "_sp = 0")  # (`st.steps` written where it is read: `round_source`)


def explored(src: Source, indent: int) -> None:
    """Source exploring the choice's options (`Machine.explore`), `_rw` the chooser: the state's
    options reset first (an error leaves them so), the step count in `st.steps`."""
    src.emit(indent, "s._options = s.found = ()")
    synced(src, indent, "_explore(s, _choice, env, _rw)", False)
    src.emit(indent, "_rn = len(s.found)")


def counted(src: Source, indent: int, choice, plan, compiler, machine, cardstock: bool, inline: bool) -> None:
    """Source offering the choice's options counted by `plan` (`counting.count_source`, then
    `Machine.countable`), else explored (`Machine.explore`): `_rw` is the chooser."""
    src.ns.update(_plan=plan, _cx=compiler, _named=machine.named, _clash=plan.clash, _machine=machine)
    emit = src.emit

    def walk(at: int) -> bool:  # the walk written in where it can be (the same leaves)
        walked = compiler.walk_into(src, choice, at)
        return walked is not None and len(walked[0]) == len(plan.sites)
    if inline:  # one list of options for the call, emptied at each choice (the option played is
        # read before, nothing else holds it), its plan, env and compiler set once
        kept = src.places.setdefault(("leaves",), (f"_L{len(src.places)}", "None"))[0]
        emit(indent, f"if {kept} is None:")
        emit(indent + 1, f"{kept} = _Leaves()")
        emit(indent + 1, f"{kept}.plan, {kept}.env, {kept}.ex = _plan, env, _cx")
        emit(indent, f"_ro = {kept}")
        emit(indent, "_ro.clear()")
    count_source(src, indent, plan, walk if inline else None, compiler.max_steps, "_sp")
    # (`Machine.named`; cards, and their names, are made in the setup only: asked once a call)
    named = src.once("(_rm[1] if (_rm := _machine._named)[0] == len(_table.text) else _named(_table))")
    # (leaves come in the order of their sites: `Plan.clash` asks about a pair (i, j) only when the
    # leaves' first site is at most j and their last at least i, checked here first)
    pairs = plan.overlaps
    first_last = " and ".join(f"({j} < _ro[0][0] or {i} > _ro[-1][0])" for i, j in pairs) if len(pairs) <= 4 \
        else "_ro[0][0] == _ro[-1][0]"
    apart = [named] + ([f"({first_last} or not _clash(_ro))"] if pairs else [])
    cond = "True" if cardstock else " and ".join(apart) if plan.apart and machine.sized else "False"
    emit(indent, f"if _ro is not None and (_rn == 1 or 0 < _rn <= {MAX_OPTIONS} and {cond}):")
    if not inline:  # (else the loop's one list, its plan, env and compiler set: `count_source`)
        emit(indent + 1, "_ro.plan, _ro.env, _ro.ex = _plan, env, _cx")
    emit(indent + 1, "s._options, s.found, s.chooser = None, _ro, _rw")
    emit(indent + 1, "st.steps = _sp = 0")
    emit(indent, "else:")
    explored(src, indent + 1)
