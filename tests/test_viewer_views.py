"""The viewer an engineer reads at a glance (issue 22), in real headless Chromium: elevation, side, plan and 3D
views with an axis triad and Fit; contact arrows off by default and the thrust line drawn on top; a click on a
joint or a block reads its numbers from the result.

Shares the server, browser and helpers of tests/test_viewer.py.
"""
import csv
import io
import json
import math
import zipfile
from pathlib import Path

import pytest

from extrados import analyze
from extrados.engine.generators import generate
from tests.test_viewer import (ARTIFACTS, _canvas_image, _open_viewer, _wait_finished, browser,  # noqa: F401
                               run_example, run_rocking_block, server)

#: m; frame positions are written to 1e-6 m, so a difference of two is within 1e-6 of the exact one.
FRAME_ROUNDING = 1e-6
#: Where the triad is drawn: the lower left corner, 8 px in, 84 px wide (server/static/scene.js).
TRIAD_BOX = (8, 8, 92, 92)


@pytest.fixture(scope="module")
def arch_page(browser, server):  # noqa: F811 (pytest fixtures by name)
    with _open_viewer(browser, server + "/") as page:
        run_example(page, "arch")
        yield page


def picked_values(page):
    """{key: value} of the Picked panel's numbers as the page shows them (data-value of each row)."""
    return page.evaluate("Object.fromEntries([...document.querySelectorAll('#pick dd')]"
                         ".map((d) => [d.dataset.key, d.dataset.value]))")


def click_at_world_point(page, point):
    screen = page.evaluate("(p) => window.extrados.screenOf(p)", point)
    page.mouse.click(screen["x"], screen["y"])


def test_contact_arrows_are_off_by_default_and_the_thrust_line_is_on(arch_page):
    assert not arch_page.is_checked("input[data-layer=contacts]")
    assert arch_page.is_checked("input[data-layer=thrustLines]")
    assert arch_page.is_checked("input[data-layer=resultants]")
    assert arch_page.evaluate("window.extrados.drawn.thrustLines") == 1


@pytest.mark.parametrize("name, direction, orthographic", [
    ("elevation", [0.0, 1.0, 0.0], True), ("side", [-1.0, 0.0, 0.0], True), ("plan", [0.0, 0.0, -1.0], True),
    ("3d", None, False)])
def test_each_view_button_looks_the_right_way(arch_page, name, direction, orthographic):
    arch_page.click(f"button[data-view=\"{name}\"]")
    view = arch_page.evaluate("window.extrados.view()")
    assert view["name"] == name and view["orthographic"] is orthographic
    if direction is not None:
        assert view["direction"] == pytest.approx(direction, abs=1e-9)
    assert arch_page.get_attribute(f"button[data-view=\"{name}\"]", "aria-pressed") == "true"
    # the whole arch is in sight: every block centre projects inside the canvas
    box = arch_page.evaluate("document.querySelector('#viewport canvas').getBoundingClientRect().toJSON()")
    for block in arch_page.evaluate("window.extrados.lastResult.blocks"):
        if block["support"]:
            continue
        screen = arch_page.evaluate("(p) => window.extrados.screenOf(p)", block["position"])
        assert box["left"] < screen["x"] < box["right"] and box["top"] < screen["y"] < box["bottom"]


def test_the_axis_triad_is_drawn_in_the_lower_left_corner(arch_page):
    arch_page.click("button[data-view=elevation]")
    image = _canvas_image(arch_page)
    left, bottom, right, top = TRIAD_BOX
    corner = image.crop((left, image.height - top, right, image.height - bottom))
    colours = {colour for _, colour in corner.getcolors(maxcolors=1 << 16)}
    reddish = [c for c in colours if c[0] > 150 and c[1] < 100 and c[2] < 100]      # x, red
    bluish = [c for c in colours if c[2] > 120 and c[0] < 100]                       # z, blue (up in elevation)
    assert reddish and bluish, "no red x or blue z axis in the triad's corner"


