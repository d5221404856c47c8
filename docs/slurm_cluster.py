"""Start Dask workers on SLURM for `--cluster` (an example; needs `pip install dask-jobqueue`).

    python docs/slurm_cluster.py --jobs 8 --cores 16 --queue normal

prints the scheduler's address; keep this running and, in another shell:

    president tournament Classic Cautious Gambler --matches 5000 --cluster tcp://HOST:PORT

Every job starts one worker process per core with one thread each (the games
are pure Python). The project must be installed in the environment the jobs
start in, at the same version as where you run the command.
"""
from __future__ import annotations

import argparse
import time


def main() -> None:
    from dask_jobqueue import SLURMCluster

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=4, help="SLURM jobs to start")
    parser.add_argument("--cores", type=int, default=8, help="cores per job")
    parser.add_argument("--memory", default="16GB", help="memory per job")
    parser.add_argument("--queue", default=None, help="the SLURM partition")
    parser.add_argument("--walltime", default="04:00:00")
    args = parser.parse_args()
    cluster = SLURMCluster(cores=args.cores, processes=args.cores, memory=args.memory, queue=args.queue,
                           walltime=args.walltime)
    cluster.scale(jobs=args.jobs)
    print(f"--cluster {cluster.scheduler_address}   (dashboard: {cluster.dashboard_link})", flush=True)
    try:
        while True:
            time.sleep(60)
    except KeyboardInterrupt:
        cluster.close()


if __name__ == "__main__":
    main()
