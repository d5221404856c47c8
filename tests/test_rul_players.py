"""Rule players in real President games, the exchange default, reload, and the shipped personalities."""
from __future__ import annotations

from pathlib import Path

import itertools
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from personalities.catalog import shipped, shipped_names
from personalities.evaluator import GameVariables, decide
from personalities.player import EXCHANGE_NOTE, RulePlayer, exchange_choice
from personalities.reader import check_file, load_personality, parse_personality
from personalities.variables import Variable
from personalities.view import JOKER, TWO, ClimbingView, ExchangeView
from president.game.cards import PASS, Give
from president.game.observation import NO_RANK, rank_of_place
from president.game.settings import Settings, preset
from president.game.state import Phase, PresidentState
from president.game.view import president_view
from recycle.kernel.protocol import play_game

MANUAL_EXAMPLE = (Path(__file__).parent / "data" / "ManualExample.rul").read_text(encoding="utf-8")
TABLES = {"classic": preset("classic"), "pagat": preset("pagat"), "daifugo": preset("daifugo"),
          "six": Settings(players=6, decks=2, jokers=2), "three": Settings(players=3)}


def player(name: str) -> RulePlayer:
    return RulePlayer(shipped(name), president_view)


def rul(text: str, name: str = "Test"):
    return parse_personality(text, name=name)


def counts_of(values: list[int]) -> tuple[int, ...]:
    c = [0] * 17
    for v in values:
        c[v] += 1
    return tuple(c)


def random_position(seed: int) -> ClimbingView:
    """A random consistent position: hand, played cards, upcards or the lead, opponents' sizes."""
    from president.game.view import hypothetical_view

    rng = random.Random(seed)
    deck = [v for v in range(3, 16) for _ in range(4)]
    rng.shuffle(deck)
    n_hand, n_played = rng.randint(1, 14), rng.randint(0, 22)
    hand, played, rest = deck[:n_hand], deck[n_hand:n_hand + n_played], deck[n_hand + n_played:]
    upcards = None
    if rng.random() < 0.65:
        v = rng.choice(rest)
        upcards = [v] * rng.randint(1, rest.count(v))
    return hypothetical_view(Settings(), hand, upcards, played, None, rng.randint(1, 6), 0)


# --- rule players in real games -------------------------------------------------------

@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_personality_plays_only_legal_actions(name):
    table = Settings(rounds=4)
    agents = [player(name), player("Classic"), player("Gambler"), player(name), player("Counter")]
    seen = 0

    def check(state, p, decision):
        nonlocal seen
        assert decision.action in state.legal_actions()
        seen += 1

    play_game(PresidentState.new_match(table, 7), agents, random.Random(1), on_decision=check, explain=True)
    assert seen > 100


@pytest.mark.parametrize("table", list(TABLES), ids=str)
def test_rule_players_finish_matches_on_every_table(table):
    settings = TABLES[table].with_overrides({"rounds": "3"})
    names = shipped_names()
    agents = [player(names[i % len(names)]) for i in range(settings.players)]
    results = play_game(PresidentState.new_match(settings, 3), agents, random.Random(3))
    assert sorted(results.ranks)[0] == 1


@settings(deadline=None, max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from(list(TABLES)))
def test_explained_games_are_the_same_games(seed, table):
    """Tracing never changes decisions: a game with explain=True equals the plain hot path."""
    settings = TABLES[table].with_overrides({"rounds": "2"})
    names = ["Gambler", "Counter", "RankAware", "Cautious", "Closer", "Aggressive", "TwoHoarder"]

    def run(explain: bool, hook: bool):
        agents = [player(names[i]) for i in range(settings.players)]
        state = PresidentState.new_match(settings, seed)
        rng = random.Random(seed)
        log = []
        on = (lambda s, p, d: log.append((p, d.action))) if hook else None
        play_game(state, agents, rng, on_decision=on, explain=explain)
        return state.round_log, state.scores, rng.getstate(), log

    plain = run(False, False)
    traced = run(True, True)
    untraced = run(False, True)
    assert plain[:3] == traced[:3] == untraced[:3]
    assert traced[3] == untraced[3]


