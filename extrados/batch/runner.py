"""Run a batch on Dask: each pending case one task, on an embedded LocalCluster or an existing cluster.

Distribution is Dask's alone (dask.distributed): ``client.submit`` per case and ``as_completed`` to
take them as they finish; each finished case is written to the table at once (table.write_part), so
a batch killed at any moment keeps what finished, and a rerun of the same spec skips those keys.
A worker that dies takes its running tasks with it: Dask runs them again on the workers left, and
only a task it gives up on (KilledWorker, past ``distributed.scheduler.allowed-failures``) or a
cancelled one becomes a row whose task did not run, which every rerun computes again
(table.keys_to_skip). With no worker left, the tasks wait for one to join.
"""
import os
import signal
import sys
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple

from extrados.batch import table
from extrados.batch.cases import expand
from extrados.batch.spec import load_spec
from extrados.batch.task import run_case

#: The environment of an embedded cluster's workers: one BLAS thread each, since the cluster runs
#: one single-threaded worker process per core (NUMBA_CACHE_DIR is inherited). Numba's threads are
#: not set here: a worker applies this environment after it has imported the driver's main module,
#: which may already have imported numba, and numba then refuses every later compilation
#: ("Cannot set NUMBA_NUM_THREADS ... once the threads have been launched"). Each case runs on one
#: numba thread instead (task.run_case).
WORKER_ENVIRONMENT = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

#: Cases in flight per worker thread: enough that a worker never waits for the driver between two
#: cases, few enough that a batch of 100,000 cases does not hold them all on the scheduler.
IN_FLIGHT_PER_THREAD = 2


class BatchSummary(NamedTuple):
    """What a run of a batch did."""

    cases: int      # distinct cases in the spec
    skipped: int    # of them, finished by an earlier run
    done: int       # computed by this run without error
    failed: int     # computed by this run with an error, or whose task did not run
    rows: list      # the whole table, one dict per case (table.consolidate)


def run(spec, out_dir, scheduler=None, workers=None, progress=True, on_case=None, retry_failed=False):
    """Compute a batch's pending cases into the results table of ``out_dir``.

    Parameters
    ----------
    spec : dict, str or Path
        The batch spec (batch_schema.json) or its file.
    out_dir : str or Path
        The batch's folder: ``cases.parquet``, ``cases.csv``, ``cases.json``, ``parts/``, ``results/``.
    scheduler : str, optional
        Address of an existing Dask scheduler, e.g. ``tcp://host:8786``; without it an embedded
        LocalCluster of ``workers`` processes (default: one per core), one thread each.
    workers : int, optional
        Worker processes of the embedded cluster.
    progress : bool
        A progress bar (cases done and failed, time left) and the dashboard's address on stderr.
    on_case : callable, optional
        Called in this process after each finished case's row is written, as
        ``on_case(row, done, failed, pending)``: the row, and this run's counts so far of cases done,
        failed and pending (a service reports its job's progress and partial table with it).
    retry_failed : bool
        Compute again the cases that failed with their own error in an earlier run (a ModelError, a
        solver exception: deterministic, so skipped by default). Cases whose task did not run
        (KilledWorker: Dask gave up as its workers died; a cancelled future) are computed again on
        every run regardless.

    Returns
    -------
    BatchSummary

    Raises
    ------
    ModelError
        A spec that is wrong, at its field path (nothing is run).
    """
    spec, folder = load_spec(spec)
    cases = list({case.key: case for case in expand(spec, folder)}.values())
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    skipped = table.keys_to_skip(out_dir, retry_failed)
    pending = [case for case in cases if case.key not in skipped]
    failed = 0
    if pending:
        failed = _compute(pending, spec["outputs"], out_dir, scheduler, workers, progress, on_case)
    rows = table.consolidate(out_dir, [case.key for case in cases])
    return BatchSummary(len(cases), len(cases) - len(pending), len(pending) - failed, failed, rows)


def _compute(pending, outputs, out_dir, scheduler, workers, progress, on_case):
    """Submit the pending cases, write each row as it finishes; return how many failed."""
    from distributed import as_completed
    from tqdm import tqdm

    run_id = _now()
    finished = failed = 0
    with _client(scheduler, workers) as client, \
            tqdm(total=len(pending), desc="cases", unit="case", file=sys.stderr, disable=not progress) as bar:
        if progress and "dashboard" in client.scheduler_info()["services"]:  # served only with bokeh installed
            print(f"Dask dashboard: {client.dashboard_link}", file=sys.stderr, flush=True)
        waiting, futures, completed = iter(pending), {}, as_completed()
        _submit_more(client, waiting, futures, completed, outputs)
        for future in completed:
            case = futures.pop(future)
            row, document = _outcome(future)
            row = {"key": case.key, **case.inputs, **row, "run": run_id, "finished_at": _now()}
            table.write_part(out_dir, row)
            if document is not None:
                table.write_document(out_dir, case.key, document)
            finished += 1
            failed += row["status"] != table.DONE
            bar.update()
            bar.set_postfix(done=finished - failed, failed=failed)
            if on_case is not None:
                on_case(row, finished - failed, failed, len(pending) - finished)
            _submit_more(client, waiting, futures, completed, outputs)
    return failed


def _submit_more(client, waiting, futures, completed, outputs):
    """Submit cases from the iterator ``waiting`` until `IN_FLIGHT_PER_THREAD` per worker thread of the
    cluster (as it is now: workers may come and go) are in flight: the cases' documents (with their
    records) travel to the scheduler a window at a time, not the whole batch at once."""
    window = IN_FLIGHT_PER_THREAD * max(1, sum(client.nthreads().values()))
    while len(futures) < window:
        case = next(waiting, None)
        if case is None:
            return
        future = client.submit(run_case, case.model, case.analysis, outputs, pure=False)
        futures[future] = case
        completed.add(future)


def _outcome(future):
    """The (row, document) of a finished task, its ``status`` set.

    ``run_case`` returns every error of the case itself, so an exception here is Dask's: the task
    did not run to its end on a worker (KilledWorker: its workers died; a cancelled future).
    """
    try:
        row, document = future.result()
    except Exception as exc:  # noqa: BLE001 - recorded, computed again on the next run; the batch goes on
        return {"status": table.DID_NOT_RUN, "error": f"the task did not run: {type(exc).__name__}: {exc}",
                "seconds": None}, None
    return {"status": table.DONE if row["error"] is None else table.FAILED, **row}, document


@contextmanager
def _client(scheduler, workers):
    """A dask.distributed Client of the cluster at ``scheduler``, or of an embedded LocalCluster."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        with Client(scheduler) as client:
            yield client
        return
    with _workers_ignore_interrupts():
        cluster = LocalCluster(n_workers=workers or os.cpu_count(), threads_per_worker=1, processes=True,
                               dashboard_address=":0", env=WORKER_ENVIRONMENT)
    with cluster, Client(cluster) as client:
        from extrados.batch.quiet_workers import QuietHeartbeats

        register = getattr(client, "register_plugin", None) or client.register_worker_plugin  # dask < 2023.9
        register(QuietHeartbeats())
        yield client



@contextmanager
def _workers_ignore_interrupts():
    """Ignore SIGINT while the embedded cluster's worker processes start, so that they inherit it
    ignored: Ctrl-C in a terminal reaches the whole process group, and only the driver should act on
    it (it closes the cluster and keeps the finished rows) instead of every worker printing a
    KeyboardInterrupt traceback. In a thread other than the main one signals cannot be set: nothing done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _now():
    """The time now, ISO 8601 UTC to the microsecond."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")
