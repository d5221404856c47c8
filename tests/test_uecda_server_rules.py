"""How the competition's server runs a match, as settings of the `uecda` preset (docs/uecda.md,
"The competition's server, as settings"): who leads the later games, ranks starting over, seats
drawn anew, and the last player asked again before a trick ends. Each test states its rule in its
own words; each setting can be turned off, and the other presets never had it."""
from __future__ import annotations

import io
import random
import socket
import threading
from dataclasses import replace

import pytest

from president.agents.bots import make_bot
from president.game.cards import PASS, Card, Play
from president.game.settings import PRESETS, LaterLeader, SettingsError, preset
from president.game.state import Phase, PresidentState
from president.uecda import wire
from president.uecda.server import UecdaServer

UECDA = preset("uecda")
THREE_OF_DIAMONDS = Card(3, "d")


def play_match(settings, seed, on_move=lambda state: None) -> PresidentState:
    """A whole match of random legal actions; `on_move(state)` sees the state before each action."""
    state, rng = PresidentState.new_match(settings, seed), random.Random(seed)
    while not state.is_terminal():
        on_move(state)
        state.apply(rng.choice(state.legal_actions()))
    return state


def first_play_of_round(state) -> bool:
    return state.phase is Phase.PLAY and not any(isinstance(a, Play) for _, a in state.history)


def test_the_preset_runs_a_match_as_the_competitions_server_does():
    assert UECDA.later_leader is LaterLeader.THREE_OF_DIAMONDS
    assert (UECDA.class_reset, UECDA.seat_change, UECDA.last_player_answers) == (100, 3, True)
    for name in ("classic", "pagat", "daifugo"):
        p = PRESETS[name]
        assert (p.class_reset, p.seat_change, p.last_player_answers) == (0, 0, False)
        assert p.later_leader is not LaterLeader.THREE_OF_DIAMONDS


# ---- the 3 of diamonds leads every game -------------------------------------------------------
def test_every_game_is_led_by_whoever_holds_the_three_of_diamonds_once_the_exchange_is_done():
    leaders, losers = [], []

    def check(state):
        if first_play_of_round(state):
            assert THREE_OF_DIAMONDS in state.hand(state.current)
            if state.prev_places is not None:
                leaders.append(state.current)
                losers.append(state.prev_places.index(5))

    for seed in range(6):
        play_match(replace(UECDA, rounds=4), seed, check)
    assert len(leaders) == 18 and leaders != losers  # not the loser's lead under another name


def test_the_three_of_diamonds_given_in_the_exchange_leads_from_its_new_hand():
    """The daifugo gives back the 3 of diamonds: the daihinmin who now holds it leads."""
    settings = replace(UECDA, rounds=2, seat_change=0)
    for seed in range(40):
        state = PresidentState.new_match(settings, seed)
        rng = random.Random(seed)
        while state.round_no == 0:
            state.apply(rng.choice(state.legal_actions()))
        giver = state.pending[0][0]
        if THREE_OF_DIAMONDS not in state.hand(giver) or len(state.hand(giver)) < 2:
            continue
        receiver = state.pending[0][1]
        threes = [a for a in state.legal_actions() if 3 in a.values]
        state.apply(threes[0])
        if THREE_OF_DIAMONDS in state.hand(giver):  # it gave another 3
            continue
        while state.phase is Phase.EXCHANGE:
            state.apply(state.legal_actions()[0])
        assert state.current == receiver and THREE_OF_DIAMONDS in state.hand(receiver)
        return
    pytest.fail("no daifugo held the 3 of diamonds in 40 matches")


def test_without_the_setting_the_loser_of_the_last_game_leads():
    def check(state):
        if first_play_of_round(state) and state.prev_places is not None:
            assert state.prev_places[state.current] == 5

    play_match(replace(UECDA, rounds=3, later_leader=LaterLeader.LOSER), 1, check)


