"""What a match is made of, and the choices offered for it (no Textual here).

`MatchOptions` is what `president play` parses and what the new-match dialog
returns; `opponent_choices` lists every bot a seat can be given.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from president.game.settings import Settings
from recycle.kernel.specs import fill_seats

#: Four different shipped personalities, so a first match shows some variety.
DEFAULT_OPPONENTS = ("Classic", "Cautious", "Aggressive", "Gambler")
DEFAULT_DELAY = 0.6


@dataclass(frozen=True)
class MatchOptions:
    """Everything needed to start a match; the human is always seat 0."""

    settings: Settings
    seed: int
    opponents: tuple[str, ...] = DEFAULT_OPPONENTS  # bot specs; repeated in rotation to fill the seats
    rules_dir: Path | None = None
    delay: float = DEFAULT_DELAY  # seconds a bot waits before playing, so a person can follow
    deal: tuple | None = None  # the first round's hands (`president play --deal`, a `Deal`'s hands)
    # Save the match for review and the person's decisions as records. `president play` turns it on
    # (unless --no-save); off for a table made in code, which should not write to the user's data folder.
    saving: bool = False

    @property
    def rules_dirs(self) -> tuple[Path, ...]:
        """Where names are looked up: `rules_dir`, then the per-user folder (the commands' rule too)."""
        from personalities.catalog import search_dirs

        return search_dirs(self.rules_dir)

    def seat_specs(self) -> list[str]:
        """One spec per opponent seat (seats 1..n-1)."""
        specs = [s.strip() for s in self.opponents if s.strip()] or list(DEFAULT_OPPONENTS)
        seats = self.settings.players - 1
        # The default four are cut to a smaller table; `president play` checks a user's list first.
        return fill_seats(specs[:seats], seats, "opponents")


def default_rules_dir() -> Path:
    """The per-user folder of .rul files (`personalities.catalog.user_folder`), created if missing."""
    from personalities.catalog import user_folder

    folder = user_folder()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def registered_agents(fair_only: bool = False) -> list[tuple[str, str]]:
    """(label, name) for the agents of the game protocol that can play President (each agent
    declares the games it plays, `recycle.players.AGENT_TRAITS`); a cheating one says so."""
    from recycle.players import PRESIDENT, agent_traits, agents_for

    out = []
    for name in agents_for(PRESIDENT):
        cheats = agent_traits(name).cheats
        if not (cheats and fair_only):
            out.append((f"{name} (agent, cheating: sees every hand)" if cheats else f"{name} (agent)", name))
    return out


def opponent_choices(rules_dirs: tuple[Path, ...], fair_only: bool = False) -> list[tuple[str, str]]:
    """(label, spec) for every bot a seat can be given: personalities, user files, agents that can
    play President; `fair_only` leaves out agents that see hidden cards (an adviser must not)."""
    from personalities.catalog import catalog

    out: list[tuple[str, str]] = []
    for entry in catalog(rules_dirs):
        if entry.path is None:  # by name: the user's edited copy when there is one, as everywhere
            out.append((f"{entry.name} ({'your copy' if entry.replaced else 'shipped'})", entry.name))
        elif not entry.edited:  # a path, so a user file never resolves to another of the same name
            out.append((f"{entry.name} ({entry.source})", str(entry.path)))
    out += registered_agents(fair_only)
    # The strongest search player at a person's pace, ready to pick.
    from president.agents.levels import SEARCH

    return out + [(f"{bot_title(SEARCH)} (search player)", SEARCH)]


def bot_title(spec: str) -> str:
    """A bot as a person reads it: a level's search player by its level ("master search"), another
    agent spec by its agent's name (`ismcts`), a personality or `.rul` path by its name."""
    from president.agents.levels import LEVELS

    for level in LEVELS.values():
        if spec in level.opponents and ":" in spec:
            return f"{level.name} search"
    if spec.lower().endswith(".rul"):
        return Path(spec).stem
    return spec.split(":", 1)[0]
