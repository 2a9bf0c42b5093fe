"""Rhino's Hops component talks to the service here, with no plugin to install (issue 22).

``GET /hops`` lists the functions, ``GET /hops/<name>`` describes one (what Hops reads when a user types
``http://127.0.0.1:8765/hops/analyze`` into it), and a solve request runs it: Hops POSTs it to ``/solve`` of
the host with ``pointer`` ``hops/<name>``; ``POST /hops/<name>`` takes the same body. Answers are in the Hops
schema (`server.hops.protocol`): a request the function cannot answer gets a 4xx whose ``errors`` Hops shows
on the component, never a traceback. A service started with a token also takes it in the ``RhinoComputeKey``
header, where Hops sends its API key (`server.guards`).
"""
from flask import Blueprint

from extrados.engine.errors import AnalysisCancelled, ModelError
from extrados.engine.io import strict_json
from extrados.server.errors import ApiError, model_error
from extrados.server.hops.functions import FUNCTIONS
from extrados.server.hops.protocol import HopsError, Units, answer, error_answer, solve_request_inputs
from extrados.server.payload import json_body
from extrados.server.routes import json_response, services
from extrados.server.routes.analyses import answer_within_limit

blueprint = Blueprint("hops", __name__)
PREFIX = "hops/"


@blueprint.get("/hops")
def list_functions():
    return json_response([function.description_schema(function_uri(name)) for name, function in FUNCTIONS.items()])


@blueprint.get("/hops/<name>")
def describe_function(name):
    try:
        return json_response(function_named(name).description_schema(function_uri(name)))
    except HopsError as error:
        # the shape of a description, so that Hops shows the message, and the service's error envelope
        return json_response({"Description": str(error), "Inputs": [], "Outputs": [], "Errors": [str(error)],
                              "Warnings": [], **ApiError(error.status, str(error), path="name").to_dict()},
                             status=error.status)


@blueprint.post("/hops/<name>")
def solve_function(name):
    return solve(lambda body: function_named(name))


@blueprint.post("/solve")
def solve_pointer():
    return solve(function_of_pointer)


def function_uri(name):
    return f"/{PREFIX}{name}"


def function_named(name):
    function = FUNCTIONS.get(name)
    if function is None:
        raise HopsError(f"this service has no Hops function {name!r} (it has {', '.join(sorted(FUNCTIONS))}; "
                        f"GET /hops lists them)", 404)
    return function


def function_of_pointer(body):
    """The function a ``/solve`` request's pointer names: ``hops/analyze``, ``/hops/analyze`` or the whole address."""
    pointer = body.get("pointer") if isinstance(body, dict) else None
    if not isinstance(pointer, str) or not pointer:
        raise HopsError('a /solve request names its function in "pointer", e.g. "hops/analyze"', 400)
    path = pointer.split("://", 1)[-1]
    if "://" in pointer:
        path = path.split("/", 1)[-1] if "/" in path else ""
    path = path.split("?", 1)[0].strip("/")
    if not path.startswith(PREFIX):
        raise HopsError(f"pointer {pointer!r} names no Hops function of this service (e.g. hops/analyze; "
                        "GET /hops lists them)", 404)
    return function_named(path[len(PREFIX):])


def solve(function_of):
    """Run the function a solve request names, within the compute time limit, and answer in the Hops schema."""
    try:
        return answer_within_limit(lambda deadline: solved(function_of, deadline), "in a Hops function",
                                   "draw fewer blocks")
    except HopsError as error:
        return json_response(error_answer(str(error)), status=error.status)
    except ApiError as error:
        return json_response(error_answer(hops_message(error)), status=error.status)


def solved(function_of, deadline):
    body = json_body()
    function = function_of(body)
    inputs = solve_request_inputs(function, body)
    units = Units.of_request(body)

    def analyze(model, analysis):
        try:
            return services().cache.analyze(model, analysis, cancel=deadline.passed).to_dict()
        except ModelError as error:
            raise model_error(error) from error
        except AnalysisCancelled as stopped:
            raise ApiError(422, f"the analysis ran past the compute time limit of {deadline.limit_s:g} s: draw "
                                "fewer blocks, or raise --compute-time-limit", code="compute_time_limit") from stopped

    outputs, warnings = function.handler(analyze, inputs, units)
    try:
        return json_response(answer(function, outputs, warnings))
    except (strict_json.NonFiniteNumber, strict_json.UnwritableValue, ValueError) as error:
        raise HopsError(f"the result cannot be written as JSON: {error}") from error


def hops_message(error):
    """An ApiError's message with the field and block it names, on one line for the component."""
    where = ", ".join(part for part in (error.path and f"at {error.path}", error.block and f"block {error.block}")
                      if part)
    return f"{error.message} ({where})" if where else error.message
