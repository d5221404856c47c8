"""The model of `recycle play` (no Textual): seats, card faces, the board a person may see, options
in the game's words filtered by selected cards, the log in words, game over and transcripts."""
from __future__ import annotations

import random
import re

import pytest
from conftest import corpus_file, game_file

from recycle.climbing.adapter import make_climbing_bot
from recycle.games import game_path
from recycle.interp import new_game
from recycle.interp.transcript import replay, write
from recycle.kernel.specs import AgentSpecError
from recycle.lang import load_game
from tui.anygame.faces import CardFaces
from tui.anygame.seats import read_seats
from tui.anygame.session import GameSession, PlayOptions

#: Games with hidden piles, trick taking, draws, custom faces and teams.
GAMES = ["rcy/Hearts4.rcy", "rcy/Rummy2.rcy", "rcy/GOPS2.rcy", "rcy/Sueca4.rcy", "gdl/Agram3.gdl",
         "rcy/Cheeseheads5.rcy", "rcy/Blackjack2.rcy"]


def session_for(path, players: str = "you,random", seed: int = 3, **kw) -> GameSession:
    game = load_game(path)
    n = new_game(game, 0).num_players
    seats = read_seats(players, kw.pop("seat", None), n)
    agents = [None if p == seats.human else make_climbing_bot(s, game) for p, s in enumerate(seats.specs)]
    return GameSession(PlayOptions(game, seats, agents, seed=seed, **kw))


def play_out(session: GameSession, rng: random.Random, each=None, limit: int = 2000) -> None:
    """Bots decide, the person picks random options, until the game ends; `each(session)` at every turn."""
    for _ in range(limit):
        if session.over:
            return
        if each:
            each(session)
        job = session.bot_job()
        if job is not None:
            decision = job.run()
            session.apply(job.player, decision.action, decision.trace)
        else:
            session.choose(rng.choice(session.options_now()).index)
    raise AssertionError("the game did not end")


# ---- seats ---------------------------------------------------------------------------------
def test_seats_put_you_where_named_and_rotate_the_bots():
    s = read_seats("ismcts:time=1,c=0.5,you,Classic", None, 5)
    assert s.human == 1 and s.specs == ("ismcts:time=1,c=0.5", "you", "Classic", "ismcts:time=1,c=0.5", "Classic")
    assert read_seats(None, 2, 3).specs == ("random", "random", "you")
    assert read_seats("you, ismcts:time=0.5,random", None, 3).specs == ("you", "ismcts:time=0.5", "random")


@pytest.mark.parametrize("players, seat, n, message", [
    ("you,you", None, 4, "one person"), ("you,a,b,c,d", None, 4, "5 seats"),
    ("random,you,random,random", 0, 4, "--seat 0"), ("random", 4, 4, "0 to 3")])
def test_bad_seats_say_why(players, seat, n, message):
    with pytest.raises(AgentSpecError, match=message):
        read_seats(players, seat, n)


# ---- faces ---------------------------------------------------------------------------------
@pytest.mark.parametrize("where, queen", [("Hearts4", "QUEEN BLACK SPADES"), ("rcy/Hearts4.rcy", "Q BLACK SPADES")],
                         ids=["shipped", "corpus"])
def test_standard_cards_get_rank_and_suit_symbols_and_red_suits(where, queen):
    table = new_game(game_file(where), 0).table
    faces = CardFaces(table)
    by_text = {table.text[c]: faces.face(c) for c in range(len(table.text))}
    assert faces.standard and faces.legend == ()
    assert by_text["TEN RED HEARTS"].label == "T♥" and by_text["TEN RED HEARTS"].colour == "red"
    assert by_text[queen].label == "Q♠" and by_text[queen].colour == ""
    assert faces.words("move TEN RED HEARTS from p0 HAND to p0 TRICK") == "move T♥ from p0 HAND to p0 TRICK"


