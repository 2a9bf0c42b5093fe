"""``POST /v1/analyses``: static and load factor analyses answer at once, dynamic and
construction runs (or any analysis with ``?async=true``) answer 202 with a job.

Everything the engine can check before running is checked in the request, so a bad model or
request is a 422 with its field path now, never a job that fails later.
"""
import time

from flask import Blueprint, request

from extrados.engine.analysis.run import check_request
from extrados.engine.errors import AnalysisCancelled, ModelError
from extrados.engine.io import strict_json
from extrados.server.errors import ApiError, model_error
from extrados.server.payload import analysis_envelope, json_body
from extrados.server.routes import json_response, services

blueprint = Blueprint("analyses", __name__)

#: Analyses that run as jobs: they take seconds to hours.
JOB_TYPES = ("dynamic", "construction")
TRUE_WORDS = ("1", "true", "yes")
#: s, the longest a synchronous analysis waits for the engine's warm-up before its own time starts.
WARM_UP_WAIT_S = 600.0


@blueprint.post("/v1/analyses")
def create_analysis():
    config = services().config
    model_doc, analysis = analysis_envelope(json_body(), config.max_blocks)
    as_job = request.args.get("async", "").lower() in TRUE_WORDS
    kind = analysis_type(analysis)
    if as_job or kind in JOB_TYPES:
        return submit_job(model_doc, analysis)
    return run_now(model_doc, analysis, config.compute_time_limit_s)


def analysis_type(analysis):
    """The analysis type named by a request (checked fully by the engine later)."""
    if analysis is None:
        return "static"
    if isinstance(analysis, str):
        return analysis
    return analysis.get("type") if isinstance(analysis, dict) else None


def run_now(model_doc, analysis, time_limit_s):
    """Analyse in this request, through the geometry cache, within the compute time limit; its time starts once
    the engine's warm-up has ended (compiling the kernels is no part of an analysis)."""
    services().warm_up.wait(WARM_UP_WAIT_S)
    deadline = time.monotonic() + time_limit_s
    try:
        result = services().cache.analyze(model_doc, analysis, cancel=lambda: time.monotonic() > deadline)
    except ModelError as error:
        raise model_error(error) from error
    except AnalysisCancelled as stopped:
        raise ApiError(422, f"the analysis ran past the compute time limit of {time_limit_s:g} s ({stopped}); "
                            "submit it as a job with ?async=true, or raise --compute-time-limit",
                       path="analysis", code="compute_time_limit") from stopped
    try:
        return json_response(result.to_dict())
    except (strict_json.NonFiniteNumber, strict_json.UnwritableValue) as error:
        raise ApiError(422, f"the result cannot be written as JSON: {error}", code="unwritable_result") from error


def submit_job(model_doc, analysis):
    """Check the model and the request, queue the job, answer 202 with its URL."""
    svc = services()
    try:
        model, _ = svc.cache.model(model_doc)
        kind = check_request(model, analysis)
    except ModelError as error:
        raise model_error(error) from error
    job_id = svc.store.create({"model": model_doc, "analysis": analysis}, kind, len(model.block_ids),
                              svc.config.max_queued_jobs)
    if job_id is None:
        raise ApiError(429, f"the job queue is full ({svc.config.max_queued_jobs} jobs queued or running); "
                            "wait for one to finish or raise --max-queued-jobs", code="queue_full")
    svc.runner.wake_up.set()
    url = f"/v1/jobs/{job_id}"
    return json_response({"id": job_id, "url": url, "state": "queued"}, status=202, headers={"Location": url})
