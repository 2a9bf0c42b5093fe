"""The HTTP service through a real waitress server on loopback: every endpoint and error path,
jobs (progress, cancel, restart, expiry), limits, token and CORS, concurrency.

Physics is checked elsewhere; here a result through HTTP must equal the engine's own, and every
bad request must get its 4xx with the field path, never a 500.
"""
import gc
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import jsonschema
import numpy as np
import pytest
import referencing

from extrados import analyze
from extrados.engine.generators import generate
from extrados.server.config import Config
from extrados.server.openapi import openapi_document
from tests.gh_harness import Component
from tests.server_harness import Client, running_service, start_service_process

ARCH = generate("arch", voussoirs=10)
SHORT_DYNAMIC = {"type": "dynamic", "duration": 0.05, "time_step": 0.001, "output_interval": 0.01}
LONG_DYNAMIC = {"type": "dynamic", "duration": 60.0, "time_step": 0.001, "output_interval": 0.5}


def loaded_arch(fraction=0.05, voussoir="v3"):
    """The 10-voussoir arch with a live point load on one voussoir's extrados."""
    doc = json.loads(json.dumps(ARCH))
    block = next(b for b in doc["blocks"] if b["id"] == voussoir)
    top = max(block["vertices"], key=lambda v: v[2])
    weight = 9.81 * 2000.0 * 0.05  # about the arch's scale; only the factor's reference changes
    doc["loads"] = [{"kind": "point", "block": voussoir, "point": top, "force": [0.0, 0.0, -fraction * weight],
                     "live": True}]
    return doc


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("data"))) as client:
        yield client


# --- health, docs, examples ---------------------------------------------------------------------

def test_health_and_openapi(service):
    status, body, _ = service.get("/health")
    assert status == 200 and body["status"] == "ok"
    status, spec, _ = service.get("/openapi.json")
    assert status == 200 and spec["openapi"].startswith("3.1")
    assert {"/v1/analyses", "/v1/jobs/{id}", "/v1/jobs/{id}/result", "/v1/examples/{name}"} <= set(spec["paths"])


def test_openapi_schemas_are_those_that_validate_requests():
    """The published AnalysisRequest schema accepts what the engine accepts and rejects what it
    rejects, at the same field."""
    spec = openapi_document()
    registry = referencing.Registry().with_resource("urn:spec", referencing.Resource.from_contents(
        spec, default_specification=referencing.jsonschema.DRAFT202012))
    validator = jsonschema.Draft202012Validator({"$ref": "urn:spec#/components/schemas/AnalysisRequest"},
                                                registry=registry)
    assert not list(validator.iter_errors({"model": ARCH, "analysis": SHORT_DYNAMIC}))
    bad = json.loads(json.dumps(ARCH))
    bad["blocks"][2]["vertices"][1] = [0.0, 1.0]
    errors = list(validator.iter_errors({"model": bad, "analysis": {"type": "load_factor", "tolerance": 2}}))
    paths = {tuple(e.absolute_path) for e in jsonschema.exceptions.best_match(errors).context or errors}
    assert any(p[:4] == ("model", "blocks", 2, "vertices") for p in paths) or \
        any(p[:2] == ("analysis", "tolerance") for p in paths)


def test_examples_list_and_build(service):
    status, body, _ = service.get("/v1/examples")
    names = {e["name"] for e in body["examples"]}
    assert status == 200 and {"arch", "wall", "spandrel_wall", "cylinder"} <= names
    status, doc, _ = service.get("/v1/examples/arch?voussoirs=12&thickness=0.2")
    assert status == 200 and doc == generate("arch", voussoirs=12, thickness=0.2)


@pytest.mark.parametrize("path, status, where", [
    ("/v1/examples/nope", 404, "name"),
    ("/v1/examples/arch?voussoirs=ten", 422, "query.voussoirs"),
    ("/v1/examples/arch?sides=3", 422, "query.sides"),
    ("/v1/examples/arch?thickness=-1", 422, None),
    ("/v1/examples/wall?courses=900&blocks_per_course=900", 413, None),
])
def test_example_errors(service, path, status, where):
    got, body, _ = service.get(path)
    assert got == status, body
    assert body["error"]["message"] and body["error"]["path"] == where


# --- synchronous analyses -----------------------------------------------------------------------

