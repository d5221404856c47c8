"""Unit tests of every rule and every setting of the native President engine.

The rules are those of `docs/president-rules.md`; where it is silent, the tests
pin the semantics the engine documents (see `president/game/state.py`). Positions
are built from explicit deals: the named seats hold exactly the cards listed
and one seat (`REST`) holds the rest of the pack, so hands may be as small as
a test needs.
"""
from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from president.game.cards import (JOKER, PASS, TWO, VALUES, Card, Give, Play, cards_text, parse_action,
                             parse_cards, parse_value, play_of, value_text)
from president.game.layout import layout
from president.game.observation import (LOSER, NEUTRAL, PRESIDENT, VICE_LOSER, VICE_PRESIDENT,
                                   rank_of_place)
from president.game.settings import (PRESETS, EqualValue, FirstLeader, JokerMode, LaterLeader, Settings,
                                SettingsError, parse_assignments, preset)
from president.game.state import Phase, PresidentState
from recycle.kernel.protocol import TERMINAL, ActionParseError, GameError, IllegalAction

REST = None  # the seat that receives every card not named in a deal


# ---------------------------------------------------------------- helpers
def table(**changes) -> Settings:
    """A one-round classic table with some settings changed."""
    return replace(preset("classic"), **{"rounds": 1, **changes})


def deal(settings: Settings, *hands: str | None) -> list[list[Card]]:
    lay = layout(settings.decks, settings.jokers)
    rest = [c for c in lay.cards if c is not None]
    named = [None if h is REST else parse_cards(h) for h in hands]
    assert sum(h is None for h in named) == 1, "exactly one seat takes the rest of the pack"
    for hand in named:
        for card in hand or ():
            rest.remove(card)
    return [rest if h is None else h for h in named]


def start(settings: Settings, *hands: str | None, seed: int = 0) -> PresidentState:
    assert len(hands) == settings.players
    return PresidentState.new_match(settings, seed, deal(settings, *hands))


def act(state: PresidentState, *texts: str) -> PresidentState:
    """Apply actions given as text, checking each is offered as legal first."""
    for text in texts:
        action = parse_action(text)
        assert action in state.legal_actions(), f"{text!r} not legal for seat {state.current_player()}"
        state.apply(action)
    return state


def snapshot(state: PresidentState) -> dict:
    return {name: copy.deepcopy(getattr(state, name))
            for name in PresidentState.__slots__ if name not in ("lay", "settings")}


def illegal(state: PresidentState, action, rule: str) -> IllegalAction:
    """`action` is refused for `rule`, and the state is left exactly as it was."""
    if isinstance(action, str):
        action = parse_action(action)
    before = snapshot(state)
    if isinstance(action, Play):
        assert not state.is_legal(action)
        assert action not in state.legal_actions()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert err.value.rule == rule, str(err.value)
    assert snapshot(state) == before
    return err.value


def plays(*texts: str) -> set:
    return {parse_action(t) for t in texts}


def values_of(cards) -> list[int]:
    return [c.value for c in cards]


def quick_round(settings: Settings, seed: int = 0) -> PresidentState:
    """Seats 0..n-2 hold one card each (3c, 4c, ...), the last seat the rest:
    they go out in seat order, so places are 1..n by seat."""
    n = settings.players
    hands = [f"{value_text(3 + i)}c" for i in range(n - 1)] + [REST]
    state = start(settings, *hands, seed=seed)
    for i in range(n - 1):
        act(state, value_text(3 + i))
    return state


def first_legal_playout(state: PresidentState, limit: int = 100_000) -> None:
    for _ in range(limit):
        if state.is_terminal():
            return
        state.apply(state.legal_actions()[0])
    raise AssertionError("the match did not end")


# ---------------------------------------------------------------- the deal
def test_random_deal_uses_the_whole_pack_and_extra_cards_go_from_the_dealers_left():
    state = PresidentState.new_match(table(), seed=11)
    assert state.dealer() == 4
    assert state.sizes == [11, 11, 10, 10, 10]
    union = 0
    for m in state.masks:
        assert union & m == 0
        union |= m
    assert union == state.lay.full and state.played == 0
    assert [len(state.hand(p)) for p in range(5)] == state.sizes


def test_random_deal_two_decks_and_jokers_seven_players():
    state = PresidentState.new_match(table(players=7, decks=2, jokers=4), seed=3)
    assert sum(state.sizes) == 108 == state.settings.deck_size
    assert state.sizes == [16, 16, 16, 15, 15, 15, 15]
    cards = sorted(c for p in range(7) for c in state.hand(p))
    assert cards.count(Card(JOKER, "")) == 4
    assert cards.count(Card(7, "h")) == 2


def test_same_seed_same_deal_other_seed_other_deal():
    a = PresidentState.new_match(table(), seed=5)
    b = PresidentState.new_match(table(), seed=5)
    c = PresidentState.new_match(table(), seed=6)
    assert a.masks == b.masks
    assert a.masks != c.masks


def test_dealer_moves_left_each_round():
    state = quick_round(table(rounds=2, exchange_big=0, exchange_small=0))
    assert state.round_no == 1 and state.phase is Phase.PLAY
    assert state.dealer() == 0
    assert state.sizes == [10, 11, 11, 10, 10]