@pytest.mark.parametrize("name, legend", [
    ("rcy/Sueca4.rcy", ["SUIT: S=SWORDS C=CUPS O=COINS"]),
    ("rcy/Cheeseheads5.rcy", ["RANK: E=ELEVEN W=TWELVE H=THIRTEEN F=FOURTEEN", "COLOR: R=RED B=BLUE G=GREEN Y=YELLOW"]),
    ("rcy/Simon'sCat4.rcy", ["ANIMAL: S=SIMON", "RANK: E=ELEVEN W=TWELVE",
                             "TYPE: C=CAT K=KITTEN H=HEDGEHOG D=DOG M=MOUSE G=GNOME"]),
])
def test_custom_attributes_get_two_cell_faces_that_tell_cards_apart_and_a_legend(name, legend):
    table = new_game(corpus_file(name), 0).table
    faces = CardFaces(table)
    assert not faces.standard and list(faces.legend) == legend
    assert faces.width <= 2
    labels = {}
    for c, attrs in enumerate(table.attrs):  # different cards, different faces
        labels.setdefault(faces.label(c), set()).add(tuple(sorted(attrs.items())))
    assert all(len(kinds) == 1 for kinds in labels.values())


def test_a_legend_never_gives_one_letter_two_meanings():
    """Tides of Time: suits and names each get their own letters (S is STRONGHOLD only)."""
    faces = CardFaces(new_game(game_path("TidesOfTime2"), 0).table)
    codes = [entry.split("=")[0] for line in faces.legend for entry in line.split(": ", 1)[1].split()]
    assert len(codes) == len(set(codes)) == 24  # 6 suits, 18 names
    assert len({f.label for f in faces.faces}) == len(faces.faces)  # every card its own face


# ---- the board: exactly what the person may see ---------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_the_board_shows_exactly_the_observation_and_the_log_names_no_unseen_card(name):
    session = session_for(corpus_file(name), seed=5)
    seen_faces: set[str] = set()

    def check(s: GameSession) -> None:
        board, obs = s.board(), s.state.observation(s.me)
        visible = {title: cards for title, cards in obs.locations}
        for owner in board.owners:
            for pile in owner.piles:
                full = f"{owner.tag} {pile.visibility} {pile.name}"
                if pile.visible:
                    assert tuple(s.state.table.text[c] for c in pile.cards) == visible.get(full, ())
                    seen_faces.update(s.faces.label(c) for c in pile.cards)
                else:
                    assert pile.cards == () and pile.size == visible.get(full, 0)
        for option in s.options_now():
            seen_faces.update(s.faces.label(c) for c in option.cards)

    play_out(session, random.Random(1), check)
    # The game is over: nothing is hidden any more, every card is shown (the seat saw the last
    # places of the cards it could see; the log is checked against those).
    assert session.board().open and all(p.visible for o in session.board().owners for p in o.piles)
    for _, cards in session.state.observation(session.me).locations:
        if isinstance(cards, tuple):
            seen_faces.update(session.faces.label(session.card_of[t]) for t in cards)
    faces = {f.label for f in session.faces.faces}
    pattern = re.compile(r"(?<!\S)(" + "|".join(map(re.escape, sorted(faces, key=len, reverse=True))) + r")(?!\S)")
    named = {m.group(1) for line in session.log if not line.startswith("game over") for m in pattern.finditer(line)}
    # Every card the log names was on the person's screen at some moment (a move seen from
    # or into a visible place), never only in a bot's hidden hand.
    assert named <= seen_faces | {f for f in faces if f.isdigit()}


def test_hidden_hands_are_counts_and_my_hand_is_cards():
    session = session_for(game_path("Poker5"), seed=2)
    board = session.board()
    hand = board.hand()
    assert [p.title for p in hand] == ["p0 HAND"] and len(hand[0].cards) == 5
    other = board.pile("p1 HAND")
    assert other is not None and not other.visible and other.cards == () and other.size == 5
    assert dict(board.owner("game").storage)["POT"] == 5


# ---- options -------------------------------------------------------------------------------
def test_selecting_cards_filters_the_options_that_move_them():
    session = session_for(game_path("Poker5"), players="you,random", seed=2)
    while not any(o.cards for o in session.options_now()):  # the bets come before the discard
        job = session.bot_job()
        if job is not None:
            session.apply(job.player, job.run().action)
        else:
            session.choose(session.options_now()[0].index)
    options = session.options_now()
    hand = session.board().hand()[0].cards
    one, two = hand[0], hand[1]
    assert {o.index for o in session.matching({one})} == {o.index for o in options if one in o.cards}
    both = session.matching({one, two})
    assert both and all(o.moves([one, two]) for o in both) and both[0].cards == tuple(sorted((one, two)))
    assert len(session.matching({one})) > 1 and session.sole_option(one) is None
    assert all(session.faces.label(one) in o.label for o in session.matching({one}))


