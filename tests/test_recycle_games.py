"""The RECYCLE games we ship in `recycle/games/`: they parse, play to the end, keep
their cards, and follow their own rules (President5's climbing rules, Poker5's ranking)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import recycle.games
from recycle.cli.main import main as cli_main
from recycle.kernel.protocol import RandomAgent
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
    assert {"President5.gdl", "Poker5.gdl", "Daifugo4.gdl"} <= set(GAMES)  # Daifugo4: test_recycle_daifugo.py


@pytest.mark.parametrize("name", GAMES)
def test_parses_and_checks(name, capsys):
    game = load_game(path(name))
    assert game.flow and game.scoring is not None
    assert cli_main(["check", str(path(name))]) == 0
    assert f"{path(name)}: ok" in capsys.readouterr().out


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


# --- Poker5 ------------------------------------------------------------------

POKER_VALUE = {**VALUE, "TWO": 2}


def poker_key(cards: list[dict]) -> tuple:
    """Standard five-card poker ranking, independent of the game file."""
    vals = sorted((POKER_VALUE[c["RANK"]] for c in cards), reverse=True)
    counts: dict[int, int] = {}
    for v in vals:
        counts[v] = counts.get(v, 0) + 1
    shape = sorted(counts.values(), reverse=True)
    flush = len({c["SUIT"] for c in cards}) == 1
    high = None
    if len(counts) == 5 and vals[0] - vals[4] == 4:
        high = vals[0]
    elif vals == [14, 5, 4, 3, 2]:
        high = 5
    if high and flush:
        cat = 9
    elif shape[0] == 4:
        cat = 8
    elif shape == [3, 2]:
        cat = 7
    elif flush:
        cat = 6
    elif high:
        cat = 5
    elif shape[0] == 3:
        cat = 4
    elif shape == [2, 2, 1]:
        cat = 3
    elif shape[0] == 2:
        cat = 2
    else:
        cat = 1
    tie = (high,) if high else tuple(v for v, _ in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True))
    return cat, tie


def test_poker_key_sanity():
    def hand(text):
        return [{"RANK": r, "SUIT": s} for r, s in (x.split("/") for x in text.split())]
    flush = hand("TWO/HEARTS FIVE/HEARTS NINE/HEARTS JACK/HEARTS KING/HEARTS")
    straight = hand("TEN/CLUBS JACK/HEARTS QUEEN/SPADES KING/HEARTS ACE/DIAMONDS")
    wheel = hand("ACE/CLUBS TWO/HEARTS THREE/SPADES FOUR/HEARTS FIVE/DIAMONDS")
    assert poker_key(flush) > poker_key(straight) > poker_key(wheel)


def play_poker(seed: int):
    state = new_game(load_game(path("Poker5.gdl")), seed=seed)
    rng, agent = random.Random(seed), RandomAgent()
    while not state.is_terminal():
        state.apply(agent.choose(None, state.legal_actions(), rng))
    return state


def test_poker_ranks_hands_and_pays_the_best():
    seen_categories = set()
    for seed in range(40):
        state = play_poker(seed)
        n = state.num_players
        keys = [poker_key([state.table.attrs[c] for c in loc(state, ("p", p), "HAND")]) for p in range(n)]
        points = [ints(state, ("p", p), "POINTS") for p in range(n)]
        for p in range(n):
            assert len(loc(state, ("p", p), "HAND")) == 5
            assert ints(state, ("p", p), "CAT") == keys[p][0]
            seen_categories.add(keys[p][0])
            for q in range(n):
                # the game's hand values order the hands exactly as poker does
                assert (points[p] > points[q]) == (keys[p] > keys[q])
                assert (points[p] == points[q]) == (keys[p] == keys[q])
        best = max(keys)
        winners = [p for p in range(n) if keys[p] == best]
        pot = n + sum(ints(state, ("p", p), "BET") for p in range(n))
        share = pot // len(winners)
        for p in range(n):
            chips = 20 - 1 - ints(state, ("p", p), "BET") + (share if p in winners else 0)
            assert ints(state, ("p", p), "CHIPS") == chips
        results = state.results()
        assert min(results.ranks) == 1
    assert {1, 2, 3} <= seen_categories


def test_poker_a_known_showdown():
    """Deal known hands before the last decision: flush > straight > wheel > two pair > pair."""
    state = new_game(load_game(path("Poker5.gdl")), seed=3)
    rng, agent = random.Random(3), RandomAgent()
    while state.choices < 14:  # 5 bets, 5 discards, 4 of the 5 second bets
        state.apply(agent.choose(None, state.legal_actions(), rng))
    wanted = {
        0: "TWO/HEARTS FIVE/HEARTS NINE/HEARTS JACK/HEARTS KING/HEARTS",           # flush
        1: "TEN/CLUBS JACK/CLUBS QUEEN/SPADES KING/SPADES ACE/DIAMONDS",           # straight
        2: "ACE/CLUBS TWO/CLUBS THREE/SPADES FOUR/SPADES FIVE/DIAMONDS",           # wheel
        3: "KING/CLUBS KING/DIAMONDS QUEEN/CLUBS QUEEN/DIAMONDS SEVEN/SPADES",     # two pair
        4: "ACE/HEARTS ACE/SPADES NINE/CLUBS EIGHT/DIAMONDS SIX/CLUBS",            # pair
    }
    st, attrs = state.st, state.table.attrs
    by_face = {(a["RANK"], a["SUIT"]): c for c, a in enumerate(attrs)}
    hand_keys = {p: next(k for k in st.locs if k[:2] == ("p", p) and k[3] == "HAND") for p in range(5)}
    given = {p: [by_face[tuple(x.split("/"))] for x in text.split()] for p, text in wanted.items()}
    used = {c for cards in given.values() for c in cards}
    # a wanted card found elsewhere (stock, discards) trades places with a card the hands give up
    displaced = [c for p in range(5) for c in st.locs[hand_keys[p]] if c not in used]
    for key, cards in list(st.locs.items()):
        if key[2] == "mem" or key in hand_keys.values():
            continue
        swap = dict(zip([c for c in cards if c in used], [c for c in displaced if c not in cards]))
        cards[:] = [swap.get(c, c) for c in cards]  # (in place: a location's list is never replaced)
        displaced = [c for c in displaced if c not in swap.values()]
    for p, key in hand_keys.items():
        st.locs[key][:] = given[p]
    for key, cards in st.locs.items():
        if key[2] != "mem":
            for c in cards:
                st.where[c] = key
    assert sorted(c for k, cards in st.locs.items() if k[2] != "mem" for c in cards) == list(range(52))
    state.apply(state.legal_actions()[0])  # the last player checks
    assert state.is_terminal()
    points = [ints(state, ("p", p), "POINTS") for p in range(5)]
    assert points[0] > points[1] > points[2] > points[3] > points[4]
    assert [ints(state, ("p", p), "CAT") for p in range(5)] == [6, 5, 5, 3, 2]
    chips = [ints(state, ("p", p), "CHIPS") for p in range(5)]
    assert chips[0] == 19 - ints(state, ("p", 0), "BET") + 5 + sum(ints(state, ("p", p), "BET") for p in range(5))
    assert state.results().ranks[0] == 1


# --- BigTwo4 -----------------------------------------------------------------

SUIT_ORDER = {"DIAMONDS": 0, "CLUBS": 1, "HEARTS": 2, "SPADES": 3}


def test_big_two_plays_beat_the_upcards():
    game = load_game(path("BigTwo4.gdl"))
    for seed in SEEDS:
        state = new_game(game, seed=seed)
        order = lambda c: 4 * value(state, c) + SUIT_ORDER[state.table.attrs[c]["SUIT"]]  # noqa: E731
        rng, agent = random.Random(seed), RandomAgent()
        while not state.is_terminal():
            p = state.current_player()
            up = loc(state, ("g", 0), "TABLE")
            before = set(loc(state, ("p", p), "HAND"))
            state.apply(agent.choose(None, state.legal_actions(), rng))
            played = before - set(loc(state, ("p", p), "HAND"))
            if played:
                assert len(played) <= 3 and len({value(state, c) for c in played}) == 1
                if up:
                    assert len(played) == len(up) and max(map(order, played)) > max(map(order, up))
            else:
                assert up
        assert sorted(state.results().scores)[-1] == 0


def test_recycle_run_finds_shipped_games_by_name(capsys):
    from recycle.cli.main import main
    from recycle.games import game_path

    assert game_path("President5").endswith("President5.gdl")
    assert game_path("poker5").endswith("Poker5.gdl")
    assert main(["run", "BigTwo4", "--games", "2", "--seed", "1"]) == 0
    assert "BigTwo4.gdl" in capsys.readouterr().out
