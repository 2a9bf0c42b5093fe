"""The viewer draws deformable blocks (issue 23) by their deformed surface coloured by stress, in real headless
Chromium: the mesh drawn is the result's, the legend's range is the von Mises range of its elements, the
magnification moves the drawn nodes by the factor times the displacement, and a click on the surface reads the
stress of the tetrahedron clicked.

Shares the server, browser and helpers of tests/test_viewer.py.
"""
import re

import numpy as np
import pytest

from extrados.engine.generators import generate
from tests.test_viewer import (ARTIFACTS, _open_viewer, browser, page, run_example,  # noqa: F401 (fixtures)
                               run_static_from_file, server)

#: m; the drawn surface is float32 relative to each block's reference centroid (|x| < 0.3 m here): 2^-24 of that
#: per coordinate, with room for the sums that place it.
FLOAT32_DRAWN = 1e-7
#: The magnification tried: the wall's displacements (under a micrometre) grow to about half a millimetre.
MAGNIFICATION = 1000.0
#: The block clicked, and where its joints lie (m): a click within the joint pick distance of a joint's plane
#: (3 % of the model's size, about 14 mm here; server/static/pick.js) reads the joint, not the block.
CLICKED, JOINT_X, JOINT_Z = "c1b1", (-0.2, 0.2), (0.175,)
CLEAR_OF_JOINTS = 0.03


def deformable_wall():
    """A wall of two courses of deformable blocks, linear tetrahedra (tests/test_result_document.py)."""
    doc = generate("wall", courses=2, blocks_per_course=2)
    doc["materials"]["stone"]["deformable"] = {"E": 1e9, "nu": 0.2, "element": "tet4"}
    return doc


@pytest.fixture(scope="module")
def wall_page(browser, server, tmp_path_factory):  # noqa: F811 (pytest fixtures by name)
    with _open_viewer(browser, server + "/") as opened:
        run_static_from_file(opened, tmp_path_factory.mktemp("deformable") / "wall.json", deformable_wall())
        yield opened


def von_mises(voigt):
    xx, yy, zz, yz, xz, xy = np.asarray(voigt, float).T
    return np.sqrt(0.5 * ((xx - yy) ** 2 + (yy - zz) ** 2 + (zz - xx) ** 2) + 3.0 * (yz ** 2 + xz ** 2 + xy ** 2))