def test_a_card_in_exactly_one_option_is_that_option():
    session = session_for(corpus_file("rcy/Hearts4.rcy"), seed=1)
    options = session.options_now()
    assert options and all(len(o.cards) == 1 for o in options)
    card = next(iter(options[0].cards))
    assert session.sole_option(card) == options[0]
    face = session.faces.label(card)
    assert options[0].label == f"play {face}" and options[0].text.startswith("move ")


# ---- bots, game over, transcripts ----------------------------------------------------------
def test_bot_decisions_keep_their_reasoning_and_the_game_ends_with_ranked_scores(tmp_path):
    session = session_for(corpus_file("rcy/Hearts4.rcy"), players="you,ismcts:iterations=30,random", seed=4)
    play_out(session, random.Random(2))
    standings = session.standings()
    results = session.state.results()
    assert [row[1] for row in standings] == sorted(range(4), key=lambda p: (results.ranks[p], p))
    assert session.log[-1].startswith("game over: ")
    searched = [d for d in session.reasoning() if d.name == "p1 ismcts"]  # opened: the game is over
    assert searched and all(d.trace is not None and "iterations" in d.trace.summary() for d in searched)
    assert {d.player for d in session.decisions} == {1, 2, 3}
    path = tmp_path / "hearts.jsonl"
    write(path, session.transcript())
    report = replay(path)
    assert report.ok, report.difference
    assert report.choices == session.state.choices


def test_play_again_keeps_the_seats_and_moves_to_the_next_seed():
    session = session_for(corpus_file("rcy/GOPS2.rcy"), seed=7)
    play_out(session, random.Random(3))
    again = session.again()
    assert again.seats == session.seats and again.options.seed == 8 and again.number == 2
    assert not again.over and again.log and again.decisions == []


def test_a_game_that_fails_while_playing_shows_its_located_error():
    session = session_for(corpus_file("gdl/StealingBundles5.gdl"), seed=0)
    play_out(session, random.Random(0))
    assert session.over and session.results() is None
    assert re.search(r"StealingBundles5\.gdl:30:\d+: nothing to move", session.error)


def test_teams_are_shown_and_hidden_cards_i_saw_go_are_known_where_they_are():
    sueca = session_for(corpus_file("rcy/Sueca4.rcy"), seed=1)
    assert sueca.board().teams == ((0, 2), (1, 3))
    rummy = session_for(corpus_file("rcy/Rummy2.rcy"), seed=1)
    rng, found = random.Random(0), None
    while found is None and not rummy.over:
        board = rummy.board()
        found = next((p for o in board.owners for p in o.piles if p.known), None)
        if found is None:
            job = rummy.bot_job()
            if job is not None:
                rummy.apply(job.player, job.run().action)
            else:
                rummy.choose(rng.choice(rummy.options_now()).index)
    # The bot took a face-up card into its hidden hand: I know that card is there, and only that one.
    assert found is not None and found.title == "p1 HAND" and not found.visible
    st = rummy.state.st
    assert set(found.known) == {c for (q, c), key in st.known.items() if q == 0 and key == found.key}
    assert any(f"take {rummy.faces.label(c)} from " in line for c in found.known for line in rummy.log)


def test_open_hands_shows_every_card_and_reasoning_and_the_transcript_says_so(tmp_path):
    game = load_game(game_path("TidesOfTime2"))
    seats = read_seats("random,you", None, 2)
    agents = [make_climbing_bot("random", game), None]
    session = GameSession(PlayOptions(game, seats, agents, seed=2, open_hands=True))
    job = session.bot_job()
    session.apply(job.player, job.run().action, None)
    pick = session.board().pile("p0 PICK")
    assert session.board().open and pick.visible and len(pick.cards) == 1
    assert "a card" not in session.reasoning()[-1].action  # the bot's own words
    play_out(session, random.Random(0))
    path = tmp_path / "open.jsonl"
    write(path, session.transcript())
    assert replay(path).ok and "you (open hands)" in path.read_text()
