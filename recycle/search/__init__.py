"""Search players for any game of the protocol: PIMC, cheating UCT, ISMCTS, alpha-beta, vote, and
TAG's heuristic players: one-step look-ahead (OSLA), RHEA and RMHC.

`SEARCH_PLAYERS` maps each spec name to its factory; `recycle.players` puts
them in the one table of agents. See `recycle.kernel.protocol` for the
optional fast paths they use, and `common.py` for budgets, rollouts and traces.
"""
from . import alphabeta, ismcts, mcts, osla, pimc, rhea, rmhc, vote
from .alphabeta import AlphaBetaAgent, Solver
from .common import Budget, Candidate, Rollout, SearchError, SearchTrace
from .ismcts import ISMCTSAgent
from .mcts import CheatingMCTSAgent
from .osla import OSLAAgent
from .pimc import PIMCAgent
from .rhea import RHEAAgent
from .vote import VoteAgent

#: spec name -> factory(params, resolve) for every search player.
SEARCH_PLAYERS = {
    "alphabeta": alphabeta.from_spec,
    "ismcts": ismcts.from_spec,
    "mcts": mcts.from_spec,
    "osla": osla.from_spec,
    "pimc": pimc.from_spec,
    "rhea": rhea.from_spec,
    "rmhc": rmhc.from_spec,
    "vote": vote.from_spec,
}

__all__ = ["SEARCH_PLAYERS", "AlphaBetaAgent", "Budget", "Candidate", "CheatingMCTSAgent", "ISMCTSAgent",
           "OSLAAgent", "PIMCAgent", "RHEAAgent", "Rollout", "SearchError", "SearchTrace", "Solver", "VoteAgent"]
