"""How a search player reached a decision: its root actions and what it did, as JSON and on screen."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text
from rich.tree import Tree


@dataclass(frozen=True)
class CandidateAction:
    """One root action: how often it was tried and what it is worth to the decider."""

    action: str
    visits: int = 0
    value: float | None = None  # mean utility (0 last .. 1 first) over its simulations
    exact: float | None = None  # the solver's value: exact, or an upper bound when `bound`
    votes: float | None = None  # determinizations that chose it (vote)
    bound: bool = False  # `exact` is only an upper bound (alpha-beta proved the action worse)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"action": self.action, "visits": self.visits}
        for key in ("value", "exact", "votes"):
            v = getattr(self, key)
            if v is not None:
                out["upper_bound" if key == "exact" and self.bound else key] = round(v, 4)
        return out

    def cell(self, key: str) -> str:
        v = getattr(self, key)
        if v is None:
            return "-"
        return f"≤{v:.3f}" if key == "exact" and self.bound else f"{v:.3f}"


@dataclass(frozen=True)
class SearchTrace:
    """How a search player reached one decision."""

    agent: str
    method: str
    player: int
    action: str
    candidates: tuple[CandidateAction, ...]
    iterations: int = 0
    seconds: float = 0.0
    determinizations: int = 0
    calls: int = 0
    solver: bool = False  # did the exact endgame solver decide?
    solver_nodes: int = 0
    cheating: bool = False
    note: str = ""

    def to_json(self) -> dict:
        return {"agent": self.agent, "method": self.method, "player": self.player, "action": self.action,
                "cheating": self.cheating, "iterations": self.iterations, "seconds": round(self.seconds, 4),
                "determinizations": self.determinizations, "forward_model_calls": self.calls,
                "endgame_solver": self.solver, "solver_nodes": self.solver_nodes, "note": self.note or None,
                "candidates": [c.to_json() for c in self.candidates]}

    def summary(self) -> str:
        how = "exact endgame solver" if self.solver else f"{self.iterations} iterations"
        return f"{self.agent} (player {self.player}) plays {self.action}: {self.method}, {how}"

    def __rich__(self) -> Tree:
        title = Text.assemble((self.agent, "bold"), f" (player {self.player}) → ", (self.action, "bold green"))
        if self.cheating:
            title.append("  CHEATING: searched the true state", style="bold red")
        tree = Tree(title)
        facts = [self.method, f"{self.iterations} iterations", f"{self.seconds:.3f} s",
                 f"{self.determinizations} determinizations", f"{self.calls} forward-model calls",
                 f"endgame solver {'used' if self.solver else 'not used'}"]
        if self.solver_nodes:
            facts.append(f"{self.solver_nodes} solver nodes")
        tree.add(Text(" · ".join(facts), style="dim"))
        if self.note:
            tree.add(Text(self.note, style="italic"))
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column("action")
        table.add_column("visits", justify="right")
        columns = [k for k in ("value", "exact", "votes") if any(getattr(c, k) is not None for c in self.candidates)]
        for key in columns:
            table.add_column({"value": "mean value", "exact": "exact value"}.get(key, key), justify="right")
        for c in self.candidates:
            style = "bold green" if c.action == self.action else ""
            table.add_row(c.action, str(c.visits), *(c.cell(k) for k in columns), style=style)
        tree.add(table)
        return tree
