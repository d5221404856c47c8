"""A cheap hand-tuned playout policy for President, and the model of play inference reads.

Random rollouts make every simulated opponent split pairs, throw twos on
threes and pass for no reason, so a search values its moves against players
nobody meets. `greedy_playout` plays the way people (and the shipped
personalities) roughly do, at about the cost of a random rollout:

- go out when a play empties the hand;
- lead the weakest whole set held (never a two or a joker while something else is left);
- follow with the weakest set that beats the upcards without splitting a
  bigger set and without a two or a joker, else pass (a player with three
  cards or fewer also spends them: it is about to go out);
- with probability `epsilon`, any legal move instead (the rollouts stay varied).

`cheap_answer` is the same following rule as a question about a hand: would
this policy have answered these upcards? `inference.py` asks it of every
observed pass.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence

from president.game.cards import JOKER, TWO
from president.game.legality import legal_plays

if TYPE_CHECKING:
    from president.game.state import PresidentState

#: Default share of uniformly random moves in a greedy playout.
EPSILON = 0.1
#: At this many cards or fewer a player spends twos and splits sets to go out.
SHORT_HAND = 3


def _strength(value: int, reversed_: bool) -> int:
    """Order of values for "weakest first": jokers always strongest, the rest by the table's direction."""
    if value == JOKER:
        return 100
    return -value if reversed_ else value


def greedy_choice(state: "PresidentState", plays: Sequence, rng: random.Random, epsilon: float = EPSILON):
    """The policy's play among `plays` (the current player's legal plays, in the play phase)."""
    rand = rng.random
    if rand() < epsilon:
        return plays[int(rand() * len(plays))]
    p = state.current
    size, counts, rev = state.sizes[p], state.counts[p], state.reversed
    short = size <= SHORT_HAND
    high = (JOKER, 3 if rev else TWO)  # the cards worth keeping
    best, best_key, pass_ = None, 999, None
    for play in plays:
        count = play.count
        if not count:
            pass_ = play  # following: passing is allowed
            continue
        if count == size:
            return play  # going out ends every question (legal_plays already forbids a foul finish)
        value = play.value
        if short or (counts[value] == count and value not in high and not play.jokers):
            key = _strength(value, rev)
            if key < best_key:
                best, best_key = play, key
    if best is not None:
        return best
    if pass_ is not None:
        return pass_
    return min(plays, key=lambda a: _strength(a.value, rev))  # a lead with only twos and jokers left


def greedy_playout(state: "PresidentState", rng: random.Random, epsilon: float = EPSILON) -> int:
    """Play `state` to its end by the greedy policy; returns the number of actions (in place)."""
    from president.game.state import Phase

    steps, play = 0, state._play
    while state.phase is not Phase.OVER:
        if state.phase is Phase.PLAY:
            play(greedy_choice(state, legal_plays(state), rng, epsilon))
        else:  # an exchange past the end of a round: give the lowest cards
            state.apply(state.legal_actions()[0])
        steps += 1
    return steps


def cheap_answer(counts: Sequence[int], size: int, need: int, top: int, reversed_: bool, equal: bool) -> bool:
    """Would the greedy policy (without its random moves) answer upcards of `need` x `top` from this hand?"""
    if top == JOKER:
        return False
    short = size <= SHORT_HAND
    values = range(3, top + (1 if equal else 0)) if reversed_ else range(top + (0 if equal else 1), 16)
    high = 3 if reversed_ else TWO
    for v in values:
        n = counts[v]
        if n == need or (short and n >= need):
            if v != high or short:
                return True
    return need == 1 and short and counts[JOKER] > 0