def test_static_result_equals_the_engine(service):
    status, result, _ = service.post("/v1/analyses", {"model": ARCH, "analysis": {"type": "static"}})
    assert status == 200
    reference = analyze(ARCH, {"type": "static"}).to_dict()
    assert result["stable"] == reference["stable"] is True
    assert result["solver"]["converged"]
    ours = np.array([c["force"] for c in result["contacts"]])
    theirs = np.array([c["force"] for c in reference["contacts"]])
    assert ours.shape == theirs.shape
    assert np.abs(ours - theirs).max() < 1e-5 * np.abs(theirs).max(), "HTTP result differs from engine.analyze"


def test_load_factor_through_http(service):
    doc = loaded_arch()
    status, result, _ = service.post("/v1/analyses", {"model": doc, "analysis": {"type": "load_factor"}})
    assert status == 200, result
    reference = analyze(doc, {"type": "load_factor"}).to_dict()
    assert result["load_factor"] == pytest.approx(reference["load_factor"], rel=0.01)


def test_repeated_requests_with_new_loads_hit_the_cache(service):
    cache = service.app.extensions["extrados"].cache
    before = cache.stats()
    for fraction in (0.01, 0.02, 0.03):
        status, result, _ = service.post("/v1/analyses", {"model": loaded_arch(fraction)})
        assert status == 200 and result["solver"]["converged"]
    after = cache.stats()
    assert after["hits"] - before["hits"] >= 2


@pytest.mark.parametrize("raw, status, where", [
    (b"{not json", 400, None),
    (b"[1, 2]", 400, None),
    (b'{"analysis": {"type": "static"}}', 400, "model"),
    (b'{"model": [], "analysis": "static"}', 400, "model"),
    (b'{"model": {}, "extra": 1}', 400, "extra"),
    (b'{"model": {"format": "extrados.model/1", "blocks": [{"id": "a", "vertices": [[NaN, 0, 0]], "faces": []}]}}',
     400, None),
    (b"\xff\xfe", 400, None),
])
def test_malformed_bodies_are_400(service, raw, status, where):
    got, body, _ = service.post("/v1/analyses", raw=raw)
    assert got == status, body
    assert body["error"]["path"] == where and body["error"]["code"] == "malformed_request"


@pytest.mark.parametrize("raw, message", [
    (b'{"model": {"blocks": [1,\n 2 3]}}', "malformed JSON: Expecting ',' delimiter at line 2 column 4"),
    (b'{"model": {"gravity": [0, 0, NaN]}}', "malformed JSON: NaN is not a JSON number"),
    (b'{"model": \xff}', "the body is not UTF-8 text (byte 10)"),
])
def test_a_malformed_body_is_named_where_it_breaks(service, raw, message):
    got, body, _ = service.post("/v1/analyses", raw=raw)
    assert got == 400 and body["error"]["message"] == message


def test_json_that_the_fast_parser_refuses_is_still_read(service):
    """orjson reads request bodies; what it refuses and JSON allows (an unpaired surrogate escape) goes to
    the standard parser, so the answer is the engine's, at the field's path."""
    raw = json.dumps({"model": dict(ARCH, loads=[{"kind": "point", "block": "PLACE", "point": [0, 0, 0],
                                                 "force": [0, 0, -1]}])}).encode()
    got, body, _ = service.post("/v1/analyses", raw=raw.replace(b"PLACE", b"\\ud800"))
    assert got == 422 and body["error"]["path"] == "model.loads[0].block", body


def broken(mutate):
    doc = json.loads(json.dumps(ARCH))
    mutate(doc)
    return doc


@pytest.mark.parametrize("model, analysis, where, block", [
    (broken(lambda d: d["blocks"][3]["vertices"][0].__setitem__(0, "x")), None, "model.blocks[3].vertices[0][0]", "v3"),
    (broken(lambda d: d["blocks"][4]["faces"].pop()), None, "model.blocks[4]", "v4"),
    (broken(lambda d: d.update(loads=[{"kind": "point", "block": "nope", "point": [0, 0, 0], "force": [0, 0, 1]}])),
     None, "model.loads[0].block", None),
    (ARCH, {"type": "fly"}, "analysis.type", None),
    (ARCH, {"type": "dynamic"}, "analysis", None),
    (ARCH, {"type": "dynamic", "duration": -1}, "analysis.duration", None),
    (ARCH, {"type": "construction", "stages": [["nope"]]}, "analysis.stages[0][0]", None),
    (ARCH, {"type": "load_factor"}, "model.loads", None),
    (ARCH, {"type": "static", "thrust_line": {"chain": ["v0", "zz"]}}, "analysis.thrust_line.chain[1]", None),
])
def test_invalid_models_and_requests_are_422_with_their_path(service, model, analysis, where, block):
    status, body, _ = service.post("/v1/analyses", {"model": model, "analysis": analysis})
    assert status == 422, body
    assert body["error"]["path"] == where
    if block is not None:
        assert body["error"]["block"] == block