# ---- ranks start over ---------------------------------------------------------------------------
@pytest.mark.parametrize("reset, exchanged", [(2, {1, 3, 5}), (3, {1, 2, 4, 5}), (0, {1, 2, 3, 4, 5})])
def test_ranks_start_over_every_class_reset_games_with_no_exchange(reset, exchanged):
    seen, unranked = set(), set()

    def check(state):
        if state.phase is Phase.EXCHANGE:
            seen.add(state.round_no)
        if first_play_of_round(state) and state.prev_places is None:
            unranked.add(state.round_no)
            assert THREE_OF_DIAMONDS in state.hand(state.current)  # led as a first game

    final = play_match(replace(UECDA, rounds=6, class_reset=reset), 3, check)
    assert seen == exchanged and unranked == set(range(6)) - exchanged
    assert sum(final.scores) == 6 * 15  # the match goes on: every game still scores 5..1


def test_a_negative_period_is_refused_and_the_settings_read_as_text():
    with pytest.raises(SettingsError, match="class_reset"):
        replace(UECDA, class_reset=-1)
    s = UECDA.with_overrides({"class-reset": "0", "seat_change": "0", "last_player_answers": "off",
                              "later_leader": "loser"})
    assert (s.class_reset, s.seat_change, s.last_player_answers, s.later_leader) == (0, 0, False, LaterLeader.LOSER)


# ---- seats drawn anew ---------------------------------------------------------------------------
def test_seats_are_drawn_every_seat_change_games_and_the_turn_follows_them():
    seatings: dict[int, tuple] = {}
    checked = [0]

    def check(state):
        seatings.setdefault(state.round_no, state.seating)
        assert state.seating == seatings[state.round_no]
        if state.phase is not Phase.PLAY:
            return
        p, before = state.current, state.clone()
        rng = random.Random(len(state.history))
        play = rng.choice([a for a in state.legal_actions() if not a.is_pass] or [PASS])
        after = before.clone()
        after.apply(play)
        if after.round_no != before.round_no or after.upcards is None or after.current == p:
            return
        # the nearest player after p, in seat order, who holds cards and has not passed this trick
        order = [state.seating[(state.seating.index(p) + k) % 5] for k in range(1, 5)]
        waiting = [q for q in order if after.sizes[q] and not after.declined >> q & 1]
        assert after.current == waiting[0]
        checked[0] += 1

    play_match(replace(UECDA, rounds=7), 11, check)
    assert sorted(seatings[0]) == list(range(5))
    assert seatings[0] == seatings[1] == seatings[2] and seatings[3] == seatings[4] == seatings[5]
    assert len({seatings[0], seatings[3], seatings[6]}) > 1 and checked[0] > 50


def test_without_the_setting_players_sit_in_the_order_of_their_numbers():
    seatings = set()
    play_match(replace(UECDA, rounds=4, seat_change=0), 2, lambda s: seatings.add(s.seating))
    play_match(replace(PRESETS["classic"], rounds=4), 2, lambda s: seatings.add(s.seating))
    assert seatings == {(0, 1, 2, 3, 4)}


# ---- the last player is asked again ---------------------------------------------------------
def everyone_else_passed(settings):
    """Player 4 played a low single; 0, 1 and 2 passed; 3 passes now. Player 4 holds a 9 to K too."""
    for seed in range(50):
        state = PresidentState.new_match(replace(settings, rounds=1, seat_change=0), seed)
        low = [c for c in state.hand(4) if c.value in (5, 6, 7)]
        if low and any(c.value in range(9, 14) for c in state.hand(4)):
            break
    state.current = 4  # it leads this trick, whoever held the 3 of diamonds
    state.apply(state.parse_action(str(low[0])))
    for p in (0, 1, 2, 3):
        assert state.current == p
        state.apply(PASS)
    return state, low[0]


def test_when_everyone_else_passed_the_last_player_may_play_again_on_its_own_play():
    state, single = everyone_else_passed(UECDA)
    assert state.current == 4 and str(state.upcards) == str(single)  # the trick still stands
    assert PASS in state.legal_actions()
    higher = next(a for a in state.legal_actions() if a.count == 1 and 9 <= a.value <= 13)
    state.apply(higher)
    assert state.current == 4 and state.upcards == higher  # the others passed: asked once more


