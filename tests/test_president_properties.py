"""Property tests of the native President engine (hypothesis).

Matches are played by a seeded random player over the three presets and
random tables; at every step the invariants of the rules must hold, and
`clone` and `determinize` must keep what they promise.
"""
from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings, strategies as st

from president.game.cards import JOKER, PASS, Card, Give, Play, parse_cards, play_of, value_text
from president.game.layout import layout
from president.game.settings import PRESETS, EqualValue, FirstLeader, JokerMode, LaterLeader, Settings, preset
from president.game.state import Phase, PresidentState
from recycle.kernel.protocol import IllegalAction

PROFILE = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def tables(draw) -> Settings:
    """One of the presets (short matches), or any valid table."""
    if draw(st.booleans()):
        base = preset(draw(st.sampled_from(sorted(PRESETS))))
        return replace(base, rounds=draw(st.integers(1, 2)))
    decks = draw(st.integers(1, 2))
    big = draw(st.integers(0, 4))
    rounds, target = draw(st.sampled_from([(1, 0), (2, 0), (3, 0), (0, 6), (3, 4)]))
    return Settings(
        players=draw(st.integers(3, 7)),
        decks=decks,
        jokers=draw(st.integers(0, 2 * decks)),
        joker_mode=draw(st.sampled_from(JokerMode)),
        pass_locks=draw(st.booleans()),
        equal_value=draw(st.sampled_from(EqualValue)),
        twos_end_trick=draw(st.booleans()),
        exchange_big=big,
        exchange_small=draw(st.integers(0, big)),
        first_leader=draw(st.sampled_from(FirstLeader)),
        later_leader=draw(st.sampled_from(LaterLeader)),
        revolution=draw(st.booleans()),
        eight_cut=draw(st.booleans()),
        no_going_out_on_two=draw(st.booleans()),
        rounds=rounds,
        target_score=target,
    )


# ---------------------------------------------------------------- helpers
def _freeze(x):
    if isinstance(x, (list, tuple)):
        return tuple(_freeze(i) for i in x)
    return x  # ints, enums, and Play/Give, which are immutable


def snapshot(state: PresidentState) -> dict:
    """Every field of the state, as immutable values (cheap enough for every step)."""
    return {name: _freeze(getattr(state, name))
            for name in PresidentState.__slots__ if name not in ("lay", "settings")}


def playout(state: PresidentState, rng: random.Random, on_step=None) -> list:
    """Play to the end with uniformly random legal actions; returns the actions."""
    actions = []
    bound = 100 * state.settings.deck_size * state.num_players * max(state.settings.rounds, 10)
    while not state.is_terminal():
        assert len(actions) < bound, "the match does not end"
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if on_step is not None:
            on_step(state, legal, action)
        state.apply(action)
        actions.append(action)
    return actions


def check_cards(state: PresidentState) -> None:
    """Hands and played cards are disjoint and together the full pack; counts agree."""
    lay, union = state.lay, state.played
    for p in range(state.num_players):
        mask = state.masks[p]
        assert union & mask == 0, f"seat {p} holds a card someone else holds or that was played"
        union |= mask
        assert state.sizes[p] == mask.bit_count()
        assert state.counts[p] == lay.counts(mask)
    assert union == lay.full
    assert state.played_counts == lay.counts(state.played)


def candidate_plays(s: Settings) -> list[Play]:
    most = 4 * s.decks + s.jokers
    out = [PASS]
    for v in range(3, 16):
        for k in range(1, most + 1):
            for j in range(0, min(k, s.jokers) + 1):
                out.append(play_of(v, k, j))
    out += [play_of(JOKER, 1), play_of(JOKER, 2), play_of(JOKER, 1, 1)]
    # plays no parser makes: odd passes, values outside the pack, negative counts
    out += [Play(7, 0), Play(0, 0, 1), Play(-1, 1), Play(17, 1), Play(2, 1), Play(5, -1), Play(5, 1, -1)]
    return out


def random_action(rng: random.Random, s: Settings):
    """Any Give or Play, mostly well-formed, sometimes with values outside the pack."""
    lo, hi = (-1, 19) if rng.random() < 0.2 else (3, 17)
    if rng.random() < 0.3:
        return Give(tuple(sorted(rng.randrange(lo, hi) for _ in range(rng.randrange(0, 6)))))
    k = rng.randrange(-1, 4 * s.decks + s.jokers + 2)
    if k == 0 and lo == 3:
        return PASS
    return Play(rng.randrange(lo, hi), k, rng.randrange(lo - 3, min(max(k, 0), 4) + 1))


