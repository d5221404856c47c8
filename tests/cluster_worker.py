"""A Dask worker that cannot play, for the cluster fault tests: run as
`python tests/cluster_worker.py MODE tcp://HOST:PORT`, MODE `no-project` (the project cannot be
imported, as on a machine where it is not installed) or `other-version` (the project reports
other code, as a worker with another release would)."""
from __future__ import annotations

import importlib.abc
import sys

PROJECT = ("president", "personalities", "recycle", "tui")


class _NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in PROJECT:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def main(mode: str, scheduler: str) -> None:
    if mode == "no-project":
        sys.path = [p for p in sys.path if p not in ("", ".")]
        sys.meta_path.insert(0, _NotInstalled())
    elif mode == "other-version":
        from recycle.tournament import cluster_checks

        cluster_checks._worker_fingerprint = lambda: "0123456789abcdef"
    else:
        raise SystemExit(f"unknown mode {mode}")
    from distributed.cli.dask_worker import main as dask_worker

    dask_worker([scheduler, "--nthreads", "1", "--no-nanny", "--no-dashboard"], standalone_mode=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
