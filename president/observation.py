"""What one player may know: its observation of a President state.

Built for every decision, so it copies only small immutable things from the
state; card lists are derived on demand from bitmasks.
"""
from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from recycle.kernel.protocol import GameError, Observation

from president.game.cards import Card, Play
from president.game.exchange import history_as_seen
from president.game.knowledge import known_holdings, value_bounds

if TYPE_CHECKING:
    from president.game.settings import Settings
    from president.game.state import PresidentState

#: Rank numbers as the .rul language counts them.
PRESIDENT, VICE_PRESIDENT, NEUTRAL, VICE_LOSER, LOSER, NO_RANK = 1, 2, 3, 4, 5, 6
RANK_TITLES = {PRESIDENT: "President", VICE_PRESIDENT: "Vice-President", NEUTRAL: "Neutral",
               VICE_LOSER: "Vice-Loser", LOSER: "Loser", NO_RANK: "-"}
RANK_SHORT = {PRESIDENT: "P", VICE_PRESIDENT: "VP", NEUTRAL: "N", VICE_LOSER: "VL", LOSER: "L", NO_RANK: "-"}


def rank_of_place(place: int, players: int) -> int:
    """The rank (1 President .. 5 Loser) of a finishing place at a table of `players`."""
    if place == 1:
        return PRESIDENT
    if place == players:
        return LOSER
    if players >= 4 and place == 2:
        return VICE_PRESIDENT
    if players >= 4 and place == players - 1:
        return VICE_LOSER
    return NEUTRAL


def place_title(place: int, players: int) -> str:
    """A finishing place's title in words: `President`, `Vice-Loser`."""
    return RANK_TITLES[rank_of_place(place, players)]


