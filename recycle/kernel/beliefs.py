"""Beliefs: what an agent thinks each other player holds, as expected counts of each kind of card.

A game describes hands for beliefs by `GameState.holdings()`: the labels of
its kinds of card (President: the values `3` .. `2`, `Jk`; suits do not
matter there) and, per player, how many of each kind that player holds. An
agent's belief is then, per opponent, the expected count of each kind over
the worlds it reasoned about: a search's determinizations (each world it
searched counts once: inference already draws worlds in proportion to their
weight), or, for a rule personality, the uniform deal its `FollowOdds`
assumes. Expected counts add up to the opponent's hand size.

A belief about the others tells what its owner holds (by what is missing),
so a table shows a bot's belief only where it would show the bot's cards.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from operator import add
from typing import Any, Sequence

#: (labels, one row of counts per player) as a game gives them; "" labels an unused index.
Holdings = tuple[Sequence[str], Sequence[Sequence[int]]]

#: Expected counts below this are shown and exported as nothing.
NEGLIGIBLE = 0.005


def count_text(x: float) -> str:
    """An expected count in three cells at most: `2`, `1.4`, `.4`, `` for nothing."""
    if x < 0.05:
        return ""
    if abs(x - round(x)) < 0.05:
        return str(round(x))
    return f"{x:.1f}".removeprefix("0")


@dataclass(frozen=True)
class HandBelief:
    """One opponent's hand as believed: its size and the expected count of each kind of card."""

    player: int
    size: int
    expected: tuple[tuple[str, float], ...]
    """(label, expected count), in the game's order of kinds; kinds expected nowhere are left out."""

    def of(self, label: str) -> float:
        return dict(self.expected).get(label, 0.0)

    def to_json(self) -> dict:
        return {"player": self.player, "cards": self.size,
                "expected": {label: round(x, 3) for label, x in self.expected}}

    def text(self) -> str:
        """`p2 (7 cards): 3 .4 · 5 1.2 · K 2`."""
        cells = " · ".join(f"{label} {count_text(x)}" for label, x in self.expected if count_text(x))
        return f"p{self.player} ({self.size} card{'' if self.size == 1 else 's'}): {cells or 'nothing'}"


@dataclass(frozen=True)
class Belief:
    """What `observer` believes each other player holds, and how it came to believe it."""

    observer: int
    method: str  # "uniform deal of the unseen cards (FollowOdds' model)", "1500 searched worlds", ...
    worlds: int  # worlds averaged (0: worked out exactly)
    hands: tuple[HandBelief, ...]
    labels: tuple[str, ...] = ()  # every kind of card of the game, in order (for tables)

    def hand(self, player: int) -> HandBelief:
        return next(h for h in self.hands if h.player == player)

    def to_json(self) -> list[dict]:
        """One entry per opponent (the `beliefs` of `decide --json`)."""
        return [{**h.to_json(), "method": self.method, "worlds": self.worlds} for h in self.hands]

    def text(self) -> str:
        head = f"belief of p{self.observer}: {self.method}"
        return "\n".join([head, *("  " + h.text() for h in self.hands)])

    def kinds(self) -> list[str]:
        """The kinds some opponent is expected to hold, in the game's order."""
        held = {label for h in self.hands for label, x in h.expected if count_text(x)}
        return [label for label in (self.labels or [lab for h in self.hands for lab, _ in h.expected])
                if label in held and label]

    def grid(self, names: Sequence[str] | None = None) -> list[str]:
        """A compact table: a column per opponent, a row per kind of card (narrow: fits a side pane)."""
        heads = [(names[h.player] if names else f"p{h.player}")[:5] for h in self.hands]
        lines = ["     " + "".join(f"{name:>6}" for name in heads),
                 "cards" + "".join(f"{h.size:>6}" for h in self.hands)]
        seen: list[str] = []
        for label in self.kinds():
            if label in seen:
                continue
            seen.append(label)
            lines.append(f"{label:<5}" + "".join(f"{count_text(h.of(label)):>6}" for h in self.hands))
        return lines


