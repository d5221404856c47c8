"""The first pick as a one-sided game: simultaneous, the opponent's hand unknown (`first=one-sided`).

(The round's own equilibrium, where neither hand is known to the other player,
is `round_equilibrium`; this module is the previous first pick, kept for
comparison.)

At the first pick a player knows its own five cards; the opponent holds one of
the 1,287 hands of five among the 13 cards it has not seen (all equally
likely), knows it, and picks at the same time. Once both picks are revealed
the hands are swapped, and from then on every card in play is known to both:
each pair of first picks leads to a perfect-information subgame (with
simultaneous picks) whose exact value `first_pick.root_matrices` computes, for
all 1,287 hands in one batch. Replacing each subgame by its value keeps the
equilibria (the subgame is common knowledge and zero-sum), which leaves a
one-sided Bayesian game (`bayesian`): my mix over my five cards against a mix
per opponent hand.

Solving that game gives my pick the guarantee of an equilibrium: its mix earns
at least the game's value (within the exploitability, measured exactly)
against *any* opponent, even one that knew my hand; no opponent strategy is
assumed. The previous first pick (`first_pick.mean_margins`) let each possible
opponent hand play its equilibrium of the game where both hands are known, and
so could be exploited; `FirstPickReport` measures by how much.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from recycle.games.tides.bayesian import guarantee, reply_values, solve
from recycle.games.tides.cards import cards_of
from recycle.games.tides.first_pick import hand_games, mean_margins

TOLERANCE = 1e-5  # points a game: the solve stops when both best responses together gain less


@dataclass(frozen=True)
class FirstPickReport:
    """One hand's first pick: the equilibrium mix, each card's value, and the exact exploitability."""

    hand: int
    mix: tuple[float, ...]      # per card of the hand, by number
    values: tuple[float, ...]   # each card's mean margin against the opponent hands' equilibrium mixes
    guaranteed: float           # what the mix earns against the best reply of every opponent hand
    best_reply: float           # the best card's value against the opponent hands' equilibrium mixes
    opponents: int
    iterations: int
    previous: int               # the card the previous first pick (`mean_margins`) plays
    previous_guaranteed: float  # what that card earns against the best reply of every opponent hand

    @property
    def value(self) -> float:
        """The first pick's game value (margin points), within `exploitability / 2`."""
        return (self.guaranteed + self.best_reply) / 2

    @property
    def exploitability(self) -> float:
        """What the two best responses gain over the value together (exact; each gains at most this)."""
        return self.best_reply - self.guaranteed

    @property
    def previous_loss(self) -> float:
        """How much less the previous pick guarantees: what an opponent knowing it may win from it."""
        return self.guaranteed - self.previous_guaranteed

    def to_json(self) -> dict:
        cards = cards_of(self.hand)
        return {"hand": [str(c) for c in cards], "value": round(self.value, 9),
                "exploitability": self.exploitability, "guaranteed": round(self.guaranteed, 9),
                "best_reply": round(self.best_reply, 9), "opponent_hands": self.opponents,
                "iterations": self.iterations, "previous_pick": str(cards[self.previous]),
                "previous_guaranteed": round(self.previous_guaranteed, 9),
                "previous_loss": round(self.previous_loss, 9),
                "cards": [{"card": str(c), "share": round(p, 9), "value": round(v, 9)}
                          for c, p, v in zip(cards, self.mix, self.values)]}


# A first pick depends on the hand alone: the last few hands' reports are kept (8,568 hands exist).
@lru_cache(maxsize=256)
def first_pick_report(hand: int) -> FirstPickReport:
    """`hand`'s first pick solved: one batch of 1,287 subgame trees, then the Bayesian game."""
    games = hand_games(hand)  # (1287, 5, 5): my margin after each pair of first picks
    s = solve(games, tolerance=TOLERANCE)
    previous = int(np.argmax(mean_margins(games)))
    return FirstPickReport(hand, tuple(float(p) for p in s.mix),
                           tuple(float(v) for v in reply_values(games, s.responses)), s.lower, s.upper,
                           len(games), s.iterations, previous, guarantee(games, np.eye(5)[previous]))
