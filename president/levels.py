"""Difficulty levels for people: `president play --level easy|normal|hard|expert`.

Each level names the opponents' bots (repeated in rotation to fill the
table). Easy and normal keep the table's character: rule personalities,
normal being the default table of `president play`. Hard is four copies of
the strongest personality; expert is information-set MCTS with the greedy
playout policy. Its budget is in iterations, so its strength does not depend
on how loaded the machine is, and it is capped in wall-clock seconds, so a
person never waits longer than that for its move (first leads included).
Each level's measured strength is in the README (`python bench/strength.py`).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """A named choice of opponents."""

    name: str
    opponents: tuple[str, ...]
    about: str

    def label(self) -> str:
        return f"level {self.name}: {self.about}"


#: The expert's search: 7,000 iterations (about a second of one idle core), never more than 2 s.
EXPERT = "ismcts:iterations=7000,rollout=greedy,cap=2"

LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", ("Counter", "Aggressive", "Gambler"), "the three weakest personalities"),
    Level("normal", ("Classic", "Cautious", "Aggressive", "Gambler"), "four different personalities (the default)"),
    Level("hard", ("Classic",), "the strongest personality at every seat"),
    Level("expert", (EXPERT,), "information-set MCTS at every seat (at most 2 s a move)"),
)}


def level(name: str) -> Level:
    """The level called `name`; a ValueError naming the levels otherwise."""
    try:
        return LEVELS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown level {name!r}: choose {', '.join(LEVELS)}") from None