def test_a_click_on_a_joint_reads_its_resultant(arch_page):
    arch_page.click("button[data-view=elevation]")
    result = arch_page.evaluate("window.extrados.lastResult")
    supports = {b["id"] for b in result["blocks"] if b["support"]}
    joint = next(j for j in result["interfaces"] if not set(j["blocks"]) & supports and j["normal_force"] > 0)
    click_at_world_point(arch_page, joint["centroid"])
    assert arch_page.evaluate("window.extrados.picked") == {"kind": "joint", "blocks": joint["blocks"]}
    assert arch_page.is_visible("#pick-panel")
    values = picked_values(arch_page)
    assert float(values["normal-force"]) == joint["normal_force"]
    assert float(values["shear-force"]) == joint["shear_force"]
    assert float(values["eccentricity"]) == joint["eccentricity"]
    assert float(values["shear-utilisation"]) == joint["shear_utilisation"]
    text = arch_page.text_content("#pick")
    assert "compression" in text and ("in the kernel" if joint["in_kernel"] else "outside") in text
    ARTIFACTS.mkdir(exist_ok=True)
    arch_page.screenshot(path=str(ARTIFACTS / "viewer_pick_joint.png"))


def test_a_click_on_a_block_reads_its_stress_and_a_click_on_nothing_clears(arch_page):
    arch_page.click("button[data-view=elevation]")
    result = arch_page.evaluate("window.extrados.lastResult")
    block = next(b for b in result["blocks"] if not b["support"] and b["p"])
    click_at_world_point(arch_page, block["position"])
    assert arch_page.evaluate("window.extrados.picked") == {"kind": "block", "id": block["id"]}
    values = picked_values(arch_page)
    assert float(values["p"]) == block["p"] and float(values["q"]) == block["q"]
    principal = block["principal_stress"]
    order = sorted(range(3), key=lambda k: principal["values"][k])         # most compressive first, stable
    for rank, k in enumerate(order, start=1):
        shown = [principal["values"][k], *principal["directions"][k]]
        assert [float(c) for c in values[f"sigma-{rank}"].split(",")] == shown
    assert "kPa" in arch_page.text_content("#pick")
    box = arch_page.evaluate("document.querySelector('#viewport canvas').getBoundingClientRect().toJSON()")
    arch_page.mouse.click(box["right"] - 20, box["top"] + 20)       # the sky above the arch
    assert arch_page.evaluate("window.extrados.picked") is None
    assert not arch_page.is_visible("#pick-panel")


def test_fit_frames_the_model_again_after_a_zoom(arch_page):
    arch_page.click("button[data-view=elevation]")
    before = arch_page.evaluate("(p) => window.extrados.screenOf(p)", [0.0, 0.0, 0.5])
    box = arch_page.evaluate("document.querySelector('#viewport canvas').getBoundingClientRect().toJSON()")
    arch_page.mouse.move(box["left"] + 0.5 * box["width"], box["top"] + 0.5 * box["height"])
    for _ in range(5):
        arch_page.mouse.wheel(0, -400)
    zoomed = arch_page.evaluate("(p) => window.extrados.screenOf(p)", [1.2, 0.0, 0.0])
    assert not box["left"] < zoomed["x"] < box["right"], "the zoom did not push the springing out of sight"
    arch_page.click("#fit")
    after = arch_page.evaluate("(p) => window.extrados.screenOf(p)", [0.0, 0.0, 0.5])
    assert after == pytest.approx(before, abs=1.0)