# ---------------------------------------------------------------- whole matches
@settings(max_examples=300, **PROFILE)
@given(table=tables(), seed=seeds)
def test_cards_are_conserved_and_every_round_ends(table, seed):
    state = PresidentState.new_match(table, seed)
    n = table.players
    bound = table.deck_size * n + 2  # a play at least every n actions, plus the two chosen gifts
    steps = {"round": 0, "in_round": 0}

    def on_step(state, legal, action):
        check_cards(state)
        if state.round_no != steps["round"]:
            steps["round"], steps["in_round"] = state.round_no, 0
        steps["in_round"] += 1
        assert steps["in_round"] <= bound, "a round does not end"
        assert legal and len(set(legal)) == len(legal)
        p = state.current_player()
        assert 0 <= p < n
        if state.phase is Phase.PLAY:
            assert state.places[p] == 0 and state.sizes[p] > 0
            for q in range(n):
                assert (state.places[q] != 0) == (state.sizes[q] == 0)
            assert sorted(x for x in state.places if x) == sorted(
                set(state.places) - {0}), "two players share a place"
            assert all(isinstance(a, Play) for a in legal)
            assert (PASS in legal) == (state.upcards is not None)
        else:
            assert state.phase is Phase.EXCHANGE
            giver, receiver, count = state.pending[0]
            assert p == giver and all(isinstance(a, Give) and len(a.values) == count for a in legal)

    playout(state, random.Random(seed), on_step)
    check_cards(state)
    assert state.phase is Phase.OVER and state.legal_actions() == []
    assert len(state.round_log) == state.round_no >= 1
    for places in state.round_log:
        assert sorted(places) == list(range(1, n + 1))
    assert state.scores == [sum(n - r[p] + table.last_place_points for r in state.round_log) for p in range(n)]
    if table.target_score:
        assert all(max(sum(n - r[p] + table.last_place_points for r in state.round_log[:i]) for p in range(n)) < table.target_score
                   for i in range(1, len(state.round_log)))
    if table.rounds:
        assert len(state.round_log) <= table.rounds
        assert len(state.round_log) == table.rounds or max(state.scores) >= table.target_score > 0


@settings(max_examples=70, **PROFILE)
@given(table=tables(), seed=seeds)
def test_only_legal_actions_are_accepted(table, seed):
    state = PresidentState.new_match(table, seed)
    rng = random.Random(seed ^ 0x5EED)
    candidates = candidate_plays(table)

    def on_step(state, legal, action):
        legal_set = set(legal)
        checked = candidates if rng.random() < 0.3 else rng.sample(candidates, min(40, len(candidates)))
        for play in checked + [a for a in legal if isinstance(a, Play)]:
            assert state.is_legal(play) == (play in legal_set), f"is_legal({play!r}) disagrees with legal_actions"
        for _ in range(3):
            wrong = random_action(rng, table)
            if wrong in legal_set:
                continue
            before = snapshot(state)
            try:
                state.apply(wrong)
            except IllegalAction as err:
                assert err.rule, "an IllegalAction must name its rule"
            else:
                raise AssertionError(f"{wrong!r} was accepted but is not in legal_actions {legal}")
            assert snapshot(state) == before, f"refusing {wrong!r} changed the state"
        if rng.random() < 0.1:  # every legal action is accepted
            for a in legal:
                state.clone().apply(a)

    playout(state, random.Random(seed), on_step)


@settings(max_examples=60, **PROFILE)
@given(table=tables(), seed=seeds, agent_seed=seeds)
def test_same_seed_same_match(table, seed, agent_seed):
    first = PresidentState.new_match(table, seed)
    second = PresidentState.new_match(table, seed)
    assert first.masks == second.masks
    a = playout(first, random.Random(agent_seed))
    b = playout(second, random.Random(agent_seed))
    assert a == b
    assert first.round_log == second.round_log and first.scores == second.scores


@settings(max_examples=100, **PROFILE)
@given(table=tables(), seed=seeds, at=st.floats(0, 1))
def test_clone_is_independent(table, seed, at):
    state = PresidentState.new_match(table, seed)
    rng = random.Random(seed)
    full = playout(state.clone(), random.Random(seed))
    for action in full[:int(at * (len(full) - 1))]:
        state.apply(action)
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    playout(twin, rng)  # the clone plays on, to the end of the match
    assert snapshot(state) == before
    twin_after = snapshot(twin)
    state.apply(state.legal_actions()[-1])
    assert snapshot(twin) == twin_after


# ---------------------------------------------------------------- determinize
def known_gifts(state: PresidentState, observer: int) -> dict[int, int]:
    """Cards `observer` handed over this round that the receiver still holds (not played, not back)."""
    known: dict[int, int] = {}
    for giver, receiver, mask in state.gifts:
        if giver == observer:
            still = mask & ~state.played & ~state.masks[observer]
            known[receiver] = known.get(receiver, 0) | still
    return known


