"""Model documents: mass properties against closed forms, round trip, and refusal of bad input."""
import copy
import json

import numpy as np
import pytest

from extrados import Model, ModelError
from tests.blocks import box_block, document, ground


def test_box_mass_properties_match_closed_form():
    model = Model.from_dict(document([box_block("b", (0, 0, 0), (2.0, 1.0, 3.0)), ground()], density=1000.0))
    mech = model.mechanics
    m = 1000.0 * 6.0
    assert mech.mass[0] == pytest.approx(m, rel=1e-12)
    np.testing.assert_allclose(mech.position0[0], [1.0, 0.5, 1.5], atol=1e-12)
    expected = m / 12.0 * np.diag([1.0 + 9.0, 4.0 + 9.0, 4.0 + 1.0])
    np.testing.assert_allclose(mech.inertia_body[0], expected, rtol=1e-12, atol=1e-9)


def test_tetrahedron_mass_properties_match_closed_form():
    a, b, c, rho = 1.0, 2.0, 3.0, 500.0
    tet = {"id": "t", "vertices": [[0, 0, 0], [a, 0, 0], [0, b, 0], [0, 0, c]],
           "faces": [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]}   # orientation fixed automatically
    model = Model.from_dict(document([tet, ground()], density=rho))
    m = rho * a * b * c / 6.0
    mech = model.mechanics
    assert mech.mass[0] == pytest.approx(m, rel=1e-12)
    np.testing.assert_allclose(mech.position0[0], [a / 4, b / 4, c / 4], atol=1e-12)
    inertia = mech.inertia_body[0]
    assert inertia[0, 0] == pytest.approx(3.0 * m * (b * b + c * c) / 80.0, rel=1e-10)
    assert inertia[1, 1] == pytest.approx(3.0 * m * (a * a + c * c) / 80.0, rel=1e-10)
    assert inertia[0, 1] == pytest.approx(m * a * b / 80.0, rel=1e-10)
    assert inertia[1, 2] == pytest.approx(m * b * c / 80.0, rel=1e-10)


def convex_hull_blocks(count, offset, seed=1):
    """``count`` random convex polyhedra (vertices, outward triangle faces) of about a metre, shifted by
    ``offset`` (m)."""
    from scipy.spatial import ConvexHull

    rng = np.random.default_rng(seed)
    blocks = []
    for _ in range(count):
        points = rng.normal(size=(12, 3)) * [1.0, 2.0, 0.5]
        hull = ConvexHull(points)
        used = np.unique(hull.simplices)
        local = np.full(len(points), -1)
        local[used] = np.arange(used.size)
        vertices = points[used]
        faces = []
        for simplex in hull.simplices:
            a, b, c = vertices[local[simplex]]
            outward = np.dot(np.cross(b - a, c - a), a - vertices.mean(axis=0)) > 0.0
            faces.append(list(local[simplex] if outward else local[simplex][::-1]))
        blocks.append((vertices + offset, faces))
    return blocks


def test_mass_properties_of_many_blocks_equal_trimeshs_and_do_not_depend_on_where_a_block_is():
    """engine.geometry.polyhedron.unit_mass_properties integrates all blocks in one pass: trimesh's per-mesh
    integrals agree to rounding near the origin, and 1 km away the same blocks keep their volume and inertia
    to 1e-12 (trimesh, integrating about the origin, keeps 6 digits there)."""
    import trimesh

    from extrados.engine.geometry.polyhedron import triangulate, unit_mass_properties

    near = convex_hull_blocks(40, np.zeros(3))
    volume, centre, inertia = unit_mass_properties(near)
    for k, (vertices, faces) in enumerate(near):
        expected = trimesh.triangles.mass_properties(vertices[triangulate(faces)], density=1.0)
        assert volume[k] == pytest.approx(expected.volume, rel=1e-12)
        np.testing.assert_allclose(centre[k], expected.center_mass, rtol=0, atol=1e-12)
        np.testing.assert_allclose(inertia[k], expected.inertia, rtol=0, atol=1e-12 * np.abs(expected.inertia).max())
    shift = np.array([1000.0, -700.0, 300.0])
    far_volume, far_centre, far_inertia = unit_mass_properties(convex_hull_blocks(40, shift))
    np.testing.assert_allclose(far_volume, volume, rtol=1e-12)
    np.testing.assert_allclose(far_centre, centre + shift, rtol=0, atol=1e-9)
    np.testing.assert_allclose(far_inertia, inertia, rtol=0, atol=1e-12 * np.abs(inertia).max())