def test_not_found_method_and_media_type(service):
    assert service.get("/v1/nothing")[0] == 404
    status, body, headers = service.call("PUT", "/v1/analyses", {"model": ARCH})
    assert status == 405 and "POST" in headers["Allow"] and body["error"]["code"] == "method_not_allowed"
    status, body, _ = service.post("/v1/analyses", raw=b"model", headers={"Content-Type": "text/plain"})
    assert status == 415


# --- jobs ---------------------------------------------------------------------------------------

def test_dynamic_job_runs_to_a_result(service):
    status, accepted, headers = service.post("/v1/analyses", {"model": ARCH, "analysis": SHORT_DYNAMIC})
    assert status == 202 and headers["Location"] == accepted["url"]
    job = service.wait_for_job(accepted["url"])
    assert job["state"] == "done" and job["progress"] == 1.0 and job["started"] and job["finished"]
    status, result, _ = service.get(accepted["url"] + "/result")
    assert status == 200 and result["analysis"] == "dynamic" and len(result["frames"]) == 6
    status, body, _ = service.call("DELETE", accepted["url"])
    assert status == 409 and body["error"]["code"] == "already_finished"
    status, listing, _ = service.get("/v1/jobs?state=done")
    assert any(j["id"] == accepted["id"] for j in listing["jobs"])


def test_static_as_a_job(service):
    status, accepted, _ = service.post("/v1/analyses?async=true", {"model": ARCH})
    assert status == 202
    assert service.wait_for_job(accepted["url"])["state"] == "done"
    assert service.get(accepted["url"] + "/result")[1]["stable"] is True


@pytest.mark.parametrize("path", ["/v1/jobs/0123456789abcdef0123456789abcdef", "/v1/jobs/..%2F..%2Fetc",
                                  "/v1/jobs/abc/result"])
def test_unknown_jobs_are_404(service, path):
    assert service.get(path)[0] == 404
    assert service.call("DELETE", path)[0] in (404, 405)


def test_cancel_stops_a_running_job_within_a_second(service):
    status, accepted, _ = service.post("/v1/analyses", {"model": ARCH, "analysis": LONG_DYNAMIC})
    assert status == 202
    service.wait_for_job(accepted["url"], states=("running",), condition=lambda job: job["progress"] > 0)
    status, body, _ = service.get(accepted["url"] + "/result")
    assert status == 409 and body["error"]["code"] == "not_finished"
    asked = time.monotonic()
    assert service.call("DELETE", accepted["url"])[0] == 202
    job = service.wait_for_job(accepted["url"], timeout=5.0)
    assert job["state"] == "cancelled"
    assert time.monotonic() - asked < 1.0
    status, partial, _ = service.get(accepted["url"] + "/result")
    assert status == 200 and partial["cancelled"] is True and 0 < partial["frames"][-1]["t"] < LONG_DYNAMIC["duration"]


def test_queue_limit_is_429(tmp_path):
    with running_service(data_dir=str(tmp_path), max_queued_jobs=1) as client:
        status, first, _ = client.post("/v1/analyses", {"model": ARCH, "analysis": LONG_DYNAMIC})
        assert status == 202
        status, body, _ = client.post("/v1/analyses", {"model": ARCH, "analysis": LONG_DYNAMIC})
        assert status == 429 and "--max-queued-jobs" in body["error"]["message"]
        assert client.call("DELETE", first["url"])[0] == 202
        assert client.wait_for_job(first["url"])["state"] == "cancelled"


def test_job_time_limit_stops_a_job(tmp_path):
    with running_service(data_dir=str(tmp_path), job_time_limit_s=1.0) as client:
        status, accepted, _ = client.post("/v1/analyses", {"model": ARCH, "analysis": LONG_DYNAMIC})
        job = client.wait_for_job(accepted["url"], timeout=60.0)
        assert job["state"] == "failed" and job["error"]["code"] == "compute_time_limit"
        assert "--job-time-limit" in job["error"]["message"]


