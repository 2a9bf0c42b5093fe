"""Rhino geometry <-> model and result documents (gh_components/extrados_gh/conversions.py) with real rhino3dm objects.

Its Python 2.7 syntax (Rhino 7's IronPython) is checked in tests/test_gh_python27.py.
"""
import math

import pytest
import rhino3dm

from extrados import Model, analyze
from extrados.engine.generators import box, generate
from extrados_gh.conversions import (ConversionError, block_from_brep, block_from_mesh,  # noqa: E402
                                       block_matrices, block_transforms, blocks_from_geometry,
                                       contact_force_lines, joint_resultant_vectors, model_document,
                                       point_load, thrust_polylines, transformed_copy)

#: Round-off on metre-sized coordinates after a few float operations.
ROUNDOFF = 1e-9
#: Round-off on volumes (m³) and lengths computed from single-precision (Point3f) mesh vertices.
FLOAT32 = 1e-6


def rhino_mesh(vertices, faces, scale=1.0):
    """A rhino3dm Mesh built vertex by vertex, its vertices times ``scale``; polygons of more than 4 corners are
    fanned into triangles."""
    mesh = rhino3dm.Mesh()
    for x, y, z in vertices:
        mesh.Vertices.AddPoint3d(scale * x, scale * y, scale * z)  # double precision (Add keeps Point3f)
    for face in faces:
        if len(face) in (3, 4):
            mesh.Faces.AddFace(*face)
        else:
            for k in range(1, len(face) - 1):
                mesh.Faces.AddFace(face[0], face[k], face[k + 1])
    return mesh


def box_mesh(x=(0.0, 1.0), y=(0.0, 2.0), z=(0.0, 3.0), drop_faces=0):
    vertices, faces = box(x, y, z)
    return rhino_mesh(vertices, faces[drop_faces:])


def mesh_vertices(mesh):
    return [(p.X, p.Y, p.Z) for p in (mesh.Vertices[i] for i in range(len(mesh.Vertices)))]


# --- geometry -> block ----------------------------------------------------------

def test_box_mesh_becomes_a_block_with_the_right_volume_and_mass():
    block = block_from_mesh(box_mesh(), "b0")
    assert block["id"] == "b0" and block["material"] == "stone" and block["support"] is False
    assert len(block["vertices"]) == 8 and len(block["faces"]) == 6
    assert all(len(face) == 4 for face in block["faces"])
    model = Model.from_dict(model_document([block], materials={"stone": {"density": 1800.0}}))
    assert model.mechanics.volume[0] == pytest.approx(6.0, abs=ROUNDOFF)
    assert model.mechanics.mass[0] == pytest.approx(6.0 * 1800.0, abs=1e3 * ROUNDOFF)
    assert list(model.mechanics.position0[0]) == pytest.approx([0.5, 1.0, 1.5], abs=ROUNDOFF)


def test_triangulated_inward_mesh_with_repeated_corners_is_welded_merged_and_turned_outward():
    vertices, faces = box((0.0, 1.0), (0.0, 1.0), (0.0, 1.0))
    # one copy of each corner per face (as Rhino meshes with per-face normals have), inward triangles
    points, triangles = [], []
    for quad in faces:
        base = len(points)
        points += [vertices[i] for i in quad]
        triangles += [[base + 2, base + 1, base + 0], [base + 3, base + 2, base + 0]]
    mesh = rhino_mesh(points, triangles)
    merged = block_from_mesh(mesh, "w")
    assert len(merged["vertices"]) == 8 and sorted(len(f) for f in merged["faces"]) == [4] * 6
    kept = block_from_mesh(mesh, "t", merge_coplanar=False)
    assert len(kept["faces"]) == 12
    for block in (merged, kept):
        model = Model.from_dict(model_document([block]))
        assert model.mechanics.volume[0] == pytest.approx(1.0, abs=ROUNDOFF)


