"""Results out to ParaView (VTK through meshio, a .pvd time series) and to glTF (issue 19): read back with meshio,
xml.etree and trimesh, and compared with the result's arrays and with the blocks posed independently (scipy)."""
import dataclasses
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import matplotlib
import meshio
import numpy as np
import pytest
import trimesh
from scipy.spatial.transform import Rotation

from extrados import Model, ModelError, analyze, generators
from extrados.engine.io import strict_json
from extrados.engine.exchange.gltf_export import COLOUR_MAP, ROOT_NODE, Z_UP_TO_Y_UP, write_gltf
from extrados.engine.exchange.result_file import read_result_file
from extrados.engine.io.sidecar import sidecar_path, write_sidecar
from extrados.engine.exchange.vtk_export import ENTITY_FILE, STRESS_FIELDS, write_vtk
from extrados.engine.post.entities import NO_ENTITY
from extrados_gh.entities import NONE, NONE_COLOUR, level_values, value_colours

EXTRADOS = [sys.executable, "-m", "extrados"]
#: Numbers written to a .vtu as float64 come back as they were; sums of a few products of them differ by
#: rounding only.
EXACT = 1e-12
#: glTF stores vertices as float32: a vertex relative to its block's centre (|v| < 1 m here) comes back within
#: half a float32 unit of its largest coordinate, 2^-24 |v| per component.
FLOAT32_VERTEX = 2.0 ** -24 * np.sqrt(3.0)
#: The dynamic run: the rocking block (0.25 x 0.25 x 1 m) pushed by 5 m/s^2 along x, four frames 0.1 s apart.
DURATION, INTERVAL = 0.3, 0.1


@pytest.fixture(scope="module")
def static_arch():
    model = Model.from_dict(generators.generate("arch"))
    return model, analyze(model, {"type": "static"})


@pytest.fixture(scope="module")
def rocking():
    doc = generators.generate("rocking_block")
    doc["loads"] = [{"kind": "body_acceleration", "blocks": ["block"], "acceleration": [5.0, 0.0, 0.0]}]
    model = Model.from_dict(doc)
    return model, analyze(model, {"type": "dynamic", "duration": DURATION, "output_interval": INTERVAL})


def expected_vertices(model, position, orientation):
    """The blocks' vertices at centres ``position`` turned by quaternions [w, x, y, z] ``orientation`` from the
    drawn blocks (identity orientation at the drawn centres of mass)."""
    rotations = Rotation.from_quat(np.asarray(orientation)[:, [1, 2, 3, 0]]).as_matrix()
    return [(np.asarray(block["vertices"]) - centre) @ rotation.T + x for block, centre, rotation, x
            in zip(model.to_dict()["blocks"], model.geometry.centre, rotations, position)]


def block_cells(path):
    """{block index: (points (n, 3), {field: value})} of a blocks .vtu."""
    mesh = meshio.read(path)
    cells = {}
    for n, block in enumerate(mesh.cells):
        assert block.type.startswith("polyhedron")
        for c, faces in enumerate(block.data):
            index = int(mesh.cell_data["block_index"][n][c])
            points = mesh.points[np.unique(np.concatenate(faces))]
            cells[index] = (points, {name: values[n][c] for name, values in mesh.cell_data.items()})
    return cells


def same_points(a, b, tolerance):
    """Whether two point sets (any order) are equal within ``tolerance`` (m), point by point."""
    a, b = np.asarray(a), np.asarray(b)
    distance = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    return len(a) == len(b) and distance.min(axis=1).max() <= tolerance and distance.min(axis=0).max() <= tolerance


def collection(path):
    """[(time, part, file)] of a .pvd."""
    root = ET.parse(path).getroot()
    assert root.get("type") == "Collection"
    return [(float(d.get("timestep")), int(d.get("part")), d.get("file")) for d in root.iter("DataSet")]


def test_a_static_arch_is_one_frame_of_posed_polyhedra_with_the_result_s_stresses(static_arch, tmp_path):
    model, result = static_arch
    pvd = write_vtk(model, result, tmp_path)
    assert collection(pvd) == [(0.0, 0, "blocks_0000.vtu"), (0.0, 1, "contacts_0000.vtu")]
    cells = block_cells(tmp_path / "blocks_0000.vtu")
    assert sorted(cells) == list(range(len(model.block_ids)))
    expected = expected_vertices(model, result.blocks.position, result.blocks.orientation)
    points, data = cells[3]
    assert same_points(points, expected[3], EXACT)
    assert np.abs(data["stress"] - result.blocks.stress[3].ravel()).max() <= EXACT * np.abs(result.blocks.stress).max()
    assert data["q"] == result.blocks.q[3] and data["p"] == result.blocks.p[3]
    assert np.array_equal(data["principal_stress"], result.blocks.principal_values[3])
    assert np.array_equal(data["principal_direction_1"], result.blocks.principal_directions[3, 0])
    assert np.array_equal(data["displacement"], result.blocks.position[3] - model.geometry.centre[3])
    supports = [i for i, (_, d) in cells.items() if d["support"] == 1]
    assert supports == np.flatnonzero(result.blocks.support).tolist()