def test_results_expire_by_age_and_by_size(tmp_path):
    with running_service(data_dir=str(tmp_path)) as client:
        urls = []
        for _ in range(2):
            status, accepted, _ = client.post("/v1/analyses?async=1", {"model": ARCH})
            urls.append(accepted["url"])
            client.wait_for_job(accepted["url"])
        store = client.app.extensions["extrados"].store
        ids = [url.rsplit("/", 1)[1] for url in urls]
        size = os.path.getsize(store.result_path(ids[0]))
        assert store.expire(max_age_s=3600.0, max_bytes=2 * size + 10) == []
        assert store.expire(max_age_s=3600.0, max_bytes=size + 10) == ids[:1]  # the oldest goes first
        assert client.get(urls[0] + "/result")[0] == 410
        assert client.get(urls[0])[1]["expired"] is True
        assert client.get(urls[1] + "/result")[0] == 200
        assert store.expire(max_age_s=0.0, max_bytes=10 ** 12, now=time.time() + 1.0) == ids[1:]
        assert not os.path.exists(store.result_path(ids[1]))


# --- restart --------------------------------------------------------------------------------------

def test_restart_keeps_finished_results_and_fails_interrupted_jobs(tmp_path):
    process, base = start_service_process(tmp_path)
    client = Client(base)
    try:
        status, done, _ = client.post("/v1/analyses", {"model": ARCH, "analysis": SHORT_DYNAMIC})
        client.wait_for_job(done["url"])
        result_before = client.get(done["url"] + "/result")[1]
        status, running, _ = client.post("/v1/analyses", {"model": ARCH, "analysis": LONG_DYNAMIC})
        client.wait_for_job(running["url"], states=("running",), condition=lambda job: job["progress"] > 0)
    finally:
        process.send_signal(signal.SIGKILL)  # no clean-up at all: the worst case
        process.wait(timeout=10)
    process, base = start_service_process(tmp_path)
    client = Client(base)
    try:
        status, result_after, _ = client.get(done["url"] + "/result")
        assert status == 200 and result_after == result_before
        job = client.get(running["url"])[1]
        assert job["state"] == "failed" and "interrupted" in job["error"]["message"]
        status, body, _ = client.get(running["url"] + "/result")
        assert status == 409 and "interrupted" in body["error"]["message"]
    finally:
        process.terminate()
        process.wait(timeout=20)


# --- warm-up ---------------------------------------------------------------------------------------

def wait_until_warm(client, timeout=600.0):
    """Poll /health until the engine's warm-up has ended; its report."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        engine_state = client.get("/health")[1]["engine"]
        if engine_state["state"] != "warming":
            return engine_state
        time.sleep(0.2)
    raise AssertionError("the engine did not warm up")


def test_health_reports_the_warm_up_and_the_service_answers_after_it(tmp_path):
    with running_service(data_dir=str(tmp_path / "cold")) as client:
        assert client.get("/health")[1]["engine"] == {"state": "off"}
    frozen_before = gc.get_freeze_count()
    with running_service(data_dir=str(tmp_path / "warm"), warm_up=True) as client:
        assert client.get("/health")[1]["engine"]["state"] in ("warming", "ready")
        report = wait_until_warm(client)
        assert report["state"] == "ready" and report["seconds"] > 0.0
        # what the warm-up loaded is out of the collector's full passes (server.warmup)
        assert gc.get_freeze_count() > frozen_before
        status, result, _ = client.post("/v1/analyses", {"model": ARCH})
        assert status == 200 and result["stable"] is True and result["solver"]["converged"]


def test_a_fresh_install_compiles_before_the_compute_time_limit_starts(tmp_path):
    """`extrados serve` with an empty numba cache (a fresh install): the first static analysis arrives while
    the warm-up compiles the kernels (a minute or more) and, with a compute time limit of 20 s, still answers
    200, since its time starts after the warm-up. Meanwhile the Grasshopper Service component says the engine is
    warming up. With --no-warm-up the service says the engine is off."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    process, base = start_service_process(tmp_path / "data", "--compute-time-limit", "20", env=env)
    client = Client(base)
    try:
        engine = client.get("/health")[1]["engine"]
        assert engine["state"] == "warming" and 0.0 <= engine["progress"] < 1.0
        grasshopper = Component("Extrados_Service")   # the Grasshopper component tells its user
        assert grasshopper(url=base)["service"] is not None
        assert re.fullmatch(r"connected, warming up \d+ %", grasshopper.message)
        assert "compiling its engine" in grasshopper.remarks[0]
        status, result, _ = client.post("/v1/analyses", {"model": ARCH}, timeout=900)
        assert status == 200 and result["stable"] is True
        assert client.get("/health")[1]["engine"]["state"] == "ready"
    finally:
        process.terminate()
        process.wait(timeout=20)
    process, base = start_service_process(tmp_path / "data", "--no-warm-up")
    try:
        assert Client(base).get("/health")[1]["engine"] == {"state": "off"}
    finally:
        process.terminate()
        process.wait(timeout=20)


