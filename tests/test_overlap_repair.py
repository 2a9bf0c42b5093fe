"""settings.overlap: blocks that overlap as drawn are refused, shrunk or accepted (engine.analysis.overlap).

A 1 m cube drawn 20 mm into the ground below it, and a second 20 mm into the first: the depths,
the cuts (half of each overlap) and the volumes removed are known in closed form.
"""
import json
import subprocess
import sys

import jsonschema
import numpy as np
import pytest

from blocks import box_block, document, ground
from extrados import ModelError, Model, analyze
from extrados.engine.geometry.clip import clip_polyhedron
from extrados.engine.geometry.polyhedron import unit_mass_properties
from extrados.engine.io.schema import result_schema

RESULT_SCHEMA = jsonschema.Draft202012Validator(result_schema())
OVERLAP = 0.02   # m, each cube drawn this far into the block below it
DENSITY = 2000.0
#: m, the overlap the narrow phase measures against the one drawn: round-off of 1 m coordinates
DEPTH_TOLERANCE = 1e-9


def stacked_cubes(overlap_settings=None):
    """Ground (top at z = 0), cube 'a' over z in [-OVERLAP, 1 - OVERLAP], cube 'b' OVERLAP into 'a'."""
    blocks = [ground(), box_block("a", (0, 0, -OVERLAP), (1, 1, 1 - OVERLAP)),
              box_block("b", (0, 0, 1 - 2 * OVERLAP), (1, 1, 2 - 2 * OVERLAP))]
    settings = None if overlap_settings is None else {"overlap": overlap_settings}
    return document(blocks, density=DENSITY, settings=settings)


def test_a_hand_made_model_that_overlaps_is_refused_by_default_with_the_pair_named():
    with pytest.raises(ModelError) as caught:
        analyze(stacked_cubes())
    message = str(caught.value)
    assert "overlap by 0.02 m" in message and "settings.overlap" in message
    assert ("'a' and 'b'" in message) or ("'ground' and 'a'" in message)


def test_shrink_cuts_each_block_by_half_of_each_overlap_and_the_stack_stands():
    result = analyze(stacked_cubes({"mode": "shrink"}))
    repair = result.to_dict()["overlap_repair"]
    assert repair["mode"] == "shrink" and repair["max_overlap"] == pytest.approx(OVERLAP, abs=DEPTH_TOLERANCE)
    assert sorted(tuple(p["blocks"]) for p in repair["pairs"]) == [("a", "b"), ("ground", "a")]
    rows = {row["id"]: row for row in repair["blocks"]}
    # 'a' loses OVERLAP / 2 at its bottom and at its top; 'b' OVERLAP / 2 at its bottom
    assert rows["a"]["cut"] == pytest.approx(OVERLAP / 2, abs=DEPTH_TOLERANCE)
    assert rows["a"]["volume_removed"] == pytest.approx(OVERLAP, abs=DEPTH_TOLERANCE)
    assert rows["b"]["volume_removed"] == pytest.approx(OVERLAP / 2, abs=DEPTH_TOLERANCE)
    assert rows["b"]["volume_fraction"] == pytest.approx(OVERLAP / 2, abs=DEPTH_TOLERANCE)
    assert result.stable
    # the supports carry the weight of the cut cubes: (1 - OVERLAP) + (1 - OVERLAP / 2) m^3
    weight = DENSITY * 9.81 * (2 - 1.5 * OVERLAP)
    assert result.reactions.force.sum(axis=0) == pytest.approx([0.0, 0.0, weight], abs=1e-6 * weight)
    RESULT_SCHEMA.validate(result.to_dict())


def test_a_cut_block_keeps_its_entity():
    doc = stacked_cubes({"mode": "shrink"})
    doc["blocks"][2]["entity"] = {"course": "2", "type": "stretcher"}
    assert analyze(doc).to_dict()["blocks"][2]["entity"] == {"course": "2", "type": "stretcher"}


def test_accept_keeps_the_blocks_and_reports_their_overlaps():
    result = analyze(stacked_cubes({"mode": "accept"}))
    repair = result.to_dict()["overlap_repair"]
    assert repair["mode"] == "accept"
    assert all(row["cut"] == 0.0 and row["volume_removed"] == 0.0 for row in repair["blocks"])
    assert {row["id"]: row["overlap"] for row in repair["blocks"]} == pytest.approx(
        {"ground": OVERLAP, "a": OVERLAP, "b": OVERLAP}, abs=DEPTH_TOLERANCE)
    assert result.stable
    RESULT_SCHEMA.validate(result.to_dict())


@pytest.mark.parametrize("mode", ["shrink", "accept"])
def test_an_overlap_deeper_than_the_tolerance_is_refused_naming_the_pair(mode):
    with pytest.raises(ModelError) as caught:
        analyze(stacked_cubes({"mode": mode, "tolerance": OVERLAP / 2}))
    assert caught.value.path == "settings.overlap.tolerance"
    assert "overlap by 0.02 m" in str(caught.value)


def test_the_schema_owns_the_overlap_settings():
    with pytest.raises(ModelError) as caught:
        Model.from_dict(stacked_cubes({"mode": "trim"}))
    assert caught.value.path.startswith("settings.overlap")


def test_a_cube_cut_by_an_oblique_plane_keeps_the_volume_of_the_part_below_it():
    # the plane x + y + z = 1 cuts off the corner tetrahedron at the origin, of volume 1/6
    cube = box_block("c", (0, 0, 0), (1, 1, 1))
    normal = -np.ones(3) / np.sqrt(3)      # keep x + y + z >= 1
    vertices, faces = clip_polyhedron(cube["vertices"], cube["faces"], normal, -1 / np.sqrt(3), 1e-12)
    volume = unit_mass_properties([(np.asarray(vertices), faces)])[0][0]
    assert volume == pytest.approx(1 - 1 / 6, rel=1e-12)
    assert len(faces) == 7   # the six faces, three of them cut, and the triangular cap


def test_the_command_line_says_what_shrink_cut_and_refuses_by_default(tmp_path):
    model = tmp_path / "cubes.json"
    model.write_text(json.dumps(stacked_cubes({"mode": "shrink"})))
    done = subprocess.run([sys.executable, "-m", "extrados", "analyze", str(model)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert ("overlaps (shrink): 2 pairs of blocks overlapped as drawn, the deepest by 0.02 m; 3 blocks cut, "
            "at most 0.01 m and 2 % of its volume (a)") in done.stderr
    model.write_text(json.dumps(stacked_cubes()))
    refused = subprocess.run([sys.executable, "-m", "extrados", "analyze", str(model)], capture_output=True,
                             text=True, timeout=300)
    assert refused.returncode == 2 and "settings.overlap" in refused.stderr


def test_a_model_that_does_not_overlap_is_analysed_as_it_is_with_an_empty_report():
    doc = document([ground(), box_block("a", (0, 0, 0), (1, 1, 1))], density=DENSITY)
    plain = analyze(doc)
    shrunk = analyze({**doc, "settings": {"overlap": {"mode": "shrink"}}})
    assert shrunk.to_dict()["overlap_repair"] == {"mode": "shrink", "tolerance": 0.05, "max_overlap": 0.0,
                                                  "pairs": [], "blocks": []}
    assert "overlap_repair" not in plain.to_dict()
    assert shrunk.reactions.force == pytest.approx(plain.reactions.force, abs=0.0)
