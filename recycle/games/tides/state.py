"""The native Tides of Time round behind the game protocol.

The picks of a turn are simultaneous; the protocol asks one player at a time,
so player 0 picks face down first, then player 1, who cannot see that pick
(its observation says only that a card lies face down), then both are revealed,
join the kingdoms, and the hands are swapped. Five turns, then the round is
scored (`scoring`). An action is a `Card` (its text is the card's name).

What a player knows: its own hand and face-down pick, both kingdoms, and,
from the first swap on, the opponent's cards (the ones it passed) and hence
also the 8 cards left out of the round. `determinize` keeps all of that and
re-deals the rest: before the first swap the opponent's hand and the unused
cards; later only which of the opponent's cards lies face down.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from recycle.kernel.protocol import TERMINAL, GameError, GameState, IllegalAction, Observation, Results, score_lead

from recycle.games.tides.cards import ALL_BITS, BY_NUMBER, DECK, Card, cards_of, mask_of
from recycle.games.tides.scoring import scores

HAND_SIZE = 5
TURNS = 5


class DealError(GameError, ValueError):
    """A deal that breaks the rules of the round (hand sizes, a card twice)."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} (rule: {rule})")
        self.rule = rule


def check_deal(hands: Sequence[Sequence[Card]]) -> tuple[int, int]:
    """The two hands of a deal as bitmasks; `DealError` names the rule a bad deal breaks."""
    if len(hands) != 2:
        raise DealError(f"a deal has two hands, not {len(hands)}", "two-players")
    masks = []
    for p, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise DealError(f"p{p} is dealt {len(hand)} card(s); each player is dealt {HAND_SIZE}", "deal-five")
        mask = mask_of(hand)
        if mask.bit_count() != HAND_SIZE:
            raise DealError(f"p{p}'s hand names a card twice", "one-copy")
        masks.append(mask)
    if masks[0] & masks[1]:
        twice = ", ".join(str(c) for c in cards_of(masks[0] & masks[1]))
        raise DealError(f"both hands hold {twice}; the deck has one of each card", "one-copy")
    return masks[0], masks[1]


