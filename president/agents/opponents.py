"""The opponents a seat may know: the personalities whose names the table shows.

At a table, in a tournament or in `decide --opponents`, every seat's bot is
public (its name is shown). A rule personality is a function of its hand and
the public state (or flips known coins), so a search that weighs worlds by the
opponents' decisions (`infer=` with `model=on`) can weigh each known opponent's
by that opponent's own rules: worlds in which it would not have played as it
did become (nearly) impossible. This is an input the search opts into
(`names=on`); nothing hidden is read.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from personalities.compiled import draws_random
from recycle.search.rollouts import AgentModel
from recycle.search.inference import Inference

from recycle.kernel.protocol import Agent
from recycle.kernel.specs import fill_seats

from president.agents.bots import make_bot, personality_agent


def known_policies(names: Sequence[str], seat: int, rules_dirs: tuple[Path, ...] = ()) -> dict[int, AgentModel]:
    """The policies `seat` may know: for every other seat whose bot (`names[i]`, as public as the name
    shown at the table) is a rule personality, that personality as a model. Search players and people
    are left to the generic model (their play is not a function of their hand that we can replay)."""
    out = {}
    for i, name in enumerate(names):
        agent = personality_agent(name, rules_dirs) if i != seat and name else None
        if agent is not None:
            out[i] = Policy(agent)
    return out


class Policy(AgentModel):
    """A rule personality as the model of one opponent: asked `samples` times when it flips coins."""

    #: Draws of a personality with a `Random` condition, to weigh a decision by how often it makes it.
    COINS = 4

    def __init__(self, agent) -> None:
        super().__init__(agent)
        self.samples = self.COINS if draws_random(agent.personality) else 1


def tell_opponents(agent, seat: int, names: Sequence[str], rules_dirs: tuple[Path, ...] = ()) -> None:
    """Give a search that asked for them (`names=on`) the policies of the opponents whose personalities
    the table shows (`names`, seat by seat); any other agent is left as it is."""
    inference = getattr(agent, "inference", None)
    if not getattr(agent, "names", False) or not isinstance(inference, Inference):
        return
    known = known_policies(names, seat, rules_dirs)
    if known:
        agent.inference = inference.knowing(known)


def make_bots(specs: list[str], players: int, rules_dirs: tuple[Path, ...] = ()) -> tuple[list[Agent], list[str]]:
    """One agent per seat, fewer specs than seats repeated in rotation; and the seats' names for results
    (the spec; `Classic (your copy)` for the user's edited copy of a shipped personality)."""
    from personalities.catalog import shown_name

    seats = fill_seats(specs, players)
    made = {s: make_bot(s, rules_dirs) for s in dict.fromkeys(specs)}
    # Each seat gets its own agent object so that stateful agents never share memory.
    agents = [made[s] if seats.index(s) == i else make_bot(s, rules_dirs) for i, s in enumerate(seats)]
    # the seats' names are public: a search may ask for them
    for i, agent in enumerate(agents):
        tell_opponents(agent, i, seats, rules_dirs)
    return agents, [shown_name(s, rules_dirs) for s in seats]
