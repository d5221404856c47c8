"""Exact endgame solving: alpha-beta with move ordering and a transposition table.

The solver is exact for two-player perfect-information positions whose
rewards are constant-sum between the two (in President: the last two players
of a round share the last two places, and the value is the root player's
utility, so it tells which of them takes the better place). Root players
maximise their own utility, the opponent minimises it.

- Move ordering: the transposition table's best move first, then the history
  heuristic (moves that caused cut-offs before, per player).
- Transposition table: keyed by `state.transposition_key()` when the game has
  one (and it is not None). Without a key the search is still exact, only
  slower; a game's `value_range(player)` narrows the first window.
- A node limit (`nodes=`, default `NODES`; within a `time` or `calls` budget
  also a share of it) bounds the work; over it `SolverLimit` is raised and the
  calling player falls back to its ordinary search.

The `alphabeta` player solves exactly wherever `endgame_solvable` says the
position is a determined two-player ending. Elsewhere it searches one
determinization with the bounded max^n search of `bounded_values` (the same
search `vote` runs on each of its samples).
"""
from __future__ import annotations

import random
import time
from typing import Any, Hashable

from recycle.kernel.beliefs import BeliefTally
from recycle.kernel.protocol import Decision, GameState

from recycle.search.common import Budget, Meter, SearchAgent, best_by, endgame_solvable, sample_root
from recycle.search.rollouts import Rollout
from recycle.search.specs import SpecReader
from recycle.search.traces import CandidateAction

INF = float("inf")
#: Default node limit (`nodes=`): about a third of a second of pure-Python solving.
NODES = 20_000
EXACT, LOWER, UPPER = 0, 1, 2
EPS = 1e-9


class SolverLimit(Exception):
    """The solver went over its node limit or its deadline."""


# ---- what the solver needs to know about a game -----------------------------
class Solver:
    """Alpha-beta for one root player; its table and history persist across calls.

    Values are searched inside the window `value_range` gives, so a player
    who has secured the best remaining place stops looking (in President,
    with two values left, every search is a win/loss test).
    """

    def __init__(self, player: int, max_nodes: int = NODES, meter: Meter | None = None,
                 deadline: float | None = None) -> None:
        self.player, self.max_nodes, self.meter, self.deadline = player, max_nodes, meter, deadline
        self.nodes = 0
        self.table: dict[Hashable, tuple[float, int, Any]] = {}
        self.history: dict[tuple[int, Any], int] = {}
        self.keyed = True  # the game offers transposition keys (set from the root's capabilities)

    def root_values(self, state: GameState, actions: list) -> tuple[dict[Any, float], set]:
        """Each action's value for the root player, and the set of actions whose value is exact.

        Every best action (all of them, when several tie) is exact; any other
        may get only an upper bound, which is below the best value.
        """
        lo, hi = state.value_range(self.player)
        self.keyed = state.capabilities.transposition_keys
        values: dict[Any, float] = {}
        exact: set = set()
        best = -INF
        for a in actions:
            child = state.clone()
            child.apply(a)
            self._count()
            floor = lo if best == -INF else max(lo, best - EPS)
            v = values[a] = self.value(child, floor, hi)
            if v > floor or floor == lo:  # inside the window, or at the bottom of the range
                exact.add(a)
            best = max(best, v)
        return values, exact

    def _count(self) -> None:
        self.nodes += 1
        if self.meter is not None:
            self.meter.calls += 1
        if self.nodes > self.max_nodes:
            raise SolverLimit(f"more than {self.max_nodes} solver nodes")
        if self.deadline is not None and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise SolverLimit("out of time")

    def value(self, state: GameState, alpha: float, beta: float) -> float:
        """Fail-soft alpha-beta value of `state` for the root player."""
        if state.is_terminal():
            return state.results().utilities()[self.player]
        key = state.transposition_key() if self.keyed else None
        tt_move = None
        if key is not None:
            hit = self.table.get(key)
            if hit is not None:
                v, flag, tt_move = hit
                if flag == EXACT:
                    return v
                if flag == LOWER:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    return v
        mover = state.current_player()
        maximise = mover == self.player
        moves = self._ordered(state.legal_actions(), mover, tt_move)
        low, high = alpha, beta
        best, best_move = (-INF if maximise else INF), None
        for a in moves:
            child = state.clone()
            child.apply_legal(a)  # moves come from legal_actions(), directly or through the table
            self._count()
            v = self.value(child, alpha, beta)
            if maximise:
                if v > best:
                    best, best_move = v, a
                    alpha = max(alpha, v)
            elif v < best:
                best, best_move = v, a
                beta = min(beta, v)
            if alpha >= beta:
                self.history[(mover, a)] = self.history.get((mover, a), 0) + 1
                break
        if key is not None:
            flag = UPPER if best <= low else LOWER if best >= high else EXACT
            self.table[key] = (best, flag, best_move)
        return best

    def _ordered(self, moves: list, mover: int, first: Any) -> list:
        if len(moves) > 1:
            history = self.history
            moves.sort(key=lambda a: -history.get((mover, a), 0))
            if first is not None and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        return moves


def solved_candidates(legal: list, values: dict[Any, float], exact: set) -> tuple[CandidateAction, ...]:
    ranked = sorted(legal, key=values.__getitem__, reverse=True)
    return tuple(CandidateAction(str(a), exact=values[a], bound=a not in exact) for a in ranked)


