"""A RECYCLE game file as a `Game` (`recycle.kernel.game`): the rules read once, the interpreter's
keywords as the game's parameters.

    game = recycle_game("Poker5", max_choices=300)
    game.capabilities.climbing_view        # False: Poker5 has no climbing metadata
    state = game.new_initial_state(7)      # new_game(rules, 7, max_choices=300)

The climbing view (rule personalities) is offered when the game's climbing metadata
reads (`recycle.climbing.metadata`: the header line, a `.climbing` file beside it, or
the text given with `meta`); the Tides bots when the game is `TidesOfTime2`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from recycle.interp import new_game
from recycle.interp.game import MAX_CHOICES, MAX_STEPS
from recycle.interp.setup import MAX_CARDS
from recycle.kernel.game import PLACES, Capabilities, Family
from recycle.kernel.protocol import GameState
from recycle.lang import tree as T

from recycle.climbing.metadata import ClimbingMeta, ClimbingMetaError, read_meta

#: The shipped file the Tides bots read (as the native round).
TIDES_FILE = "tidesoftime2"


@dataclass(frozen=True)
class RecycleGame:
    """One RECYCLE game with the interpreter's limits and engine (`new_game`'s keywords)."""

    rules: T.Game = field(repr=False)
    num_players: int
    capabilities: Capabilities
    max_choices: int = MAX_CHOICES
    max_steps: int = MAX_STEPS
    max_cards: int = MAX_CARDS
    strict: bool = False
    transcript: bool = False
    check: bool | None = None
    compat: str | None = None
    engine: str | None = None

    @property
    def name(self) -> str:
        return Path(self.rules.filename).stem

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"max_choices": self.max_choices, "max_steps": self.max_steps, "max_cards": self.max_cards,
                "strict": self.strict, "transcript": self.transcript, "check": self.check,
                "compat": self.compat, "engine": self.engine}

    @property
    def value_range(self) -> tuple[float, float]:
        return PLACES

    def new_initial_state(self, seed: int, deal=None, shuffler=None) -> GameState:
        """The game set up from `seed` and run to its first choice (`deal`, `shuffler`: see `new_game`)."""
        return new_game(self.rules, seed, deal=deal, shuffler=shuffler, **self.parameters)


_CLIMBING: dict[tuple, bool] = {}
_CACHED = 64


def recycle_game(rules: T.Game, *, meta: "ClimbingMeta | str | None" = None, players: int | None = None,
                 **parameters: Any) -> RecycleGame:
    """The `Game` of read rules; `players` when the caller knows it (else one set-up counts them),
    `meta` the climbing metadata given by the user (`--climbing`), `parameters` `new_game`'s keywords."""
    params = {k: v for k, v in parameters.items() if v is not None}
    if players is None:
        players = new_game(rules, 0, **params).num_players
    return RecycleGame(rules, players, capabilities_of_rules(rules, meta), **params)


def capabilities_of_rules(rules: T.Game, meta: "ClimbingMeta | str | None" = None) -> Capabilities:
    """What a RECYCLE game offers: worlds to sample and hidden cards (as every game of the interpreter),
    a climbing view where its metadata reads, the Tides bots at `TidesOfTime2`."""
    tides = Path(rules.filename).stem.lower() == TIDES_FILE
    climbing = isinstance(meta, ClimbingMeta) or _has_climbing_view(rules, meta)
    return Capabilities(climbing_view=climbing,
                        families=frozenset({Family.TIDES}) if tides else frozenset())


def _has_climbing_view(rules: T.Game, meta: str | None) -> bool:
    """Does the metadata read (once per rules and text: tournaments build bots every match)?"""
    key = (id(rules), rules.filename, meta)
    known = _CLIMBING.get(key)
    if known is None:
        if len(_CLIMBING) >= _CACHED:
            _CLIMBING.clear()
        try:
            read_meta(rules, meta)
            known = True
        except ClimbingMetaError:
            known = False
        _CLIMBING[key] = known
    return known