def test_brep_box_becomes_a_block():
    bbox = rhino3dm.BoundingBox(rhino3dm.Point3d(1.0, 0.0, 0.0), rhino3dm.Point3d(2.0, 0.5, 0.25))
    brep = rhino3dm.Brep.CreateFromBox(rhino3dm.Box(bbox))
    assert brep.IsSolid
    block = block_from_brep(brep, "slab", support=True)
    assert len(block["vertices"]) == 8 and sorted(len(f) for f in block["faces"]) == [4] * 6
    assert block["support"] is True
    model = Model.from_dict(model_document([dict(block, support=False)]))
    assert model.mechanics.volume[0] == pytest.approx(0.125, abs=ROUNDOFF)


def test_mixed_meshes_and_breps_with_supports_by_id():
    bbox = rhino3dm.BoundingBox(rhino3dm.Point3d(-1.0, -1.0, -0.5), rhino3dm.Point3d(2.0, 3.0, 0.0))
    ground = rhino3dm.Brep.CreateFromBox(rhino3dm.Box(bbox))
    blocks = blocks_from_geometry([box_mesh(), ground], ids=["top", "ground"], supports=["ground"])
    assert [b["support"] for b in blocks] == [False, True]
    doc = model_document(blocks, loads=[point_load("top", rhino3dm.Point3d(0.5, 1.0, 3.0),
                                                   rhino3dm.Vector3d(0.0, 0.0, -100.0), live=True)])
    model = Model.from_dict(doc)
    assert model.block_ids == ["top", "ground"] or list(model.block_ids) == ["top", "ground"]
    assert doc["loads"][0] == {"kind": "point", "block": "top", "point": [0.5, 1.0, 3.0],
                               "force": [0.0, 0.0, -100.0], "live": True}
    assert [b["id"] for b in blocks_from_geometry([box_mesh(), box_mesh(x=(2.0, 3.0))])] == ["b0", "b1"]


def test_open_mesh_is_refused_naming_the_block():
    with pytest.raises(ConversionError) as caught:
        block_from_mesh(box_mesh(drop_faces=1), "b3")
    assert caught.value.block_id == "b3"
    assert str(caught.value) == "block 'b3': mesh is not closed (4 naked edges)"


def test_a_brep_flat_to_the_document_tolerance_is_a_block():
    """A box whose corner sits 1 um off its faces' planes (a model drawn to 0.001 m): refused to the libraries'
    default flatness (about 2e-10), a block to the document's tolerance, which Blocks and Hops pass (issue 22)."""
    vertices, faces = box((0.0, 1.0), (0.0, 1.0), (0.0, 1.0))
    lifted = [(x, y, z + (1e-6 if (x, y, z) == (1.0, 1.0, 1.0) else 0.0)) for x, y, z in vertices]
    brep = rhino3dm.Brep.CreateFromMesh(rhino_mesh(lifted, faces), False)
    assert brep.IsSolid
    with pytest.raises(ConversionError, match="not planar"):
        block_from_brep(brep, "nearly")
    block = block_from_brep(brep, "nearly", tolerance=1e-3)
    assert len(block["faces"]) == 6 and len(block["vertices"]) == 8


def test_open_brep_and_curved_brep_are_refused():
    bbox = rhino3dm.BoundingBox(rhino3dm.Point3d(0.0, 0.0, 0.0), rhino3dm.Point3d(1.0, 1.0, 1.0))
    face = rhino3dm.Brep.CreateFromBox(rhino3dm.Box(bbox)).Faces[0].DuplicateFace(False)
    with pytest.raises(ConversionError, match="block 'open': brep is not a closed solid"):
        block_from_brep(face, "open")
    cylinder = rhino3dm.Cylinder(rhino3dm.Circle(1.0), 2.0)
    with pytest.raises(ConversionError, match="block 'round': brep face .* not planar|curved"):
        block_from_brep(rhino3dm.Brep.CreateFromCylinder(cylinder, True, True), "round")


