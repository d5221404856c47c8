"""A round's start and end: the deal, the seats, the exchange begun, the leader, the scores.

`RoundCycle` is a part of `PresidentState` (`president.game.state`): the life of a
round around its tricks, which are `president.game.trick`.
"""
from __future__ import annotations

import random

from recycle.kernel.protocol import GameError

from president.game import fastplay
from president.game.cards import Card
from president.game.exchange import start_exchange
from president.game.observation import round_points
from president.game.phase import Phase
from president.game.seating import drawn_seating, turn_table
from president.game.settings import FirstLeader, LaterLeader

#: The card whose holder leads the first round, by `Settings.first_leader`.
_OPENING_CARD = {FirstLeader.THREE_OF_CLUBS: Card(3, "c"), FirstLeader.THREE_OF_DIAMONDS: Card(3, "d")}
#: The card whose holder leads the later rounds once the exchange is done, by `Settings.later_leader`.
_LATER_CARD = {LaterLeader.THREE_OF_DIAMONDS: Card(3, "d")}


class RoundCycle:
    """How a `PresidentState` deals a round, finds its leader, and scores it at its end."""

    __slots__ = ()

    def _deal(self) -> list[int]:
        """Deal the whole pack one card at a time, from the dealer's left."""
        n, lay = self.num_players, self.lay
        bits = [b for b, c in enumerate(lay.cards) if c is not None]
        fastplay.shuffle(random.Random(f"{self.deal_seed}/{self.round_no}"), bits)
        masks = [0] * n
        first = (self.dealer() + 1) % n
        for i, b in enumerate(bits):
            masks[(first + i) % n] |= 1 << b
        return masks

    def dealer(self) -> int:
        """The dealer of this round: seat n-1 first, then clockwise."""
        return (self.num_players - 1 + self.round_no) % self.num_players

    def seat(self, seating: tuple[int, ...]) -> None:
        """Sit the players in the order `seating` (the turn goes from each to the next in it)."""
        self.seating, self.turns = seating, turn_table(seating)

    def _start_round(self, deal: list[list[Card]] | None = None) -> None:
        n, lay = self.num_players, self.lay
        change = self.settings.seat_change
        if change and self.round_no % change == 0:  # as the UECda server: seats drawn at random
            self.seat(drawn_seating(self.deal_seed, self.round_no, n))
        if deal is not None:
            if len(deal) != n:
                raise GameError(f"the deal has {len(deal)} hands for {n} players")
            self.masks, union = [], 0
            for hand in deal:
                try:
                    mask = lay.bits_of(hand, used=union)  # identical copies go to distinct bits
                except ValueError as exc:
                    raise GameError(f"bad deal: {exc}") from None
                self.masks.append(mask)
                union |= mask
            if union != lay.full:
                raise GameError(f"the deal must use the whole pack ({lay.full.bit_count()} cards)")
        else:
            self.masks = self._deal()
        self.counts = [lay.counts(m) for m in self.masks]
        self.sizes = [m.bit_count() for m in self.masks]
        self.played = 0
        self.played_counts = [0] * 17
        self.upcards = None
        self.last_player = -1
        self.declined = 0
        self.out = 0
        self.places = [0] * n
        self.best_free, self.worst_free = 1, n
        self.reversed = False
        self.lock = 0  # the suits the trick is locked to (a mask, president/game/suited.py); 0: none
        self.history = []
        self.gifts = []  # (giver, receiver, mask) of this round's exchange
        self.bounds = []  # (knower, target, highest value target may hold)
        self.known_public = []  # (holder, mask): cards everyone knows a player holds
        self.pending = start_exchange(self)
        # a leader named by a card is found once the exchange has moved the cards
        later_card = self.prev_places is not None and self.settings.later_leader in _LATER_CARD
        self.first_leader = -1 if self.pending and later_card else self._round_leader()
        if self.pending:
            self.phase = Phase.EXCHANGE
            self.current = self.pending[0][0]
        else:
            self.phase = Phase.PLAY
            self.current = self.first_leader

    def _round_leader(self) -> int:
        s, n = self.settings, self.num_players
        if self.prev_places is None:
            card = _OPENING_CARD.get(s.first_leader)
        elif s.later_leader in _LATER_CARD:
            card = _LATER_CARD[s.later_leader]
        else:
            return self.prev_places.index(n if s.later_leader is LaterLeader.LOSER else 1)
        if card is not None:
            opening = self.lay.bit(card)
            for p in range(n):
                if self.masks[p] & opening:
                    self.known_public.append((p, opening))  # everyone sees who leads, so who held it
                    return p
        return (self.dealer() + 1) % n

    def lead_after_exchange(self) -> None:
        """The exchange is done: the round's leader (found now, if a card names it) plays first."""
        self.phase = Phase.PLAY
        if self.first_leader < 0:
            self.first_leader = self._round_leader()
        self.current = self.first_leader

    def _end_round(self) -> None:
        s = self.settings
        for p, points in enumerate(round_points(self.places, s.last_place_points)):
            self.scores[p] += points
        self.round_log.append(tuple(self.places))
        self.prev_places = tuple(self.places)
        self.round_no += 1
        if (s.target_score and max(self.scores) >= s.target_score) or (s.rounds and self.round_no >= s.rounds):
            self.phase = Phase.OVER
            return
        if s.class_reset and self.round_no % s.class_reset == 0:  # a new period: no ranks, no exchange
            self.prev_places = None
        self._start_round()