def test_a_load_factor_without_live_loads_offers_one_and_draws_the_mechanism(browser, server):  # noqa: F811
    with _open_viewer(browser, server + "/") as page:
        page.select_option("#example", "arch")
        page.select_option("#analysis-type", "load_factor")
        page.click("#run")
        page.wait_for_selector("#live-offer", state="visible")
        assert page.evaluate("document.body.dataset.state") == "idle" and page.is_hidden("#error")
        page.click("#live-x")
        _wait_finished(page)
        result = page.evaluate("window.extrados.lastResult")
        document = generate("arch")
        document["loads"] = [{"kind": "body_acceleration", "blocks": "all", "acceleration": [9.81, 0.0, 0.0],
                              "live": True}]
        reference = analyze(document, "load_factor").to_dict()
        assert result["load_factor"] == pytest.approx(reference["load_factor"],
                                                      rel=reference["load_factor_report"]["tolerance"])
        mechanism = result["load_factor_report"]["mechanism"]
        drawn = page.evaluate("window.extrados.drawn")
        assert drawn["hinges"] == len(mechanism["hinges"]) >= 3
        assert drawn["mechanismArrows"] == sum(1 for b in mechanism["blocks"] if any(b["velocity"])) > 0
        legend = page.text_content("#legend")
        assert "hinge of the collapse mechanism" in legend and "first failing factor" in legend
        assert "λ" in page.text_content("#status")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "viewer_mechanism.png"))


def support_displacement(result):
    """(t, displacement vector) of the first support block at the last frame, from its position at the first."""
    index = next(i for i, b in enumerate(result["blocks"]) if b["support"])
    first, last = result["frames"][0], result["frames"][-1]
    return last["t"], [b - a for a, b in zip(first["positions"][index], last["positions"][index])]


def run_dynamic_with_motion(page, fill):
    page.select_option("#example", "rocking_block")
    page.select_option("#analysis-type", "dynamic")
    page.fill("#duration", "0.2")
    page.fill("#output-interval", "0.02")
    fill()
    page.click("#run")
    _wait_finished(page)
    return page.evaluate("window.extrados.lastResult")


def test_a_sine_from_rest_moves_the_supports_as_its_closed_form(browser, server):  # noqa: F811
    """d(t) = D (1 - cos 2 pi f t), D = a / (2 pi f)^2: the supports at the last frame, to the 1 um the frames
    are written to (engine/result.py, TOL.frame_position_decimals)."""
    with _open_viewer(browser, server + "/") as page:
        def fill():
            page.select_option("#ground-motion", "sine")
            page.fill("#peak", "0.2")
            page.fill("#frequency", "2")
            page.select_option("#motion-axis", "x")
        result = run_dynamic_with_motion(page, fill)
        t, moved = support_displacement(result)
        omega = 2.0 * math.pi * 2.0
        expected = 0.2 * 9.81 / omega ** 2 * (1.0 - math.cos(omega * t))
        assert t == pytest.approx(0.2) and moved == pytest.approx([expected, 0.0, 0.0], abs=FRAME_ROUNDING)


def test_an_accelerogram_file_moves_the_supports_and_a_bad_one_is_refused(browser, server, tmp_path):  # noqa: F811
    """A constant 1 m/s^2 along y for 0.2 s from rest: the supports move a t^2 / 2 = 0.02 m."""
    record = tmp_path / "record.txt"
    record.write_text("# time (s)  acceleration (m/s2)\n" + "".join(f"{0.01 * i:.2f}, 1.0\n" for i in range(21)))
    with _open_viewer(browser, server + "/") as page:
        def fill():
            page.select_option("#ground-motion", "record")
            page.set_input_files("#record-file", str(record))
            page.select_option("#motion-axis", "y")
        result = run_dynamic_with_motion(page, fill)
        t, moved = support_displacement(result)
        assert moved == pytest.approx([0.0, 0.5 * t * t, 0.0], abs=FRAME_ROUNDING) and t == pytest.approx(0.2)

        uneven = tmp_path / "uneven.csv"
        uneven.write_text("0.0 1.0\n0.01 1.0\n0.03 1.0\n")
        page.set_input_files("#record-file", str(uneven))
        page.wait_for_timeout(200)
        page.click("#run")
        page.wait_for_selector("#error", state="visible")
        assert "evenly spaced" in page.text_content("#error-message")
        assert "record" in page.text_content("#error-where")