def test_rule_player_matches_the_engine_decision():
    personality = shipped("Counter")
    bot = RulePlayer(personality, president_view)
    agents = [bot] + [player("Classic") for _ in range(4)]
    checked = 0

    def check(state, p, decision):
        nonlocal checked
        if p != 0 or state.phase is not Phase.PLAY:
            return
        view = president_view(state.observation(0), state.legal_actions())
        play, _, _, _ = decide(personality, view, random.Random(0))
        assert decision.action == view.action(play)
        assert decision.trace.action == str(decision.action)
        checked += 1

    play_game(PresidentState.new_match(Settings(rounds=3), 11), agents, random.Random(0), on_decision=check,
              explain=True)
    assert checked > 20


@settings(deadline=None, max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from(["classic", "daifugo", "six"]))
def test_president_view_agrees_with_the_true_state(seed, table):
    """Every variable a rule reads, checked against the full state (which the player cannot see)."""
    settings = TABLES[table].with_overrides({"rounds": "2"})
    agents = [player("Classic") for _ in range(settings.players)]

    def check(state, p, decision):
        legal = state.legal_actions()
        view = president_view(state.observation(p), legal)
        if state.phase is Phase.EXCHANGE:
            assert isinstance(view, ExchangeView)
            return
        others = [q for q in range(state.num_players) if q != p and state.places[q] == 0]
        assert view.hand == tuple(state.counts[p])
        assert view.opponent_counts == tuple(state.sizes[q] for q in others)
        for v in range(3, 17):  # unseen: exactly what the opponents still in hold
            assert view.unseen[v] == sum(state.counts[q][v] for q in others)
        assert view.upcards == (None if state.upcards is None else (state.upcards.value, state.upcards.count))
        assert view.can_pass == (PASS in legal)
        naturals = {(a.value, a.count) for a in legal if not a.is_pass and a.jokers == 0}
        assert view.legal == naturals or (not naturals and not view.can_pass)
        s = GameVariables(view, random.Random(0))
        played = state.played.bit_count()
        assert s.value(Variable.LEAD, None) == int(state.upcards is None)
        assert s.value(Variable.TWOS_LEFT, None) == sum(state.counts[q][TWO] for q in others)
        assert s.value(Variable.PERCENT_PLAYED, None) == 100 * played // settings.deck_size
        assert s.value(Variable.HIGHEST_OPP_CARDS, None) == max(state.sizes[q] for q in others)
        assert s.value(Variable.PLAYERS_LEFT, None) == len(others) + 1
        assert s.value(Variable.TOT_MY_CARDS, None) == state.sizes[p]
        assert s.value(Variable.TOT_MY_TWOS, None) == state.counts[p][TWO]
        if state.prev_places is None:
            assert s.value(Variable.RANK, None) == NO_RANK
            assert s.value(Variable.HIGHER_PLAYERS, None) == 0
        else:
            mine = state.prev_places[p]
            assert s.value(Variable.RANK, None) == rank_of_place(mine, state.num_players)
            assert s.value(Variable.HIGHER_PLAYERS, None) == sum(state.prev_places[q] < mine for q in others)

    play_game(PresidentState.new_match(settings, seed), agents, random.Random(seed), on_decision=check)


def test_rank_and_higher_players_in_a_later_round():
    seen = set()
    agents = [player("Classic") for _ in range(5)]

    def check(state, p, decision):
        if state.phase is Phase.PLAY and state.prev_places is not None:
            view = president_view(state.observation(p), state.legal_actions())
            seen.add((view.rank, view.higher_players))

    play_game(PresidentState.new_match(Settings(rounds=3), 5), agents, random.Random(5), on_decision=check)
    assert {r for r, _ in seen} == {1, 2, 3, 4, 5}
    assert (1, 0) in seen and any(h > 0 for _, h in seen)
    assert all(h <= r - 1 for r, h in seen)


# --- the exchange --------------------------------------------------------------------

EXCHANGES = [
    # (hand values, count, gift)
    ([3, 3, 9, 15], 2, (3, 3)),
    ([4, 9, 9, 13, 15, 15], 2, (4, 9)),
    ([13, 15, 15], 2, (13, 15)),  # one non-two only: then the lowest two
    ([15, 15, JOKER], 2, (15, 15)),  # only twos and jokers: twos before jokers
    ([15, JOKER, JOKER], 2, (15, JOKER)),
    ([JOKER, JOKER, 14], 2, (14, JOKER)),
    ([3, 4, 5, 15], 1, (3,)),
    ([14, 14, 14, 15], 3, (14, 14, 14)),
]


