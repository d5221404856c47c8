"""Fuzzing both command lines and the files they read back: inputs and oracles.

Shared by the CI tests (`tests/test_cli_fuzz.py`, which draw the random
generators from hypothesis) and the long runs (`bench/fuzz.py`, targets
`cli`, `journal`, `transcript`, `deal`). This module sits above both
commands (`president` and `recycle`), so it lives with the commands.

- `random_command_line`: for any subcommand of either program (found in the
  parsers, so a new subcommand is fuzzed too), odd argument lists made of its
  own options, odd numbers, agent specs, words, and paths to special, binary,
  valid and missing files; `command_problem` runs one in-process with a
  deadline and says what went wrong: an exit code other than 0-3, a traceback,
  an internal error, a hang;
- `mutate_lines`: a JSON Lines file (a journal, a transcript) with values
  replaced, fields dropped, lines cut, duplicated, swapped or nested deep;
  `journal_problem`, `transcript_problem` and `deal_problem` read a file as
  the commands do and report any exception that is not a located refusal.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import signal
import traceback
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Callable, Iterator, Sequence

from recycle.cli.arguments import UsageError
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.protocol import GameError
from recycle.kernel.specs import AgentSpecError

#: Exit codes a command may end with: ok, failed (a game error, a replay that differs), usage, bad file.
EXIT_CODES = {0, 1, 2, 3}
#: What reading a damaged file may raise: a located refusal (anything else is a bug).
FILE_ERRORS = (DiagnosticError, UsageError, AgentSpecError, GameError)

NUMBERS = ["0", "1", "2", "3", "-1", "nan", "inf", "-inf", "1e999", "99999999999999999999999999", "0.5", "x", ""]
SPECS = ["random", "Classic", "Classic,random", "ismcts:iterations=2", "ismcts:iterations=2,rollout=Classic",
         "ismcts:time=nan", "pimc:samples=1", "mcts:iterations=2", "vote:samples=1", "nope", ",", "a,,b",
         "time=1", "random:x=1", ":", "Classic:", "Gambler,Cautious,Aggressive,Counter,Classic,random,random,random"]
WORDS = ["-", "--", "é", " ", "--help", "-h", "--version", "--nope", "a=b", "players=3", "revolution=on",
         "rounds=99999999999", "hand=HAND table=DISCARD order=VALUE", "classic", "daifugo", "President5", "Poker5",
         "3c 3c", "3 4 K", "4 4", "10,9,11,7"]
#: Values a mutated JSON record gets.
ODD_VALUES = [None, True, -1, 0, 10**30, 1.5, float("nan"), "x", "", "a\0b", "/", "Classic", "../x.gdl", [], {},
              [[[[[]]]]], [None], {"a": 1}, ["Classic", "Classic"], [0, 0, 0, 0, 0], [[1, 2, 3, 4, 5]]]
#: Workloads kept small by options given first (fuzzed ones, given later, take precedence).
QUICK = {("president", "tournament"): ["--matches", "1", "--rounds", "1"],
         ("president", "crosscheck"): ["--deals", "1"], ("president", "simulate"): ["--matches", "2"],
         ("president", "stats"): ["--rounds", "3"], ("recycle", "run"): ["--games", "2"],
         ("recycle", "corpus"): ["--games", "1"],
         ("president", "analyze"): ["--games", "2", "--rollouts", "1", "--bootstrap", "20", "--rounds", "1"],
         ("recycle", "analyze"): ["--games", "2", "--rollouts", "1", "--bootstrap", "20"],
         ("president", "evolve"): ["--generations", "1", "--population", "2", "--deals", "2", "--rounds", "1"],
         ("president", "record"): ["--rounds", "1"], ("president", "imitate"): ["--budget-hours", "0.0003"],
         ("president", "uecda-server"): ["--port", "0", "--games", "1", "--join-timeout", "1"],
         ("president", "uecda-client"): ["--timeout", "2"]}
#: Left out unless asked for: worker processes take seconds to start.
SLOW_OPTIONS = {"-j", "--jobs", "--cluster"}


#: {"president": (main, build_parser), "recycle": (...)}: given by the caller (a test, `bench/fuzz.py`),
#: since commands never import the command-line entry points.
Programs = dict[str, tuple[Callable[[list[str]], int], Callable[[], argparse.ArgumentParser]]]


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sorted(actions[0].choices.items())) if actions else {}


def commands(programs: Programs) -> list[tuple[str, str]]:
    """(program, subcommand) for every subcommand of the programs."""
    return [(program, name) for program, (_, build) in programs.items() for name in subcommands(build())]


def options(parser: argparse.ArgumentParser, slow: bool = False) -> list[tuple[str, object]]:
    """(option string, nargs) of every optional argument of a parser (flags have nargs 0)."""
    out = []
    for action in parser._actions:
        if action.option_strings and not isinstance(action, argparse._HelpAction):
            nargs = 0 if action.nargs == 0 else action.nargs
            out += [(s, nargs) for s in action.option_strings if slow or s not in SLOW_OPTIONS]
    return out


# ---- running a command ------------------------------------------------------------------------------
class Hang(BaseException):
    """A command ran past its deadline (a BaseException: no `except Exception` under test swallows it)."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise `Hang` in this (main) thread after `seconds`, even inside a blocking system call."""
    def alarm(signum, frame):
        raise Hang(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def call(main: Callable[[list[str]], int], argv: Sequence[str], seconds: float = 30) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `main(argv)` in this process; argparse's exit is an exit code too."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), deadline(seconds):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, out.getvalue(), err.getvalue()


def output_problem(code: int, out: str, err: str) -> str | None:
    """What is wrong with a command's ending, or None: a known exit code and never a Python traceback."""
    if code not in EXIT_CODES:
        return f"exit {code}: {err[-1500:]}"
    for text in (out, err):
        if "Traceback (most recent call last)" in text or "internal error" in text:
            return f"traceback or internal error (exit {code}): {text[-3000:]}"
    return None


@contextmanager
def sandbox(folder: Path) -> Iterator[None]:
    """Run in `folder`, journals of runs kept in it too, with the terminal app never started."""
    from recycle.kernel.journal_file import STATE_ENV
    from tui.president.app import PresidentApp

    before, run, state = os.getcwd(), PresidentApp.run, os.environ.get(STATE_ENV)
    os.chdir(folder)
    os.environ[STATE_ENV] = str(Path(folder).resolve() / "state")
    PresidentApp.run = lambda self, *a, **k: None
    try:
        yield
    finally:
        PresidentApp.run = run
        os.chdir(before)
        if state is None:
            os.environ.pop(STATE_ENV, None)
        else:
            os.environ[STATE_ENV] = state


def command_problem(programs: Programs, program: str, argv: Sequence[str], folder: Path,
                    seconds: float = 30) -> str | None:
    """Run one command line in `folder`; what went wrong, or None."""
    main = programs[program][0]
    try:
        with sandbox(folder):
            code, out, err = call(main, argv, seconds)
    except Hang as exc:
        return f"hang: {exc}"
    except Exception:  # escaped main: the worst kind
        return f"exception escaped main: {traceback.format_exc()[-3000:]}"
    return output_problem(code, out, err)


# ---- inputs -------------------------------------------------------------------------------------------
def make_files(root: Path, programs: Programs) -> dict[str, str]:
    """Every kind of file a user might name, made in `root`: valid ones of each format, a FIFO, a folder,
    binary, empty and missing files. Plays a tiny tournament and one RECYCLE game (a few seconds)."""
    from recycle.games import game_path

    president, recycle = programs["president"][0], programs["recycle"][0]

    os.mkfifo(root / "pipe.gdl")
    (root / "folder").mkdir()
    rng = random.Random(7)
    (root / "binary.gdl").write_bytes(bytes(rng.getrandbits(8) for _ in range(3000)))
    (root / "empty.rul").write_text("")
    (root / "games").mkdir()
    shutil.copy(game_path("President5"), root / "games" / "President5.gdl")
    (root / "deal.txt").write_text("p0: 3c 4d\np1: 5h\n")
    journal = root / "journal.jsonl"
    for main, argv in ((president, ["tournament", "Classic", "random", "--matches", "1", "--rounds", "1", "--seed",
                                    "1", "-j1", "--out", str(journal), "--json", str(root / "report.json")]),
                       (recycle, ["run", "President5", "--games", "1", "--seed", "1", "--transcript",
                                  str(root / "transcripts")])):
        code, _, err = call(main, argv, 120)
        if code != 0:
            raise RuntimeError(f"making the fuzzing files failed: {err}")
    [transcript] = (root / "transcripts").glob("*.jsonl")
    return {"pipe": str(root / "pipe.gdl"), "folder": str(root / "folder"), "binary": str(root / "binary.gdl"),
            "empty": str(root / "empty.rul"), "game": str(root / "games" / "President5.gdl"),
            "games": str(root / "games"), "deal": str(root / "deal.txt"), "journal": str(journal),
            "transcript": str(transcript), "missing": str(root / "missing.gdl"),
            "nowhere": "/nonexistent/x.json", "out": "out.json", "devnull": "/dev/null"}


def random_command_line(rng: random.Random, files: dict[str, str], programs: Programs,
                        slow: bool = False) -> tuple[str, list[str]]:
    """(program, argv): a subcommand with up to 3 odd positionals and up to 5 of its options, shuffled."""
    program, name = rng.choice(commands(programs))
    parser = subcommands(programs[program][1]())[name]
    paths = sorted(files.values())

    def value() -> str:
        pool = rng.choice([NUMBERS, SPECS, WORDS, paths, None])
        if pool is None:  # any short text (a real command line cannot hold NUL)
            return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(1, 0x3000)]))
                           for _ in range(rng.randrange(9)))
        return rng.choice(pool)

    parts = [[value()] for _ in range(rng.randrange(4))]
    for _ in range(rng.randrange(6)):
        option, nargs = rng.choice(options(parser, slow) or [("--nope", None)])
        count = {0: 0, None: 1, "?": rng.randrange(2), "*": rng.randrange(3), "+": 1 + rng.randrange(2)}.get(nargs,
                                                                                                           nargs)
        parts.append([option] + [value() for _ in range(count)])
    rng.shuffle(parts)
    return program, [name, *QUICK.get((program, name), []), *(a for part in parts for a in part)]


