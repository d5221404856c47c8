"""The `uecda` preset, one rule a test (docs/president-rules.md, "UECda"); each test states its rule
in its own words and builds the position by hand."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from president.game.cards import JOKER, PASS, Card, Play, parse_cards
from president.game.layout import layout
from president.game.settings import FirstLeader, Settings, SettingsError, preset
from president.game.state import Phase, PresidentState
from president.game.suited import SPADES, suited_plays
from recycle.kernel.protocol import IllegalAction

UECDA = preset("uecda")
PROFILE = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def position(hand: str, up: str | None = None, *, reversed_: bool = False, lock: str = "",
             settings: Settings = UECDA) -> PresidentState:
    """Seat 0 to play holding `hand` (the rest of the pack spread over the others), `up` on the table."""
    settings = replace(settings, rounds=1)
    state = PresidentState.new_match(settings, 0)
    lay, n = state.lay, settings.players
    mine = lay.bits_of(parse_cards(hand))
    up_play = None if up is None else state.parse_action(up)
    gone = 0 if up_play is None else _cards_of(lay, up_play)
    rest = [b for b in range(lay.full.bit_length()) if lay.full >> b & 1 and not (mine | gone) >> b & 1]
    masks = [mine] + [0] * (n - 1)
    for i, b in enumerate(rest):
        masks[1 + i % (n - 1)] |= 1 << b
    state.masks, state.counts = masks, [lay.counts(m) for m in masks]
    state.sizes = [m.bit_count() for m in masks]
    state.played, state.played_counts = gone, lay.counts(gone)
    state.phase, state.current, state.pending, state.history = Phase.PLAY, 0, [], []
    state.upcards, state.last_player = up_play, (n - 1 if up_play else -1)
    state.reversed, state.lock = reversed_, sum(1 << "cdhs".index(s) for s in lock)
    return state


def _cards_of(lay, play: Play) -> int:
    from president.game.suited import suited_cards

    return lay.bit(Card(JOKER, "")) if play.value == JOKER else suited_cards(lay, play)


def legal(state: PresidentState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def test_the_preset_is_five_players_and_53_cards_with_one_wild_joker():
    assert UECDA.players == 5 and UECDA.deck_size == 53 and UECDA.jokers == 1
    lay = layout(UECDA.decks, UECDA.jokers)
    assert sum(1 for c in lay.cards if c is not None and c.value == JOKER) == 1


@pytest.mark.parametrize("seed", range(8))
def test_the_holder_of_the_three_of_diamonds_leads_the_first_game(seed):
    state = PresidentState.new_match(UECDA, seed)
    assert Card(3, "d") in state.hand(state.current_player())


def test_a_three_card_run_of_one_suit_is_a_play_two_cards_or_mixed_suits_are_not():
    got = legal(position("5h 6h 7h 6c 9s"))
    assert "5h 6h 7h" in got
    assert not any(len(p.split()) == 2 and p.split()[0][0] != p.split()[1][0] for p in got)  # no 2-card run
    assert "5h 6c 7h" not in got


def test_a_run_may_end_on_the_two():
    assert {"Kh Ah 2h", "Qh Kh Ah 2h"} <= legal(position("Qh Kh Ah 2h 4c"))
    assert "Kc Ac 2c" in legal(position("Kc Ac 2c", up="9h Th Jh"))


def test_runs_are_off_without_the_sequences_setting():
    got = legal(position("5h 6h 7h", settings=replace(UECDA, sequences=False)))
    assert "5h 6h 7h" not in got and "5h" in got


def test_a_run_is_beaten_by_a_run_of_as_many_cards_all_higher():
    state = position("8s 9s Ts Js 6s 7s", up="5h 6h 7h")
    got = legal(state)
    assert {"8s 9s Ts", "9s Ts Js"} <= got
    assert "6s 7s 8s" not in got  # its lowest card is not above the upcards' highest
    assert "8s 9s Ts Js" not in got  # four cards do not answer three
    assert "8s" not in got  # nor does a single


def test_after_a_revolution_a_run_is_beaten_by_lower_runs():
    got = legal(position("3s 4s 5s 9s Ts Js", up="6h 7h 8h", reversed_=True))
    assert "3s 4s 5s" in got and "9s Ts Js" not in got


def test_the_joker_stands_for_a_missing_card_in_a_group():
    got = legal(position("7h Jk 9c"))
    assert {"Jk:7c 7h", "Jk:7d 7h", "7h Jk:7s", "Jk:7c Jk:7d 7h"} & got == {"Jk:7c 7h", "Jk:7d 7h", "7h Jk:7s"}
    assert "Jk:9d 9c" not in got and "9c Jk:9d" in got  # cards read in suit order: c d h s


def test_the_joker_fills_a_gap_or_an_end_of_a_run():
    assert "5h Jk:6h 7h" in legal(position("5h 7h Jk"))
    got = legal(position("5h 6h Jk"))
    assert {"Jk:4h 5h 6h", "5h 6h Jk:7h"} <= got and "Jk:3h Jk:4h 5h 6h" not in got


def test_a_lone_joker_beats_any_single_even_a_two_and_after_a_revolution():
    assert "Jk" in legal(position("Jk 4c", up="2s"))
    assert "Jk" in legal(position("Jk 4c", up="3s", reversed_=True))
    assert "Jk" not in legal(position("Jk 4c 4d", up="5c 5d"))  # not a pair


def test_only_the_three_of_spades_beats_a_lone_joker():
    state = position("3s 3h 2c Ac Ad", up="Jk")
    assert legal(state) == {"3s", "pass"}
    with pytest.raises(IllegalAction) as info:
        state.apply(state.parse_action("2c"))
    assert info.value.rule == "beat"


def test_the_three_of_spades_on_a_lone_joker_ends_the_trick():
    state = position("3s 3h 2c", up="Jk")
    state.apply(state.parse_action("3s"))
    assert state.upcards is None and state.current_player() == 0


def test_a_lone_joker_frees_a_locked_trick():
    state = position("Jk 4c 9d", up="7h", lock="h")
    state.apply(state.parse_action("Jk"))
    assert state.lock == 0


def test_without_spade_three_nothing_beats_a_lone_joker():
    assert legal(position("3s 2c", up="Jk", settings=replace(UECDA, spade_three=False))) == {"pass"}


def test_four_of_a_kind_reverses_the_order():
    state = position("9c 9d 9h 9s 4c", up=None)
    state.apply(state.parse_action("9c 9d 9h 9s"))
    assert state.reversed


def test_a_run_of_five_reverses_the_order_a_run_of_four_does_not():
    five = position("3h 4h 5h 6h 7h Kc")
    five.apply(five.parse_action("3h 4h 5h 6h 7h"))
    four = position("3h 4h 5h 6h Kc")
    four.apply(four.parse_action("3h 4h 5h 6h"))
    assert five.reversed and not four.reversed


def test_an_eight_ends_the_trick_and_its_player_leads_again():
    state = position("8c 8d Kc", up="6h 6s")
    state.apply(state.parse_action("8c 8d"))
    assert state.upcards is None and state.current_player() == 0


def test_a_run_holding_an_eight_ends_the_trick():
    state = position("7c 8c 9c Kc", up="4h 5h 6h")
    state.apply(state.parse_action("7c 8c 9c"))
    assert state.upcards is None and state.current_player() == 0


def test_following_with_the_same_suits_locks_the_trick_to_them():
    state = position("9h 9s 4c Kd", up="7h")
    state.lock = 0
    state.upcards = state.parse_action("7h")
    state.apply(state.parse_action("9h"))  # hearts on hearts: locked to hearts
    assert state.lock == 1 << "cdhs".index("h")
    nxt = state.current_player()
    assert all(a.is_pass or a.value == JOKER or a.suits == state.lock for a in state.legal_actions())
    assert nxt != 0


def test_a_locked_trick_refuses_other_suits():
    state = position("9h 9s Ts", up="7h", lock="h")
    assert legal(state) == {"9h", "pass"}
    with pytest.raises(IllegalAction) as info:
        state.apply(state.parse_action("Ts"))
    assert info.value.rule == "lock"


def test_a_pair_locks_only_on_the_very_same_two_suits():
    state = position("9h 9s 9c Kd", up="7h 7s")
    state.apply(state.parse_action("9c 9h"))
    assert state.lock == 0
    state2 = position("9h 9s 9c Kd", up="7h 7s")
    state2.apply(state2.parse_action("9h 9s"))
    assert state2.lock == (1 << 2) | (1 << 3)


def test_without_the_lock_setting_suits_never_bind():
    assert "Ts" in legal(position("9h Ts", up="7h", lock="", settings=replace(UECDA, lock=False)))


def test_a_pass_sits_out_the_rest_of_the_trick():
    assert UECDA.pass_locks


def test_the_exchange_is_two_and_one_cards_the_lower_giving_its_strongest():
    state = PresidentState.new_match(UECDA, 3)
    rng = random.Random(3)
    while state.round_no == 0:
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    assert state.phase is Phase.EXCHANGE
    first = state.round_log[0]
    low, high = first.index(5), first.index(1)
    (receiver, mask), = [(r, m) for g, r, m in state.gifts if g == low]
    assert receiver == high
    given_values = sorted(c.value for c in state.lay.card_list(mask))
    assert len(given_values) == 2 and max(c.value for c in state.hand(low)) <= min(given_values)
    assert [p[2] for p in state.pending] == [2, 1]


def test_points_are_five_down_to_one_by_class():
    state = PresidentState.new_match(replace(UECDA, rounds=1), 5)
    state.random_playout(random.Random(5))
    places = state.round_log[0]
    assert [state.scores[p] for p in sorted(range(5), key=places.__getitem__)] == [5, 4, 3, 2, 1]


def test_suits_need_one_deck():
    with pytest.raises(SettingsError, match="one deck"):
        replace(UECDA, decks=2, jokers=1)


# ---------------------------------------------------------------- properties
def _states(seed: int, steps: int) -> PresidentState:
    state = PresidentState.new_match(replace(UECDA, rounds=2), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    return state


@hsettings(max_examples=60, **PROFILE)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_every_legal_play_reads_back_from_its_text_and_is_accepted(seed, steps):
    state = _states(seed, steps)
    if state.phase is not Phase.PLAY:
        return
    acts = state.legal_actions()
    assert len(set(acts)) == len(acts)
    for play in acts:
        assert Play.parse(str(play), suited=True) == play
        assert state.is_legal(play)
        if not play.is_pass and play.value != JOKER:
            assert play.suits and play.count == len(play.cells())
    up = state.upcards
    for play in acts:
        if up is not None and not play.is_pass and play.value != JOKER and up.value != JOKER:
            assert play.count == up.count and play.run == up.run
            if state.lock:
                assert play.suits == state.lock


@hsettings(max_examples=60, **PROFILE)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120), value=st.integers(3, 15),
       suits=st.integers(1, 15), run=st.booleans(), count=st.integers(1, 6))
def test_a_play_is_accepted_exactly_when_it_is_listed(seed, steps, value, suits, run, count):
    state = _states(seed, steps)
    if state.phase is not Phase.PLAY:
        return
    if run:
        play = Play(value, count, 0, 1 << (suits % 4), True, 0)
        if value + count > 16:
            return
    else:
        play = Play(value, suits.bit_count(), 0, suits, False, 0)
    before = (state.masks[:], state.upcards, state.current)
    listed = play in suited_plays(state)
    if listed:
        state.apply(play)
    else:
        with pytest.raises(IllegalAction):
            state.apply(play)
        assert (state.masks, state.upcards, state.current) == before


def test_spade_bit_is_the_spades_suit():
    assert SPADES == 1 << "cdhs".index("s")
    assert FirstLeader("three-of-diamonds") is FirstLeader.THREE_OF_DIAMONDS
    assert PASS in position("4c", up="3c").legal_actions()


def test_rule_bots_and_a_search_player_play_a_round_of_the_preset():
    from president.agents.bots import make_bot
    from recycle.kernel.protocol import play_game

    state = PresidentState.new_match(replace(UECDA, rounds=1), 11)
    agents = [make_bot("ismcts:iterations=8"), make_bot("Classic"), make_bot("Expert"), make_bot("random"),
              make_bot("Beginner")]
    results = play_game(state, agents, random.Random(11))
    assert sorted(results.ranks) == [1, 2, 3, 4, 5] and sum(state.scores) == 15
