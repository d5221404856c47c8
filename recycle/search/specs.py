"""A search player's `key=value` parameters read once, every error naming the player."""
from __future__ import annotations

from typing import Callable

from recycle.kernel.protocol import Agent
from recycle.kernel.specs import MAX_INT_PARAM, AgentSpecError, float_param, int_param

from recycle.search.common import MAX_SECONDS, Budget
from recycle.search.rollouts import PolicyRollout, Rollout

_TRUE, _FALSE = ("on", "true", "yes", "1"), ("off", "false", "no", "0")


class SpecReader:
    """Reads one search player's `key=value` parameters; every error names the player."""

    def __init__(self, agent: str, params: dict[str, str], resolve: Callable[[str], Agent]) -> None:
        self.agent, self.params, self.resolve = agent, dict(params), resolve
        self.accepted: list[str] = []
        self.name = agent + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")

    def _wrap(self, fn, *args):
        try:
            return fn(self.params, *args)
        except AgentSpecError as err:
            raise AgentSpecError(f"{self.agent}: {err}") from None

    def int(self, key: str, default: int, low: int = 1, high: int = MAX_INT_PARAM) -> int:
        self.accepted.append(key)
        return self._wrap(int_param, key, default, low, high)

    def float(self, key: str, default: float, low: float = 0.0, high: float = float(MAX_INT_PARAM)) -> float:
        self.accepted.append(key)
        return self._wrap(float_param, key, default, low, high)

    def flag(self, key: str, default: bool) -> bool:
        self.accepted.append(key)
        text = self.params.pop(key, None)
        if text is None:
            return default
        if text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE
        raise AgentSpecError(f"{self.agent}: {key} must be on or off, not {text!r}")

    def budget(self, default: int, unit: str = "iterations") -> Budget:
        """One of `unit`, `time` or `calls`; `unit=default` when none is given.

        `unit` is `iterations`, `samples` (with `iterations` as a synonym) or
        `nodes` (a solver's forward-model calls, with `calls` as a synonym).
        """
        names = {"samples": ["samples", "iterations"], "nodes": ["nodes", "calls"]}.get(unit, [unit])
        keys = names + ["time"] + (["calls"] if "calls" not in names else [])
        self.accepted.extend(keys)
        given = [k for k in keys if k in self.params]
        if len(given) > 1:
            raise AgentSpecError(f"{self.agent}: give one budget, not {' and '.join(given)}")
        key = given[0] if given else names[0]
        if key == "time":
            # finite and at most an hour a move: `time=inf` or `nan` would never return
            seconds = self._wrap(float_param, "time", 1.0, 0.0, MAX_SECONDS)
            if seconds <= 0:
                raise AgentSpecError(f"{self.agent}: time must be more than 0 seconds")
            return Budget("time", seconds)
        kind = "calls" if key == "calls" or unit == "nodes" else "iterations"
        amount = self._wrap(int_param, key, default, 1)
        self.accepted.append("cap")
        cap = self._wrap(float_param, "cap", 0.0, 0.0, MAX_SECONDS)  # seconds; 0 = no cap
        return Budget(kind, amount, cap)

    def rollout(self) -> Rollout:
        self.accepted.append("rollout")
        spec = self.params.pop("rollout", "random") or "random"
        if spec.lower() == "random":
            return Rollout(None, "random")
        if spec.lower() == "greedy":  # the game's own cheap playout policy
            return PolicyRollout()
        try:
            return Rollout(self.resolve(spec), spec)
        except AgentSpecError as err:
            raise AgentSpecError(f"{self.agent}: rollout={spec}: {err}") from None

    def done(self) -> None:
        """Reject any parameter not read."""
        if self.params:
            unknown = ", ".join(sorted(self.params))
            raise AgentSpecError(f"{self.agent} does not take {unknown}; it takes {', '.join(self.accepted)}")

