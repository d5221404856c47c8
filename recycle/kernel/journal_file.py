"""Journals a long run writes and `--resume` reads back: chained, locked, whole lines, in the state folder.

Every long run (a tournament, an evolution, an analysis) keeps a JSON Lines
journal: line 1 a header, then one record per piece of finished work. This
module is the file underneath all of them:

- **Integrity.** Each line is a JSON object in one canonical spelling whose
  last field `"#"` is a digest of the previous line's digest and the line's
  own content. Reading back (`verify`) recomputes the chain: an edited,
  reordered, inserted or deleted record, or one flipped bit, is refused with
  the line's number. (A guard against accidents and casual edits, not a
  signature: whoever rewrites the whole chain can forge it.) A journal written
  before digests existed is refused with a message saying so.
- **One writer.** The journal is locked (`flock`) from before it is read until
  the run ends; a second run on it stops at once with a one-line error.
- **Never unreadable.** A record is one `write` of a whole line, flushed to the
  operating system at once (a kill loses nothing written) and synced to disk
  at least every `SYNC_SECONDS`. A last line without its newline is the trace of a
  kill mid-write: it is dropped, with a warning, and its work done again. A write
  that fails (a full disk, a file size limit, no permission) is cut back to the
  last whole line and reported as `JournalWriteError` (exit 1, the reason named).
- **Nowhere unasked.** A run not told where to keep its journal keeps it in the
  per-user state folder (`state_folder`, `PRESIDENT_STATE_DIR` overrides it),
  under a name no earlier run has taken (`create_new`).
"""
from __future__ import annotations

import hashlib
import json
import os
import shlex
import time
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, Iterator

from recycle.cli.arguments import UsageError
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.schema import Line, open_checked, parse_line, raw_lines
from recycle.kernel.user_files import FileSet

try:  # POSIX; elsewhere a journal is not locked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: Overrides the per-user state folder (tests, several profiles).
STATE_ENV = "PRESIDENT_STATE_DIR"
DIGEST = "#"
DIGEST_CHARS = 32  # 128 bits of SHA-256
SYNC_SECONDS = 1.0
MAX_NAMES = 10_000  # tournament-5.jsonl, tournament-5-2.jsonl, ... tried before giving up


class JournalError(UsageError):
    """A journal that cannot be used as asked (damaged, edited, of another run); the message says why."""


class JournalBusy(JournalError):
    """Another run holds the journal's lock."""

    exit_code = 1


class JournalWriteError(JournalError):
    """Writing the journal failed (disk full, file too large, no permission): the run stops (exit 1)."""

    exit_code = 1


def state_folder() -> Path:
    """Where runs keep their journals when not told: `$PRESIDENT_STATE_DIR`, else the user's state folder."""
    chosen = os.environ.get(STATE_ENV)
    if chosen:
        return Path(chosen)
    from platformdirs import user_state_dir

    return Path(user_state_dir("president-rul")) / "runs"


def resume_command(program: str, path: str | Path, *options: str) -> str:
    """The exact command that continues the run journaled in `path` (shell-quoted)."""
    return " ".join([program, "--resume", shlex.quote(str(path)), *map(shlex.quote, options)])


def given_options(args: Any, *names: str) -> list[str]:
    """`--name VALUE` for each of `names` given on the command line (outputs a resumed run writes again)."""
    out: list[str] = []
    for name in names:
        value = getattr(args, name, None)
        if value not in (None, False, [], ()):
            out += [f"--{name.replace('_', '-')}", str(value)]
    return out


def interrupted_hint(done: str, program: str, path: str | Path, *options: str) -> str:
    """What every interrupted run prints: what is kept, and how to go on."""
    return f"interrupted: {done}, kept in {path}; continue with: {resume_command(program, path, *options)}"


def canonical(content: dict[str, Any]) -> str:
    """The one spelling of a record's content (keys in the writer's order, no spaces, ASCII)."""
    return json.dumps(content, separators=(",", ":"), ensure_ascii=True)  # NaN is spelled, then refused by shapes


