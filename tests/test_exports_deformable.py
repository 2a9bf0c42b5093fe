"""Deformable blocks out to ParaView (issue 23): their tetrahedra, displacement and element stresses as one
``deformable_kkkk.vtu`` beside the blocks' files, part 2 of the .pvd, read back with meshio and xml.etree and
compared with the result's "deformable" fields; `extrados export` and ``POST /v1/exports/vtk`` write it too."""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import meshio
import numpy as np
import pytest

from extrados import Model, analyze, generators
from extrados.engine.exchange.vtk_export import write_vtk
from extrados.engine.io import strict_json
from tests.test_server_exports import exported, service  # noqa: F401 (the fixture, by name)

#: Numbers written to a .vtu as float64 come back as they were; a few sums of products of them differ by rounding.
EXACT = 1e-12
#: VTK's quadratic tetrahedron (VTK_QUADRATIC_TETRA, meshio's "tetra10"): nodes 4 to 9 on these edges.
VTK_TETRA10_EDGES = ((0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3))


def deformable_wall(element="tet4"):
    """A wall of two courses of deformable blocks (tests/test_result_document.py), of linear or quadratic
    tetrahedra."""
    doc = generators.generate("wall", courses=2, blocks_per_course=2)
    doc["materials"]["stone"]["deformable"] = {"E": 1e9, "nu": 0.2, "element": element}
    return doc


@pytest.fixture(scope="module")
def static_wall():
    model = Model.from_dict(deformable_wall())
    return model, analyze(model, "static")


def collection(path):
    """[(time, part, file)] of a .pvd."""
    return [(float(d.get("timestep")), int(d.get("part")), d.get("file")) for d in ET.parse(path).iter("DataSet")]


def fields_of(result):
    """The result's "deformable" entries as arrays: (block, element, {name: array})."""
    return [(entry["block"], entry["element"], {name: np.asarray(entry[name]) for name in
                                                ("nodes", "tetrahedra", "displacement", "stress", "principal_stress")})
            for entry in result.extra["deformable"]]


def tensor_von_mises(stress):
    """sqrt(3/2 s : s) of (t, 3, 3) tensors, s their deviator: the von Mises stress, from the tensor."""
    deviator = stress - np.trace(stress, axis1=1, axis2=2)[:, None, None] / 3.0 * np.eye(3)
    return np.sqrt(1.5 * np.einsum("tij,tij->t", deviator, deviator))


def test_a_static_result_writes_the_deformed_tetrahedra_with_their_stresses(static_wall, tmp_path):
    model, result = static_wall
    pvd = write_vtk(model, result, tmp_path)
    assert collection(pvd) == [(0.0, 0, "blocks_0000.vtu"), (0.0, 1, "contacts_0000.vtu"),
                               (0.0, 2, "deformable_0000.vtu")]
    mesh = meshio.read(tmp_path / "deformable_0000.vtu")
    fields = fields_of(result)
    assert len(fields) == 5   # every block but the ground
    assert [cells.type for cells in mesh.cells] == ["tetra"]
    tetrahedra = mesh.cells[0].data
    assert len(tetrahedra) == sum(len(f["tetrahedra"]) for _, _, f in fields)
    starts = np.cumsum([0] + [len(f["nodes"]) for _, _, f in fields])
    assert np.array_equal(tetrahedra, np.vstack([s + f["tetrahedra"] for s, (_, _, f) in zip(starts, fields)]))
    assert np.array_equal(mesh.points, np.vstack([f["nodes"] for _, _, f in fields]))
    assert np.array_equal(mesh.point_data["displacement"], np.vstack([f["displacement"] for _, _, f in fields]))

    data = {name: values[0] for name, values in mesh.cell_data.items()}
    assert sorted(data) == ["block_index", "max_principal", "min_principal", "stress", "von_mises"]
    voigt = np.vstack([f["stress"] for _, _, f in fields])
    stress = data["stress"].reshape(-1, 3, 3)
    assert np.array_equal(stress, stress.transpose(0, 2, 1))
    assert np.array_equal(stress[:, [0, 1, 2, 1, 0, 0], [0, 1, 2, 2, 2, 1]], voigt)   # xx yy zz yz xz xy
    scale = np.abs(voigt).max()
    assert scale > 1e3   # Pa: the wall's weight, a few kPa
    assert np.abs(tensor_von_mises(stress) - data["von_mises"]).max() <= EXACT * scale
    principal = np.vstack([f["principal_stress"] for _, _, f in fields])
    assert np.array_equal(data["min_principal"], principal[:, 0])
    assert np.array_equal(data["max_principal"], principal[:, 2])
    assert np.abs(np.linalg.eigvalsh(stress)[:, [0, 2]] - principal[:, [0, 2]]).max() <= EXACT * scale
    blocks = np.concatenate([np.full(len(f["tetrahedra"]), model.block_ids.index(block)) for block, _, f in fields])
    assert np.array_equal(data["block_index"], blocks)

    # ParaView reads the stress as a tensor: 9 components, as meshio writes a 2-D array
    arrays = {a.get("Name"): a for a in ET.parse(tmp_path / "deformable_0000.vtu").iter("DataArray")}
    assert arrays["stress"].get("NumberOfComponents") == "9"
    assert arrays["displacement"].get("NumberOfComponents") == "3"