class BeliefTally:
    """Adds up the worlds an agent reasons about, for `observer`; `belief()` averages them.

    Cheap enough to run on every world a search draws (a few list additions);
    it never draws from an rng, so it changes no decision.
    """

    __slots__ = ("observer", "labels", "sums", "worlds", "sizes")

    def __init__(self, observer: int) -> None:
        self.observer = observer
        self.labels: Sequence[str] = ()
        self.sums: dict[int, list[float]] = {}
        self.sizes: dict[int, int] = {}
        self.worlds = 0

    def add(self, world: Any) -> None:
        """Count one world's hands (a game without `holdings()` gives no belief)."""
        held = world.holdings()
        if held is None:
            return
        labels, rows = held
        sums, observer = self.sums, self.observer
        if not sums:
            self.labels = labels
            for p, row in enumerate(rows):
                if p != observer:
                    sums[p] = [0.0] * len(row)
                    self.sizes[p] = sum(row)
        for p, acc in sums.items():
            sums[p] = list(map(add, acc, rows[p]))
        self.worlds += 1

    def merge(self, other: "BeliefTally") -> None:
        """Add another tally of the same decision (another tree of a root-parallel search)."""
        if not other.worlds:
            return
        if not self.worlds:
            self.labels, self.sizes = other.labels, dict(other.sizes)
            self.sums = {p: row[:] for p, row in other.sums.items()}
        else:
            for p, row in other.sums.items():
                self.sums[p] = list(map(add, self.sums[p], row))
        self.worlds += other.worlds

    def belief(self, method: str) -> Belief | None:
        """The average of the worlds counted, or None when none was (or the game has no holdings)."""
        if not self.worlds:
            return None
        n = self.worlds
        return make_belief(self.observer, method, n, self.labels,
                           {p: [x / n for x in row] for p, row in self.sums.items()}, self.sizes)

    def __getstate__(self):  # picklable: root-parallel trees send theirs back from worker processes
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, data) -> None:
        for k, v in data.items():
            setattr(self, k, v)


def make_belief(observer: int, method: str, worlds: int, labels: Sequence[str],
                expected: dict[int, Sequence[float]], sizes: dict[int, int]) -> Belief:
    """A `Belief` from expected rows aligned with `labels` (unused indices labelled "")."""
    hands = tuple(HandBelief(p, sizes[p], tuple((label, x) for label, x in zip(labels, row)
                                                if label and x >= NEGLIGIBLE))
                  for p, row in sorted(expected.items()))
    return Belief(observer, method, worlds, hands, tuple(label for label in labels if label))


#: The belief of a rule personality: the model its FollowOdds computes with.
UNIFORM = "uniform deal of the unseen cards (the model of FollowOdds)"
#: A search's belief when it had nothing to search.
FORCED = "no search (the only legal action): a uniform deal of the unseen cards"


def uniform_belief(world: Any, observer: int, method: str = UNIFORM) -> Belief | None:
    """Every card `observer` has not seen, spread over the others in proportion to their hand sizes.

    `world` is any determinization of `observer`'s information set: together, the others' hands in
    it are exactly the cards the observer has not seen, whoever holds which.
    """
    held = world.holdings()
    if held is None:
        return None
    labels, rows = held
    others = [p for p in range(len(rows)) if p != observer]
    sizes = {p: sum(rows[p]) for p in others}
    total = sum(sizes.values())
    unseen = [sum(rows[p][i] for p in others) for i in range(len(labels))]
    expected = {p: [u * sizes[p] / total if total else 0.0 for u in unseen] for p in others}
    return make_belief(observer, method, 0, labels, expected, sizes)


def observation_belief(observation: Any, method: str = UNIFORM) -> Belief | None:
    """`uniform_belief` of an observation (through one of its determinizations: any gives the same);
    None for an observation that cannot be dealt (a stale one: its state has moved on)."""
    from recycle.kernel.protocol import GameError

    sample = getattr(observation, "sample_state", None)
    if sample is None:
        return None
    try:
        world = sample(random.Random(0))
    except GameError:
        return None
    return uniform_belief(world, observation.player, method)


def placed_right(belief: Belief, truth: Holdings) -> tuple[float, int]:
    """(cards the belief puts in the hand that holds them, the opponents' cards): by kind of card,
    `min(expected, true count)` summed over opponents and kinds."""
    labels, rows = truth
    right, total = 0.0, 0
    for h in belief.hands:
        expected = dict(h.expected)
        row = rows[h.player]
        total += sum(row)
        right += sum(min(expected.get(label, 0.0), n) for label, n in zip(labels, row) if label)
    return right, total


def brier(belief: Belief, truth: Holdings) -> tuple[float, int]:
    """(summed Brier score, cards scored). Cards of one kind are interchangeable (suits do not matter),
    so for every card the observer has not seen, the chances the belief gives each opponent of holding
    a card of its kind (expected count over the unseen cards of that kind) are scored, squared, against
    the true shares. 0 is perfect; 2 the worst."""
    labels, rows = truth
    players = [h.player for h in belief.hands]
    expected = {h.player: dict(h.expected) for h in belief.hands}
    total, cards = 0.0, 0
    for i, label in enumerate(labels):
        if not label:
            continue
        unseen = sum(rows[p][i] for p in players)
        if unseen:
            total += sum((expected[p].get(label, 0.0) - rows[p][i]) ** 2 for p in players) / unseen
            cards += unseen
    return total, cards
