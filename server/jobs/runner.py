"""Runs queued jobs in worker processes, a bounded number at a time.

A dispatcher thread starts queued jobs while fewer than ``workers`` run, reaps the processes that
ended, stops a job past its compute time limit, stops a cancelled job that did not stop itself
within `CANCEL_GRACE_S`, and expires old results. Each job runs in its own process (spawn start
method, as on Windows and macOS), so a job can always be stopped and a crash loses one job only.
"""
import logging
import multiprocessing
import threading
import time

from extrados.server.jobs.store import JobStore
from extrados.server.jobs.worker import run_job

LOG = logging.getLogger("extrados.jobs")
POLL_S = 0.05
CANCEL_GRACE_S = 0.6
EXPIRY_INTERVAL_S = 60.0


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
            process.terminate()
            process.join(timeout=5)
        self.store.mark_interrupted()
        self.processes.clear()

    def loop(self):
        while not self.stopping.is_set():
            try:
                self.tick()
            except Exception:  # the dispatcher must outlive any one job's trouble
                LOG.exception("job dispatcher")
            self.wake_up.wait(POLL_S)
            self.wake_up.clear()

    def tick(self):
        self.reap()
        self.enforce_limits()
        self.start_queued()
        if time.monotonic() - self.last_expiry > EXPIRY_INTERVAL_S:
            self.last_expiry = time.monotonic()
            self.store.expire(self.config.result_max_age_s, self.config.result_max_bytes)

    def reap(self):
        """Forget ended processes; a job whose process ended without finishing it fails with the reason."""
        for job_id, (process, _) in list(self.processes.items()):
            if process.exitcode is None:
                continue
            del self.processes[job_id]
            self.cancel_seen_at.pop(job_id, None)
            row = self.store.get(job_id)
            if row is not None and row["cancel_requested"]:
                self.store.finish_if_running(job_id, "cancelled", None)
            else:
                self.store.finish_if_running(job_id, "failed", {
                    "message": f"the worker process ended unexpectedly (exit code {process.exitcode})",
                    "code": "worker_died"})

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
            elif row["cancel_requested"] and now - self.cancel_seen_at.setdefault(job_id, now) > CANCEL_GRACE_S:
                self.kill(job_id, "cancelled", {"message": "cancelled; the run was stopped before it could write "
                                                           "a partial result", "code": "cancelled"})

    def kill(self, job_id, state, error):
        """Stop a job's process; the job takes ``state`` unless the worker finished it meanwhile."""
        process, _ = self.processes.pop(job_id)
        self.cancel_seen_at.pop(job_id, None)
        process.terminate()
        process.join(timeout=5)
        self.store.finish_if_running(job_id, state, error)

    def start_queued(self):
        for job_id in self.store.queued():
            if len(self.processes) >= self.config.workers:
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
