"""The President forward model: one match of many rounds, as a `GameState`.

The state is mutable and cheap to copy: hands are bitmasks (see `layout`),
per-value counts are small lists. `apply` validates every action and raises
`IllegalAction` naming the rule broken; `apply_legal` and `random_playout`
are the search players' unchecked fast paths for actions taken from
`legal_actions()`. Legal plays live in `legality.py`, knowledge and
`determinize` in `knowledge.py`, observations in `observation.py`, the
exchange in `exchange.py`; this module is the play of a round.
"""
from __future__ import annotations

import random
from typing import Callable, Hashable

from recycle.kernel.game import Capabilities
from recycle.kernel.protocol import TERMINAL, GameError, GameState, IllegalAction, Results

from president.game import fastplay
from president.game.cards import JOKER, TWO, VALUE_LABELS, Card, Give, Play, parse_action
from president.game.exchange import apply_gift, legal_gifts, start_exchange
from president.game.heuristic import round_heuristic
from president.game.inference import ModelEvidence, PassEvidence
from president.game.knowledge import Dealer
from president.game.layout import layout
from president.game.legality import check_play, is_legal, legal_plays
from president.game.phase import Phase
from president.game.observation import PresidentObservation, round_points
from president.game.playout import greedy_playout
from president.game.seating import drawn_seating, turn_table
from president.game.settings import EqualValue, FirstLeader, LaterLeader, Settings
from president.game.suited import next_lock, suited_cards

#: The card whose holder leads the first round, by `Settings.first_leader`.
_OPENING_CARD = {FirstLeader.THREE_OF_CLUBS: Card(3, "c"), FirstLeader.THREE_OF_DIAMONDS: Card(3, "d")}
#: The card whose holder leads the later rounds once the exchange is done, by `Settings.later_leader`.
_LATER_CARD = {LaterLeader.THREE_OF_DIAMONDS: Card(3, "d")}