def test_the_contact_points_carry_their_forces_split_into_normal_and_tangential(static_arch, tmp_path):
    model, result = static_arch
    write_vtk(model, result, tmp_path)
    mesh = meshio.read(tmp_path / "contacts_0000.vtu")
    contacts = result.contacts
    assert mesh.cells[0].type == "vertex" and len(mesh.points) == len(contacts.point)
    data = mesh.point_data
    k = int(np.argmax(np.linalg.norm(contacts.force, axis=1)))  # the most loaded contact
    assert np.array_equal(mesh.points[k], contacts.point[k]) and np.array_equal(data["force"][k], contacts.force[k])
    assert (data["block_a"][k], data["block_b"][k]) == (contacts.body_a[k], contacts.body_b[k])
    scale = np.abs(contacts.force).max()
    assert abs(data["normal_force"][k] - contacts.force[k] @ contacts.normal[k]) <= EXACT * scale
    assert data["normal_force"][k] > 0.0  # compression
    # the two parts add up to the force, the tangential one in the contact plane
    assert np.abs(data["normal_force"][:, None] * data["normal"] + data["tangential_force"] - data["force"]).max() \
        <= EXACT * scale
    assert np.abs(np.einsum("ni,ni->n", data["tangential_force"], data["normal"])).max() <= EXACT * scale


def test_a_dynamic_run_is_a_time_series_of_its_frames(rocking, tmp_path):
    model, result = rocking
    frames = result.frames
    assert len(frames.t) == 4
    datasets = collection(write_vtk(model, result, tmp_path))
    blocks = [(t, name) for t, part, name in datasets if part == 0]
    assert [t for t, _ in blocks] == frames.t.tolist()  # the times as the result has them, to the last bit
    assert [(t, part) for t, part, _ in datasets if part == 1] == [(frames.t[-1], 1)]  # the last step's contacts
    i = model.block_ids.index("block")
    tilt = []
    for k, (_, name) in enumerate(blocks):
        cells = block_cells(tmp_path / name)
        expected = expected_vertices(model, frames.position[k], frames.orientation[k])
        assert all(same_points(cells[i][0], expected[i], EXACT) for i in cells)
        moving = cells[i][1]
        assert np.array_equal(moving["velocity"], frames.velocity[k, i, :3])
        assert np.array_equal(moving["angular_velocity"], frames.velocity[k, i, 3:])
        assert np.allclose(moving["displacement"], frames.position[k, i] - model.geometry.centre[i], rtol=0, atol=EXACT)
        known = k == len(blocks) - 1
        assert all(np.isfinite(moving[name]).all() == known for name in STRESS_FIELDS)
        tilt.append(np.linalg.norm(moving["rotation"]))
    assert np.array_equal(moving["stress"], result.blocks.stress[i].ravel())
    assert tilt[0] == 0.0 and tilt[-1] > 0.01  # the block has started to rock
    assert tilt[-1] == pytest.approx(Rotation.from_quat(frames.orientation[-1, i, [1, 2, 3, 0]]).magnitude(), abs=EXACT)


def glb_world_vertices(scene, node):
    """The node's mesh vertices in the engine's z-up world (the root's y-up turn undone)."""
    transform, geometry = scene.graph[node]
    return trimesh.transform_points(scene.geometry[geometry].vertices, np.linalg.inv(Z_UP_TO_Y_UP) @ transform)


def test_a_glb_has_a_node_per_block_named_by_its_id_posed_at_the_chosen_frame(rocking, tmp_path):
    model, result = rocking
    path = tmp_path / "frame2.glb"
    write_gltf(model, path, result, frame=2)
    scene = trimesh.load(path)
    assert set(model.block_ids) <= set(scene.graph.nodes) and ROOT_NODE in scene.graph.nodes
    expected = expected_vertices(model, result.frames.position[2], result.frames.orientation[2])
    for i, block_id in enumerate(model.block_ids):
        local = np.asarray(model.to_dict()["blocks"][i]["vertices"]) - model.geometry.centre[i]
        tolerance = FLOAT32_VERTEX * np.abs(local).max() + EXACT
        assert same_points(glb_world_vertices(scene, block_id), expected[i], tolerance)
    # the pose itself is in the node's matrix at full precision
    transform = np.linalg.inv(Z_UP_TO_Y_UP) @ scene.graph["block"][0]
    assert np.abs(transform[:3, 3] - result.frames.position[2, model.block_ids.index("block")]).max() <= EXACT