def test_explicit_deal_must_be_the_whole_pack_once():
    s = table(players=3)
    with pytest.raises(GameError):
        PresidentState.new_match(s, 0, deal(s, "3c", REST, "4c")[:2])  # two hands for three seats
    hands = deal(s, "3c", "4c", REST)
    with pytest.raises(GameError):
        PresidentState.new_match(s, 0, [hands[0], hands[1], hands[2][1:]])  # a card missing
    with pytest.raises(GameError):
        PresidentState.new_match(s, 0, [hands[0] + [Card(5, "h")], hands[1], hands[2]])  # given twice
    with pytest.raises((GameError, ValueError)):
        PresidentState.new_match(s, 0, [hands[0] + [Card(JOKER, "")], hands[1], hands[2]])  # no jokers


@pytest.mark.parametrize("decks, jokers, card", [(2, 0, "7h"), (1, 2, "Jk"), (2, 4, "Jk")])
def test_explicit_deal_may_split_the_copies_of_a_card(decks, jokers, card):
    s = table(players=3, decks=decks, jokers=jokers)
    state = start(s, f"3c {card}", f"4c {card}", REST)
    assert state.hand(0) == parse_cards(f"3c {card}") and state.hand(1) == parse_cards(f"4c {card}")
    assert state.masks[0] & state.masks[1] == 0
    assert sum(state.sizes) == s.deck_size


def test_explicit_deal_refuses_a_third_copy():
    s = table(players=3, decks=2)
    with pytest.raises(GameError):
        PresidentState.new_match(s, 0, [parse_cards("7h 7h"), parse_cards("7h"), _full_pack(2, 0)])


# ---------------------------------------------------------------- first lead
def test_holder_of_three_of_clubs_leads_first_and_may_lead_anything():
    state = start(table(players=4), REST, "4c 9d Kh", "3c 7h 7s Ad", "5c")
    assert state.phase is Phase.PLAY and state.current_player() == 2
    assert set(state.legal_actions()) == plays("3", "7", "7 7", "A")
    act(state, "A")  # the 3 of clubs need not be led
    assert state.current_player() == 3
    assert state.upcards == play_of(14, 1)


def test_first_leader_left_of_dealer():
    state = start(table(players=4, first_leader=FirstLeader.LEFT_OF_DEALER), REST, "4c", "3c 7h", "5c")
    assert state.dealer() == 3
    assert state.current_player() == 0


def test_leader_cannot_pass():
    state = start(table(players=3), "3c 5c", "4c", REST)
    illegal(state, PASS, "lead")
    assert PASS not in state.legal_actions()


# ---------------------------------------------------------------- following
def test_follow_with_the_same_count_of_a_higher_value():
    state = start(table(players=3, equal_value=EqualValue.NO), "3c 5c 5d", "4c 4d 7h 7s 9c Kd", REST)
    act(state, "5 5")
    assert set(state.legal_actions()) == plays("7 7", "pass")
    illegal(state, "7", "same-count")
    illegal(state, "4 4", "beat")
    illegal(state, "9 9", "hold")
    illegal(state, "7 7 7", "hold")
    act(state, "7 7")
    assert state.upcards == play_of(7, 2) and state.current_player() == 2


def test_pass_is_recorded_and_turn_moves_on():
    state = start(table(players=3), "3c 5c", "4c", REST)
    act(state, "5", "pass")
    assert state.history == [(0, play_of(5, 1)), (1, PASS)]
    assert state.current_player() == 2


# ---------------------------------------------------------------- equal value
EQUAL_HANDS = ("3c 7c 9c", "7d 8d", REST, "4h 6h")


def test_equal_value_skip_skips_the_next_player():
    state = start(table(players=4), *EQUAL_HANDS)
    act(state, "7")
    assert set(state.legal_actions()) == plays("7", "8", "pass")
    act(state, "7")
    assert state.history[-2:] == [(1, play_of(7, 1)), (2, None)]
    assert state.current_player() == 3
    act(state, "pass", "pass")  # seats 3 and 0; the skipped seat 2 gets no turn
    assert state.upcards is None and state.current_player() == 1


def test_equal_value_allow_does_not_skip():
    state = start(table(players=4, equal_value=EqualValue.ALLOW), *EQUAL_HANDS)
    act(state, "7", "7")
    assert None not in [a for _, a in state.history]
    assert state.current_player() == 2


def test_equal_value_no_forbids_matching():
    state = start(table(players=4, equal_value=EqualValue.NO), *EQUAL_HANDS)
    act(state, "7")
    assert set(state.legal_actions()) == plays("8", "pass")
    illegal(state, "7", "equal-value")


def test_equal_value_skip_jumps_over_locked_players():
    state = start(table(players=4, pass_locks=True), "3c 5c 7c", "9d", REST, "7h Kh")
    act(state, "5", "pass", "6", "7", "7")  # seat 1 is locked: the skip lands on seat 2
    assert state.history[-1] == (2, None)
    assert state.current_player() == 3


def test_equal_value_skip_of_the_last_waiting_player_ends_the_trick():
    state = start(table(players=3, pass_locks=True), "3c 5c 9c", "Kd", REST)
    act(state, "5", "pass", "5")  # seat 1 locked, seat 0 skipped: nobody may answer
    assert state.history[-1] == (0, None)
    assert state.upcards is None and state.current_player() == 2


# ---------------------------------------------------------------- twos
def test_a_two_ends_the_trick_and_its_player_leads():
    state = start(table(players=3), "3c 9c", "2c 5c", REST)
    act(state, "9", "2")
    assert state.upcards is None and state.current_player() == 1
    assert PASS not in state.legal_actions()


