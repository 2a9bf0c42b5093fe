"""``/v1/batches`` on a real service (loopback, free port) whose batch jobs run on a real Dask
LocalCluster in their worker process: the table as JSON and CSV equal to the CLI's for the same spec,
the rows so far while a batch of inline records runs, cancelling with no Dask process left, expiry,
and every refusal as a 4xx at its field. Models are a 2-block column, static, or nudged for 1.5 s.
"""
import csv
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import psutil
import pytest
import referencing
import referencing.jsonschema

from extrados.engine.generators import generate
from extrados.server.openapi import openapi_document
from server_harness import running_service

#: Columns that say when and how fast a case ran, not what it gave.
RUN_COLUMNS = ("seconds", "run", "finished_at")
#: s, how long the Dask worker processes of a cancelled batch may take to end.
WORKERS_END_S = 30.0
#: Limits of the service under test, small enough to reach with a tiny spec.
MAX_BATCH_CASES = 50
MAX_BLOCKS = 6
MAX_BATCH_BYTES = 500_000

STATIC_SPEC = {
    "generator": {"name": "column", "parameters": {"blocks": 2}},
    "analysis": {"type": "static"},
    "vary": [{"pointer": "/joints/dry/friction", "grid": {"start": 0.6, "stop": 0.8, "count": 2}}],
    "outputs": {"names": ["stable", "load_factor", "solver_iterations", "solver_converged"]},
}
#: Six cases of about a second each (one Dask worker), a gentle inline record at six scales: long
#: enough to read the table and cancel mid-run.
SCALES = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
SLOW_SPEC = {
    "generator": {"name": "column", "parameters": {"blocks": 2}},
    "analysis": {"type": "dynamic", "duration": 1.5},
    "ground_motions": {"records": [{"name": "nudge", "dt": 0.01, "accelerations": [0.0, 0.01, -0.01, 0.0],
                                    "unit": "g"}], "scale_factors": SCALES},
    "outputs": {"names": ["stable", "collapse", "max_displacement"], "blocks": ["b1"]},
}
TOKEN = "batch-token-0123456789abcdef"


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("data")), max_batch_cases=MAX_BATCH_CASES,
                         max_blocks=MAX_BLOCKS, max_batch_bytes=MAX_BATCH_BYTES, batch_workers=1) as client:
        yield client


def spec_with(base, **fields):
    return json.loads(json.dumps({**base, **fields}))


