"""A real Dask cluster for tests, on loopback, as a user starts one: ``dask scheduler`` and ``dask worker``.

Each ``dask worker`` (a nanny and its worker process) runs in a session of its own, so that
``kill_worker`` takes both down at once with SIGKILL, as when a machine of a cluster dies.
"""
import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

#: The dask command installed beside this Python.
DASK = str(Path(sys.executable).with_name("dask"))
#: Seconds a cluster may take to start, or a worker to join it (workers import numpy, numba, ...).
START_TIMEOUT_S = 120


class DaskCluster:
    """The scheduler's address and the worker processes of a running cluster."""

    def __init__(self, address_file, environment):
        self.address_file = address_file
        self.environment = environment
        self.address = None
        self.workers = []

    def add_worker(self):
        """Start one single-threaded ``dask worker`` process; return it (it joins within START_TIMEOUT_S)."""
        worker = subprocess.Popen([DASK, "worker", "--scheduler-file", str(self.address_file), "--nthreads", "1",
                                   "--host", "127.0.0.1", "--dashboard-address", ":0"],
                                  env=self.environment, stderr=subprocess.DEVNULL, start_new_session=True)
        self.workers.append(worker)
        return worker

    def kill_worker(self, worker):
        """SIGKILL a worker's nanny and worker process together, and reap them."""
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=60)

    def wait_for_workers(self, count):
        """Block until ``count`` workers are connected to the scheduler."""
        from distributed import Client

        with Client(scheduler_file=str(self.address_file), timeout=START_TIMEOUT_S) as client:
            client.wait_for_workers(count, timeout=START_TIMEOUT_S)
            self.address = client.scheduler.address


@contextmanager
def dask_cluster(folder, workers=2, environment=None):
    """Yield a DaskCluster of a ``dask scheduler`` and ``workers`` workers, its files in ``folder``.

    ``environment`` adds to this process's environment for the scheduler and the workers (e.g.
    ``DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES``).
    """
    address_file = Path(folder) / "scheduler.json"
    environment = {**os.environ, **(environment or {})}
    scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--dashboard-address",
                                  ":0", "--scheduler-file", str(address_file)], env=environment,
                                 stderr=subprocess.DEVNULL)
    cluster = DaskCluster(address_file, environment)
    try:
        for _ in range(workers):
            cluster.add_worker()
        cluster.wait_for_workers(workers)
        yield cluster
    finally:
        for worker in cluster.workers:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(timeout=60)
        scheduler.terminate()
        scheduler.wait(timeout=60)

