"""Difficulty levels for people: `president play --level easy|normal|hard|expert|master`.

Each level names the opponents' bots (repeated in rotation to fill the
table). The first four are rule personalities, so the table keeps its
character and bots answer at once: easy the three weakest, normal the default
table of `president play`, hard four copies of Classic, expert four copies of
Expert (Classic plus a two as the last resort, measured clearly above
Classic). Master seats the strongest search player at a person's pace
(`SEARCH`: information-set MCTS whose rollouts and opponents play like
Classic and whose worlds agree with what the opponents did, its budget in iterations and capped in wall-clock seconds so a
person never waits longer than that) beside Expert, so half the table thinks
for a second or two. Each level's measured strength is in the README.
"""
from __future__ import annotations

from dataclasses import dataclass

from recycle.kernel.suggest import hint


@dataclass(frozen=True)
class Level:
    """A named choice of opponents."""

    name: str
    opponents: tuple[str, ...]
    about: str

    def label(self) -> str:
        return f"level {self.name}: {self.about}"


#: The strongest search at a person's pace: 1,500 iterations with Classic rollouts, Classic as the
#: model of the other players, and worlds inferred from their decisions by a chain of 1,500, one world
#: per iteration (about a second of one idle core), never more than 2 s a move; told the table's
#: names, it weighs each rule personality's decisions by that personality's own rules (`names=on`,
#: docs/beliefs.md).
SEARCH = "ismcts:iterations=1500,rollout=Classic,model=on,infer=0.05,pool=1500,names=on,cap=2"

LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", ("Counter", "Aggressive", "Gambler"), "the three weakest personalities"),
    Level("normal", ("Classic", "Cautious", "Aggressive", "Gambler"), "four different personalities (the default)"),
    Level("hard", ("Classic",), "Classic at every seat"),
    Level("expert", ("Expert",), "Expert, the strongest personality, at every seat"),
    Level("master", (SEARCH, "Expert"), "the search player and Expert, in turn"),
)}


def level(name: str) -> Level:
    """The level called `name`; a ValueError naming the levels otherwise."""
    try:
        return LEVELS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown level {name!r}{hint(name, LEVELS)}: choose {', '.join(LEVELS)}") from None
