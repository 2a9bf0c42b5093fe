"""Schema-driven fuzzing of the HTTP service (schemathesis, from our own /openapi.json): whatever
the generated request, valid or not, the answer is never a server error and conforms to the
published responses (status codes, content types, bodies)."""
import pytest
import schemathesis
from schemathesis import GenerationMode
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance, response_schema_conformance, status_code_conformance,
)

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
