"""Results of a reasonable size (issue 16): frames and histories rounded to what matters, asked for separately
or as an npz sidecar (CLI and job API), and written by one strict JSON encoder that refuses NaN and Infinity."""
import dataclasses
import io
import json
import math
import subprocess
import sys
import urllib.error
import urllib.request

import numpy as np
import pytest

from extrados import Model, analyze, generators
from extrados.engine.io import strict_json
from extrados.engine.io.sidecar import sidecar_arrays
from tests.server_harness import running_service

EXTRADOS = [sys.executable, "-m", "extrados"]
#: Bytes of the document of the 41-block arch's 2 s run (40 voussoirs and the ground, 201 frames): it was
#: 3.2 MB with every float written in full; rounded, 1.34 MB. The bound leaves a margin of 12 %.
ARCH_RUN_BOUND = 1_500_000


@pytest.fixture(scope="module")
def arch_run():
    """The 41-block arch of the issue, 2 s of dynamics at the default time step (it collapses under gravity)."""
    model = Model.from_dict(generators.generate("arch", voussoirs=40))
    assert len(model.block_ids) == 41
    return analyze(model, {"type": "dynamic", "duration": 2.0})


def written(result, frames="json", histories="json"):
    """The strict JSON bytes of a result's document with its frames and histories sent where asked."""
    return strict_json.dumps(dataclasses.replace(result, output={"frames": frames, "histories": histories}).to_dict())


def test_the_41_block_2_s_run_is_a_document_of_reasonable_size(arch_run):
    full = written(arch_run)
    assert len(arch_run.frames.t) == 201
    assert len(full) < ARCH_RUN_BOUND
    frames_only, histories_only = written(arch_run, histories="none"), written(arch_run, frames="none")
    neither = written(arch_run, frames="none", histories="none")
    assert len(neither) < len(frames_only) < len(full) and len(neither) < len(histories_only) < len(full)
    assert len(neither) < 0.2 * len(full)  # frames and histories are the bulk of a dynamic result


def test_rounding_keeps_the_stated_precision_and_changes_no_verdict(arch_run):
    doc = json.loads(written(arch_run))
    frames = arch_run.frames
    assert np.abs(np.array([f["positions"] for f in doc["frames"]]) - frames.position).max() <= 0.5e-6 * (1 + 1e-9)
    orientations = np.array([f["orientations"] for f in doc["frames"]])
    assert np.abs(orientations - frames.orientation).max() <= 0.5e-7 * (1 + 1e-9)
    v19 = arch_run.blocks.ids.index("v19")
    assert np.abs(np.array(doc["histories"]["blocks"]["v19"]["velocity"]) - frames.velocity[:, v19]).max() \
        <= 0.5e-7 * (1 + 1e-9)
    # verdicts and events are computed from the run's arrays, before the document rounds them
    assert doc["stable"] is arch_run.stable is False
    assert doc["events"] == arch_run.extra["events"] and doc["events"]["collapsed"]
    assert doc["strain"] == arch_run.extra["strain"]


def test_the_strict_encoder_refuses_nan_and_infinity_naming_where():
    for value in (math.inf, -math.inf, math.nan):
        with pytest.raises(strict_json.NonFiniteNumber) as error:
            strict_json.dumps({"energy": {"kinetic": [0.0, 1.0, value]}, "frames": []})
        assert error.value.path == "energy.kinetic[2]"
    with pytest.raises(strict_json.NonFiniteNumber):
        strict_json.dumps({"mechanism": {"blocks": [{"velocity": [[1.0, 2.0], [math.inf, 0.0]]}]}})
    with pytest.raises(strict_json.UnwritableValue):
        strict_json.dumps({"max_iterations": 10 ** 30})
    # nulls, text and booleans among numbers are JSON, and read back as written
    doc = {"a": [1.5, None, "x", True, [0.1, 2]], "b": {"c": -0.0}}
    assert json.loads(strict_json.dumps(doc)) == doc
    # tuples are written as lists (the text then reads back otherwise), a NaN inside one is still found
    assert json.loads(strict_json.dumps({"a": (1.0, (2.0, 3))})) == {"a": [1.0, [2.0, 3]]}
    with pytest.raises(strict_json.NonFiniteNumber) as error:
        strict_json.dumps({"a": (1.0, (2.0, math.nan))})
    assert error.value.path == "a[1][1]"
    # a NaN beside a value JSON cannot write is named first, as before
    with pytest.raises(strict_json.NonFiniteNumber):
        strict_json.dumps({"a": [math.nan], "b": 10 ** 30})
    with pytest.raises(strict_json.UnwritableValue):
        strict_json.dumps({"a": [1.0], "b": object()})


def overflowing_block():
    """A block under a body acceleration of 1e200 m/s^2: its kinetic energy overflows within a step."""
    doc = generators.generate("column", blocks=1)
    doc["loads"] = [{"kind": "body_acceleration", "blocks": "all", "acceleration": [0.0, 0.0, 1e200]}]
    return doc


def overloaded_arch():
    """An arch under a live point load of 1e300 N: its collapse mechanism's velocity scale overflows."""
    doc = generators.generate("arch", voussoirs=8, load_fraction=0.1)
    doc["loads"][0]["force"] = [0.0, 0.0, -1e300]
    return doc


