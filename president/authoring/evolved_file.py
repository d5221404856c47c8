"""The `.rul` file `president evolve` writes: rules with where each came from and how often it fired."""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from personalities.mutation import Candidate
from personalities.reader import parse_personality


def evolved_text(candidate: Candidate, config: dict, lineage: Sequence[str], strength, versus,
                 fired: Counter) -> str:
    """The commented file; `strength` and `versus` are `evolution.Paired` (points per round against the
    field, and the difference from the start personality), `fired` counts firings by rule line."""
    p = candidate.personality
    lo, hi = strength.interval()
    vlo, vhi = versus.interval()
    deals = len(strength.diffs)
    lines = [f"; Evolved from {config['start']} by president evolve (seed {config['seed']}): "
             f"{strength.mean:.3f} points/round against the field, {versus.mean:+.3f} against the start.",
             ";",
             f"; Field: {', '.join(config['field'])}.",
             f"; Strength over {deals} fresh deals, each played once per seat: {strength.mean:.3f} points per "
             f"round (95% interval {lo:.3f} to {hi:.3f}); against {config['start']} on the same deals "
             f"{versus.mean:+.3f} ({vlo:+.3f} to {vhi:+.3f}).",
             "; Lineage (edits kept, each proven better by a paired test):"]
    lines += [f";   {edit}" for edit in lineage] or [";   (none: no edit proved better)"]
    total = sum(fired.values())
    played = parse_personality(candidate.text)  # the file the counted bot was read from: its line numbers
    for rule, counted, origin in zip(p.rules, played.rules, candidate.origins):
        count = fired.get(counted.line, 0)
        share = f" ({100 * count / total:.1f}%)" if total else ""
        lines += ["", f"; {origin}. Fired {count} times in {total} decisions{share}.", str(rule)]
    return "\n".join(lines) + "\n"
