"""Text in, `Game` (or located diagnostics) out: the reader's entry points."""
from __future__ import annotations

from pathlib import Path

from recycle.diagnostics import Diagnostic
from recycle.lang.build_game import GameBuilder
from recycle.lang.errors import GameSyntaxError, Reject, Source, TooManyErrors
from recycle.lang.lexer import read_form
from recycle.lang.tree import Game

#: Message prefix of the safety net; a bug if it ever shows (the fuzz test checks).
INTERNAL = "internal error in the RECYCLE reader"


def read_game(text: str, filename: str = "<string>") -> tuple[Game | None, list[Diagnostic]]:
    """Read a game; never raises for any text. -> (game or None, diagnostics)."""
    if not isinstance(text, str):
        raise TypeError(f"read_game needs str, not {type(text).__name__}")
    src = Source(text.removeprefix("\ufeff"), filename)
    game = None
    try:
        reading = read_form(src)
        if reading.form is None:
            if not src.has_errors:
                src.report(0, "the file holds no (game ...) form", expected="(game (setup ...) ... (scoring ...))")
            return None, src.diagnostics
        builder = GameBuilder(src)
        game = builder.game(reading.form, reading.trailing)
        if game is not None and builder.saw_range and game.dialect == {"A"}:
            # Dialect A's ranges exclude their upper end: build again knowing it.
            src = Source(src.text, filename)
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
    return game, src.diagnostics


def parse_game(text: str, filename: str = "<string>") -> Game:
    """The `Game` described by `text`; raises `GameSyntaxError` listing every error."""
    game, diagnostics = read_game(text, filename)
    if game is None:
        raise GameSyntaxError(diagnostics)
    return game


def _decode(data: bytes, filename: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8", errors="replace")
        src = Source(good + "?", filename)
        src.report(len(good), f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x})",
                   hint="save the file as UTF-8")
        raise src.error() from None


def load_game(path: str | Path) -> Game:
    """Read and parse a game file; `GameSyntaxError` for bad content, OSError if unreadable."""
    data = Path(path).read_bytes()
    return parse_game(_decode(data, str(path)), str(path))


def check_file(path: str | Path) -> list[Diagnostic]:
    """Every diagnostic (errors and warnings) for a file; empty when it is clean."""
    try:
        text = _decode(Path(path).read_bytes(), str(path))
    except OSError as exc:
        return [Diagnostic(str(path), 1, 1, f"cannot read the file: {exc.strerror or exc}")]
    except GameSyntaxError as exc:
        return list(exc.diagnostics)
    return read_game(text, str(path))[1]
