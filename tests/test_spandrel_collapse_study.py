"""examples/spandrel_collapse_study.py at a tenth of a second: its table and JSON, and the first physical fact
of the sweep: the seed's displacement law starts the ground at 0.31 m/s, a jump that makes the wall slide and
settle at once, which a ground starting from rest does not."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

STUDY = Path(__file__).resolve().parents[1] / "examples" / "spandrel_collapse_study.py"


def test_the_study_tabulates_each_variant_and_the_ground_s_jump_settles_the_wall(tmp_path):
    done = subprocess.run([sys.executable, str(STUDY), "--duration", "0.1", "--pga", "0.2", "--variants", "baseline",
                           "from_rest", "--jobs", "1", "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    rows = {row["variant"]: row for row in json.loads((tmp_path / "study.json").read_text())}
    assert sorted(rows) == ["baseline", "from_rest"]
    table = (tmp_path / "study.md").read_text()
    for row in rows.values():
        assert f"| {row['variant']} | 0.2 | {1e3 * row['largest_drop_m']:.1f} |" in table
        assert row["unconverged_steps"] == 0 and row["collapse_s"] is None
    assert rows["baseline"]["largest_drop_m"] > 2e-3          # measured 4.2 mm at 0.1 s
    assert rows["from_rest"]["largest_drop_m"] < 0.25 * rows["baseline"]["largest_drop_m"]  # measured 0.4 mm


def test_a_rounded_block_keeps_its_faces_and_loses_its_edges_along_y():
    """rounded_block on a 1 x 0.8 x 0.5 m box (x, y, z): the same bounding box (every face in its plane) and
    the volume less, at each of the four edges along y, the square r^2 less a quarter of the 16-gon of radius r
    (r^2 (1 - 2 sin 22.5 deg) each, against the circle's r^2 (1 - pi / 4))."""
    import numpy as np
    import trimesh

    sys.path.insert(0, str(STUDY.parent))
    from spandrel_collapse_study import rounded_block

    from extrados.engine.generators import block_entry, box

    radius = 0.025
    block = block_entry("b", *box((0.0, 1.0), (0.0, 0.8), (0.0, 0.5)))
    rounded = rounded_block(block, radius)
    points = np.asarray(rounded["points"])
    assert "vertices" not in rounded and rounded["id"] == "b"
    np.testing.assert_allclose(points.min(axis=0), [0.0, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(points.max(axis=0), [1.0, 0.8, 0.5], atol=1e-12)
    lost = 4 * radius ** 2 * (1.0 - 2.0 * np.sin(np.pi / 8)) * 0.8
    assert trimesh.convex.convex_hull(points).volume == pytest.approx(0.4 - lost, rel=1e-9)


def test_each_layout_keeps_the_seed_s_wall_and_the_out_of_plane_run_shakes_it_through_its_thickness():
    """The layout variants change the blocks, not the wall: every layout's blocks fill (L H - A_I) t, A_I the
    intrados chord polygon's 1/2 n R^2 sin(pi / n) (engine.generators.spandrel), with n voussoirs in each leaf, the
    leaves of equal thickness side by side; and a run of the 9-voussoir layout through the thickness finds its
    key stone (v4) and records its direction."""
    import numpy as np
    from scipy.spatial import ConvexHull

    sys.path.insert(0, str(STUDY.parent))
    from spandrel_collapse_study import DIRECTIONS, LAYOUTS, VARIANTS, run, wall_document

    from extrados import generators

    defaults = {p.name: p.default for p in generators.GENERATORS["spandrel_wall"].parameters}
    counts = {}
    for name in LAYOUTS:
        layout = VARIANTS[name][3]
        parameters = {"leaves": 1, **defaults, **layout}
        document = wall_document(0.2, {}, {}, 0.0, layout, "out_of_plane")
        assert document["support_motion"]["direction"] == DIRECTIONS["out_of_plane"] == [0.0, 1.0, 0.0]
        blocks = [b for b in document["blocks"] if not b.get("support")]
        n, radius = parameters["voussoirs"], parameters["opening_radius"]
        intrados = 0.5 * n * radius ** 2 * np.sin(np.pi / n)
        filled = (parameters["length"] * parameters["height"] - intrados) * parameters["thickness"]
        assert sum(ConvexHull(b["vertices"]).volume for b in blocks) == pytest.approx(filled, rel=1e-9), name
        assert sum(b["id"].startswith("v") for b in blocks) == n * parameters["leaves"], name
        thickness = {round(np.ptp(np.asarray(b["vertices"])[:, 1]), 12) for b in blocks}
        assert thickness == {round(parameters["thickness"] / parameters["leaves"], 12)}, name
        counts[name] = len(blocks)
    assert counts["small_blocks"] > 3 * counts["long_blocks"]        # 438 against 95 blocks
    baseline = sum(not b.get("support") for b in wall_document(0.2, {}, {})["blocks"])
    assert counts["two_leaves"] == 2 * baseline == 258
    row = run("voussoirs_9", 0.2, 0.01, "out_of_plane")
    assert row["direction"] == "out_of_plane" and row["variant"] == "voussoirs_9"
    assert row["blocks"] == counts["voussoirs_9"] and row["largest_sway_m"] > 0.0
    assert row["unconverged_steps"] == 0 and row["collapse_s"] is None