def test_a_model_at_rest_and_a_result_coloured_by_q(static_arch, tmp_path):
    model, result = static_arch
    write_gltf(model, tmp_path / "rest.glb")
    rest = trimesh.load(tmp_path / "rest.glb")
    for i, block in enumerate(model.to_dict()["blocks"]):
        size = np.abs(np.asarray(block["vertices"]) - model.geometry.centre[i]).max()
        assert same_points(glb_world_vertices(rest, block["id"]), block["vertices"], FLOAT32_VERTEX * size + EXACT)
    write_gltf(model, tmp_path / "q.glb", result, colour_by="q")
    coloured = trimesh.load(tmp_path / "q.glb")
    q = result.blocks.q
    viridis = matplotlib.colormaps[COLOUR_MAP]
    for rank, end in ((np.nanargmax(q), 1.0), (np.nanargmin(q), 0.0)):
        node = model.block_ids[rank]
        colours = coloured.geometry[coloured.graph[node][1]].visual.vertex_colors
        assert (colours == viridis(end, bytes=True)).all()
    with pytest.raises(ModelError, match="'w' is not a block scalar or an entity level the blocks have; give one of "
                                         "p, q$"):
        write_gltf(model, tmp_path / "bad.glb", result, colour_by="w")


def arch_entity(i):
    """An entity for voussoir i of the arch: three to a course, the middle one of each course a 'key'."""
    return {"wall": "arch", "course": f"c{i // 3}", "type": "key" if i % 3 == 1 else "voussoir",
            "attributes": {"mark": f"M{i}", "phase": 2}}


@pytest.fixture(scope="module")
def arch_with_entities():
    doc = generators.generate("arch")
    for i, block in enumerate(doc["blocks"]):
        if not block.get("support"):
            block["entity"] = arch_entity(i)
    model = Model.from_dict(doc)
    return model, analyze(model, {"type": "static"})


def glb_nodes(path):
    """{name: node} of the JSON chunk of a .glb (12-byte header, then the chunk's length, type and JSON)."""
    data = path.read_bytes()
    length = int.from_bytes(data[12:16], "little")
    return {node["name"]: node for node in json.loads(data[20:20 + length])["nodes"]}


def test_entities_are_coded_per_level_in_the_vtu_and_kept_whole_in_the_glb(arch_with_entities, tmp_path):
    model, result = arch_with_entities
    write_vtk(model, result, tmp_path)
    names = json.loads((tmp_path / ENTITY_FILE).read_text())
    assert names["no_entity"] == NO_ENTITY and list(names["levels"]) == ["wall", "course", "type"]
    cells = block_cells(tmp_path / "blocks_0000.vtu")
    for i, block_id in enumerate(model.block_ids):
        entity = result.blocks.entity[i]
        for level in ("wall", "course", "type"):
            code = int(cells[i][1][f"entity_{level}"])
            assert (names["levels"][level][code] if code != NO_ENTITY else None) == (entity or {}).get(level)
    write_gltf(model, tmp_path / "courses.glb", result, colour_by="course")
    scene, nodes = trimesh.load(tmp_path / "courses.glb"), glb_nodes(tmp_path / "courses.glb")
    colour = {block_id: tuple(scene.geometry[scene.graph[block_id][1]].visual.vertex_colors[0])
              for block_id in model.block_ids}
    courses = {}
    for i, block_id in enumerate(model.block_ids):
        entity = result.blocks.entity[i]
        assert nodes[block_id].get("extras", {}).get("entity") == entity
        courses.setdefault(None if entity is None else entity["course"], set()).add(colour[block_id])
    assert all(len(colours) == 1 for colours in courses.values())  # a colour per course
    assert len(set.union(*courses.values())) == len(courses)     # and each course its own
    # the colours the browser viewer and Grasshopper give the same courses (their rule: extrados_gh.entities)
    named = [course for course in courses if course is not None]
    ours = {course: courses[course].pop()[:3] for course in named}
    assert ours == {course: tuple(rgb) for course, rgb in value_colours(level_values(named)).items() if course != NONE}
    assert courses[None].pop()[:3] == NONE_COLOUR                  # the supports, which have no entity


