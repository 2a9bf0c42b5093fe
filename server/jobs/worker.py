"""What a worker process does with one job: read the request, analyse, write the result.

Progress and the cancel flag travel through the job table (`JobStore`), so the worker needs no
pipe to the service: it writes its progress at most every `PROGRESS_INTERVAL_S` and looks for a
cancel request at most every `CANCEL_POLL_S`, well inside the one second a cancel may take.
"""
import io
import json
import os
import time
import traceback

from extrados.server.jobs.store import JobStore

PROGRESS_INTERVAL_S = 0.2
CANCEL_POLL_S = 0.1


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
    from extrados.engine.analysis import analyze
    from extrados.engine.errors import AnalysisCancelled, ModelError
    from extrados.engine.io import strict_json
    from extrados.server.errors import model_error

    store = JobStore(data_dir)
    with open(store.request_path(job_id), encoding="utf-8") as handle:
        request = json.load(handle)
    progress = Throttle(lambda fraction: store.set_progress(job_id, fraction), PROGRESS_INTERVAL_S)
    parent_pid = os.getppid()

    def cancel_requested():
        stop_if_orphaned(parent_pid)
        return store.cancel_requested(job_id)

    cancel = Throttle(cancel_requested, CANCEL_POLL_S)
    try:
        result = analyze(request["model"], request.get("analysis"), progress=progress, cancel=cancel)
    except ModelError as error:
        store.set_state(job_id, "failed", finished=time.time(), error=model_error(error).to_dict()["error"])
        return
    except AnalysisCancelled as stopped:
        store.set_state(job_id, "cancelled", finished=time.time(), error={"message": str(stopped), "code": "cancelled"})
        return
    except Exception as error:  # a bug: the job says so instead of vanishing
        traceback.print_exc()
        store.set_state(job_id, "failed", finished=time.time(),
                        error={"message": f"internal error ({type(error).__name__}: {error})", "code": "internal_error"})
        return
    doc = result.to_dict()
    try:
        text = strict_json.dumps(doc)
    except (strict_json.NonFiniteNumber, strict_json.UnwritableValue) as error:
        store.set_state(job_id, "failed", finished=time.time(),
                        error={"message": f"the result cannot be written as JSON: {error}",
                               "code": "unwritable_result"})
        return
    size = store.write_result(job_id, text, sidecar_bytes(result))
    state = "cancelled" if doc.get("cancelled") else "done"
    store.set_state(job_id, state, finished=time.time(), result_bytes=size)
