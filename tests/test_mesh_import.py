"""Blocks from CAD and mesh files (engine.io.cad): every format from a file its library wrote.

A stack of two boxes on a ground slab is written by trimesh as OBJ, STL, PLY and GLB and by
rhino3dm as .3dm (Breps and an Extrusion on layers, with user strings), read back, built and
analysed: it stands and its reactions carry its weight. Refusals name the body; an L-shaped body
becomes its hull with the deviation of the closed form; mm files give the metre model.
"""
import math

import numpy as np
import pytest
import rhino3dm
import trimesh

from extrados import Model, ModelError, analyze
from extrados.cli import main
from extrados.engine.geometry.surface_distance import distance_to_surface
from extrados.engine.io.cad import import_file, unique_ids

#: The stack: ground slab (support), then blocks A and B, one on the other (m).
STACK = {"ground": ((-1.0, 1.0), (-1.0, 1.0), (-0.5, 0.0)), "A": ((-0.4, 0.4), (-0.3, 0.3), (0.0, 0.5)),
         "B": ((-0.4, 0.4), (-0.3, 0.3), (0.5, 1.0))}
#: The reactions of a static solve balance the weight to this (relative). They fall short of it by
#: the blocks' sinking into their compliant contacts, m v / h with v = E gamma (seed 000 eq. 43): 3e-8
#: of the weight at the default compliance. The test asks for 1e-12 m/N and a relative residual of
#: 1e-12, which leave 3e-10 (measured on this stack).
WEIGHT_RELATIVE = 1e-9
STRICT_STATICS = {"compliance": 1e-12, "tolerance": 1e-12}
#: Vertices read back from a file agree with the drawing to this (m): float32 files (STL, GLB) keep
#: 24 bits, 6e-8 of a coordinate of 1 m.
FLOAT32_ROUND_OFF = 1e-6


