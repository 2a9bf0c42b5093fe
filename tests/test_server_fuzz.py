"""Fuzzing of the HTTP service: schema-driven (schemathesis, from our own /openapi.json), whatever
the generated request, valid or not, the answer is never a server error and conforms to the
published responses (status codes, content types, bodies); and hypothesis over the magnitudes and
nestings that schemas do not generate (huge integers, float64's extremes, NaN-like tokens, deep
lists, tiny time steps), which must be answered 2xx or 4xx in JSON, never 5xx."""
import copy
import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance, response_schema_conformance, status_code_conformance,
)

from extrados.engine.generators import generate
from extrados.server.openapi import openapi_document
from tests.server_harness import running_service

SCHEMA = schemathesis.openapi.from_dict(openapi_document())
# valid requests and requests that break the schema (wrong types, missing fields, extra ones)
SCHEMA.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("fuzz")), compute_time_limit_s=10.0) as client:
        yield client


@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
def test_no_server_errors(case, service):
    case.call_and_validate(base_url=service.base, checks=CHECKS)


# --- magnitudes and nesting (issue 16): what schemathesis does not generate ----------------------------

#: A small model with a live point load, so every kind of field below exists.
BASE_MODEL = generate("column", blocks=2)
BASE_MODEL["loads"] = [{"kind": "point", "block": "b1", "point": [0.0, 0.0, 0.6], "force": [0.0, 0.0, -1.0],
                        "live": True}]
#: (analysis request, path of the field that gets the odd value): ("model", ...) or ("analysis", ...).
TARGETS = [
    ({"type": "static"}, ("model", "gravity", 2)),
    ({"type": "static"}, ("model", "materials", "stone", "density")),
    ({"type": "static"}, ("model", "joints", "dry", "friction")),
    ({"type": "static"}, ("model", "blocks", 1, "vertices", 4, 2)),
    ({"type": "static"}, ("model", "loads", 0, "force", 2)),
    ({"type": "static"}, ("model", "settings")),
    ({"type": "load_factor"}, ("model", "loads", 0, "force", 0)),
    ({"type": "load_factor", "max_factor": 10.0}, ("analysis", "max_factor")),
    ({"type": "dynamic", "duration": 0.01}, ("analysis", "time_step")),
    ({"type": "dynamic", "duration": 0.01}, ("analysis", "duration")),
    ({"type": "dynamic", "duration": 0.01, "time_step": 0.001}, ("analysis", "output_interval")),
]
#: JSON text of odd values: huge integers, the extremes of float64, tokens that are not JSON numbers
#: (NaN, Infinity, overflowing exponents, a 5000-digit integer), lists nested hundreds deep.
ODD_VALUES = st.one_of(
    st.sampled_from([10 ** 400, -10 ** 400, 10 ** 30, 2 ** 63, 10 ** 19]).map(str),
    st.sampled_from([1e308, -1e308, 1.7976931348623157e308, 1e-300, 5e-324, -0.0, 1e-12]).map(repr),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1" + "0" * 5000]),
    st.integers(2, 3000).map(lambda depth: "[" * depth + "1" + "]" * depth),
    st.sampled_from([{"max_iterations": 10 ** 30}, {"tolerance": 1e-300}, {"compliance": 1e308},
                     {"envelope": 5e-324}]).map(json.dumps),
)
PLACEHOLDER = "\u0000odd value\u0000"


def request_text(analysis, path, value_text):
    """The JSON text of ``{"model", "analysis"}`` with the field at ``path`` replaced by ``value_text``."""
    body = {"model": copy.deepcopy(BASE_MODEL), "analysis": copy.deepcopy(analysis)}
    parent = body
    for key in path[:-1]:
        parent = parent.setdefault(key, {}) if isinstance(key, str) else parent[key]
    parent[path[-1]] = PLACEHOLDER
    return json.dumps(body).replace(json.dumps(PLACEHOLDER), value_text).encode()


@pytest.fixture(scope="module")
def bounded_service(tmp_path_factory):
    """A service whose analyses and jobs stop after a few seconds, however absurd the request."""
    with running_service(data_dir=str(tmp_path_factory.mktemp("odd")), compute_time_limit_s=5.0,
                         job_time_limit_s=5.0, max_queued_jobs=1000) as client:
        yield client


@given(target=st.sampled_from(TARGETS), value_text=ODD_VALUES)
@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
def test_odd_magnitudes_and_nesting_are_answered_without_server_errors(bounded_service, target, value_text):
    analysis, path = target
    status, body, headers = bounded_service.post("/v1/analyses", raw=request_text(analysis, path, value_text))
    assert status < 500, (path, value_text[:80], status, body)
    assert headers["Content-Type"] == "application/json" and isinstance(body, dict), body
    if status >= 400:
        assert body["error"]["message"], body
    if status == 202:
        bounded_service.call("DELETE", body["url"])  # keep the worker for the next example
