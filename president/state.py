"""The President forward model: one match of many rounds, as a `GameState`.

The state is mutable and cheap to copy: hands are bitmasks (see `layout`),
per-value counts are small lists. `apply` validates every action and raises
`IllegalAction` naming the rule broken. Knowledge and `determinize` live in
`knowledge.py`, observations in `observation.py`, the exchange in
`exchange.py`; this module is the play of a round.
"""
from __future__ import annotations

import enum
import random

from recycle.engine import TERMINAL, GameError, GameState, IllegalAction, Results

from .cards import JOKER, PASS, TWO, Card, Give, Play, parse_action, play_of
from .exchange import apply_gift, legal_gifts, start_exchange
from .knowledge import determinize
from .layout import layout
from .observation import PresidentObservation
from .settings import EqualValue, FirstLeader, JokerMode, LaterLeader, Settings


class Phase(enum.Enum):
    """What the table is doing."""

    EXCHANGE = "exchange"
    """Between rounds: the President and Vice-President choose cards to give."""
    PLAY = "play"
    """A round is being played."""
    OVER = "over"
    """The match has ended."""


class PresidentState(GameState):
    """A President match in progress. Build one with `new_match`."""

    __slots__ = (
        "settings", "num_players", "lay", "masks", "counts", "sizes", "played", "played_counts", "phase",
        "current", "upcards", "last_player", "declined", "out", "places", "best_free",
        "worst_free", "reversed", "round_no", "prev_places", "scores", "round_log",
        "history", "pending", "gifts", "bounds", "known_public", "deal_seed", "first_leader",
        "round_only",
    )

    # ---- construction -------------------------------------------------
    @classmethod
    def new_match(cls, settings: Settings, seed: int, deal: list[list[Card]] | None = None) -> "PresidentState":
        """A match whose deals derive from `seed` (or whose first deal is `deal`)."""
        s = cls.__new__(cls)
        s.settings = settings
        s.num_players = n = settings.players
        s.lay = layout(settings.decks, settings.jokers)
        s.scores = [0] * n
        s.round_no = 0
        s.prev_places = None
        s.round_log = []
        s.deal_seed = seed
        s.round_only = False
        s._start_round(deal)
        return s

    def _deal(self) -> list[int]:
        """Deal the whole pack one card at a time, from the dealer's left."""
        n, lay = self.num_players, self.lay
        bits = [b for b, c in enumerate(lay.cards) if c is not None]
        random.Random(f"{self.deal_seed}/{self.round_no}").shuffle(bits)
        masks = [0] * n
        first = (self.dealer() + 1) % n
        for i, b in enumerate(bits):
            masks[(first + i) % n] |= 1 << b
        return masks

    def dealer(self) -> int:
        """The dealer of this round: seat n-1 first, then clockwise."""
        return (self.num_players - 1 + self.round_no) % self.num_players

    def _start_round(self, deal: list[list[Card]] | None = None) -> None:
        n, lay = self.num_players, self.lay
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
        self.history = []
        self.gifts = []  # (giver, receiver, mask) of this round's exchange
        self.bounds = []  # (knower, target, highest value target may hold)
        self.known_public = []  # (holder, mask): cards everyone knows a player holds
        self.first_leader = self._round_leader()
        self.pending = start_exchange(self)
        if self.pending:
            self.phase = Phase.EXCHANGE
            self.current = self.pending[0][0]
        else:
            self.phase = Phase.PLAY
            self.current = self.first_leader

    def _round_leader(self) -> int:
        s, n = self.settings, self.num_players
        if self.prev_places is None:
            if s.first_leader is FirstLeader.THREE_OF_CLUBS:
                three_clubs = self.lay.bit(Card(3, "c"))
                for p in range(n):
                    if self.masks[p] & three_clubs:
                        self.known_public.append((p, three_clubs))
                        return p
            return (self.dealer() + 1) % n
        wanted = n if s.later_leader is LaterLeader.LOSER else 1
        return self.prev_places.index(wanted)

    # ---- protocol -----------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase is Phase.OVER else self.current

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def clone(self) -> "PresidentState":
        c = PresidentState.__new__(PresidentState)
        c.settings, c.num_players, c.lay = self.settings, self.num_players, self.lay
        c.masks = self.masks[:]
        c.counts = [row[:] for row in self.counts]
        c.sizes = self.sizes[:]
        c.played, c.phase, c.current = self.played, self.phase, self.current
        c.played_counts = self.played_counts[:]
        c.upcards, c.last_player, c.declined, c.out = self.upcards, self.last_player, self.declined, self.out
        c.places = self.places[:]
        c.best_free, c.worst_free, c.reversed = self.best_free, self.worst_free, self.reversed
        c.round_no, c.prev_places = self.round_no, self.prev_places
        c.scores = self.scores[:]
        c.round_log = self.round_log[:]
        c.history = self.history[:]
        c.pending = self.pending[:]
        c.gifts, c.bounds, c.known_public = self.gifts[:], self.bounds[:], self.known_public[:]
        c.deal_seed, c.first_leader, c.round_only = self.deal_seed, self.first_leader, self.round_only
        return c

    def truncated(self) -> "PresidentState":
        """A copy that ends with the current round; its results rank by that round's places."""
        from dataclasses import replace

        c = self.clone()
        if c.phase is not Phase.OVER:
            c.settings = replace(c.settings, rounds=c.round_no + 1, target_score=0)
            c.round_only = True
        return c

    def hidden_is_determined(self, player: int) -> bool:
        """In play, once at most one opponent holds cards, every unseen card is in its hand."""
        if self.phase is not Phase.PLAY:
            return False
        return sum(1 for p in range(self.num_players) if p != player and self.sizes[p]) <= 1

    def parse_action(self, text: str) -> Play | Give:
        return parse_action(text)

    def results(self) -> Results:
        if self.phase is not Phase.OVER:
            raise GameError("the match is not over")
        if self.round_only:
            places = self.round_log[-1]
            return Results(tuple(places), tuple(float(self.num_players - p) for p in places))
        return Results(_ranks_by_score(self.scores), tuple(float(x) for x in self.scores))

    def observation(self, player: int):
        return PresidentObservation(self, player)

    def determinize(self, player: int, rng: random.Random) -> "PresidentState":
        return determinize(self, player, rng)

    # ---- legal plays --------------------------------------------------
    def beats(self, value: int, top: int) -> bool:
        """Does a set of `value` beat upcards of value `top` (ignoring equal-value rules)?"""
        if top == JOKER:
            return False
        if value == JOKER:
            return True
        return value < top if self.reversed else value > top

    def legal_actions(self) -> list:
        if self.phase is not Phase.PLAY:
            if self.phase is Phase.EXCHANGE:
                return legal_gifts(self)
            return []
        counts = self.counts[self.current]
        s = self.settings
        wild = counts[JOKER] if s.joker_mode is JokerMode.WILD else 0
        up = self.upcards
        out = []
        if up is None:
            for v in range(3, 16):
                n = counts[v]
                if n:
                    row = _PLAYS[v]
                    out.extend(row[1:n + 1])
                    for k in range(n + 1, n + wild + 1):
                        out.append(play_of(v, k, k - n))
            if counts[JOKER]:
                out.append(_JOKER_SINGLE)
            if s.no_going_out_on_two:
                allowed = [p for p in out if not self._forbidden_finish(p)]
                return allowed or out  # forced: see _finish_player
            return out
        need, top = up.count, up.value
        if top != JOKER:
            if self.reversed:
                low, high = 3, top - 1
            else:
                low, high = top + 1, 15
            if s.equal_value is not EqualValue.NO:
                low, high = min(low, top), max(high, top)
            for v in range(low, high + 1):
                n = counts[v]
                if n >= need:
                    out.append(_PLAYS[v][need])
                elif n and n + wild >= need:
                    out.append(play_of(v, need, need - n))
            if need == 1 and counts[JOKER]:
                out.append(_JOKER_SINGLE)
            if s.no_going_out_on_two:
                out = [p for p in out if not self._forbidden_finish(p)]
        out.append(PASS)
        return out

    def is_legal(self, play: Play) -> bool:
        """Is `play` legal now? (The same answer as membership in `legal_actions`.)"""
        if self.phase is not Phase.PLAY:
            return False
        up, s = self.upcards, self.settings
        v, k, j = play.value, play.count, play.jokers
        if k == 0:
            return up is not None and v == 0 and j == 0
        if not 3 <= v <= JOKER or k < 0 or not 0 <= j <= k:
            return False
        counts = self.counts[self.current]
        if v == JOKER:
            if k != 1 or j or not counts[JOKER] or (up is not None and (up.count != 1 or up.value == JOKER)):
                return False
        else:
            if j and s.joker_mode is not JokerMode.WILD:
                return False
            if k - j < 1 or counts[v] < k - j or counts[JOKER] < j or j != max(0, k - counts[v]):
                return False
            if up is not None and (k != up.count or not (
                    self.beats(v, up.value) or (v == up.value and s.equal_value is not EqualValue.NO))):
                return False
        if s.no_going_out_on_two and self._forbidden_finish(play):
            return up is None and all(self._forbidden_finish(p) for p in self.legal_actions())
        return True

    def _forbidden_finish(self, play: Play) -> bool:
        """Would this play empty the hand with a two or a joker in it?"""
        return play.count == self.sizes[self.current] and (play.value in (TWO, JOKER) or play.jokers > 0)

    def check_play(self, play: Play) -> None:
        """Raise `IllegalAction` naming the rule if `play` is not legal now."""
        if self.phase is not Phase.PLAY:
            raise IllegalAction(f"cannot play cards during the {self.phase.value} phase", "phase")
        if self.is_legal(play):
            return
        p, up, counts = self.current, self.upcards, self.counts[self.current]
        if play.count == 0 and (play.value or play.jokers):
            raise IllegalAction(f"{play!r} is not a play: a pass is Play.PASS", "play")
        if play.is_pass:
            raise IllegalAction("the leader cannot pass: lead a single, pair, three or four of a kind", "lead")
        if not 3 <= play.value <= JOKER or play.count < 0 or not 0 <= play.jokers <= play.count:
            raise IllegalAction(f"{play!r} is not a play of this pack", "play")
        wild = counts[JOKER] if self.settings.joker_mode is JokerMode.WILD else 0
        if play.jokers and not wild:
            raise IllegalAction("jokers are not wild at this table", "jokers")
        if counts[play.value] < play.naturals or counts[JOKER] < play.jokers:
            raise IllegalAction(f"player {p} does not hold {play}", "hold")
        if up is not None and play.count != up.count:
            raise IllegalAction(f"must follow with {up.count} card(s), not {play.count}", "same-count")
        if up is not None and up.value == JOKER:
            raise IllegalAction("nothing beats a lone joker", "beat")
        if up is not None and play.value == up.value:
            raise IllegalAction(f"{play} only equals the upcards {up}: equal value is not allowed here", "equal-value")
        if up is not None and not self.beats(play.value, up.value):
            raise IllegalAction(f"{play} does not beat the upcards {up}", "beat")
        if self.settings.no_going_out_on_two and self._forbidden_finish(play):
            raise IllegalAction("no going out on a two (or a joker)", "no-going-out-on-two")
        if play.value == JOKER and play.count != 1:
            raise IllegalAction("a joker alone is played as a single", "jokers")
        raise IllegalAction(f"{play} is not a legal play now", "play")

    # ---- applying actions ---------------------------------------------
    def apply(self, action: Play | Give) -> None:
        if isinstance(action, Give):
            apply_gift(self, action)
            return
        if not isinstance(action, Play):
            raise IllegalAction(f"{action!r} is not a President action", "action")
        self.check_play(action)
        p = self.current
        self.history.append((p, action))
        if action.is_pass:
            self.declined |= 1 << p
            self._advance(p)
            return
        self._remove_cards(p, action)
        s = self.settings
        equal = self.upcards is not None and action.value == self.upcards.value
        self.upcards, self.last_player = action, p
        if not s.pass_locks:
            self.declined = 0
        # Whether the play ends the trick is judged in the order it was played in,
        # before a revolution it starts (four twos still end the trick).
        top = 3 if self.reversed else TWO
        ends_trick = (s.twos_end_trick and action.value in (top, JOKER)) or (s.eight_cut and action.value == 8)
        if action.count >= 4 and s.revolution and action.value != JOKER:
            self.reversed = not self.reversed
        if self.sizes[p] == 0 and self._finish_player(
                p, foul=s.no_going_out_on_two and (action.value in (TWO, JOKER) or action.jokers > 0)):
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

    def _remove_cards(self, p: int, play: Play) -> None:
        lay, counts = self.lay, self.counts[p]
        taken = lay.take(self.masks[p], play.value, play.naturals)
        if play.jokers:
            taken |= lay.take(self.masks[p], JOKER, play.jokers)
            counts[JOKER] -= play.jokers
            self.played_counts[JOKER] += play.jokers
        counts[play.value] -= play.naturals
        self.played_counts[play.value] += play.naturals
        self.masks[p] ^= taken
        self.played |= taken
        self.sizes[p] -= play.count

    def _next_seat(self, p: int) -> int:
        """The next player after p who still holds cards (p itself if nobody else does)."""
        n, out = self.num_players, self.out
        q = (p + 1) % n
        while out >> q & 1 and q != p:
            q = (q + 1) % n
        return q

    def _next_waiting(self, p: int) -> int:
        """The next player after p who may still answer the upcards, or -1 if none may."""
        n = self.num_players
        waiting = ~self.out & ~self.declined & ((1 << n) - 1) & ~(1 << self.last_player)
        if not waiting:
            return -1
        q = (p + 1) % n
        while not (waiting >> q & 1):
            q = (q + 1) % n
        return q

    def _advance(self, p: int) -> None:
        """Pass the turn on from p, or end the trick when all others have declined."""
        q = self._next_waiting(p)
        if q < 0:
            self._new_trick(self.last_player)
        else:
            self.current = q

    def _new_trick(self, leader: int) -> None:
        self.upcards, self.last_player, self.declined = None, -1, 0
        self.current = leader if not (self.out >> leader & 1) else self._next_seat(leader)

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

    def _end_round(self) -> None:
        n, s = self.num_players, self.settings
        for p in range(n):
            self.scores[p] += n - self.places[p]
        self.round_log.append(tuple(self.places))
        self.prev_places = tuple(self.places)
        self.round_no += 1
        if (s.target_score and max(self.scores) >= s.target_score) or (s.rounds and self.round_no >= s.rounds):
            self.phase = Phase.OVER
            return
        self._start_round()

    # ---- conveniences -------------------------------------------------
    def hand(self, player: int) -> list[Card]:
        return self.lay.card_list(self.masks[player])

    def still_in(self) -> list[int]:
        return [p for p in range(self.num_players) if not self.out >> p & 1]

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(map(str, self.hand(p))) for p in range(self.num_players))
        return (f"<President round {self.round_no + 1} {self.phase.value} to-act={self.current}"
                f" upcards={self.upcards} hands: {hands}>")


_PLAYS = [[play_of(v, k) for k in range(9)] for v in range(17)]  # [value][count], no wild jokers
_JOKER_SINGLE = play_of(JOKER, 1)


def _ranks_by_score(scores: list[int]) -> tuple[int, ...]:
    """Place 1 for the highest score; equal scores share a place."""
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)
