"""A block given by its points: the model builds their convex hull, merges its coplanar triangles into
polygon faces (engine.geometry.hull) and goes on as for any block; bad points are refused at their path."""
import itertools

import numpy as np
import pytest

from blocks import document, ground
from extrados import Model, ModelError, analyze
from server_harness import running_service

BOX = np.array(list(itertools.product([0.0, 0.6], [0.0, 0.4], [0.0, 0.3])))   # corners of a 0.6 x 0.4 x 0.3 m box


def inside(n, lo, hi, seed=2):
    """n points strictly inside the box [lo, hi]."""
    return np.random.default_rng(seed).uniform(np.add(lo, 0.01), np.subtract(hi, 0.01), size=(n, 3))


def test_a_box_from_its_corners_and_inner_points_has_six_quads_and_its_volume():
    points = np.vstack([inside(10, BOX.min(axis=0), BOX.max(axis=0)), BOX, inside(5, BOX.min(axis=0), BOX.max(axis=0))])
    model = Model.from_dict(document([ground(), {"id": "stone", "points": points.tolist()}]))
    block = model.to_dict()["blocks"][1]
    assert sorted(map(tuple, block["vertices"])) == sorted(map(tuple, BOX.tolist()))   # the inner points left out
    assert [len(face) for face in block["faces"]] == [4] * 6 and "points" not in block
    assert model.mechanics.volume[1] == pytest.approx(0.6 * 0.4 * 0.3, rel=1e-12)
    assert model.mechanics.position0[1] == pytest.approx([0.3, 0.2, 0.15], rel=1e-12)


def voussoir(radius, thickness, azimuth, elevation):
    """The 8 corners of a dome's voussoir: inner and outer radius x two azimuths x two elevations (rad)."""
    return [[r * np.cos(e) * np.cos(a), r * np.cos(e) * np.sin(a), r * np.sin(e)]
            for r in (radius - thickness / 2, radius + thickness / 2) for a in azimuth for e in elevation]


#: The faces a user wrote by hand for `voussoir`'s corners before blocks could be given by points.
VOUSSOIR_FACES = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]]


def dome(rings=3, segments=8, radius=2.0, thickness=0.3, by_points=True):
    """A shallow dome of rings x segments voussoirs (up to 60 degrees, open at the top) on a ring of
    support voussoirs below 0 degrees; each voussoir given by its 8 corners or by vertices and faces."""
    azimuths = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    elevations = np.radians(np.linspace(-10.0, 60.0, rings + 2))
    blocks = []
    for ring in range(rings + 1):
        for k in range(segments):
            corners = voussoir(radius, thickness, azimuths[k:k + 2], elevations[ring:ring + 2])
            shape = {"points": corners} if by_points else {"vertices": corners, "faces": VOUSSOIR_FACES}
            blocks.append({"id": f"r{ring}s{k}", **shape, **({"support": True} if ring == 0 else {})})
    return document(blocks, friction=0.7)


def test_a_dome_of_voussoirs_given_by_points_stands_and_carries_its_weight():
    by_points, by_hand = Model.from_dict(dome()), Model.from_dict(dome(by_points=False))
    assert all([len(face) for face in block["faces"]] == [4] * 6 for block in by_points.to_dict()["blocks"])
    assert by_points.mechanics.volume == pytest.approx(by_hand.mechanics.volume, rel=1e-12)
    result = analyze(by_points, {"type": "static"})
    assert result.stable
    weight = 9.81 * by_points.mechanics.mass[~by_points.mechanics.is_support].sum()
    assert result.reactions.force[:, 2].sum() == pytest.approx(weight, rel=1e-6)   # equilibrium, vertical


def test_a_model_of_points_blocks_round_trips():
    model = Model.from_dict(dome(rings=1, segments=4))
    again = Model.from_json(model.to_json())
    assert again.to_dict() == model.to_dict()
    assert again.mechanics.volume.tolist() == model.mechanics.volume.tolist()
    given = dome(rings=1, segments=4)
    built = Model.from_dict(dict(given, blocks=given["blocks"][:1]))   # a document has at least one block
    for block in given["blocks"][1:]:
        built.add_block(id=block["id"], points=block["points"], support=block.get("support", False))
    assert built.to_dict() == model.to_dict()


FAR = 1e14   # m: a 0.6 m box this far from the origin is beyond qhull's rounding, ten times nearer the checks'
BAD = [
    ({"points": BOX[:3].tolist()}, "blocks[1].points", "3 items, fewer than the 4 needed"),
    ({"points": (BOX * [1.0, 1.0, 0.0]).tolist()}, "blocks[1].points", "lie in one plane"),
    ({"points": [[0.1 * k, 0.2 * k, 0.3 * k] for k in range(5)]}, "blocks[1].points", "lie on one line"),
    ({"points": [[0.0, 0.0, 0.0]] * 4}, "blocks[1].points", "coincide"),
    ({"points": [*BOX[:2].tolist(), [0.0, float("nan"), 0.0], *BOX[3:].tolist()]}, "blocks[1].points[2][1]",
     "not a finite number"),
    ({"points": BOX.tolist(), "vertices": BOX.tolist()}, "blocks[1].vertices", "not both"),
    ({"points": BOX.tolist(), "faces": [[0, 1, 2]] * 4}, "blocks[1].faces", "not both"),
    ({"vertices": BOX.tolist()}, "blocks[1].faces", "vertices without faces"),
    ({}, "blocks[1]", "needs its vertices and faces, or its points"),
    ({"points": (BOX + FAR).tolist()}, "blocks[1].points", "qhull cannot build the hull"),
    ({"points": (BOX + FAR / 10).tolist()}, "blocks[1].points", "has zero area (the hull's faces["),
]


@pytest.mark.parametrize("shape, path, message", BAD)
def test_bad_points_are_refused_at_their_path(shape, path, message):
    with pytest.raises(ModelError) as error:
        Model.from_dict(document([ground(), {"id": "stone", **shape}]))
    assert error.value.path == path and message in str(error.value)


def test_the_service_analyses_a_points_block_and_bounds_its_hull(tmp_path):
    model = document([ground(), {"id": "stone", "points": BOX.tolist()}])
    with running_service(data_dir=str(tmp_path), max_block_faces=12, max_face_corners=16) as client:
        status, body, _ = client.post("/v1/analyses", {"model": model, "analysis": {"type": "static"}})
        assert status == 200 and body["stable"] is True
        many = np.vstack([BOX, inside(3, BOX.min(axis=0), BOX.max(axis=0))])   # 11 points: up to 18 triangles
        status, body, _ = client.post("/v1/analyses", {"model": document([ground(), {"id": "stone",
                                                                                      "points": many.tolist()}])})
        assert status == 413 and "--max-block-faces" in body["error"]["message"]
        assert body["error"]["path"] == "model.blocks[1].points"
