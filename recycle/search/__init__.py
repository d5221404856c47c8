"""Search players for any game of the protocol: PIMC, cheating UCT, ISMCTS, alpha-beta, vote.

Importing this package registers their agent specs (`pimc`, `mcts`,
`ismcts`, `alphabeta`, `vote`) in `recycle.agents`; `recycle.agents` imports
it, so every command line accepts them. See `common.py` for the observation
hooks they need and for budgets, rollouts and traces.
"""
from . import alphabeta, ismcts, mcts, pimc, vote  # noqa: F401  (registration)
from .alphabeta import AlphaBetaAgent, Solver
from .common import Budget, Candidate, Rollout, SearchError, SearchTrace
from .ismcts import ISMCTSAgent
from .mcts import CheatingMCTSAgent
from .pimc import PIMCAgent
from .vote import VoteAgent

__all__ = ["AlphaBetaAgent", "Budget", "Candidate", "CheatingMCTSAgent", "ISMCTSAgent", "PIMCAgent",
           "Rollout", "SearchError", "SearchTrace", "Solver", "VoteAgent"]
