"""Agent specs: `random`, `ismcts:iterations=1000,rollout=Classic`, ...

A spec is an agent name, optionally followed by `:` and comma-separated
`key=value` parameters. This module reads specs, lists of specs
(`split_specs`), their parameters, and fills a table's seats from a list
(`fill_seats`); the table of agent names lives in `recycle.players`.
"""
from __future__ import annotations

import math
import re
from typing import Any, Sequence

#: A piece of a spec list that starts `key=`: it continues the previous spec's parameters.
_PARAMETER = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_-]*\s*=")
#: Bounds on what a command line may ask of one spec (a user's typo must not start a year-long search).
MAX_INT_PARAM = 10**9


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
            key = key.strip().lower()
            if key in params:  # `rollout=ismcts:iterations=2,rollout=...` would silently keep the last
                raise AgentSpecError(f"in {spec!r}: {key} is given twice")
            params[key] = value.strip()
    return name.strip(), params


def split_specs(text: str) -> list[str]:
    """A list of agent specs as one command-line argument -> the specs, in order.

    Specs are separated by commas; a comma followed by `key=` continues the
    parameters of the spec before it. So one syntax serves every option that
    takes several bots (`--players`, `--opponents`, tournament bots...):

        "Classic,ismcts:time=1.0,rollout=Classic,random"
            -> ["Classic", "ismcts:time=1.0,rollout=Classic", "random"]

    Spaces around each spec are dropped; `""` (or only spaces) is no spec at
    all. An empty item (`"a,,b"`, a trailing comma) or a `key=value` after a
    spec that takes no parameters (`"Classic,time=1"`) is an `AgentSpecError`
    saying how to write it. A name that itself looks like `key=...` (a file
    `a=b.rul`) is written with its folder: `./a=b.rul`. `join_specs` is the
    inverse: `split_specs(join_specs(specs)) == specs`.
    """
    if not text.strip():
        return []
    specs: list[str] = []
    for position, piece in enumerate(text.split(","), 1):
        item = piece.strip()
        if not item:
            raise AgentSpecError(f"in {text!r}: spec {position} is empty (two commas, or a comma at an end)")
        if _PARAMETER.match(item) and specs and ":" in specs[-1]:
            specs[-1] += "," + item
        elif _PARAMETER.match(item):
            where = f"after {specs[-1]!r}, which" if specs else "the first spec"
            raise AgentSpecError(f"in {text!r}: {item!r} is a parameter, but {where} has no 'name:' before it "
                                 f"(write NAME:{item})")
        else:
            specs.append(item)
    return specs


def join_specs(specs: Sequence[str]) -> str:
    """The one-argument text of a list of specs (read back by `split_specs`)."""
    return ",".join(s.strip() for s in specs)


def fill_seats(specs: Sequence[str], seats: int, what: str = "bots") -> list[str]:
    """One spec per seat: fewer specs than seats are repeated in rotation (A B A B A).

    More specs than seats, or none, is an `AgentSpecError` (`what` names them
    in the message, e.g. "opponents").
    """
    specs = list(specs)
    if not specs:
        raise AgentSpecError(f"name at least one of the {what}")
    if len(specs) > seats:
        raise AgentSpecError(f"{len(specs)} {what} for {seats} seat(s)")
    return [specs[i % len(specs)] for i in range(seats)]


def int_param(params: dict[str, str], key: str, default: int, low: int = 1, high: int = MAX_INT_PARAM) -> int:
    """The whole-number parameter `key` (removed from `params`), or `default`; `low..high` inclusive."""
    text = params.pop(key, None)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise AgentSpecError(f"{key} must be a whole number, not {text!r}") from None
    if value < low:
        raise AgentSpecError(f"{key} must be at least {low}, not {value}")
    if value > high:
        raise AgentSpecError(f"{key} must be at most {high:,}, not {value:,}")
    return value


def float_param(params: dict[str, str], key: str, default: float, low: float = 0.0,
                high: float = float(MAX_INT_PARAM)) -> float:
    """The number parameter `key` (removed from `params`), or `default`; finite, `low..high` inclusive.

    `nan` and `inf` are refused: `time=inf` would never return, and `nan`
    compares false with every bound."""
    text = params.pop(key, None)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise AgentSpecError(f"{key} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise AgentSpecError(f"{key} must be a finite number, not {text!r}")
    if value < low:
        raise AgentSpecError(f"{key} must be at least {low}, not {value}")
    if value > high:
        raise AgentSpecError(f"{key} must be at most {high:g}, not {value:g}")
    return value


def describe(agent: Any) -> str:
    return getattr(agent, "name", type(agent).__name__)