def box_mesh(extent):
    (x0, x1), (y0, y1), (z0, z1) = extent
    box = trimesh.creation.box((x1 - x0, y1 - y0, z1 - z0))
    box.apply_translation(((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2))
    return box


def stack_scene(scale=1.0):
    scene = trimesh.Scene()
    for name, extent in STACK.items():
        scene.add_geometry(box_mesh(extent).apply_scale(scale), node_name=name, geom_name=name)
    return scene


def box_volume(extent):
    return math.prod(high - low for low, high in extent)


def sorted_corners(block):
    return np.array(sorted(map(tuple, np.round(block["vertices"], 9))))


@pytest.fixture(scope="module")
def stack_files(tmp_path_factory):
    """The stack written by trimesh in each of its formats; the glTF ones turned y up as glTF says."""
    folder = tmp_path_factory.mktemp("stack")
    files = {}
    for suffix in ("obj", "stl", "ply"):
        files[suffix] = folder / f"stack.{suffix}"
        stack_scene().export(files[suffix])
    y_up = stack_scene()
    y_up.apply_transform(trimesh.transformations.rotation_matrix(-math.pi / 2, (1, 0, 0)))
    for suffix in ("glb", "gltf"):
        files[suffix] = folder / f"stack.{suffix}"
        y_up.export(files[suffix])
    return files


@pytest.mark.parametrize("suffix", ["obj", "glb", "gltf"])
def test_a_named_stack_stands_and_its_reactions_carry_its_weight(stack_files, suffix):
    model = Model.from_file(stack_files[suffix])
    blocks = {block["id"]: block for block in model.to_dict()["blocks"]}
    assert sorted(blocks) == sorted(STACK)
    assert [bid for bid, block in blocks.items() if block.get("support")] == ["ground"]
    for bid, extent in STACK.items():
        corners = np.array([[x, y, z] for x in extent[0] for y in extent[1] for z in extent[2]])
        np.testing.assert_allclose(sorted_corners(blocks[bid]), sorted_corners({"vertices": corners}),
                                   atol=FLOAT32_ROUND_OFF)
        assert sorted(map(len, blocks[bid]["faces"])) == [4] * 6   # quads, not triangles
    volumes = {entry.id: entry.volume for entry in model.import_report}
    assert volumes == pytest.approx({bid: box_volume(extent) for bid, extent in STACK.items()}, rel=1e-6)
    doc = model.to_dict()
    doc["settings"] = STRICT_STATICS
    model = Model.from_dict(doc)
    result = analyze(model, {"type": "static"})
    assert result.stable
    weight = model.mechanics.mass[~model.mechanics.is_support].sum() * np.linalg.norm(model.gravity)
    np.testing.assert_allclose(result.reactions.force.sum(axis=0), [0.0, 0.0, weight], rtol=0.0,
                               atol=WEIGHT_RELATIVE * weight)


def test_gltf_extras_give_the_entity_fields(tmp_path):
    """Blender writes an object's custom properties as glTF extras; trimesh writes a mesh's metadata there."""
    box = box_mesh(STACK["A"])
    box.metadata.update({"course": 3, "type": "header", "phase": "II", "wall": True})
    path = tmp_path / "entity.glb"
    trimesh.Scene({"H1": box}).export(path)
    block, = import_file(path, up="z").document["blocks"]
    assert block["entity"] == {"course": "3", "type": "header"}   # not a flag, not a field of no entity


@pytest.mark.parametrize("suffix", ["stl", "ply"])
def test_one_mesh_of_touching_boxes_splits_into_its_boxes(stack_files, suffix):
    """STL and PLY hold one nameless mesh: A and B share the corners of their common face once read."""
    imported = import_file(stack_files[suffix])
    assert [block["id"] for block in imported.document["blocks"]] == ["stack", "stack_2", "stack_3"]
    assert [entry.changes for entry in imported.report][1:] == [("renamed from 'stack' (the name repeats)",)] * 2
    expected = sorted(sorted_corners({"vertices": [[x, y, z] for x in e[0] for y in e[1] for z in e[2]]}).tolist()
                      for e in STACK.values())
    got = sorted(sorted_corners(block).tolist() for block in imported.document["blocks"])
    np.testing.assert_allclose(got, expected, atol=FLOAT32_ROUND_OFF)


@pytest.mark.parametrize("suffix", ["stl", "glb"])
def test_a_float32_box_far_from_the_origin_keeps_its_six_faces(tmp_path, suffix):
    """A tilted 0.4 x 0.3 x 0.25 m box 100 m from the origin: float32 rounds its corners by up to
    4 um (6e-8 of 100 m), 1e-5 of its size, ten times the planarity check's tolerance. Its volume
    stays within 1e-4: 4 um over its 0.59 m^2 of faces is 8e-5 of its 0.03 m^3."""
    box = trimesh.creation.box((0.4, 0.3, 0.25))
    box.apply_transform(trimesh.transformations.rotation_matrix(0.5, (1, 2, 3)))
    box.apply_translation((100.0, 50.0, 10.0))
    path = tmp_path / f"far.{suffix}"
    trimesh.Scene({"far": box}).export(path)
    model = Model.from_file(path, up="z")
    block, = model.to_dict()["blocks"]
    assert sorted(map(len, block["faces"])) == [4] * 6
    assert model.import_report[0].changes == ()
    assert model.import_report[0].volume == pytest.approx(0.4 * 0.3 * 0.25, rel=1e-4)


def test_repeated_names_get_the_next_free_suffix_in_file_order():
    ids, renamed = unique_ids(["A", "A", "A_2", "B", "A"])
    assert ids == ["A", "A_3", "A_2", "B", "A_4"]
    assert renamed == {1: "A", 4: "A"}


def test_four_boxes_around_one_edge_split_into_four(tmp_path):
    """A 2 x 2 square of boxes in one STL: eight faces meet at the centre edge, four bodies' wedges."""
    boxes = [box_mesh(((x, x + 0.5), (y, y + 0.5), (0.0, 0.3))) for x in (-0.5, 0.0) for y in (-0.5, 0.0)]
    path = tmp_path / "square.stl"
    trimesh.util.concatenate(boxes).export(path)
    blocks = import_file(path).document["blocks"]
    assert len(blocks) == 4 and all(sorted(map(len, b["faces"])) == [4] * 6 for b in blocks)
    np.testing.assert_allclose(sorted(np.mean(b["vertices"], axis=0).tolist() for b in blocks),
                               [[-0.25, -0.25, 0.15], [-0.25, 0.25, 0.15], [0.25, -0.25, 0.15], [0.25, 0.25, 0.15]],
                               atol=FLOAT32_ROUND_OFF)


def test_millimetres_give_the_metre_model(tmp_path):
    metres, millimetres = tmp_path / "m.obj", tmp_path / "mm.obj"
    stack_scene().export(metres)
    stack_scene(1000.0).export(millimetres)
    in_metres = import_file(metres).document
    for options in ({"units": "mm"}, {"scale": 1e-3}):
        in_mm = import_file(millimetres, **options).document
        for a, b in zip(in_metres["blocks"], in_mm["blocks"]):
            assert a["faces"] == b["faces"]
            np.testing.assert_allclose(b["vertices"], a["vertices"], rtol=1e-12, atol=1e-15)


# --- Rhino --------------------------------------------------------------------------------------
def rhino_box(extent, scale):
    (x0, x1), (y0, y1), (z0, z1) = extent
    return rhino3dm.Brep.CreateFromBox(rhino3dm.Box(rhino3dm.BoundingBox(
        scale * x0, scale * y0, scale * z0, scale * x1, scale * y1, scale * z1)))


def rhino_extrusion(extent, scale):
    """B as an Extrusion: its rectangle in the plane z = z0 pushed up to z1."""
    (x0, x1), (y0, y1), (z0, z1) = extent
    corners = [rhino3dm.Point3d(scale * x, scale * y, scale * z0) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    outline = rhino3dm.Polyline(corners + corners[:1]).ToPolylineCurve()
    return rhino3dm.Extrusion.Create(outline, scale * (z1 - z0), True)


@pytest.fixture(scope="module")
def rhino_file(tmp_path_factory):
    """The stack in mm: ground on layer Site::Supports, A a Brep and B an Extrusion on Tower::Wall N."""
    model = rhino3dm.File3dm()
    model.Settings.ModelUnitSystem = rhino3dm.UnitSystem.Millimeters
    layers = {}
    for parent, child in (("Site", "Supports"), ("Tower", "Wall N")):
        top = rhino3dm.Layer()
        top.Name = parent
        index = model.Layers.Add(top)
        sub = rhino3dm.Layer()
        sub.Name = child
        sub.ParentLayerId = model.Layers[index].Id
        layers[parent] = model.Layers.Add(sub)
    for name, layer, geometry, strings in (
            ("slab", "Site", rhino_box(STACK["ground"], 1000.0), {}),
            ("A", "Tower", rhino_box(STACK["A"], 1000.0),
             {"course": "1", "type": "stretcher", "stone": "A", "mason_mark": "T"}),
            ("B", "Tower", rhino_extrusion(STACK["B"], 1000.0), {"course": "2", "type": "header"})):
        attributes = rhino3dm.ObjectAttributes()
        attributes.Name = name
        attributes.LayerIndex = layers[layer]
        for key, value in strings.items():
            attributes.SetUserString(key, value)
        if isinstance(geometry, rhino3dm.Extrusion):
            model.Objects.AddExtrusion(geometry, attributes)
        else:
            model.Objects.AddBrep(geometry, attributes)
    path = tmp_path_factory.mktemp("rhino") / "stack.3dm"
    assert model.Write(str(path), 7)
    return path


def test_rhino_breps_and_extrusions_on_layers_become_blocks_with_entities(rhino_file):
    imported = import_file(rhino_file)
    blocks = {block["id"]: block for block in imported.document["blocks"]}
    assert list(blocks) == ["slab", "A", "B"]
    assert blocks["slab"].get("support") is True and "support" not in blocks["A"]   # layer Site::Supports
    assert blocks["A"]["entity"] == {"course": "1", "type": "stretcher", "stone": "A",
                                     "attributes": {"mason_mark": "T", "layer": "Tower::Wall N"}}
    assert blocks["B"]["entity"] == {"course": "2", "type": "header", "attributes": {"layer": "Tower::Wall N"}}
    for name, bid in (("ground", "slab"), ("A", "A"), ("B", "B")):
        assert sorted(map(len, blocks[bid]["faces"])) == [4] * 6
        np.testing.assert_allclose(np.ptp(blocks[bid]["vertices"], axis=0), [h - l for l, h in STACK[name]],
                                   rtol=1e-12)   # the file's mm read as m
    assert [entry.volume for entry in imported.report] == pytest.approx(
        [box_volume(STACK[name]) for name in ("ground", "A", "B")], rel=1e-12)


def test_a_rhino_stack_stands_and_its_result_gives_the_entities_back(rhino_file):
    doc = Model.from_file(rhino_file).to_dict()
    doc["settings"] = STRICT_STATICS
    model = Model.from_dict(doc)
    result = analyze(model, {"type": "static"})
    assert result.stable
    weight = model.mechanics.mass[~model.mechanics.is_support].sum() * np.linalg.norm(model.gravity)
    assert result.reactions.force.sum(axis=0)[2] == pytest.approx(weight, rel=WEIGHT_RELATIVE)
    assert [block["entity"] for block in result.to_dict()["blocks"]] == [
        {"attributes": {"layer": "Site::Supports"}},
        {"course": "1", "type": "stretcher", "stone": "A", "attributes": {"mason_mark": "T", "layer": "Tower::Wall N"}},
        {"course": "2", "type": "header", "attributes": {"layer": "Tower::Wall N"}}]


def test_a_rhino_mesh_is_a_block_and_a_curved_brep_without_meshes_is_refused(tmp_path):
    model = rhino3dm.File3dm()
    model.Settings.ModelUnitSystem = rhino3dm.UnitSystem.Meters
    box = box_mesh(STACK["A"])
    mesh = rhino3dm.Mesh()
    for x, y, z in box.vertices:
        mesh.Vertices.Add(x, y, z)
    for a, b, c in box.faces:
        mesh.Faces.AddFace(int(a), int(b), int(c))
    attributes = rhino3dm.ObjectAttributes()
    attributes.Name = "M1"
    model.Objects.AddMesh(mesh, attributes)
    meshed = tmp_path / "mesh.3dm"
    assert model.Write(str(meshed), 7)
    imported = import_file(meshed)
    block, = imported.document["blocks"]
    assert block["id"] == "M1" and sorted(map(len, block["faces"])) == [4] * 6
    # a Rhino mesh keeps float32 vertices: 6e-8 of each coordinate
    assert imported.report[0].volume == pytest.approx(box_volume(STACK["A"]), rel=1e-6)
    attributes.Name = "dome"
    model.Objects.AddSphere(rhino3dm.Sphere(rhino3dm.Point3d(0, 0, 3), 1.0), attributes)
    curved = tmp_path / "curved.3dm"
    assert model.Write(str(curved), 7)
    with pytest.raises(ModelError, match=r"curved.3dm: body 'dome': curved faces and no render mesh"):
        import_file(curved)


def test_a_rhino_file_of_curves_only_says_what_it_holds(tmp_path):
    model = rhino3dm.File3dm()
    for k in range(2):
        model.Objects.AddLine(rhino3dm.Point3d(0, 0, k), rhino3dm.Point3d(1, 0, k))
    path = tmp_path / "lines.3dm"
    assert model.Write(str(path), 7)
    with pytest.raises(ModelError, match=r"lines.3dm: no Brep, Extrusion, Surface or Mesh object in the file "
                                         r"\(2 LineCurve; a block instance must be exploded first\)"):
        import_file(path)


# --- refusals -----------------------------------------------------------------------------------
L_OUTER, L_INNER, L_HEIGHT = 0.6, 0.3, 0.4   # m: an L of a 0.6 m square less its 0.3 m corner square


def l_prism():
    """A closed L-shaped prism, its section (0,0)-(0.6,0)-(0.6,0.3)-(0.3,0.3)-(0.3,0.6)-(0,0.6)."""
    a, b = L_OUTER, L_INNER
    section = [(0, 0), (a, 0), (a, b), (b, b), (b, a), (0, a)]
    vertices = [(x, y, 0.0) for x, y in section] + [(x, y, L_HEIGHT) for x, y in section]
    bottom = [(0, k + 1, k) for k in range(1, 5)]                 # fan from corner 0, seen from below
    top = [(6, 6 + k, 7 + k) for k in range(1, 5)]
    sides = [tri for k in range(6) for tri in ((k, (k + 1) % 6, 6 + (k + 1) % 6), (k, 6 + (k + 1) % 6, 6 + k))]
    return trimesh.Trimesh(vertices, bottom + top + sides, process=False)


def flipped_box():
    box = box_mesh(STACK["A"])
    faces = box.faces.copy()
    faces[0] = faces[0][::-1]
    return trimesh.Trimesh(box.vertices, faces, process=False)


def open_box():
    box = box_mesh(STACK["A"])
    return trimesh.Trimesh(box.vertices, box.faces[2:], process=False)   # two triangles of a face gone


@pytest.fixture()
def refused_files(tmp_path):
    files = {}
    for name, mesh in (("V7", l_prism()), ("V12", open_box()), ("F3", flipped_box())):
        scene = stack_scene()
        scene.add_geometry(mesh, node_name=name, geom_name=name)
        files[name] = tmp_path / f"{name}.obj"
        scene.export(files[name])
    return files


def test_an_open_and_a_non_convex_body_are_refused_by_name(refused_files):
    assert l_prism().is_watertight and l_prism().volume > 0   # the L is closed and wound outward
    with pytest.raises(ModelError, match=r"V12.obj 'V12': body 'V12': mesh is not closed \(4 open edges"):
        Model.from_file(refused_files["V12"])
    with pytest.raises(ModelError, match=r"body 'V7': not convex, 150 mm from its hull \(volume 14.3 % below\)"):
        Model.from_file(refused_files["V7"])
    with pytest.raises(ModelError, match=r"body 'F3': faces are not wound alike \(edge \d+-\d+ runs the same way"):
        Model.from_file(refused_files["F3"], hull=True)


def test_an_l_shaped_rhino_extrusion_is_refused_or_hulled_as_the_mesh_is(tmp_path):
    """The L as a .3dm Extrusion: its Brep has an L-shaped (non-convex) top and bottom face."""
    a, b = L_OUTER, L_INNER
    corners = [rhino3dm.Point3d(x, y, 0.0) for x, y in ((0, 0), (a, 0), (a, b), (b, b), (b, a), (0, a), (0, 0))]
    model = rhino3dm.File3dm()
    model.Settings.ModelUnitSystem = rhino3dm.UnitSystem.Meters   # a new File3dm is in mm
    attributes = rhino3dm.ObjectAttributes()
    attributes.Name = "V8"
    model.Objects.AddExtrusion(rhino3dm.Extrusion.Create(rhino3dm.Polyline(corners).ToPolylineCurve(), L_HEIGHT, True),
                               attributes)
    path = tmp_path / "l.3dm"
    assert model.Write(str(path), 7)
    with pytest.raises(ModelError, match=r"body 'V8': not convex, 150 mm from its hull \(volume 14.3 % below\)"):
        import_file(path)
    entry, = import_file(path, hull=True).report
    assert entry.hull_distance == pytest.approx((L_OUTER - L_INNER) / 2, rel=1e-12)
    assert entry.volume == pytest.approx((L_OUTER ** 2 - (L_OUTER - L_INNER) ** 2 / 2) * L_HEIGHT, rel=1e-12)


def test_the_cli_refuses_them_with_exit_2(refused_files, tmp_path, capsys):
    for name, reason in (("V12", "mesh is not closed"), ("V7", "not convex")):
        assert main(["import", str(refused_files[name]), "--out", str(tmp_path / "model.json")]) == 2
        assert f"body '{name}': {reason}" in capsys.readouterr().err
    assert not (tmp_path / "model.json").exists()


def test_with_hull_the_l_becomes_its_hull_and_the_deviation_is_the_closed_form(refused_files, tmp_path, capsys):
    """The hull cuts the corner square along its diagonal, adding half of it to the L; that face's
    centre line is (0.6 - 0.3) / 2 from the L's two inner faces, farther than any other hull point."""
    model = Model.from_file(refused_files["V7"], hull=True)
    entry = {e.id: e for e in model.import_report}["V7"]
    corner = (L_OUTER - L_INNER) ** 2
    hull_area = L_OUTER ** 2 - corner / 2
    assert entry.hull_distance == pytest.approx((L_OUTER - L_INNER) / 2, rel=1e-12)
    assert entry.volume_change == pytest.approx((corner / 2) / hull_area, rel=1e-12)
    assert entry.volume == pytest.approx(hull_area * L_HEIGHT, rel=1e-12)
    block = {b["id"]: b for b in model.to_dict()["blocks"]}["V7"]
    assert sorted(map(len, block["faces"])) == [4] * 5 + [5] * 2   # five sides, two pentagons
    assert main(["import", str(refused_files["V7"]), "--out", str(tmp_path / "model.json"), "--hull"]) == 0
    printed = capsys.readouterr().out
    assert "V7: 0.126 m^3; replaced by its convex hull: the body lies up to 150 mm from its hull" in printed
    assert Model.from_file(tmp_path / "model.json").block_ids == model.block_ids


def test_distance_to_a_surface_passes_over_a_face_of_no_area():
    """The unit square z = 0 as two triangles and a sliver (0, 1, 4) along its side, 4 the side's midpoint."""
    vertices = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0, 0]], float)
    points = np.array([[0.5, 0.5, 0.3], [2.0, 0.5, 0.0], [0.5, -0.4, 0.3]])
    distance = distance_to_surface(points, vertices, [[0, 4, 2], [4, 1, 2], [0, 2, 3], [0, 1, 4]])
    np.testing.assert_allclose(distance, [0.3, 1.0, 0.5], rtol=1e-12)


