"""Games declared as values (`recycle.kernel.game`): each game's `Game`, its capabilities, and who may sit.

The capabilities are promises checked against behaviour: a state is what the game's
`new_initial_state` says; a game lacking what an agent needs refuses that agent by
name and reason, on the command line (`--players`) and in the new-match dialog alike;
search asks nothing a game does not offer.
"""
from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, replace

import pytest

from president.game.president_game import PresidentGame
from president.game.settings import preset
from president.game.state import PresidentState
from recycle.climbing.recycle_game import recycle_game
from recycle.games import game_path
from recycle.games.tides.state import TidesState
from recycle.games.tides.tides_game import TidesGame
from recycle.kernel.game import Capabilities, Family, Game
from recycle.kernel.specs import AgentSpecError
from recycle.lang import load_game
from recycle.players import agents_for, make_bots, refusal


def recycle(name: str, **parameters):
    return recycle_game(load_game(game_path(name)), **parameters)


# ---- the games -------------------------------------------------------------------------------
def test_each_game_is_a_game_value_whose_initial_state_is_its_engines():
    table = preset("classic")
    president, poker, tides = PresidentGame(table), recycle("Poker5", max_choices=300), TidesGame()
    for game in (president, poker, tides):
        assert isinstance(game, Game) and game.value_range == (0.0, 1.0)
        state = game.new_initial_state(7)
        assert state.num_players == game.num_players
        again = game.new_initial_state(7)  # the same seed, the same state
        assert [str(a) for a in state.legal_actions()] == [str(a) for a in again.legal_actions()]
    assert president.parameters["players"] == str(table.players) and poker.parameters["max_choices"] == 300
    assert str(PresidentState.new_match(table, 7).observation(0).hand) == \
        str(president.new_initial_state(7).observation(0).hand)
    assert TidesState.new(7).hands == tides.new_initial_state(7).hands
    with pytest.raises(Exception):
        president.game.settings = preset("uecda")  # an immutable value


def test_capabilities_say_who_plays_and_what_search_may_use():
    president = PresidentGame(preset("classic")).capabilities
    assert president.climbing_view and president.neighbours and president.still_in and president.hidden_information
    assert not recycle("Poker5").capabilities.climbing_view and recycle("President5").capabilities.climbing_view
    assert Family.TIDES in recycle("TidesOfTime2").capabilities.families
    assert Family.TIDES in TidesGame().capabilities.families and not TidesGame().capabilities.climbing_view
    assert not recycle("Hearts4").capabilities.families and not recycle("Hearts4").capabilities.neighbours


@dataclass(frozen=True)
class Open:
    """A made-up game offering no worlds to sample and no hidden cards to peek at."""

    name: str = "Open"
    num_players: int = 2
    parameters: tuple = ()
    value_range: tuple = (0.0, 1.0)
    capabilities: Capabilities = Capabilities(hidden_information=False, determinize=False, true_state=False)

    def new_initial_state(self, seed: int):
        raise NotImplementedError


def test_the_agents_a_game_hosts_follow_its_capabilities_alone():
    assert agents_for(Open()) == ["random"]
    assert "ismcts" in agents_for(PresidentGame(preset("classic")))
    assert "tides-seed" in agents_for(TidesGame()) and "tides-seed" not in agents_for(recycle("Hearts4"))
    assert "it samples the worlds a seat cannot tell apart" in refusal("ismcts", Open())
    assert "it reads every hidden card" in refusal("mcts", Open())


# ---- make_bots: the one place specs become agents ------------------------------------------------
def test_make_bots_fills_the_seats_and_refuses_what_the_game_cannot_host():
    agents, seats = make_bots(recycle("Hearts4"), ["random", "ismcts:iterations=5"])
    assert seats == ["random", "ismcts:iterations=5"] * 2 and len({id(a) for a in agents}) == 4
    with pytest.raises(AgentSpecError, match=r"tides-seed cannot play Hearts4 \(it reads a Tides of Time observation"):
        make_bots(recycle("Hearts4"), ["random", "tides-seed"])
    with pytest.raises(AgentSpecError, match="Classic is a President personality: .* Poker5 is not one"):
        make_bots(recycle("Poker5"), ["Classic"])
    with pytest.raises(AgentSpecError, match="ismcts cannot play Open"):
        make_bots(Open(), ["random", "ismcts"])
    with pytest.raises(AgentSpecError, match="tides-solver cannot play Hearts4"):
        make_bots(recycle("Hearts4"), ["pimc:rollout=tides-solver"])  # nested specs too
    with pytest.raises(AgentSpecError, match="Classic is a President personality"):
        make_bots(TidesGame(), ["Classic"])


