"""What a match is made of, and the choices offered for it (no Textual here).

`MatchOptions` is what `president play` parses and what the new-match dialog
returns; `opponent_choices` lists every bot a seat can be given.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from president.settings import Settings

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

    @property
    def rules_dirs(self) -> tuple[Path, ...]:
        return (self.rules_dir,) if self.rules_dir else ()

    def seat_specs(self) -> list[str]:
        """One spec per opponent seat (seats 1..n-1)."""
        specs = [s.strip() for s in self.opponents if s.strip()] or list(DEFAULT_OPPONENTS)
        return [specs[i % len(specs)] for i in range(self.settings.players - 1)]


def default_rules_dir() -> Path:
    """The per-user folder of .rul files, created if missing."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("president-rul")) / "personalities"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def registered_agents() -> list[str]:
    """Agent names of the game protocol (`random`, search players...)."""
    from recycle.players import AGENT_FACTORIES

    return sorted(AGENT_FACTORIES)


def opponent_choices(rules_dirs: tuple[Path, ...]) -> list[tuple[str, str]]:
    """(label, spec) for every bot a seat can be given: personalities, user files, agents."""
    from personalities.catalog import catalog

    out: list[tuple[str, str]] = []
    for entry in catalog(rules_dirs):
        if entry.source == "shipped":
            out.append((f"{entry.name} (shipped)", entry.name))
        else:  # a path, so a user file never resolves to a shipped one of the same name
            out.append((f"{entry.name} ({entry.source})", str(Path(entry.source) / f"{entry.name}.rul")))
    out += [(f"{name} (agent)", name) for name in registered_agents()]
    return out