def test_faces_are_oriented_outward_automatically():
    block = box_block("b", (0, 0, 0), (1, 1, 1))
    block["faces"] = [f[::-1] for f in block["faces"]]        # all inward
    doc = Model.from_dict(document([block, ground()])).to_dict()
    v = np.asarray(doc["blocks"][0]["vertices"])
    for face in doc["blocks"][0]["faces"]:
        p = v[face]
        normal = np.cross(p[1] - p[0], p[2] - p[0])
        assert np.dot(normal, p.mean(axis=0) - v.mean(axis=0)) > 0


def test_model_document_round_trips_losslessly():
    doc = document([box_block("a", (0, 0, 0), (1, 1, 1)), ground()],
                   loads=[{"kind": "point", "block": "a", "point": [0.5, 0.5, 1.0], "force": [0, 0, -10.0],
                           "live": True}], settings={"envelope": 0.002})
    once = Model.from_dict(doc).to_dict()
    twice = Model.from_json(json.dumps(once)).to_dict()
    assert once == twice
    assert once["loads"] == doc["loads"] and once["settings"] == doc["settings"]


def test_model_built_from_compas_mesh():
    from compas.datastructures import Mesh

    model = Model()
    model.add_block(Mesh.from_vertices_and_faces(*_box(0, 0, -1, 4, 4, 0)), id="ground", support=True)
    model.add_block(Mesh.from_vertices_and_faces(*_box(0, 0, 0, 1, 1, 1)), id="top")
    assert model.block_ids == ["ground", "top"]
    assert model.mechanics.mass[1] == pytest.approx(2000.0)


def _box(x0, y0, z0, x1, y1, z1):
    block = box_block("x", (x0, y0, z0), (x1, y1, z1))
    return block["vertices"], block["faces"]


def _bad(mutate):
    doc = document([box_block("a", (0, 0, 0), (1, 1, 1)), box_block("b", (0, 0, 1), (1, 1, 2)), ground()])
    mutate(doc)
    with pytest.raises(ModelError) as info:
        Model.from_dict(doc)
    return info.value


def test_open_mesh_is_refused_with_block_id():
    error = _bad(lambda d: d["blocks"][1]["faces"].pop())
    assert error.block == "b" and error.path.startswith("blocks[1]") and "not closed" in str(error)


def test_non_convex_block_is_refused_naming_the_face():
    def dent(doc):
        doc["blocks"][0]["vertices"][6] = [0.6, 0.6, 0.5]   # pull one top corner inside
    error = _bad(dent)
    assert error.block == "a" and ("not convex" in str(error) or "not planar" in str(error))
    assert "faces[" in error.path


def test_zero_volume_block_is_refused():
    def flatten(doc):
        for v in doc["blocks"][0]["vertices"]:
            v[2] = 0.0
    error = _bad(flatten)
    assert error.block == "a"


def test_nan_coordinate_is_refused_with_path():
    error = _bad(lambda d: d["blocks"][0]["vertices"][3].__setitem__(1, float("nan")))
    assert error.path == "blocks[0].vertices[3][1]"


def test_duplicate_ids_are_refused():
    error = _bad(lambda d: d["blocks"][1].__setitem__("id", "a"))
    assert "duplicate" in str(error) and error.path == "blocks[1].id"


