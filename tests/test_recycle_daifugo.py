"""Daifugo4.gdl follows its own header, checked against an independent model of the rules:
at every turn the game offers exactly the legal plays (sets, same-suit sequences, a pass),
the trick ends when it should, an eight stops it, a set of four reverses the order, and the
finishing order gives the places and scores. The generic checks (parses, plays to the end
keeping its 52 cards, climbing metadata) are in test_recycle_games.py."""
from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from recycle.cli.main import main as cli_main
from recycle.interp import new_game
from recycle.lang import load_game
from test_recycle_games import card_count, ints, loc, path, value

GAME = path("Daifugo4.gdl")


def legal_plays(state, hand: list[int], up: list[int], revolution: bool) -> set[frozenset]:
    """Every legal play from `hand` onto the upcards `up` (none: a lead); a pass is the empty set."""
    by_value: dict[int, list[int]] = {}
    for c in hand:
        by_value.setdefault(value(state, c), []).append(c)
    plays = [("set", v, frozenset(t))
             for v, cs in by_value.items() for n in range(1, 5) for t in combinations(cs, n)]
    for suit in {state.table.attrs[c]["SUIT"] for c in hand}:
        held = {value(state, c): c for c in hand if state.table.attrs[c]["SUIT"] == suit}
        for low in held:
            high = low + 1
            while high in held:
                if high - low >= 2:
                    plays.append(("sequence", high, frozenset(held[v] for v in range(low, high + 1))))
                high += 1
    if not up:
        return {cards for _, _, cards in plays}
    kind = "set" if len({value(state, c) for c in up}) == 1 else "sequence"
    top = max(value(state, c) for c in up)
    return {cards for k, v, cards in plays
            if k == kind and len(cards) == len(up) and (v < top if revolution else v > top)} | {frozenset()}


def next_holder(state, p: int) -> int:
    """The next player after `p` in seat order who still holds cards."""
    n = state.num_players
    return next(q % n for q in range(p + 1, p + n + 1) if loc(state, ("p", q % n), "HAND"))


def random_choice(state, actions, offered, rng):
    return rng.choice(actions)


def biggest_play(state, actions, offered, rng):
    """Sheds as many cards as it can: plays sets of four and long sequences whenever it may."""
    most = max(map(len, offered))
    return rng.choice([a for a, cards in zip(actions, offered) if len(cards) == most])


def offered_plays(state) -> list[frozenset]:
    """The cards each of the current player's options would play, in option order."""
    p = state.current_player()
    hand, out = frozenset(loc(state, ("p", p), "HAND")), []
    for action in state.legal_actions():
        twin = state.clone()
        twin.apply(action)
        out.append(hand - frozenset(loc(twin, ("p", p), "HAND")))
    return out


def check_game(state, choose, rng, revolution=False) -> dict[str, int]:
    """Play `state` to the end with `choose`, asserting the rules at every turn; -> what was seen."""
    n, last, out = state.num_players, None, []
    seen = {"sequence": 0, "eight stop": 0, "revolution": 0}
    while not state.is_terminal():
        p = state.current_player()
        hand, up = loc(state, ("p", p), "HAND"), loc(state, ("g", 0), "TABLE")
        assert hand, "a player who is out is never asked"
        actions, offered = state.legal_actions(), offered_plays(state)
        assert len(set(offered)) == len(offered), "every option is a different play"
        assert set(offered) == legal_plays(state, hand, up, revolution)
        state.apply(choose(state, actions, offered, rng))
        played = set(hand) - set(loc(state, ("p", p), "HAND"))
        table, over = set(loc(state, ("g", 0), "TABLE")), state.is_terminal()
        assert card_count(state) == 52
        if played:
            last, values = p, {value(state, c) for c in played}
            if not loc(state, ("p", p), "HAND"):
                out.append(p)
            seen["sequence"] += len(values) > 1
            if len(played) == 4 and len(values) == 1:
                revolution, seen["revolution"] = not revolution, seen["revolution"] + 1
            if 8 in values:
                seen["eight stop"] += 1
                assert not table, "an eight ends the trick"
                assert over or state.current_player() == (p if p not in out else next_holder(state, p))
            else:
                assert table == played, "the play lies face up alone"
                assert over or state.current_player() == next_holder(state, p)
        elif not over:
            # a pass ends the trick when the turn reaches who leads next: the last player to
            # play, or the next player holding cards after them if they are out
            leader = last if last not in out else next_holder(state, last)
            assert state.current_player() == next_holder(state, p)
            assert (not table) == (next_holder(state, p) == leader)
        assert ints(state, ("g", 0), "REV") == revolution
    places = [ints(state, ("p", p), "PLACE") for p in range(n)]
    assert out + [p for p in range(n) if p not in out] == sorted(range(n), key=places.__getitem__)
    results = state.results()
    assert list(results.ranks) == places and list(results.scores) == [n - x for x in places]
    return seen


