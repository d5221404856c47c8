"""Scoring a Tides of Time round, in the seed's order.

1. count each player's suits; 2. note who holds win-ties;
3. singletons (8 points: more suits held with exactly one card than the
   opponent, counted *before* doubling; a tie scores with win-ties);
4. double: the count of the holder's largest suit(s) doubles;
5. each-set, all-suits, majority (strictly more of the suit than the opponent,
   or equal with win-ties; 0 against 0 is a tie) and lacking cards, on the
   doubled counts;
6. highest (8 points): the holder's best single card's points (over steps 3
   and 5, the card's own 8 excluded) beat the opponent's best, or equal it
   with win-ties.

Only one copy of each card exists, so at most one player holds win-ties,
singletons, double or highest. A kingdom is a bitmask of card numbers
(`cards.mask_of`); what one kingdom alone decides is worked out once per
kingdom and cached (`Profile`), so scoring a pair is a few comparisons.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from recycle.games.tides.cards import ALL_SUITS, DOUBLE, EACH, HIGHEST, LACKING, MAJORITY, SINGLETONS, SUITS, WIN_TIES, Card, cards_of

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
SINGLE_POINTS = 8  # the singletons card
HIGHEST_POINTS = 8  # the highest card


@dataclass(frozen=True)
class Profile:
    """What one kingdom decides on its own."""

    counts: tuple[int, ...]      # per suit, before doubling
    doubled: tuple[int, ...]     # per suit, after the double card (if held)
    singles: int                 # suits with exactly one card (before doubling)
    ties: bool
    singletons: bool
    highest: bool
    own: tuple[tuple[Card, int], ...]  # each-set, all-suits and lacking cards with their points
    majorities: tuple[Card, ...]       # majority cards held

    @property
    def own_points(self) -> int:
        return sum(p for _, p in self.own)

    @property
    def own_best(self) -> int:
        return max((p for _, p in self.own), default=0)


@lru_cache(maxsize=1 << 15)  # C(18,5) = 8,568 kingdoms of five, and their prefixes
def profile(mask: int) -> Profile:
    """The profile of the kingdom `mask`."""
    cards = cards_of(mask)
    counts = [0] * 5
    for c in cards:
        if c.suit:
            counts[_SUIT_INDEX[c.suit]] += 1
    kinds = {c.kind for c in cards}
    doubled = list(counts)
    if DOUBLE in kinds:
        top = max(counts)
        doubled = [2 * n if n == top else n for n in counts]
    own = []
    for c in cards:
        if c.kind == EACH:
            own.append((c, c.points * min(doubled[_SUIT_INDEX[s]] for s in c.names)))
        elif c.kind == ALL_SUITS:
            own.append((c, c.points * min(doubled)))
        elif c.kind == LACKING:
            own.append((c, c.points * sum(1 for n in doubled if n == 0)))
    return Profile(tuple(counts), tuple(doubled), sum(1 for n in counts if n == 1), WIN_TIES in kinds,
                   SINGLETONS in kinds, HIGHEST in kinds, tuple(own),
                   tuple(c for c in cards if c.kind == MAJORITY))


def _beats(mine: int, theirs: int, ties: bool) -> bool:
    return mine > theirs or (mine == theirs and ties)


def _before_highest(a: Profile, b: Profile) -> tuple[int, int, list]:
    """(points, best single card's points, [(card or kind, points)]) of `a` against `b`, highest left out."""
    parts: list = []
    best = 0
    if a.singletons:
        got = SINGLE_POINTS if _beats(a.singles, b.singles, a.ties) else 0
        parts.append((SINGLETONS, got))
        best = got
    for c in a.majorities:
        s = _SUIT_INDEX[c.names[0]]
        got = c.points if _beats(a.doubled[s], b.doubled[s], a.ties) else 0
        parts.append((c, got))
        best = max(best, got)
    parts.extend(a.own)
    best = max(best, a.own_best)
    return sum(p for _, p in parts), best, parts


def score_parts(a_mask: int, b_mask: int) -> tuple[list, list]:
    """Each player's scoring cards with their points: [(card or kind, points)], for both kingdoms."""
    a, b = profile(a_mask), profile(b_mask)
    _, a_best, a_parts = _before_highest(a, b)
    _, b_best, b_parts = _before_highest(b, a)
    if a.highest:
        a_parts.append((HIGHEST, HIGHEST_POINTS if _beats(a_best, b_best, a.ties) else 0))
    if b.highest:
        b_parts.append((HIGHEST, HIGHEST_POINTS if _beats(b_best, a_best, b.ties) else 0))
    return a_parts, b_parts


@lru_cache(maxsize=1 << 18)
def scores(a_mask: int, b_mask: int) -> tuple[int, int]:
    """Both players' round scores for kingdoms `a_mask` and `b_mask`."""
    a_parts, b_parts = score_parts(a_mask, b_mask)
    return sum(p for _, p in a_parts), sum(p for _, p in b_parts)
