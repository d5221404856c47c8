"""`RecycleObservation`: what one player of a RECYCLE game may know (see `game`)."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from recycle.kernel.protocol import GameError, Observation

from recycle.interp.store import owner_text

if TYPE_CHECKING:
    from recycle.interp.game import RecycleState


class RecycleObservation(Observation):
    """What one player may know: every location's cards it can see (others: their size),
    all storage (public in RECYCLE), whose turn it is and how many choices were made.

    Built for every decision of fast random play, so it is lazy: the snapshot is
    taken from the live state on first use (valid until the state moves on).
    Search players get states through `sample_state(rng)` (a determinization:
    it depends only on what this player sees and `rng`) and, for labelled
    cheating baselines only, `true_state()`.
    """

    __slots__ = ("player", "current_player", "choices", "_source", "_snap", "_told", "_draw")

    def __init__(self, state: "RecycleState", player: int) -> None:
        self.player, self.current_player, self.choices = player, state.current_player(), state.choices
        self._source, self._snap, self._told, self._draw = state, None, None, None

    def live_state(self) -> "RecycleState":
        """The state this observation was taken from, while it has not moved on (adapters read its options)."""
        state = self._source
        if state.choices != self.choices or state.current_player() != self.current_player:
            raise GameError("this observation is stale: the state it was taken from has moved on")
        return state

    def _snapshot(self) -> tuple:
        if self._snap is None:
            state, p = self.live_state(), self.player
            table = state.table
            # Empty locations left out and the rest sorted: trying options creates empty ones.
            sees = self._sees
            locs = tuple((location_name(key), tuple(table.text[c] for c in cards) if sees(table, key, p)
                          else len(cards)) for key, cards in sorted(state.st.locs.items()) if cards)
            storage = tuple((f"{owner_text(k)} {k[2]}", v) for d in (state.st.ints, state.st.strs)
                            for k, v in d.items())
            known = tuple(sorted((table.text[c], location_name(key)) for (q, c), key in state.st.known.items()
                                 if q == p)) if sees is RecycleObservation._sees else ()
            self._snap = (locs, storage, known)
        return self._snap

    @staticmethod
    def _sees(table, key: tuple, player: int) -> bool:
        return table.visible(key, player)

    @property
    def locations(self) -> tuple:
        """(location name, tuple of card texts if visible, else the number of cards)."""
        return self._snapshot()[0]

    @property
    def storage(self) -> tuple:
        """(`owner NAME`, value) of every integer and string store."""
        return self._snapshot()[1]

    @property
    def known(self) -> tuple:
        """(card, location) of the hidden cards this player saw go where they are."""
        return self._snapshot()[2]

    # ---- the public setup, for a seat's board (`tui/anygame/board.py`) ----
    @property
    def num_players(self) -> int:
        return self._source.num_players

    @property
    def team_members(self) -> tuple[tuple[int, ...], ...]:
        """The players of each team (the setup makes them public)."""
        return self._source.table.team_members

    @property
    def team_of(self) -> tuple[int, ...]:
        """Each player's team."""
        return self._source.table.team_of

    def cards(self, location: str):
        return dict(self.locations).get(location, ())

    def sample_state(self, rng: random.Random) -> "RecycleState":
        """A determinization (`RecycleState.determinize`, draw for draw); what it proves of the position
        (which cards are hidden, whether a re-deal keeps the options: `sight`) is worked out once for all
        the samples of this observation, which live only as long as the position does."""
        state = self.live_state()
        if self._draw is None:
            self._draw = state.determinizer(self.player)
        return self._draw(rng)

    def true_state(self) -> "RecycleState":
        """CHEATING: the real state, hidden cards included (for labelled baselines only)."""
        return self.live_state().clone()

    def _key(self) -> tuple:
        """Everything this player knows; the chooser is also told its options (their texts)."""
        if self._told is None:  # read at first use, as the snapshot
            self._told = self.live_state().option_texts() if self.player == self.current_player else ()
        return (self.player, self.current_player, self.choices) + self._snapshot() + (self._told,)

    def __eq__(self, other) -> bool:
        return isinstance(other, RecycleObservation) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        locs, storage, known = self._snapshot()
        return (f"RecycleObservation(player={self.player}, current={self.current_player}, "
                f"choices={self.choices}, locations={locs!r}, storage={storage!r}, known={known!r})")


class OpenObservation(RecycleObservation):
    """Every card face up, as the table looks once the game is over or with open hands (marked on the
    table): the same observation, its every location seen. Never given to an agent."""

    __slots__ = ()

    @staticmethod
    def _sees(table, key: tuple, player: int) -> bool:
        return True


def location_name(key: tuple) -> str:
    """`p0 iloc HAND`, `game vloc DISCARD`: a location with its visibility."""
    return f"{owner_text(key)} {key[2]} {key[3]}"