def test_a_pair_of_twos_ends_the_trick():
    state = start(table(players=3), "3c 9c 9d", "2c 2d 5c", REST)
    act(state, "9 9", "2 2")
    assert state.upcards is None and state.current_player() == 1


def test_twos_do_not_end_the_trick_when_the_setting_is_off():
    state = start(table(players=3, twos_end_trick=False), "3c 9c", "2c 5c", REST)
    act(state, "9", "2")
    assert state.upcards == play_of(TWO, 1) and state.current_player() == 2
    assert set(state.legal_actions()) == plays("2", "pass")  # only an equal two remains
    act(state, "pass", "pass")
    assert state.upcards is None and state.current_player() == 1


# ---------------------------------------------------------------- pass lock-out and trick end
LOCK_HANDS = ("3c 5c 7c", "6d 8d", REST)


def test_trick_ends_when_everyone_else_has_passed():
    state = start(table(players=3), *LOCK_HANDS)
    act(state, "5", "pass", "pass")
    assert state.upcards is None and state.current_player() == 0


def test_pass_does_not_lock_out_by_default():
    state = start(table(players=3), *LOCK_HANDS)
    act(state, "5", "pass", "6", "7")
    assert state.current_player() == 1
    assert play_of(8, 1) in state.legal_actions()
    act(state, "8")


def test_pass_locks_out_until_the_trick_ends():
    state = start(table(players=3, pass_locks=True), *LOCK_HANDS)
    act(state, "5", "pass", "6", "7")
    assert state.current_player() == 2  # seat 1 passed earlier in this trick
    act(state, "pass")
    assert state.upcards is None and state.current_player() == 0
    act(state, "3")
    assert play_of(6, 1) in state.legal_actions()  # a new trick: seat 1 may play again


def test_trick_goes_on_until_all_declined_since_the_last_play():
    free = start(table(players=3), *LOCK_HANDS)
    act(free, "5", "pass", "6", "pass")
    assert free.upcards == play_of(6, 1) and free.current_player() == 1
    locked = start(table(players=3, pass_locks=True), *LOCK_HANDS)
    act(locked, "5", "pass", "6", "pass")
    assert locked.upcards is None and locked.current_player() == 2


# ---------------------------------------------------------------- going out, next leader
def test_when_the_last_player_went_out_the_next_player_in_leads():
    state = start(table(players=4), "3c 5c", "6c", REST, "4d 7d")
    act(state, "5", "6")
    assert state.places == [0, 1, 0, 0] and state.sizes[1] == 0
    assert state.current_player() == 2
    act(state, "pass", "pass", "pass")
    assert state.upcards is None and state.current_player() == 2


def test_going_out_on_a_two_passes_the_lead_on():
    state = start(table(players=4), "3c 5c", "2c", REST, "4d")
    act(state, "5", "2")
    assert state.places[1] == 1
    assert state.upcards is None and state.current_player() == 2


def test_lead_skips_every_seat_already_out():
    state = start(table(players=4), "3c 9c", "5c", REST, "4d 6d Td")
    act(state, "3", "5", "pass", "pass", "9")  # seat 1 out first, then seat 0
    assert state.places == [2, 1, 0, 0]
    act(state, "pass", "pass")
    assert state.upcards is None and state.current_player() == 2
    assert state.still_in() == [2, 3]


# ---------------------------------------------------------------- round end, places, points
@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_places_and_points(players, decks):
    s = table(players=players, decks=decks)
    hands = [" ".join([f"{value_text(3 + i)}c"] * decks) for i in range(players - 1)] + [REST]
    state = start(s, *hands)
    for i in range(players - 1):
        act(state, " ".join([value_text(3 + i)] * decks))
    assert state.round_log == [tuple(range(1, players + 1))]
    assert state.scores == [players - place for place in range(1, players + 1)]
    assert state.phase is Phase.OVER and state.is_terminal()
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    results = state.results()
    assert results.ranks == tuple(range(1, players + 1))
    assert results.scores == tuple(float(players - p) for p in range(1, players + 1))


@pytest.mark.parametrize("players, titles", [
    (3, [PRESIDENT, NEUTRAL, LOSER]),
    (4, [PRESIDENT, VICE_PRESIDENT, VICE_LOSER, LOSER]),
    (5, [PRESIDENT, VICE_PRESIDENT, NEUTRAL, VICE_LOSER, LOSER]),
    (6, [PRESIDENT, VICE_PRESIDENT, NEUTRAL, NEUTRAL, VICE_LOSER, LOSER]),
    (7, [PRESIDENT, VICE_PRESIDENT, NEUTRAL, NEUTRAL, NEUTRAL, VICE_LOSER, LOSER]),
])
def test_ranks_of_places(players, titles):
    assert [rank_of_place(place, players) for place in range(1, players + 1)] == titles


def test_results_before_the_end_is_an_error():
    state = start(table(players=3), "3c", "4c", REST)
    with pytest.raises(GameError):
        state.results()


# ---------------------------------------------------------------- match length
def test_match_ends_after_the_set_number_of_rounds():
    state = quick_round(table(players=4, rounds=3))
    assert state.round_no == 1 and not state.is_terminal()
    first_legal_playout(state)
    assert len(state.round_log) == 3 and state.round_no == 3
    for places in state.round_log:
        assert sorted(places) == [1, 2, 3, 4]
    assert state.scores == [sum(4 - r[p] for r in state.round_log) for p in range(4)]