def check_determinization(state: PresidentState, det: PresidentState, p: int) -> None:
    lay = state.lay
    check_cards(det)
    assert det.masks[p] == state.masks[p], "the observer's hand changed"
    assert det.played == state.played and det.sizes == state.sizes
    # everything else is kept, but the exchange facts of other pairs are forgotten (their cards, their bounds)
    hidden = ("masks", "counts", "deal_seed", "gifts", "bounds", "history")
    same = {k: v for k, v in snapshot(state).items() if k not in hidden}
    assert {k: v for k, v in snapshot(det).items() if k not in hidden} == same
    assert det.gifts == [(g, r, m if p in (g, r) else 0) for g, r, m in state.gifts]
    assert det.bounds == [fact for fact in state.bounds if fact[0] == p]
    assert tuple(det.history) == state.observation(p).history
    # cards the observer gave are still where it put them (in truth and in the sample)
    gifts = known_gifts(state, p)
    for receiver, mask in gifts.items():
        assert state.masks[receiver] & mask == mask
        assert det.masks[receiver] & mask == mask
    # the 3 of clubs stays with the first leader of the match until played
    if state.round_no == 0 and state.settings.first_leader is FirstLeader.THREE_OF_CLUBS:
        three = lay.bit(Card(3, "c"))
        if not (state.played | state.masks[p]) & three:
            assert state.masks[state.first_leader] & three
            assert det.masks[state.first_leader] & three
    # the receiver of a forced gift knows the giver kept nothing higher
    for knower, target, highest in state.bounds:
        if knower != p:
            continue
        for hand in (state.masks[target], det.masks[target]):
            unknown = hand & ~gifts.get(target, 0)
            assert all(c.value <= highest for c in lay.card_list(unknown)), "a bound was broken"
    if state.current_player() == p:
        assert det.legal_actions() == state.legal_actions()
    if state.hidden_is_determined(p):
        assert det.masks == state.masks, "hidden_is_determined, yet the sample differs from the truth"


@settings(max_examples=200, **PROFILE)
@given(table=tables(), seed=seeds, rng_seed=seeds, at=st.lists(st.floats(0, 1), min_size=1, max_size=4))
def test_determinize_keeps_what_the_player_knows(table, seed, rng_seed, at):
    state = PresidentState.new_match(table, seed)
    full = playout(state.clone(), random.Random(seed))
    # stop at a few points of the match, and at the first decisions of every round, where
    # knowledge is richest (the exchange, the first leader's 3 of clubs)
    stops = {int(x * (len(full) - 1)) for x in at}
    probe = state.clone()
    for i, action in enumerate(full):
        if i in stops or len(probe.history) <= 2:
            before = snapshot(probe)
            for p in range(table.players):
                det = probe.determinize(p, random.Random(rng_seed + p))
                check_determinization(probe, det, p)
                again = probe.determinize(p, random.Random(rng_seed + p))
                assert again.masks == det.masks and again.deal_seed == det.deal_seed
            assert snapshot(probe) == before, "determinize changed the state"
        probe.apply(action)


def partway(table: Settings, seed: int, at: float) -> PresidentState:
    """A random match (seeded) stopped `at` (0..1) of the way through its actions."""
    state = PresidentState.new_match(table, seed)
    full = playout(state.clone(), random.Random(seed))
    for action in full[:int(at * (len(full) - 1))]:
        state.apply(action)
    return state


@settings(max_examples=60, **PROFILE)
@given(table=tables(), seed=seeds, rng_seed=seeds, at=st.floats(0, 1))
def test_a_walk_of_neighbours_keeps_what_the_player_knows(table, seed, rng_seed, at):
    # the chain of inference (pool=) moves by Dealer.neighbour: every world on its way is a
    # determinization too, and the walk itself leaves the worlds it came from unchanged
    state = partway(table, seed, at)
    p, rng = state.current_player(), random.Random(rng_seed)
    neighbour = state.neighbours(p)
    world = state.determinize(p, rng)
    for _ in range(30):
        before = snapshot(world)
        step = neighbour(world, rng)
        assert snapshot(world) == before, "a neighbour changed the world it came from"
        if step is not None:
            check_determinization(state, step, p)
            world = step


def test_a_neighbour_keeps_the_bound_of_the_exchange_and_is_refused_when_it_would_break_it():
    for seed in range(50):  # a deal where the Loser's gift bounds its hand well below the ace
        state = _after_exchange(replace(preset("classic"), rounds=2), seed)
        if min(highest for knower, _, highest in state.bounds if knower == 0) <= 11:
            break
    neighbour, rng = state.neighbours(0), random.Random(1)
    world, refused = state.determinize(0, rng), 0
    for _ in range(300):
        step = neighbour(world, rng)
        refused += step is None
        if step is not None:
            check_determinization(state, step, 0)
            world = step
    assert refused, "no swap ever broke the bound: the test did not reach it"


