"""The President forward model: one match of many rounds, as a `GameState`.

The state is mutable and cheap to copy: hands are bitmasks (see `layout`),
per-value counts are small lists. `apply` validates every action and raises
`IllegalAction` naming the rule broken; `apply_legal` and `random_playout`
are the search players' unchecked fast paths for actions taken from
`legal_actions()`. Legal plays live in `legality.py`, knowledge and
`determinize` in `knowledge.py`, observations in `observation.py`, the
exchange in `exchange.py`, a round's deal and end in `rounds.py`, the rules of a
trick in `trick.py`; this module is the state and the protocol over them.
"""
from __future__ import annotations

import random
from typing import Callable, Hashable

from recycle.kernel.game import Capabilities
from recycle.kernel.protocol import TERMINAL, GameError, GameState, IllegalAction, Results

from president.game import fastplay
from president.game.cards import JOKER, VALUE_LABELS, Card, Give, Play, parse_action
from president.game.exchange import apply_gift, legal_gifts
from president.game.heuristic import round_heuristic
from president.game.inference import ModelEvidence, PassEvidence
from president.game.knowledge import Dealer
from president.game.layout import layout
from president.game.legality import check_play, is_legal, legal_plays
from president.game.phase import Phase
from president.game.observation import PresidentObservation
from president.game.playout import greedy_playout
from president.game.rounds import RoundCycle
from president.game.settings import Settings
from president.game.trick import TrickRules


class PresidentState(RoundCycle, TrickRules, GameState):
    """A President match in progress. Build one with `new_match`.

    Its parts: `RoundCycle` (a round's deal, leader and end, `president.game.rounds`) and
    `TrickRules` (the play of a trick, `president.game.trick`)."""

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


def _ranks_by_score(scores: list[int]) -> tuple[int, ...]:
    """Place 1 for the highest score; equal scores share a place."""
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)
