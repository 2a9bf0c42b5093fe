"""The Grasshopper client (`gh_components/extrados_gh/client.py`) against a real service.

No mocks: each test talks over HTTP to the Flask app under waitress (`tests.server_harness`).
Its Python 2.7 syntax is checked with the rest of gh_components in tests/test_gh_python27.py.
"""
import copy
import socket
from pathlib import Path

import pytest

from extrados.engine.generators import generate
from extrados_gh.client import (AuthenticationError, ExtradosClient, ExtradosError, Job, JobFailed,
                                           ServiceUnavailable, ValidationError)
from tests.server_harness import running_service

CLIENT_SOURCE = Path(__file__).resolve().parents[1] / "gh_components" / "extrados_gh" / "client.py"
ARCH = generate("arch", voussoirs=10)
SHORT_DYNAMIC = {"type": "dynamic", "duration": 0.05, "output_interval": 0.01}
LONG_DYNAMIC = {"type": "dynamic", "duration": 60.0}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("data"))) as service:
        yield ExtradosClient(service.base, timeout=60.0)


def test_health(client):
    health = client.health()
    assert health["status"] == "ok" and health["service"] == "extrados"


def test_examples_then_a_static_analysis(client):
    names = [example["name"] for example in client.examples()]
    assert "arch" in names
    model = client.example("arch", voussoirs=10)
    assert len(model["blocks"]) == len(ARCH["blocks"])
    result = client.analyze(model)
    assert isinstance(result, dict) and result["stable"] is True
    assert client.analyze(model, {"type": "static"})["stable"] is True


def test_dynamic_job_submit_poll_wait_result(client):
    job = client.analyze(ARCH, SHORT_DYNAMIC)
    assert isinstance(job, Job) and len(job.id) == 32
    state = job.poll()
    assert state["state"] in ("queued", "running", "done") and 0.0 <= job.progress <= 1.0
    final = job.wait(timeout=60.0, interval=0.05)
    assert final["state"] == "done" and job.done and job.progress == 1.0
    result = job.result()
    assert result["analysis"] == "dynamic" and len(result["frames"]) == 6
    assert client.result(job.id) == result and client.job(job.id)["state"] == "done"


def test_static_as_a_job(client):
    job = client.submit(ARCH, {"type": "static"})
    assert job.wait(timeout=60.0, interval=0.05)["state"] == "done"
    assert job.result()["stable"] is True


def test_cancel_a_long_job(client):
    job = client.submit(ARCH, LONG_DYNAMIC)
    with pytest.raises(ExtradosError) as unfinished:
        job.result()
    assert unfinished.value.status == 409 and unfinished.value.code == "not_finished"
    job.cancel()
    assert job.wait(timeout=10.0, interval=0.05)["state"] == "cancelled" and job.done
    with pytest.raises(ExtradosError) as finished:
        client.cancel(job.id)
    assert finished.value.code == "already_finished"


def test_wait_gives_up_after_its_timeout(client):
    job = client.submit(ARCH, LONG_DYNAMIC)
    try:
        with pytest.raises(ExtradosError) as waited:
            job.wait(timeout=0.2, interval=0.05)
        assert waited.value.code == "wait_timeout" and job.id in str(waited.value)
    finally:
        job.cancel()
        job.wait(timeout=10.0, interval=0.05)


def test_no_service_says_how_to_start_one():
    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = "http://127.0.0.1:%d" % port
    with pytest.raises(ServiceUnavailable) as refused:
        ExtradosClient(url, timeout=2.0).health()
    message = str(refused.value)
    assert url in message and "`extrados serve`" in message and "`python -m extrados.server`" in message
    assert refused.value.status is None


def test_validation_error_names_the_path_and_the_block(client):
    model = copy.deepcopy(ARCH)
    model["blocks"][3]["vertices"][0][0] = "x"
    with pytest.raises(ValidationError) as invalid:
        client.analyze(model)
    error = invalid.value
    assert error.status == 422 and error.path == "model.blocks[3].vertices[0][0]" and error.block == "v3"
    assert str(error).startswith("model.blocks[3].vertices[0][0] (block 'v3'): ") and error.message in str(error)
    with pytest.raises(ValidationError) as dynamic:
        client.submit(ARCH, {"type": "dynamic", "duration": -1})
    assert dynamic.value.path == "analysis.duration"
    with pytest.raises(ValidationError) as unknown_parameter:
        client.example("arch", nope=3)
    assert unknown_parameter.value.path == "query.nope"


def test_other_service_errors_keep_their_status_and_code(client):
    with pytest.raises(ExtradosError) as unknown:
        client.job("0123456789abcdef0123456789abcdef")
    assert unknown.value.status == 404 and unknown.value.code == "not_found"
    assert not isinstance(unknown.value, (ValidationError, AuthenticationError, ServiceUnavailable))


def test_wrong_or_missing_token(tmp_path):
    with running_service(data_dir=str(tmp_path), token="s3cret") as service:
        assert ExtradosClient(service.base, token="wrong").health()["status"] == "ok"  # /health is open
        with pytest.raises(AuthenticationError) as wrong:
            ExtradosClient(service.base, token="wrong").examples()
        assert wrong.value.status == 401 and "wrong token" in str(wrong.value)
        with pytest.raises(AuthenticationError) as missing:
            ExtradosClient(service.base).analyze(ARCH)
        assert "token=" in str(missing.value)
        assert ExtradosClient(service.base, token="s3cret").analyze(ARCH)["stable"] is True


def test_a_failed_job_raises_job_failed(tmp_path):
    # the service stops a job past its time limit and marks it failed: the natural way to fail one
    with running_service(data_dir=str(tmp_path), job_time_limit_s=0.5) as service:
        client = ExtradosClient(service.base)
        job = client.submit(ARCH, LONG_DYNAMIC)
        with pytest.raises(JobFailed) as failed:
            job.wait(timeout=30.0, interval=0.05)
        assert failed.value.code == "compute_time_limit" and failed.value.job["state"] == "failed"
        assert str(failed.value).startswith("the job failed: ") and "--job-time-limit" in str(failed.value)
        assert job.done and job.error["code"] == "compute_time_limit"
        with pytest.raises(JobFailed) as on_result:
            job.result()
        assert on_result.value.status == 409 and "--job-time-limit" in str(on_result.value)


def test_error_text_for_a_component():
    error = ExtradosError("mesh is not closed", path="model.blocks[3].faces", block="v3")
    assert str(error) == "model.blocks[3].faces (block 'v3'): mesh is not closed"
    assert str(ExtradosError("no path")) == "no path"
    assert str(ExtradosError("no block", path="analysis.type")) == "analysis.type: no block"
