"""``/v1/jobs``: the state of a job, its result, and cancelling it."""
import re

from flask import Blueprint, request, send_file

from extrados.server.errors import ApiError
from extrados.server.jobs.store import BATCH, STATES, job_document, result_url
from extrados.server.routes import json_response, services

blueprint = Blueprint("jobs", __name__)
JOB_ID = re.compile(r"[0-9a-f]{32}")
LIST_LIMIT = 100


def job_row(job_id):
    """The job's row, or 404 (an id that is not one of ours is never used as a file name)."""
    row = services().store.get(job_id) if JOB_ID.fullmatch(job_id) else None
    if row is None:
        raise ApiError(404, f"no job {job_id!r}", path="id")
    return row


@blueprint.get("/v1/jobs")
def list_jobs():
    state = request.args.get("state")
    if state is not None and state not in STATES:
        raise ApiError(422, f"unknown state {state!r} (expected one of {', '.join(STATES)})", path="query.state")
    rows = services().store.latest(state, LIST_LIMIT)
    return json_response({"jobs": [job_document(row) for row in rows]})


@blueprint.get("/v1/jobs/<job_id>")
def get_job(job_id):
    return json_response(job_document(job_row(job_id)))


def require_result(job_id):
    """Raise the 404, 409 or 410 that says why a job has no result document to give (a batch has a table)."""
    row = job_row(job_id)
    if row["analysis"] == BATCH:
        raise ApiError(409, f"a batch writes no result document: its results are its table, {result_url(row)}",
                       code="batch_table")
    if row["expired"]:
        raise ApiError(410, "this job's result has expired (raise --result-max-age or --result-max-bytes)",
                       code="expired")
    if row["state"] in ("queued", "running"):
        raise ApiError(409, f"the job is {row['state']} ({100 * row['progress']:.0f} % done); poll /v1/jobs/{job_id}",
                       code="not_finished")
    if row["state"] == "failed":
        error = job_document(row).get("error", {})
        raise ApiError(409, f"the job failed: {error.get('message')}", path=error.get("path"),
                       block=error.get("block"), code="job_failed")


def result_file(job_id, path, mimetype, missing):
    """Send a file of a finished job's result; ``missing`` (an ApiError) when it has none."""
    require_result(job_id)
    try:
        return send_file(path, mimetype=mimetype, max_age=0)
    except FileNotFoundError as exc:
        raise missing from exc


@blueprint.get("/v1/jobs/<job_id>/result")
def get_result(job_id):
    return result_file(job_id, services().store.result_path(job_id), "application/json",
                       ApiError(409, "the job was cancelled before it wrote a result", code="no_result"))


@blueprint.get("/v1/jobs/<job_id>/result.npz")
def get_sidecar(job_id):
    """The npz sidecar of a finished job whose request sent its frames or histories to "npz"."""
    return result_file(job_id, services().store.sidecar_path(job_id), "application/octet-stream",
                       ApiError(404, "this job's result has no npz sidecar: ask for it with \"frames\": \"npz\" or "
                                     "\"histories\": \"npz\" in a dynamic analysis request", code="no_sidecar"))


@blueprint.delete("/v1/jobs/<job_id>")
def cancel_job(job_id):
    return json_response(job_document(cancel_active(job_row(job_id))), status=202)


def cancel_active(row):
    """Cancel the job of ``row`` (409 when it has finished); its row now."""
    if row["state"] not in ("queued", "running"):
        raise ApiError(409, f"the job has already finished ({row['state']})", code="already_finished")
    services().runner.cancel(row["id"])
    return services().store.get(row["id"])
