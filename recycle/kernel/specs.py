"""Agent specs: `random`, `ismcts:iterations=1000,rollout=Classic`, ...

A spec is an agent name, optionally followed by `:` and comma-separated
`key=value` parameters. This module reads specs and their parameters; the
table of agent names lives in `recycle.players`.
"""
from __future__ import annotations

from typing import Any


class AgentSpecError(ValueError):
    """A bot name or parameter that does not exist; the message says what does."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`"ismcts:iterations=1000,rollout=Classic"` -> `("ismcts", {...})`."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise AgentSpecError(f"in {spec!r}: parameters are key=value, not {item!r}")
            params[key.strip().lower()] = value.strip()
    return name.strip(), params


def int_param(params: dict[str, str], key: str, default: int, low: int = 1) -> int:
    text = params.pop(key, None)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise AgentSpecError(f"{key} must be a whole number, not {text!r}") from None
    if value < low:
        raise AgentSpecError(f"{key} must be at least {low}, not {value}")
    return value


def float_param(params: dict[str, str], key: str, default: float, low: float = 0.0) -> float:
    text = params.pop(key, None)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise AgentSpecError(f"{key} must be a number, not {text!r}") from None
    if value < low:
        raise AgentSpecError(f"{key} must be at least {low}, not {value}")
    return value


def describe(agent: Any) -> str:
    return getattr(agent, "name", type(agent).__name__)