def test_non_finite_and_degenerate_meshes_are_refused():
    vertices, faces = box((0.0, 1.0), (0.0, 1.0), (0.0, 1.0))
    vertices[3] = [float("nan"), 0.0, 1.0]
    with pytest.raises(ConversionError, match="block 'nan': mesh has a vertex with a non-finite coordinate"):
        block_from_mesh(rhino_mesh(vertices, faces), "nan")
    flat, flat_faces = box((0.0, 1.0), (0.0, 1.0), (0.0, 1.0))
    flat = [[x, y, 0.0] for x, y, _ in flat]
    with pytest.raises(ConversionError, match="block 'flat': mesh .*degenerate"):
        block_from_mesh(rhino_mesh(flat, flat_faces), "flat")
    with pytest.raises(ConversionError, match="block 'empty': mesh is degenerate"):
        block_from_mesh(rhino3dm.Mesh(), "empty")


def test_model_document_checks_materials_and_ids():
    block = block_from_mesh(box_mesh(), "a", material="granite")
    with pytest.raises(ConversionError, match="block 'a': material 'granite'"):
        model_document([block])
    with pytest.raises(ConversionError, match="block 'a': the id is used twice"):
        model_document([block, block], materials={"granite": {"density": 2700.0}})
    doc = model_document([block], materials={"granite": {"density": 2700.0}}, gravity=[0.0, 0.0, -10.0],
                         settings={"solver": "apgd"})
    assert doc["format"] == "extrados.model/1" and doc["default_joint"] == "dry"
    assert set(doc) == {"format", "units", "gravity", "materials", "joints", "default_joint", "blocks",
                        "settings"}
    assert Model.from_dict(doc).mechanics.mass[0] == pytest.approx(6.0 * 2700.0)


# --- round trip of a generated arch ------------------------------------------------

def test_generated_arch_through_rhino_meshes_gives_the_same_model():
    original = generate("arch", voussoirs=6)
    meshes = [rhino_mesh(b["vertices"], b["faces"]) for b in original["blocks"]]
    ids = [b["id"] for b in original["blocks"]]
    blocks = blocks_from_geometry(meshes, ids=ids, supports=[b["support"] for b in original["blocks"]])
    doc = model_document(blocks, materials=original["materials"], joints=original["joints"],
                         default_joint=original["default_joint"], gravity=original["gravity"])
    rebuilt, reference = Model.from_dict(doc).mechanics, Model.from_dict(original).mechanics
    assert list(rebuilt.block_ids) == list(reference.block_ids)
    assert list(rebuilt.volume) == pytest.approx(list(reference.volume), abs=ROUNDOFF)
    assert list(rebuilt.is_support) == list(reference.is_support)
    for new, old in zip(blocks, original["blocks"]):
        assert len(new["faces"]) == len(old["faces"])


# --- result -> geometry ---------------------------------------------------------

@pytest.fixture(scope="module")
def arch_result():
    return analyze(generate("arch", voussoirs=6)).to_dict()


def test_contact_force_lines_have_the_force_length(arch_result):
    scale = 1e-3
    loaded = [c for c in arch_result["contacts"] if math.hypot(*c["force"]) > 0.0]
    lines = contact_force_lines(arch_result, scale, rhino3dm)
    assert len(lines) == len(loaded) > 0
    for (line, state), contact in zip(lines, loaded):
        assert isinstance(line, rhino3dm.Line) and state == contact["state"]
        assert line.Length == pytest.approx(math.hypot(*contact["force"]) * scale, rel=ROUNDOFF)
        assert [line.From.X, line.From.Y, line.From.Z] == pytest.approx(contact["point"], abs=ROUNDOFF)


