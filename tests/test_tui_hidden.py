"""Hidden stays hidden on the President table's AI debug screen (issue 33; was
../shared/repro/leak_tui_debug_screen.py, where a bot's whole hand was in its rule trace).

Two matches that differ only in the cards of two bots (a swap that leaves every play
before my first turn the same) must draw the same debug screen, decision by decision,
tree and JSON alike, while the round is played; with the hands opened they must differ
(the control: the screen can show a difference, so the equality above means something).
"""
from __future__ import annotations

import asyncio
import io
import itertools


from president.game.settings import preset
from president.match.simulate import match_seed
from president.game.state import PresidentState
from tui.president.options import MatchOptions
from tui.president.pilot import give_keys, play_round, screen_text, settle
from tui.president.session import HUMAN

SEED = 1
SIZE = (120, 40)


def make_app(tmp_path, deal=None, seed: int = SEED):
    from tui.president.app import PresidentApp

    return PresidentApp(MatchOptions(preset("classic"), seed, rules_dir=tmp_path / "rules", delay=0, deal=deal))


def first_deal(seed: int = SEED) -> list[list]:
    state = PresidentState.new_match(preset("classic"), match_seed(seed, 0))
    return [list(state.hand(p)) for p in range(state.num_players)]


def session_at_my_turn(deal, seed: int = SEED, opponents=None):
    """A session played up to my first turn without the screen (the bots as the table drives them)."""
    from tui.president.session import Session

    extra = {"opponents": opponents} if opponents else {}
    session = Session(MatchOptions(preset("classic"), seed, delay=0, deal=deal, **extra))
    while (job := session.bot_job()) is not None:
        decision = job.run()
        session.apply(job.player, decision.action, decision.trace, decision.belief)
    return session


def plays_before_my_turn(deal, seed: int = SEED, opponents=None) -> list:
    return [(r.player, str(r.action)) for r in session_at_my_turn(deal, seed, opponents).decisions]


def indistinguishable_pair(seed: int = SEED, opponents=None):
    """A deal, and the same deal with a card of bot 1 and one of another value of bot 2 exchanged,
    such that every play before my first turn is the same: from my seat the two cannot be told apart.
    None when no such swap exists."""
    deal = first_deal(seed)
    plays = plays_before_my_turn(deal, seed, opponents)
    if not plays:
        return None
    for a, b in itertools.product(deal[1], deal[2]):
        if a.value != b.value:
            other = [list(hand) for hand in deal]
            other[1][other[1].index(a)], other[2][other[2].index(b)] = b, a
            if plays_before_my_turn(other, seed, opponents) == plays:
                return deal, other
    return None


def drawn(session) -> list[str]:
    """Every decision as the debug screen draws it now: its title, tree and JSON, as plain text."""
    from rich.console import Console

    from tui.president.debug import shown_records
    from tui.shared.traceview import render_trace

    out = []
    for record in shown_records(session):
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(record.label, render_trace(record.trace, belief=record.belief),
                      render_trace(record.trace, as_json=True, belief=record.belief))
        out.append(console.export_text())
    return out


def test_every_shipped_personality_s_masked_decisions_are_the_same_in_worlds_i_cannot_tell_apart():
    """Without the screen, over deals until each shipped personality has decided in a pair of
    worlds I cannot tell apart: the debug screen's drawing of each decision is the same."""
    from personalities.catalog import shipped_names

    names = shipped_names()
    untested, pairs = set(names), 0
    for seed in range(2, 40):
        opponents = tuple(names[(seed * 3 + i) % len(names)] for i in range(4))
        pair = indistinguishable_pair(seed, opponents)
        if pair is None:
            continue
        one, other = (session_at_my_turn(deal, seed, opponents) for deal in pair)
        assert drawn(one) == drawn(other), (seed, opponents)
        one.set_open_hands(True)
        other.set_open_hands(True)
        assert drawn(one) != drawn(other), (seed, opponents)  # the control
        pairs += 1
        untested -= {one.personality_name(r.player) for r in one.decisions}
        if not untested:
            break
    assert not untested, f"never tested: {sorted(untested)} ({pairs} pairs)"


def test_bots_beliefs_show_only_with_open_hands_or_after_the_round():
    """A bot's belief about the others tells what it holds: masked during the round like its cards."""
    from tui.president.debug import shown_records

    session = session_at_my_turn(first_deal())
    assert session.decisions and all(r.belief is not None for r in session.decisions)
    assert all(r.belief is None for r in shown_records(session))
    session.set_open_hands(True)
    assert all(r.belief is not None for r in shown_records(session))
    session.set_open_hands(False)
    while session.round_number == 1:  # I pass or play my lowest until the round is over
        p = session.state.current_player()
        if p == HUMAN:
            session.apply(HUMAN, session.state.legal_actions()[0])
            continue
        job = session.bot_job()
        decision = job.run()
        session.apply(job.player, decision.action, decision.trace, decision.belief)
    assert [r.belief is not None for r in shown_records(session) if r.round == 1] == \
        [True for r in session.decisions if r.round == 1]


