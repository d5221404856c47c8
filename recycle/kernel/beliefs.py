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
from dataclasses import dataclass, field
from functools import partial
from math import comb
from typing import Any, Callable, Sequence

from recycle.kernel.likeliest import best_guess

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


Guess = tuple[tuple[str, int], ...]


@dataclass(frozen=True, eq=False)
class HandBelief:
    """One opponent's hand as believed: its size and the expected count of each kind of card.

    Equal beliefs are equal in every part, the likeliest hand included (a leak audit compares them)."""

    player: int
    size: int
    expected: tuple[tuple[str, float], ...]
    """(label, expected count), in the game's order of kinds; kinds expected nowhere are left out."""
    guess: Guess | Callable[[], Guess] = field(default=(), repr=False)
    """The likeliest hand, or how to work it out: a belief is made at every explained decision
    (a rule bot's, counting which rule fired), its likeliest hands only where one is read."""

    @property
    def likeliest(self) -> Guess:
        """(label, count): the guess of this hand that gets the most cards right on average, the
        others guessed with it (`recycle.kernel.likeliest`); empty where the belief has no chances
        to guess by."""
        guess = self.guess
        if callable(guess):
            guess = guess()
            object.__setattr__(self, "guess", guess)  # worked out once: the value never changes
        return guess

    def _key(self) -> tuple:
        return self.player, self.size, self.expected, self.likeliest

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandBelief) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __getstate__(self) -> dict:  # picklable: the recipe is a closure, its result is not
        return {**self.__dict__, "guess": self.likeliest}

    def of(self, label: str) -> float:
        return dict(self.expected).get(label, 0.0)

    def to_json(self) -> dict:
        out = {"player": self.player, "cards": self.size,
               "expected": {label: round(x, 3) for label, x in self.expected}}
        if self.likeliest:
            out["likeliest"] = dict(self.likeliest)
        return out

    def guess_text(self) -> str:
        """The likeliest hand as cards: `3 3 7 J Q` ("" when there is none)."""
        return " ".join(label for label, k in self.likeliest for _ in range(k))

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


    def guess_lines(self, names: Sequence[str] | None = None) -> list[str]:
        """The likeliest hands, a line each: `likeliest p2  3 3 7 J Q` (none when there is no guess)."""
        if not any(h.likeliest for h in self.hands):
            return []
        return ["likeliest hands:"] + [f"  {(names[h.player] if names else f'p{h.player}')[:5]:<5} "
                                       f"{h.guess_text() or '-'}" for h in self.hands]


class BeliefTally:
    """Adds up the worlds an agent reasons about, for `observer`; `belief()` averages them.

    Each opponent's hand is kept as how many worlds gave it each row of counts
    (a chain's worlds repeat, so this is small), which gives both the expected
    counts and the chance of holding at least k cards of a kind (for the
    likeliest hands). Cheap enough to run on every world a search draws (a dict
    update per opponent); it never draws from an rng, so it changes no decision.
    """

    __slots__ = ("observer", "labels", "hands", "worlds", "sizes")

    def __init__(self, observer: int) -> None:
        self.observer = observer
        self.labels: Sequence[str] = ()
        self.hands: dict[int, dict[tuple[int, ...], int]] = {}
        self.sizes: dict[int, int] = {}
        self.worlds = 0

    def add(self, world: Any) -> None:
        """Count one world's hands (a game without `holdings()` gives no belief)."""
        if not world.capabilities.holdings:
            return
        labels, rows = world.holdings()
        hands = self.hands
        if not hands:
            self.labels = labels
            for p, row in enumerate(rows):
                if p != self.observer:
                    hands[p] = {}
                    self.sizes[p] = sum(row)
        for p, seen in hands.items():
            row = tuple(rows[p])
            seen[row] = seen.get(row, 0) + 1
        self.worlds += 1

    def merge(self, other: "BeliefTally") -> None:
        """Add another tally of the same decision (another tree of a root-parallel search)."""
        if not other.worlds:
            return
        if not self.worlds:
            self.labels, self.sizes = other.labels, dict(other.sizes)
            self.hands = {p: {} for p in other.hands}
        for p, seen in other.hands.items():
            mine = self.hands[p]
            for row, n in seen.items():
                mine[row] = mine.get(row, 0) + n
        self.worlds += other.worlds

    def belief(self, method: str) -> Belief | None:
        """The average of the worlds counted, or None when none was (or the game has no holdings)."""
        if not self.worlds:
            return None
        n, width = self.worlds, len(self.labels)
        expected: dict[int, list[float]] = {}
        at_least: dict[int, list[list[float]]] = {}  # p -> kind -> [P(holds >= 1), P(>= 2), ...]
        for p, seen in self.hands.items():
            sums, tails = [0.0] * width, [[] for _ in range(width)]
            for row, times in seen.items():
                for i, count in enumerate(row):
                    if count:
                        sums[i] += count * times
                        tail = tails[i]
                        tail.extend([0.0] * (count - len(tail)))
                        for k in range(count):
                            tail[k] += times
            expected[p] = [x / n for x in sums]
            at_least[p] = [[x / n for x in tail] for tail in tails]
        return make_belief(self.observer, method, n, self.labels, expected, self.sizes, at_least)

    def __getstate__(self):  # picklable: root-parallel trees send theirs back from worker processes
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, data) -> None:
        for k, v in data.items():
            setattr(self, k, v)