def test_match_ends_at_the_target_score():
    state = quick_round(table(players=3, rounds=0, target_score=7))
    first_legal_playout(state)
    totals = [0, 0, 0]
    for i, places in enumerate(state.round_log):
        assert max(totals) < 7, f"the match went on after round {i}"
        totals = [t + 3 - p for t, p in zip(totals, places)]
    assert totals == state.scores and max(totals) >= 7


def test_target_score_ends_before_the_round_count():
    state = quick_round(table(players=3, rounds=10, target_score=2))
    assert state.is_terminal() and len(state.round_log) == 1


def test_round_count_ends_before_the_target_score():
    state = quick_round(table(players=3, rounds=2, target_score=100))
    first_legal_playout(state)
    assert len(state.round_log) == 2


def test_results_ranks_follow_scores_with_ties_shared():
    state = quick_round(table(players=3, rounds=2))
    first_legal_playout(state)
    results = state.results()
    for p in range(3):
        assert results.ranks[p] == 1 + sum(other > state.scores[p] for other in state.scores)


# ---------------------------------------------------------------- exchange
def _expect_exchange(state: PresidentState, giver: int, receiver: int, count: int) -> None:
    gift = next(m for g, r, m in state.gifts if (g, r) == (giver, receiver))
    given = state.lay.card_list(gift)
    assert len(given) == count
    assert state.masks[receiver] & gift == gift
    lowest = min(values_of(given))
    assert all(v <= lowest for v in values_of(state.hand(giver))), "the forced gift must be the highest cards"


@pytest.mark.parametrize("big, small", [(2, 1), (1, 0), (0, 0), (3, 1), (2, 2)])
def test_exchange_counts_five_players(big, small):
    state = quick_round(table(rounds=2, exchange_big=big, exchange_small=small))
    assert state.round_no == 1
    forced = [(4, 0, big)] + ([(3, 1, small)] if small else [])
    forced = [f for f in forced if f[2]]
    assert [(g, r, m.bit_count()) for g, r, m in state.gifts] == forced
    for giver, receiver, count in forced:
        _expect_exchange(state, giver, receiver, count)
    assert state.pending == [(r, g, c) for g, r, c in forced]
    for giver, receiver, count in state.pending[:]:
        assert state.phase is Phase.EXCHANGE and state.current_player() == giver
        gifts = state.legal_actions()
        assert gifts and all(isinstance(g, Give) and len(g.values) == count for g in gifts)
        assert len(set(gifts)) == len(gifts)
        give = Give(tuple(values_of(state.hand(giver)[:count])))  # the lowest cards
        assert give in gifts
        before_receiver = state.counts[receiver][:]
        before_size = state.sizes[giver]
        state.apply(give)
        assert state.history[-1] == (giver, give)
        assert state.sizes[giver] == before_size - count
        for v in set(give.values):
            assert state.counts[receiver][v] == before_receiver[v] + give.values.count(v)
    assert state.phase is Phase.PLAY
    assert state.current_player() == 4  # the Loser leads
    assert state.sizes == [10, 11, 11, 10, 10]  # everyone is back to the dealt size


def test_exchange_three_players_has_no_vice_ranks():
    state = quick_round(table(players=3, rounds=2, exchange_big=2, exchange_small=1))
    assert [(g, r) for g, r, _ in state.gifts] == [(2, 0)]
    _expect_exchange(state, 2, 0, 2)
    assert state.pending == [(0, 2, 2)]
    state.apply(state.legal_actions()[0])
    assert state.phase is Phase.PLAY and state.current_player() == 2


def test_exchange_errors():
    state = quick_round(table(rounds=2))
    assert state.phase is Phase.EXCHANGE and state.current_player() == 0
    illegal(state, Give((3,)), "exchange-count")
    illegal(state, Give((3, 3, 3)), "exchange-count")
    missing = next(v for v in VALUES if state.counts[0][v] == 0)
    illegal(state, Give((missing, missing)), "hold")
    illegal(state, PASS, "phase")
    illegal(state, play_of(missing, 1), "phase")
    assert not state.is_legal(PASS)
    while state.phase is Phase.EXCHANGE:
        state.apply(state.legal_actions()[0])
    illegal(state, Give((3, 4)), "exchange")


@pytest.mark.parametrize("later, leader", [(LaterLeader.LOSER, 4), (LaterLeader.PRESIDENT, 0)])
@pytest.mark.parametrize("exchange", [(0, 0), (2, 1)])
def test_later_leader(later, leader, exchange):
    big, small = exchange
    state = quick_round(table(rounds=2, later_leader=later, exchange_big=big, exchange_small=small))
    while state.phase is Phase.EXCHANGE:
        state.apply(state.legal_actions()[-1])
    assert state.phase is Phase.PLAY and state.current_player() == leader
    assert state.upcards is None and PASS not in state.legal_actions()


# ---------------------------------------------------------------- revolution
REVOLUTION_HANDS = ("3c 6c 6d 6h 6s 9c", "5c 5d 5h 5s 7c 7d 7h 7s", REST)


def test_four_of_a_kind_starts_a_revolution():
    state = start(table(players=3, revolution=True), *REVOLUTION_HANDS)
    act(state, "6 6 6 6")
    assert state.reversed
    assert set(state.legal_actions()) == plays("5 5 5 5", "pass")
    illegal(state, "7 7 7 7", "beat")
    act(state, "5 5 5 5")  # a second revolution restores the order
    assert not state.reversed
    assert play_of(8, 4) in state.legal_actions() and play_of(4, 4) not in state.legal_actions()


