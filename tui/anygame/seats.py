"""Who sits where: `--players you,ismcts:time=1,Classic --seat N` read into one spec per seat.

    seats = read_seats("you,ismcts:time=0.5,random", None, players=4)
    seats.human == 0; seats.specs == ("you", "ismcts:time=0.5", "random", "ismcts:time=0.5")

The seat named `you` is the person: `--seat N` if given, else where the list
names `you`, else seat 0 (a list naming every seat must agree with `--seat`); the bots fill the other seats in order, repeated in rotation
when fewer are named. The list is read as every `--players` is
(`recycle.kernel.specs.split_specs`: `ismcts:time=1,c=0.5` stays one spec).
"""
from __future__ import annotations

from dataclasses import dataclass

from recycle.kernel.specs import AgentSpecError, split_specs

HUMAN = "you"
DEFAULT_BOT = "random"


@dataclass(frozen=True)
class Seats:
    """One spec per seat; `specs[human]` is `you`."""

    human: int
    specs: tuple[str, ...]

    def bots(self) -> list[tuple[int, str]]:
        return [(p, s) for p, s in enumerate(self.specs) if p != self.human]

    def text(self) -> str:
        return ",".join(self.specs)


def read_seats(players: str | None, seat: int | None, count: int) -> Seats:
    """The seats of a `count`-player game; raises `AgentSpecError` with a one-line reason."""
    items = split_specs(players) if players else []
    mine = [i for i, s in enumerate(items) if s.lower() == HUMAN]
    if len(mine) > 1:
        raise AgentSpecError(f"--players names '{HUMAN}' {len(mine)} times: one person plays")
    if len(items) > count:
        raise AgentSpecError(f"--players names {len(items)} seats for a game of {count} players")
    if mine and seat is not None and seat != mine[0] and len(items) == count:
        raise AgentSpecError(f"--seat {seat} but --players puts '{HUMAN}' at seat {mine[0]}")
    human = seat if seat is not None else (mine[0] if mine else 0)
    if not 0 <= human < count:
        raise AgentSpecError(f"--seat must be 0 to {count - 1}: the game has {count} players")
    bots = [s for s in items if s.lower() != HUMAN] or [DEFAULT_BOT]
    specs, k = [], 0
    for p in range(count):
        if p == human:
            specs.append(HUMAN)
        else:
            specs.append(bots[k % len(bots)])
            k += 1
    return Seats(human, tuple(specs))
