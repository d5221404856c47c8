"""What the exchange before a round reveals: the likelihood of a world's hands given the gifts.

After the first round the Loser hands its `k` highest cards to the President
and the President hands back `k` cards of its choice (the Vice pair likewise,
with fewer). A seat outside a pair sees only that cards changed hands, yet
that is evidence: the President's hand holds the Loser's best cards, the
Loser's hand holds the President's worst. A determinization that deals the
unseen cards uniformly ignores it; this factor puts it back.

The hands when the play began (a world's hands now plus what each player
has played since) are the hands *after* the exchange. The deal before it was
uniform, so a world's likelihood is proportional to the number of ways it
could have come out of an exchange: the pairs (G, R) of card sets, G (the
Loser's gift) among the President's cards and R (the President's gift) among
the Loser's, such that

- G were the Loser's highest cards: none of the Loser's other cards
  (its hand without R) is above G's lowest;
- R were the President's choice, made once G was in its hand: with
  probability `1 - MIX` it gave its lowest cards (every rule personality
  does: `exchange_choice`, twos and jokers last, which is the order of
  values), so none of the cards it kept is below R's highest; with
  probability `MIX` any `k` cards (a search player, a person).

Counted by card (ties between suits counted as distinct ways), in O(hand
size) per pair from the sorted hands. A seat in a pair knows G and R (it
gave one and received the other): as the Loser it checks only the
President's choice (nothing lower than what it received left in the
President's hand); as the President it already knows all there is (the
known cards and the bound the determinizer keeps).
"""
from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from president.game.cards import Play

if TYPE_CHECKING:
    from president.game.state import PresidentState

#: The share of a chosen gift that is not the giver's lowest cards (a search player, a person).
MIX = 0.05


class ExchangeEvidence:
    """This round's exchanges as `observer` saw them, ready to weigh worlds (`weight`)."""

    __slots__ = ("pairs", "played", "_seen")

    def __init__(self, state: "PresidentState", observer: int) -> None:
        # (high, low, k, G counts or None, R counts or None): G and R known only to a seat of the pair
        self.pairs: list[tuple[int, int, int, list[int] | None, list[int] | None]] = []
        self.played: dict[int, list[int]] = {}
        # the factor of each pair of hands weighed (a chain's step changes two hands: most pairs recur)
        self._seen: dict[tuple, float] = {}
        places, n, s = state.prev_places, state.num_players, state.settings
        if places is None or not state.gifts:
            return
        wanted = [(places.index(1), places.index(n), s.exchange_big)]
        if n >= 4:
            wanted.append((places.index(2), places.index(n - 1), s.exchange_small))
        lay, gifts = state.lay, {(g, r): m for g, r, m in state.gifts}  # another pair's masks: 0 (unseen)
        for high, low, k in wanted:
            if k <= 0 or observer == high:  # the President knows both gifts: nothing left to weigh
                continue
            if (low, high) not in gifts or (high, low) not in gifts:
                continue  # the exchange is not over (or not this round's): nothing to weigh yet
            known = observer == low
            g_counts = lay.counts(gifts[(low, high)]) if known else None
            r_counts = lay.counts(gifts[(high, low)]) if known else None
            self.pairs.append((high, low, k, g_counts, r_counts))
        for p, action in state.history:  # what each player has played this round (jokers as 16)
            count = action.count if isinstance(action, Play) else 0
            if count:
                row = self.played.setdefault(p, [0] * 17)
                row[action.value] += count - action.jokers
                row[16] += action.jokers

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def weight(self, world: "PresidentState") -> float:
        """The world's likelihood factor, 0..1 (up to a constant of the position): product over the pairs."""
        w, seen = 1.0, self._seen
        for i, (high, low, k, g_counts, r_counts) in enumerate(self.pairs):
            key = (i, tuple(world.counts[high]), tuple(world.counts[low]))
            factor = seen.get(key)
            if factor is None:
                h, lo = self._start(world, high), self._start(world, low)
                if g_counts is None:  # divided by the most it can be (sizes are public): a factor of 0..1
                    factor = pair_weight(h, lo, k) / (comb(sum(h), k) * comb(sum(lo), k))
                else:
                    factor = known_pair_weight(h, k, g_counts, r_counts)
                seen[key] = factor
            w *= factor
        return w

    def _start(self, world: "PresidentState", p: int) -> list[int]:
        """Player `p`'s hand when the play began, by value: now plus what it has played since."""
        played = self.played.get(p)
        now = world.counts[p]
        return now if played is None else [a + b for a, b in zip(now, played)]


def pair_weight(high: list[int], low: list[int], k: int) -> float:
    """The number of ways (lowest-card gifts, `1 - MIX`; any gift, `MIX` over the choices) in which the
    President's hand `high` and the Loser's `low` (counts by value, after the exchange of `k` cards each
    way) came out of an exchange."""
    lows = [v for v in range(3, 17) for _ in range(low[v])]  # the Loser's cards, lowest first
    n, size = len(lows), sum(high)
    if n < k or size < k:
        return 0.0
    below = [0] * 18  # below[v]: the President's cards under value v
    for v in range(1, 18):
        below[v] = below[v - 1] + high[v - 1]

    def choices(top: int, others_max: int) -> tuple[int, int]:
        """Ways of G given R's highest value `top` and the Loser's highest card left `others_max`:
        (with the President giving its lowest, with any gift)."""
        ways = comb(size - below[others_max], k)
        return (0 if below[top] else ways), ways

    lowest = anything = 0
    # R's highest card is not the Loser's highest: the Loser kept its highest card
    for j in range(k - 1, n - 1):
        ways = comb(j, k - 1)
        a, b = choices(lows[j], lows[n - 1])
        lowest, anything = lowest + ways * a, anything + ways * b
    # R holds exactly the Loser's r highest cards: the highest it kept is the next one
    for r in range(1, k + 1):
        rest = n - r - 1
        ways = comb(rest, k - r) if rest >= 0 else (1 if r == k else 0)
        a, b = choices(lows[n - 1], lows[rest] if rest >= 0 else 0)
        lowest, anything = lowest + ways * a, anything + ways * b
    return (1 - MIX) * lowest + MIX * anything / comb(size, k)


def known_pair_weight(high: list[int], k: int, given: list[int], received: list[int]) -> float:
    """The Loser's view: it knows G (`given`, in the President's hand `high`) and R (`received`); the
    President gave its lowest cards only if it kept nothing under R's highest value."""
    top = max(v for v in range(17) if received[v])
    kept_low = any(high[v] for v in range(top))
    return (1 - MIX) * (0.0 if kept_low else 1.0) + MIX / comb(max(k, sum(high)), k)
