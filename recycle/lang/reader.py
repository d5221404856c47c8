"""Text in, `Game` (or located diagnostics) out: the reader's entry points."""
from __future__ import annotations

from pathlib import Path

from recycle.kernel.diagnostics import Diagnostic, read_user_file
from recycle.lang.build_game import GAME_USAGE, GameBuilder
from recycle.lang.errors import GameSyntaxError, Reject, SourceFile, TooManyErrors
from recycle.lang.lexer import MAX_CHARS, read_form
from recycle.lang.tree import Game

#: Message prefix of the safety net; a bug if it ever shows (the fuzz test checks).
INTERNAL = "internal error in the RECYCLE reader"


def read_game(text: str, filename: str = "<string>") -> tuple[Game | None, list[Diagnostic]]:
    """Read a game; never raises for any text. -> (game or None, diagnostics)."""
    if not isinstance(text, str):
        raise TypeError(f"read_game needs str, not {type(text).__name__}")
    src = SourceFile(text.removeprefix("\ufeff"), filename)
    game = None
    try:
        reading = read_form(src)
        if reading.form is None:
            if not src.has_errors:
                src.report(0, "the file holds no (game ...) form", expected=GAME_USAGE)
            return None, src.diagnostics
        builder = GameBuilder(src)
        game = builder.game(reading.form, reading.trailing)
        if game is not None and builder.saw_range and game.dialect == {"A"}:
            # Dialect A's ranges exclude their upper end: build again knowing it.
            src = SourceFile(src.text, filename)
            game = GameBuilder(src, inclusive_ranges=False).game(reading.form, reading.trailing)
    except (Reject, TooManyErrors):
        game = None
    except RecursionError:
        game = None
        src.diagnostics.append(Diagnostic(filename, 1, 1, "forms nested too deeply to read"))
    except Exception as exc:  # the promise is: no traceback for any input
        game = None
        src.diagnostics.append(Diagnostic(filename, 1, 1, f"{INTERNAL}: {type(exc).__name__}: {exc}",
                                          hint="please report this file"))
    return game, sorted(src.diagnostics, key=lambda d: (d.line, d.column))


def parse_game(text: str, filename: str = "<string>") -> Game:
    """The `Game` described by `text`; raises `GameSyntaxError` listing every error."""
    game, diagnostics = read_game(text, filename)
    if game is None:
        raise GameSyntaxError(diagnostics)
    return game


def check_text(text: str, filename: str = "<string>") -> list[Diagnostic]:
    """Every error and warning in `text`, in line order; never raises."""
    return read_game(text, filename)[1]


def load_game(path: str | Path) -> Game:
    """The game in a file; raises `GameSyntaxError` (also when it cannot be read)."""
    text, diagnostics = _read_file(path)
    if text is None:
        raise GameSyntaxError(diagnostics)
    return parse_game(text, str(path))


def check_file(path: str | Path) -> list[Diagnostic]:
    """Every error and warning in the file at `path`, in line order; never raises."""
    text, diagnostics = _read_file(path)
    return diagnostics if text is None else check_text(text, str(path))


def _read_file(path: str | Path) -> tuple[str | None, list[Diagnostic]]:
    return read_user_file(path, MAX_CHARS, "a RECYCLE game")
