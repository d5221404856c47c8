"""Traces: the record of one decision of a rule personality.

For every rule tried, in order: its line and text, the concrete cards the
potential play resolved to or why it does not apply, each condition with the
variable's full name, its value and the verdict; then which rule fired. A
trace renders as a rich tree and exports as JSON.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from rich.tree import Tree

from personalities.view import cards_text


@dataclass(frozen=True)
class ConditionTrace:
    """One condition of a rule, evaluated."""

    text: str  # canonical, with the full variable name
    variable: str  # full name
    value: int | None  # None: not evaluated (an earlier condition failed and it is random)
    verdict: bool | None
    needed: bool = True  # False: evaluated only for the trace, after an earlier one failed

    def to_json(self) -> dict:
        return {"condition": self.text, "variable": self.variable, "value": self.value,
                "verdict": self.verdict, "needed": self.needed}


@dataclass(frozen=True)
class RuleTrace:
    """One rule tried."""

    line: int
    text: str  # the rule as written in the file
    play: tuple[int, int] | None  # resolved (value, count); None for a pass or when it does not apply
    applies: bool  # did the potential play resolve?
    reason: str  # why it does not apply, or "" when it does
    conditions: tuple[ConditionTrace, ...] = ()
    fired: bool = False

    @property
    def cards(self) -> str:
        if self.play is None:
            return "pass" if self.applies else "-"
        return cards_text(*self.play)

    def to_json(self) -> dict:
        return {"line": self.line, "rule": self.text, "applies": self.applies,
                "cards": self.cards if self.applies else None, "reason": self.reason or None,
                "conditions": [c.to_json() for c in self.conditions], "fired": self.fired}


@dataclass(frozen=True)
class DecisionTrace:
    """A whole decision: the situation, every rule tried, and the outcome."""

    personality: str
    player: int
    situation: dict
    rules: tuple[RuleTrace, ...]
    action: str  # text of the action taken
    fired_line: int | None  # the rule that fired, or None
    note: str = ""  # how the action was chosen when no rule fired, or for an exchange
    kind: str = "play"  # "play" or "exchange"
    extra: dict = field(default_factory=dict)

    @property
    def fired(self) -> RuleTrace | None:
        return next((r for r in self.rules if r.fired), None)

    def to_json(self) -> dict:
        return {"personality": self.personality, "player": self.player, "kind": self.kind,
                "situation": self.situation, "action": self.action, "rule_line": self.fired_line,
                "note": self.note or None, "rules": [r.to_json() for r in self.rules], **self.extra}

    def summary(self) -> str:
        how = f"rule line {self.fired_line}" if self.fired_line else self.note
        return f"{self.personality} (player {self.player}) plays {self.action}: {how}"

    def __rich__(self) -> Tree:
        tree = Tree(Text.assemble((self.personality, "bold"), f" (player {self.player}) → ",
                                  (self.action, "bold green"), f"   {self._situation_text()}"))
        for rule in self.rules:
            _add_conditions(tree.add(_rule_label(rule)), rule)
        if self.note:
            tree.add(Text(self.note, style="italic"))
        return tree

    def _situation_text(self) -> str:
        s = self.situation
        parts = [f"hand {s.get('hand', '')}"]
        if self.kind == "exchange":
            parts.append(f"exchange: gives {s.get('give')} card(s)")
        else:
            parts.append("lead" if s.get("upcards") is None else f"upcards {s['upcards']}")
        return " · ".join(parts)


def _rule_label(rule: RuleTrace) -> Text:
    style = "bold green" if rule.fired else ("" if rule.applies else "dim")
    mark = "✔ fired" if rule.fired else ("" if rule.applies else f"✘ {rule.reason}")
    label = Text.assemble((f"{rule.line:>3}: ", "cyan"), (rule.text, style))
    if rule.applies:
        label.append(f"  → {rule.cards}", style="yellow")
    if mark:
        label.append(f"  {mark}", style="green" if rule.fired else "red")
    return label


def _add_conditions(node: Tree, rule: RuleTrace) -> Tree:
    for c in rule.conditions:
        if c.verdict is None:
            node.add(Text(f"{c.text}  (not evaluated: random, and an earlier condition failed)", style="dim"))
            continue
        verdict = ("true", "green") if c.verdict else ("false", "red")
        extra = "" if c.needed else "  (not needed)"
        node.add(Text.assemble(f"{c.text}   ", (f"{c.variable} = {c.value}", "cyan"), " → ", verdict,
                               (extra, "dim")))
    return node
