"""The RECYCLE interpreter: flow, choices, storage, visibility, limits, protocol properties."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recycle.kernel.protocol import TERMINAL, ActionParseError, GameError, IllegalAction, RandomAgent, play_game
from recycle.interp import LimitError, NoOptionsError, RecycleRuntimeError, new_game
from recycle.interp.transcript import play_and_record, replay, write
from recycle.lang import parse_game

DECK = "(deck (RANK (ONE, TWO, THREE, FOUR)) (COLOR (RED (SUIT (HEARTS)))))"
POINTS = "(set (game points V) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)))"


SCORING = "(scoring max ((current player) sto SCORE))"


def game(body: str, players: int = 2, setup_extra: str = "", scoring: str = SCORING):
    text = f"""(game (setup (create players {players}) {setup_extra}
                   (create deck (game iloc STOCK) {DECK}))
                 {body}
                 {scoring})"""
    return parse_game(text, "t.rcy")


DEAL = "(do ((all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
PLAY = """(stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
             (choice ((any ((current player) iloc HAND) 'C
                        (do ((move 'C (top ((current player) vloc PILE)))
                             (inc ((current player) sto SCORE) (score 'C using (game points V)))))))))"""


def simple(**kw):
    return new_game(game(f"(do ({POINTS})) {DEAL} {PLAY}"), **kw)


def play_random(state, seed=0):
    return play_game(state, [RandomAgent()] * state.num_players, random.Random(seed))


# --- flow and choices ---------------------------------------------------------------

def test_turns_alternate_and_cards_move():
    s = simple(seed=1)
    seen = []
    while not s.is_terminal():
        seen.append(s.current_player())
        s.apply(s.legal_actions()[0])
    assert seen == [0, 1, 0, 1]
    r = s.results()
    assert sorted(r.scores) != [0.0, 0.0] and sum(r.scores) == 10
    assert s.current_player() == TERMINAL and s.legal_actions() == []


def test_action_text_and_parse_round_trip():
    s = simple(seed=2)
    acts = s.legal_actions()
    assert len(acts) == 2
    for a in acts:
        assert str(a).startswith("move ") and " from p0 HAND to p0 PILE; set p0 sto SCORE = " in str(a)
        assert s.parse_action(str(a)) == a
    with pytest.raises(ActionParseError):
        s.parse_action("move nothing")
    with pytest.raises(IllegalAction):
        s.apply("pass")


def test_single_option_is_still_a_decision():
    s = simple(seed=3)
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert len(s.legal_actions()) == 1 and s.current_player() == 0


def test_no_option_is_a_located_error():
    g = game("""(stage player (end (== 1 0)) (choice (((== 1 0) (turn pass)))))""")
    with pytest.raises(NoOptionsError) as caught:
        new_game(g)
    assert caught.value.filename == "t.rcy" and caught.value.line == 3 and "no possible option" in str(caught.value)


def test_cycle_next_current_repeats_turn():
    g = game(f"""{DEAL} (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
        (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))))
        (do (((== (size ((current player) iloc HAND)) 1) (cycle next current)))))""")
    s = new_game(g)
    order = []
    while not s.is_terminal():
        order.append(s.current_player())
        s.apply(s.legal_actions()[0])
    assert order == [0, 0, 1, 1]  # with one card left a player keeps the turn


def test_any_outside_choice_runs_for_every_element():
    g = game(f"""{DEAL} (do ((any player 'P (inc ('P sto SCORE) 1))))
                 (stage player (end (== (game sto DONE) 1)) (choice ((set (game sto DONE) 1))))""")
    s = new_game(g)
    s.apply(s.legal_actions()[0])
    assert s.results().scores == (1.0, 1.0) and s.results().ranks == (1, 1)  # ties share a rank


def test_strings_let_and_conditionals():
    g = game(f"""{DEAL} (do ((set (game str MODE) BIG)
                            (let (size (game iloc STOCK)) 'N
                                 ((== 'N 0) (set ((0 player) sto SCORE) 7)))
                            ((== (game str MODE) SMALL) (set ((1 player) sto SCORE) 9))))
                 (stage player (end (== (game sto DONE) 1)) (choice ((set (game sto DONE) 1))))""")
    s = new_game(g)
    s.apply(s.legal_actions()[0])
    assert s.results().scores == (7.0, 0.0) and s.results().ranks == (1, 2)


def test_teams_default_and_team_stage():
    g = game("""(stage team (end (> (game sto N) 3)) (do ((inc ((current team) sto T) 1) (inc (game sto N) 1))))
                (stage player (end (== (game sto DONE) 1)) (choice ((set (game sto DONE) 1))))""",
             players=3, scoring="(scoring max ((team (current player)) sto T))")
    s = new_game(g)
    s.apply(s.legal_actions()[0])
    assert s.results().scores == (2.0, 1.0, 1.0)  # teams 0, 1, 2, 0 took a round each


def test_max_ties_break_at_random_but_reproducibly():
    g = game("""(do ((set (game points Z) (((RANK : ONE) 0))) (set (game sto W) 0)))
        (stage player (end (== (game sto DONE) 1))
           (do ((set (game str M) (cardatt RANK (max (game iloc STOCK) using (game points Z))))))
           (choice ((set (game sto DONE) 1))))""", scoring="(scoring max 0)")
    picks = {new_game(g, seed=k).st.strs[("g", 0, "M")] for k in range(20)}
    assert len(picks) > 1
    assert new_game(g, seed=4).st.strs == new_game(g, seed=4).st.strs


def test_dialect_c_once_simultaneous_swap_indexed():
    g = parse_game("""(game (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
      (stage player once (choice ((inc ((current player) sto SCORE) 1) (inc ((current player) sto SCORE) 2))))
      (stage player simultaneous (choice ((inc ((current player) sto SCORE) 10))))
      (do ((swap (top (game iloc STOCK)) (bottom (game iloc STOCK)))
           (move (top (game iloc STOCK)) (top (game vloc ROW 2)))
           (move (top (game iloc STOCK)) (top (game vloc ROW)))
           (set (game sto N) (size (indexed game vloc ROW))) (inc (game sto N))))
      (scoring max ((current player) sto SCORE)))""", "c.rcy")
    s = new_game(g)
    order = []
    while not s.is_terminal():
        order.append(s.current_player())
        s.apply(s.legal_actions()[-1])
    assert order == [0, 1, 2, 0, 1, 2]  # once, then simultaneous (played as sequential turns)
    assert s.results().scores == (12.0, 12.0, 12.0) and s.st.ints[("g", 0, "N")] == 3


# --- limits -----------------------------------------------------------------------

def test_looping_game_is_a_located_limit_error():
    g = game("(stage player (end (== 1 0)) (do ((inc (game sto N) 1))))")
    with pytest.raises(LimitError) as caught:
        new_game(g, max_steps=500)
    assert "t.rcy:" in str(caught.value) and "steps without a player choice" in str(caught.value)
    assert caught.value.line >= 1


def test_too_many_cards_is_a_located_limit_error():
    with pytest.raises(LimitError, match=r"t\.rcy:2:\d+: more than 3 cards"):
        new_game(game(f"{DEAL} {PLAY}"), max_cards=3)


def test_choice_limit_calls_the_game_or_raises_when_strict():
    g = game("(stage player (end (== 1 0)) (choice ((turn pass))))")
    s = new_game(g, max_choices=10)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert s.called and s.choices == 10 and s.results().ranks == (1, 1)
    s = new_game(g, max_choices=10, strict=True)
    with pytest.raises(LimitError, match="did not end within 10 choices"):
        while True:
            s.apply(s.legal_actions()[0])


def test_runtime_errors_are_game_errors_with_a_line():
    g = game("(do ((move (top (game vloc EMPTY)) (top (game vloc PILE)))))")
    with pytest.raises(RecycleRuntimeError) as caught:
        new_game(g)
    assert isinstance(caught.value, GameError) and caught.value.line == 3
    assert "nothing to move" in str(caught.value)


def test_a_value_of_the_wrong_kind_is_a_located_game_error():
    g = game("(do ((let (top (game iloc STOCK)) 'X (set (game sto N) (size 'X)))))")
    with pytest.raises(RecycleRuntimeError, match=r"t\.rcy:3:\d+: \(size \.\.\.\) needs a collection"):
        new_game(g)


def test_a_player_where_a_player_number_belongs_is_a_located_game_error():
    # found by bench/fuzz.py: ('P player) with 'P bound to a player, not a number, compared a tuple with 0
    g = game("(do ((all player 'P (set (('P player) sto N) 1))))")
    with pytest.raises(RecycleRuntimeError, match=r"t\.rcy:3:\d+: \(player \.\.\.\) needs an integer player number"):
        new_game(g)


def test_python_failures_of_the_interpreter_are_internal_errors_not_the_games(monkeypatch):
    from recycle.interp import InternalError
    from recycle.interp.evaluate import Evaluator

    def broken(self, n, env, st):
        return [][1]  # an interpreter bug: IndexError
    monkeypatch.setattr(Evaluator, "_Tri", broken)
    g = game("(do ((set (game sto N) (tri 3))))")
    with pytest.raises(InternalError, match=r"internal error .* t\.rcy:3:\d+: IndexError") as caught:
        new_game(g)
    assert not isinstance(caught.value, GameError)


# --- visibility, observation, determinize --------------------------------------------

VIS = """(do ((move (top (game iloc STOCK)) (top ((0 player) iloc MINE)))
              (move (top (game iloc STOCK)) (top ((0 player) oloc OTHERS)))
              (move (top (game iloc STOCK)) (top ((1 player) hloc NOBODY)))
              (move (top (game iloc STOCK)) (top (game vloc TABLE)))
              (remember (top (game vloc TABLE)) (top (game mem SEEN)))))
         (stage player (end (== (game sto DONE) 1)) (choice ((set (game sto DONE) 1))))"""


def test_observation_respects_visibility():
    s = new_game(game(VIS), seed=5)
    o0, o1 = dict(s.observation(0).locations), dict(s.observation(1).locations)
    assert isinstance(o0["p0 iloc MINE"], tuple) and o1["p0 iloc MINE"] == 1
    assert o0["p0 oloc OTHERS"] == 1 and isinstance(o1["p0 oloc OTHERS"], tuple)
    assert "game iloc STOCK" not in o0  # empty: left out
    assert o0["p1 hloc NOBODY"] == 1 and o1["p1 hloc NOBODY"] == 1
    assert o0["game vloc TABLE"] == o1["game vloc TABLE"] == o0["game mem SEEN"]


def test_determinize_redeals_only_unseen_cards():
    s = new_game(game(VIS), seed=6)
    for player in (0, 1):
        seen = s.observation(player)
        for k in range(5):
            d = s.determinize(player, random.Random(k))
            assert d.observation(player) == seen and repr(d.observation(player)) == repr(seen)
            assert seen.sample_state(random.Random(k)).observation(player) == seen
            assert {key: len(v) for key, v in d.st.locs.items()} == {key: len(v) for key, v in s.st.locs.items()}
            assert sorted(c for key, v in d.st.locs.items() if key[2] != "mem" for c in v) == list(range(4))


def test_players_remember_cards_they_saw_go_into_hidden_places():
    g = game("""(do ((move (top (game iloc STOCK)) (top (game vloc PILE)))
                     (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))
        (stage player (end (== (size (game vloc PILE)) 0))
           (choice ((move (top (game vloc PILE)) (top ((current player) iloc HAND))))))
        (stage player (end (== (game sto DONE) 1))
           (choice ((set (game sto DONE) 1)
                    ((== (game sto HID) 0) (do ((move (top ((0 player) iloc HAND)) (top ((0 player) hloc AWAY)))
                                                (set (game sto HID) 1)))))))""")
    s = new_game(g, seed=3)
    taken = s.st.locs[("g", 0, "vloc", "PILE")][-1]
    s.apply(s.legal_actions()[0])  # p0 picks the face-up card: p1 saw it go into p0's hand
    assert s.st.known == {(1, taken): ("p", 0, "iloc", "HAND")}
    assert s.observation(1).known == ((s.table.text[taken], "p0 iloc HAND"),)
    for k in range(6):
        d = s.determinize(1, random.Random(k))
        assert taken in d.st.locs[("p", 0, "iloc", "HAND")] and d.observation(1) == s.observation(1)
    # p1 cannot see which card of p0's hand leaves for the hidden pile: it forgets; p0 saw it.
    s.apply([a for a in s.legal_actions() if a.text.startswith("move")][0])
    assert list(s.st.known.values()) == [("p", 0, "hloc", "AWAY")] and all(q == 0 for q, _ in s.st.known)


def test_clone_is_independent_and_observations_go_stale():
    s = simple(seed=7)
    seen = s.observation(0)
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert s.choices == 0 and c.choices == 1
    assert s.legal_actions() != c.legal_actions()
    assert seen.true_state().legal_actions() == s.legal_actions()
    s.apply(s.legal_actions()[0])
    with pytest.raises(GameError, match="stale"):
        seen.sample_state(random.Random(1))


def test_determinize_depends_only_on_what_the_player_sees():
    a, b = simple(seed=11), simple(seed=11)
    b.st.locs[("p", 1, "iloc", "HAND")].reverse()  # the same for player 0, another true state
    for k in range(3):
        da, db = a.determinize(0, random.Random(k)), b.determinize(0, random.Random(k))
        assert da.st.locs == db.st.locs


def test_hidden_cards_are_named_by_position_in_actions():
    g = game("""(stage player (end (== (size (game iloc STOCK)) 0))
                  (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))""")
    s = new_game(g)
    assert [str(a) for a in s.legal_actions()] == ["move top card from game STOCK to p0 HAND"]


# --- transcripts -------------------------------------------------------------------

def test_transcript_replays_exactly(tmp_path):
    g_path = tmp_path / "simple.rcy"
    g_path.write_text(f"""(game (setup (create players 2) (create deck (game iloc STOCK) {DECK}))
        (do ({POINTS} (shuffle (game iloc STOCK)))) {DEAL} {PLAY} (scoring max ((current player) sto SCORE)))""")
    state, recs = play_and_record(g_path, 3, [RandomAgent()] * 2, random.Random(3))
    out = tmp_path / "t.jsonl"
    write(out, recs)
    assert replay(out).ok
    assert {r["t"] for r in recs} >= {"game", "deck", "shuffle", "move", "set", "choice", "end"}
    lines = out.read_text().splitlines()
    tampered = [line.replace('"ONE RED HEARTS"', '"TWO RED HEARTS"', 1) if '"t":"move"' in line else line
                for line in lines]
    out.write_text("\n".join(tampered) + "\n")
    report = replay(out)
    assert not report.ok and "expected" in report.difference


# --- properties on corpus games ------------------------------------------------------------

PROPERTY_GAMES = ["rcy/Hearts4.rcy", "gdl/Agram4.gdl", "rcy/Comet4.rcy"]


@pytest.fixture(scope="module")
def corpus_games(shared_dir):
    from recycle.lang import load_game
    return {name: load_game(shared_dir / "recycle-corpus" / name) for name in PROPERTY_GAMES}


def _real_cards(s):
    return sorted(c for key, v in s.st.locs.items() if key[2] != "mem" for c in v)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), which=st.sampled_from(PROPERTY_GAMES))
def test_random_play_properties(corpus_games, seed, which):
    s = new_game(corpus_games[which], seed)
    deck = _real_cards(s)
    rng = random.Random(seed)
    history = []
    while not s.is_terminal():
        player, legal = s.current_player(), s.legal_actions()
        assert legal and len({a.text for a in legal}) == len(legal)
        if len(history) % 7 == 0:  # only offered options are accepted
            with pytest.raises(IllegalAction):
                s.clone().apply("move nothing from nowhere")
            seen = s.observation(player)
            d = s.determinize(player, random.Random(seed + len(history)))
            assert d.observation(player) == seen and _real_cards(d) == deck
            assert [a.text for a in d.legal_actions()] == [a.text for a in legal]
        action = legal[rng.randrange(len(legal))]
        history.append(action.text)
        s.apply(action)
        assert _real_cards(s) == deck  # cards are conserved
    again = new_game(corpus_games[which], seed)
    for text in history:
        again.apply(text)
    assert again.is_terminal() and again.results() == s.results()  # same seed, same game


def test_dialect_a_point_variables_play_like_point_storage(shared_dir, corpus_games):
    text = (shared_dir / "recycle-corpus" / "gdl" / "Agram4.gdl").read_text(encoding="utf-8")
    # As the reference's own Agram listing writes it (dialect A): (put points 'V ...), using 'V.
    text = text.replace("(set (game points PRECEDENCE)", "(put points 'PRECEDENCE")
    listing = parse_game(text.replace("using (game points PRECEDENCE)", "using 'PRECEDENCE"), "a.gdl")
    assert "A" in listing.dialect
    for seed in range(3):
        a, b = new_game(listing, seed), new_game(corpus_games["gdl/Agram4.gdl"], seed)
        rng = random.Random(seed)
        while not a.is_terminal():
            assert [x.text for x in a.legal_actions()] == [x.text for x in b.legal_actions()]
            pick = rng.randrange(len(a.legal_actions()))
            a.apply(a.legal_actions()[pick])
            b.apply(b.legal_actions()[pick])
        assert b.is_terminal() and a.results() == b.results()


# --- the `recycle` command -----------------------------------------------------------

SIMPLE_FILE = f"""(game (setup (create players 2) (create deck (game iloc STOCK) {DECK}))
  (do ({POINTS} (shuffle (game iloc STOCK)))) {DEAL} {PLAY} (scoring max ((current player) sto SCORE)))"""


def test_cli_check_run_replay_and_corpus(tmp_path, capsys):
    import json

    from recycle.cli.main import main

    good, bad = tmp_path / "games" / "Simple2.rcy", tmp_path / "games" / "Broken2.rcy"
    good.parent.mkdir()
    good.write_text(SIMPLE_FILE)
    bad.write_text(SIMPLE_FILE.replace("(create players 2)", "(create players 2) (bogus)"))
    assert main(["check", str(good)]) == 0
    assert main(["check", str(bad)]) == 3 and "Broken2.rcy:1:" in capsys.readouterr().out
    out_json, folder = tmp_path / "r.json", tmp_path / "tr"
    assert main(["run", str(good), "--games", "3", "--seed", "4", "--json", str(out_json),
                 "--transcript", str(folder)]) == 0
    report = json.loads(out_json.read_text())
    assert [s["games"] for s in report["seats"]] == [3, 3] and report["seed"] == 4
    transcripts = sorted(folder.glob("*.jsonl"))
    assert len(transcripts) == 3
    assert main(["replay", *map(str, transcripts)]) == 0 and "reproduced" in capsys.readouterr().out
    assert main(["corpus", str(good.parent), "--games", "2"]) == 1
    table = capsys.readouterr().out
    assert "FAIL" in table and "pass" in table and "1/2 pass" in table
    assert main(["run", str(good), "--players", "nobody", "--seed", "1"]) == 2
