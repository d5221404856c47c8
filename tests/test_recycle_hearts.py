"""Hearts4.gdl follows its own header, checked against an independent model of the rules: the
pass of three cards to the left, the two of clubs leading, following suit, hearts not led
before they are broken, the highest card of the suit led taking the trick and leading next,
and the penalties (shooting the moon included). The generic checks (parses, plays to the end
keeping its 52 cards) are in test_recycle_games.py."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from recycle.cli.main import main as cli_main
from recycle.interp import new_game
from recycle.lang import load_game
from test_recycle_games import loc, path

GAME = load_game(path("Hearts4.gdl"))
#: Aces high: the two is the lowest card of its suit.
VALUE = {"TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9,
         "TEN": 10, "JACK": 11, "QUEEN": 12, "KING": 13, "ACE": 14}


def rank(state, c: int) -> str:
    return state.table.attrs[c]["RANK"]


def suit(state, c: int) -> str:
    return state.table.attrs[c]["SUIT"]


def penalty(state, c: int) -> int:
    if suit(state, c) == "HEARTS":
        return 1
    return 13 if (rank(state, c), suit(state, c)) == ("QUEEN", "SPADES") else 0


def hand(state, p: int) -> list[int]:
    return loc(state, ("p", p), "HAND")


def offered_cards(state) -> list[int]:
    """The card each of the current player's options takes from the hand, in option order."""
    p = state.current_player()
    before, out = set(hand(state, p)), []
    for action in state.legal_actions():
        twin = state.clone()
        twin.apply(action)
        (gone,) = before - set(hand(twin, p))
        out.append(gone)
    return out


def legal_cards(state, held: list[int], trick: list[int], tricks_done: int, broken: bool) -> set[int]:
    """The rules of the header, written again: what the player holding `held` may play."""
    if trick:
        led = suit(state, trick[0])
        same = {c for c in held if suit(state, c) == led}
        return same or set(held)
    if tricks_done == 0:
        return {c for c in held if (rank(state, c), suit(state, c)) == ("TWO", "CLUBS")}
    others = {c for c in held if suit(state, c) != "HEARTS"}
    return set(held) if broken or not others else others


def random_card(state, cards, rng) -> int:
    return rng.choice(cards)


def check_game(state, choose=random_card, rng=None) -> list[int]:
    """Play to the end, `choose(state, cards, rng)` picking among the offered cards, asserting
    the rules at every turn; -> the expected points per seat (the game's scores are checked)."""
    rng = rng or random.Random(0)
    n = state.num_players

    def take(cards: list[int]) -> int:
        c = choose(state, cards, rng)
        state.apply(state.legal_actions()[cards.index(c)])
        return c

    dealt = {p: set(hand(state, p)) for p in range(n)}
    assert all(len(cards) == 13 for cards in dealt.values())
    passed: dict[int, list[int]] = {p: [] for p in range(n)}
    for p in range(n):  # each player in turn sets three cards aside, one choice at a time
        for _ in range(3):
            assert state.current_player() == p
            cards = offered_cards(state)
            assert sorted(cards) == sorted(dealt[p] - set(passed[p])), "any card of the hand may be passed"
            passed[p].append(take(cards))
    for p in range(n):
        assert set(hand(state, p)) == (dealt[p] - set(passed[p])) | set(passed[(p - 1) % n]), "to the left"

    leader = next(p for p in range(n) if any((rank(state, c), suit(state, c)) == ("TWO", "CLUBS")
                                             for c in hand(state, p)))
    taken: dict[int, list[int]] = {p: [] for p in range(n)}
    broken = False
    for done in range(13):
        trick: list[int] = []
        for i in range(n):
            p = (leader + i) % n
            assert state.current_player() == p
            cards = offered_cards(state)
            assert len(set(cards)) == len(cards)
            assert set(cards) == legal_cards(state, hand(state, p), trick, done, broken)
            trick.append(take(cards))
        broken = broken or any(suit(state, c) == "HEARTS" for c in trick)
        led = suit(state, trick[0])
        winner = max(range(n), key=lambda i: VALUE[rank(state, trick[i])] if suit(state, trick[i]) == led else 0)
        leader = (leader + winner) % n
        taken[leader] += trick
    assert state.is_terminal()
    for p in range(n):
        assert sorted(loc(state, ("p", p), "TAKEN")) == sorted(taken[p])
    points = [sum(penalty(state, c) for c in taken[p]) for p in range(n)]
    assert sum(points) == 26
    if 26 in points:
        points = [26 - x for x in points]
    results = state.results()
    assert list(results.scores) == points
    assert list(results.ranks) == [1 + sum(q < x for q in points) for x in points], "fewest points wins"
    return points


def test_hearts_offers_exactly_the_legal_cards_to_random_players():
    for seed in range(8):
        check_game(new_game(GAME, seed=seed), rng=random.Random(seed))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_hearts_rules_hold_for_any_seed(seed):
    check_game(new_game(GAME, seed=seed), rng=random.Random(seed))


def shooter(state, cards, rng) -> int:
    """Seat 0 passes its lowest cards and plays its highest; the others pass their highest
    (seat 3's go to seat 0) and play their lowest."""
    by_value = sorted(cards, key=lambda c: VALUE[rank(state, c)])
    passing = "PASSING" in state.legal_actions()[0].text
    return by_value[0] if (state.current_player() == 0) == passing else by_value[-1]


def test_shooting_the_moon_gives_the_shooter_nothing_and_the_others_26():
    for seed in range(200):
        points = check_game(new_game(GAME, seed=seed), shooter)
        if 0 in points and points.count(26) == 3:
            return
    raise AssertionError("no seed in 200 gave a moon to the shooting strategy")


def test_hearts_is_listed_and_plays_with_random_bots(capsys):
    assert cli_main(["games"]) == 0
    assert "Hearts4" in capsys.readouterr().out
    assert cli_main(["run", "Hearts4", "--players", "random,random,random,random", "--games", "3", "--seed", "1"]) == 0
    assert "Hearts4" in capsys.readouterr().out
