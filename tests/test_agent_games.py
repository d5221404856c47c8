"""Which agents can play which game (`recycle.players.AGENT_TRAITS`), asked by the table and the commands.

The declarations are checked against behaviour: every agent said to play President
chooses a legal President action, and the ones said not to fail on a President
observation; a command naming one of those stops before any game with the list of
agents that can.
"""
from __future__ import annotations

import random

import pytest

from president.agents.bots import make_bot
from president.game.settings import preset
from president.game.state import PresidentState
from recycle.kernel.specs import AgentSpecError
from recycle.players import (AGENT_FACTORIES, AGENT_TRAITS, PRESIDENT, agent_traits, agents_for,
                             check_agents_for, unplayable_agent)

#: Small budgets, so each search player decides at once.
QUICK = {"ismcts": "ismcts:iterations=5", "mcts": "mcts:iterations=5", "pimc": "pimc:samples=1",
         "vote": "vote:samples=1", "alphabeta": "alphabeta"}


def test_every_declaration_names_an_agent_of_the_table():
    assert set(AGENT_TRAITS) <= set(AGENT_FACTORIES)
    assert agent_traits("mcts").cheats and not agent_traits("ismcts").cheats


@pytest.mark.parametrize("name", sorted(AGENT_FACTORIES))
def test_the_declaration_is_what_the_agent_does_on_a_president_table(name):
    state = PresidentState.new_match(preset("classic"), 3)
    p = state.current_player()
    if name in agents_for(PRESIDENT):
        agent = make_bot(QUICK.get(name, name))
        assert agent.choose(state.observation(p), state.legal_actions(), random.Random(0)) in state.legal_actions()
    else:  # refused when it is made, before it could sit at the table and fail there
        with pytest.raises(AgentSpecError, match=f"{name} cannot play President"):
            make_bot(QUICK.get(name, name))


def test_a_spec_naming_an_agent_that_cannot_play_is_refused_with_those_that_can():
    assert unplayable_agent("Classic", PRESIDENT) is None
    assert unplayable_agent("ismcts:iterations=5,rollout=tides-seed", PRESIDENT) == "tides-seed"  # nested too
    assert unplayable_agent("tides-solver", "TidesOfTime2") is None
    with pytest.raises(AgentSpecError) as why:
        check_agents_for(["Classic", "tides-seed"], PRESIDENT)
    message = str(why.value)
    assert "tides-seed cannot play President" in message and "mcts (cheating)" in message
    assert all(name in message for name in agents_for(PRESIDENT))


@pytest.mark.parametrize("argv", [
    ["simulate", "--players", "Classic,tides-seed"],
    ["tournament", "Classic", "tides-solver", "--matches", "1"],
    ["play", "--opponents", "Classic,tides-seed"],
])
def test_commands_refuse_an_agent_that_cannot_play_president(argv, capsys, tmp_path, monkeypatch):
    from president.cli import main

    monkeypatch.chdir(tmp_path)  # a tournament would write its journal here
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "cannot play President" in err and "agents that can play President: random" in err
    assert not list(tmp_path.iterdir())  # stopped before any game


def test_the_new_match_dialog_offers_only_agents_that_can_play_and_labels_the_cheat():
    from tui.president.options import opponent_choices

    choices = dict((spec, label) for label, spec in opponent_choices(()))
    assert "tides-seed" not in choices and "tides-solver" not in choices
    assert "cheating" in choices["mcts"] and "cheating" not in choices["ismcts"]
    advisers = [spec for _, spec in opponent_choices((), fair_only=True)]
    assert "mcts" not in advisers and "ismcts" in advisers  # a hint never sees the bots' cards