def test_the_last_player_passing_ends_the_trick_and_it_leads():
    state, _ = everyone_else_passed(UECDA)
    state.apply(PASS)
    assert state.upcards is None and state.current == 4


@pytest.mark.parametrize("name", ["Classic", "Expert", "Beginner"])
def test_a_rule_personality_asked_again_passes_to_lead_but_still_answers_another_players_play(name):
    bot = make_bot(name)
    state, _ = everyone_else_passed(UECDA)
    assert bot.choose(state.observation(4), state.legal_actions(), random.Random(0)).is_pass
    theirs = state.clone()
    theirs.last_player, theirs.declined = 3, 0b0111  # the same single, played by player 3
    assert not bot.choose(theirs.observation(4), theirs.legal_actions(), random.Random(0)).is_pass


def test_the_table_tells_a_person_asked_again_that_the_play_is_their_own():
    from tui.president.prompts import follow_prompt

    state, single = everyone_else_passed(UECDA)
    assert follow_prompt(UECDA, state).startswith(f"Everyone else passed your {single}: p to pass and lead")


def test_without_the_setting_the_trick_ends_when_everyone_else_passed():
    state, _ = everyone_else_passed(replace(UECDA, last_player_answers=False))
    assert state.upcards is None and state.current == 4


# ---- on the wire ------------------------------------------------------------------------------
def test_the_server_sends_the_drawn_seats_and_no_ranks_after_they_start_over():
    """Row 6 columns 10-14 name the player at each seat; columns 5-9 the ranks (all 0 in a game
    that starts the ranks over, where nobody is asked for cards)."""
    settings = replace(UECDA, class_reset=2, seat_change=1)
    listener = socket.create_server(("127.0.0.1", 0))
    server = UecdaServer(settings, ["remote", "Classic", "Classic", "Classic", "Classic"], 3, 5, make_bot,
                         timeout=10, record=io.StringIO())
    box = {}
    thread = threading.Thread(target=lambda: box.update(result=server.run(listener)), daemon=True)
    thread.start()
    sock = socket.create_connection(listener.getsockname(), timeout=20)
    profile = wire.empty()
    profile[0][0] = wire.PROTOCOL_VERSION
    wire.send_table(sock, profile)
    wire.read_int(sock)
    starts = []
    while True:
        table = wire.read_table(sock)
        rows = wire.TableState.read(table)
        if rows.exchange:
            starts.append(rows)
            if 0 < rows.to_give < 100:
                wire.send_table(sock, wire.empty())  # the server gives its lowest
            continue
        if rows.your_turn:
            wire.send_table(sock, wire.play_table(PASS))
            wire.read_int(sock)
        wire.read_table(sock)
        if wire.read_int(sock) == wire.ALL_OVER:
            break
    sock.close()
    thread.join(30)
    listener.close()
    assert [rows.classes == (0,) * 5 for rows in starts] == [True, False, True]
    assert sorted(starts[1].classes) == [0, 1, 2, 3, 4]
    assert all(sorted(rows.seats) == [0, 1, 2, 3, 4] for rows in starts)
    assert len({rows.seats for rows in starts}) > 1


def test_the_server_command_takes_settings_of_the_preset_but_not_another_table():
    from president.cli.main import main
    from fuzzing import commands as fuzzing

    code, out, err = fuzzing.call(main, ["uecda-server", "--port", "0", "--set", "players=6"], seconds=30)
    assert code == 2 and "five players and 53 cards" in out + err
    code, out, err = fuzzing.call(main, ["uecda-server", "--port", "0", "--set", "seat_chang=0"], seconds=30)
    assert code == 2 and "did you mean seat_change" in out + err
    code, out, err = fuzzing.call(main, ["uecda-server", "--port", "0", "--games", "1", "--join-timeout", "0.3",
                                         "--set", "seat_change=0", "--set", "later_leader=loser"], seconds=30)
    assert code == 1 and "only 0 of 5 client(s) joined" in out + err


def test_a_match_ending_on_a_reset_still_shows_its_last_ranks():
    final = play_match(replace(UECDA, rounds=4, class_reset=2), 4)
    assert final.prev_places == final.round_log[-1]