def digest(previous: str, body: str) -> str:
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()[:DIGEST_CHARS]


def chained_line(previous: str, content: dict[str, Any]) -> tuple[str, str]:
    """(the line to write, its digest) for `content` following a line whose digest is `previous`."""
    if DIGEST in content:
        raise ValueError(f"a journal record cannot have a {DIGEST!r} field of its own")
    body = canonical(content)
    mark = digest(previous, body)
    line = canonical({**content, DIGEST: mark})
    return line + "\n", mark


def check_line(line: Line, previous: str) -> tuple[dict[str, Any], str]:
    """A written line's content and digest, or a located error: not ours, not canonical, or not chained."""
    data = parse_line(line)
    text = line.text[:-1] if line.text.endswith("\n") else line.text
    if not isinstance(data, dict) or DIGEST not in data:
        first = line.number == 1
        raise line.error("this line has no integrity digest" + (
            ": the journal was written by an older version of the program, which this one cannot resume; "
            "start the run again" if first else ": it was not written by the program (added or edited by hand)"))
    mark = data.pop(DIGEST)
    body = canonical(data)
    spelled = canonical({**data, DIGEST: mark})
    if spelled != text or mark != digest(previous, body):
        raise line.error("this record does not match its integrity digest: it was edited, damaged, or moved "
                         "from another place or journal",
                         hint="a journal cannot be resumed once changed; start the run again")
    return data, mark


def verify(path: str | Path, max_bytes: int, kind: str) -> Iterator[tuple[Line, dict[str, Any]]]:
    """Every whole line of a journal, checked against the chain, streamed; blank lines are skipped.

    A last line without its newline (a kill mid-write) is not yielded; `Journal.resume`
    drops it. Anything else wrong is a located error naming the line."""
    previous = ""
    for line in raw_lines(path, max_bytes, kind):
        if not line.text.endswith("\n"):
            return  # the torn tail of a kill
        if not line.text.strip():
            continue
        data, previous = check_line(line, previous)
        yield line, data


def recorded_files(path: str | Path, data: Any, warn=lambda message: None) -> FileSet:
    """The user files a journal's header recorded (`FileSet.to_json`), each file edited since then named
    in a `warn`ing: a resumed run goes on with the recorded text, as the run it continues did."""
    try:
        files = FileSet.from_json(data if data is not None else {"texts": [], "folders": []})
    except ValueError as exc:
        raise JournalError(f"{path}: the header's files cannot be used: {exc}") from None
    for changed in files.changed():
        warn(f"{changed} changed since this run started; the run goes on with the text recorded in {path}")
    return files


@contextmanager
def journal_closed_on_error(journal: "Journal") -> Iterator[None]:
    """Close (and unlock) `journal` if what is done inside fails: a refused resume keeps no lock."""
    try:
        yield
    except BaseException:
        journal.close()
        raise