@pytest.mark.parametrize(("hand", "count", "gift"), EXCHANGES)
def test_exchange_choice_gives_the_lowest_cards(hand, count, gift):
    assert exchange_choice(ExchangeView(counts_of(hand), count, 4)) == gift


@settings(deadline=None, max_examples=150)
@given(st.lists(st.integers(3, 16), min_size=1, max_size=20), st.data())
def test_exchange_never_gives_a_two_while_another_card_is_left(values, data):
    hand = [0] * 17
    for v in values:
        hand[v] = min(hand[v] + 1, 2 if v == JOKER else 4)
    total = sum(hand)
    count = data.draw(st.integers(1, min(4, total)))
    gift = exchange_choice(ExchangeView(tuple(hand), count, 0))
    assert list(gift) == sorted(gift) and len(gift) == count
    assert all(gift.count(v) <= hand[v] for v in set(gift))
    plain = sum(hand[v] for v in range(3, TWO))
    given_plain = [v for v in gift if v < TWO]
    assert len(given_plain) == min(count, plain)  # twos/jokers only when nothing else is left
    kept_plain = [v for v in range(3, TWO) for _ in range(hand[v] - gift.count(v))]
    if given_plain and kept_plain:
        assert max(given_plain) <= min(kept_plain)  # the lowest ones
    specials = [v for v in gift if v >= TWO]
    assert specials == sorted(specials) and (JOKER not in specials or hand[TWO] == specials.count(TWO))


def _exchange_decisions(seed: int, names: list[str], rounds: int = 4):
    decisions = []
    agents = [player(n) for n in names]

    def record(state, p, decision):
        if state.phase is Phase.EXCHANGE:
            obs = state.observation(p)
            decisions.append((obs, state.legal_actions(), decision, state.pending[0]))

    play_game(PresidentState.new_match(Settings(rounds=rounds), seed), agents, random.Random(seed),
              on_decision=record, explain=True)
    return decisions


def test_exchange_in_real_games_gives_the_lowest_and_says_so():
    decisions = _exchange_decisions(21, ["Classic", "Aggressive", "Cautious", "Counter", "Gambler"])
    assert len(decisions) >= 6  # President and Vice-President in each later round
    for obs, legal, decision, (giver, receiver, count) in decisions:
        assert decision.action in legal and isinstance(decision.action, Give)
        hand = obs.counts
        gift = decision.action.values
        assert len(gift) == count
        assert gift == exchange_choice(ExchangeView(hand, count, receiver))
        non_twos = sorted(v for v in range(3, TWO) for _ in range(hand[v]))
        if len(non_twos) >= count:
            assert list(gift) == non_twos[:count]
        trace = decision.trace
        assert trace.kind == "exchange" and trace.note == EXCHANGE_NOTE
        assert "lowest" in trace.note and "never a two" in trace.note
        assert trace.action == str(decision.action)
        assert trace.to_json()["kind"] == "exchange" and trace.rules == ()


def test_exchange_trace_renders():
    from rich.console import Console

    _, _, decision, _ = _exchange_decisions(21, ["Classic"] * 5)[0]
    console = Console(record=True, width=200, color_system=None)
    console.print(decision.trace)
    text = console.export_text()
    assert "exchange: gives" in text and "never a two" in text and "give" in text


def test_choose_and_explain_agree_on_the_exchange():
    obs, legal, decision, _ = _exchange_decisions(21, ["Classic"] * 5)[0]
    bot = player("Classic")
    assert bot.choose(obs, legal, random.Random(0)) == decision.action
    assert bot.explain(obs, legal, random.Random(0)).action == decision.action


# --- reload -------------------------------------------------------------------------

def _first_lead(seed: int = 2):
    """An observation where player 0 leads with at least two different non-two values."""
    state = PresidentState.new_match(Settings(), seed)
    agents = [player("Classic") for _ in range(5)]
    rng = random.Random(0)
    while True:
        p = state.current_player()
        obs = state.observation(p)
        if p == 0 and state.upcards is None and sum(1 for v in range(3, TWO) if obs.counts[v]) >= 2:
            return obs, state.legal_actions()
        state.apply(agents[p].choose(obs, state.legal_actions(), rng))


