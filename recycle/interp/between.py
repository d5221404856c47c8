"""The items of a stage's rounds between two choices, as `rounds.round_source` writes them:
POST, the stage itself (its end test, the next player) and PRE, each a quiet block written in
(`quiet_block`) with its steps counted in the loop's local `_sp`.

After each item the step bound is checked, as the machine does. Where the count leaves room
for all the steps the items can take (`between_bound`: every block's bound is known, a + b *
cards), none of those checks can fire: the items are written a second time without them
(`between`, `checked` False), and the loop picks that copy with one test of the count, so a
choice costs one test instead of one per item and per block. The count itself stays exact
(an error, an end or a call reads it), only the additions with nothing between are made at once.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial

from recycle.interp.quiet import HOLDERS
from recycle.interp.source import Source, Step, later, shifted, stepped


def between_bound(loop, compiler, inline: bool) -> tuple[int, int] | None:
    """(a, b): the steps from a choice's option to the next choice (POST, the stage, PRE: each
    item's own step and its block's, `steps_bound`) are at most a + b * (the number of cards);
    None where an item is called (not written in as a block of known bound, see `quiet_block`)."""
    if not inline:
        return None
    parts = [compiler.steps_bound(item) if type(item) in HOLDERS else None for item in loop.pre + loop.post]
    if None in parts:
        return None
    return 1 + sum(1 + a for a, _ in parts), sum(b for _, b in parts)


def between(src: Source, loop, compiler, inline: bool, cycles: str, steady: bool | str, indent: int,
            checked: bool) -> None:
    """Source running POST, the stage (its end test, the next player) and PRE (`round_source`);
    `_ri`: the frame an item failing leaves. `steady`: the next player kept in `_rw` (the
    chooser) through PRE; "turning": nothing the rounds run moves the cycle, so it is where the
    loop last left it, `_rw` (set before the loop) its current player. `checked`: the step bound checked after each item
    (else the caller made room for all their steps, `between_bound`: each item's step is counted
    with the next, `_ri` set first, as nothing between can fail)."""
    stage, emit, last = loop.stage, src.emit, None
    for i, item in [(loop.at + k + 2, item) for k, item in enumerate(loop.post)] + [(-1, stage)] \
            + [(k + 1, item) for k, item in enumerate(loop.pre)]:
        emit(indent, f"_ri = {i}")
        if last is not None:
            src.lines.append(last)
        if item is stage:
            mark, calls = len(src.lines), src.calls
            end = compiler.value(src, stage.end, "env", {}, indent)[0] if inline else "_end(env, st)"
            if src.calls != calls or not inline:  # (`Executor.at`: where what a call raises is placed)
                src.lines.insert(mark, "    " * indent + "_ex.at = _stage")
            emit(indent, f"if {end}:")
            for line in ("_ex.at = _stage", "st.steps = _sp", "s._options = s.found = ()", "s.pending = None",
                         "s.choices = _rc", "return True"):  # (`_ex.at` as the machine leaves it)
                emit(indent + 1, line)
            if steady == "turning":  # (the cycle as the loop last left it: `_rw` its current player)
                emit(indent, f"_rw = {src.const(tuple((k + 1) % loop.members for k in range(loop.members)))}[_rw]")
            else:
                emit(indent, f"_ix, _qd = {cycles}[-1]")
            if steady:
                if steady != "turning":
                    emit(indent, f"_rw = _qd if _qd >= 0 else (_ix + 1) % {loop.members}")
                emit(indent, f"{cycles}[-1] = (_rw, -1)")
                src.seat = "_rw"
            else:
                emit(indent, f"{cycles}[-1] = (_qd if _qd >= 0 else (_ix + 1) % {loop.members}, -1)")
            emit(indent, "rounds += 1")
            if checked or not loop.pre:  # (else `_ri` is set again before anything can fail)
                emit(indent, "_ri = 0")  # (the new round's frame)
            name = "_stage"
        else:
            name = src.const(item)
            quiet_block(src, indent, item, name, compiler, inline, checked)
        # (`at` was set before the item)
        step = Step(indent, 1, (name,), None, compiler.max_steps if checked else None, counter="_sp")
        if checked:
            src.lines.append(step)
        else:
            last = replace(step, local=True)
    if last is not None:
        src.lines.append(last)


def handed_over(indent: int) -> list[str]:
    """Lines giving the step count back to `st.steps` (`_sp` None: an error raised meanwhile
    leaves the count there as it is)."""
    pad = "    " * indent
    return [f"{pad}st.steps = _sp", f"{pad}_sp = None"]


def synced(src: Source, indent: int, line: str, back: bool = True) -> None:
    """`line`, which reads or counts steps, with the count in `st.steps` while it runs, and back
    in `_sp` after (`back`)."""
    src.lines += handed_over(indent)
    src.emit(indent, line)
    if back:
        src.emit(indent, "_sp = st.steps")


def quiet_block(src: Source, indent: int, item, name: str, compiler, inline: bool, checked: bool = True) -> None:
    """Source running `item` (the constant `name`) as its quiet function does (`QuietMixin.quiet`):
    written in where that function is written as source, its steps counted in `_sp` (in
    `_stepped` where it calls a function, which may count some); else a call of it. `Executor.at`
    is set to it where a call is made (a game error carries its own place; see `runners.stmt`)."""
    bound = compiler.steps_bound(item) if inline and type(item) in HOLDERS else None
    at = f"_ex.at = {name}"
    if not bound:
        src.emit(indent, at)
        synced(src, indent, f"{src.call(compiler.quiet(item))}(env, st)")
        return
    inner = indent
    if checked:  # (else the room is made for it: `between`)
        src.emit(indent, f"if {compiler.past_room(bound, src, '_sp')}:")  # (`quiet_start`: the runner then)
        src.emit(indent + 1, at)
        synced(src, indent + 1, f"{src.call(later(partial(compiler.runner, item)))}(env, st)")  # (made if it runs)
        src.emit(indent, "else:")
        inner += 1
    mark, calls, src.quiet = len(src.lines), src.calls, True
    compiler.stmt(src, item, "env", {}, inner, True, 0)
    src.quiet = False
    body = src.lines[mark:]
    if src.calls == calls:  # nothing called to count steps behind `_sp`, nor to place an error
        src.lines[mark:] = [replace(e, local=True, counter="_sp") if type(e) is Step else e for e in body]
        return
    # (as `source.local_steps`, the count in `st.steps` meanwhile)
    src.lines[mark:] = ["    " * inner + at] + handed_over(inner) + stepped([shifted(e, 1) for e in body], inner)
    src.emit(inner, "_sp = st.steps")
