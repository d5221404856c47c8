"""Agent specs: `random`, `ismcts:iterations=1000,rollout=Classic`, ...

A spec is a registered agent name, optionally followed by `:` and
comma-separated `key=value` parameters. Games add names (a shipped
personality, a `.rul` path) through a fallback resolver; search players
register themselves here, so every command line accepts them unchanged.
"""
from __future__ import annotations

from typing import Any, Callable

from .engine import Agent, RandomAgent


class AgentSpecError(ValueError):
    """A bot name or parameter that does not exist; the message says what does."""


#: name -> factory(params: dict[str, str], resolve: Callable[[str], Agent]) -> Agent
AGENT_FACTORIES: dict[str, Callable[[dict[str, str], Callable[[str], Agent]], Agent]] = {}


def register(name: str):
    """Decorator registering an agent factory under `name`."""
    def wrap(factory):
        AGENT_FACTORIES[name] = factory
        return factory
    return wrap


@register("random")
def _random(params: dict[str, str], resolve: Callable[[str], Agent]) -> Agent:
    if params:
        raise AgentSpecError(f"random takes no parameters, got {', '.join(params)}")
    return RandomAgent()


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


def make_agent(spec: str, fallback: Callable[[str], Agent | None] | None = None) -> Agent:
    """The agent a spec names. `fallback` resolves game-specific names (personalities)."""
    name, params = parse_spec(spec)

    def resolve(inner: str) -> Agent:
        return make_agent(inner, fallback)

    factory = AGENT_FACTORIES.get(name.lower())
    if factory is not None:
        return factory(dict(params), resolve)
    if fallback is not None and not params:
        agent = fallback(spec)
        if agent is not None:
            return agent
    known = ", ".join(sorted(AGENT_FACTORIES))
    raise AgentSpecError(f"unknown bot {spec!r}: use a shipped personality name, a .rul file, or one of: {known}")


def describe(agent: Any) -> str:
    return getattr(agent, "name", type(agent).__name__)


# Last: the search players register themselves through `register` above.
from . import search  # noqa: E402,F401