def test_no_revolution_when_off():
    state = start(table(players=3), *REVOLUTION_HANDS)
    act(state, "6 6 6 6")
    assert not state.reversed
    assert set(state.legal_actions()) == plays("7 7 7 7", "pass")
    illegal(state, "5 5 5 5", "beat")


def test_three_of_a_kind_is_no_revolution():
    state = start(table(players=3, revolution=True), *REVOLUTION_HANDS)
    act(state, "6 6 6")
    assert not state.reversed


def test_five_of_a_kind_with_two_decks_is_a_revolution():
    state = start(table(players=3, decks=2, revolution=True), "3c 3c 6c 6c 6d 6d 6h 6h", "4c 4c", REST)
    act(state, "6 6 6 6 6")
    assert state.reversed


def test_reversed_order_lower_beats_higher_and_threes_end_the_trick():
    state = start(table(players=3, revolution=True), "3c 6c 6d 6h 6s 9c", "3d 2c Kc", REST)
    act(state, "6 6 6 6", "pass", "pass", "9")
    assert set(state.legal_actions()) == plays("3", "pass")
    illegal(state, "K", "beat")
    illegal(state, "2", "beat")
    act(state, "3")
    assert state.upcards is None and state.current_player() == 1  # the 3 is on top now
    act(state, "2")
    assert state.upcards == play_of(TWO, 1) and state.current_player() == 2  # a two no longer ends it


def test_revolution_ends_with_the_round():
    s = table(players=3, rounds=2, revolution=True, exchange_big=0, exchange_small=0)
    state = start(s, "3c 6c 6d 6h 6s", "4c", REST)
    act(state, "6 6 6 6", "pass", "pass")
    assert state.reversed
    act(state, "3", "4")
    assert state.round_no == 1 and state.phase is Phase.PLAY
    assert not state.reversed


def test_four_twos_end_the_trick_even_when_they_start_a_revolution():
    """Whether a play ends the trick is judged in the order it was played in."""
    state = start(table(players=3, revolution=True), "3c 2c 2d 2h 2s", "4c 4d 4h 4s", REST)
    act(state, "2 2 2 2")
    assert state.reversed
    assert state.upcards is None and state.current_player() == 0


def test_four_threes_in_normal_order_do_not_end_the_trick():
    state = start(table(players=3, revolution=True), "3c 3d 3h 3s 9c", "4c 4d 4h 4s", REST)
    act(state, "3 3 3 3")
    assert state.reversed
    assert state.upcards == play_of(3, 4) and state.current_player() == 1
    illegal(state, "4 4 4 4", "beat")  # now the order is reversed: nothing is lower than threes


def test_four_threes_in_reversed_order_end_the_trick_and_restore_the_order():
    s = table(players=3, revolution=True, first_leader=FirstLeader.LEFT_OF_DEALER)
    state = start(s, "6c 6d 6h 6s 9c", "3c 3d 3h 3s 4c", REST)
    act(state, "6 6 6 6")
    assert state.reversed
    act(state, "3 3 3 3")  # the top value when played: ends the trick, and a second revolution
    assert not state.reversed
    assert state.upcards is None and state.current_player() == 1


# ---------------------------------------------------------------- 8-cut
def test_eight_cut_ends_the_trick():
    state = start(table(players=3, eight_cut=True), "3c 5c", "8d 8h 9c", REST)
    act(state, "5", "8")
    assert state.upcards is None and state.current_player() == 1


def test_eight_cut_on_lead_and_in_pairs():
    state = start(table(players=3, eight_cut=True), "3c 8c", "8d 8h 9c", REST)
    act(state, "8")
    assert state.upcards is None and state.current_player() == 0
    act(state, "3", "pass")
    state = start(table(players=3, eight_cut=True), "3c 5c 5d", "8d 8h 9c", REST)
    act(state, "5 5", "8 8")
    assert state.upcards is None and state.current_player() == 1


def test_no_eight_cut_when_off():
    state = start(table(players=3), "3c 5c", "8d 8h 9c", REST)
    act(state, "5", "8")
    assert state.upcards == play_of(8, 1) and state.current_player() == 2


# ---------------------------------------------------------------- jokers
def test_high_joker_beats_any_single_and_ends_the_trick():
    state = start(table(players=3, jokers=1), "3c Ac", "Jk 5d 5h", REST)
    act(state, "A")
    assert play_of(JOKER, 1) in state.legal_actions()
    act(state, "Jk")
    assert state.upcards is None and state.current_player() == 1
    assert state.counts[1][JOKER] == 0 and state.played & state.lay.bit(Card(JOKER, ""))


def test_high_joker_beats_a_two_and_nothing_beats_it():
    state = start(table(players=3, jokers=2, twos_end_trick=False), "3c 2c", "Jk 5d", REST)
    act(state, "2", "Jk")
    assert state.upcards == play_of(JOKER, 1) and state.current_player() == 2
    assert state.counts[2][TWO] == 3 and state.counts[2][JOKER] == 1
    assert state.legal_actions() == [PASS]  # not a two, not the other joker, though equal value is allowed
    illegal(state, "2", "beat")
    illegal(state, "Jk", "beat")
    act(state, "pass", "pass")
    assert state.upcards is None and state.current_player() == 1


@pytest.mark.parametrize("mode", list(JokerMode))
def test_a_joker_cannot_follow_a_joker(mode):
    s = table(players=3, jokers=2, joker_mode=mode, equal_value=EqualValue.ALLOW, twos_end_trick=False)
    state = start(s, "3c Jk", "Jk 5d", REST)
    act(state, "Jk")
    assert state.current_player() == 1 and state.counts[1][JOKER] == 1
    assert state.legal_actions() == [PASS]
    illegal(state, "Jk", "beat")