def test_the_result_and_its_joints_download(arch_page, tmp_path):
    result = arch_page.evaluate("window.extrados.lastResult")
    with arch_page.expect_download() as download:
        arch_page.click("#download-json")
    assert json.loads(Path(download.value.path()).read_text()) == result
    with arch_page.expect_download() as download:
        arch_page.click("#download-csv")
    assert download.value.suggested_filename == "extrados-static-joints.csv"
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
    assert len(rows) == len(result["interfaces"])
    for row, joint in zip(rows, result["interfaces"]):
        assert [row["block_a"], row["block_b"]] == joint["blocks"]
        assert float(row["normal_force_N"]) == joint["normal_force"]
        assert float(row["eccentricity_m"]) == joint["eccentricity"]
        assert row["in_kernel"] == str(joint["in_kernel"]).lower()


def test_a_thrust_line_chain_clicked_block_by_block_is_drawn_on_a_wall(browser, server):  # noqa: F811
    """A wall has no automatic thrust line; four blocks clicked up its middle make one, through those blocks."""
    with _open_viewer(browser, server + "/") as page:
        run_example(page, "wall")
        assert page.evaluate("window.extrados.drawn.thrustLines") == 0
        page.click('button[data-view="elevation"]')
        result = page.evaluate("window.extrados.lastResult")
        by_id = {b["id"]: b for b in result["blocks"]}
        chain = ["c0b2", "c1b2", "c2b2", "c3b2"]
        page.click("#chain-pick")
        for block_id in chain:
            click_at_world_point(page, by_id[block_id]["position"])
        click_at_world_point(page, by_id["c3b2"]["position"])      # the last one again: taken off
        click_at_world_point(page, by_id["c3b2"]["position"])      # and back
        assert page.evaluate("window.extrados.chain") == chain
        assert "c0b2 → c1b2 → c2b2 → c3b2" in page.text_content("#chain")
        page.click("#chain-pick")
        page.click("#run")
        _wait_finished(page)
        result = page.evaluate("window.extrados.lastResult")
        assert page.evaluate("window.extrados.drawn.thrustLines") == len(result["thrust_lines"]) == 1
        assert result["thrust_lines"][0]["blocks"][-len(chain):] == chain
        page.click("#chain-clear")
        assert page.evaluate("window.extrados.chain") == [] and page.is_hidden("#chain")


def scale_bar_pixels_per_newton(page):
    bar = page.query_selector("#scale-bar .bar")
    return bar.bounding_box()["width"] / float(bar.get_attribute("data-newtons"))


def test_the_force_scale_bar_measures_the_drawn_arrows_and_follows_the_zoom(arch_page):
    arch_page.click('button[data-view="elevation"]')
    result = arch_page.evaluate("window.extrados.lastResult")
    scale = arch_page.evaluate("window.extrados.jointArrowScale()")
    joint = max(result["interfaces"], key=lambda j: sum(f * f for f in j["force"]))
    force = math.sqrt(sum(f * f for f in joint["force"]))

    def arrow_pixels_per_newton():
        start = arch_page.evaluate("(p) => window.extrados.screenOf(p)", joint["centre"])
        end = arch_page.evaluate("(p) => window.extrados.screenOf(p)",
                                 [c + scale * f for c, f in zip(joint["centre"], joint["force"])])
        return math.hypot(end["x"] - start["x"], end["y"] - start["y"]) / force

    label = arch_page.text_content("#scale-bar")
    assert label.endswith(" N") or label.endswith(" kN")
    assert scale_bar_pixels_per_newton(arch_page) == pytest.approx(arrow_pixels_per_newton(), rel=0.02)
    box = arch_page.evaluate("document.querySelector('#viewport canvas').getBoundingClientRect().toJSON()")
    arch_page.mouse.move(box["left"] + 0.5 * box["width"], box["top"] + 0.5 * box["height"])
    before = scale_bar_pixels_per_newton(arch_page)
    for _ in range(3):
        arch_page.mouse.wheel(0, -300)
    assert arrow_pixels_per_newton() > 1.2 * before
    assert scale_bar_pixels_per_newton(arch_page) == pytest.approx(arrow_pixels_per_newton(), rel=0.02)
    arch_page.click("#fit")


