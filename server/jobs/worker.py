"""What a worker process does with one job: read the request, analyse, write the result (a batch job:
`server.jobs.batch_worker`).

Progress and the cancel flag travel through the job table (`JobStore`), so the worker needs no
pipe to the service: it writes its progress at most every `PROGRESS_INTERVAL_S` and looks for a
cancel request at most every `CANCEL_POLL_S`, well inside the one second a cancel may take.

Progress is advisory: a write of it that fails (a full disk, a busy table) is skipped. A result
that cannot be written fails the job with the reason; when even that cannot be recorded, the
worker exits with `EXIT_STORE_FAILED` and the dispatcher records it (`server.jobs.runner`).
"""
import io
import json
import os
import sqlite3
import time
import traceback

from extrados.server.jobs.store import BATCH, JobStore, store_error

PROGRESS_INTERVAL_S = 0.2
CANCEL_POLL_S = 0.1
#: Exit status of a worker that could not record its job's end in the table.
EXIT_STORE_FAILED = 4


class Throttle:
    """Calls ``action`` at most once every ``interval`` seconds; returns its last answer between."""

    def __init__(self, action, interval):
        self.action = action
        self.interval = interval
        self.last_time = -float("inf")
        self.last_answer = None

    def __call__(self, *args):
        now = time.monotonic()
        if now - self.last_time >= self.interval:
            self.last_time = now
            self.last_answer = self.action(*args)
        return self.last_answer


def stop_if_orphaned(parent_pid):
    """A worker whose service has gone (killed without its clean-up) stops at once and writes
    nothing: the next start of the service marks the job interrupted."""
    if os.getppid() != parent_pid:
        os._exit(3)


def record_progress(store, job_id, fraction):
    """Write the job's progress; skipped when the table cannot take it now (progress is advisory)."""
    try:
        store.set_progress(job_id, fraction)
    except sqlite3.Error:
        return


def sidecar_bytes(result):
    """The npz sidecar of a result (engine.io.sidecar) as bytes; None when its request asked for none."""
    from extrados.engine.io.sidecar import wants_sidecar, write_sidecar

    if not wants_sidecar(result):
        return None
    buffer = io.BytesIO()
    write_sidecar(result, buffer)
    return buffer.getvalue()


def run_job(data_dir, job_id):
    """Entry point of a worker process (multiprocessing, spawn start method)."""
    from extrados.server.jobs.batch_worker import compute_batch

    store = JobStore(data_dir)
    state, values = (compute_batch if store.get(job_id)["analysis"] == BATCH else compute)(store, job_id)
    try:
        store.set_state(job_id, state, finished=time.time(), **values)
    except (OSError, sqlite3.Error):
        traceback.print_exc()
        os._exit(EXIT_STORE_FAILED)


def compute(store, job_id):
    """Analyse the job's request and write its result; returns (state, other columns of its row)."""
    from extrados.engine.analysis import analyze
    from extrados.engine.errors import AnalysisCancelled, ModelError
    from extrados.engine.io import strict_json
    from extrados.server.errors import DEFAULT_CODES, model_error

    with open(store.request_path(job_id), encoding="utf-8") as handle:
        request = json.load(handle)
    progress = Throttle(lambda fraction: record_progress(store, job_id, fraction), PROGRESS_INTERVAL_S)
    parent_pid = os.getppid()

    def cancel_requested():
        stop_if_orphaned(parent_pid)
        return store.cancel_requested(job_id)

    cancel = Throttle(cancel_requested, CANCEL_POLL_S)
    try:
        result = analyze(request["model"], request.get("analysis"), progress=progress, cancel=cancel)
    except ModelError as error:
        return "failed", {"error": model_error(error).to_dict()["error"]}
    except AnalysisCancelled as stopped:
        return "cancelled", {"error": {"message": str(stopped), "code": "cancelled"}}
    except Exception as error:  # a bug: the job says so instead of vanishing
        traceback.print_exc()
        return "failed", {"error": {"message": f"internal error ({type(error).__name__}: {error})",
                                    "code": "internal_error"}}
    doc = result.to_dict()
    try:
        text = strict_json.dumps(doc)
    except (strict_json.NonFiniteNumber, strict_json.UnwritableValue) as error:
        return "failed", {"error": {"message": f"the result cannot be written as JSON: {error}",
                                    "code": "unwritable_result"}}
    try:
        size = store.write_result(job_id, text, sidecar_bytes(result))
    except OSError as error:
        refused = store_error(error, store.result_path(job_id), "writing the result")
        return "failed", {"error": {"message": str(refused), "code": DEFAULT_CODES[refused.status]}}
    return ("cancelled" if doc.get("cancelled") else "done"), {"result_bytes": size}