def play(seed: int, choose=random_choice) -> dict[str, int]:
    state = new_game(load_game(GAME), seed=seed)
    leader = loc(state, ("p", state.current_player()), "HAND")
    assert {"RANK": "THREE", "COLOR": "RED", "SUIT": "DIAMONDS"} in [state.table.attrs[c] for c in leader]
    return check_game(state, choose, random.Random(seed))


def total(seens) -> dict[str, int]:
    seens = list(seens)
    return {k: sum(s[k] for s in seens) for k in ("sequence", "eight stop", "revolution")}


def test_daifugo_offers_exactly_the_legal_plays_to_random_players():
    seen = total(play(seed) for seed in range(20))
    assert seen["sequence"] > 0 and seen["eight stop"] > 0


def test_daifugo_players_shedding_the_most_cards_play_long_sequences():
    seen = total(play(seed, biggest_play) for seed in range(20))
    assert seen["sequence"] >= 10


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_daifugo_rules_hold_for_any_seed(seed):
    play(seed)


# --- a stacked deck: the pack unshuffled, cards named by `on_top` first, dealt in blocks of 13
# from the top. With nothing on top: p0 A A A A K K K K Q Q Q Q J, p1 J J J 10 10 10 10 9 9 9 9
# 8 8, p2 8 8 7 7 7 7 6 6 6 6 5 5 5, p3 2 2 2 2 3 3 3 3 4 4 4 4 5 (holds the three of diamonds).

def stacked(tmp_path: Path, on_top: str = "", leader: int = 3):
    """`on_top`: point map awards ((RANK : R) (SUIT : S) 1) of the cards moved to the top first."""
    deal = "(all player 'P (repeat 13 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))"
    if on_top:
        deal = (f"(set (game points TOP) ({on_top})) (all (filter (game iloc STOCK) 'C "
                f"(> (score 'C using (game points TOP)) 0)) 'C (move 'C (top (game iloc STOCK)))) {deal}")
    text = GAME.read_text()
    for old, new in (("(shuffle (game iloc STOCK))", ""),
                     ("(repeat 13 (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND)))))", deal)):
        assert old in text
        text = text.replace(old, new)
    (tmp_path / "Stacked.gdl").write_text(text)
    state = new_game(load_game(tmp_path / "Stacked.gdl"), seed=0)
    assert state.current_player() == leader
    return state


def awards(*cards: str) -> str:
    """Point map awards picking these cards ("RANK SUIT")."""
    return " ".join(f"((RANK : {c.split()[0]}) (SUIT : {c.split()[1]}) 1)" for c in cards)


def sequences(state, plays) -> set[tuple[int, ...]]:
    """The values of the plays among `plays` that are sequences."""
    return {tuple(sorted(value(state, c) for c in cards))
            for cards in plays if len({value(state, c) for c in cards}) > 1}


def ranks(state, cards) -> list[str]:
    return sorted(state.table.attrs[c]["RANK"] for c in cards)