def ordinal(place: int) -> str:
    """`1st`, `2nd`, `3rd`, `11th`: a place as a column header."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def round_points(places: tuple[int, ...], last: int = 0) -> tuple[int, ...]:
    """The points of one round per seat: players minus place, plus what the last place scores (`last`)."""
    n = len(places)
    return tuple(n - place + last for place in places)


class PresidentObservation(Observation):
    """One player's view. Public: every count, every played card, the history (another pair's
    exchange gift as its count only: `UnseenGive`)."""

    __slots__ = ("player", "settings", "phase", "round_no", "current_player", "hand_mask",
                 "counts", "upcards", "last_player", "sizes", "played_mask", "played_counts", "places",
                 "prev_places", "scores", "reversed", "lock", "_history", "pending", "_lay", "_facts", "_source", "__dict__")

    def __init__(self, state: "PresidentState", player: int) -> None:
        self.player = player
        self.settings: Settings = state.settings
        self.phase = state.phase
        self.round_no = state.round_no
        self.current_player = state.current
        self.hand_mask = state.masks[player]
        self.counts = tuple(state.counts[player])
        self.upcards: Play | None = state.upcards
        self.last_player = state.last_player
        self.sizes = tuple(state.sizes)
        self.played_mask = state.played
        self.played_counts = tuple(state.played_counts)  # per value, as in `counts`
        self.places = tuple(state.places)
        self.prev_places = state.prev_places
        self.scores = tuple(state.scores)
        self.reversed = state.reversed
        self.lock = state.lock  # the suits the trick is locked to (0: none), public
        # The round's history list only grows (a new round gets a new list), so a
        # reference and a length are an immutable snapshot, copied only if read.
        self._history = (state.history, len(state.history))
        self.pending = state.pending[0] if state.pending else None
        self._lay = state.lay
        # This round's public facts and my own gifts, for knowledge derived on demand: another
        # pair's gift without its cards, another player's value bound not at all.
        self._facts = (tuple((g, r, m if player in (g, r) else 0) for g, r, m in state.gifts),
                       tuple(fact for fact in state.bounds if fact[0] == player), tuple(state.known_public))
        # For search players: the live state itself, never exposed. No copy is made
        # (observations are built for every decision of fast random play); the
        # history fingerprint above tells `sample_state` whether it has moved on.
        self._source = state

    # ---- my hand ------------------------------------------------------
    @cached_property
    def hand(self) -> list[Card]:
        return self._lay.card_list(self.hand_mask)

    @property
    def lead(self) -> bool:
        return self.upcards is None

    @property
    def num_players(self) -> int:
        return self.settings.players

    @property
    def history(self) -> tuple:
        """This round's actions in order: (player, action); action None marks a skipped turn, and
        another pair's gift is an `UnseenGive` (how many cards, not which)."""
        items, length = self._history
        return history_as_seen(items[:length], self._facts[0], self.player)

    # ---- the table ----------------------------------------------------
    @cached_property
    def played_cards(self) -> list[Card]:
        return self._lay.card_list(self.played_mask)

    def still_in(self) -> list[int]:
        return [p for p in range(self.num_players) if self.places[p] == 0]

    def opponents_in(self) -> list[int]:
        return [p for p in self.still_in() if p != self.player]

    def rank(self, player: int | None = None) -> int:
        """Rank from the previous round (1 President .. 5 Loser; 6 none yet)."""
        p = self.player if player is None else player
        if self.prev_places is None:
            return NO_RANK
        return rank_of_place(self.prev_places[p], self.num_players)

    def title(self, player: int | None = None) -> str:
        return RANK_TITLES[self.rank(player)]

    # ---- knowledge ----------------------------------------------------
    @cached_property
    def known(self) -> dict[int, list[Card]]:
        """Cards I know another player holds (gifts I made, the 3 of clubs' holder)."""
        gifts, _, public = self._facts
        masks = known_holdings(gifts, public, self.played_mask, self.hand_mask, self.player)
        return {p: self._lay.card_list(m) for p, m in masks.items()}

    @cached_property
    def bounds(self) -> dict[int, int]:
        """player -> highest value that player can hold beyond the cards I know of."""
        return value_bounds(self._facts[1], self.player)

    @cached_property
    def exchanged(self) -> list[tuple[int, int, list[Card]]]:
        """This round's gifts I took part in: (giver, receiver, cards)."""
        return [(g, r, self._lay.card_list(m)) for g, r, m in self._facts[0] if self.player in (g, r)]

    # ---- for search players -------------------------------------------
    def sample_state(self, rng) -> "PresidentState":
        """A full state consistent with everything this player knows, hidden cards re-dealt with `rng`.

        This is how search players get a state to search from without seeing
        hidden cards: the result depends only on this observation and `rng`
        (two true states that this player cannot tell apart give the same
        sample for the same `rng`). Valid only while the state the observation
        was taken from has not moved on (true throughout an agent's `choose`).
        """
        return self._live().determinize(self.player, rng)

    def true_state(self) -> "PresidentState":
        """CHEATING: a copy of the real state, hidden cards included.

        Only for baselines that are labelled as cheating (`mcts`); an honest
        agent must use `sample_state`.
        """
        return self._live().clone()

    def _live(self) -> "PresidentState":
        state = self._source
        items, length = self._history
        if state.history is not items or len(items) != length:
            raise GameError("this observation is stale: the state it was taken from has moved on")
        return state

    def _key(self) -> tuple:
        """Everything this player knows: two observations are equal when the player cannot tell
        their states apart (the leak audit, `recycle.audit`, pairs states so)."""
        return (self.player, self.settings, self.phase, self.round_no, self.current_player, self.hand_mask,
                self.upcards, self.last_player, self.sizes, self.played_mask, self.places, self.prev_places,
                self.scores, self.reversed, self.history, self.pending, self._facts)

    def __eq__(self, other) -> bool:
        return isinstance(other, PresidentObservation) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        hand = " ".join(map(str, self.hand))
        return (f"<PresidentObservation p{self.player} round={self.round_no + 1} phase={self.phase.value}"
                f" hand=[{hand}] upcards={self.upcards} sizes={self.sizes} history={self._history[1]}>")
