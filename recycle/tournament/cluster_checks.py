"""What a cluster is and whether it can be used: the `--cluster` value, the scheduler's answer,
each worker's check (the project importable, the same code), all within bounded waits.

Kept apart from the pool (`cluster.py`): these run before any game, on the driver and, for
`worker_identity` and `run_task`, on the workers.
"""
from __future__ import annotations

import hashlib
import re
import socket
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from recycle.kernel import user_files as uploads
from recycle.cli.arguments import RunError
from recycle.kernel.user_files import FileSet

from recycle.tournament.workers import RunUnit

_LOCAL = re.compile(r"local(?::(\d+))?")
_ADDRESS = re.compile(r"(tcp|tls|inproc|ucx|ws|wss)://\S+")
#: HOST:PORT without a scheme: Dask's own default, TCP.
_HOST_PORT = re.compile(r"(?:[\w.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}")
#: Seconds to wait for a scheduler to answer, for workers to answer their check, and for a
#: cluster that has no worker able to play before giving up (each wait is bounded: nothing hangs).
CONNECT_SECONDS = 10
NO_WORKER_SECONDS = 20
PACKAGES = ("recycle", "president", "personalities")


class ClusterError(RunError):
    """A `--cluster` value that is no cluster, or a cluster that cannot be reached or used (exit 1,
    one line; a malformed value is refused by the argument parser, exit 2)."""


@dataclass(frozen=True)
class ClusterSpec:
    """Where to play: a running scheduler's address, or a local cluster of `workers` processes."""

    address: str | None
    workers: int = 2

    @classmethod
    def parse(cls, text: str) -> "ClusterSpec":
        text = text.strip()
        local = _LOCAL.fullmatch(text)
        if local:
            workers = int(local.group(1) or 2)
            if not 1 <= workers <= 256:
                raise ClusterError(f"--cluster {text}: a local cluster has 1 to 256 workers")
            return cls(None, workers)
        if _ADDRESS.fullmatch(text):
            return cls(text)
        if _HOST_PORT.fullmatch(text):
            return cls(f"tcp://{text}")
        raise ClusterError(f"--cluster {text!r}: give a scheduler's address (tcp://HOST:8786 or HOST:8786) "
                           "or local[:N] for a cluster of N worker processes on this machine")

    def __str__(self) -> str:
        return self.address or f"local:{self.workers}"


def fingerprint() -> str:
    """A digest of the project's code and data as installed here (same on driver and workers, or refused)."""
    digest = hashlib.sha256()
    for package in PACKAGES:
        stack = [resources.files(package)]
        files = []
        while stack:
            for entry in stack.pop().iterdir():
                if entry.is_dir():
                    if entry.name != "__pycache__":
                        stack.append(entry)
                elif entry.name.endswith((".py", ".rul", ".gdl", ".tcss")):
                    files.append(entry)
        for entry in sorted(files, key=lambda e: str(e)[len(str(resources.files(package))):]):
            digest.update(str(entry)[len(str(resources.files(package))):].encode())
            digest.update(entry.read_bytes())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _worker_fingerprint() -> str:
    return fingerprint()  # once per worker process: its code does not change under it


def worker_identity() -> str:
    """Run on each worker when it joins: its project's fingerprint. A worker that cannot import
    the project cannot even run this, and answers with the error instead."""
    return _worker_fingerprint()


def worker_problem(answer: object, expected: str) -> str | None:
    """Why a worker whose check answered `answer` cannot play (None: it can)."""
    if answer == expected:
        return None
    if isinstance(answer, BaseException):
        missing = re.search(r"No module named '([^']+)'", str(answer))
        if missing:  # Dask may hand the worker's ImportError back wrapped in another exception
            return f"cannot import the project (no module named {missing.group(1)!r}): install it there"
        return f"failed its check ({type(answer).__name__}: {answer})"
    return (f"runs a different version of the project (code {answer}, the driver's {expected}): "
            "install the same version on every worker")


def scheduler_identity(address: str, seconds: float = CONNECT_SECONDS) -> dict:
    """Ask `address` what it is, within about `seconds`. Dask's own client, given a port that takes
    the connection but never answers (the dashboard's, say), waits without bound: this does not."""
    import asyncio

    from distributed.core import rpc

    async def ask() -> Any:
        remote = rpc(address, timeout=seconds)
        try:
            return await remote.identity()
        finally:
            await remote.close_rpc()

    unknown = (f"{address} answers, but not as a Dask scheduler (a scheduler listens on port 8786 "
               "by default; 8787 is its dashboard)")
    refused = _refused(address, seconds)
    if refused:
        raise ClusterError(f"cannot reach a Dask scheduler at {address}: {refused}: is `dask scheduler` "
                           "running there, and is the address right?")
    try:
        answer = asyncio.run(asyncio.wait_for(ask(), seconds + 2))
    except TimeoutError:  # the connection was taken; no answer came
        raise ClusterError(unknown) from None
    except OSError as exc:
        if "handshake" in str(exc):
            raise ClusterError(unknown) from None
        raise ClusterError(f"cannot reach a Dask scheduler at {address} within {seconds:g} s: is "
                           "`dask scheduler` running there, and is the address right?") from None
    except Exception:  # bytes of another protocol, read as Dask's
        raise ClusterError(unknown) from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise ClusterError(unknown)
    return answer


def _refused(address: str, seconds: float) -> str | None:
    """Why a TCP connection to `address` fails at once (refused, unknown host), or None. Dask's
    connect would retry such an address for its whole timeout before saying so."""
    found = re.fullmatch(r"tcp://\[?([^\]]+?)\]?:(\d+)", address)
    if not found:
        return None
    try:
        socket.create_connection((found.group(1), int(found.group(2))), timeout=seconds).close()
    except socket.gaierror as exc:
        return f"unknown host ({exc.strerror})"
    except TimeoutError:
        return None  # let Dask's own connect say it, with its own wait
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def run_task(run: RunUnit, units: list, files: FileSet, expected: str) -> list:
    """A block of work units on a worker: refuse a different project, then play with the driver's files."""
    mine = _worker_fingerprint()
    if mine != expected:
        raise ClusterError(f"worker {socket.gethostname()} runs a different version of the project "
                           f"(code {mine}, the driver's {expected}): install the same version on every worker")
    with uploads.serving(files):
        return [run(unit) for unit in units]


def refuse_jobs_with_cluster(args: Any) -> None:
    """`-j` and `--cluster` together: refused, as the cluster's workers set how many games run at once."""
    from recycle.cli.arguments import UsageError

    if getattr(args, "cluster", None) is not None and getattr(args, "jobs", None) is not None:
        raise UsageError(f"-j {args.jobs} with --cluster: the cluster's workers decide how many games run at "
                         "once; drop -j (for N worker processes on this machine: --cluster local:N)")


def cluster_argument(text: str) -> ClusterSpec:
    """`--cluster` as an argparse `type` (its message, not argparse's generic one)."""
    import argparse

    try:
        return ClusterSpec.parse(text)
    except ClusterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