def test_joker_is_a_single_only():
    state = start(table(players=3, jokers=2), "3c Ac Ad", "Jk Jk 5d", REST)  # both jokers in one hand
    act(state, "A A")
    assert state.legal_actions() == [PASS]
    illegal(state, "Jk", "same-count")
    illegal(state, play_of(JOKER, 2), "jokers")


def test_high_joker_is_not_wild():
    state = start(table(players=3, jokers=1), "3c 5c Jk", "4c", REST)
    assert set(state.legal_actions()) == plays("3", "5", "Jk")
    illegal(state, "5 Jk", "jokers")


WILD = {"jokers": 1, "joker_mode": JokerMode.WILD}


def test_wild_joker_completes_a_set_on_lead():
    state = start(table(players=3, **WILD), "3c 9c Jk", "4c", REST)
    assert set(state.legal_actions()) == plays("3", "3 Jk", "9", "9 Jk", "Jk")
    act(state, "9 Jk")
    assert state.upcards == play_of(9, 2, 1)
    assert state.counts[0][JOKER] == 0 and state.hand(0) == [Card(3, "c")]
    assert state.played & state.lay.bit(Card(JOKER, ""))


def test_wild_joker_completes_a_set_when_following():
    state = start(table(players=3, **WILD), "3c 9c 9d", "Kc Jk 5d", REST)
    act(state, "9 9")
    assert set(state.legal_actions()) == plays("K Jk", "pass")
    illegal(state, "5 Jk", "beat")
    act(state, "K Jk")
    assert state.upcards == play_of(13, 2, 1)
    assert state.hand(1) == [Card(5, "d")]


def test_wild_joker_alone_still_beats_any_single():
    state = start(table(players=3, **WILD), "3c Ac", "Jk 5d", REST)
    act(state, "A")
    assert play_of(JOKER, 1) in state.legal_actions()
    act(state, "Jk")
    assert state.upcards is None and state.current_player() == 1


def test_wild_jokers_are_used_only_for_missing_naturals():
    state = start(table(players=3, jokers=1, joker_mode=JokerMode.WILD), "3c 9c 9d Jk", "4c", REST)
    assert play_of(9, 2, 1) not in state.legal_actions()
    illegal(state, play_of(9, 2, 1), "play")
    illegal(state, "9 Jk Jk", "hold")
    act(state, "9 9 Jk")
    assert state.sizes[0] == 1


def test_wild_set_of_four_is_a_revolution():
    s = table(players=3, jokers=1, joker_mode=JokerMode.WILD, revolution=True)
    state = start(s, "3c 9c 9d 9h Jk", "4c", REST)
    act(state, "9 9 9 Jk")
    assert state.reversed


# ---------------------------------------------------------------- no going out on a two
def test_no_going_out_on_a_two_when_following():
    state = start(table(players=4, no_going_out_on_two=True), "3c Kc", "2c", REST, "4d")
    act(state, "K")
    assert state.legal_actions() == [PASS]
    illegal(state, "2", "no-going-out-on-two")


def test_going_out_on_a_two_is_fine_when_off():
    state = start(table(players=4), "3c Kc", "2c", REST, "4d")
    act(state, "K", "2")
    assert state.places[1] == 1


def test_no_going_out_on_two_forced_foul_takes_the_worst_place():
    state = start(table(players=4, no_going_out_on_two=True), "3c 2c 2d", "4c", REST, "5c")
    act(state, "3", "pass", "pass", "pass")
    assert state.current_player() == 0
    assert state.legal_actions() == [play_of(TWO, 1)]
    illegal(state, "2 2", "no-going-out-on-two")
    act(state, "2")  # the two ends the trick: seat 0 leads again, with nothing but a two
    assert state.legal_actions() == [play_of(TWO, 1)]
    act(state, "2")
    assert state.places == [4, 0, 0, 0]  # the foul: worst free place
    assert state.current_player() == 1
    act(state, "4", "pass", "5")
    assert state.round_log == [(4, 1, 3, 2)]
    assert state.scores == [0, 3, 1, 2]


def test_no_going_out_on_a_joker_forced_foul():
    state = start(table(players=3, jokers=1, no_going_out_on_two=True), "3c Jk", "4c", REST)
    act(state, "3", "pass", "pass")
    assert state.legal_actions() == [play_of(JOKER, 1)]
    act(state, "Jk")
    assert state.places == [3, 0, 0]
    act(state, "4")
    assert state.round_log == [(3, 1, 2)]


def test_no_going_out_with_a_wild_joker():
    s = table(players=3, jokers=1, joker_mode=JokerMode.WILD, no_going_out_on_two=True)
    state = start(s, "3c 9c Jk", "4c", REST)
    act(state, "3", "pass", "pass")
    assert set(state.legal_actions()) == plays("9", "Jk")
    illegal(state, "9 Jk", "no-going-out-on-two")


def test_normal_finish_takes_the_best_place_with_no_going_out_on_two():
    state = start(table(players=3, no_going_out_on_two=True), "3c 9c", "4c", REST)
    act(state, "3", "pass", "pass", "9")
    assert state.places == [1, 0, 0]


