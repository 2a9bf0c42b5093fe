"""examples/compas_script.py: COMPAS meshes in, COMPAS Lines and Polylines out, in-process and over HTTP."""
import math
from pathlib import Path

import compas
import pytest
from compas.datastructures import Mesh
from compas.geometry import Line, Polyline

from extrados import analyze
from tests.server_harness import running_service
from tests.scripts import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "compas_script.py"
SCALE = 1e-4


script = load_script(SCRIPT)


@pytest.fixture(scope="module")
def arch():
    blocks = script.arch_meshes(voussoirs=9, radius=1.0, thickness=0.15, depth=0.3)
    model = script.model_from_meshes(blocks)
    result = analyze(model, {"type": "static"}).to_dict()
    return blocks, model, result


def _norm(v):
    return math.sqrt(sum(x * x for x in v))


def test_blocks_are_compas_meshes(arch):
    blocks, model, _ = arch
    assert len(blocks) == 10
    assert all(isinstance(mesh, Mesh) for _, mesh, _ in blocks)
    assert model.block_ids[0] == "ground" and model.to_dict()["blocks"][0].get("support") is True
    assert [b.get("support", False) for b in model.to_dict()["blocks"][1:]] == [False] * 9


def test_in_process_result_geometry(arch):
    _, _, result = arch
    assert result["stable"] is True
    geometry = script.result_geometry(result, SCALE)
    loaded = [c for c in result["contacts"] if _norm(c["force"]) > 0.0]
    assert loaded and len(geometry["forces"]) == len(loaded)
    for line, contact in zip(geometry["forces"], loaded):
        assert isinstance(line, Line)
        assert line.length == pytest.approx(_norm(contact["force"]) * SCALE, abs=1e-9)
        assert list(line.start) == pytest.approx(contact["point"], abs=1e-12)
        assert list(line.end) == pytest.approx(
            [p + SCALE * f for p, f in zip(contact["point"], contact["force"])], abs=1e-12)
    assert geometry["resultants"] and all(isinstance(line, Line) for line in geometry["resultants"])
    assert result["thrust_lines"] and len(geometry["thrust_lines"]) == len(result["thrust_lines"])
    for polyline, thrust in zip(geometry["thrust_lines"], result["thrust_lines"]):
        assert isinstance(polyline, Polyline)
        assert len(polyline.points) == len(thrust["points"])
        for point, expected in zip(polyline.points, thrust["points"]):
            assert list(point) == pytest.approx(expected, abs=1e-12)


def test_json_round_trip(arch, tmp_path):
    blocks, _, result = arch
    geometry = script.result_geometry(result, SCALE)
    path = tmp_path / "arch.json"
    compas.json_dump({"blocks": [mesh for _, mesh, _ in blocks], "forces": geometry["forces"],
                      "thrust_lines": geometry["thrust_lines"]}, str(path))
    data = compas.json_load(str(path))
    assert len(data["blocks"]) == len(blocks) and all(isinstance(m, Mesh) for m in data["blocks"])
    assert len(data["forces"]) == len(geometry["forces"])
    for a, b in zip(data["forces"], geometry["forces"]):
        assert isinstance(a, Line)
        assert list(a.start) == pytest.approx(list(b.start), abs=1e-12)
        assert list(a.end) == pytest.approx(list(b.end), abs=1e-12)
    assert len(data["thrust_lines"]) == len(geometry["thrust_lines"])
    assert len(data["thrust_lines"][0].points) == len(geometry["thrust_lines"][0].points)


def test_main_writes_file(tmp_path):
    out = tmp_path / "sub" / "compas_arch.json"
    assert script.main(["--out", str(out)]) == 0
    data = compas.json_load(str(out))
    assert data["stable"] is True
    assert len(data["blocks"]) == 10 and data["forces"] and data["thrust_lines"]


def test_http_matches_in_process(arch, tmp_path):
    from extrados_gh.client import ExtradosClient

    _, model, result = arch
    with running_service(data_dir=str(tmp_path / "data")) as service:
        remote = ExtradosClient(service.base).analyze(model.to_dict(), {"type": "static"})
        assert script.compare_results(result, remote) == []
        # main() with --url goes through the client and checks the same.
        assert script.main(["--out", str(tmp_path / "http.json"), "--url", service.base]) == 0
    assert remote["stable"] == result["stable"] is True
    assert len(remote["contacts"]) == len(result["contacts"])
    largest = max(_norm(c["force"]) for c in result["contacts"])
    for a, b in zip(result["contacts"], remote["contacts"]):
        for fa, fb in zip(a["force"], b["force"]):
            assert abs(fa - fb) <= 1e-5 * max(abs(fa), abs(fb), 1e-3 * largest)
    remote_geometry = script.result_geometry(remote, SCALE)
    assert len(remote_geometry["forces"]) == len(script.result_geometry(result, SCALE)["forces"])