def mutate_lines(rng: random.Random, text: str) -> str:
    """`text` (JSON Lines) with 1-3 changes: values replaced, fields dropped, lines cut, nested, swapped..."""
    lines = text.splitlines() or [""]
    for _ in range(1 + rng.randrange(3)):
        k = rng.randrange(len(lines))
        kind = rng.choice(["value", "value", "drop", "cut", "bytes", "blank", "dup", "nest", "swap"])
        try:
            data = json.loads(lines[k])
        except (ValueError, RecursionError):
            data = None
        if kind in ("value", "drop") and isinstance(data, dict) and data:
            key = rng.choice(sorted(data))
            inner = data[key]
            if kind == "drop":
                del data[key]
            elif isinstance(inner, dict) and inner and rng.random() < 0.6:
                inner[rng.choice(sorted(inner))] = rng.choice(ODD_VALUES)
            elif isinstance(inner, list) and inner and rng.random() < 0.6:
                inner[rng.randrange(len(inner))] = rng.choice(ODD_VALUES)
            else:
                data[key] = rng.choice(ODD_VALUES)
            lines[k] = json.dumps(data)
        elif kind == "cut":
            lines[k] = lines[k][:rng.randrange(len(lines[k]) + 1)]
        elif kind == "bytes":
            pos = rng.randrange(len(lines[k]) + 1)
            noise = "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(4)))
            lines[k] = lines[k][:pos] + noise + lines[k][pos + rng.randrange(4):]
        elif kind == "blank":
            lines.insert(k, rng.choice(["", " ", "\t"]))
        elif kind == "dup":
            lines.insert(k, lines[k])
        elif kind == "nest":
            depth = rng.choice([10, 5000, 200_000])
            lines[k] = "[" * depth + "]" * depth
        elif kind == "swap":
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
    return "\n".join(lines) + rng.choice(["\n", "", "\n\n\n"])


