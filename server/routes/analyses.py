"""``POST /v1/analyses``: static and load factor analyses answer at once, dynamic and
construction runs (or any analysis with ``?async=true``) answer 202 with a job.

Everything the engine can check before running is checked in the request, so a bad model or
request is a 422 with its field path now, never a job that fails later. The compute time limit
covers all the service does with a request once the engine is warm: parsing it, checking it, and
for a synchronous analysis the analysis (`server.deadline`).
"""
from flask import Blueprint, request

from extrados.engine.analysis.run import check_request
from extrados.engine.errors import AnalysisCancelled, ModelError
from extrados.engine.io import strict_json
from extrados.server.deadline import ComputeTimeExceeded, RequestDeadline
from extrados.server.errors import ApiError, model_error
from extrados.server.payload import analysis_envelope, json_body, large_request_slot
from extrados.server.routes import json_response, services

blueprint = Blueprint("analyses", __name__)

#: Analyses that run as jobs: they take seconds to hours.
JOB_TYPES = ("dynamic", "construction")
TRUE_WORDS = ("1", "true", "yes")
#: s, the longest a synchronous analysis waits for the engine's warm-up before its own time starts.
WARM_UP_WAIT_S = 600.0


@blueprint.post("/v1/analyses")
def create_analysis():
    return answer_within_limit(analyse_within, "while it was read, checked and prepared", "send a smaller document")


def answer_within_limit(answer, where, advice):
    """``answer(deadline)``, the response to a request with a body, within the compute time limit, which
    starts once the engine's warm-up has ended (compiling the kernels is no part of a request); large
    bodies a few at a time. Past the limit, the 422 says it was stopped ``where`` and gives ``advice``."""
    svc = services()
    with large_request_slot(svc.large_requests):
        svc.warm_up.wait(WARM_UP_WAIT_S)
        deadline = RequestDeadline(svc.config.compute_time_limit_s)
        try:
            try:
                deadline.start()
                return answer(deadline)
            finally:
                deadline.disarm()
        except ComputeTimeExceeded:
            raise past_the_limit(deadline, where, advice) from None


def analyse_within(deadline):
    model_doc, analysis = analysis_envelope(json_body(), services().config)
    as_job = request.args.get("async", "").lower() in TRUE_WORDS
    if as_job or analysis_type(analysis) in JOB_TYPES:
        return submit_job(model_doc, analysis, deadline)
    return run_now(model_doc, analysis, deadline)


def past_the_limit(deadline, where, advice):
    """The 422 of a request stopped by the compute time limit."""
    return ApiError(422, f"the request ran past the compute time limit of {deadline.limit_s:g} s (stopped after "
                         f"{deadline.elapsed():.3g} s, {where}): {advice}, or raise --compute-time-limit",
                    path="analysis", code="compute_time_limit")


def analysis_type(analysis):
    """The analysis type named by a request (checked fully by the engine later)."""
    if analysis is None:
        return "static"
    if isinstance(analysis, str):
        return analysis
    return analysis.get("type") if isinstance(analysis, dict) else None


def run_now(model_doc, analysis, deadline):
    """Analyse in this request, through the geometry cache, within the request's compute time limit."""
    try:
        result = services().cache.analyze(model_doc, analysis, cancel=deadline.passed)
    except ModelError as error:
        raise model_error(error) from error
    except AnalysisCancelled as stopped:
        raise past_the_limit(deadline, "in the analysis", "submit it as a job with ?async=true") from stopped
    try:
        return json_response(result.to_dict())
    except (strict_json.NonFiniteNumber, strict_json.UnwritableValue) as error:
        raise ApiError(422, f"the result cannot be written as JSON: {error}", code="unwritable_result") from error


def submit_job(model_doc, analysis, deadline):
    """Check the model and the request (within the compute time limit), queue the job, answer 202 with its URL."""
    svc = services()
    try:
        model, _ = svc.cache.model(model_doc)
        kind = check_request(model, analysis)
    except ModelError as error:
        raise model_error(error) from error
    deadline.disarm()
    job_id = svc.store.create({"model": model_doc, "analysis": analysis}, kind, len(model.block_ids),
                              svc.config.max_queued_jobs)
    if job_id is None:
        raise queue_full(svc.config)
    svc.runner.wake_up.set()
    url = f"/v1/jobs/{job_id}"
    return json_response({"id": job_id, "url": url, "state": "queued"}, status=202, headers={"Location": url})


def queue_full(config):
    """The 429 of a job that finds the queue full."""
    return ApiError(429, f"the job queue is full ({config.max_queued_jobs} jobs queued or running); "
                         "wait for one to finish or raise --max-queued-jobs", code="queue_full")