def open_search(agent: SearchAgent, observation: Any, legal: list, rng: random.Random, endgame: bool,
                max_nodes: int, share: float = 0.5) -> tuple[Meter, GameState, Decision | None, str]:
    """The start every search player shares: a meter, one sampled root, and the endgame switch.

    Returns (meter, root, the exact decision or None, the note for the trace).
    """
    meter = agent.budget.meter()
    root = sample_root(observation, rng)
    meter.determinizations = 1
    if not endgame:
        return meter, root, None, ""
    solved, note = endgame_decision(agent, observation, root, legal, meter, max_nodes, share)
    return meter, root, solved, note


def endgame_decision(agent: SearchAgent, observation: Any, root: GameState, legal: list, meter: Meter,
                     max_nodes: int, share: float = 0.5) -> tuple[Decision | None, str]:
    """The endgame switch of the search players: solve exactly when the position allows it.

    Returns the decision (None when this is no determined two-player ending,
    or the solver gave up) and a note for the fallback search's trace. The
    solver may use `share` of a `time` or `calls` budget.
    """
    player = root.current_player()
    if not endgame_solvable(root, player):
        return None, ""
    deadline = meter.deadline(share)
    if meter.kind == "calls":
        max_nodes = min(max_nodes, max(1, int(meter.limit * share)))
    solver = Solver(player, max_nodes, meter, deadline)
    try:
        values, exact = solver.root_values(root, legal)
    except SolverLimit as err:
        return None, f"endgame solver gave up ({err}); searched instead"
    action = best_by(legal, values.__getitem__)
    known = BeliefTally(player)  # every hidden card is deduced: the one world is the belief
    known.add(root)
    return Decision(action, agent.trace(observation, action, solved_candidates(legal, values, exact), meter,
                                        solver=True, solver_nodes=solver.nodes,
                                        method="alpha-beta (exact two-player ending)"),
                    known.belief("every hidden card deduced (two players left)")), ""


# ---- bounded search for positions with more than two players ---------------
def bounded_values(state: GameState, player: int, legal: list, depth: int, rollouts: int,
                   rollout: Rollout, rng: random.Random, meter: Meter) -> dict[Any, float]:
    """Max^n to `depth` plies (the root move is ply 1), leaves valued by rollouts.

    Each player, at its own turn, picks the move whose value vector is best
    for itself (ties: the first in legal order); a non-terminal leaf is worth
    the mean utility vector of `rollouts` rollouts from it; a finished
    episode is worth its exact results. Returns the root player's component.
    """
    def vector(s: GameState, plies: int) -> tuple[float, ...]:
        if s.is_terminal():
            return s.results().utilities()
        if plies == 0:
            total = [0.0] * s.num_players
            for _ in range(rollouts):
                rewards, steps = rollout.run(s.clone(), rng)
                meter.calls += steps
                for i, r in enumerate(rewards):
                    total[i] += r
            return tuple(t / rollouts for t in total)
        mover, best = s.current_player(), None
        for a in s.legal_actions():
            child = s.clone()
            child.apply_legal(a)
            meter.calls += 1
            v = vector(child, plies - 1)
            if best is None or v[mover] > best[mover]:
                best = v
        return best

    values = {}
    for a in legal:
        child = state.clone()
        child.apply(a)
        meter.calls += 1
        values[a] = vector(child, depth - 1)[player]
    return values


# ---- the player -----------------------------------------------------------
class AlphaBetaAgent(SearchAgent):
    """Exact in determined two-player endings; elsewhere bounded max^n on one determinization.

    Its budget bounds the solver: `nodes` (forward-model calls) or `time`.
    """

    method = "alpha-beta"

    def __init__(self, name: str, budget: Budget, depth: int, rollouts: int, rollout: Rollout) -> None:
        self.name, self.budget, self.depth, self.rollouts, self.rollout = name, budget, depth, rollouts, rollout

    def search(self, observation: Any, legal: list, rng: random.Random, believe: bool = True) -> Decision:
        max_nodes = int(self.budget.amount) if self.budget.kind == "calls" else 10 ** 12
        meter, root, solved, note = open_search(self, observation, legal, rng, True, max_nodes, share=1.0)
        if solved is not None:
            return solved
        values = bounded_values(root, root.current_player(), legal, self.depth, self.rollouts, self.rollout,
                                rng, meter)
        meter.iterations = 1
        action = best_by(legal, values.__getitem__)
        ranked = sorted(legal, key=values.__getitem__, reverse=True)
        candidates = tuple(CandidateAction(str(a), 1, values[a]) for a in ranked)
        return Decision(action, self.trace(observation, action, candidates, meter,
                                           method=f"max^n depth {self.depth} on one determinization",
                                           note=note or "not a determined two-player ending"))


def from_spec(params: dict[str, str], resolve) -> AlphaBetaAgent:
    spec = SpecReader("alphabeta", params, resolve)
    budget = spec.budget(NODES, unit="nodes")
    depth = spec.int("depth", 2)
    rollouts = spec.int("rollouts", 1)
    rollout = spec.rollout()
    spec.done()
    return AlphaBetaAgent(spec.name, budget, depth, rollouts, rollout)