def test_quadratic_tetrahedra_are_written_in_vtk_s_node_order(tmp_path):
    """Nodes 4 to 9 of each tetra10 cell are the mid-edge nodes of VTK's edges 01, 12, 20, 03, 13, 23: each within
    twice the largest displacement of its edge's midpoint (straight edges before the load), while another edge's
    midpoint is centimetres away."""
    model = Model.from_dict(deformable_wall("tet10"))
    result = analyze(model, "static")
    write_vtk(model, result, tmp_path)
    mesh = meshio.read(tmp_path / "deformable_0000.vtu")
    assert [cells.type for cells in mesh.cells] == ["tetra10"]
    cells = mesh.cells[0].data
    assert len(cells) == sum(len(entry["tetrahedra"]) for entry in result.extra["deformable"])
    points = mesh.points[cells]                                                       # (t, 10, 3)
    midpoints = np.stack([0.5 * (points[:, a] + points[:, b]) for a, b in VTK_TETRA10_EDGES], axis=1)
    moved = np.linalg.norm(mesh.point_data["displacement"], axis=1).max()
    assert 0.0 < moved < 1e-5
    assert np.linalg.norm(points[:, 4:] - midpoints, axis=2).max() <= 2.0 * moved
    shortest_edge = np.linalg.norm(points[:, 1] - points[:, 0], axis=1).min()
    assert shortest_edge > 1e3 * moved


def test_a_dynamic_result_writes_them_at_its_last_frame(tmp_path):
    model = Model.from_dict(deformable_wall())
    result = analyze(model, {"type": "dynamic", "duration": 0.01, "time_step": 1e-3, "output_interval": 0.005})
    datasets = collection(write_vtk(model, result, tmp_path))
    last = len(result.frames.t) - 1
    assert last == 2
    assert [(t, name) for t, part, name in datasets if part == 2] == [(result.frames.t[-1], "deformable_0002.vtu")]
    mesh = meshio.read(tmp_path / "deformable_0002.vtu")
    assert np.array_equal(mesh.points, np.vstack([entry["nodes"] for entry in result.extra["deformable"]]))


def test_rigid_blocks_write_no_deformable_file(tmp_path):
    model = Model.from_dict(generators.generate("wall", courses=2, blocks_per_course=2))
    result = analyze(model, "static")
    assert "deformable" not in result.extra
    assert [part for _, part, _ in collection(write_vtk(model, result, tmp_path))] == [0, 1]
    assert not list(tmp_path.glob("deformable_*"))


def test_the_cli_and_the_service_export_it_too(static_wall, service, tmp_path):  # noqa: F811 (the fixture)
    model, result = static_wall
    model_doc = json.loads(model.to_json())
    result_doc = json.loads(strict_json.dumps(result.to_dict()))
    (tmp_path / "model.json").write_text(json.dumps(model_doc))
    (tmp_path / "result.json").write_text(json.dumps(result_doc))
    done = subprocess.run([sys.executable, "-m", "extrados", "export", tmp_path / "result.json", "--model",
                           tmp_path / "model.json", "--format", "vtk", "--out", tmp_path / "cli"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    zipped = tmp_path / "zip"
    zipped.mkdir()
    files = exported(service, model_doc, result_doc, zipped)
    count = sum(len(entry["tetrahedra"]) for entry in result_doc["deformable"])
    for pvd, vtu in ((tmp_path / "cli" / "result.pvd", tmp_path / "cli" / "deformable_0000.vtu"),
                     (files["result.pvd"], files["deformable_0000.vtu"])):
        assert (0.0, 2, "deformable_0000.vtu") in collection(pvd)
        mesh = meshio.read(vtu)
        assert len(mesh.cells[0].data) == count
        assert np.array_equal(mesh.point_data["displacement"],
                              np.vstack([entry["displacement"] for entry in result_doc["deformable"]]))