# ---------------------------------------------------------------- other refusals
def test_non_action_and_phase_over():
    state = start(table(players=3), "3c", "4c", REST)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply("3")  # text is not an action object
    assert err.value.rule == "action" and snapshot(state) == before
    act(state, "3", "4")
    assert state.is_terminal()
    illegal(state, PASS, "phase")
    illegal(state, Give((5,)), "exchange")


def refused(state: PresidentState, action) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert snapshot(state) == before


@pytest.mark.parametrize("action, rule", [
    (Play(0, 1), "play"), (Play(1, 1), "play"), (Play(2, 1), "play"), (Play(-1, 1), "play"),
    (Play(17, 1), "play"), (Play(5, -1), "play"), (Play(5, 1, -1), "play"), (Play(5, 1, 2), "play"),
    (Play(JOKER, 1, 1), "jokers"),
], ids=lambda a: f"value{a.value}-count{a.count}-jokers{a.jokers}" if isinstance(a, Play) else a)
def test_malformed_plays_are_refused(action, rule):
    """Plays no parser produces (values outside 3..16, negative counts) are refused, not
    misread: Play(-1, 1) must not play a joker through counts[-1]."""
    state = start(table(players=3, jokers=1), "3c 5c Jk", "4c", REST)
    refused(state, action)
    assert not state.is_legal(action)
    illegal(state, action, rule)


def _exchange_with_a_three(**changes) -> PresidentState:
    for seed in range(100):
        state = quick_round(table(players=3, rounds=2, exchange_big=1, exchange_small=0, **changes), seed)
        if state.counts[0][3]:
            return state
    raise AssertionError("no President holding a 3")


@pytest.mark.parametrize("give, rule", [
    (Give(()), "exchange-count"), (Give((3, 3, 3)), "exchange-count"), (Give((3, 4)), "exchange-count"),
    (Give((2,)), "hold"), (Give((0,)), "hold"), (Give((-1,)), "hold"), (Give((17,)), "hold"),
], ids=lambda a: str(a.values) if isinstance(a, Give) else a)
def test_malformed_gifts_are_refused(give, rule):
    """The President holds a 3, so a gift of value 2 or 0 read as the 3's slot would go through."""
    state = _exchange_with_a_three()
    assert state.phase is Phase.EXCHANGE and state.pending == [(0, 2, 1)]
    illegal(state, give, rule)


def test_only_the_canonical_pass_is_legal():
    state = start(table(players=3), "3c 5c", "4c 7h", REST)
    act(state, "5")
    for odd_pass in (Play(7, 0), Play(0, 0, 1)):
        assert not state.is_legal(odd_pass)
        illegal(state, odd_pass, "play")
    assert state.is_legal(PASS)


# ---------------------------------------------------------------- text forms
def _full_pack(decks: int = 2, jokers: int = 4) -> list[Card]:
    return [c for c in layout(decks, jokers).cards if c is not None]


def test_card_text_round_trip():
    for card in set(_full_pack()):
        assert Card.parse(str(card)) == card
    assert str(Card(10, "h")) == "Th" and str(Card(TWO, "s")) == "2s" and str(Card(JOKER, "")) == "Jk"
    assert Card.parse("10h") == Card(10, "h") == Card.parse(" tH ")
    assert Card.parse("joker") == Card(JOKER, "")
    pack = _full_pack(1, 2)
    assert parse_cards(cards_text(pack)) == pack
    assert parse_cards("7h, Tc 2s Jk") == [Card(7, "h"), Card(10, "c"), Card(TWO, "s"), Card(JOKER, "")]


@pytest.mark.parametrize("text", ["", "7", "7x", "1c", "Zc", "11h", "c"])
def test_card_parse_errors(text):
    with pytest.raises(ActionParseError):
        Card.parse(text)


@pytest.mark.parametrize("text", ["Jkc", "jks", "JKd", "Jokerh"])
def test_card_parse_refuses_a_suited_joker(text):
    with pytest.raises(ActionParseError):
        Card.parse(text)


def test_value_text_and_parse_value():
    assert [value_text(v) for v in range(3, 17)] == list("3456789TJQKA2") + ["Jk"]
    for v in range(3, 17):
        assert parse_value(value_text(v)) == v
    assert parse_value("10") == 10 and parse_value("q") == 12 and parse_value("Joker") == JOKER
    assert parse_value("7h") == 7 and parse_value("10s") == 10
    for bad in ("1", "11", "", "jkc", "x", "7z"):
        with pytest.raises(ActionParseError):
            parse_value(bad)


def test_play_text_round_trip():
    for v in range(3, 16):
        for k in range(1, 9):
            for j in range(0, k):
                play = play_of(v, k, j)
                assert Play.parse(str(play)) == play
    assert Play.parse(str(play_of(JOKER, 1))) == play_of(JOKER, 1)
    assert str(PASS) == "pass" and Play.parse("pass") is PASS
    assert Play.parse("P") is PASS and Play.parse(" - ") is PASS
    assert str(play_of(9, 3, 1)) == "9 9 Jk" and str(play_of(10, 2)) == "T T"


def test_play_parse_forms():
    assert Play.parse("7h 7c") == Play.parse("7 7") == play_of(7, 2)
    assert Play.parse("10, 10") == play_of(10, 2)
    assert Play.parse("Jk 9") == play_of(9, 2, 1)
    assert Play.parse("joker") == play_of(JOKER, 1)
    assert Play.parse("7 7").naturals == 2 and play_of(9, 3, 1).naturals == 2
    assert PASS.is_pass and not play_of(3, 1).is_pass


