"""Who sits where in which game: duplicate deals and seat rotations.

A tournament is a sequence of *deals* (one match seed each). Every deal is
played once per seat rotation, so with `seats` seats each bot at the table
plays the very same cards from every seat: card luck cancels out. Game `i` is
rotation `i % seats` of deal `i // seats`.

Which bots sit at a deal's table:
- fewer bots than seats: the seats are filled in rotation, and the rotation
  continues from deal to deal (A B C A B, then C A B C A, ...) so nobody gets
  the extra seats every time;
- more bots than seats: a balanced draw; each deal seats the least-played
  bots first, preferring those who have met the chosen ones least often.

Everything derives from the tournament seed, sequentially from deal 0, so the
same seed gives the same schedule in any process, and restarting from any
game replays it exactly.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterator


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed for one purpose of one tournament, identical in every process."""
    return random.Random("/".join(map(str, ("tournament", seed, *parts)))).getrandbits(63)


@dataclass(frozen=True)
class ScheduledGame:
    """One match to play: which bot sits in each seat, and its seeds."""

    index: int
    deal: int
    rotation: int
    seats: tuple[int, ...]  # seats[s] = index of the bot in seat s
    deal_seed: int  # the cards: the same for every rotation of a deal
    game_seed: int  # the agents' random choices


class Schedule:
    """The deterministic list of games of a tournament of `bots` bots at `seats` seats."""

    def __init__(self, bots: int, seats: int, deals: int, seed: int,
                 deal_seed: Callable[[int], int] | None = None) -> None:
        if bots < 1 or seats < 2 or deals < 1:
            raise ValueError("a tournament needs bots, at least 2 seats and at least 1 deal")
        self.bots, self.seats, self.deals, self.seed = bots, seats, deals, seed
        # A game may bring its own deal seeds (President reuses `simulate`'s, so
        # deal m of a tournament is match m of `president simulate --seed S`).
        self._deal_seed = deal_seed or (lambda d: derive_seed(seed, "deal", d))

    @property
    def total_games(self) -> int:
        return self.deals * self.seats

    def tables(self) -> Iterator[tuple[int, ...]]:
        """The seating of rotation 0 of every deal, in order."""
        rng = random.Random(derive_seed(self.seed, "draw"))
        plays = [0] * self.bots
        meets = [[0] * self.bots for _ in range(self.bots)]
        for deal in range(self.deals):
            if self.bots <= self.seats:
                chosen = [(deal * self.seats + i) % self.bots for i in range(self.seats)]
            else:
                chosen = self._draw(rng, plays, meets)
            # Seat order matters (who plays after whom), and rotations keep it, so
            # shuffle it per deal to spread neighbours evenly over the tournament.
            rng.shuffle(chosen)
            yield tuple(chosen)

    def _draw(self, rng: random.Random, plays: list[int], meets: list[list[int]]) -> list[int]:
        order = list(range(self.bots))
        rng.shuffle(order)  # ties broken at random, reproducibly
        chosen: list[int] = []
        for _ in range(self.seats):
            best = min((b for b in order if b not in chosen),
                       key=lambda b: (plays[b], sum(meets[b][c] for c in chosen)))
            chosen.append(best)
        for a in chosen:
            plays[a] += 1
            for b in chosen:
                if a != b:
                    meets[a][b] += 1
        return chosen

    def games(self) -> Iterator[ScheduledGame]:
        """Every game in index order: each deal's seat rotations one after another."""
        n = self.seats
        for deal, table in enumerate(self.tables()):
            dseed = self._deal_seed(deal)
            for rot in range(n):
                # Bot in table slot j sits in seat (j - rot) mod n: over the n
                # rotations every slot plays every seat's cards.
                seats = tuple(table[(s + rot) % n] for s in range(n))
                yield ScheduledGame(deal * n + rot, deal, rot, seats, dseed, derive_seed(self.seed, "game", deal, rot))
