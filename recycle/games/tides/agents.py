"""The Tides of Time bots: `tides-solver` (exact equilibrium play) and `tides-seed` (the seed's bot).

    recycle run TidesOfTime2 --native --players tides-solver,tides-seed --games 20

Both read either version's observations (`view`). `explain` returns a
`TidesTrace`: every candidate pick with its value and the share of the mix
it is played with.

tides-solver
    From the first swap on: the current turn's matrix game over the exact
    values of the positions after it (`solver.Values`, cached in the agent),
    solved for its equilibrium; it plays its equilibrium mix (drawn with the
    game's rng). A candidate's value is its margin against the opponent's
    equilibrium mix. First pick: the round's equilibrium, both hands private
    (`round_equilibrium`: a mix per hand, shipped as a table, looked up and
    drawn with the game's rng); `explain` values each card exactly, its mean
    margin against the mixes of the 1,287 hands the opponent may hold.
    `tides-solver:first=one-sided` keeps the previous first pick: the
    equilibrium of the one-sided game where the opponent's hand is unknown to
    me but mine is not to it (`equilibrium`); `first=mean` the one before:
    each card's mean, over the 1,287 opponent hands, of its value as if both
    hands were known (`first_pick`); the best card is played.
tides-seed
    The seed's method with defects 2 and 3 (docs/recycle-games.md, Tides of Time) fixed: from the first
    swap on, max-min on its own score with the opponent answering its pick
    (defects 1 and 4 are its method); first pick: a vote over the 1,287 hands.
"""
from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from recycle.kernel.protocol import Decision
from recycle.kernel.specs import AgentSpecError
from recycle.search.matrix_game import solve

from recycle.games.tides.cards import BY_NUMBER, cards_of
from recycle.games.tides.solver import SeedValues, Values, bits
from recycle.games.tides.view import action_for, tides_observation


def first_pick_positions() -> int:
    """Positions the first-pick batch values per opponent hand: the position tree below the root."""
    from recycle.games.tides.first_pick import tree  # numpy: imported when a first pick is made, not with the agent table

    return sum(len(level) for level in tree()[0][1:])


@dataclass(frozen=True)
class Candidate:
    card: str
    value: float
    share: float  # the probability it is played


@dataclass(frozen=True)
class TidesTrace:
    """One decision of a Tides bot: the method, each candidate's value, what was played."""

    agent: str
    player: int
    turn: int
    method: str
    value_name: str
    candidates: tuple[Candidate, ...]
    played: str
    positions: int
    seconds: float = 0.0
    game_value: float | None = None

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict:
        return {"agent": self.agent, "player": self.player, "turn": self.turn + 1, "method": self.method,
                "value": self.value_name, "played": self.played, "positions": self.positions,
                "seconds": round(self.seconds, 4), "positions_per_second": round(self.positions_per_second),
                "game_value": None if self.game_value is None else round(self.game_value, 9),
                "candidates": [{"card": c.card, "value": round(c.value, 9), "share": round(c.share, 9)}
                               for c in self.candidates]}

    def __rich__(self) -> Tree:
        tree = Tree(Text.assemble((self.agent, "bold"), f" (p{self.player}, turn {self.turn + 1}) → ",
                                  (self.played, "bold green")))
        facts = [self.method, f"{self.positions:,} positions", f"{self.seconds:.3f} s",
                 f"{self.positions_per_second:,.0f} positions/s"]
        if self.game_value is not None:
            facts.append(f"game value {self.game_value:+.4f}")
        tree.add(Text(" · ".join(facts), style="dim"))
        table = Table(box=box.SIMPLE_HEAD)
        for name, justify in (("pick", "left"), (self.value_name, "right"), ("played with", "right")):
            table.add_column(name, justify=justify)
        for c in self.candidates:
            table.add_row(c.card, f"{c.value:+.4f}" if self.value_name != "votes" else f"{c.value:.0f}",
                          f"{c.share:.3f}", style="bold green" if c.card == self.played else "")
        tree.add(table)
        return tree