def test_reload_takes_effect_from_the_next_decision():
    obs, legal = _first_lead()
    bot = RulePlayer(rul("L*\n", "Low"), president_view)
    low = bot.choose(obs, legal, random.Random(0))
    bot.reload(rul("H*\n", "High"))
    high = bot.choose(obs, legal, random.Random(0))
    values = [v for v in range(3, TWO) if obs.counts[v]]
    assert (low.value, low.count) == (values[0], obs.counts[values[0]])
    assert (high.value, high.count) == (values[-1], obs.counts[values[-1]])
    assert bot.explain(obs, legal, random.Random(0)).trace.personality == "High"


def test_reload_from_an_edited_file_mid_game(tmp_path):
    path = tmp_path / "Editable.rul"
    path.write_text("; first version.\nL*\n", encoding="utf-8")
    bot = RulePlayer(load_personality(path), president_view)
    agents = [bot] + [player("Classic") for _ in range(4)]
    decisions = []  # (personality in force, action, view)

    def record(state, p, decision):
        if p != 0 or state.phase is not Phase.PLAY:
            return
        view = president_view(state.observation(0), state.legal_actions())
        decisions.append((bot.personality, decision.action, view))
        if len(decisions) == 3:
            path.write_text("; second version.\nH*\n", encoding="utf-8")
            bot.reload(load_personality(path))

    play_game(PresidentState.new_match(Settings(rounds=3), 4), agents, random.Random(4), on_decision=record)
    assert len(decisions) > 6
    assert all(p.description == "first version." for p, _, _ in decisions[:3])
    assert all(p.description == "second version." for p, _, _ in decisions[3:])
    for personality, action, view in decisions:
        play, _, _, _ = decide(personality, view, random.Random(0))
        assert action == view.action(play)
    # the edit changed play: some later decision differs from what the first version would do
    first = decisions[0][0]
    assert any(view.action(decide(first, view, random.Random(0))[0]) != action
               for _, action, view in decisions[3:])


# --- the shipped personalities -------------------------------------------------------

def test_at_least_eight_shipped_personalities():
    assert len(shipped_names()) >= 8
    assert "Classic" in shipped_names()


@pytest.mark.parametrize("name", shipped_names())
def test_shipped_personality_loads_cleanly(name):
    from importlib import resources

    personality = shipped(name)
    assert personality.name == name
    assert personality.warnings == ()
    assert len(personality.rules) >= 1
    path = resources.files("personalities").joinpath(f"{name}.rul")
    assert check_file(str(path)) == []
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(";"), "the first line is the description comment"
    description = first.lstrip(";").strip()
    assert description == personality.description
    # one sentence: a capital first, one full stop at the very end, none inside
    assert re.fullmatch(r"[A-Z][^.!?]*[.]", description), description
    assert 20 <= len(description) <= 160


def test_classic_is_the_manual_closing_example():
    classic, manual = shipped("Classic"), rul(MANUAL_EXAMPLE)
    assert classic.rules == manual.rules
    assert [str(r) for r in classic.rules] == ["2 NumDiffVals = 1", "Lq CardVal < Q", "Lt CardVal < Q",
                                               "Lp CardVal < Q", "L CardVal < Q", "L*"]


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_classic_plays_like_the_manual_example_everywhere(seed):
    view = random_position(seed)
    classic, manual = shipped("Classic"), rul(MANUAL_EXAMPLE)
    assert decide(classic, view, random.Random(0))[0] == decide(manual, view, random.Random(0))[0]


def test_shipped_personalities_pairwise_choose_differently_on_the_same_observations():
    """Replay the observations of fixed seeded games; every pair must differ at least once."""
    names = shipped_names()
    bots = {n: player(n) for n in names}
    table = [player(n) for n in ["Classic", "Cautious", "Aggressive", "Counter", "RankAware"]]
    missing = set(itertools.combinations(names, 2))
    differences = dict.fromkeys(missing, 0)
    decisions = rounds = 0

    def ask(state, p, decision):
        nonlocal decisions
        if state.phase is not Phase.PLAY:
            return
        obs, legal = state.observation(p), state.legal_actions()
        choices = {n: b.choose(obs, legal, random.Random(decisions)) for n, b in bots.items()}
        decisions += 1
        for a, b in differences:
            if choices[a] != choices[b]:
                differences[(a, b)] += 1
                missing.discard((a, b))

    for match in range(10):  # 10 matches of 10 rounds: 100 seeded rounds at most
        state = PresidentState.new_match(Settings(rounds=10), 500 + match)
        play_game(state, table, random.Random(match), on_decision=ask)
        rounds += len(state.round_log)
        if not missing:
            break
    assert rounds <= 100
    assert not missing, f"never chose differently: {sorted(missing)}"
    assert min(differences.values()) >= 1


