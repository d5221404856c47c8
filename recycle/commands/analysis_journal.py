"""Every analysis journaled, resumable and safe to interrupt (`recycle analyze`, `president analyze`).

A run keeps a journal (`recycle.analysis.folder.AnalysisJournal`) in the per-user
state folder unless `--journal` names one; its header holds the options that
decide the numbers, so `--resume FILE` needs nothing else. Ctrl-C keeps every
finished game, prints the figures of what is done (marked partial) and the
exact command that continues.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any, Iterator

from recycle.cli.arguments import GAMES, SEED, IntRange, UsageError
from recycle.cli.console import console, err_console, warn
from recycle.kernel.journal_file import JournalError, given_options, interrupted_hint
from recycle.kernel.schema import Mismatch, Obj, Shape, Str

EXIT_INTERRUPTED = 130
#: The options every analysis keeps in its journal (with the command's own, see `open_journal`).
ANALYSIS_SHAPE = {"games": GAMES.shape, "seed": SEED.shape, "estimator": Str(4096),
                  "rollouts": IntRange(1, 10_000).shape, "bootstrap": IntRange(10, 100_000).shape,
                  "drama": Str(20, ("cardstock", "blog"))}
#: Outputs and workers a resumed run may be given again; the resume hint repeats those given.
REPEATED = ("json", "csv", "report", "cluster")


def resumed_journal(args: argparse.Namespace, command: dict[str, Shape]):
    """With `--resume FILE`: the journal, opened and locked, and `args` set to the options it recorded."""
    if not getattr(args, "resume", None):
        return None
    from recycle.analysis.folder import AnalysisJournal

    if getattr(args, "journal", None):
        raise UsageError("--journal and --resume exclude each other: the run goes on in the resumed journal")
    journal = AnalysisJournal.resume(args.resume, warn)
    try:
        options = Obj({**ANALYSIS_SHAPE, **command}).check(journal.header.get("command"), "command")
    except Mismatch as exc:
        journal.close()
        raise JournalError(f"{args.resume}: the recorded options cannot be used ({exc.where}: expected "
                           f"{exc.expected})") from None
    for key in (*ANALYSIS_SHAPE, *command):
        setattr(args, key, options[key])
    return journal


@contextmanager
def open_journal(args: argparse.Namespace, resumed, settings: dict[str, Any], command: dict[str, Shape],
                 stem: str) -> Iterator[Any]:
    """The run's journal: the resumed one (its settings checked), `--journal`'s, or a new one in the
    per-user state folder; its path is printed."""
    from recycle.analysis.folder import AnalysisJournal

    options = {key: getattr(args, key) for key in (*ANALYSIS_SHAPE, *command)}
    if resumed is not None:
        resumed.check_config(settings)
        journal = resumed
    elif getattr(args, "journal", None):
        journal = AnalysisJournal.open(args.journal, settings, options, warn)
    else:
        journal = AnalysisJournal.create(None, settings, options, stem)
    with journal:
        if journal.played:
            err_console.print(f"resuming {journal.path}: {journal.played} games already played", highlight=False)
        else:
            err_console.print(f"journal: {journal.path}", highlight=False, soft_wrap=True)
        yield journal


def analyze_journaled(args: argparse.Namespace, journal, config, subjects: Sequence[tuple[str, Callable]],
                      program: str, catch: tuple = (), show: Callable | None = None):
    """Analyse each (key, make subject) with the logs its journal has; (analyses, failed subjects).

    A subject whose making or playing raises one of `catch` is journaled as failed and listed. On
    Ctrl-C: the figures of what is done are printed (marked partial), then the resume command; None."""
    from recycle.analysis.result import compute
    from recycle.analysis.records import SETS

    from recycle.cli.commands.analyze import analyze_with_progress

    analyses: list = []
    failed: list[tuple[str, str]] = []
    current = None
    try:
        for position, (key, make) in enumerate(subjects, 1):
            if key in journal.errors:
                failed.append((key, journal.errors[key]))
                continue
            try:
                current = (key, make())
                # the bar restarts for each subject: it says which (a variant of --compare, a game of a folder)
                of = f" ({position} of {len(subjects)})" if len(subjects) > 1 else ""
                analyses.append(analyze_with_progress(current[1], config, args.jobs or 1,
                                                      f"analysing {current[1].name}{of}",
                                                      journal.logs.get(key, ()),
                                                      lambda log, k=key: journal.append(k, log), args.cluster))
                current = None
            except catch as exc:
                current = None
                message = exc.render().splitlines()[0] if hasattr(exc, "render") else str(exc)
                journal.fail(key, message)
                failed.append((key, message))
    except KeyboardInterrupt:
        partial = list(analyses)
        logs = journal.logs.get(current[0], []) if current else []
        if logs:  # the figures of the games played so far (a set not begun has none)
            by_set = {s: sorted((g for g in logs if g.set == s), key=lambda g: g.index) for s in SETS}
            partial.append(compute(current[1].name + " (partial)", current[1].players, by_set, config))
        if partial:
            console.print(f"[bold]partial results[/]: {journal.played} of the games played so far", highlight=False)
            if show:
                show(partial, failed)
            else:
                for analysis in partial:
                    console.print(analysis.table())
        err_console.print(interrupted_hint(f"{journal.played} games played", program, journal.path,
                                           *given_options(args, *REPEATED)), highlight=False, soft_wrap=True)
        return None
    return analyses, failed
