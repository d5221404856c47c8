"""Search players on RECYCLE corpus games: every action they return is legal.

The search players know a game only through the engine protocol, so the
corpus is where a bug in that contract would show (a determinization that
loses a card, a tree action that is illegal in the real state). Small
budgets keep this fast; each game is played to its end with the search
player in every seat, and every one of its decisions is checked against the
real state's legal actions at that moment.
"""
from __future__ import annotations

import random

import pytest

from recycle.players import make_agent
from recycle.kernel.protocol import play_game
from recycle.interp import new_game
from recycle.lang import load_game

#: Games of three and four players (Agram, Hearts) and of two (Agram, Comet).
GAMES = {"rcy/Agram3.rcy": 3, "rcy/Hearts4.rcy": 4, "rcy/Agram2.rcy": 2, "rcy/Comet2.rcy": 2}
ANY_TABLE = ["pimc:samples=2", "mcts:iterations=8", "ismcts:iterations=8"]
#: The solver-based players, where their exact search applies: two players.
TWO_PLAYERS = ["vote:samples=2,nodes=200", "alphabeta:nodes=200"]

CASES = [(name, spec) for name, players in GAMES.items()
         for spec in ANY_TABLE + (TWO_PLAYERS if players == 2 else [])]


@pytest.mark.parametrize("name, spec", CASES)
def test_search_players_only_return_legal_actions_on_corpus_games(shared_dir, name, spec):
    game = load_game(shared_dir / "recycle-corpus" / name)
    state = new_game(game, 1)
    assert state.num_players == GAMES[name]
    agents = [make_agent(spec) for _ in range(state.num_players)]
    searched = []

    def check(state, player, decision):
        legal = state.legal_actions()
        assert decision.action in legal, f"{spec} chose {decision.action!r}, not one of {legal!r}"
        if len(legal) > 1:
            searched.append(decision.trace.iterations or decision.trace.solver)

    result = play_game(state, agents, random.Random(1), on_decision=check, explain=True)
    assert state.is_terminal() and len(result.ranks) == state.num_players
    assert len(searched) >= 5 and all(searched), "the players had real choices, and searched each one"