def test_joint_resultants_start_at_the_centres(arch_result):
    vectors = joint_resultant_vectors(arch_result, 1e-3, rhino3dm)
    assert len(vectors) == len(arch_result["interfaces"]) > 0
    for (start, vector, line), interface in zip(vectors, arch_result["interfaces"]):
        assert [start.X, start.Y, start.Z] == pytest.approx(interface["centre"], abs=ROUNDOFF)
        assert [vector.X, vector.Y, vector.Z] == pytest.approx([f * 1e-3 for f in interface["force"]], abs=ROUNDOFF)
        assert line.Length == pytest.approx(math.hypot(*interface["force"]) * 1e-3, rel=ROUNDOFF)


def test_thrust_polylines_carry_the_result_points(arch_result):
    polylines = thrust_polylines(arch_result, rhino3dm)
    assert [name for name, _ in polylines] == [t["name"] for t in arch_result["thrust_lines"]]
    for (_, polyline), thrust in zip(polylines, arch_result["thrust_lines"]):
        assert polyline.Count == len(thrust["points"])
        for k, point in enumerate(thrust["points"]):
            p = polyline[k]
            assert [p.X, p.Y, p.Z] == pytest.approx(point, abs=ROUNDOFF)


def test_block_transforms_move_a_mesh_from_the_first_frame():
    half = math.sqrt(0.5)
    # a quarter turn about z and a lift, from an already-posed first frame
    result = {"blocks": [{"id": "a"}, {"id": "b"}],
              "frames": [{"t": 0.0, "positions": [[0.5, 0.5, 0.5], [0.0, 0.0, 0.0]],
                          "orientations": [[1.0, 0.0, 0.0, 0.0], [half, half, 0.0, 0.0]]},
                         {"t": 0.1, "positions": [[0.5, 0.5, 1.5], [0.0, 0.0, 0.0]],
                          "orientations": [[half, 0.0, 0.0, half], [half, half, 0.0, 0.0]]}]}
    matrices = block_matrices(result, -1)
    identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    assert [v for row in matrices["b"] for v in row] == pytest.approx(identity, abs=ROUNDOFF)
    transform = block_transforms(result, 1, rhino3dm)["a"]
    mesh = box_mesh((0.0, 1.0), (0.0, 1.0), (0.0, 1.0))
    moved = transformed_copy(mesh, transform)
    assert mesh_vertices(mesh)[1] == pytest.approx((1.0, 0.0, 0.0))
    # (1, 0, 0) is (0.5, -0.5, -0.5) from the centre; turned a quarter about z: (0.5, 0.5, -0.5)
    assert mesh_vertices(moved)[1] == pytest.approx((1.0, 1.0, 1.0), abs=FLOAT32)
    with pytest.raises(ConversionError, match="no frames"):
        block_matrices({"blocks": [], "frames": []}, 0)



def test_the_grasshopper_defaults_are_the_engines():
    """extrados_gh cannot import the engine (Rhino 7 runs IronPython): its defaults for what a user leaves
    out (density, friction, material and joint names, g) must equal the model schema's."""
    from extrados.engine.model import BLOCK_DEFAULTS, MODEL_DEFAULTS
    from extrados_gh import conversions

    assert MODEL_DEFAULTS["materials"] == {conversions.DEFAULT_MATERIAL: {"density": conversions.DEFAULT_DENSITY}}
    assert MODEL_DEFAULTS["joints"] == {conversions.DEFAULT_JOINT: {"law": "coulomb",
                                                                   "friction": conversions.DEFAULT_FRICTION}}
    assert MODEL_DEFAULTS["gravity"] == [0.0, 0.0, -conversions.STANDARD_GRAVITY]
    assert BLOCK_DEFAULTS["material"] == conversions.DEFAULT_MATERIAL
    vertices, faces = box((0.0, 1.0), (0.0, 1.0), (0.0, 1.0))
    bare = conversions.model_document([{"id": "a", "vertices": vertices, "faces": faces, "material": "stone"}])
    assert bare["materials"] == MODEL_DEFAULTS["materials"] and bare["joints"] == MODEL_DEFAULTS["joints"]
    assert bare["gravity"] == MODEL_DEFAULTS["gravity"]