@pytest.mark.parametrize("text", ["", "   ", "7 8", "Jk Jk", "x", "7 7 x", "pass pass", "1"])
def test_play_parse_errors(text):
    with pytest.raises(ActionParseError):
        Play.parse(text)


def test_give_text_round_trip_and_errors():
    for values in [(3,), (3, 4), (5, 5, JOKER), (TWO, JOKER), (10, 11, 12, 13)]:
        give = Give(values)
        assert str(give).startswith("give ")
        assert Give.parse(str(give)) == give
        assert parse_action(str(give)) == give
    assert Give.parse("GIVE Jk 3") == Give((3, JOKER))
    assert Give.parse("give 4, 3") == Give((3, 4))
    for bad in ("give", "3 4", "", "give x", "gift 3"):
        with pytest.raises(ActionParseError):
            Give.parse(bad)


def test_parse_action_dispatch():
    assert parse_action("give 3 4") == Give((3, 4))
    assert parse_action("7 7") == play_of(7, 2)
    assert parse_action("pass") is PASS
    state = PresidentState.new_match(table(), 0)
    assert state.parse_action("K K") == play_of(13, 2)
    with pytest.raises(ActionParseError):
        state.parse_action("7 8")
    assert issubclass(ActionParseError, ValueError) and issubclass(ActionParseError, GameError)


# ---------------------------------------------------------------- settings and presets
def test_classic_preset_matches_president_md():
    s = preset("classic")
    assert s == Settings()
    assert (s.players, s.decks, s.jokers, s.pass_locks, s.equal_value, s.twos_end_trick) == \
        (5, 1, 0, False, EqualValue.SKIP, True)
    assert (s.exchange_big, s.exchange_small) == (2, 1)
    assert s.first_leader is FirstLeader.THREE_OF_CLUBS and s.later_leader is LaterLeader.LOSER
    assert not (s.revolution or s.eight_cut or s.no_going_out_on_two)
    assert s.rounds == 10 and s.target_score == 0 and s.deck_size == 52


def test_pagat_and_daifugo_presets():
    p = preset("pagat")
    assert p.equal_value is EqualValue.NO
    assert (p.exchange_big, p.exchange_small) == (1, 0)
    assert p.later_leader is LaterLeader.PRESIDENT
    d = preset("daifugo")
    assert d.revolution and d.eight_cut and d.jokers == 2 and d.deck_size == 54
    assert set(PRESETS) == {"classic", "pagat", "daifugo", "uecda"}
    assert preset("Daifugo") is d


def test_unknown_preset():
    with pytest.raises(SettingsError, match="classic"):
        preset("poker")
    assert issubclass(SettingsError, ValueError)


def test_with_overrides_converts_text():
    s = preset("classic").with_overrides({
        "players": " 6 ", "Revolution": "on", "eight-cut": "YES", "pass_locks": "true",
        "twos_end_trick": "off", "equal_value": "allow", "first-leader": "left-of-dealer",
        "later_leader": "president", "joker_mode": "wild", "jokers": "2", "decks": "2", "rounds": "3",
    })
    assert s.players == 6 and s.revolution and s.eight_cut and s.pass_locks and not s.twos_end_trick
    assert s.equal_value is EqualValue.ALLOW and s.first_leader is FirstLeader.LEFT_OF_DEALER
    assert s.later_leader is LaterLeader.PRESIDENT and s.joker_mode is JokerMode.WILD
    assert (s.jokers, s.decks, s.rounds) == (2, 2, 3)
    assert preset("classic").players == 5  # presets are not changed
    for text, value in [("1", True), ("0", False), ("no", False), ("false", False)]:
        assert Settings().with_overrides({"revolution": text}).revolution is value


@pytest.mark.parametrize("overrides, words", [
    ({"colour": "red"}, "players"),
    ({"revolution": "maybe"}, "on or off"),
    ({"equal_value": "sometimes"}, "skip"),
    ({"first_leader": "dealer"}, "three-of-clubs"),
    ({"players": "five"}, "whole number"),
    ({"players": "8"}, "3 to 7"),
    ({"players": "2"}, "3 to 7"),
    ({"decks": "3"}, "decks"),
    ({"jokers": "3"}, "jokers"),
    ({"jokers": "-1"}, "jokers"),
    ({"exchange_small": "3"}, "exchange"),
    ({"exchange_big": "5", "exchange_small": "1"}, "exchange"),
    ({"rounds": "0"}, "rounds"),
    ({"rounds": "-1", "target_score": "10"}, "negative"),
    ({"target_score": "-5"}, "negative"),
])
def test_with_overrides_errors(overrides, words):
    with pytest.raises(SettingsError, match=words):
        preset("classic").with_overrides(overrides)


def test_settings_limits_that_are_valid():
    assert Settings(decks=2, jokers=4).deck_size == 108
    assert Settings(rounds=0, target_score=20).target_score == 20
    assert Settings(exchange_big=4, exchange_small=4).exchange_small == 4
    for players in range(3, 8):
        assert Settings(players=players).players == players


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_describe_round_trips_through_with_overrides(name):
    s = preset(name)
    text = s.describe()
    assert all(isinstance(v, str) for v in text.values())
    assert Settings().with_overrides(text) == s
    assert list(text) == [f for f in Settings.__dataclass_fields__]


def test_parse_assignments():
    assert parse_assignments(["players=6", " revolution = on "]) == {"players": "6", "revolution": "on"}
    for bad in (["players"], ["=6"], [" =6"]):
        with pytest.raises(SettingsError):
            parse_assignments(bad)
