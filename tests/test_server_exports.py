"""``POST /v1/exports/vtk`` over HTTP (real waitress service): the zip holds what `extrados export --format vtk`
writes, read back with meshio, the library of the format."""
import io
import json
import urllib.request
import zipfile

import meshio
import numpy as np
import pytest

from extrados.engine.generators import generate
from tests.server_harness import running_service


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("exports"))) as client:
        yield client


def exported(client, model, result, tmp_path):
    """The zip's files extracted into tmp_path, by name."""
    request = client.base + "/v1/exports/vtk"
    body = json.dumps({"model": model, "result": result}).encode()
    with urllib.request.urlopen(urllib.request.Request(request, data=body, method="POST",
                                                       headers={"Content-Type": "application/json"})) as response:
        assert response.headers["Content-Type"] == "application/zip"
        assert "extrados-vtk.zip" in response.headers["Content-Disposition"]
        archive = zipfile.ZipFile(io.BytesIO(response.read()))
    archive.extractall(tmp_path)
    return {name: tmp_path / name for name in archive.namelist()}


def test_a_static_result_exports_one_cell_per_block(service, tmp_path):
    model = generate("arch", voussoirs=8)
    status, result, _ = service.post("/v1/analyses", {"model": model, "analysis": {"type": "static"}})
    assert status == 200
    files = exported(service, model, result, tmp_path)
    assert "result.pvd" in files
    blocks = meshio.read(files["blocks_0000.vtu"])
    assert sum(len(cells.data) for cells in blocks.cells) == len(model["blocks"])
    p = np.concatenate(blocks.cell_data["p"])
    expected = np.array([np.nan if b["p"] is None else b["p"] for b in result["blocks"]], dtype=float)
    np.testing.assert_allclose(p, expected, rtol=1e-12)   # the blocks' mean stress, cell by cell, in model order
    contacts = meshio.read(files["contacts_0000.vtu"])
    assert len(contacts.points) == len(result["contacts"])


def test_a_dynamic_result_exports_one_file_per_frame(service, tmp_path):
    model = generate("rocking_block", lateral_acceleration=6.0)
    status, job, _ = service.post("/v1/analyses", {"model": model, "analysis": {
        "type": "dynamic", "duration": 0.05, "output_interval": 0.01}})
    assert status == 202
    job = service.wait_for_job(job["url"])
    status, result, _ = service.get(job["result_url"])
    assert status == 200
    files = exported(service, model, result, tmp_path)
    frames = sorted(name for name in files if name.startswith("blocks_"))
    assert len(frames) == len(result["frames"]) > 2


@pytest.mark.parametrize("case, status, where", [
    ("no result", 400, "result"), ("another model", 422, "model"), ("not a result", 422, "format")])
def test_bad_exports_are_refused_with_the_field(service, case, status, where):
    model = generate("arch", voussoirs=8)
    _, result, _ = service.post("/v1/analyses", {"model": model, "analysis": {"type": "static"}})
    body = {"model": model, "result": result}
    if case == "no result":
        del body["result"]
    elif case == "another model":
        body["model"] = generate("arch", voussoirs=6)
    else:
        body["result"] = {"format": "something else"}
    got, answer, _ = service.post("/v1/exports/vtk", body)
    assert got == status, answer
    assert where in (answer["error"]["path"] or "") + answer["error"]["message"]
