"""The likeliest hands: one guess of every opponent's cards that a belief expects to get most cards right.

A belief gives, per opponent and kind of card, the chances of holding at least
1, 2, ... cards of that kind. Guessing that an opponent holds `a` cards of a
kind gets `min(a, true count)` of them right, whose expectation is the sum of
those chances up to `a`; so each further card guessed is worth less than the
one before (the chances fall). The best guess is then a transport problem:
every unseen card of each kind goes to some opponent, every opponent gets
exactly its hand size, and the summed worth is the largest. It is solved
exactly as a min-cost flow by successive shortest paths (Bellman-Ford: the
worths are costs below zero); the graph is a kind per card value and an
opponent per seat, so a few dozen augmentations of a graph of some twenty
nodes. Ties go to the earlier opponent and kind, so the guess is the same in
any process.
"""
from __future__ import annotations

from typing import Sequence

#: Worth below this is taken as equal (the chances are averages of at most millions of worlds).
_EPSILON = 1e-12


def best_guess(at_least: Sequence[Sequence[Sequence[float]]], supply: Sequence[int],
               demand: Sequence[int]) -> list[list[int]]:
    """`at_least[o][i]`: opponent o's chances of holding at least 1, 2, ... cards of kind i;
    `supply[i]`: the unseen cards of kind i; `demand[o]`: opponent o's hand size (the totals agree).
    Returns the guessed count of each kind for each opponent, as rows."""
    kinds, people = len(supply), len(demand)
    if sum(supply) != sum(demand):
        raise ValueError(f"{sum(supply)} unseen cards for hands of {sum(demand)} cards in all")
    source, sink = kinds + people, kinds + people + 1
    # arcs as parallel lists: head, residual capacity, cost; arc j's reverse is j ^ 1
    head: list[int] = []
    room: list[int] = []
    cost: list[float] = []
    out: list[list[int]] = [[] for _ in range(kinds + people + 2)]

    def arc(a: int, b: int, capacity: int, price: float) -> int:
        for frm, to, cap, pr in ((a, b, capacity, price), (b, a, 0, -price)):
            out[frm].append(len(head))
            head.append(to)
            room.append(cap)
            cost.append(pr)
        return len(head) - 2

    copies: dict[int, tuple[int, int]] = {}  # arc -> (opponent, kind) of one more card guessed
    for i in range(kinds):
        if supply[i]:
            arc(source, i, supply[i], 0.0)
            for o in range(people):
                chances = at_least[o][i] if i < len(at_least[o]) else ()
                for k in range(min(supply[i], demand[o])):
                    copies[arc(i, kinds + o, 1, -(chances[k] if k < len(chances) else 0.0))] = (o, i)
    for o in range(people):
        if demand[o]:
            arc(kinds + o, sink, demand[o], 0.0)
    nodes = kinds + people + 2
    for _ in range(sum(demand)):  # each augmentation carries at least one card
        far = [float("inf")] * nodes
        via = [-1] * nodes
        far[source] = 0.0
        for _ in range(nodes):  # Bellman-Ford: no cycle of negative cost is left by shortest paths
            changed = False
            for a in range(nodes):
                if far[a] == float("inf"):
                    continue
                for j in out[a]:
                    if room[j] and far[a] + cost[j] < far[head[j]] - _EPSILON:
                        far[head[j]], via[head[j]] = far[a] + cost[j], j
                        changed = True
            if not changed:
                break
        if via[sink] < 0:
            break
        push, node = sum(demand), sink
        while node != source:
            push, node = min(push, room[via[node]]), head[via[node] ^ 1]
        node = sink
        while node != source:
            room[via[node]] -= push
            room[via[node] ^ 1] += push
            node = head[via[node] ^ 1]
    guess = [[0] * kinds for _ in range(people)]
    for j, (o, i) in copies.items():
        if not room[j]:
            guess[o][i] += 1
    return guess