def without_run_columns(rows):
    return [{column: value for column, value in row.items() if column not in RUN_COLUMNS} for row in rows]


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_a_batch_table_as_json_and_csv_equals_the_clis(service, tmp_path):
    status, batch, headers = service.post("/v1/batches", STATIC_SPEC)
    assert status == 202, batch
    assert headers["Location"] == batch["url"] == f"/v1/batches/{batch['id']}" and batch["cases"] == 2
    finished = service.wait_for_job(batch["url"], timeout=180)
    assert (finished["state"], finished["done"], finished["failed"], finished["progress"]) == ("done", 2, 0, 1.0)
    status, table, _ = service.get(batch["table_url"])
    assert status == 200 and table["state"] == "done"
    status, as_csv, headers = service.get(batch["csv_url"])
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert service.get(batch["table_url"], headers={"Accept": "text/csv"})[1] == as_csv
    status, refused, _ = service.get(f"{batch['job_url']}/result")  # the batch as a job: its result is the table
    assert status == 409 and batch["table_url"] in refused["error"]["message"]
    assert service.get(batch["job_url"])[1]["result_url"] == batch["table_url"]

    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(STATIC_SPEC))
    done = subprocess.run([sys.executable, "-m", "extrados", "batch", str(spec_file), "--out", str(tmp_path / "out"),
                           "--workers", "1", "--quiet"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cli_rows = json.loads((tmp_path / "out" / "cases.json").read_text())
    assert without_run_columns(table["rows"]) == without_run_columns(cli_rows)
    cli_csv = (tmp_path / "out" / "cases.csv").read_text()
    assert without_run_columns(csv_rows(as_csv)) == without_run_columns(csv_rows(cli_csv))

    store = service.app.extensions["extrados"].store  # expiry deletes the table, the counts stay
    assert store.get(batch["id"])["result_bytes"] > 0 and os.path.isdir(store.batch_dir(batch["id"]))
    assert store.expire(max_age_s=0.0, max_bytes=2 ** 40, now=time.time() + 1.0) == [batch["id"]]
    assert not os.path.exists(store.batch_dir(batch["id"]))
    assert service.get(batch["table_url"])[0] == 410 and service.get(batch["url"])[1]["done"] == 2


def test_the_table_while_running_then_cancel_leaves_no_dask_process(service):
    status, batch, _ = service.post("/v1/batches", SLOW_SPEC)
    assert status == 202, batch
    running = service.wait_for_job(batch["url"], states=("running",), timeout=180,
                                   condition=lambda job: job["done"] + job["failed"] >= 1)
    keys = json.loads(Path(service.app.extensions["extrados"].store.keys_path(batch["id"])).read_text())
    status, table, _ = service.get(batch["table_url"])
    assert status == 200 and 1 <= len(table["rows"]) < 6
    assert len(table["rows"]) >= running["done"] + running["failed"]
    for row in table["rows"]:  # whole rows of cases of this spec, in its order
        assert row["key"] in keys and row["error"] is None and row["stable"] is True
        assert row["motion"] == "nudge" and row["scale_factor"] in SCALES and row["max_displacement[b1]"] >= 0
    assert [row["key"] for row in table["rows"]] == sorted((row["key"] for row in table["rows"]), key=keys.index)
    assert len(csv_rows(service.get(batch["csv_url"])[1])) >= len(table["rows"])

    job_process = psutil.Process(service.app.extensions["extrados"].runner.processes[batch["id"]][0].pid)
    dask_processes = job_process.children(recursive=True)
    assert dask_processes, "the batch's LocalCluster runs worker processes under the job's process"
    status, cancelling, _ = service.call("DELETE", batch["url"])
    assert status == 202 and cancelling["cancel_requested"]
    cancelled = service.wait_for_job(batch["url"], timeout=60)
    assert cancelled["state"] == "cancelled" and "in the table" in cancelled["error"]["message"]  # it stopped itself
    _, alive = psutil.wait_procs([job_process, *dask_processes], timeout=WORKERS_END_S)
    assert not alive, [process.cmdline() for process in alive]
    status, table, _ = service.get(batch["table_url"])  # what finished stays readable
    assert status == 200 and len(table["rows"]) >= 1 and table["state"] == "cancelled"
    assert service.call("DELETE", batch["url"])[0] == 409


@pytest.mark.parametrize("spec, status, path", [
    (spec_with(STATIC_SPEC, vary=[{"pointer": "/joints/dry/friction", "grid": {"start": 0.6, "stop": 0.8,
                                                                                 "count": 0}}]),
     422, "vary[0].grid.count"),
    (spec_with(STATIC_SPEC, outputs={"names": ["stable", "height"]}), 422, "outputs.names[1]"),
    (spec_with(STATIC_SPEC, analysis={"type": "dynamic", "duration": 0.05},
               ground_motions={"files": [{"path": "/etc/hostname"}], "scale_factors": [1.0]}),
     422, "ground_motions.files"),
    (spec_with(STATIC_SPEC, vary=[{"pointer": "/joints/dry/friction", "grid": {"start": 0.6, "stop": 0.8,
                                                                                 "count": MAX_BATCH_CASES + 1}}]),
     413, "vary"),
    (spec_with(STATIC_SPEC, generator={"name": "column", "parameters": {"blocks": MAX_BLOCKS + 1}}),
     413, "generator"),
    (spec_with(STATIC_SPEC, vary=[{"parameter": "blocks", "list": [2, 10 ** 7]}]), 413, "generator"),
    ({"model": {**generate("column", blocks=2), "blocks": generate("column", blocks=MAX_BLOCKS)["blocks"] * 2},
      "analysis": {"type": "static"}}, 413, "model.blocks"),
    (spec_with(STATIC_SPEC, vary=[{"pointer": "/joints/wet/friction", "list": [0.5]}]), 422, "vary[0].pointer"),
    (spec_with(STATIC_SPEC, analysis={"type": "dynamic", "duration": 0.05, "max_steps": 10 ** 9}),
     422, "analysis.max_steps"),
    ({"model": {**generate("column", blocks=2), "gravity": [0, 0]}, "analysis": {"type": "static"}},
     422, "model.gravity"),
    # a 10,000-sample record at three scales: about 0.75 MB of records as JSON, past MAX_BATCH_BYTES
    (spec_with(SLOW_SPEC, ground_motions={"records": [{"name": "long", "dt": 0.01, "unit": "g",
                                                       "accelerations": [0.0123456789] * 10_000}],
                                          "scale_factors": [1.0, 2.0, 3.0]}), 413, "vary"),
    ([STATIC_SPEC], 400, None),
])
def test_a_bad_spec_is_refused_at_its_field(service, spec, status, path):
    got, body, _ = service.post("/v1/batches", spec)
    assert got == status, body
    assert body["error"]["path"] == path and body["error"]["message"], body
    if path == "ground_motions.files":
        assert "inline" in body["error"]["message"] and "stochastic" in body["error"]["message"]


def test_unknown_batches_are_404(service):
    for method, path in (("GET", "/v1/batches/0123456789abcdef0123456789abcdef"),
                         ("GET", "/v1/batches/0123456789abcdef0123456789abcdef/table"),
                         ("DELETE", "/v1/batches/0123456789abcdef0123456789abcdef"),
                         ("GET", "/v1/batches/..%2Fjobs.sqlite3/table")):
        status, body, _ = service.call(method, path)
        assert status == 404 and body["error"]["code"] == "not_found", (method, path, body)


def test_batches_need_the_token(tmp_path):
    with running_service(data_dir=str(tmp_path), token=TOKEN) as client:
        status, body, _ = client.post("/v1/batches", STATIC_SPEC)
        assert status == 401 and body["error"]["code"] == "unauthorized"
        assert client.get("/v1/batches/0123456789abcdef0123456789abcdef")[0] == 401
        client.token = TOKEN
        assert client.get("/v1/batches/0123456789abcdef0123456789abcdef")[0] == 404


def test_openapi_publishes_the_batch_schema_that_checks_specs(service):
    status, document, _ = service.get("/openapi.json")
    assert status == 200 and {"/v1/batches", "/v1/batches/{id}", "/v1/batches/{id}/table"} <= set(document["paths"])
    registry = referencing.Registry().with_resource("urn:spec", referencing.Resource.from_contents(
        openapi_document(), default_specification=referencing.jsonschema.DRAFT202012))
    validator = jsonschema.Draft202012Validator({"$ref": "urn:spec#/components/schemas/Batch"}, registry=registry)
    assert not list(validator.iter_errors(STATIC_SPEC))
    assert list(validator.iter_errors(spec_with(STATIC_SPEC, outputs={"names": ["height"]})))


def test_a_cancel_waits_while_the_batch_ignores_interrupts(tmp_path):
    """The batch runner ignores SIGINT while its cluster's workers start (they inherit it ignored);
    interrupt_main does nothing then, so a cancel that came meanwhile must wait and land after: the
    watcher holds it while SIGINT is ignored and interrupts the main thread once it is handled again
    (before: it interrupted into the ignored signal once and gave up, and the batch ran on)."""
    import signal
    import time

    from extrados.server.jobs.batch_worker import CancelWatch
    from extrados.server.jobs.store import JobStore
    from extrados.server.jobs.worker import CANCEL_POLL_S

    store = JobStore(str(tmp_path))
    job_id = store.create({"batch": STATIC_SPEC, "workers": 1}, "batch", 2, 4)
    store.claim(job_id)
    store.request_cancel(job_id)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with CancelWatch(store, job_id) as watch:
            time.sleep(10 * CANCEL_POLL_S)
            assert not watch.cancelled
            signal.signal(signal.SIGINT, signal.default_int_handler)
            with pytest.raises(KeyboardInterrupt):
                time.sleep(100 * CANCEL_POLL_S)
        assert watch.cancelled
    finally:
        signal.signal(signal.SIGINT, previous)