def play_cards(state, rank: str, count: int) -> None:
    """The current player plays `count` cards of `rank`."""
    for action, cards in zip(state.legal_actions(), offered_plays(state)):
        if ranks(state, cards) == [rank] * count:
            state.apply(action)
            return
    raise AssertionError(f"p{state.current_player()} may not play {count} x {rank}")


def pass_round(state) -> None:
    """The three others can only pass; the trick comes back to its leader."""
    for _ in range(3):
        assert offered_plays(state) == [frozenset()]
        state.apply(state.legal_actions()[0])


def test_daifugo_a_second_set_of_four_turns_the_order_back(tmp_path):
    state = stacked(tmp_path)
    play_cards(state, "FOUR", 4)  # revolution: only a lower set of four could follow
    assert ints(state, ("g", 0), "REV") == 1
    pass_round(state)
    play_cards(state, "THREE", 4)  # counter-revolution: higher sets of four follow again
    assert ints(state, ("g", 0), "REV") == 0
    assert sorted(ranks(state, cards) for cards in offered_plays(state)) == [
        [], ["ACE"] * 4, ["KING"] * 4, ["QUEEN"] * 4]
    check_game(state, random_choice, random.Random(1))


def test_daifugo_after_a_revolution_any_card_beats_a_two(tmp_path):
    state = stacked(tmp_path)
    play_cards(state, "FOUR", 4)
    pass_round(state)
    play_cards(state, "TWO", 1)  # the lowest card now
    p0_hand = loc(state, ("p", 0), "HAND")
    offered = offered_plays(state)
    assert len(offered) == 14 and set(offered) == {frozenset()} | {frozenset([c]) for c in p0_hand}
    check_game(state, random_choice, random.Random(2), revolution=True)


def test_daifugo_in_a_revolution_a_lower_sequence_follows(tmp_path):
    # p0: the three of diamonds, 7 7 7 7, hearts Q K A, then A A A K K from the top;
    # p1: K Q Q Q J J J J 10 10 10 10 9, with spades 9 10 J Q, clubs 10 J Q, diamonds 10 J Q K
    sevens = (f"SEVEN {suit}" for suit in ("HEARTS", "DIAMONDS", "CLUBS", "SPADES"))
    state = stacked(tmp_path, awards("THREE DIAMONDS", *sevens, "QUEEN HEARTS", "KING HEARTS", "ACE HEARTS"),
                    leader=0)
    play_cards(state, "SEVEN", 4)
    for _ in range(3):  # all pass, though p2 could answer with four sixes and p3 with four fours
        state.apply(state.legal_actions()[offered_plays(state).index(frozenset())])
    for action, cards in zip(state.legal_actions(), offered_plays(state)):
        if sequences(state, [cards]) == {(12, 13, 14)}:
            state.apply(action)
            break
    assert ints(state, ("g", 0), "REV") == 1 and state.current_player() == 1
    offered = offered_plays(state)
    assert frozenset() in offered and len(offered) == 6
    assert sequences(state, offered) == {(9, 10, 11), (10, 11, 12), (11, 12, 13)}
    check_game(state, random_choice, random.Random(4), revolution=True)


def test_daifugo_a_lead_offers_every_sequence_of_every_run(tmp_path):
    # p0: hearts 3 4 5 . . . 9 10 J Q, the three of diamonds, and A A A A K from the top
    state = stacked(tmp_path, awards("THREE DIAMONDS", *(f"{r} HEARTS" for r in (
        "THREE", "FOUR", "FIVE", "NINE", "TEN", "JACK", "QUEEN"))), leader=0)
    assert sequences(state, offered_plays(state)) == {
        (3, 4, 5), (9, 10, 11), (10, 11, 12), (9, 10, 11, 12)}
    check_game(state, biggest_play, random.Random(3))


@pytest.mark.slow
def test_daifugo_plays_200_games_within_the_choice_limit(capsys):
    assert cli_main(["run", str(GAME), "--games", "200", "--seed", "1", "--strict"]) == 0
    assert "0 called at the choice limit" in capsys.readouterr().out