@pytest.mark.parametrize("doc, analysis", [(overflowing_block(), ["--analysis", "dynamic", "--duration", "0.05"]),
                                           (overloaded_arch(), ["--analysis", "load_factor"])])
def test_the_cli_never_writes_infinity(doc, analysis, tmp_path):
    """The overflow is an error (exit 2) where the start of issue 16 printed "kinetic": Infinity, or
    "scale": Infinity in the mechanism."""
    path = tmp_path / "model.json"
    path.write_text(json.dumps(doc))
    done = subprocess.run(EXTRADOS + ["analyze", str(path), *analysis, "--quiet"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 2, done.stderr
    assert "Infinity" not in done.stdout and "NaN" not in done.stdout
    assert "Traceback" not in done.stderr and "extrados: error:" in done.stderr


def test_the_cli_writes_frames_and_histories_to_an_npz_beside_the_document(tmp_path):
    path = tmp_path / "wall.json"
    path.write_text(json.dumps(generators.generate("wall", courses=2, blocks_per_course=2)))
    out = tmp_path / "result.json"
    done = subprocess.run(EXTRADOS + ["analyze", str(path), "--analysis", "dynamic", "--duration", "0.02",
                                      "--output-interval", "0.005", "--frames", "npz", "--histories", "none",
                                      "--quiet", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    assert doc["frames"] == [] and doc["histories"] == {}
    assert doc["output"] == {"frames": "npz", "histories": "none"}
    with np.load(tmp_path / "result.npz") as arrays:
        assert sorted(arrays.files) == ["block_ids", "orientation", "position", "t"]
        assert arrays["position"].shape == (len(arrays["t"]), len(doc["blocks"]), 3) and len(arrays["t"]) == 5
        assert arrays["block_ids"].tolist() == [block["id"] for block in doc["blocks"]]
        final = np.array([block["position"] for block in doc["blocks"]])
        assert np.abs(arrays["position"][-1] - final).max() == 0.0  # full precision, the run's last state
    refused = subprocess.run(EXTRADOS + ["analyze", str(path), "--analysis", "dynamic", "--duration", "0.02",
                                         "--frames", "npz", "--quiet"], capture_output=True, text=True, timeout=600)
    assert refused.returncode == 2 and "--out" in refused.stderr


def raw_get(client, path):
    """(status, content type, body bytes) of a GET: the sidecar is not JSON."""
    try:
        with urllib.request.urlopen(client.base + path, timeout=60) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def finished_job(client, analysis, model):
    status, job, _ = client.post("/v1/analyses", {"model": model, "analysis": analysis})
    assert status == 202, job
    return client.wait_for_job(job["url"], timeout=600.0)


def test_the_service_offers_the_sidecar_at_the_job_result_url(tmp_path):
    model = generators.generate("wall", courses=2, blocks_per_course=2)
    with running_service(data_dir=str(tmp_path)) as client:
        job = finished_job(client, {"type": "dynamic", "duration": 0.02, "output_interval": 0.005,
                                    "histories": "npz"}, model)
        assert job["state"] == "done", job
        status, doc, _ = client.get(job["result_url"])
        assert status == 200 and doc["histories"] == {} and len(doc["frames"]) == 5
        status, kind, body = raw_get(client, job["result_url"] + ".npz")
        assert status == 200 and kind == "application/octet-stream"
        arrays = np.load(io.BytesIO(body))
        movable = [block["id"] for block in doc["blocks"] if not block["support"]]
        assert arrays["history_blocks"].tolist() == movable
        assert arrays["history_velocity"].shape == (5, len(movable), 6)
        plain = finished_job(client, {"type": "dynamic", "duration": 0.02}, model)
        status, kind, body = raw_get(client, plain["result_url"] + ".npz")
        assert status == 404 and json.loads(body)["error"]["code"] == "no_sidecar"


def test_the_service_never_writes_infinity(tmp_path):
    """The overflowing run is refused up front or its job fails with a clean error; on the start of issue 16
    the job was done and its result held "kinetic": Infinity."""
    with running_service(data_dir=str(tmp_path)) as client:
        status, job, _ = client.post("/v1/analyses", {"model": overflowing_block(),
                                                      "analysis": {"type": "dynamic", "duration": 0.05}})
        if status == 202:
            job = client.wait_for_job(job["url"], timeout=600.0)
            assert job["state"] == "failed" and job["error"]["message"], job
        else:
            assert status == 422 and job["error"]["message"], job
        # a synchronous analysis answered 500 (ValueError of json.dumps, allow_nan=False)
        status, error, _ = client.post("/v1/analyses", {"model": overloaded_arch(),
                                                        "analysis": {"type": "load_factor"}})
        assert status == 422 and error["error"]["message"], error
    assert not list(tmp_path.rglob("result.json"))


def test_the_sidecar_holds_what_the_request_sent_there(arch_run):
    both = dataclasses.replace(arch_run, output={"frames": "npz", "histories": "npz"})
    arrays = sidecar_arrays(both)
    assert arrays["position"] is arch_run.frames.position
    assert arrays["history_position"].shape == (201, 40, 3) and "ground" not in arrays["history_blocks"].tolist()
    assert arrays["block_ids"].tolist() == list(arch_run.blocks.ids)