# ---- --players refuses, naming the agent and why -------------------------------------------------
@pytest.mark.parametrize("tool, argv, agent, game", [
    ("recycle", ["run", "Hearts4", "--players", "random,tides-solver", "--games", "1"], "tides-solver", "Hearts4"),
    ("recycle", ["play", "Hearts4", "--players", "you,tides-seed"], "tides-seed", "Hearts4"),
    ("recycle", ["play", "Poker5", "--players", "you,Classic"], "Classic", "Poker5"),
    ("president", ["simulate", "--players", "Classic,tides-seed", "--matches", "1"], "tides-seed", "President"),
])
def test_players_refuses_an_agent_the_game_cannot_host(tool, argv, agent, game, capsys, tmp_path, monkeypatch):
    from president.cli.main import main as president
    from recycle.cli.main import main as recycle_main

    monkeypatch.chdir(tmp_path)
    assert (recycle_main if tool == "recycle" else president)(argv) == 2
    err = capsys.readouterr().err
    assert f"error: {agent} " in err and (f"cannot play {game} (it " in err or f"and {game} is not one" in err)
    assert f"agents that can play {game}: random" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # refused before any game


# ---- the new-match dialog ------------------------------------------------------------------------
def test_the_new_match_dialog_offers_what_the_game_hosts_and_refuses_the_rest(tmp_path):
    from textual.widgets import Button, Select, Static

    from tui.president.app import PresidentApp
    from tui.president.newmatch import NewMatchScreen
    from tui.president.options import MatchOptions
    from tui.president.pilot import settle

    app = PresidentApp(MatchOptions(preset("classic"), 1, rules_dir=tmp_path / "rules", delay=0))

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            # A bot from outside the dialog's lists (a table made in code) that President cannot host.
            dialog = NewMatchScreen(replace(app.session.options, opponents=("Classic", "tides-seed")))
            offered = {spec for _, spec in dialog.choices}
            assert "ismcts" in offered and "Classic" in offered and "tides-seed" not in offered
            started: list = []
            app.push_screen(dialog, started.append)
            await pilot.pause()
            assert str(dialog.query_one("#bot-2", Select).value) == "tides-seed"
            await pilot.click("#start")
            await pilot.pause()
            error = str(dialog.query_one("#new-error", Static).content)
            assert "cannot start: tides-seed cannot play President (it reads a Tides of Time observation" in error
            assert app.screen is dialog  # still open: pick another bot
            for seat in (2, 4):  # the two specs repeat in rotation over the four bot seats
                dialog.query_one(f"#bot-{seat}", Select).value = "random"
            dialog.query_one("#start", Button).press()  # the long error may have scrolled it out of the 24 lines
            await settle(pilot)
            assert app.screen is not dialog and started[0].specs[2:] == ["random", "Classic", "random"]

    asyncio.run(scenario())


# ---- search reads the capabilities, never probes -------------------------------------------------
def test_search_asks_nothing_a_game_does_not_offer():
    from recycle.search.common import remaining_players
    from recycle.search.inference import Inference

    class Unasked(TidesState):
        __slots__ = ()

        def still_in(self):
            raise AssertionError("still_in asked of a game that does not offer it")

        def neighbours(self, player):
            raise AssertionError("neighbours asked of a game that does not offer it")

    state = TidesState.new(3)
    plain = Unasked.__new__(Unasked)
    for slot in TidesState.__slots__:
        setattr(plain, slot, getattr(state, slot))
    assert remaining_players(plain) == 2  # two players: the plain answer, still_in() never called
    redeal = plain.determinizer(0)
    assert Inference(q=0.05, pool=4).sampler(plain, 0, redeal) is redeal  # no evidence offered: no inference
    assert plain.determinizer(0)(random.Random(1)).num_players == 2


# ---- one observer: the any-game board is drawn from observations -------------------------------
def test_the_board_reads_observations_only_and_the_open_one_shows_every_card():
    import ast
    import inspect

    import tui.anygame.board as board
    from recycle.interp import new_game
    from recycle.interp.observation import OpenObservation
    from tui.anygame.board import board_of, seat_view

    imported = {node.module for node in ast.walk(ast.parse(inspect.getsource(board)))
                if isinstance(node, ast.ImportFrom)}
    assert not any(m and m.startswith("recycle") for m in imported)  # no store, no interpreter
    state = new_game(load_game(game_path("Poker5")), 3)
    me = state.current_player()
    card_of = {text: c for c, text in enumerate(state.table.text)}
    seat = board_of(seat_view(state.observation(me)), me, {}, card_of)
    whole = board_of(seat_view(OpenObservation(state, me)), me, {}, card_of, open=True)
    hidden = sum(len(cards) for key, cards in state.st.locs.items() if not state.table.visible(key, me))
    seen = [p for o in seat.owners for p in o.piles if p.visible]
    assert hidden and sum(len(p.cards) for p in seen) == sum(map(len, state.st.locs.values())) - hidden
    assert sum(len(p.cards) for o in whole.owners for p in o.piles) == sum(map(len, state.st.locs.values()))
    assert len(seat.owners) == len(whole.owners) == state.num_players + 1  # the game's piles, every seat