# --- limits and security ----------------------------------------------------------------------------

def test_body_and_block_limits_are_413(tmp_path):
    with running_service(data_dir=str(tmp_path), max_body_bytes=20_000, max_blocks=5) as client:
        status, body, _ = client.post("/v1/analyses", raw=json.dumps({"model": ARCH}).encode() + b" " * 20_000)
        assert status == 413 and "--max-body-mb" in body["error"]["message"]
        status, body, _ = client.post("/v1/analyses", {"model": ARCH})
        assert status == 413 and body["error"]["path"] == "model.blocks" and body["error"]["code"] == "too_many_blocks"
        status, body, _ = client.get("/v1/examples/arch")
        assert status == 413


def test_compute_time_limit_is_a_clear_422(tmp_path):
    with running_service(data_dir=str(tmp_path), compute_time_limit_s=1e-6) as client:
        status, body, _ = client.post("/v1/analyses", {"model": loaded_arch(), "analysis": {"type": "load_factor"}})
        assert status == 422 and body["error"]["code"] == "compute_time_limit"
        assert "--compute-time-limit" in body["error"]["message"]


def test_token_is_required_except_for_health(tmp_path):
    with running_service(data_dir=str(tmp_path), token="s3cret") as client:
        assert client.get("/health")[0] == 200
        for path in ("/v1/examples", "/openapi.json", "/"):
            status, body, _ = client.get(path)
            assert status == 401 and body["error"]["code"] == "unauthorized"
        assert client.get("/v1/examples", headers={"Authorization": "Bearer wrong"})[0] == 401
        assert client.get("/v1/examples", headers={"Authorization": "Bearer s3cret"})[0] == 200
        assert client.get("/?token=s3cret")[0] == 200
        assert client.get("/openapi.json?token=s3cret")[1]["security"] == [{"token": []}]


def test_open_address_needs_a_token(tmp_path):
    with pytest.raises(ValueError, match="token"):
        Config(host="0.0.0.0", data_dir=str(tmp_path)).checked()
    token = "a-token-of-sixteen-characters-or-more"
    assert Config(host="0.0.0.0", token=token, data_dir=str(tmp_path)).checked().token == token
    for command in (["-m", "extrados.server"], ["-m", "extrados", "serve"]):  # python -m extrados.server, extrados serve
        run = subprocess.run([sys.executable, *command, "--host", "0.0.0.0", "--data-dir", str(tmp_path)],
                             capture_output=True, text=True, timeout=60, env={**os.environ, "EXTRADOS_TOKEN": ""})
        assert run.returncode == 2 and "token" in run.stderr, run.stderr


def test_cors_is_off_by_default_and_on_for_named_origins(service, tmp_path):
    origin = {"Origin": "http://localhost:3000"}
    assert "Access-Control-Allow-Origin" not in service.get("/v1/examples", headers=origin)[2]
    with running_service(data_dir=str(tmp_path), cors_origins=["http://localhost:3000"], token="t") as client:
        status, _, headers = client.call("OPTIONS", "/v1/analyses", headers={
            **origin, "Access-Control-Request-Method": "POST"})
        assert status == 200 and headers["Access-Control-Allow-Origin"] == "http://localhost:3000"
        headers = client.get("/v1/examples", headers={**origin, "Authorization": "Bearer t"})[2]
        assert headers["Access-Control-Allow-Origin"] == "http://localhost:3000"
        headers = client.get("/v1/examples", headers={"Origin": "http://evil.test", "Authorization": "Bearer t"})[2]
        assert "Access-Control-Allow-Origin" not in headers


# --- concurrency ------------------------------------------------------------------------------------

def test_eight_clients_twenty_five_requests_each(service):
    errors = []

    def client_loop(k):
        for i in range(25):
            if i % 5 == 4:
                status, body, _ = service.get("/v1/examples/column?blocks=3")
            else:
                status, body, _ = service.post("/v1/analyses", {"model": loaded_arch(0.01 * (1 + (k + i) % 4))})
                if status == 200 and not body["solver"]["converged"]:
                    errors.append((k, i, "not converged"))
            if status != 200:
                errors.append((k, i, status, body))

    threads = [threading.Thread(target=client_loop, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
