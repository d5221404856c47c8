"""The rules of a trick: a play taken from the hand, who answers next, who goes out.

`TrickRules` is a part of `PresidentState` (`president.game.state`); the compiled
engine plays the same rules move for move (`president/game/_fastplay_rules.c`).
"""
from __future__ import annotations

from president.game.cards import JOKER, TWO, Play
from president.game.settings import EqualValue
from president.game.suited import next_lock, suited_cards

#: Every seat of a table of n players, as a mask.
_ALL_SEATS = [(1 << n) - 1 for n in range(8)]


class TrickRules:
    """How a `PresidentState` plays a legal action: the trick, the turn, the places."""

    __slots__ = ()

    def _play(self, action: Play) -> None:
        """Play a legal `action` for the current player: the rules of a trick."""
        p = self.current
        self.history.append((p, action))
        count = action.count
        if not count:  # a pass
            self.declined |= 1 << p
            self._advance(p)
            return
        value, jokers = action.value, action.jokers
        s, up = self.settings, self.upcards
        if action.suits:  # suits matter: exactly the cards the play names
            self._remove_mask(p, suited_cards(self.lay, action, self.masks[p]))
        else:
            self._remove_cards(p, value, count - jokers, jokers)
        if s.lock:
            self.lock = next_lock(self.lock, up, action)
        equal = up is not None and value == up.value
        self.upcards, self.last_player = action, p
        if not s.pass_locks:
            self.declined = 0
        # Whether the play ends the trick is judged in the order it was played in,
        # before a revolution it starts (four twos still end the trick).
        ends_trick = ((s.twos_end_trick and (value == JOKER or value == (3 if self.reversed else TWO)))
                      or (s.eight_cut and (value == 8 or (action.run and value < 8 < value + count)))
                      or (s.spade_three and up is not None and up.value == JOKER))  # the 3 of spades took it
        if count >= (5 if action.run else 4) and s.revolution and value != JOKER:
            self.reversed = not self.reversed
        if not self.sizes[p] and self._finish_player(
                p, foul=s.no_going_out_on_two and (value == TWO or value == JOKER or jokers > 0)):
            return  # the round (perhaps the match) is over
        if ends_trick:
            self._new_trick(p)
            return
        if equal and s.equal_value is EqualValue.SKIP:
            skipped = self._next_waiting(p)
            if skipped >= 0:
                self.declined |= 1 << skipped
                self.history.append((skipped, None))  # None marks a skipped turn
                p = skipped
        self._advance(p)

    def _remove_cards(self, p: int, value: int, naturals: int, jokers: int) -> None:
        lay, counts, mask = self.lay, self.counts[p], self.masks[p]
        shift = lay.shift[value]  # lay.take, inlined: this runs on every play of every rollout
        taken = lay.lowest[(mask >> shift) & lay.slot][naturals] << shift
        counts[value] -= naturals
        self.played_counts[value] += naturals
        if jokers:
            taken |= lay.take(mask, JOKER, jokers)
            counts[JOKER] -= jokers
            self.played_counts[JOKER] += jokers
        self.masks[p] = mask ^ taken
        self.played |= taken
        self.sizes[p] -= naturals + jokers

    def _remove_mask(self, p: int, taken: int) -> None:
        """Take exactly the cards of `taken` from p's hand (a play that names its suits)."""
        lay = self.lay
        self.masks[p] ^= taken
        self.played |= taken
        self.counts[p] = lay.counts(self.masks[p])
        self.played_counts = lay.counts(self.played)
        self.sizes[p] -= taken.bit_count()

    def _next_waiting(self, p: int) -> int:
        """The next player after p who may still answer the upcards, or -1 if none may."""
        return self.turns[p][_ALL_SEATS[self.num_players] & ~(self.out | self.declined | 1 << self.last_player)]

    def _advance(self, p: int) -> None:
        """Pass the turn on from p, or end the trick when all others have declined."""
        q = self._next_waiting(p)
        if q >= 0:
            self.current = q
            return
        last = self.last_player
        if self.settings.last_player_answers and not (self.out | self.declined) >> last & 1:
            self.current = last  # asked again: it may play on its own play, or pass to end the trick
        else:
            self._new_trick(last)

    def _new_trick(self, leader: int) -> None:
        self.upcards, self.last_player, self.declined, self.lock = None, -1, 0, 0
        if self.out >> leader & 1:  # the leader went out: the next player still holding cards leads
            leader = self.turns[leader][_ALL_SEATS[self.num_players] & ~self.out]
        self.current = leader

    def _finish_player(self, p: int, foul: bool = False) -> bool:
        """p has emptied its hand: give it the best free place (the worst after a foul).

        Returns True when that ended the round."""
        self.out |= 1 << p
        if foul:
            self.places[p], self.worst_free = self.worst_free, self.worst_free - 1
        else:
            self.places[p], self.best_free = self.best_free, self.best_free + 1
        if self.best_free == self.worst_free:  # one player left: the round is over
            last = self.places.index(0)
            self.places[last] = self.best_free
            self.out |= 1 << last
            self._end_round()
            return True
        return False