# --- FollowOdds with wild jokers ------------------------------------------------------------

def _deal_with_wild_jokers() -> PresidentState:
    """Daifugo (jokers wild). Opponents: Jk Jk A | K 6 | 4 | 5; I hold the other 47 cards and lead."""
    from president.game.cards import parse_cards
    from president.game.layout import layout

    opponents = [parse_cards("Jk Jk Ah"), parse_cards("Kh 6h"), parse_cards("4h"), parse_cards("5h")]
    lay = layout(1, 2)
    used = lay.bits_of([c for hand in opponents for c in hand])
    mine = [c for b, c in enumerate(lay.cards) if c is not None and not used >> b & 1]
    return PresidentState.new_match(preset("daifugo"), 1, deal=[mine] + opponents)


def test_wild_jokers_really_beat_a_pair_in_this_position():
    from president.game.cards import play_of

    state = _deal_with_wild_jokers()
    assert state.current_player() == 0 and state.upcards is None
    state.apply(play_of(9, 2))
    assert state.current_player() == 1
    assert play_of(14, 2, 1) in state.legal_actions()  # A + Jk beats 9 9


def test_follow_odds_counts_wild_jokers():
    state = _deal_with_wild_jokers()
    view = president_view(state.observation(0), state.legal_actions())
    # unseen: Jk Jk A K 6 4 5, dealt uniformly into hands of 3, 2, 1, 1: 7!/(3!2!1!1!) = 420 deals.
    # A pair of nines is beaten by a hand of 2+ cards holding a joker and the A or the K.
    cards = ["Jk", "Jk", "A", "K", "6", "4", "5"]
    beaten = total = 0
    for first in itertools.combinations(range(7), 3):
        rest = [i for i in range(7) if i not in first]
        for second in itertools.combinations(rest, 2):
            # the last two cards go to the two 1-card hands in 2 ways; singles never beat a pair
            hands = [[cards[i] for i in first], [cards[i] for i in second]]
            total += 2
            beaten += 2 * any("Jk" in h and ("A" in h or "K" in h) for h in hands)
    assert (beaten, total) == (248, 420)
    assert 100 * beaten // total == 59
    assert GameVariables(view, random.Random(0)).value(Variable.FOLLOW_ODDS, (9, 2)) == 59


def test_a_name_in_user_folders_is_found_in_name_order_and_the_folder_is_read_bounded(tmp_path):
    from personalities.catalog import MAX_FOLDER_FILES, find_personality, locate
    from tui.president.sources import seat_source

    rule = "; a personality\nL*\n"
    (tmp_path / "Mine.rul").write_text("; upper case file\nL*\n")
    (tmp_path / "mine.rul").write_text("; lower case file\n2\n")
    # Case-insensitive names: the first file in name order wins, for the game and the editor alike.
    assert locate("MINE", (tmp_path,)) == tmp_path / "Mine.rul"
    assert seat_source("mine", (tmp_path,)).path == tmp_path / "Mine.rul"
    assert find_personality("mine", (tmp_path,)).description == "upper case file"
    assert find_personality("Classic", (tmp_path,)) == shipped("Classic")
    assert locate("nobody", (tmp_path,)) is None and seat_source("nobody", (tmp_path,)) is None
    crowded = tmp_path / "crowded"
    crowded.mkdir()
    for i in range(MAX_FOLDER_FILES + 1):
        (crowded / f"p{i:05d}.rul").write_text(rule)
    assert locate(f"p{MAX_FOLDER_FILES - 1:05d}", (crowded,)) is not None
    assert locate(f"p{MAX_FOLDER_FILES:05d}", (crowded,)) is None  # past the bound: not read
