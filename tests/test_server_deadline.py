"""The compute time limit covers parsing and checking a request, through a real service: a model
with a long ground-motion record (checking it takes minutes in pure Python) is answered 422 within
the limit, synchronous or as a job, and the request's thread is free again at once."""
import json
import time

import pytest

from extrados.engine.generators import generate
from tests.server_harness import running_service

LIMIT_S = 2.0
#: s, what a refusal may take beyond the limit: parsing the body is one C call that ends first
#: (0.1 s for these 4 MB on an idle machine), and the machine is shared.
SLACK_S = 8.0
#: Samples of the record: checking them takes about a minute on an idle machine, far past LIMIT_S.
SAMPLES = 250_000


def model_with_a_long_record():
    model = generate("arch", voussoirs=10)
    model["support_motion"] = {"kind": "record", "dt": 0.01, "accelerations": [[0.1, 0.0, 0.0]] * SAMPLES}
    return model


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    # one request thread: a request still being checked would keep /health waiting
    with running_service(data_dir=str(tmp_path_factory.mktemp("data")), compute_time_limit_s=LIMIT_S,
                         threads=1) as client:
        yield client


@pytest.mark.parametrize("analysis", [{"type": "static"}, {"type": "dynamic", "duration": 0.05}])
def test_checking_a_huge_request_stops_at_the_compute_time_limit(service, analysis):
    body = json.dumps({"model": model_with_a_long_record(), "analysis": analysis}).encode()
    began = time.monotonic()
    status, answer, _ = service.post("/v1/analyses", raw=body)
    took = time.monotonic() - began
    assert status == 422 and answer["error"]["code"] == "compute_time_limit", answer
    assert LIMIT_S <= took < LIMIT_S + SLACK_S, f"answered after {took:.1f} s"
    message = answer["error"]["message"]
    assert "read, checked and prepared" in message and "--compute-time-limit" in message
    assert "e-0" not in message  # not "cancelled after 9.29e-05 s"
    began = time.monotonic()
    assert service.get("/health")[0] == 200
    assert time.monotonic() - began < 1.0


def test_a_small_request_is_unaffected(service):
    status, result, _ = service.post("/v1/analyses", {"model": generate("arch", voussoirs=10)})
    assert status == 200 and result["stable"] is True
