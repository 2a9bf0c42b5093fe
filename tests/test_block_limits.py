"""Block size limits and validation in memory linear in a block's size (issue 16, item 1).

A block with a 20,002-gon face made the service grow to 23 GB (every face plane against every
vertex at once); faces over 2,047 corners raised a bare ValueError when the model was packed.
"""
import json
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from blocks import box_block, document, ground
from extrados import Model
from extrados.engine.errors import ModelError
from extrados.engine.io.model_document import MAX_FACE_CORNERS, MAX_FACES
from server_harness import running_service


def prism(corners, block_id="prism"):
    """A unit-radius prism of height 1 on a regular ``corners``-gon: 2 corners-gons and corners quads."""
    angle = np.linspace(0.0, 2.0 * np.pi, corners, endpoint=False)
    bottom = np.stack([np.cos(angle), np.sin(angle), np.zeros(corners)], axis=1)
    vertices = np.concatenate([bottom, bottom + [0.0, 0.0, 1.0]]).tolist()
    faces = [list(range(corners))[::-1], list(range(corners, 2 * corners))]
    faces += [[i, (i + 1) % corners, corners + (i + 1) % corners, corners + i] for i in range(corners)]
    return {"id": block_id, "vertices": vertices, "faces": faces}


def sphere_hull(n_faces):
    """A convex block of ``n_faces`` triangles: the hull of n_faces / 2 + 2 points on the unit sphere."""
    points = np.random.default_rng(1).normal(size=(n_faces // 2 + 2, 3))
    points /= np.linalg.norm(points, axis=1)[:, None]
    return {"id": "sphere", "vertices": points.tolist(), "faces": ConvexHull(points).simplices.tolist()}


def model_of(block):
    return {"format": "extrados.model/1", "units": "SI", "blocks": [block]}


@pytest.mark.parametrize("corners, path", [(20_002, "blocks[0].vertices"),
                                           (MAX_FACE_CORNERS + 1, "blocks[0].faces[0]")])
def test_oversized_block_is_a_model_error_naming_the_field(corners, path):
    with pytest.raises(ModelError) as caught:
        Model.from_dict(model_of(prism(corners)))
    assert caught.value.path == path and caught.value.block == "prism"
    assert "more than the limit" in caught.value.message and len(caught.value.message) < 200


def test_largest_face_packs():
    """A face of MAX_FACE_CORNERS corners validates and packs (feature ids give corners 11 bits)."""
    assert Model.from_dict(model_of(prism(MAX_FACE_CORNERS))).mechanics.n_blocks == 1


def test_add_block_refuses_an_oversized_face():
    block = prism(MAX_FACE_CORNERS + 1)
    with pytest.raises(ModelError) as caught:
        Model().add_block(vertices=block["vertices"], faces=block["faces"])
    assert caught.value.path == "blocks[0].faces[0]"


def test_validation_memory_is_linear_in_the_block():
    """MAX_FACES faces and 2050 vertices: 8.4e6 vertex-face pairs, 540 MB when held at once."""
    block = sphere_hull(MAX_FACES)
    assert len(block["faces"]) == MAX_FACES
    tracemalloc.start()
    try:
        Model.from_dict(model_of(block))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 150e6


def test_cli_refuses_an_oversized_face_with_exit_2(tmp_path):
    path = tmp_path / "prism.json"
    path.write_text(json.dumps(model_of(prism(MAX_FACE_CORNERS + 1))))
    done = subprocess.run([sys.executable, "-m", "extrados", "analyze", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2 and "blocks[0].faces[0]" in done.stderr and "Traceback" not in done.stderr


def test_service_limits_name_their_flags(tmp_path):
    cube = document([ground(), box_block("cube", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0))])
    with running_service(data_dir=str(tmp_path), max_face_corners=3) as client:
        status, body, _ = client.post("/v1/analyses", {"model": cube})
        assert status == 413 and "--max-face-corners" in body["error"]["message"]
        assert body["error"]["path"] == "model.blocks[0].faces[0]" and body["error"]["block"] == "ground"
    with running_service(data_dir=str(tmp_path), max_block_faces=5) as client:
        status, body, _ = client.post("/v1/analyses", {"model": cube})
        assert status == 413 and "--max-block-faces" in body["error"]["message"]
        assert body["error"]["path"] == "model.blocks[0].faces"


@pytest.mark.parametrize("flag", ["--max-block-faces", "--max-face-corners"])
def test_service_flags_cannot_pass_the_engine_limits(flag):
    from extrados.server.serve import config_from, parser

    args = parser().parse_args([flag, str(max(MAX_FACES, MAX_FACE_CORNERS) + 1)])
    with pytest.raises(ValueError, match="the engine's limit"):
        config_from(args).checked()