def make_belief(observer: int, method: str, worlds: int, labels: Sequence[str],
                expected: dict[int, Sequence[float]], sizes: dict[int, int],
                at_least: dict[int, Sequence[Sequence[float]]] | None = None) -> Belief:
    """A `Belief` from expected rows aligned with `labels` (unused indices labelled ""); with
    `at_least` (per opponent and kind, the chances of holding at least 1, 2, ... cards of it), each
    hand also gets its likeliest cards (`likeliest_hands`)."""
    rows: list[dict[int, list[int]]] = []  # (worked out: its one entry, even where it is empty)

    def guess_of(p: int) -> Guess:  # every hand's guess is worked out together, at the first read
        if at_least is None:
            return ()
        if not rows:
            rows.append(likeliest_hands(at_least, expected, sizes))
        return tuple((label, k) for label, k in zip(labels, rows[0].get(p, ())) if label and k)

    hands = tuple(HandBelief(p, sizes[p], tuple((label, x) for label, x in zip(labels, row)
                                                if label and x >= NEGLIGIBLE),
                             partial(guess_of, p))
                  for p, row in sorted(expected.items()))
    return Belief(observer, method, worlds, hands, tuple(label for label in labels if label))


def likeliest_hands(at_least: dict[int, Sequence[Sequence[float]]], expected: dict[int, Sequence[float]],
                    sizes: dict[int, int]) -> dict[int, list[int]]:
    """Per opponent, the counts of its likeliest hand (`recycle.kernel.likeliest.best_guess`): every
    unseen card (the expected counts add up to them) placed, each hand its size."""
    players = sorted(at_least)
    if not players:
        return {}
    width = len(expected[players[0]])
    supply = [round(sum(expected[p][i] for p in players)) for i in range(width)]
    rows = best_guess([at_least[p] for p in players], supply, [sizes[p] for p in players])
    return dict(zip(players, rows))


#: The belief of a rule personality: the model its FollowOdds computes with.
UNIFORM = "uniform deal of the unseen cards (the model of FollowOdds)"
#: A search's belief when it had nothing to search.
FORCED = "no search (the only legal action): a uniform deal of the unseen cards"


def uniform_belief(world: Any, observer: int, method: str = UNIFORM) -> Belief | None:
    """Every card `observer` has not seen, spread over the others in proportion to their hand sizes.

    `world` is any determinization of `observer`'s information set: together, the others' hands in
    it are exactly the cards the observer has not seen, whoever holds which.
    """
    if not world.capabilities.holdings:
        return None
    held = world.holdings()
    labels, rows = held
    others = [p for p in range(len(rows)) if p != observer]
    sizes = {p: sum(rows[p]) for p in others}
    total = sum(sizes.values())
    unseen = [sum(rows[p][i] for p in others) for i in range(len(labels))]
    expected = {p: [u * sizes[p] / total if total else 0.0 for u in unseen] for p in others}
    at_least = {p: [_hypergeometric_tail(total, u, sizes[p]) for u in unseen] for p in others}
    return make_belief(observer, method, 0, labels, expected, sizes, at_least)


def _hypergeometric_tail(total: int, kind: int, drawn: int) -> list[float]:
    """The chances that `drawn` cards dealt at random from `total`, `kind` of them of one kind, hold
    at least 1, 2, ... `kind` of it."""
    if not total or not kind:
        return []
    chance = [comb(kind, j) * comb(total - kind, drawn - j) / comb(total, drawn) if j <= drawn else 0.0
              for j in range(kind + 1)]
    return [sum(chance[k:]) for k in range(1, kind + 1)]


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
    return _right(belief, truth, lambda h: h.expected)


def guessed_right(belief: Belief, truth: Holdings) -> tuple[float, int]:
    """The same count for the likeliest hands: `min(guessed, true count)`."""
    return _right(belief, truth, lambda h: h.likeliest)


def _right(belief: Belief, truth: Holdings, counts) -> tuple[float, int]:
    """(sum over opponents and kinds of `min(counts(hand)[kind], true count)`, the opponents' cards)."""
    labels, rows = truth
    right, total = 0.0, 0
    for h in belief.hands:
        held = dict(counts(h))
        row = rows[h.player]
        total += sum(row)
        right += sum(min(held.get(label, 0), n) for label, n in zip(labels, row) if label)
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
