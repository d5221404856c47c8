"""A game as a value, OpenSpiel's `Game` beside its states: what a table is played with, declared.

    game = PresidentGame(preset("classic"))       # or recycle_game("Poker5"), TidesGame()
    game.num_players, game.value_range            # 5, (0.0, 1.0)
    game.capabilities.climbing_view               # rule personalities can sit at it
    state = game.new_initial_state(seed=7)        # a `GameState` (recycle.kernel.protocol)

A `Game` is small and immutable: its parameters, its players, the range of a player's
utility, a `Capabilities` record and `new_initial_state(seed)`. Nothing that decides
who may sit at a table or what search may use probes a state any more (optional methods
returning None, `hasattr`): it reads the record. A state carries the part search reads
(`GameState.capabilities`); the game adds what agents need of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Mapping, Protocol, runtime_checkable

if TYPE_CHECKING:  # the protocol's states carry a `Capabilities` (protocol.py imports this module)
    from recycle.kernel.protocol import GameState


class Family(Enum):
    """A family of agents written for one game's state and observations only (no protocol agent)."""

    TIDES = "tides"
    """The Tides of Time bots (`tides-seed`, `tides-solver`): they read a Tides observation (native or the
    RECYCLE file `TidesOfTime2`)."""


@dataclass(frozen=True)
class Capabilities:
    """What a game offers search and agents; each field is a promise its states keep.

    The first group is what search may use beyond the plain protocol; a field that is false means the
    state's method is the plain default (None or nothing), so search does not call it. The second is
    which kinds of agent can play the game.
    """

    hidden_information: bool = True
    """Some cards are hidden from some seats (an observation is not the whole state)."""
    determinize: bool = True
    """`determinize` / `Observation.sample_state` deal worlds a seat cannot tell apart: what the search
    players sample (pimc, ismcts, vote, osla, rhea, rmhc, alphabeta)."""
    neighbours: bool = False
    """`neighbours(player)`: small symmetric changes of a world, for inference by a chain."""
    evidence: bool = False
    """`evidence(player, q, model)`: the likelihood of a world given what the others did (inference)."""
    still_in: bool = False
    """`still_in()`: who is still taking part in the episode (eliminated players drop out)."""
    holdings: bool = False
    """`holdings()`: what each player holds by kind of card, for beliefs (`recycle.kernel.beliefs`)."""
    transposition_keys: bool = False
    """`transposition_key()`: a key equal for states that play on identically (alphabeta's table)."""
    policy_playout: bool = False
    """`policy_playout(rng)`: a hand-tuned policy played to the end (search's `rollout=greedy`)."""
    agents_playout: bool = False
    """`agents_playout(agents, rng)`: a compiled loop playing to the end as `play_out` does for these
    agents, returning the moves made (None, nothing done, where it does not apply to them)."""
    true_state: bool = True
    """`Observation.true_state()` is offered to labelled cheating baselines (`mcts`)."""
    climbing_view: bool = False
    """Rule personalities can play it: a climbing view of a seat is built (`personalities/view.py`)."""
    families: frozenset[Family] = frozenset()
    """Agents written for this game only that it hosts (`Family`)."""

    def missing(self, needs: frozenset[str]) -> tuple[str, ...]:
        """The names of `needs` (fields of this record, or a `Family` value) this game does not offer, sorted."""
        offered = {f.value for f in self.families}
        return tuple(sorted(n for n in needs if not (getattr(self, n, False) is True or n in offered)))


@runtime_checkable
class Game(Protocol):
    """One game with its parameters (a `pyspiel.Game`): small, immutable, picklable."""

    @property
    def name(self) -> str:
        """The game as commands and agents name it (`President`, `Poker5`, `TidesOfTime2`)."""

    @property
    def num_players(self) -> int:
        """Seats at the table."""

    @property
    def parameters(self) -> Mapping[str, Any]:
        """The game's parameters by name (President's settings; a RECYCLE game's limits and engine)."""

    @property
    def value_range(self) -> tuple[float, float]:
        """(min, max) of a player's utility at the end (`Results.utilities()`)."""

    @property
    def capabilities(self) -> Capabilities:
        """What search and agents may use (`Capabilities`)."""

    def new_initial_state(self, seed: int) -> "GameState":
        """The game's start (after its set-up), dealt from `seed`: the same seed, the same state."""


#: The utility range of every game whose results are finishing places (`Results.utilities`).
PLACES = (0.0, 1.0)
