"""The RECYCLE games we ship in `recycle/games/`: they parse, play to the end, keep
their cards, and follow their own rules (President5's climbing rules, Poker5's ranking)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import recycle.games
from recycle.cli import main as cli_main
from recycle.engine import RandomAgent, play_game
from recycle.interp import new_game
from recycle.lang import load_game

GAMES_DIR = Path(recycle.games.__file__).parent
GAMES = sorted(p.name for p in GAMES_DIR.glob("*.gdl"))
SEEDS = range(20)

VALUE = {"THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10,
         "JACK": 11, "QUEEN": 12, "KING": 13, "ACE": 14, "TWO": 15}


def path(name: str) -> Path:
    return GAMES_DIR / name


def card_count(state) -> int:
    """Every real card (memory copies left out)."""
    return sum(len(cards) for key, cards in state.st.locs.items() if key[2] != "mem")


def loc(state, owner: tuple, name: str) -> list[int]:
    for key, cards in state.st.locs.items():
        if (key[0], key[1]) == owner and key[3] == name:
            return list(cards)
    return []


def ints(state, owner: tuple, name: str) -> int:
    return state.st.ints.get((owner[0], owner[1], name), 0)


def value(state, card: int) -> int:
    return VALUE[state.table.attrs[card]["RANK"]]


def climbing_meta(name: str) -> dict:
    for line in path(name).read_text().splitlines():
        if line.startswith(";; climbing:"):
            return dict(kv.split("=", 1) for kv in line.split(":", 1)[1].split())
    return {}


def test_the_games_are_there():
    assert {"President5.gdl"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_parses_and_checks(name, capsys):
    game = load_game(path(name))
    assert game is not None
    assert cli_main(["check", str(path(name))]) == 0


@pytest.mark.parametrize("name", GAMES)
def test_plays_seeded_games_to_the_end_keeping_the_cards(name):
    game = load_game(path(name))
    for seed in SEEDS:
        state = new_game(game, seed=seed)
        total = card_count(state)
        rng = random.Random(seed)
        agent = RandomAgent()
        while not state.is_terminal():
            state.apply(agent.choose(None, state.legal_actions(), rng))
            assert card_count(state) == total
        assert not state.called, f"{name} seed {seed} hit the choice limit"
        results = state.results()
        assert len(results.ranks) == state.num_players


@pytest.mark.parametrize("name", [n for n in GAMES if climbing_meta(n)])
def test_climbing_metadata_names_real_locations(name):
    meta = climbing_meta(name)
    assert {"hand", "table", "order"} <= set(meta)
    text = path(name).read_text()
    assert f"iloc {meta['hand']})" in text
    assert f"vloc {meta['table']})" in text
    assert f"points {meta['order']})" in text


# --- President5 --------------------------------------------------------------

def test_president_follows_the_climbing_rules():
    game = load_game(path("President5.gdl"))
    for seed in SEEDS:
        state = new_game(game, seed=seed)
        n = state.num_players
        assert card_count(state) == 52
        hands = [loc(state, ("p", p), "HAND") for p in range(n)]
        assert sorted(len(h) for h in hands) == [10, 10, 10, 11, 11]
        first = state.current_player()
        assert any(state.table.attrs[c] == {"RANK": "THREE", "COLOR": "BLACK", "SUIT": "CLUBS"}
                   for c in hands[first]), "the holder of the three of clubs leads"
        rng, agent = random.Random(seed), RandomAgent()
        plays = twos = 0
        while not state.is_terminal():
            p = state.current_player()
            assert loc(state, ("p", p), "HAND"), "a player without cards is never asked"
            up = loc(state, ("g", 0), "TABLE")
            before = set(loc(state, ("p", p), "HAND"))
            state.apply(agent.choose(None, state.legal_actions(), rng))
            after = set(loc(state, ("p", p), "HAND"))
            played = before - after
            assert after <= before
            if not played:
                assert up, "the leader must play"
                continue
            plays += 1
            assert 1 <= len(played) <= 4
            vals = {value(state, c) for c in played}
            assert len(vals) == 1, "a play is cards of one value"
            v = vals.pop()
            if up:
                assert len(played) == len(up), "same count as the upcards"
                assert v >= value(state, up[0]), "higher or equal value"
            now_up = set(loc(state, ("g", 0), "TABLE"))
            if v == 15:
                twos += 1
                assert not now_up, "twos end the trick"
                if after and not state.is_terminal():
                    assert state.current_player() == p, "whoever plays twos leads next"
                    assert not loc(state, ("g", 0), "TABLE")
            elif now_up == played and not state.is_terminal():
                # the turn goes to the next player still holding cards; an equal value skips one
                still = [q for q in range(1, n + 1) if loc(state, ("p", (p + q) % n), "HAND")]
                skip = 1 if up and v == value(state, up[0]) else 0
                assert state.current_player() == (p + still[skip]) % n
            elif now_up != played:
                # only an equal play skipping the one other player still in returns the lead at once
                assert not now_up and up and v == value(state, up[0])
                assert state.is_terminal() or state.current_player() == p
        places = sorted(ints(state, ("p", p), "PLACE") for p in range(n))
        assert places == list(range(1, n + 1)), "finishing places are a permutation"
        results = state.results()
        assert sorted(results.ranks) == list(range(1, n + 1))
        for p in range(n):
            assert results.scores[p] == n - ints(state, ("p", p), "PLACE")
        assert plays > 0