def test_unknown_references_are_refused():
    assert "unknown material" in str(_bad(lambda d: d["blocks"][0].__setitem__("material", "granite")))
    assert _bad(lambda d: d.__setitem__("default_joint", "wet")).path == "default_joint"
    error = _bad(lambda d: d.__setitem__("loads", [{"kind": "point", "block": "zz", "point": [0, 0, 0],
                                                    "force": [0, 0, 1]}]))
    assert error.path == "loads[0].block" and "zz" in str(error)
    error = _bad(lambda d: d.__setitem__("joint_assignments", [{"blocks": ["a", "q"], "joint": "dry"}]))
    assert error.path == "joint_assignments[0].blocks[1]"


def test_unknown_fields_are_refused_at_their_own_path():
    error = _bad(lambda d: d["blocks"][0].__setitem__("colour", "red"))
    assert error.message == "unknown field 'colour'" and error.path == "blocks[0].colour" and error.block == "a"
    error = _bad(lambda d: d.setdefault("settings", {}).__setitem__("speed", 1))
    assert error.message == "unknown field 'speed'" and error.path == "settings.speed"


def test_the_schema_gives_what_a_document_leaves_out():
    """A document with blocks alone takes gravity, the material 'stone', the dry joint and the settings
    from the schema's defaults: the same mechanics as the document that writes them out."""
    blocks = [box_block("a", (0.0, 0.0, 0.5), (1.0, 1.0, 1.0)), ground()]
    bare = Model.from_dict({"format": "extrados.model/1", "blocks": blocks})
    written = Model.from_dict({"format": "extrados.model/1", "units": "SI", "gravity": [0.0, 0.0, -9.81],
                               "materials": {"stone": {"density": 2000.0}},
                               "joints": {"dry": {"law": "coulomb", "friction": 0.6}}, "default_joint": "dry",
                               "settings": {"envelope": 0.005, "compliance": 1e-10, "solver": "auto",
                                            "max_iterations": 5000},
                               "blocks": blocks})
    assert bare.settings == written.settings
    assert np.array_equal(bare.mechanics.mass, written.mechanics.mass)
    assert np.array_equal(bare.mechanics.dead_wrench, written.mechanics.dead_wrench)
    assert bare.joint_table["friction"].tolist() == written.joint_table["friction"].tolist() == [0.6]
    assert bare.to_dict() == {"format": "extrados.model/1", "blocks": bare.to_dict()["blocks"]}


def test_malformed_json_is_refused():
    with pytest.raises(ModelError, match="malformed JSON"):
        Model.from_json('{"format": "extrados.model/1", "blocks": [}')


def test_document_is_not_modified_by_loading():
    doc = document([box_block("a", (0, 0, 0), (1, 1, 1)), ground()])
    before = copy.deepcopy(doc)
    Model.from_dict(doc)
    assert doc == before


def test_overlapping_blocks_are_refused_naming_the_pair_and_depth():
    from extrados import analyze

    doc = document([box_block("a", (0, 0, 0), (1, 1, 1)), box_block("b", (0, 0, 0.98), (1, 1, 1.98)), ground()])
    with pytest.raises(ModelError) as info:
        analyze(Model.from_dict(doc))
    message = str(info.value)
    assert "'a'" in message and "'b'" in message and "0.02" in message
    doc["blocks"][1] = box_block("b", (0, 0, 0.999), (1, 1, 1.999))   # 1 mm: within the 5 mm envelope
    assert analyze(Model.from_dict(doc)).stable


def test_support_motion_may_only_move_existing_supports():
    motion = {"kind": "sine", "direction": [1, 0, 0], "frequency": 1.0, "amplitude": 0.01}
    assert _bad(lambda d: d.__setitem__("support_motion", {**motion, "blocks": ["zz"]})).path == \
        "support_motion.blocks[0]"
    error = _bad(lambda d: d.__setitem__("support_motion", {**motion, "blocks": ["a"]}))
    assert "not a support" in str(error)


def test_a_velocity_support_motion_needs_its_velocity_vector():
    error = _bad(lambda d: d.__setitem__("support_motion", {"kind": "velocity", "duration": 1.0}))
    assert error.path == "support_motion" and "velocity" in str(error)
    error = _bad(lambda d: d.__setitem__("support_motion", {"kind": "velocity", "velocity": [0.0, 1.0]}))
    assert error.path == "support_motion.velocity"
