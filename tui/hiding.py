"""A bot's decision as the person at the table may know it while the round is played.

During a round the person sees the plays, not the bots' cards (nor their beliefs
about the others, which tell what they hold by what is missing). So on the AI
debug screen a rule personality's decision keeps the action (a gift only when
the person gave or received it), the rule that fired and its text, and the
values of the public variables; its hand and every value that follows from
it (how many of a value it holds, its highest card, the odds it computes,
even `Random`, whose draws depend on which conditions were tried) are
masked, and so are the reasons the earlier rules did not fire. Any other
agent's account (a search tree is built from its own cards) is hidden whole.
`SeatTrace` and `HiddenTrace` draw as a tree and export as JSON, like the
traces they stand for. No Textual here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rich.text import Text
from rich.tree import Tree

from personalities.trace import DecisionTrace, RuleTrace
from personalities.variables import Variable
from president.game.cards import Give

from tui.shared.botjob import DecisionRecord

#: Variables whose value every player at the table can work out: they follow from the plays.
PUBLIC_VARIABLES = frozenset({Variable.LEAD, Variable.RANK, Variable.PERCENT_PLAYED, Variable.HIGHEST_OPP_CARDS,
                              Variable.HIGHER_PLAYERS, Variable.PLAYERS_LEFT, Variable.TOT_MY_CARDS})
#: Variables of the considered play that are public for the play made (the fired rule's play).
OF_THE_PLAY_MADE = frozenset({Variable.CARD_VAL, Variable.MATCHES_UP_CARD})
#: Public parts of a rule trace's situation (the hand is not one).
PUBLIC_SITUATION = ("upcards", "lead", "can_pass", "opponent_counts", "rank")
HIDDEN = "hidden"
WHY = "hidden this round: the bot's cards and what follows from them (o: open hands)"


def public_value(variable: str, fired: bool) -> bool:
    """May the person know this variable's value in a rule that fired (or did not)?"""
    v = Variable(variable)
    return v in PUBLIC_VARIABLES or (fired and v in OF_THE_PLAY_MADE)


@dataclass(frozen=True)
class SeatTrace:
    """A rule personality's decision with what the person cannot know masked."""

    trace: DecisionTrace
    action: str  # the action as the person may know it

    def summary(self) -> str:
        t = self.trace
        how = f"rule line {t.fired_line}" if t.fired_line else t.note
        return f"{t.personality} (player {t.player}): {self.action} ({how})"

    def __rich__(self) -> Tree:
        t = self.trace
        s = t.situation
        where = f"exchange: gives {s.get('give')} card(s)" if t.kind == "exchange" else (
            "lead" if s.get("upcards") is None else f"upcards {s['upcards']}")
        tree = Tree(Text.assemble((t.personality, "bold"), f" (player {t.player}) → ", (self.action, "bold green"),
                                  f"   hand hidden · {where}"))
        for rule in t.rules:
            tree.add(self._rule_label(rule))
            if rule.fired:
                node = tree.children[-1]
                for c in rule.conditions:
                    value = f"{c.variable} = {c.value}" if public_value(c.variable, True) else f"{c.variable} = {HIDDEN}"
                    node.add(Text.assemble(f"{c.text}   ", (value, "cyan"), " → ", ("true", "green")))
        if t.note:  # how an action is chosen when no rule fires: the same for every hand
            tree.add(Text(t.note, style="italic"))
        tree.add(Text(WHY, style="dim italic"))
        return tree

    @staticmethod
    def _rule_label(rule: RuleTrace) -> Text:
        label = Text.assemble((f"{rule.line:>3}: ", "cyan"), (rule.text, "bold green" if rule.fired else "dim"))
        if rule.fired:
            label.append(f"  → {rule.cards}  ✔ fired", style="green")
        else:
            label.append("  did not fire", style="dim")  # why would tell what it holds
        return label

    def to_json(self) -> dict:
        t = self.trace
        rules = []
        for rule in t.rules:
            entry: dict[str, Any] = {"line": rule.line, "rule": rule.text, "fired": rule.fired}
            if rule.fired:
                entry["cards"] = rule.cards
                entry["conditions"] = [{"condition": c.text, "variable": c.variable, "verdict": True,
                                        "value": c.value if public_value(c.variable, True) else HIDDEN}
                                       for c in rule.conditions]
            rules.append(entry)
        return {"personality": t.personality, "player": t.player, "kind": t.kind, "hand": HIDDEN,
                "situation": {k: t.situation[k] for k in PUBLIC_SITUATION if k in t.situation},
                "action": self.action, "rule_line": t.fired_line, "rules": rules, "hidden": WHY}


@dataclass(frozen=True)
class HiddenTrace:
    """Any other agent's account, hidden whole during the round (its search reads its own cards)."""

    action: str

    def summary(self) -> str:
        return f"played {self.action}"

    def __rich__(self) -> Text:
        return Text(f"This bot's reasoning reads its own cards: {WHY}.", style="dim italic")

    def to_json(self) -> dict:
        return {"action": self.action, "hidden": WHY}


def action_text(action: Any, person_knows_gift: bool) -> str:
    """The action as the person may know it: a gift between two others is only a number of cards."""
    if isinstance(action, Give) and not person_knows_gift:
        n = len(action.values)
        return f"give {n} card{'' if n == 1 else 's'}"
    return str(action)


def seat_view(record: DecisionRecord, person_knows_gift: bool) -> DecisionRecord:
    """`record` as the person may know it during its round."""
    action = action_text(record.action, person_knows_gift)
    trace = record.trace
    if isinstance(trace, DecisionTrace):
        masked: Any = SeatTrace(trace, action)
    elif trace is None:
        masked = None
    else:
        masked = HiddenTrace(action)
    return replace(record, action=action, trace=masked, belief=None)  # a belief tells the bot's cards too
