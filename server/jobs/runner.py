"""Runs queued jobs in worker processes, a bounded number at a time.

A dispatcher thread starts queued jobs while fewer than ``workers`` run, reaps the processes that
ended, stops a job past its compute time limit, stops a cancelled job that did not stop itself
within `CANCEL_GRACE_S`, and expires old results. Each job runs in its own process (spawn start
method, as on Windows and macOS), so a job can always be stopped and a crash loses one job only.

No job is left ``running`` with nothing computing it: the end of a job whose process ended is
recorded, and tried again at every turn while the table cannot be written (a full disk); a job
the table says is running that no process of this service computes fails with the reason; a
process that does not end when told (stopped by SIGSTOP, say) is killed, and counted among the
workers until it has ended.
"""
import logging
import multiprocessing
import sqlite3
import threading
import time

from extrados.server.jobs.store import BATCH, JobStore
from extrados.server.jobs.worker import EXIT_STORE_FAILED, run_job

LOG = logging.getLogger("extrados.jobs")
POLL_S = 0.05
CANCEL_GRACE_S = 0.6
#: s, the same for a batch job, which closes its Dask cluster first (`server.jobs.batch_worker`):
#: its client, scheduler and worker processes, in a few seconds (under 4 s on 2 busy cores).
BATCH_CANCEL_GRACE_S = 10.0
EXPIRY_INTERVAL_S = 60.0
#: s, how long a process told to stop (SIGTERM) may take before it is killed (SIGKILL, which also
#: ends a stopped process), and how long a killed one is waited for.
TERMINATE_GRACE_S = 1.0
KILL_WAIT_S = 5.0
#: s, how often the same trouble of the dispatcher (a full disk, say) is written to the log.
LOG_REPEAT_S = 60.0
LOST = {"message": "no worker process of this service computes this job any more (it ended without recording "
                   "the job's end); submit it again", "code": "worker_lost"}
STORE_FAILED = {"message": "the worker could not record the job's end in the data directory (is its disk full?); "
                           "free space there and submit it again", "code": "storage_failed"}


def end_process(process):
    """Stop a worker process: SIGTERM, then SIGKILL if it has not ended within `TERMINATE_GRACE_S`.
    True when it has ended."""
    process.terminate()
    process.join(TERMINATE_GRACE_S)
    if process.exitcode is None:
        process.kill()
        process.join(KILL_WAIT_S)
    return process.exitcode is not None


def cancel_grace_s(row):
    """s a job flagged for cancelling has to stop itself before it is stopped."""
    return BATCH_CANCEL_GRACE_S if row["analysis"] == BATCH else CANCEL_GRACE_S