def test_a_model_that_is_not_the_result_s_is_refused(static_arch, tmp_path):
    model, result = static_arch
    doc = model.to_dict()
    doc["blocks"][4]["id"] = "renamed"
    with pytest.raises(ModelError, match=rf"blocks\[4\]: the model's block 'renamed' is '{result.blocks.ids[4]}' in"):
        write_vtk(Model.from_dict(doc), result, tmp_path)
    n = len(doc["blocks"])
    with pytest.raises(ModelError, match=f"the model has {n - 1} blocks, the result {n}"):
        write_gltf(Model.from_dict({**doc, "blocks": doc["blocks"][1:]}), tmp_path / "a.glb", result)


@pytest.fixture(scope="module")
def files(rocking, tmp_path_factory):
    """The rocking run's model and result documents, and a folder to write in."""
    folder = tmp_path_factory.mktemp("cli")
    model, result = rocking
    (folder / "model.json").write_text(model.to_json())
    (folder / "result.json").write_bytes(strict_json.dumps(result.to_dict()))
    return folder


def test_frames_sent_to_the_sidecar_are_read_back_from_it_at_full_precision(rocking, tmp_path):
    model, result = rocking
    sent = dataclasses.replace(result, output={"frames": "npz", "histories": "npz"})
    document = tmp_path / "result.json"
    document.write_bytes(strict_json.dumps(sent.to_dict()))
    assert json.loads(document.read_text())["frames"] == []
    write_sidecar(sent, sidecar_path(document))
    read = read_result_file(document)
    i = model.block_ids.index("block")
    for name in ("t", "position", "orientation"):
        assert np.array_equal(getattr(read.frames, name), getattr(result.frames, name)), name
    assert np.array_equal(read.frames.velocity[:, i], result.frames.velocity[:, i])
    pvd = write_vtk(model, read, tmp_path / "vtk")
    assert [t for t, part, _ in collection(pvd) if part == 0] == result.frames.t.tolist()
    os.remove(sidecar_path(document))
    with pytest.raises(ModelError, match="output: the result's frames are in its sidecar, which cannot be read"):
        read_result_file(document)


def extrados(*args):
    return subprocess.run(EXTRADOS + [str(a) for a in args], capture_output=True, text=True, timeout=300)


def test_the_cli_writes_both_formats_from_the_documents(files):
    done = extrados("export", files / "result.json", "--model", files / "model.json", "--format", "vtk",
                    "--out", files / "vtk")
    assert done.returncode == 0, done.stderr
    document = read_result_file(files / "result.json")
    assert [t for t, part, _ in collection(files / "vtk" / "result.pvd") if part == 0] == document.frames.t.tolist()
    done = extrados("export", files / "result.json", "--model", files / "model.json", "--format", "gltf",
                    "--out", files / "first.glb", "--frame", "0", "--colour-by", "q")
    assert done.returncode == 0, done.stderr
    assert "block" in trimesh.load(files / "first.glb").graph.nodes


@pytest.mark.parametrize("change, message", [
    (lambda f: ["--model", f / "missing.json"], "cannot read model file"),
    (lambda f: [f / "missing.json"], "cannot read result file"),
    (lambda f: [f / "model.json"], "is not a result document"),
    (lambda f: ["--frame", "4"], "--frame: the result has frames 0 to 3"),
    (lambda f: ["--format", "vtk", "--out", f / "frames", "--frame", "1"], "--frame: applies to --format gltf only"),
    (lambda f: ["--colour-by", "stress"], "--colour-by: 'stress' is not a block scalar or an entity level"),
    (lambda f: ["--model", f / "other.json"], "the model has 1 blocks, the result 2"),
    (lambda f: ["--out", f], "is a folder; give a file name"),
])
def test_the_cli_refuses_bad_input_with_exit_2_and_says_what(files, change, message):
    doc = json.loads((files / "model.json").read_text())
    (files / "other.json").write_text(json.dumps({**doc, "blocks": [b for b in doc["blocks"] if b["id"] == "block"]}))
    arguments = {"result": files / "result.json", "--model": files / "model.json", "--format": "gltf",
                 "--out": files / "out.glb"}
    extra = change(files)
    if not str(extra[0]).startswith("--"):
        arguments["result"], extra = extra[0], extra[1:]
    for option, value in zip(extra[::2], extra[1::2]):
        arguments[option] = value
    done = extrados("export", *[item for key, value in arguments.items()
                                for item in ((value,) if key == "result" else (key, value))])
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr
