"""Deal files, fixed deals in both engines, and `president crosscheck` (native vs RECYCLE President)."""
from __future__ import annotations

import json
import random
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president.cli import main as president
from president.game.deals import hand_sizes, pack, parse_deal_text, random_deal, read_deal_file, write_deal_file
from president.game.settings import Settings, preset
from president.game.state import PresidentState
from recycle.games import game_path
from recycle.cli import main as recycle
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.protocol import RandomAgent
from recycle.interp import RecycleRuntimeError, new_game
from recycle.kernel.deal_file import parse_deal
from recycle.interp.arrange import short_name
from recycle.interp.transcript import play_and_record, replay, write
from recycle.lang import load_game, parse_game

CLASSIC = preset("classic")
PRESIDENT5 = game_path("President5")


def tables():
    """Any table the native engine deals: 3-7 players, one or two decks, jokers."""
    return st.builds(lambda players, decks, jokers: Settings(players=players, decks=decks,
                                                             jokers=min(jokers, 2 * decks)),
                     st.integers(3, 7), st.integers(1, 2), st.integers(0, 4))


def recycle_hands(state, players: int = 5) -> list[list[str]]:
    """Each player's HAND as `3c`-style names, sorted like a `Deal`."""
    from president.game.cards import Card

    return [[str(c) for c in sorted(Card.parse(short_name(state.table.attrs[i]))
                                    for i in state.st.locs[("p", p, "iloc", "HAND")])] for p in range(players)]


def errors_of(text: str, table: Settings = CLASSIC) -> str:
    with pytest.raises(DiagnosticError) as info:
        parse_deal_text(text, table, "bad.deal")
    return info.value.render()


# ---- deal files ------------------------------------------------------------------------

@given(tables(), st.integers(0, 2**32), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_deal_files_round_trip(table, seed, shuffler):
    deal = random_deal(table, random.Random(seed))
    assert sorted(c for hand in deal.hands for c in hand) == sorted(pack(table))
    assert [len(h) for h in deal.hands] == hand_sizes(table)
    text = deal.text(comment=f"deal of seed {seed}\nsecond comment line")
    assert parse_deal_text(text, table) == deal
    # Seat lines in any order, with comments and blank lines between them: the same deal.
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    shuffler.shuffle(lines)
    assert parse_deal_text("\n\n# shuffled\n".join(lines) + "  # end", table) == deal


def test_a_deal_file_on_disk_round_trips(tmp_path):
    deal = random_deal(CLASSIC, random.Random(3))
    write_deal_file(tmp_path / "d.deal", deal, "for the test")
    assert (tmp_path / "d.deal").read_text().startswith("# for the test\np0: ")
    assert read_deal_file(tmp_path / "d.deal", CLASSIC) == deal


GOOD = random_deal(CLASSIC, random.Random(1)).text()


def test_bad_deal_files_are_reported_at_their_line_and_column():
    assert GOOD.splitlines()[0] == "p0: 6c 6d 7h 9h 9s Td Ts Qc Qh Ah 2d"
    bad = GOOD.replace("p4:", "p7:").replace(" 2d", " 2d 2d", 1).replace("Kc", "Kx", 1)
    assert errors_of(bad).splitlines() == [
        "bad.deal:1:1: error: p0 has 12 cards, but dealing 52 cards to 5 players gives it 11",
        "    p0: 6c 6d 7h 9h 9s Td Ts Qc Qh Ah 2d 2d",
        "    ^~",
        "  hint: not dealt yet: Kc",
        "bad.deal:1:38: error: duplicate card 2d",
        "    p0: 6c 6d 7h 9h 9s Td Ts Qc Qh Ah 2d 2d",
        "                                         ^~",
        "  hint: the pack has 1 of it",
        "bad.deal:4:26: error: 'Kx' is not a card (examples: 7h, Tc, 2s, Jk)",
        "    p3: 4c 6s 8c 8h Th Jd Js Kx Ac Ad",
        "                             ^~",
        "  hint: a card is a value and a suit letter: 3c, Td, Qh, As, 2s",
        "bad.deal:5:1: error: 'p7' is not a seat of this 5-player table",
        "    p7: 3c 3h 3s 4d 4h 8s 9d Tc Qs 2c",
        "    ^~",
        "  hint: seats are p0 to p4",
        "bad.deal:6:1: error: the deal has 4 hands for 5 players: p4 missing",
        "  hint: not dealt yet: Kc",
    ]


def test_missing_cards_and_cards_not_in_the_pack_are_named():
    short = "\n".join(GOOD.splitlines()[:-1]) + "\np4: 3c 3h 3s 4d 4h 8s 9d Tc Qs\n"
    assert "p4 has 9 cards, but dealing 52 cards to 5 players gives it 10" in errors_of(short)
    assert "hint: not dealt yet: 2c" in errors_of(short)
    joker = GOOD.replace("2c", "Jk")
    assert "Jk is not in this pack" in errors_of(joker)
    assert "the table plays 1 deck(s) and 0 joker(s)" in errors_of(joker)


@pytest.mark.parametrize("text, message", [
    ("p0 3c 4c\n", "bad.deal:1:1: error: a deal line is PLACE: CARDS"),
    ("p0: 3c\n  p0: 4c\n", "bad.deal:2:3: error: p0 is dealt twice (first on line 1)"),
    (": 3c\n", "bad.deal:1:1: error: a deal line is PLACE: CARDS"),
])
def test_deal_lines_that_are_not_place_and_cards(text, message):
    with pytest.raises(DiagnosticError) as info:
        parse_deal(text, "bad.deal")
    assert info.value.render().splitlines()[0] == message


def test_a_seat_numbered_with_a_unicode_digit_is_a_located_error(tmp_path):
    # found by bench/fuzz.py: '⓷'.isdigit() is True but int('⓷') raises
    (tmp_path / "odd.deal").write_text("p0⓷: 3c\n", encoding="utf-8")
    with pytest.raises(DiagnosticError, match=r"odd.deal:1:1: error: 'p0⓷' is not a seat of this 5-player table"):
        read_deal_file(tmp_path / "odd.deal", CLASSIC)


def test_an_unreadable_deal_file_is_a_located_error(tmp_path):
    (tmp_path / "bin.deal").write_bytes(b"p0: 3c \xff\n")
    with pytest.raises(DiagnosticError, match=r"bin.deal:1:8: error: not UTF-8 text"):
        read_deal_file(tmp_path / "bin.deal", CLASSIC)


# ---- injection into both engines -------------------------------------------------------

@given(st.integers(0, 2**32), st.integers(0, 2**16), st.integers(0, 2**16))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_both_engines_deal_exactly_the_given_hands_whatever_the_seed(deal_seed, seed_a, seed_b):
    deal = random_deal(CLASSIC, random.Random(deal_seed))
    want = [[str(c) for c in hand] for hand in deal.hands]
    native = PresidentState.new_match(CLASSIC, seed_a, deal=[list(h) for h in deal.hands])
    assert [[str(c) for c in native.hand(p)] for p in range(5)] == want
    game = load_game(PRESIDENT5)
    for seed in (seed_a, seed_b):
        state = new_game(game, seed, deal=deal.places())
        assert recycle_hands(state) == want
        # the three of clubs leads in both engines
        assert state.current_player() == native.current_player() == next(
            p for p, hand in enumerate(deal.hands) if any(str(c) == "3c" for c in hand))


def test_recycle_keeps_the_written_order_and_deals_places_left_out_from_the_seed():
    game = load_game(PRESIDENT5)
    p1 = ["KING RED HEARTS", "THREE BLACK CLUBS", "TWO BLACK SPADES"] + [
        "FOUR RED DIAMONDS", "FIVE RED DIAMONDS", "SIX RED DIAMONDS", "SEVEN RED DIAMONDS", "EIGHT RED DIAMONDS",
        "NINE RED DIAMONDS", "TEN RED DIAMONDS", "JACK RED DIAMONDS"]
    hands = set()
    for seed in range(4):
        state = new_game(game, seed, deal={"p1 HAND": p1})
        assert [state.table.text[c] for c in state.st.locs[("p", 1, "iloc", "HAND")]] == p1
        others = [tuple(state.st.locs[("p", p, "iloc", "HAND")]) for p in (0, 2, 3, 4)]
        assert sorted(c for h in others for c in h) == sorted(set(range(52)) - set(state.st.locs[("p", 1, "iloc",
                                                                                                     "HAND")]))
        hands.add(tuple(others))
    assert len(hands) == 4  # the rest of the deal still comes from the seed


def test_recycle_deal_errors_are_located_in_the_deal():
    bad = parse_deal("p0: 3c 3c 3x\np9: 4d\n", "x.deal")
    with pytest.raises(DiagnosticError) as info:
        new_game(PRESIDENT5, 1, deal=bad)
    text = info.value.render()
    assert "x.deal:1:8: error: duplicate card 3c: the pack has 1 of it" in text
    assert "x.deal:1:11: error: '3x' is not a card of the stock" in text
    assert "x.deal:1:1: error: p0 HAND gets 11 cards from the game's deal, not 3" in text
    assert "x.deal:2:1: error: the game's deal puts no card in 'p9'" in text
    assert "hint: places the deal fills: p0 HAND, p1 HAND, p2 HAND, p3 HAND, p4 HAND" in text


FACE_DEAL = """(game (setup (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ACE, TWO)) (COLOR (RED (SUIT (HEARTS))) (BLACK (SUIT (CLUBS)))))))
  (do ((shuffle (game iloc STOCK))
       (repeat 4 (do (((== (cardatt COLOR (top (game iloc STOCK))) RED)
                       (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))
                      ((== (cardatt COLOR (top (game iloc STOCK))) BLACK)
                       (move (top (game iloc STOCK)) (top ((1 player) iloc HAND)))))))))
  (stage player (end (== (size ((current player) iloc HAND)) 0))
    (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
  (scoring max ((current player) sto SCORE)))"""


def test_a_game_that_deals_by_the_cards_faces_is_refused_at_its_shuffle():
    game = parse_game(FACE_DEAL, "faces.rcy")
    with pytest.raises(RecycleRuntimeError) as info:
        new_game(game, 1, deal={"p0": ["ACE RED HEARTS", "TWO RED HEARTS"]})
    message = str(info.value)
    assert message.startswith("faces.rcy:3:8: the game's deal depends on the cards' faces")
    assert "hint: deal files work with games that deal the shuffled stock in a fixed pattern" in message


def test_a_game_that_deals_without_shuffling_is_refused():
    game = parse_game(FACE_DEAL.replace("(shuffle (game iloc STOCK))", ""), "plain.rcy")
    with pytest.raises(RecycleRuntimeError, match="shuffles nothing before its first choice"):
        new_game(game, 1, deal={"p0": ["ACE RED HEARTS"]})


def test_a_dealt_transcript_replays(tmp_path):
    deal = random_deal(CLASSIC, random.Random(5))
    state, recs = play_and_record(load_game(PRESIDENT5), 9, [RandomAgent()] * 5, random.Random(2),
                                  deal=deal.places())
    assert sorted(recs[0]["deal"]) == ["p0 HAND", "p1 HAND", "p2 HAND", "p3 HAND", "p4 HAND"]
    write(tmp_path / "t.jsonl", recs)
    assert replay(tmp_path / "t.jsonl").ok


# ---- --deal options ----------------------------------------------------------------------

def test_simulate_and_recycle_run_take_a_deal_file(tmp_path, capsys):
    path = tmp_path / "d.deal"
    write_deal_file(path, random_deal(CLASSIC, random.Random(4)))
    for seed in ("1", "2"):
        assert president(["simulate", "--players", "Classic", "--rounds", "1", "--matches", "2", "--seed", seed,
                          "--deal", str(path), "--json", str(tmp_path / f"s{seed}.json")]) == 0
    first, second = (json.loads((tmp_path / f"s{s}.json").read_text()) for s in "12")
    assert first["seats"] == second["seats"]  # the deal, not the seed, decides a deterministic round
    assert recycle(["run", "President5", "--games", "2", "--seed", "1", "--deal", str(path)]) == 0
    path.write_text(path.read_text().replace("p1:", "p1: 3c"))
    assert president(["simulate", "--players", "Classic", "--deal", str(path), "--seed", "1"]) == 3
    assert recycle(["run", "President5", "--seed", "1", "--deal", str(path)]) == 3
    err = capsys.readouterr().err
    assert f"{path}:2:1: error: p1 has 12 cards" in err and f"{path}:4:5: error: duplicate card 3c" in err
    assert "Traceback" not in err


def test_play_starts_from_a_deal_file(tmp_path, capsys):
    from tui.president.options import MatchOptions
    from tui.president.session import Session

    deal = random_deal(CLASSIC, random.Random(6))
    session = Session(MatchOptions(CLASSIC, 1, ("Classic",), deal=deal.hands))
    assert [tuple(session.state.hand(p)) for p in range(5)] == list(deal.hands)
    (tmp_path / "bad.deal").write_text("p0: 3c\n")
    assert president(["play", "--deal", str(tmp_path / "bad.deal"), "--seed", "1"]) == 3
    assert f"{tmp_path / 'bad.deal'}:1:1: error: p0 has 1 card," in capsys.readouterr().err


# ---- crosscheck ------------------------------------------------------------------------

def test_crosscheck_of_100_deals_finds_no_divergence(tmp_path, capsys):
    assert president(["crosscheck", "--deals", "100", "--seed", "0", "--json", str(tmp_path / "c.json")]) == 0
    out = capsys.readouterr().out
    assert "100 deal(s), seed 0: 0 divergence(s)" in out
    report = json.loads((tmp_path / "c.json").read_text())
    assert report["divergences"] == 0 and report["first"] is None
    assert report["bots"] == ["Aggressive", "Beginner", "Cautious", "Classic", "Closer"]
    assert report["native_settings"]["rounds"] == "1"
    assert report["plays_compared"] > 100 * 40  # every deal was played out in both engines


def test_crosscheck_aligns_random_draws(capsys):
    # Gambler's rules draw Random: the same decisions must draw the same numbers in both engines.
    assert president(["crosscheck", "--deals", "40", "--seed", "3",
                      "--bots", "Gambler,Counter,RankAware,TwoHoarder,Gambler"]) == 0


@pytest.mark.parametrize("table", [["--set", "equal_value=allow"], ["--preset", "pagat"]])
def test_a_different_native_table_is_reported_with_both_traces(tmp_path, capsys, table):
    code = president(["crosscheck", "--deals", "3", "--seed", "1", *table, "--json", str(tmp_path / "c.json")])
    out = capsys.readouterr().out
    assert code == 1
    assert "deal 0: the engines differ at turn" in out and "native trace" in out and "RECYCLE trace" in out
    first = json.loads((tmp_path / "c.json").read_text())["first"]
    native, rec = first["native"], first["recycle"]
    assert native["turn"] != rec["turn"]
    assert native["trace"]["rules"] and rec["trace"]["rules"]  # each side's rule trace of that decision
    assert len(first["plays_so_far"]) == first["turn"] - 1
    # The reported deal reads back as a deal file (to replay the divergence with --deal).
    deal_file = "\n".join(f"{seat}: {cards}" for seat, cards in first["deal"].items())
    assert parse_deal_text(deal_file, CLASSIC).to_json() == first["deal"]


def test_crosscheck_refuses_what_it_cannot_compare(capsys):
    assert president(["crosscheck", "--deals", "1", "--bots", "Classic,Classic"]) == 2
    assert president(["crosscheck", "--deals", "1", "--set", "players=4"]) == 2
    assert president(["crosscheck", "--deals", "1", "--bots", "random,Classic,Classic,Classic,Classic"]) == 2
    err = capsys.readouterr().err
    assert "five seats" in err and "5-player game" in err and "not a personality" in err
    assert "Traceback" not in err


def test_a_recycle_president_with_a_rule_left_out_diverges(tmp_path):
    # President5 without "a skipped player counts as having passed": tricks end at another
    # turn after an equal-value play, which only some deals reach.
    from president.cli.commands.crosscheck import Crosscheck, default_bots

    text = open(PRESIDENT5, encoding="utf-8").read()
    rule = "((== (game sto SKIP) 1) (set (game sto PASSES) 1))"
    assert text.count(rule) == 1
    (tmp_path / "President5.gdl").write_text(text.replace(rule, ""), encoding="utf-8")
    check = Crosscheck(CLASSIC.with_overrides({"rounds": "1"}), default_bots(), 0,
                       game=str(tmp_path / "President5.gdl"))
    found = [d for d, _ in map(check.check, range(6)) if d is not None]
    assert [d.index for d in found] == [4]
    first = found[0]
    assert first.native.turns[:first.turn] == first.recycle.turns[:first.turn]
    assert first.native.traces and first.recycle.traces


def test_an_engine_failing_is_reported_with_its_deal(tmp_path):
    from president.cli.commands.crosscheck import Crosscheck, crosscheck, default_bots
    from recycle.kernel.protocol import GameError

    text = open(PRESIDENT5, encoding="utf-8").read()
    # the pass option never offered: a player who cannot beat the upcards has no option at all
    no_pass = text.replace("((> (size (game vloc TABLE)) 0)\n                  (inc", "((== 1 2)\n                  (inc")
    assert no_pass.count("((== 1 2)") == 1
    (tmp_path / "President5.gdl").write_text(no_pass, encoding="utf-8")
    check = Crosscheck(CLASSIC.with_overrides({"rounds": "1"}), default_bots(), 0,
                       game=str(tmp_path / "President5.gdl"))
    with pytest.raises(GameError, match=r"^deal 0: .*President5.gdl:\d+:\d+: "):
        crosscheck(check, 3)
