"""Search players for any game of the protocol: PIMC, cheating UCT, ISMCTS, alpha-beta, vote, and
TAG's heuristic players: one-step look-ahead (OSLA), RHEA and RMHC.

`SEARCH_PLAYERS` maps each spec name to its factory; `recycle.players` puts
them in the one table of agents. See `recycle.kernel.protocol` for the
optional fast paths they use, `common.py` for budgets and the agent shell, `rollouts.py`,
`traces.py` and `specs.py` for rollouts, traces and the players' parameters.
"""
from recycle.search import alphabeta, ismcts, mcts, osla, pimc, rhea, rmhc, vote
from recycle.search.alphabeta import AlphaBetaAgent, Solver
from recycle.search.common import Budget, SearchError
from recycle.search.rollouts import Rollout
from recycle.search.traces import CandidateAction, SearchTrace
from recycle.search.ismcts import ISMCTSAgent
from recycle.search.mcts import CheatingMCTSAgent
from recycle.search.osla import OSLAAgent
from recycle.search.pimc import PIMCAgent
from recycle.search.rhea import RHEAAgent
from recycle.search.vote import VoteAgent

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

__all__ = ["SEARCH_PLAYERS", "AlphaBetaAgent", "Budget", "CandidateAction", "CheatingMCTSAgent", "ISMCTSAgent",
           "OSLAAgent", "PIMCAgent", "RHEAAgent", "Rollout", "SearchError", "SearchTrace", "Solver", "VoteAgent"]
