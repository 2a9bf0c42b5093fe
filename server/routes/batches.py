"""``/v1/batches``: a batch of analyses (extrados.batch) as a job, its progress and its results table.

A spec is checked in the request, within the compute time limit: its schema and cross-field checks
(extrados.batch.load_spec), the service's limits (cases, the base model's size, time steps), a dry
expansion to its cases, and its first case by the engine as an analysis request would be; so a bad
spec is a 4xx at its field path, never a job that fails later. The service reads no file of its own
disk for a spec: records come inline or stochastic. The job runs in a worker process like an
analysis job (`server.jobs.batch_worker`); its table is read from the rows written so far, each a
whole file (extrados.batch.table.gathered), while it runs and after.
"""
import io
import json

import pyarrow.csv
from flask import Blueprint, Response, request

from extrados.batch.cases import BatchTooLarge, case_count, expand
from extrados.batch.spec import load_spec
from extrados.batch.table import gathered
from extrados.engine.analysis.run import check_request
from extrados.engine.errors import ModelError
from extrados.engine.generators import TooManyBlocks
from extrados.engine.io import strict_json
from extrados.server.errors import ApiError, model_error
from extrados.server.jobs.store import BATCH, job_document
from extrados.server.payload import capped_steps, check_model_size, json_body
from extrados.server.routes import json_response, services
from extrados.server.routes.analyses import answer_within_limit, queue_full
from extrados.server.routes.jobs import cancel_active, job_row

blueprint = Blueprint("batches", __name__)
CSV_TYPE = "text/csv"
FILES_REFUSED = ("the service reads no files from its disk: give the records inline (ground_motions.records: "
                 "[{\"name\", \"dt\", \"accelerations\", \"unit\"}]) or as stochastic records "
                 "(ground_motions.stochastic)")


@blueprint.post("/v1/batches")
def create_batch():
    return answer_within_limit(submit_batch, "while the batch was checked and expanded to its cases",
                               "send fewer cases")


def submit_batch(deadline):
    """Check the spec (within the compute time limit) and queue its job: 202 with its links."""
    svc = services()
    spec, keys, n_blocks = checked_batch(json_body(), svc)
    deadline.disarm()
    job_id = svc.store.create({"batch": spec, "workers": svc.config.batch_workers}, BATCH, n_blocks,
                              svc.config.max_queued_jobs,
                              companions={"keys.json": keys, "counts.json": {"cases": len(keys), "done": 0,
                                                                              "failed": 0}})
    if job_id is None:
        raise queue_full(svc.config)
    svc.runner.wake_up.set()
    doc = batch_document(svc.store.get(job_id))
    return json_response(doc, status=202, headers={"Location": doc["url"]})


def checked_batch(body, svc):
    """(the spec as the job runs it, its distinct case keys in order, the first case's blocks), or the 4xx
    that says what is wrong and where."""
    spec = served_spec(body, svc.config)
    try:
        filled, folder = load_spec(spec)
        count = case_count(filled)
        if count > svc.config.max_batch_cases:
            raise ApiError(413, f"{count} cases, more than this service's limit of {svc.config.max_batch_cases} "
                                "(split the batch, or raise --max-batch-cases)", path="vary", code="too_many_cases")
        cases = list({case.key: case for case in expand(filled, folder, svc.config.max_blocks,
                                                        svc.config.max_batch_bytes)}.values())
    except BatchTooLarge as error:
        raise ApiError(413, f"{error.message} (this service's --max-batch-bytes)", path=error.path,
                       code="batch_too_large") from error
    except ModelError as error:
        raise ApiError(422, error.message, path=error.path, block=error.block, code="invalid_batch") from error
    except TooManyBlocks as error:
        raise ApiError(413, f"{error}, more than this service's limit (raise --max-blocks)", path="generator",
                       code="too_many_blocks") from error
    check_first_case(cases[0], svc, "model" if "model" in filled else "generator")
    return spec, [case.key for case in cases], len(cases[0].model.get("blocks", ()))


def served_spec(body, config):
    """The spec with the service's own rules: an object, no record files, ``max_steps`` at most the limit."""
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object, a batch spec (extrados.batch/1)")
    motions = body.get("ground_motions")
    if isinstance(motions, dict) and motions.get("files"):
        raise ApiError(422, FILES_REFUSED, path="ground_motions.files", code="files_refused")
    if isinstance(body.get("model"), dict):
        check_model_size(body["model"], config)
    if "analysis" in body:
        return {**body, "analysis": capped_steps(body["analysis"], config.max_steps)}
    return body


def check_first_case(case, svc, where):
    """The engine's checks of the first case's model and request (an analysis request's), at their paths."""
    try:
        model, _ = svc.cache.model(case.model)
        check_request(model, case.analysis)
    except ModelError as error:
        raise model_error(error, prefix=where) from error


def batch_row(job_id):
    """The batch's row, or 404 (a job that is not a batch included)."""
    row = job_row(job_id)
    if row["analysis"] != BATCH:
        raise ApiError(404, f"no batch {job_id!r} (it is an analysis job: see /v1/jobs/{job_id})", path="id")
    return row


def read_json(path, missing):
    """The JSON value of a job's file, or ``missing`` when it has none (an expired or restored job)."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return missing


def batch_document(row):
    """The batch as the API shows it: its job, its counts of cases done and failed, and its links."""
    job_id = row["id"]
    counts = read_json(services().store.counts_path(job_id), {"cases": None, "done": None, "failed": None})
    return {**job_document(row), **counts, "url": f"/v1/batches/{job_id}", "job_url": f"/v1/jobs/{job_id}",
            "table_url": f"/v1/batches/{job_id}/table", "csv_url": f"/v1/batches/{job_id}/table?format=csv"}


@blueprint.get("/v1/batches/<job_id>")
def get_batch(job_id):
    return json_response(batch_document(batch_row(job_id)))


@blueprint.get("/v1/batches/<job_id>/table")
def get_table(job_id):
    """The rows written so far, in the spec's order: JSON, or CSV with ``?format=csv`` or ``Accept: text/csv``."""
    row = batch_row(job_id)
    if row["expired"]:
        raise ApiError(410, "this batch's table has expired (raise --result-max-age or --result-max-mb)",
                       code="expired")
    store = services().store
    table = gathered(store.batch_dir(job_id), read_json(store.keys_path(job_id), []))
    if wants_csv():
        buffer = io.BytesIO()
        pyarrow.csv.write_csv(table, buffer)
        return Response(buffer.getvalue(), mimetype=CSV_TYPE)
    try:
        return json_response({**batch_document(row), "rows": table.to_pylist()})
    except (strict_json.NonFiniteNumber, strict_json.UnwritableValue) as error:
        raise ApiError(422, f"the table cannot be written as JSON: {error}; ask for it as CSV (?format=csv)",
                       code="unwritable_result") from error


def wants_csv():
    """True for ``?format=csv`` or an Accept header that prefers CSV to JSON; 422 for another format."""
    requested = request.args.get("format")
    if requested is not None and requested not in ("json", "csv"):
        raise ApiError(422, f"unknown format {requested!r} (expected json or csv)", path="query.format")
    if requested is not None:
        return requested == "csv"
    return request.accept_mimetypes.best_match(["application/json", CSV_TYPE]) == CSV_TYPE


@blueprint.delete("/v1/batches/<job_id>")
def cancel_batch(job_id):
    """Cancel like any job; the rows that finished stay in the table."""
    return json_response(batch_document(cancel_active(batch_row(job_id))), status=202)
