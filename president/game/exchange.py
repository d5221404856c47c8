"""The card exchange between rounds.

The Loser's and Vice-Loser's gifts are forced (their highest cards) and happen
at once; the President's and Vice-President's gifts are their own choice, made
through the agent protocol as `Give` actions. Each gift is recorded so that
knowledge (who knows which card is where) stays exact.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Iterator

from recycle.kernel.protocol import IllegalAction

from president.game.cards import JOKER, Give
from president.game.phase import Phase

if TYPE_CHECKING:
    from president.game.state import PresidentState


def start_exchange(state: "PresidentState") -> list[tuple[int, int, int]]:
    """Make the forced gifts; return the gifts still to choose: (giver, receiver, count)."""
    places, n, s = state.prev_places, state.num_players, state.settings
    if places is None:
        return []
    pairs = [(places.index(1), places.index(n), s.exchange_big)]
    if n >= 4:
        pairs.append((places.index(2), places.index(n - 1), s.exchange_small))
    pending = []
    for high, low, count in pairs:
        if count <= 0:
            continue
        gift = _highest(state, low, count)
        lowest_given = state.lay.value_of_bit[(gift & -gift).bit_length() - 1]  # bits rise with the value
        _move(state, low, high, gift)
        # The receiver now knows the giver kept nothing higher than what it handed over.
        state.bounds.append((high, low, lowest_given))
        pending.append((high, low, count))
    return pending


def _highest(state: "PresidentState", player: int, count: int) -> int:
    """The mask of `player`'s `count` highest cards (jokers, then twos, ...)."""
    lay, mask, taken = state.lay, state.masks[player], 0
    for v in range(JOKER, 2, -1):
        if count == 0:
            break
        k = min(count, lay.count(mask, v))
        taken |= lay.take(mask, v, k)
        count -= k
    return taken


def _move(state: "PresidentState", giver: int, receiver: int, mask: int) -> None:
    lay = state.lay
    state.masks[giver] ^= mask
    state.masks[receiver] |= mask
    state.counts[giver] = lay.counts(state.masks[giver])
    state.counts[receiver] = lay.counts(state.masks[receiver])
    k = mask.bit_count()
    state.sizes[giver] -= k
    state.sizes[receiver] += k
    state.gifts.append((giver, receiver, mask))


@dataclass(frozen=True)
class UnseenGive:
    """A gift as a player outside the pair sees it: that `count` cards changed hands, not which.

    At a real table the giver and the receiver see the cards; the others see
    only the gesture. Observations put this in place of the `Give` in their
    history, and a sampled world keeps it (see `as_seen`).
    """

    count: int

    def __str__(self) -> str:
        return f"give {self.count} card{'s' if self.count != 1 else ''}"


def receiver_of(gifts, giver: int) -> int | None:
    """Who received this round's gift of `giver` (each player gives at most once a round)."""
    return next((r for g, r, _ in gifts if g == giver), None)


def history_as_seen(history, gifts, observer: int) -> tuple:
    """The round's history as `observer` sees it: other pairs' chosen gifts as `UnseenGive`."""
    return tuple((p, a) if not isinstance(a, Give) or observer in (p, receiver_of(gifts, p))
                 else (p, UnseenGive(len(a.values))) for p, a in history)


def as_seen(state: "PresidentState", observer: int) -> None:
    """Make `state` (a sampled world, a copy) forget the exchange facts `observer` cannot know.

    Another pair's gift keeps its giver and receiver with no cards (so no seat of the world
    knows where those cards went), another player's value bound is dropped, and the history
    shows other pairs' gifts as `UnseenGive`: the world then depends on what `observer` knows
    only, and a search in it cannot read the real gift through another seat's knowledge.
    """
    if not state.gifts:
        return
    state.history = list(history_as_seen(state.history, state.gifts, observer))
    state.gifts = [(g, r, m if observer in (g, r) else 0) for g, r, m in state.gifts]
    state.bounds = [fact for fact in state.bounds if fact[0] == observer]


def legal_gifts(state: "PresidentState") -> list[Give]:
    """Every distinct choice of cards (by value) the giver may hand over.

    In lexicographic order of the values (random players pick by index):
    `combinations_with_replacement` of the held values, keeping those that
    ask no value more often than it is held.
    """
    giver, _, count = state.pending[0]
    counts = state.counts[giver]
    gives, make = _GIVES, give_of
    out: list[Give] = []
    for chosen in _choices([v for v in range(3, 17) if counts[v]], counts, count):
        give = gives.get(chosen)
        out.append(make(chosen) if give is None else give)
    return out


def give_of(values: tuple[int, ...]) -> Give:
    """The interned gift of these values (sorted), the very object `legal_gifts` lists."""
    give = _GIVES.get(values)
    if give is None:
        give = _GIVES[values] = Give(values)
    return give


def _choices(values: list[int], counts: list[int], count: int) -> Iterator[tuple[int, ...]]:
    """The multisets of `count` held values, in lexicographic order; one and two cards (the usual
    gifts) written out, more by filtering `combinations_with_replacement`."""
    if count == 1:
        yield from ((a,) for a in values)
    elif count == 2:
        for i, a in enumerate(values):
            if counts[a] > 1:
                yield a, a
            yield from ((a, b) for b in values[i + 1:])
    else:
        for chosen in combinations_with_replacement(values, count):
            if not any(chosen.count(v) > counts[v] for v in set(chosen)):
                yield chosen


#: Interned gifts (immutable; equal by value either way): building a frozen dataclass is slow,
#: and every exchange lists dozens of them. A few thousand at most (14 values, gifts of up to 4 cards).
_GIVES: dict[tuple[int, ...], Give] = {}


def apply_gift(state: "PresidentState", give: Give) -> None:
    if state.phase is not Phase.EXCHANGE:
        raise IllegalAction("cards are given only in the exchange before a round", "exchange")
    giver, receiver, count = state.pending[0]
    if len(give.values) != count:
        raise IllegalAction(f"player {giver} must give exactly {count} card(s), not {len(give.values)}", "exchange-count")
    if any(not 3 <= v <= JOKER for v in give.values):
        raise IllegalAction(f"{give} names a value that is not a card", "hold")
    lay, mask, chosen = state.lay, state.masks[giver], 0
    for v in set(give.values):
        need = give.values.count(v)
        if lay.count(mask, v) < need:
            raise IllegalAction(f"player {giver} does not hold {give}", "hold")
        chosen |= lay.take(mask, v, need)
    state.history.append((giver, give))
    _move(state, giver, receiver, chosen)
    state.pending.pop(0)
    if state.pending:
        state.current = state.pending[0][0]
    else:
        state.lead_after_exchange()