class _TidesAgent:
    name = "tides"

    def choose(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        return self.explain(observation, legal_actions, rng).action

    def explain(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Decision:
        obs = tides_observation(observation)
        started = time.perf_counter()
        if obs.turn == 0:
            card, trace = self.first(obs, rng)
        else:
            card, trace = self.later(obs, rng)
        trace = replace(trace, seconds=time.perf_counter() - started)
        return Decision(action_for(card, legal_actions), trace)

    def _first_pick(self, obs, values, hands: int, method: str, value_name: str, mix=None, rng=None,
                    game_value: float | None = None):
        """The first pick and its trace: drawn from `mix` when given, else the card of the best value
        (ties: the first card by number)."""
        mine = cards_of(obs.hand)
        if mix is None:
            best = values.index(max(values))
            mix = tuple(1.0 if i == best else 0.0 for i in range(len(mine)))
        else:
            best = _draw(mix, rng)
        candidates = tuple(Candidate(str(c), float(v), float(p)) for c, v, p in zip(mine, values, mix))
        return mine[best], TidesTrace(agent=self.name, player=obs.player, turn=0, candidates=candidates,
                                      method=method, value_name=value_name, played=str(mine[best]),
                                      positions=hands * first_pick_positions(), game_value=game_value)

    def _position(self, obs):
        """(my kingdom, opponent's kingdom, my hand, opponent's cards) at the start of the turn."""
        me = obs.player
        return obs.kingdoms[me], obs.kingdoms[1 - me], obs.hand, obs.opponent_cards

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class FirstPick(str, Enum):
    """How `tides-solver` makes its first pick (the spec's `first=`)."""

    EQUILIBRIUM = "equilibrium"  # the round's equilibrium, both hands private: the shipped table (default)
    ONE_SIDED = "one-sided"      # the equilibrium of the one-sided game: my hand known to the opponent
    MEAN = "mean"                # the best mean as if both hands were known


class TidesSolverAgent(_TidesAgent):
    """Exact equilibrium play of the round (see the module docstring)."""

    name = "tides-solver"

    def __init__(self, first: FirstPick | str = "equilibrium") -> None:
        self.values = Values()
        self.first_method = FirstPick(first)
        if self.first_method is not FirstPick.EQUILIBRIUM:
            self.name = f"tides-solver:first={self.first_method.value}"

    def choose(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        obs = tides_observation(observation)
        if obs.turn == 0 and self.first_method is FirstPick.EQUILIBRIUM:  # a look-up: explain values the cards
            from recycle.games.tides.round_equilibrium import first_pick_mix

            return action_for(cards_of(obs.hand)[_draw(first_pick_mix(obs.hand), rng)], legal_actions)
        return super().choose(observation, legal_actions, rng)

    def first(self, obs, rng: random.Random):
        if self.first_method is FirstPick.EQUILIBRIUM:
            from recycle.games.tides.round_equilibrium import hand_report

            r = hand_report(obs.hand)
            return self._first_pick(obs, r.values, r.opponents,
                                    f"the round's equilibrium (both hands private; table) against {r.opponents:,} "
                                    f"opponent hands (best-response gain here {r.gain:.1e})",
                                    "margin vs their mixes", mix=r.mix, rng=rng, game_value=r.value)
        if self.first_method is FirstPick.ONE_SIDED:
            from recycle.games.tides.equilibrium import first_pick_report

            o = first_pick_report(obs.hand)
            return self._first_pick(obs, o.values, o.opponents,
                                    f"equilibrium of the one-sided first pick against {o.opponents:,} unknown "
                                    f"opponent hands (exploitability {o.exploitability:.1e})", "margin vs their mixes",
                                    mix=o.mix, rng=rng, game_value=o.value)
        from recycle.games.tides.first_pick import solver_first_pick

        values, hands = solver_first_pick(obs.hand)
        return self._first_pick(obs, values, hands, f"mean equilibrium margin over {hands:,} opponent hands",
                                "mean margin")

    def later(self, obs, rng: random.Random):
        mk, ok, mh, oh = self._position(obs)
        before = self.values.positions
        matrix = self.values.matrix(mk, ok, mh, oh)
        value, rows, cols = solve(matrix)
        worth = [sum(x * y for x, y in zip(row, cols)) for row in matrix]
        mine = [BY_NUMBER[b.bit_length() - 1] for b in bits(mh)]
        pick = _draw(rows, rng)
        candidates = tuple(Candidate(str(c), float(w), float(p)) for c, w, p in zip(mine, worth, rows))
        return mine[pick], TidesTrace(agent=self.name, player=obs.player, turn=obs.turn, candidates=candidates,
                                method="equilibrium of the turn's matrix game (exact backward induction)",
                                value_name="margin vs their mix", played=str(mine[pick]),
                                positions=self.values.positions - before,
                                game_value=float(value))


class TidesSeedAgent(_TidesAgent):
    """The seed's bot, defects 2 and 3 fixed (see the module docstring)."""

    name = "tides-seed"

    def __init__(self) -> None:
        self.values = SeedValues()

    def first(self, obs, rng: random.Random):
        from recycle.games.tides.first_pick import seed_first_pick

        votes, hands = seed_first_pick(obs.hand)
        return self._first_pick(obs, votes, hands, f"vote over {hands:,} opponent hands (max-min on own score)",
                                "votes")

    def later(self, obs, rng: random.Random):
        mk, ok, mh, oh = self._position(obs)
        before = self.values.positions
        worst = [min(row) for row in self.values.matrix(mk, ok, mh, oh)]
        best = worst.index(max(worst))  # the first card reaching the best, as the seed's strict '>'
        mine = [BY_NUMBER[b.bit_length() - 1] for b in bits(mh)]
        candidates = tuple(Candidate(str(c), float(w), 1.0 if i == best else 0.0)
                           for i, (c, w) in enumerate(zip(mine, worst)))
        return mine[best], TidesTrace(agent=self.name, player=obs.player, turn=obs.turn, candidates=candidates,
                                method="max-min on own score, opponent answering (the seed's minimax)",
                                value_name="own score (worst case)", played=str(mine[best]),
                                positions=self.values.positions - before,
                                game_value=float(worst[best]))


def _draw(mix: Sequence[float], rng: random.Random) -> int:
    """An index drawn from `mix` (a pure mix draws nothing, so pure play uses no randomness)."""
    support = [i for i, p in enumerate(mix) if p > 1e-12]
    if len(support) == 1:
        return support[0]
    r, total = rng.random() * sum(mix[i] for i in support), 0.0
    for i in support:
        total += mix[i]
        if r < total:
            return i
    return support[-1]


def solver_from_spec(params: dict[str, str], resolve) -> TidesSolverAgent:
    first = params.pop("first", FirstPick.EQUILIBRIUM.value)
    if params:
        raise AgentSpecError(f"tides-solver takes only first=equilibrium|one-sided|mean, got {', '.join(params)}")
    if first not in {f.value for f in FirstPick}:
        raise AgentSpecError(f"tides-solver: first={first!r}; choose first=equilibrium (the round's equilibrium), "
                             "first=one-sided (the one-sided game's) or first=mean (best mean as if both hands "
                             "were known)")
    return TidesSolverAgent(FirstPick(first))


def seed_from_spec(params: dict[str, str], resolve) -> TidesSeedAgent:
    if params:
        raise AgentSpecError(f"tides-seed takes no parameters, got {', '.join(params)}")
    return TidesSeedAgent()