def random_hands(rng: random.Random) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Shuffle the 18 cards and deal five to each player (the other 8 sit out the round)."""
    order = list(DECK)
    rng.shuffle(order)
    return tuple(order[:HAND_SIZE]), tuple(order[HAND_SIZE:2 * HAND_SIZE])


@dataclass(frozen=True)
class TidesObservation(Observation):
    """What `player` may know. Masks are bitmasks of card numbers (see `cards`).

    `opponent_cards` is the opponent's hand plus its face-down pick, known from
    the first swap on (None before); `opponent_picked` says whether the
    opponent's pick of this turn lies face down.
    """

    player: int
    current_player: int
    turn: int
    hand: int
    pick: int  # my face-down card's number, 0 for none
    kingdoms: tuple[int, int]
    opponent_picked: bool
    opponent_cards: int | None
    history: tuple[tuple[int, int], ...]  # revealed picks per turn (p0's number, p1's number)
    source: TidesState | None = field(default=None, compare=False, repr=False)  # for true_state only

    def true_state(self) -> TidesState:
        """CHEATING: a copy of the real state (labelled baselines only)."""
        if self.source is None:
            raise GameError("this observation was not taken from a native state: no true state to give")
        return self.source.clone()

    def sample_state(self, rng: random.Random) -> TidesState:
        """A full state consistent with this observation (hidden cards re-dealt with `rng`)."""
        me, opp = self.player, 1 - self.player
        seen = self.hand | self.kingdoms[0] | self.kingdoms[1] | (BY_NUMBER[self.pick].bit if self.pick else 0)
        if self.opponent_cards is None:  # first turn: any five of the cards I have not seen
            pool = [c for c in DECK if not seen & c.bit]
            rng.shuffle(pool)
            held = pool[:HAND_SIZE]
        else:
            held = list(cards_of(self.opponent_cards))
        s = TidesState.__new__(TidesState)
        s.num_players, s.turn, s.history = 2, self.turn, list(self.history)
        s.kingdoms = list(self.kingdoms)
        s.hands, s.picks = [0, 0], [0, 0]
        s.hands[me], s.picks[me] = self.hand, self.pick
        if self.opponent_picked:
            face_down = held.pop(rng.randrange(len(held)))
            s.picks[opp] = face_down.number
        s.hands[opp] = mask_of(held)
        s._scores = None
        return s


class TidesState(GameState):
    """A round of Tides of Time in progress. Build with `TidesState.new`."""

    __slots__ = ("_scores", "hands", "history", "kingdoms", "num_players", "picks", "turn")

    @classmethod
    def new(cls, seed: int | None = None, hands: Sequence[Sequence[Card]] | None = None) -> TidesState:
        """A round dealt from `seed` (`random_hands`), or from the two `hands` given."""
        if hands is None:
            hands = random_hands(random.Random(seed))
        s = cls.__new__(cls)
        s.num_players = 2
        s.hands = list(check_deal(hands))
        s.kingdoms, s.picks, s.turn, s.history, s._scores = [0, 0], [0, 0], 0, [], None
        return s

    # ---- protocol ----------------------------------------------------------
    def current_player(self) -> int:
        if self.turn >= TURNS:
            return TERMINAL
        return 0 if not self.picks[0] else 1

    def is_terminal(self) -> bool:
        return self.turn >= TURNS

    def legal_actions(self) -> list[Card]:
        if self.turn >= TURNS:
            return []
        return list(cards_of(self.hands[self.current_player()]))

    def apply(self, action) -> None:
        if self.turn >= TURNS:
            raise IllegalAction("the round is over: all five picks are made", "five-picks")
        card = action if isinstance(action, Card) else Card.parse(str(action))
        p = self.current_player()
        if not self.hands[p] & card.bit:
            raise IllegalAction(f"p{p} cannot pick {card}: a player picks a card from its own hand "
                                f"({', '.join(map(str, cards_of(self.hands[p])))})", "pick-from-hand")
        self.apply_legal(card)

    def apply_legal(self, card: Card) -> None:
        """Pick `card` for the current player (taken from `legal_actions()`, so not checked again)."""
        p = 0 if not self.picks[0] else 1
        self.hands[p] &= ~card.bit
        self.picks[p] = card.number
        if p == 1:  # both picked: reveal, then swap the rest of the hands
            a, b = self.picks
            self.kingdoms[0] |= 1 << a
            self.kingdoms[1] |= 1 << b
            self.history.append((a, b))
            self.picks = [0, 0]
            self.hands.reverse()
            self.turn += 1

    def clone(self) -> TidesState:
        c = TidesState.__new__(TidesState)
        c.num_players, c.turn, c._scores = 2, self.turn, self._scores
        c.hands, c.kingdoms, c.picks, c.history = self.hands[:], self.kingdoms[:], self.picks[:], self.history[:]
        return c

    def scores(self) -> tuple[int, int]:
        """Both players' scores for the kingdoms as they stand."""
        return scores(self.kingdoms[0], self.kingdoms[1])

    def heuristic(self, player: int) -> float:
        """The kingdoms' scores as they stand (`score_lead`); a finished round: its utility."""
        if self.turn >= TURNS:
            return self.results().utilities()[player]
        return score_lead(self.scores(), player)

    def results(self) -> Results:
        if self.turn < TURNS:
            raise GameError("the round is not over")
        a, b = self.scores()
        return Results((1 if a >= b else 2, 1 if b >= a else 2), (float(a), float(b)))

    def observation(self, player: int) -> TidesObservation:
        opp = 1 - player
        return TidesObservation(
            player, self.current_player(), self.turn, self.hands[player], self.picks[player],
            (self.kingdoms[0], self.kingdoms[1]), bool(self.picks[opp]),
            (self.hands[opp] | (1 << self.picks[opp] if self.picks[opp] else 0)) if self.turn else None,
            tuple(self.history), self)

    def determinize(self, player: int, rng: random.Random) -> TidesState:
        return self.observation(player).sample_state(rng)

    def information_key(self, player: int):
        return self.observation(player)

    def parse_action(self, text: str) -> Card:
        return Card.parse(text)

    # ---- for tests and displays ---------------------------------------------
    def hand(self, player: int) -> tuple[Card, ...]:
        return cards_of(self.hands[player])

    def kingdom(self, player: int) -> tuple[Card, ...]:
        return cards_of(self.kingdoms[player])

    def unused(self) -> tuple[Card, ...]:
        """The cards out of the round (the rest of the deck)."""
        held = self.hands[0] | self.hands[1] | self.kingdoms[0] | self.kingdoms[1]
        held |= sum(1 << p for p in self.picks if p)
        return cards_of(ALL_BITS & ~held)

    def __repr__(self) -> str:
        return (f"TidesState(turn={self.turn}, hands={[list(map(str, self.hand(p))) for p in (0, 1)]}, "
                f"kingdoms={[list(map(str, self.kingdom(p))) for p in (0, 1)]}, picks={self.picks})")