def legend_range(viewer):
    """The two numbers (MPa) of the deformable blocks' legend on the page ``viewer``, its pale end first."""
    text = viewer.text_content("#deformable-legend")
    numbers = re.findall(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?", text.split("stress")[-1])
    assert text.endswith(" MPa") and len(numbers) == 2, text
    return [float(n) for n in numbers]


def three_figures(pascals):
    return float(f"{pascals / 1e6:.3g}")


def drawn_corners(entry, factor):
    """The surface's triangle corners, three per boundary triangle, at nodes - u + factor u."""
    nodes, u = np.asarray(entry["nodes"]), np.asarray(entry["displacement"])
    return (nodes - u + factor * u)[np.asarray(entry["boundary"])].reshape(-1, 3)


def test_the_deformed_surfaces_are_drawn_coloured_by_von_mises_with_its_range(wall_page):
    result = wall_page.evaluate("window.extrados.lastResult")
    entries = {entry["block"]: entry for entry in result["deformable"]}
    assert len(entries) == 5
    drawn = wall_page.evaluate("window.extrados.deformableDrawn()")
    assert drawn["shown"] and drawn["measure"] == "von_mises" and drawn["magnification"] == 1
    assert set(drawn["blocks"]) == set(entries) and wall_page.evaluate("window.extrados.drawn.deformable") == 5
    assert sorted(drawn["hiddenPolyhedra"]) == sorted(entries)     # the rigid polyhedra: edges only
    for block, entry in entries.items():
        mine = drawn["blocks"][block]
        assert mine["visible"] and mine["triangles"] == len(entry["boundary"])
        assert np.abs(np.asarray(mine["corners"]) - drawn_corners(entry, 1.0)).max() <= FLOAT32_DRAWN

    stresses = von_mises(np.vstack([entry["stress"] for entry in entries.values()]))
    assert stresses.max() > 1e3                                  # Pa: the wall's own weight
    assert drawn["range"]["low"] == pytest.approx(stresses.min(), rel=1e-12)
    assert drawn["range"]["high"] == pytest.approx(stresses.max(), rel=1e-12)
    assert legend_range(wall_page) == [three_figures(stresses.min()), three_figures(stresses.max())]
    assert wall_page.is_visible("#deformable-options")

    wall_page.select_option("#stress-measure", "min_principal")
    compression = np.vstack([entry["principal_stress"] for entry in entries.values()])[:, 0]
    assert compression.min() < 0.0
    assert legend_range(wall_page) == [three_figures(compression.max()), three_figures(compression.min())]
    wall_page.select_option("#stress-measure", "von_mises")


def test_the_magnification_moves_the_drawn_nodes_by_the_factor_times_the_displacement(wall_page):
    result = wall_page.evaluate("window.extrados.lastResult")
    before = wall_page.evaluate("window.extrados.deformableDrawn()")["blocks"]
    wall_page.fill("#magnification", str(MAGNIFICATION))
    after = wall_page.evaluate("window.extrados.deformableDrawn()")
    assert after["magnification"] == MAGNIFICATION and "×1000" in wall_page.text_content("#legend")
    largest = 0.0
    for entry in result["deformable"]:
        drawn = np.asarray(after["blocks"][entry["block"]]["corners"])
        assert np.abs(drawn - drawn_corners(entry, MAGNIFICATION)).max() <= FLOAT32_DRAWN
        moved = drawn - np.asarray(before[entry["block"]]["corners"])
        expected = (MAGNIFICATION - 1.0) * np.asarray(entry["displacement"])[np.asarray(entry["boundary"])]
        assert np.abs(moved - expected.reshape(-1, 3)).max() <= 2 * FLOAT32_DRAWN
        largest = max(largest, np.linalg.norm(moved, axis=1).max())
    assert largest > 1e-4        # m: a displacement of a few tenths of a micrometre, a thousand times
    wall_page.click("button[data-view=elevation]")
    ARTIFACTS.mkdir(exist_ok=True)
    wall_page.screenshot(path=str(ARTIFACTS / "viewer_deformable.png"))
    wall_page.fill("#magnification", "1")
    assert wall_page.evaluate("window.extrados.deformableDrawn()")["magnification"] == 1


def clicked_triangle(entry):
    """(triangle, incentre) of the widest triangle of the block's front face (y = -0.1, the one the elevation view
    sees) clear of the block's joints: the click lands well inside it."""
    nodes = np.asarray(entry["nodes"])
    best = None
    for k, triangle in enumerate(entry["boundary"]):
        a, b, c = nodes[triangle]
        if not np.allclose([a[1], b[1], c[1]], -0.1, atol=1e-5):
            continue
        sides = np.linalg.norm([b - c, c - a, a - b], axis=1)
        centre = (sides[0] * a + sides[1] * b + sides[2] * c) / sides.sum()
        radius = np.linalg.norm(np.cross(b - a, c - a)) / sides.sum()
        clear = min(min(abs(centre[0] - x) for x in JOINT_X), min(abs(centre[2] - z) for z in JOINT_Z))
        if clear > CLEAR_OF_JOINTS and (best is None or radius > best[2]):
            best = (k, centre, radius)
    return best[0], best[1]


def test_a_click_on_a_deformed_surface_reads_the_stress_of_the_tetrahedron_clicked(wall_page):
    wall_page.click("button[data-view=elevation]")
    result = wall_page.evaluate("window.extrados.lastResult")
    entry = next(entry for entry in result["deformable"] if entry["block"] == CLICKED)
    k, point = clicked_triangle(entry)
    corners = set(entry["boundary"][k])
    element = next(t for t, tetrahedron in enumerate(entry["tetrahedra"]) if corners <= set(tetrahedron))
    screen = wall_page.evaluate("(p) => window.extrados.screenOf(p)", point.tolist())
    wall_page.mouse.click(screen["x"], screen["y"])
    assert wall_page.evaluate("window.extrados.picked") == {"kind": "block", "id": CLICKED, "element": element}
    values = wall_page.evaluate("Object.fromEntries([...document.querySelectorAll('#pick dd')]"
                                ".map((d) => [d.dataset.key, d.dataset.value]))")
    assert values["block"] == CLICKED and int(values["element"]) == element
    assert float(values["von-mises"]) == pytest.approx(von_mises([entry["stress"][element]])[0], rel=1e-12)
    assert [float(v) for v in values["element-principal"].split(",")] == entry["principal_stress"][element]
    assert "p" in values and "sigma-1" in values          # the block's own numbers as before
    assert "von Mises" in wall_page.text_content("#pick")


def test_a_model_of_rigid_blocks_draws_no_deformable_mesh(page):  # noqa: F811 (the fixture)
    run_example(page, "wall")
    drawn = page.evaluate("window.extrados.deformableDrawn()")
    assert drawn["blocks"] == {} and drawn["range"] is None and not drawn["shown"]
    assert drawn["hiddenPolyhedra"] == []
    assert page.evaluate("window.extrados.drawn.deformable") == 0
    assert page.is_hidden("#deformable-options") and page.query_selector("#deformable-legend") is None


def test_a_dynamic_run_draws_them_at_its_last_frame_only(page):  # noqa: F811 (the fixture)
    """A dynamic result's deformable fields are those of its end: earlier frames draw the blocks' polyhedra."""
    analysis = {"type": "dynamic", "duration": 0.01, "time_step": 1e-3, "output_interval": 0.005}
    result = page.evaluate("([model, analysis]) => window.extrados.runModel(model, analysis)",
                           [deformable_wall(), analysis])
    assert len(result["frames"]) == 3 and len(result["deformable"]) == 5
    drawn = page.evaluate("window.extrados.deformableDrawn()")
    assert drawn["shown"] and len(drawn["hiddenPolyhedra"]) == 5
    page.evaluate("window.extrados.setFrame(0)")
    drawn = page.evaluate("window.extrados.deformableDrawn()")
    assert not drawn["shown"] and drawn["hiddenPolyhedra"] == []
    assert "deformed blocks are drawn at the last frame" in page.text_content("#legend")
    assert page.query_selector("#deformable-legend") is None


def test_a_joint_cut_into_points_is_outlined_by_its_corners(page):  # noqa: F811 (the fixture)
    """A picked joint of deformable blocks cut into contact points (its edges' points, then a grid inside;
    engine.deformable.joint_points) is outlined by the convex hull of its points, not a path through the grid."""
    edge = [[x, 0.0, 1.0] for x in (0.0, 0.1, 0.2)] + [[0.2, 0.1, 1.0]] + \
        [[x, 0.2, 1.0] for x in (0.2, 0.1, 0.0)] + [[0.0, 0.1, 1.0]]
    points = edge + [[0.1, 0.1, 1.0]]
    outline = page.evaluate("async (points) => (await import('/static/pick.js')).jointOutline(points, [0, 0, 1])",
                            points)
    corners = {(0.0, 0.0), (0.2, 0.0), (0.2, 0.2), (0.0, 0.2)}
    assert len(outline) == 4 and {(p[0], p[1]) for p in outline} == corners