async def debug_texts(pilot) -> list[str]:
    """The debug screen's text with each decision highlighted in turn, as a tree then as JSON."""
    app = pilot.app
    await pilot.press("d")
    await pilot.pause()
    texts = []
    for _ in range(2):
        decisions = app.screen.query_one("#decisions")
        for i in range(decisions.option_count):
            decisions.highlighted = i
            await pilot.pause()
            texts.append(screen_text(app))
        await pilot.press("t")
    await pilot.press("escape")
    return texts


def test_two_deals_a_bot_cannot_tell_apart_give_the_same_debug_screen(tmp_path):
    async def screens(deal):
        """(hidden, opened): the debug screen's texts in the round, then with the hands open."""
        app = make_app(tmp_path, tuple(tuple(hand) for hand in deal))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            hidden = await debug_texts(pilot)
            app.session.set_open_hands(True)
            return hidden, await debug_texts(pilot)

    async def scenario():
        deal, other = indistinguishable_pair()
        hidden, opened = await screens(deal)
        other_hidden, other_opened = await screens(other)
        assert other_hidden == hidden
        # The control: with the hands open, the same pair of deals is told apart.
        assert other_opened != opened

    asyncio.run(scenario())


def test_open_hands_is_asked_for_marked_on_the_table_and_recorded(tmp_path):
    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("d", "o")
            await pilot.pause()
            await pilot.press("n")  # the confirmation: keep hidden
            await pilot.pause()
            assert not app.session.open_hands and not app.session.opened_rounds
            await pilot.press("o", "y")
            await pilot.pause()
            assert app.session.open_hands and app.session.opened_rounds == {1}
            assert "OPEN HANDS" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert "OPEN HANDS" in screen_text(app)  # the table says so
            await play_round(pilot)
            assert "Open hands (the bots' cards shown on the debug screen) in 2 rounds: 1, 2." in screen_text(app)  # still open in round 2

    asyncio.run(scenario())


def widget_text(app, selector: str) -> str:
    """The screen's text inside one widget's region."""
    region = app.screen.query_one(selector).region
    lines = screen_text(app).splitlines()[region.y:region.bottom]
    return "\n".join(line[region.x:region.right] for line in lines)


def test_a_gift_between_two_bots_shows_on_their_seats_as_a_count_only(tmp_path):
    from president.game.cards import Give
    from tui.president.debug import shown_records
    from tui.president.hiding import SeatTrace

    app = make_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await play_round(pilot)
            await pilot.press("enter")
            await settle(pilot)
            await pilot.press(*give_keys(app))  # my gift first, then the bots'
            await settle(pilot)
            state = app.session.state
            between_bots = [(giver, action) for giver, action in state.history if isinstance(action, Give)
                            and giver != HUMAN and all(r != HUMAN for g, r, _ in state.gifts if g == giver)]
            assert between_bots, "no gift between two bots: the test sees nothing"
            for giver, action in between_bots:
                seat = widget_text(app, f"#seat-{giver}")
                assert str(action) not in seat and "gave " + "▮" * len(action.values) in seat
            # On the debug screen the finished round is whole, the gifts of the new one masked.
            shown = {r.number: r for r in shown_records(app.session)}
            assert all(shown[r.number] == r for r in app.session.decisions if r.round == 1)
            gifts = [shown[r.number] for r in app.session.decisions if r.round == 2 and isinstance(r.action, Give)]
            assert gifts and all(isinstance(r.trace, SeatTrace) for r in gifts)
            assert {r.action for r in gifts} <= {"give 1 card", "give 2 cards"} | {
                str(r.action) for r in app.session.decisions if app.session.gift_receivers.get(r.number) == HUMAN}

    asyncio.run(scenario())


def test_my_helper_belief_reads_only_my_seat():
    """The helper (`b`): in two deals I cannot tell apart it is the same; it sums to the hands' sizes."""
    import random

    from president.agents.beliefs import seat_belief

    beliefs = []
    for deal in indistinguishable_pair():
        state = session_at_my_turn(deal).state
        root = state.observation(HUMAN).sample_state(random.Random(4))
        beliefs.append(seat_belief(root, HUMAN, random.Random(4), worlds=40))
        assert [h.size for h in beliefs[-1].hands] == state.sizes[1:]
        assert [round(sum(x for _, x in h.expected), 6) for h in beliefs[-1].hands] == state.sizes[1:]
    assert beliefs[0] == beliefs[1]


def test_the_helper_key_shows_the_unseen_cards(tmp_path):
    async def scenario():
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("b")
            for _ in range(100):
                await pilot.pause(0.05)
                if "cards " in screen_text(app):
                    break
            text = screen_text(app)
            assert "What the unseen cards probably are" in text and "Ada" in text and "cards " in text
            await pilot.press("escape")

    asyncio.run(scenario())
