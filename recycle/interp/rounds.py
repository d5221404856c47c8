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

from recycle.interp.flow import SEQ, STAGE


class RoundLoop:
    """What `play_rounds` needs of one stage (one per stage node, shared by all states)."""

    __slots__ = ("stage", "body", "at", "pre", "post", "end", "player", "members")

    def __init__(self, stage, at: int, end, members: int) -> None:
        self.stage, self.body, self.at, self.end = stage, stage.body, at, end
        self.pre, self.post = stage.body[:at], stage.body[at + 1:]
        self.player, self.members = stage.cycle == "player", members


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
    ex, st, stack, machine = rules.ex, s.st, s.stack, rules.machine
    max_steps, offer = ex.max_steps, machine.offer_by
    stage, body, at, end = loop.stage, loop.body, loop.at, loop.end
    # A round from the drawn option to the next choice: (the index of the next item of the body,
    # the item, its quiet runner), for POST, then the stage's end test and next player (-1: the
    # body left), then PRE. The index is the frame an item failing leaves.
    steps = [(at + k + 2, item, ex.quiet(item)) for k, item in enumerate(loop.post)] + [(-1, stage, None)] \
        + [(k + 1, item, ex.quiet(item)) for k, item in enumerate(loop.pre)]
    choice, members, limit = body[at], loop.members, rules.max_choices
    plan = ex.plan_of(choice) if s.counting else None  # (a playout's choices are only counted)
    cycles = st.pcycles if loop.player else st.tcycles
    rounds = stack[-2][3]
    first = s.choices
    # The frames stay as they are at the choice, (STAGE, ...) and (SEQ, body, at + 1, env), and
    # are written as the machine would have them only when the loop stops or an error does.
    with rules.guarded:
        while True:
            s._do(index)
            i = at + 1
            try:
                for i, item, run in steps:
                    if run is not None:
                        ex.at = item
                        run(env, st)
                    else:  # the stage: its end test, then the next player's round
                        ex.at = stage
                        if end(env, st):
                            break
                        idx, queued = cycles[-1]
                        cycles[-1] = (queued if queued >= 0 else (idx + 1) % members, -1)
                        rounds += 1
                        i = 0
                    st.steps += 1
                    if st.steps > max_steps:
                        raise ex.too_long(item)
                else:
                    i = at + 1
                    ex.at = choice
                    s.pending = (choice, env)
                    offer(s, choice, env, plan)
            except BaseException:
                stack[-2] = (STAGE, stage, env, rounds)
                if i < 0:
                    stack.pop()
                else:
                    stack[-1] = (SEQ, body, i, env)
                raise
            if i < 0:  # the stage is over
                break
            if s.choices >= limit:
                stack[-2] = (STAGE, stage, env, rounds)
                break
            n = len(s.found)
            if not n:
                raise GameError("no legal action in a position that is not over")
            index = int(rand() * n) if draw is None else draw(n)
        if i < 0:  # the stage is over: the machine goes on from here
            del stack[-2:]
            cycles.pop()
            st.steps += 1
            if st.steps > max_steps:
                raise ex.too_long(stage)
            machine.advance(s)
    s._settle()
    return s.choices - first
