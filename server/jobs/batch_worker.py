"""What a worker process does with a batch job: run the batch (extrados.batch.run) into the job's folder.

The batch runs on a Dask LocalCluster of its own (``batch_workers`` processes, children of this
one). After each case, its counts go to ``counts.json`` and its progress, (done + failed) / cases,
to the job table; the rows so far are the parts the runner wrote (`server.routes.batches` reads them).

The dispatcher starts every job process as a daemon, which multiprocessing forbids to start processes
of its own, lest they outlive it when it is stopped abruptly; a batch job lifts that flag for itself
(`allow_worker_processes`), since Dask's worker processes end with their parent (below).

A cancel request is looked for every `worker.CANCEL_POLL_S` by a thread beside the batch, which then
interrupts the batch (KeyboardInterrupt in this process's main thread): the runner's ``with`` blocks
close the client and the cluster, whose worker processes end. Should the dispatcher stop this
process first (`server.jobs.runner`), Dask's worker processes end with it: each one exits when the
pipe to its parent closes (distributed.process.AsyncProcess).
"""
import _thread
import json
import multiprocessing
import os
import signal
import threading
import traceback

from extrados.server.jobs.store import store_error, write_atomically
from extrados.server.jobs.worker import CANCEL_POLL_S, record_progress, stop_if_orphaned

CANCELLED = {"message": "cancelled; the cases that finished before are in the table", "code": "cancelled"}


class CancelWatch:
    """A thread that interrupts the main thread once the job's cancel flag is set (or ends this
    process when the service has gone); ``cancelled`` says whether it interrupted."""

    def __init__(self, store, job_id):
        self.store = store
        self.job_id = job_id
        self.parent_pid = os.getppid()
        self.done = threading.Event()
        self.cancelled = False
        self.thread = threading.Thread(target=self.watch, name="extrados-batch-cancel", daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()

    def watch(self):
        while not self.done.wait(CANCEL_POLL_S):
            stop_if_orphaned(self.parent_pid)
            if self.store.cancel_requested(self.job_id) and self.main_thread_interruptible():
                self.cancelled = True
                _thread.interrupt_main()
                return

    @staticmethod
    def main_thread_interruptible():
        """False while SIGINT is ignored: the batch runner ignores it as its cluster's workers start
        (so that they inherit it ignored), and interrupt_main does nothing then; the cancel waits."""
        return signal.getsignal(signal.SIGINT) is not signal.SIG_IGN


def answer_interrupts():
    """Take SIGINT as KeyboardInterrupt in this job process, the way the cancel reaches the batch: a
    service started where SIGINT is ignored (``extrados serve &`` from a script: a shell without job
    control starts its background commands so) hands that to every job process it starts, and no
    cancel would ever stop a batch."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def allow_worker_processes():
    """Let this job process (a daemon of the dispatcher) start the batch's Dask worker processes."""
    multiprocessing.current_process().daemon = False


def folder_bytes(folder):
    """Total size (bytes) of the files under ``folder``."""
    return sum(os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(folder) for name in names)


def compute_batch(store, job_id):
    """Run the batch of the job's request; returns (state, other columns of its row) as `worker.compute`."""
    from extrados.batch import run
    from extrados.engine.errors import ModelError
    from extrados.server.errors import DEFAULT_CODES, ApiError

    with open(store.request_path(job_id), encoding="utf-8") as handle:
        request = json.load(handle)
    with open(store.counts_path(job_id), encoding="utf-8") as handle:
        cases = json.load(handle)["cases"]

    def on_case(row, done, failed, pending):
        write_atomically(store.counts_path(job_id), json.dumps({"cases": cases, "done": done, "failed": failed}))
        record_progress(store, job_id, (done + failed) / cases)

    allow_worker_processes()
    answer_interrupts()
    watch = CancelWatch(store, job_id)
    try:
        with watch:
            run(request["batch"], store.batch_dir(job_id), workers=request["workers"], progress=False,
                on_case=on_case)
    except KeyboardInterrupt:
        if not watch.cancelled:
            raise
        return "cancelled", {"error": CANCELLED}
    except ModelError as error:  # checked when submitted: only a spec the engine now reads otherwise
        return "failed", {"error": ApiError(422, error.message, path=error.path, block=error.block,
                                            code="invalid_batch").to_dict()["error"]}
    except OSError as error:  # the job's folder cannot take a row (a full disk): the rows so far stay
        refused = store_error(error, store.batch_dir(job_id), "writing the batch's table")
        return "failed", {"error": {"message": str(refused), "code": DEFAULT_CODES[refused.status]}}
    except Exception as error:  # a bug or a cluster that would not start: the job says so instead of vanishing
        traceback.print_exc()
        return "failed", {"error": {"message": f"internal error ({type(error).__name__}: {error})",
                                    "code": "internal_error"}}
    return "done", {"result_bytes": folder_bytes(store.job_dir(job_id))}
