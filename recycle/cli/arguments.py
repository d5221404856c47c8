"""Command-line arguments checked up front: numbers in ranges, output paths writable, `--version`.

Every numeric option of `president` and `recycle` is parsed by an `IntRange`
or a `FloatRange` (finite numbers only: `nan` and `inf` are refused), so a
mistake is an argparse error (exit 2) before any work starts. The same range
checks a value read back from a file (`IntRange.check`, a tournament journal's
configuration) and gives its shape for `recycle.kernel.schema`.

Output files are checked when the command line is read (`output_file`), not
after an hour of games; `-` (and `/dev/stdout`) means standard output
(`is_stdout`), for `--json -` and `--csv -`. A pipe is an ordinary output
(`--json >(jq .)`, a named FIFO): it is opened when the command line is read,
without waiting, so a pipe nobody reads from is refused at once instead of
blocking the command, and its write end is kept for `open_output`.
"""
from __future__ import annotations

import argparse
import errno
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TextIO

if TYPE_CHECKING:  # imported where used: `president --help` should not pay for json and schema
    from recycle.kernel.schema import Float, Int

from recycle.kernel.errors import UsageError

STDOUT = "-"
#: Names of standard output itself: written through `sys.stdout`, like `-`, so the tables make way for them.
STDOUT_NAMES = frozenset({STDOUT, "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})
#: Pipes named as outputs: path -> the write end opened when the command line was read.
_PIPES: dict[str, int] = {}


@dataclass(frozen=True)
class IntRange:
    """An argparse `type`: a whole number in `low..high` (inclusive)."""

    low: int
    high: int

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number {self.text}, not {_shown(text)}") from None
        if not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(f"must be {self.text}, not {_shown(text)}")
        return value

    @property
    def text(self) -> str:
        return f"{self.low:,}..{self.high:,}"

    @property
    def shape(self) -> Int:
        from recycle.kernel.schema import Int

        return Int(self.low, self.high)

    def check(self, option: str, value: int) -> int:
        """A value that did not come through argparse (a resumed file's): a `UsageError` if out of range."""
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise UsageError(f"{option} must be {self.text}, not {value!r}")
        return value


@dataclass(frozen=True)
class FloatRange:
    """An argparse `type`: a finite number in `low..high` (ends excluded when `open_low`/`open_high`)."""

    low: float
    high: float
    open_low: bool = False
    open_high: bool = False

    def __call__(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number {self.text}, not {_shown(text)}") from None
        if not self.contains(value):
            raise argparse.ArgumentTypeError(f"must be a finite number {self.text}, not {_shown(text)}")
        return value

    def contains(self, value: float) -> bool:
        return (math.isfinite(value) and (self.low < value if self.open_low else self.low <= value)
                and (value < self.high if self.open_high else value <= self.high))

    @property
    def text(self) -> str:
        return f"{'(' if self.open_low else '['}{self.low:g}, {self.high:g}{')' if self.open_high else ']'}"

    @property
    def shape(self) -> Float:
        from recycle.kernel.schema import Float

        return Float(self.low, self.high)

    def check(self, option: str, value: float) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not self.contains(value):
            raise UsageError(f"{option} must be a finite number {self.text}, not {value!r}")
        return float(value)


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


#: Ranges shared by several commands.
SEED = IntRange(0, 2**63 - 1)
GAMES = IntRange(1, 1_000_000)  # matches, games, deals, rounds asked of one run
ROUNDS = IntRange(1, 100_000)  # rounds of one match
CHOICES = IntRange(1, 1_000_000)  # --max-choices


def is_stdout(path: str | Path | None) -> bool:
    """True for `-` or `/dev/stdout`: the output goes to standard output instead of a file."""
    return path is not None and str(path) in STDOUT_NAMES


def open_output(path: str | Path, newline: str | None = None) -> TextIO:
    """An output file opened for writing text: a pipe through the write end `output_file` kept, else the path."""
    fd = _PIPES.pop(str(path), None)
    if fd is not None:
        return os.fdopen(fd, "w", encoding="utf-8", newline=newline)
    return open(path, "w", encoding="utf-8", newline=newline)


def output_file(text: str) -> str:
    """An argparse `type` for an output file: `-` (standard output), or a path that can be written now.

    Checked when the command line is read: the folder exists and is writable,
    the path is not a folder or a socket, and a pipe has a reader (opening one
    without a reader would block until someone reads it).
    """
    if is_stdout(text):
        return text
    problem = _unwritable(Path(text))
    if problem:
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: {problem}")
    return text


def output_folder(text: str) -> str:
    """An argparse `type` for a folder that files will be written into (created later if missing)."""
    path = Path(text)
    if path.exists():
        if not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
        if not os.access(path, os.W_OK | os.X_OK):
            raise argparse.ArgumentTypeError(f"cannot write into {text!r}: permission denied")
        return text
    ancestor = path.absolute().parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir() or not os.access(ancestor, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot create {text!r}: {ancestor} is not a writable folder")
    return text


def new_output_file(text: str) -> str:
    """As `output_file`, for a file whose folder the command creates when it is missing (`evolved/x.rul`)."""
    path = Path(text)
    if text != STDOUT and path.name not in ("", ".", "..") and not path.absolute().parent.exists():
        output_folder(str(path.absolute().parent))  # raises if the folder cannot be created
        return text
    return output_file(text)


def _unwritable(path: Path) -> str | None:
    if not path.name or path.name in (".", ".."):
        return "that is a folder, not a file"
    try:
        if path.exists():
            if path.is_dir():
                return "it is a folder"
            if not os.access(path, os.W_OK):
                return "permission denied"
            if path.is_fifo():
                return _open_pipe(path)
            if not (path.is_file() or path.is_char_device()):  # /dev/null and a terminal are fine
                return "it is a socket or a block device, not a file or a pipe"
            return None
        folder = path.absolute().parent
        if not folder.is_dir():
            return f"no such folder: {folder}"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"cannot create files in {folder}: permission denied"
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        return getattr(exc, "strerror", None) or str(exc)
    return None


def close_pipes() -> None:
    """Close the pipes a command was given but did not write (it failed first): their readers see the end."""
    while _PIPES:
        os.close(_PIPES.popitem()[1])


def _open_pipe(path: Path) -> str | None:
    """Open a pipe's write end now, without waiting: kept for `open_output`; why not, or None.

    Kept open rather than probed and closed: closing the only write end would
    tell the reader the output has ended before anything was written."""
    if str(path) in _PIPES:
        return None
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            return "it is a pipe that nothing reads from (start the reading program first)"
        raise
    os.set_blocking(fd, True)  # the output may be larger than the pipe holds: wait for the reader then
    _PIPES[str(path)] = fd
    return None


class ArgumentParser(argparse.ArgumentParser):
    """argparse, refusing what Python 3.11's parser lets through: a positional argument
    given as a lone `--` arrives as an empty list instead of an error; and naming the nearest
    choice for a mistyped one. Subparsers made by `add_subparsers().add_parser` are of this class too."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        for action in self._actions:
            if not action.option_strings and action.nargs is None and \
                    isinstance(getattr(namespace, action.dest, None), list):
                self.error(f"argument {action.metavar or action.dest}: expected one value, not '--'")
        return namespace, extras

    def _check_value(self, action, value):
        """A word outside the choices (a subcommand, `--level`): argparse's error, with the nearest choice."""
        if action.choices is not None and value not in action.choices:
            from recycle.kernel.suggest import did_you_mean

            hint = did_you_mean(value, action.choices)
            if hint:
                choices = ", ".join(map(repr, action.choices))
                raise argparse.ArgumentError(action, f"invalid choice: {value!r}: {hint} (choose from {choices})")
        super()._check_value(action, value)


class _VersionAction(argparse._VersionAction):
    """`--version`, looking the version up only when asked (importlib.metadata costs ~40 ms of
    every start-up otherwise)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("president-rul")
        except PackageNotFoundError:  # running from a source tree that was never installed
            number = "unknown"
        text = f"{parser.prog} {number}"
        if self.about is not None:
            text += f" ({self.about()})"
        print(text)  # one line, never wrapped to the terminal: scripts read it
        parser.exit()


def add_version(parser: argparse.ArgumentParser, about: Callable[[], str] | None = None) -> None:
    """`--version`: the installed package's version, and what `about()` adds (asked only then)."""
    action = parser.add_argument("--version", action=_VersionAction,
                                 help="show program's version number and exit")
    action.about = about


def check_stdout_once(args: argparse.Namespace, *options: str) -> None:
    """At most one of these options may write to standard output (`-`)."""
    given = [f"--{o.replace('_', '-')}" for o in options if is_stdout(getattr(args, o, None))]
    if len(given) > 1:
        raise UsageError(f"{' and '.join(given)} cannot both write to standard output ('-')")
