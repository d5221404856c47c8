"""Showing any agent's trace: a rich renderable if it has `__rich__`, else its JSON."""
from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.json import JSON
from rich.pretty import Pretty
from rich.text import Text
from textual.widgets import Static

from recycle.kernel.protocol import trace_json


def render_trace(trace: Any, as_json: bool = False) -> RenderableType:
    """The trace as rich draws it (a rule personality's tree), or as JSON on request."""
    if trace is None:
        return Text("This bot gives no account of its decisions.", style="dim italic")
    parts: list[RenderableType] = []
    if hasattr(trace, "summary"):
        parts.append(Text(trace.summary(), style="bold"))
    if as_json or not hasattr(trace, "__rich__"):
        data = trace_json(trace)
        try:
            parts.append(JSON(json.dumps(data, default=str)))
        except (TypeError, ValueError):  # not JSON-like: show it as Python sees it
            parts.append(Pretty(data))
    else:
        parts.append(trace)
    return Group(*parts)


class TraceView(Static):
    """A decision's full trace; `t` on the hosting screen flips between tree and JSON."""

    def show_trace(self, trace: Any, as_json: bool = False) -> None:
        self.update(render_trace(trace, as_json))