DEAL_WORDS = ["p0:", "p1:", "p9:", "p0 HAND:", "3c", "3C", "Jk", "10d", "zz", ",", "#", ":", "\t", "p0: 3c 3c",
              "THREE BLACK CLUBS", "\r", "\u2028", "\n", "\n\n"]


def mutate_deal(rng: random.Random, text: str) -> str:
    """A deal file with up to 4 words inserted over a few characters."""
    for _ in range(rng.randrange(5)):
        pos = rng.randrange(len(text) + 1)
        word = rng.choice(DEAL_WORDS) if rng.random() < 0.8 else chr(rng.randrange(1, 0x3000))
        text = text[:pos] + word + text[pos + rng.randrange(9):]
    return text


# ---- oracles for files ---------------------------------------------------------------------------------
def _refused_or(check: Callable[[], None]) -> str | None:
    try:
        check()
    except FILE_ERRORS:
        return None
    except Exception:
        return f"exception: {traceback.format_exc()[-3000:]}"
    return None


def journal_problem(path: Path) -> str | None:
    """Read a (damaged) tournament journal as `--resume` does: header, repair, every record."""
    from president.cli.commands.tournament import CONFIG_SHAPE
    from recycle.tournament import Schedule
    from recycle.tournament.journal import read_header, records, repair

    def check() -> None:
        read_header(path, CONFIG_SHAPE)
        repair(path)
        schedule = Schedule(2, 5, 1, 1)
        for record in records(path, schedule):  # every record used lies within the tournament
            if not (0 <= record.index < schedule.total_games and len(record.places) == len(record.points)):
                raise AssertionError(f"record out of bounds accepted: {record}")
    return _refused_or(check)


def transcript_problem(path: Path) -> str | None:
    """Replay a (damaged) transcript: a report, or a located refusal."""
    from recycle.games import game_path
    from recycle.interp.transcript import replay

    def check() -> None:
        report = replay(path, game_path)
        if not (report.ok or report.difference):
            raise AssertionError("a replay that failed without saying where")
    return _refused_or(check)


def deal_problem(path: Path) -> str | None:
    """Read a (damaged) deal file for President and for a RECYCLE game."""
    from president.game.deals import read_deal_file
    from president.game.settings import preset
    from recycle.games import game_path
    from recycle.interp import new_game
    from recycle.kernel.deal_file import read_deal

    table = preset("classic").with_overrides({"rounds": "1"})
    return (_refused_or(lambda: read_deal_file(path, table))
            or _refused_or(lambda: new_game(game_path("President5"), 1, deal=read_deal(path))))