def test_the_vtk_files_download_as_a_zip(arch_page, tmp_path):
    with arch_page.expect_download() as download:
        arch_page.click("#download-vtk")
    assert download.value.suggested_filename == "extrados-static-vtk.zip"
    names = zipfile.ZipFile(download.value.path()).namelist()
    assert {"result.pvd", "blocks_0000.vtu", "contacts_0000.vtu"} <= set(names)


def test_a_click_on_a_mortar_joint_reads_its_bond(browser, server, tmp_path):  # noqa: F811
    from tests.test_mortar import MORTAR, cantilever
    from tests.test_viewer import run_static_from_file

    with _open_viewer(browser, server + "/") as page:
        run_static_from_file(page, tmp_path / "cantilever.json", cantilever(MORTAR))
        page.click('button[data-view="elevation"]')
        result = page.evaluate("window.extrados.lastResult")
        supports = {b["id"] for b in result["blocks"] if b["support"]}
        joint = next(j for j in result["interfaces"] if j.get("bond") and not set(j["blocks"]) & supports)
        click_at_world_point(page, joint["centroid"])
        assert page.evaluate("window.extrados.picked") == {"kind": "joint", "blocks": joint["blocks"]}
        assert picked_values(page)["bond"] == joint["bond"] == "intact"


def test_a_click_on_a_block_after_a_dynamic_run_reads_how_far_it_moved(browser, server):  # noqa: F811
    with _open_viewer(browser, server + "/") as page:
        run_rocking_block(page)
        page.click('button[data-view="elevation"]')
        result = page.evaluate("window.extrados.lastResult")
        index, block = next((i, b) for i, b in enumerate(result["blocks"]) if not b["support"])
        first, last = result["frames"][0]["positions"][index], result["frames"][-1]["positions"][index]
        click_at_world_point(page, last)
        assert page.evaluate("window.extrados.picked") == {"kind": "block", "id": block["id"]}
        moved = math.dist(first, last)
        assert moved > 0 and float(picked_values(page)["displacement"]) == pytest.approx(moved, rel=1e-12)


def test_a_click_over_one_of_two_joints_in_one_plane_picks_that_one(browser, server):  # noqa: F811
    """A wall's block rests on two blocks: its two bed joints lie in one plane, and a click just above the right
    one picks the right one."""
    with _open_viewer(browser, server + "/") as page:
        run_example(page, "wall")
        page.click('button[data-view="elevation"]')
        result = page.evaluate("window.extrados.lastResult")
        by_id = {b["id"]: b for b in result["blocks"]}
        below = [j for j in result["interfaces"]
                 if "c1b2" in j["blocks"] and any(b.startswith("c0") for b in j["blocks"])]
        assert len(below) == 2 and below[0]["normal"] == pytest.approx(below[1]["normal"], abs=1e-9)
        for joint in below:
            other = next(b for b in joint["blocks"] if b != "c1b2")
            x = 0.5 * (joint["centroid"][0] + by_id[other]["position"][0])   # over the joint, on the other block's side
            click_at_world_point(page, [x, 0.0, joint["centroid"][2] + 0.005])
            assert page.evaluate("window.extrados.picked") == {"kind": "joint", "blocks": joint["blocks"]}


def test_a_load_factor_of_a_malformed_model_shows_the_service_s_error(browser, server, tmp_path):  # noqa: F811
    """The live-load offer does not stand in the way of a model the service refuses: its error is shown."""
    path = tmp_path / "malformed.json"
    path.write_text(json.dumps({"format": "extrados.model/1", "blocks": "not a list"}))
    with _open_viewer(browser, server + "/") as page:
        page.set_input_files("#model-file", str(path))
        page.select_option("#analysis-type", "load_factor")
        page.click("#run")
        page.wait_for_function("document.body.dataset.state === 'error'", timeout=60_000)
        assert page.is_hidden("#live-offer") and page.text_content("#error-message")
        assert "blocks" in page.text_content("#error-where") + page.text_content("#error-message")