def write(path, data):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name, data, message", [
    ("empty.obj", b"", r"empty.obj: the file is empty"),
    ("text.glb", b"solid nothing here\n", r"text.glb: not a readable GLB file"),
    ("noise.3dm", b"\x00\x01 not rhino" * 10, r"noise.3dm: not a readable Rhino .3dm file"),
    ("points.obj", b"v 0 0 0\nv 1 0 0\n", r"points.obj: node 'points.obj' is a PointCloud, not a closed surface"),
    ("nan.obj", b"o N1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n",
     r"nan.obj: body 'N1': vertex 3 is not a finite number"),
    ("model.dxf", b"0\nSECTION\n", r"model.dxf: unknown file type '.dxf'"),
])
def test_bad_files_give_a_clear_error(tmp_path, name, data, message):
    with pytest.raises(ModelError, match=message):
        Model.from_file(write(tmp_path / name, data))


def test_too_many_bodies_and_bad_options_are_refused(stack_files):
    with pytest.raises(ModelError, match=r"3 bodies, more than the limit of 2 blocks"):
        import_file(stack_files["obj"], max_blocks=2)
    with pytest.raises(ModelError, match=r"unknown units 'furlong'"):
        import_file(stack_files["obj"], units="furlong")
    with pytest.raises(ModelError, match=r"give units or scale, not both"):
        import_file(stack_files["obj"], units="mm", scale=1e-3)
    with pytest.raises(ModelError, match=r"up must be 'z' or 'y'"):
        import_file(stack_files["obj"], up="x")
    with pytest.raises(ModelError, match=r"a model document takes no import options \(hull\)"):
        Model.from_file(stack_files["obj"].with_suffix(".json"), hull=True)


def test_support_names_replace_the_default(stack_files):
    supports = [[block.get("support", False) for block in import_file(stack_files["obj"], **options).document["blocks"]]
                for options in ({}, {"support_names": "a"}, {"support_names": ("B", "ground")})]
    assert supports == [[False, False, True], [True, False, False], [False, True, True]]   # A, B, ground
