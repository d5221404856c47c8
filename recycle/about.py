"""What a RECYCLE game file says about itself, for a person about to play it.

    about = about_game(game)            # a loaded recycle.lang.tree.Game
    about.title      # 'Poker (five-card draw)'  (the first comment line)
    about.text       # the opening comment block: rules, differences, scoring
    about.scoring    # 'score: your CHIPS; the highest wins'
    about.followed   # {'CHIPS', 'BET', 'POT'}: storage the players' choices read or write, and the score

RECYCLE has no description form: game files open with `;;` comments that say what
the game is (every shipped game and most of the corpus do). Those lines, without the
comment marks and the machine-read `climbing:` line, are the description. The scoring
line comes from the `(scoring max|min ...)` form itself.

`followed` are the storage names a person follows at the table: those a `(choice ...)`
reads or writes (what you bet, what you must beat) and the one the score is. The rest
(a hand's rank encoded as a number, counts made while scoring) is the game's arithmetic.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path

from recycle.kernel.diagnostics import read_user_file
from recycle.lang import tree as T

#: The description is read from at most this much of the file (it opens the file).
MAX_CHARS = 64_000
#: Lines kept of the opening comment block.
MAX_LINES = 80
#: Comment lines meant for tools, not people (`;; climbing: hand=HAND ...`).
TOOL_LINES = ("climbing:",)


@dataclass(frozen=True)
class About:
    """The game's own description (empty when its file opens with no comment) and scoring line."""

    title: str
    text: str
    scoring: str
    followed: frozenset[str] = frozenset()


def about_game(game: T.Game) -> About:
    """The description of a loaded game (read again from its file, bounded; never raises)."""
    text, _ = read_user_file(Path(game.filename), MAX_CHARS, "a RECYCLE game")
    lines = description_lines(text or "")
    title = next((line for line in lines if line), "")
    if title:
        lines = lines[lines.index(title) + 1:]  # the title is shown on its own
    followed = set(_storage_names(game.scoring.score))
    for choice in _nodes(game.flow, T.Choice):
        followed.update(_storage_names(choice))
    return About(title, reflow(lines), scoring_line(game.scoring), frozenset(followed))


def _alone(line: str) -> bool:
    """A line kept on its own (a link)."""
    return line.startswith(("http://", "https://"))


def reflow(lines: list[str]) -> str:
    """Comment lines as paragraphs: a line continues the one before unless it is empty, indented
    or starts a list item (`-`, `1.`) or is a link, so the screen wraps the text at its own width."""
    out: list[str] = []
    for line in lines:
        starts = not line or line[0] in " -*" or line.split(" ", 1)[0].rstrip(".):").isdigit()
        if not line and out and not out[-1]:
            continue  # one blank line between paragraphs (a tool line may have stood between two)
        if out and out[-1] and not starts and not _alone(out[-1]) and not _alone(line):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out).strip("\n")


def _nodes(root, kind: type):
    """Every node of type `kind` under `root` (a node or a tuple of nodes), iteratively."""
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(item)
        elif is_dataclass(item):
            if isinstance(item, kind):
                yield item
            stack.extend(getattr(item, f.name) for f in fields(item))


def _storage_names(root):
    for store in _nodes(root, (T.IntStorage, T.StrStorage)):
        name = store.name
        yield name.value if isinstance(name, T.Name) else str(name)


def description_lines(text: str) -> list[str]:
    """The opening `;;` comment block of a game file, without the marks and tool lines."""
    out: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line.startswith(";;"):
            if line:
                break  # the game itself starts: the description is over
            continue
        body = line[2:].removeprefix(" ").rstrip()
        if body.lstrip(";").strip().startswith(TOOL_LINES):
            continue
        out.append(body.lstrip(";"))
        if len(out) >= MAX_LINES:
            out.append("…")
            break
    while out and not out[-1].strip():
        out.pop()
    return out


def scoring_line(scoring: T.Scoring) -> str:
    """`score: your CHIPS; the highest wins` from `(scoring max ((current player) sto CHIPS))`."""
    best = "the highest" if scoring.goal == "max" else "the lowest"
    score = scoring.score
    if isinstance(score, T.IntStorage) and isinstance(score.owner, T.PlayerRef) and score.owner.which == "current":
        name = score.name.value if isinstance(score.name, T.Name) else score.name
        return f"score: your {name}; {best} wins"
    return f"score: the game's scoring rule for each player; {best} wins"
