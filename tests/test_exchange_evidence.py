"""The exchange's evidence: a world's likelihood given the gifts before the round (`president.game.exchange_evidence`)."""
from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from president.agents.bots import make_bot
from president.game.exchange_evidence import ExchangeEvidence, pair_weight
from president.game.inference import ModelEvidence
from president.game.settings import preset
from president.game.state import Phase, PresidentState


def counts(values) -> list[int]:
    row = [0] * 17
    for v in values:
        row[v] += 1
    return row


def exchanged(high: list[int], low: list[int], k: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The hands after an exchange as the rules make it: the Loser's highest cards up, then the
    President's lowest (once it holds the Loser's gift) down; None when the President hands a card
    of the gift straight back (all its own cards were higher: the evidence leaves that out)."""
    low = sorted(low)
    gift, low = low[-k:], low[:-k]
    high = sorted(high + gift)
    back, high = high[:k], high[k:]
    if set(back) & set(gift):
        return None
    return tuple(high), tuple(sorted(low + back))


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(3, 16), min_size=10, max_size=10, unique=True), st.sampled_from([1, 2]))
def test_the_weight_counts_the_deals_an_exchange_turns_into_the_hands(cards, k):
    """With distinct values every deal is one way: the weight of a pair of hands (the gifts being the
    lowest cards) is exactly how many deals of these cards the exchange turns into them, and a pair
    of hands no exchange can make weighs nothing (gifts handed straight back aside)."""
    import president.game.exchange_evidence as module

    made = Counter(exchanged([cards[i] for i in idx], [c for i, c in enumerate(cards) if i not in idx], k)
                   for idx in itertools.combinations(range(10), 5))
    saved, module.MIX = module.MIX, 0.0
    try:
        for idx in itertools.combinations(range(10), 5):
            high = tuple(sorted(cards[i] for i in idx))
            low = tuple(sorted(c for i, c in enumerate(cards) if i not in idx))
            assert pair_weight(counts(high), counts(low), k) == made[(high, low)]
    finally:
        module.MIX = saved


def test_a_president_without_the_best_cards_is_nearly_impossible():
    """The Loser handed over its two best: a President left with nothing above the Loser's best, and
    still holding cards below the ones it gave back, keeps only the share of an unusual gift."""
    likely = pair_weight(counts([9, 10, 14, 15, 16]), counts([3, 4, 5, 7, 8]), 2)
    unlikely = pair_weight(counts([3, 4, 5, 7, 8]), counts([9, 10, 14, 15, 16]), 2)
    assert likely >= 1 and unlikely < 0.05 * likely


def rounds_played(seed: int, bots: tuple[str, ...], rounds: int = 2) -> list[PresidentState]:
    """Positions of the play phase in the rounds after the first."""
    state = PresidentState.new_match(dataclasses.replace(preset("classic"), rounds=rounds), seed)
    agents, rng, found = [make_bot(b) for b in bots], random.Random(seed), []
    while not state.is_terminal():
        if state.round_no > 0 and state.phase is Phase.PLAY and len(state.history) % 7 == 3:
            found.append(state.clone())
        p = state.current_player()
        state.apply(agents[p].choose(state.observation(p), state.legal_actions(), rng))
    return found


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000))
def test_the_true_hands_are_always_possible_among_personalities(seed):
    """Every rule personality gives its lowest cards, so the true hands come out of the exchange as
    the evidence assumes: at every seat, for every position, they keep some weight with no share
    at all for unusual gifts."""
    import president.game.exchange_evidence as module

    saved, module.MIX = module.MIX, 0.0
    try:
        for state in rounds_played(seed, ("Classic", "Expert", "Cautious", "Expert", "Classic")):
            for seat in range(state.num_players):
                evidence = ExchangeEvidence(state.observation(seat).sample_state(random.Random(0)), seat)
                assert 0 < evidence.weight(state) <= 1
    finally:
        module.MIX = saved


def test_the_evidence_reads_only_the_seat_s_information():
    """Built from any world of a seat's information set, the evidence weighs a world the same: it reads
    the gifts of the seat's own pair and the public course of the round, nothing else."""
    for state in rounds_played(3, ("Classic",) * 5)[:4]:
        for seat in range(state.num_players):
            obs = state.observation(seat)
            a, b = (ExchangeEvidence(obs.sample_state(random.Random(i)), seat) for i in (1, 2))
            world = obs.sample_state(random.Random(3))
            assert a.weight(world) == b.weight(world) == ExchangeEvidence(state, seat).weight(world)


def test_the_first_round_has_no_exchange_to_weigh():
    state = PresidentState.new_match(preset("classic"), 5)
    assert not ExchangeEvidence(state, 0)
    assert ModelEvidence(state, 0, 0.05, make_bot("Classic")).exchange is not None