@settings(max_examples=60, **PROFILE)
@given(table=tables(), seed=seeds, rng_seed=seeds, at=st.floats(0, 1))
def test_determinized_state_plays_on(table, seed, rng_seed, at):
    state = partway(table, seed, at)
    observer = state.current_player()
    det = state.determinize(observer, random.Random(rng_seed))
    playout(det, random.Random(rng_seed), lambda s, legal, a: check_cards(s))
    assert det.is_terminal()


# ---------------------------------------------------------------- determinize, explicit positions
def _start(table: Settings, *hands: str | None, seed: int = 0) -> PresidentState:
    """The named seats hold exactly those cards, the seat given as None the rest of the pack."""
    rest = [c for c in layout(table.decks, table.jokers).cards if c is not None]
    named = [None if h is None else parse_cards(h) for h in hands]
    for hand in named:
        for card in hand or ():
            rest.remove(card)
    return PresidentState.new_match(table, seed, [rest if h is None else h for h in named])


def _after_exchange(table: Settings, seed: int = 0) -> PresidentState:
    """Round 2 after a first round finished in seat order (places 1..n), gifts chosen (lowest cards)."""
    n = table.players
    state = _start(table, *[f"{value_text(3 + i)}c" for i in range(n - 1)], None, seed=seed)
    for i in range(n - 1):
        state.apply(play_of(3 + i, 1))
    assert state.round_no == 1
    while state.phase is Phase.EXCHANGE:
        state.apply(state.legal_actions()[0])
    return state


def test_determinize_keeps_the_gifts_and_the_bound_of_the_exchange():
    for seed in range(50):  # a deal where the bound matters: the Loser gave nothing better than a king
        state = _after_exchange(replace(preset("classic"), rounds=2), seed)
        lay = state.lay
        forced = {(g, r): m for g, r, m in state.gifts}
        president_gift, loser_gift = forced[(0, 4)], forced[(4, 0)]
        lowest = min(c.value for c in lay.card_list(loser_gift))
        if lowest <= 13:
            break
    assert lowest <= 13
    assert (0, 4, lowest) in state.bounds
    samples = [state.determinize(0, random.Random(k)) for k in range(40)]
    for det in samples:
        check_determinization(state, det, 0)
        assert det.masks[4] & president_gift == president_gift
        assert max(c.value for c in lay.card_list(det.masks[4] & ~president_gift)) <= lowest
    assert len({det.masks[4] for det in samples}) > 1, "the Loser's unknown cards are re-dealt"
    # the Loser knows where its forced gift went, the Vice-Loser where its own went
    for observer, receiver in ((4, 0), (3, 1)):
        gift = forced[(observer, receiver)] & ~state.masks[observer]
        for k in range(20):
            det = state.determinize(observer, random.Random(k))
            check_determinization(state, det, observer)
            assert det.masks[receiver] & gift == gift
    # a Neutral player knows none of it
    assert any(state.determinize(2, random.Random(k)).masks[4] & president_gift != president_gift
               for k in range(40))


def test_determinize_keeps_the_three_of_clubs_with_the_first_leader():
    table = replace(preset("classic"), players=3, rounds=1)
    state = _start(table, "4c 5c 6c", None, "3c 9c Kc")
    assert state.current_player() == 2
    state.apply(play_of(13, 1))  # the first leader leads a king and keeps the 3 of clubs
    three = state.lay.bit(Card(3, "c"))
    for observer in (0, 1):
        for k in range(20):
            det = state.determinize(observer, random.Random(k))
            check_determinization(state, det, observer)
            assert det.masks[2] & three
    hands = {state.determinize(0, random.Random(k)).masks[2] for k in range(20)}
    assert len(hands) > 1, "the first leader's other cards are re-dealt"


# ---------------------------------------------------------------- search helpers of the state
@settings(max_examples=60, **PROFILE)
@given(table=tables(), seed=seeds, at=st.floats(0, 1))
def test_truncated_copy_ends_with_the_current_round(table, seed, at):
    state = PresidentState.new_match(table, seed)
    full = playout(state.clone(), random.Random(seed))
    for action in full[:int(at * (len(full) - 1))]:
        state.apply(action)
    before = snapshot(state)
    short = state.truncated()
    assert snapshot(state) == before and state.settings == table
    round_no = state.round_no
    playout(short, random.Random(seed))
    assert short.round_no == round_no + 1 and len(short.round_log) == round_no + 1
    results = short.results()
    places = short.round_log[-1]
    assert results.ranks == tuple(places)
    assert results.scores == tuple(float(table.players - p) for p in places)
