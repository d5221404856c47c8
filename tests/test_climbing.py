"""Rule personalities at RECYCLE climbing games (`recycle.climbing.adapter`): the view agrees with
native President, every personality plays every climbing game, metadata errors are
located, and `recycle run` / `recycle trace` / `president tournament --game` accept them."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import recycle.games
from personalities.catalog import shipped, shipped_names
from personalities.evaluator import explain
from president.game.settings import Settings
from president.game.view import hypothetical_view
from recycle.climbing.adapter import RANK_VALUES, adapter_for, climbing_bot, make_climbing_bots
from recycle.climbing.metadata import ClimbingMetaError, read_meta
from recycle.kernel.protocol import RandomAgent, play_game
from recycle.interp import new_game
from recycle.lang import load_game

from conftest import corpus_file

GAMES_DIR = Path(recycle.games.__file__).parent
#: Shipped games that declare themselves climbing games (a new one is picked up here).
CLIMBING = sorted(p.name for p in GAMES_DIR.glob("*.gdl") if re.search(r"^;; climbing:", p.read_text(), re.M))
COMET = "hand=HAND table=SEQUENCE order=PRECEDENCE"
#: (game, metadata text or None for the game's own); the corpus's Comet needs it given.
TABLES = [(GAMES_DIR / name, None) for name in CLIMBING] + [("rcy/Comet4.rcy", COMET)]
PRESIDENT = GAMES_DIR / "President5.gdl"
PERSONALITIES = [shipped(name) for name in shipped_names()]


def decisions(game, seed: int, agent=None):
    """(state, player, observation, legal) at every choice of one game, the moves made by `agent` (random)."""
    state = new_game(game, seed)
    rng, agent = random.Random(seed), agent or RandomAgent()
    while not state.is_terminal():
        p = state.current_player()
        obs, legal = state.observation(p), state.legal_actions()
        yield state, p, obs, legal
        state.apply(agent.choose(obs, legal, rng))


def values_in(state, key) -> list[int]:
    return [RANK_VALUES[state.table.attrs[c]["RANK"]] for c in state.st.locs.get(key, ())]


def test_the_climbing_games_are_found():
    assert {"President5.gdl", "BigTwo4.gdl"} <= set(CLIMBING) and "Poker5.gdl" not in CLIMBING


# ---- the view ---------------------------------------------------------------------
def test_recycle_president_views_agree_with_native_president():
    game, adapter = load_game(PRESIDENT), adapter_for(PRESIDENT)
    seen = 0
    for seed in range(6):
        for state, p, obs, legal in decisions(game, seed):
            view = adapter(obs, legal)
            assert view is not None, "every President5 decision is a play or a pass"
            others = [len(state.st.locs.get(("p", q, "iloc", "HAND"), ())) for q in range(5) if q != p]
            native = hypothetical_view(Settings(), values_in(state, ("p", p, "iloc", "HAND")),
                                       values_in(state, ("g", 0, "vloc", "TABLE")) or None,
                                       values_in(state, ("g", 0, "vloc", "DISCARD")), [n for n in others if n])
            assert view.hand == native.hand and view.upcards == native.upcards
            assert set(view.legal) == set(native.legal) and view.can_pass == native.can_pass
            assert view.unseen == native.unseen and view.opponent_counts == native.opponent_counts
            assert (view.played, view.deck_size, view.order, view.rank) == \
                   (native.played, native.deck_size, native.order, native.rank)
            for personality in PERSONALITIES:  # so every trace is the one native President shows
                ours, theirs = (explain(personality, v, random.Random(seen), p)[1] for v in (view, native))
                assert ours.to_json() == theirs.to_json()
            seen += 1
    assert seen > 300


def test_same_play_from_several_options_is_the_first_offered():
    game, adapter = load_game(PRESIDENT), adapter_for(PRESIDENT)
    for state, p, obs, legal in decisions(game, 2):
        view = adapter(obs, legal)
        by_play: dict = {}
        for action in legal:  # the options, grouped by the cards they name
            moved = re.findall(r"move (\w+) \w+ \w+ from p\d HAND to game TABLE", action.text)
            if moved and len(set(moved)) == 1:
                by_play.setdefault((RANK_VALUES[moved[0]], len(moved)), []).append(action)
        assert set(by_play) == set(view.legal)
        for play, options in by_play.items():
            assert view.actions[play] is options[0]
        if any(len(o) > 1 for o in by_play.values()):
            return
    pytest.fail("no decision offered one play several ways")


def test_comet_values_order_and_its_undealt_stock(shared_dir):
    game = load_game(shared_dir / "recycle-corpus/rcy/Comet4.rcy")
    adapter = adapter_for(game, COMET)
    for state, p, obs, legal in decisions(game, 1):
        view = adapter(obs, legal)
        if view is None:
            continue
        # Comet's twos are its weakest cards (PRECEDENCE), and it has no aces.
        assert view.order == (15, *range(3, 14))
        # 8 of the 48 cards are never dealt: unseen is scaled to the opponents' hands.
        assert sum(view.unseen) == sum(view.opponent_counts)
        assert view.deck_size == 48
        if view.upcards:
            top = state.st.locs[("g", 0, "vloc", "SEQUENCE")][-1]
            assert view.upcards[0] == RANK_VALUES[state.table.attrs[top]["RANK"]]


def test_rank_from_a_player_storage():
    game = load_game(PRESIDENT)
    adapter = adapter_for(game, "hand=HAND table=TABLE order=VALUE rank=PLACE")
    state = new_game(game, 3)
    for q, place in enumerate([2, 5, 1, 4, 3]):
        state.st.ints[("p", q, "PLACE")] = place
    view = adapter(state.observation(state.current_player()), state.legal_actions())
    me = state.current_player()
    assert view.rank == [2, 5, 1, 4, 3][me]
    assert view.higher_players == sum(1 for q, r in enumerate([2, 5, 1, 4, 3]) if q != me and r < view.rank)


def test_decisions_that_are_not_plays_go_to_the_fallback():
    poker = GAMES_DIR / "Poker5.gdl"
    bot = climbing_bot("Classic", poker, meta="hand=HAND table=STOCK order=VALUE")
    asked = []

    class Recorder(RandomAgent):
        def choose(self, observation, legal_actions, rng):
            asked.append(len(legal_actions))
            return super().choose(observation, legal_actions, rng)

    bot.fallback = Recorder()
    state = new_game(load_game(poker), 4)
    play_game(state, [bot] + [RandomAgent()] * 4, random.Random(4))
    assert asked and max(asked) > 1  # bets and discards, every one decided by the fallback
    assert climbing_bot("random", PRESIDENT) is None and climbing_bot("ismcts", PRESIDENT) is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), name=st.sampled_from(shipped_names()), table=st.sampled_from(TABLES[:-1]))
def test_rule_players_only_return_offered_options(seed, name, table):
    game, meta = table
    state = new_game(load_game(game), seed)
    bots, _ = make_climbing_bots([name], game, state.num_players, meta=meta)
    adapter = adapter_for(game, meta)
    rng = random.Random(seed)
    while not state.is_terminal():
        p = state.current_player()
        obs, legal = state.observation(p), state.legal_actions()
        action = bots[p].choose(obs, legal, rng)
        assert any(action is option for option in legal)
        view = adapter(obs, legal)
        play = next((k for k, a in view.actions.items() if a is action), None) if view else None
        if play is not None:  # the option moves exactly those cards from my hand to the table
            where = rf"from p{p} {adapter.meta.hand} to game {adapter.meta.table}"
            moved = re.findall(rf"move (\w+) [\w ]+? {where}", action.text)
            assert [RANK_VALUES[r] for r in moved] == [play[0]] * play[1]
        state.apply(action)


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped_names())
@pytest.mark.parametrize("game,meta", TABLES, ids=[Path(p).stem for p, _ in TABLES])
def test_every_personality_plays_30_seeded_rounds(game, meta, name):
    game = game if isinstance(game, Path) else corpus_file(game)
    loaded = load_game(game)
    n = new_game(loaded, 0).num_players
    agents, seats = make_climbing_bots([name] * (n - 1) + ["random"], game, n, meta=meta)
    for seed in range(30):
        state = new_game(loaded, seed)
        results = play_game(state, agents, random.Random(seed))  # an unoffered action would raise
        assert len(results.ranks) == n and not state.called, f"{game.name} seed {seed}"


# ---- metadata errors ---------------------------------------------------------------
def test_a_game_without_metadata_gets_a_located_error():
    with pytest.raises(ClimbingMetaError) as caught:
        read_meta(load_game(GAMES_DIR / "Poker5.gdl"))
    assert caught.value.render() == (
        f"{GAMES_DIR / 'Poker5.gdl'}:1:1: error: this game has no climbing metadata (which location is the hand, "
        "the table, which point map orders values)\n"
        "    ;; Poker (five-card draw)\n"
        "    ^\n"
        "  expected: a header comment ';; climbing: hand=LOCATION table=LOCATION order=POINTMAP [value=POINTMAP] "
        "[rank=STORAGE] [reverse=STORAGE]'\n"
        "  hint: probably --climbing \"hand=HAND table=DISCARD order=VALUE\" (guessed from where cards move and "
        "which point maps compare them); add that line to the header comments, write it in Poker5.climbing next "
        "to the game, or pass --climbing \"hand=... table=... order=...\"; this game has player locations: HAND; "
        "game locations: "
        "DISCARD, STOCK; point maps: VALUE")


def test_a_header_naming_a_missing_location_is_located(tmp_path):
    bad = tmp_path / "Pres.gdl"
    bad.write_text(PRESIDENT.read_text().replace("table=TABLE", "table=TABEL"))
    with pytest.raises(ClimbingMetaError) as caught:
        read_meta(load_game(bad))
    assert caught.value.render() == (
        f"{bad}:6:30: error: table=TABEL: the game has no game location named TABEL\n"
        "    ;; climbing: hand=HAND table=TABEL order=VALUE\n"
        "                                 ^~~~~\n"
        "  expected: a location of the game, as in (game vloc TABLE)\n"
        "  hint: did you mean TABLE? this game has player locations: HAND; game locations: DISCARD, STOCK, TABLE; "
        "point maps: VALUE")


@pytest.mark.parametrize("text,message", [
    ("hand=HAND table=TABLE", "--climbing:1:22: error: the climbing metadata does not name order="),
    ("hand=HAND tabel=TABLE order=VALUE", "--climbing:1:11: error: unknown climbing key 'tabel'"),
    ("hand=HAND table=TABLE order=VALUES", "--climbing:1:29: error: order=VALUES: the game has no point map"),
    ("hand=HAND hand=HAND", "--climbing:1:11: error: hand is given twice"),
    ("hand", "--climbing:1:1: error: 'hand' is not KEY=NAME"),
])
def test_explicit_metadata_errors_are_located(text, message):
    with pytest.raises(ClimbingMetaError) as caught:
        read_meta(load_game(PRESIDENT), text)
    assert caught.value.render().startswith(message)


def test_a_sidecar_file_wins_over_the_header(tmp_path):
    game = tmp_path / "Pres.gdl"
    game.write_text(PRESIDENT.read_text())
    (tmp_path / "Pres.climbing").write_text("# for Pres.gdl\nclimbing: hand=HAND table=DISCARD order=VALUE\n")
    meta = read_meta(load_game(game))
    assert (meta.table, meta.source) == ("DISCARD", f"{tmp_path / 'Pres.climbing'}:2")
    (tmp_path / "Pres.climbing").write_text("hand=HAND table=TABLE order=VALUE rank=NOPE\n")
    with pytest.raises(ClimbingMetaError, match=r"Pres.climbing:1:40: error: rank=NOPE"):
        read_meta(load_game(game))


# ---- command lines -------------------------------------------------------------------
def test_recycle_run_with_personalities(capsys, tmp_path, shared_dir):
    from recycle.cli.main import main

    out = tmp_path / "r.json"
    assert main(["run", "President5", "--players", "Classic,Gambler,random", "--games", "5", "--seed", "1",
                 "--json", str(out)]) == 0
    assert [s["agent"] for s in json.loads(out.read_text())["seats"]] == \
           ["Classic", "Gambler", "random", "Classic", "Gambler"]
    assert main(["run", str(shared_dir / "recycle-corpus/rcy/Comet4.rcy"), "--players", "Cautious", "--games", "2",
                 "--seed", "1", "--climbing", COMET]) == 0
    capsys.readouterr()
    assert main(["run", "Poker5", "--players", "Classic", "--seed", "1"]) == 2  # a shipped game: nothing to edit
    assert "Classic is a President personality: it plays climbing games" in capsys.readouterr().err
    assert main(["run", "President5", "--players", "Classic", "--fallback", "Classic", "--seed", "1"]) == 2
    assert "--fallback 'Classic': the fallback takes the decisions rules cannot" in capsys.readouterr().err


def test_recycle_trace_prints_the_rule_trees(capsys, tmp_path):
    from recycle.cli.main import main

    out = tmp_path / "t.json"
    assert main(["trace", "President5", "Classic", "--seed", "1", "--seat", "2", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    traces = json.loads(out.read_text())
    assert f"{len(traces)} decision(s) of Classic (seat 2), seed 1" in text
    assert "Classic (player 2) →" in text and "✔ fired" in text and "no rule applied: pass" in text
    assert all(t["trace"]["player"] == 2 and t["trace"]["personality"] == "Classic" for t in traces)
    assert main(["trace", "President5", "Classic", "--seed", "1", "--seat", "2"]) == 0
    assert capsys.readouterr().out == text  # seeded: the same game, the same decisions
    assert main(["trace", "President5", "Classic", "--seat", "7", "--seed", "1"]) == 2


def test_president_tournament_on_a_recycle_game(tmp_path, capsys):
    from president.cli.main import main

    journal, out = tmp_path / "t.jsonl", tmp_path / "t.json"
    argv = ["tournament", "Classic", "random", "--game", "BigTwo4", "--matches", "2", "--seed", "3", "-j1"]
    assert main([*argv, "--out", str(journal), "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["config"]["game"] == "BigTwo4" and report["games"] == 8  # 2 deals x 4 rotations
    assert sum(b["rounds"] for b in report["bots"]) == 8 * 4
    assert main(["tournament", "--resume", str(journal), "--json", str(out)]) == 0  # complete: replayed
    assert json.loads(out.read_text())["bots"] == report["bots"]
    capsys.readouterr()
    assert main(["tournament", "Classic", "random", "--game", "Poker5", "--out", str(tmp_path / "p.jsonl")]) == 2
    assert "agents that can play Poker5: random" in capsys.readouterr().err


def test_a_revolution_reverses_the_order():
    daifugo = GAMES_DIR / "Daifugo4.gdl"
    if not daifugo.exists():
        pytest.skip("Daifugo4.gdl is not shipped")
    game = load_game(daifugo)
    adapter = adapter_for(game, "hand=HAND table=TABLE order=VALUE reverse=REV")

    class MostCards(RandomAgent):  # plays its biggest sets: fours of a kind make revolutions
        def choose(self, observation, legal_actions, rng):
            return max(legal_actions, key=lambda a: a.text.count(" HAND to "))

    followed = 0
    for seed in range(40):
        for state, p, obs, legal in decisions(game, seed, MostCards()):
            view = adapter(obs, legal)
            if view is not None and state.st.ints.get(("g", 0, "REV")):
                assert view.order == tuple(range(15, 2, -1))
                if view.upcards and view.legal:  # the game lets me follow with lower values: stronger now
                    assert all(view.strength(v) > view.strength(view.upcards[0]) for v, _ in view.legal)
                    followed += 1
        if followed >= 5:
            return
    pytest.fail("fewer than 5 follows during revolutions in 40 games")
