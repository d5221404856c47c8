"""Where the players sit: the turn order of a table whose seats change (the UECda server's rule).

At most tables the players sit in the order of their numbers for the whole
match. With `Settings.seat_change` the seats are drawn anew every few rounds,
and the turn goes round in the drawn order; a player's number (its agent, its
score, its rank) stays its own.
"""
from __future__ import annotations

import functools
import random


def drawn_seating(seed: int, round_no: int, players: int) -> tuple[int, ...]:
    """The seats drawn before round `round_no` of the match dealt from `seed` (players in seat order)."""
    order = list(range(players))
    random.Random(f"{seed}/seats/{round_no}").shuffle(order)
    return tuple(order)


@functools.lru_cache(maxsize=256)
def turn_table(seating: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """[p][players]: the first of `players` (a bitmask) after p in the order of `seating` (p itself
    last), or -1 if none: the turn order of every move, looked up rather than searched."""
    n = len(seating)
    at = {player: s for s, player in enumerate(seating)}
    return tuple(tuple(next((q for q in (seating[(at[p] + k) % n] for k in range(1, n + 1)) if m >> q & 1), -1)
                       for m in range(1 << n)) for p in range(n))