class JobRunner:
    """The dispatcher of one service instance."""

    def __init__(self, store: JobStore, config):
        self.store = store
        self.config = config
        self.processes = {}  # job id -> (Process, monotonic start time)
        self.wake_up = threading.Event()
        self.stopping = threading.Event()
        self.thread = None
        self.context = multiprocessing.get_context("spawn")
        self.last_expiry = -float("inf")
        self.cancel_seen_at = {}  # job id -> monotonic time the dispatcher first saw its cancel request
        self.unrecorded = {}  # job id -> (state, error) of an ended job whose end is not in the table yet
        self.leftovers = []  # processes told to end that have not (they still hold a worker's place)
        self.logged_at = {}  # message -> monotonic time it was last logged

    def start(self):
        interrupted = self.store.mark_interrupted()
        if interrupted:
            LOG.warning("%d job(s) interrupted by the last stop marked failed", interrupted)
        self.thread = threading.Thread(target=self.loop, name="extrados-jobs", daemon=True)
        self.thread.start()

    def stop(self):
        """Stop dispatching; running jobs are stopped and marked failed (interrupted)."""
        self.stopping.set()
        self.wake_up.set()
        if self.thread is not None:
            self.thread.join(timeout=10)
        for process, _ in list(self.processes.values()):
            end_process(process)
        self.processes.clear()
        try:
            self.store.mark_interrupted()
        except sqlite3.Error as error:  # a full disk: the next start marks them
            LOG.error("cannot mark the running jobs interrupted (%s); the next start will", error)

    def loop(self):
        while not self.stopping.is_set():
            self.tick()
            self.wake_up.wait(POLL_S)
            self.wake_up.clear()

    def tick(self):
        """One turn: each stage runs even when another failed (the dispatcher outlives any one job's
        trouble, and a full disk must not stop the reaping of processes)."""
        for stage in (self.reap, self.record_ends, self.fail_lost_jobs, self.enforce_limits, self.start_queued,
                      self.expire):
            try:
                stage()
            except Exception as error:
                self.log_trouble(stage.__name__, error)

    def log_trouble(self, stage, error):
        """Log a stage's exception, the same one at most every `LOG_REPEAT_S`."""
        message = f"job dispatcher, {stage}: {type(error).__name__}: {error}"
        now = time.monotonic()
        if now - self.logged_at.get(message, -float("inf")) > LOG_REPEAT_S:
            self.logged_at[message] = now
            LOG.error("%s", message, exc_info=error)

    def expire(self):
        if time.monotonic() - self.last_expiry > EXPIRY_INTERVAL_S:
            self.last_expiry = time.monotonic()
            self.store.expire(self.config.result_max_age_s, self.config.result_max_bytes)

    def reap(self):
        """Forget ended processes; the end of a job whose process ended without finishing it waits in
        `unrecorded` (cancelled when asked for, else failed with the reason)."""
        self.leftovers = [process for process in self.leftovers if process.exitcode is None]
        for job_id, (process, _) in list(self.processes.items()):
            if process.exitcode is None:
                continue
            self.unrecorded[job_id] = self.end_of(job_id, process.exitcode)
            del self.processes[job_id]
            self.cancel_seen_at.pop(job_id, None)

    def end_of(self, job_id, exitcode):
        """(state, error) of a job whose process ended with ``exitcode`` without recording its end."""
        row = self.store.get(job_id)
        if row is not None and row["cancel_requested"]:
            return "cancelled", None
        if exitcode == EXIT_STORE_FAILED:
            return "failed", STORE_FAILED
        return "failed", {"message": f"the worker process ended unexpectedly (exit code {exitcode})",
                          "code": "worker_died"}

    def record_ends(self):
        """Write the ends in `unrecorded` into the table; one that cannot be written stays for the next turn."""
        for job_id, (state, error) in list(self.unrecorded.items()):
            self.store.finish_if_running(job_id, state, error)
            del self.unrecorded[job_id]

    def fail_lost_jobs(self):
        """A job the table says is running that no process of this service computes fails with the reason."""
        for job_id in self.store.ids_in_state("running"):
            if job_id not in self.processes and job_id not in self.unrecorded:
                self.store.finish_if_running(job_id, "failed", LOST)

    def enforce_limits(self):
        now = time.monotonic()
        for job_id, (process, started) in list(self.processes.items()):
            row = self.store.get(job_id)
            if row is None or row["state"] != "running":
                continue
            if now - started > self.config.job_time_limit_s:
                self.kill(job_id, "failed", {"message": f"the job ran past the compute time limit of "
                                                        f"{self.config.job_time_limit_s:g} s (raise --job-time-limit)",
                                             "code": "compute_time_limit"})
            elif row["cancel_requested"] and now - self.cancel_seen_at.setdefault(job_id, now) > cancel_grace_s(row):
                self.kill(job_id, "cancelled", {"message": "cancelled; the run was stopped before it could write "
                                                           "a partial result", "code": "cancelled"})

    def kill(self, job_id, state, error):
        """Stop a job's process; the job takes ``state`` unless the worker finished it meanwhile."""
        process, _ = self.processes.pop(job_id)
        self.cancel_seen_at.pop(job_id, None)
        if not end_process(process):
            self.leftovers.append(process)
        self.unrecorded[job_id] = (state, error)
        self.record_ends()

    def busy_workers(self):
        """Worker places taken: running jobs and processes that were told to end and have not."""
        return len(self.processes) + len(self.leftovers)

    def start_queued(self):
        for job_id in self.store.queued():
            if self.busy_workers() >= self.config.workers:
                return
            if not self.store.claim(job_id):
                continue
            process = self.context.Process(target=run_job, args=(self.store.data_dir, job_id),
                                           name=f"extrados-job-{job_id[:8]}", daemon=True)
            try:
                process.start()
            except Exception as error:
                LOG.exception("cannot start a worker process")
                self.store.finish_if_running(job_id, "failed", {
                    "message": f"the service could not start a worker process ({error})", "code": "worker_failed"})
                continue
            self.processes[job_id] = (process, time.monotonic())

    def cancel(self, job_id):
        """Cancel a job: a queued one at once, a running one through its flag (the worker stops at
        its next poll; the dispatcher stops it if it has not after `CANCEL_GRACE_S`)."""
        self.store.request_cancel(job_id)
        self.wake_up.set()
