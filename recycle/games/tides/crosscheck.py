"""Native Tides of Time against the RECYCLE `TidesOfTime2`: the same deals, the same agents, the same plays?

For each deal (drawn from the seed), both versions are dealt the same two
hands (the RECYCLE game through `recycle.interp`'s fixed deals), and fresh
agents of the same specs play each, drawing from generators seeded alike.
Both versions offer the picks in card-number order, so an agent that draws
(random, the solver's mixes) draws the same numbers for the same decisions.
Every pick (player, card) and both final scores must agree.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from recycle.kernel.protocol import Agent, GameError, play_game

from recycle.games.tides.cards import Card
from recycle.games.tides.state import TidesState, random_hands
from recycle.games.tides.view import card_of

GAME = "TidesOfTime2"


@dataclass
class Played:
    """One version's game of a deal: every pick as `p0 most-palace`, and the scores."""

    picks: list[str] = field(default_factory=list)
    scores: tuple[float, ...] = ()


@dataclass(frozen=True)
class Divergence:
    index: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    native: Played
    recycle: Played

    @property
    def turn(self) -> int:
        """The first differing pick (0-based), or the number of picks when only the scores differ."""
        pairs = list(zip(self.native.picks, self.recycle.picks))
        return next((k for k, (a, b) in enumerate(pairs) if a != b), len(pairs))

    def describe(self) -> str:
        k = self.turn
        deal = "; ".join(f"p{p}: {' '.join(map(str, h))}" for p, h in enumerate(self.hands))
        at = lambda game: game.picks[k] if k < len(game.picks) else "(no pick)"
        return (f"deal {self.index} ({deal}): pick {k + 1} native {at(self.native)}, RECYCLE {at(self.recycle)}; "
                f"scores native {self.native.scores}, RECYCLE {self.recycle.scores}")

    def to_json(self) -> dict:
        return {"deal_index": self.index, "hands": [[str(c) for c in h] for h in self.hands],
                "first_differing_pick": self.turn + 1, "native": vars(self.native), "recycle": vars(self.recycle)}


class TidesCrosscheck:
    """The RECYCLE game, the agent specs, the seed: what every deal's comparison uses."""

    def __init__(self, make_agents: Callable[[], Sequence[Agent]], seed: int, game_file: str | None = None) -> None:
        from recycle.games import game_path
        from recycle.lang import load_game

        self.game = load_game(game_file or game_path(GAME))
        self.make_agents, self.seed = make_agents, seed

    def hands(self, index: int):
        return random_hands(random.Random(f"tides-crosscheck/{self.seed}/{index}/deal"))

    def _rng(self, index: int) -> random.Random:
        return random.Random(f"tides-crosscheck/{self.seed}/{index}/players")

    def native(self, index: int) -> Played:
        out = Played()
        state = TidesState.new(hands=self.hands(index))
        result = play_game(state, list(self.make_agents()), self._rng(index),
                           on_decision=lambda before, p, d: out.picks.append(f"p{p} {card_of(d.action)}"))
        out.scores = result.scores
        return out

    def recycle(self, index: int) -> Played:
        from recycle.interp import new_game

        out = Played()
        deal = {f"p{p}": [_recycle_text(c) for c in hand] for p, hand in enumerate(self.hands(index))}
        state = new_game(self.game, index, deal=deal)
        result = play_game(state, list(self.make_agents()), self._rng(index),
                           on_decision=lambda before, p, d: out.picks.append(f"p{p} {card_of(d.action)}"))
        out.scores = result.scores
        return out

    def check(self, index: int) -> Divergence | None:
        native, recycle = self.native(index), self.recycle(index)
        if native.picks == recycle.picks and native.scores == recycle.scores:
            return None
        return Divergence(index, self.hands(index), native, recycle)


def _recycle_text(card: Card) -> str:
    """The RECYCLE version's text of a card: its SUIT (NONE for none) and NAME."""
    return f"{(card.suit or 'none').upper()} {card.token}"


def crosscheck(check: TidesCrosscheck, deals: int, progress=lambda done: None) -> list[Divergence]:
    """Every divergence over deals 0..deals-1."""
    found = []
    for i in range(deals):
        try:
            divergence = check.check(i)
        except GameError as exc:
            raise GameError(f"deal {i}: {exc}") from exc
        if divergence is not None:
            found.append(divergence)
        progress(i + 1)
    return found