class Journal:
    """An open, locked journal that records are appended to (a context manager)."""

    def __init__(self, path: Path, fd: int, previous: str) -> None:
        self.path, self._fd, self._previous = path, fd, previous
        self._synced = time.monotonic()

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any]) -> "Journal":
        """A new journal at `path` with its header; never overwrites one (`already exists`)."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise JournalError(f"{path} already exists: continue it with --resume {path}, "
                               f"or choose another name") from None
        except OSError as exc:
            raise JournalWriteError(f"cannot create {path}: {exc.strerror or exc}") from None
        journal = cls(path, fd, "")
        journal._lock()
        journal.append(header)
        return journal

    @classmethod
    def create_new(cls, folder: str | Path, stem: str, header: dict[str, Any]) -> "Journal":
        """A new journal in `folder` named `stem.jsonl`, or `stem-2.jsonl`, ... if taken: never fails for that."""
        for k in range(1, MAX_NAMES + 1):
            try:
                return cls.create(Path(folder) / (f"{stem}.jsonl" if k == 1 else f"{stem}-{k}.jsonl"), header)
            except JournalError as exc:
                if isinstance(exc, JournalWriteError):
                    raise
        raise JournalError(f"{folder}: {MAX_NAMES:,} journals named {stem}-N.jsonl already; clear some away")

    @classmethod
    def resume(cls, path: str | Path, max_bytes: int, kind: str,
               warn=lambda message: None, expect=lambda header: True) -> tuple["Journal", dict[str, Any]]:
        """The journal at `path`, locked, checked from its first line to its last, its torn tail (if any)
        dropped with a `warn`ing; and its header. Read the records with `verify` (streamed).

        `expect(header)` says whether the first line is a header of this kind of journal: if not, the
        file is refused as not `kind` before its digests are looked at."""
        path = Path(path)
        open_checked(path, kind).close()  # a folder, FIFO or device is refused unopened; a missing file named
        with closing(raw_lines(path, max_bytes, kind)) as lines:
            first = next(lines, None)
        try:
            header = None if first is None or not first.text.strip() else parse_line(first)
        except DiagnosticError:
            header = None
        if not isinstance(header, dict) or not expect(header):
            raise JournalError(f"{path} is not {kind} (its first line is not the header)")
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError as exc:
            raise JournalWriteError(f"cannot open {path} to continue it: {exc.strerror or exc}") from None
        journal = cls(path, fd, "")
        try:
            journal._lock()
            header = end = None
            for line, data in verify(path, max_bytes, kind):
                header, end = (data if header is None else header), line
            if end is None:
                raise JournalError(f"{path} is empty: not {kind}")
            good = _offset_after(path, end.number)
            size = os.fstat(fd).st_size
            if good < size:  # blank lines at the end (an editor's) go silently; a torn line with a warning
                with open(path, "rb") as fh:
                    fh.seek(good)
                    if fh.read(size - good).strip():
                        warn(f"{path}: dropped an unfinished last line ({size - good} bytes, the trace of an "
                             "interrupted write); its work is done again")
                os.ftruncate(fd, good)
            os.lseek(fd, 0, os.SEEK_END)
            journal._previous = json.loads(end.text)[DIGEST]
        except BaseException:
            journal.close()
            raise
        return journal, header

    def _lock(self) -> None:
        if fcntl is None:
            return
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.close()
            raise JournalBusy(f"{self.path} is in use by another run (it holds the journal's lock): "
                              "wait for that run to end, then resume") from None

    def append(self, content: dict[str, Any]) -> None:
        """Write one whole record, flushed to the OS (a kill loses nothing) and synced now and then."""
        line, mark = chained_line(self._previous, content)
        data = line.encode("ascii")
        start = os.lseek(self._fd, 0, os.SEEK_END)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view):]
            if time.monotonic() - self._synced > SYNC_SECONDS:
                os.fsync(self._fd)
                self._synced = time.monotonic()
        except OSError as exc:
            self._settle(start, len(data), mark)
            raise JournalWriteError(f"cannot write the journal {self.path}: {exc.strerror or exc}; every record "
                                    "before this one is kept") from None
        except BaseException:  # Ctrl-C between two steps: the next record must still chain on the file's last
            self._settle(start, len(data), mark)
            raise
        self._previous = mark

    def _settle(self, start: int, length: int, mark: str) -> None:
        """After an interrupted write: the line is whole (it counts) or cut back to the last whole line."""
        try:
            if os.lseek(self._fd, 0, os.SEEK_END) == start + length:
                self._previous = mark
            else:
                os.ftruncate(self._fd, start)
        except OSError:
            pass  # a torn tail is dropped on resume anyway

    def close(self) -> None:
        if self._fd < 0:
            return
        try:
            os.fsync(self._fd)
        except OSError:
            pass
        os.close(self._fd)  # also releases the lock
        self._fd = -1

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _offset_after(path: Path, number: int) -> int:
    """The byte offset just after line `number` (1-based)."""
    offset = 0
    with open(path, "rb") as fh:
        for _ in range(number):
            offset += len(fh.readline())
    return offset