class PresidentState(GameState):
    """A President match in progress. Build one with `new_match`."""

    __slots__ = (
        "settings", "num_players", "lay", "masks", "counts", "sizes", "played", "played_counts", "phase",
        "current", "upcards", "last_player", "declined", "out", "places", "best_free",
        "worst_free", "reversed", "round_no", "prev_places", "scores", "round_log",
        "history", "pending", "gifts", "bounds", "known_public", "deal_seed", "first_leader",
        "round_only", "lock", "seating", "turns",
    )

    #: Everything search may use; agents are the game's to add (`president.game.president_game`).
    capabilities = Capabilities(neighbours=True, evidence=True, still_in=True, holdings=True,
                                transposition_keys=True, policy_playout=True, agents_playout=True)

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
        s.seat(tuple(range(n)))
        s._start_round(deal)
        return s

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
        c.best_free, c.worst_free, c.reversed, c.lock = self.best_free, self.worst_free, self.reversed, self.lock
        c.round_no, c.prev_places = self.round_no, self.prev_places
        c.scores = self.scores[:]
        c.round_log = self.round_log[:]
        c.history = self.history[:]
        c.pending = self.pending[:]
        c.gifts, c.bounds, c.known_public = self.gifts[:], self.bounds[:], self.known_public[:]
        c.deal_seed, c.first_leader, c.round_only = self.deal_seed, self.first_leader, self.round_only
        c.seating, c.turns = self.seating, self.turns
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

    def transposition_key(self) -> Hashable:
        """What the rest of a `truncated()` copy's round depends on; None for a whole match.

        For the endgame solver's table: hands, whose turn, the trick, who
        passed, the direction and the free places.
        """
        if not self.round_only:
            return None
        return (self.phase, tuple(self.masks), self.current, self.upcards, self.last_player, self.declined,
                self.reversed, self.best_free, self.worst_free, self.lock)

    def value_range(self, player: int) -> tuple[float, float]:
        """Bounds on `player`'s utility: in a round, between those of the places still free."""
        if not self.round_only or self.places[player]:
            return 0.0, 1.0
        n = self.num_players
        return (n - self.worst_free) / (n - 1), (n - self.best_free) / (n - 1)

    def heuristic(self, player: int) -> float:
        """A finished match or round: its utility; else the place the hands' sizes promise
        (`president.game.heuristic`)."""
        if self.phase is Phase.OVER:
            return self.results().utilities()[player]
        return round_heuristic(self, player)

    def parse_action(self, text: str) -> Play | Give:
        return parse_action(text, self.settings.suited)

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
        return Dealer(self, player).deal(rng)

    def determinizer(self, player: int) -> Callable[[random.Random], "PresidentState"]:
        """`determinize(player, rng)` as a function of `rng`, for many samples of this unchanged state."""
        return Dealer(self, player).deal

    def neighbours(self, player: int) -> Callable[["PresidentState", random.Random], "PresidentState | None"]:
        """One unknown card swapped between two other players (`Dealer.neighbour`)."""
        return Dealer(self, player).neighbour

    # ---- legal plays --------------------------------------------------
    def beats(self, value: int, top: int) -> bool:
        """Does a set of `value` beat upcards of value `top` (ignoring equal-value rules)?"""
        if top == JOKER:
            return False
        if value == JOKER:
            return True
        return value < top if self.reversed else value > top

    def legal_actions(self) -> list:
        if self.phase is Phase.PLAY:
            return legal_plays(self)
        return legal_gifts(self) if self.phase is Phase.EXCHANGE else []

    def is_legal(self, play: Play) -> bool:
        """Is `play` legal now? (The same answer as membership in `legal_actions`.)"""
        return self.phase is Phase.PLAY and is_legal(self, play)

    def check_play(self, play: Play) -> None:
        """Raise `IllegalAction` naming the rule if `play` is not legal now."""
        if self.phase is not Phase.PLAY:
            raise IllegalAction(f"cannot play cards during the {self.phase.value} phase", "phase")
        check_play(self, play)

    # ---- applying actions ---------------------------------------------
    def apply(self, action: Play | Give) -> None:
        """Apply any action; an illegal one raises `IllegalAction` and leaves the state as it was."""
        if isinstance(action, Give):
            apply_gift(self, action)
            return
        if not isinstance(action, Play):
            raise IllegalAction(f"{action!r} is not a President action", "action")
        self.check_play(action)
        self._play(action)

    def apply_legal(self, action: Play | Give) -> None:
        """`apply` for an action taken from this state's own `legal_actions()`: no second check.

        The search players' fast path (an action's legality is already known,
        and checking it again was a third of a rollout's time). Anything else
        must go through `apply`.
        """
        if self.phase is Phase.PLAY:
            self._play(action)
        else:
            self.apply(action)

    def random_playout(self, rng: random.Random, draw: Callable[[int], int] | None = None) -> int:
        """Play uniformly random legal actions to the end; returns the number of actions.

        Exactly the moves of the protocol's loop (`GameState.random_playout`: index
        `int(rng.random() * n)`, or `draw(n)`), without the calls between. The
        compiled engine makes the same moves where it was built (`president.game.fastplay`);
        `random_moves` is the pure Python reference.
        """
        if _FAST is not None:
            steps = _FAST(self, rng, draw)
            if steps is not None:
                return steps
        return self.random_moves(rng, draw)

    def random_moves(self, rng: random.Random, draw: Callable[[int], int] | None = None,
                     exchange_only: bool = False) -> int:
        """`random_playout` in pure Python (or, with `exchange_only`, only until the next play phase)."""
        rand, play, PLAY, OVER = rng.random, self._play, Phase.PLAY, Phase.OVER
        stop = PLAY if exchange_only else OVER
        bits = fastplay.bits_of(draw)
        steps, phase = 0, self.phase
        while phase is not OVER and phase is not stop:
            # legal plays, or in an exchange (a whole match, a rollout past its round) the gifts
            acts = legal_plays(self) if phase is PLAY else legal_gifts(self)
            n = len(acts)
            if bits is not None:  # `Random._randbelow(n)`, inlined: CPython's own loop
                k = n.bit_length()
                i = bits(k)
                while i >= n:
                    i = bits(k)
            else:
                i = int(rand() * n) if draw is None else draw(n)
            if phase is PLAY:
                play(acts[i])
            else:
                apply_gift(self, acts[i])
            steps += 1
            phase = self.phase
        return steps

    def agents_playout(self, agents, rng: random.Random) -> int | None:
        """`play_out`'s loop for these agents in compiled code, where it applies (every seat a rule
        personality: `president.game.rulebots`): the moves made, the state played to its end; None
        (nothing done) where the protocol's own loop must play it."""
        from president.game.rulebots import playout

        return playout(self, agents, rng)

    def policy_playout(self, rng: random.Random) -> int:
        """Play to the end by the cheap greedy policy of `playout.py` (`rollout=greedy`)."""
        return greedy_playout(self, rng)

    def evidence(self, observer: int, q: float, model=None) -> PassEvidence | ModelEvidence:
        """What the round reveals to `observer`, for inference-aware determinization: its passes
        under the greedy policy, or with an opponent `model` its recent decisions under that model."""
        return PassEvidence(self, observer, q) if model is None else ModelEvidence(self, observer, q, model)

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

    # ---- conveniences -------------------------------------------------
    def hand(self, player: int) -> list[Card]:
        return self.lay.card_list(self.masks[player])

    def still_in(self) -> list[int]:
        return [p for p in range(self.num_players) if not self.out >> p & 1]

    def holdings(self) -> tuple[tuple[str, ...], list[list[int]]]:
        """Per player, its cards per value (beliefs: suits never matter in play)."""
        return VALUE_LABELS, self.counts

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(map(str, self.hand(p))) for p in range(self.num_players))
        return (f"<President round {self.round_no + 1} {self.phase.value} to-act={self.current}"
                f" upcards={self.upcards} hands: {hands}>")


#: The compiled random play (`president.game.fastplay.playout`), None when pure Python is in use.
_FAST = fastplay.playout if fastplay.compiled() else None


_ALL_SEATS = [(1 << n) - 1 for n in range(8)]


def _ranks_by_score(scores: list[int]) -> tuple[int, ...]:
    """Place 1 for the highest score; equal scores share a place."""
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)
