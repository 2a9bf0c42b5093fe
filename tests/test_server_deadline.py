"""The compute time limit covers parsing and checking a request, through a real service: a model
with a long ground-motion record (checking it takes minutes in pure Python) is answered 422 within
the limit, synchronous or as a job, and the request's thread is free again at once; and large
bodies are checked a few at a time (`server.payload.MAX_LARGE_REQUESTS`)."""
import json
import threading
import time

import pytest

from extrados.engine.generators import generate
from extrados.server.payload import LARGE_BODY_BYTES, MAX_LARGE_REQUESTS
from tests.server_harness import running_service

LIMIT_S = 2.0
#: s, what a refusal may take beyond the limit: parsing the body is one C call that ends first
#: (0.1 s for these 4 MB on an idle machine), and the machine is shared.
SLACK_S = 8.0
#: Samples of the record: checking them takes about a minute on an idle machine, far past LIMIT_S.
SAMPLES = 250_000


def model_with_a_long_record(samples=SAMPLES):
    model = generate("arch", voussoirs=10)
    model["support_motion"] = {"kind": "record", "dt": 0.01, "accelerations": [[0.1, 0.0, 0.0]] * samples}
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


def wait_until_taken(slots, timeout=60.0):
    """Wait until every place of a semaphore is taken (a probe takes one for a moment)."""
    deadline = time.monotonic() + timeout
    while slots.acquire(blocking=False):
        slots.release()
        assert time.monotonic() < deadline, "the large requests did not arrive"
        time.sleep(0.01)


def test_large_bodies_are_checked_a_few_at_a_time(tmp_path):
    """One more large body than the service checks at once is answered 503 at once; the others run
    to the compute time limit."""
    body = json.dumps({"model": model_with_a_long_record(600_000)}).encode()
    assert len(body) > LARGE_BODY_BYTES
    # a limit long enough for the third body to arrive while the others are checked: receiving it
    # competes for the interpreter with their checking
    with running_service(data_dir=str(tmp_path), compute_time_limit_s=15 * LIMIT_S, threads=4) as client:
        answers = []
        checked = [threading.Thread(target=lambda: answers.append(client.post("/v1/analyses", raw=body)[:2]))
                   for _ in range(MAX_LARGE_REQUESTS)]
        for thread in checked:
            thread.start()
        wait_until_taken(client.app.extensions["extrados"].large_requests)
        status, answer, _ = client.post("/v1/analyses", raw=body)
        assert status == 503 and answer["error"]["code"] == "busy", answer
        assert answers == []  # answered while the others were still being checked
        for thread in checked:
            thread.join()
        assert [status for status, _ in answers] == [422] * MAX_LARGE_REQUESTS, answers


def test_an_interruption_swallowed_once_is_raised_again():
    """A garbage collector callback that swallows exceptions (hypothesis installs one) may take the
    first interruption: the next one, REPEAT_S later, stops the request."""
    from extrados.server.deadline import ComputeTimeExceeded, RequestDeadline

    swallowed = []
    deadline = RequestDeadline(0.05)
    deadline.start()
    began = time.monotonic()
    with pytest.raises(ComputeTimeExceeded):
        while time.monotonic() - began < 5.0:
            try:
                time.sleep(0.001)  # interruptible work
            except ComputeTimeExceeded:
                if swallowed:
                    raise
                swallowed.append(time.monotonic() - began)
    deadline.disarm()
    assert swallowed and time.monotonic() - began < 1.0


def test_a_limit_shorter_than_starting_the_timer_still_gets_its_422(tmp_path):
    """A limit of 1e-6 s passes while the request thread is still starting the timer thread: the
    interruption lands inside the code that answers 422. Before the timer started there it once escaped
    that code and the client got no answer (seen in CI under load; 300 requests reproduced it at once on an idle
    machine, the fixed service answers them in 0.9 s)."""
    with running_service(data_dir=str(tmp_path), compute_time_limit_s=1e-6) as client:
        for _ in range(300):
            status, body, _ = client.post("/v1/analyses", {"model": generate("arch", voussoirs=10)}, timeout=60)
            assert status == 422 and body["error"]["code"] == "compute_time_limit"
