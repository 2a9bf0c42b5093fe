"""The browser viewer colours and filters blocks by their entity (seed 002 sec. 2.1), in real headless Chromium.

The server, the Chromium and the page are those of `tests.test_viewer`; the model is a running-bond wall whose
blocks carry a wall, a course, a type and a phase attribute (the ground has no entity).
"""
import re

from extrados.engine.generators import generate
from extrados_gh.entities import value_colour
from tests.test_viewer import ARTIFACTS, _norm, browser, page, run_static_from_file, server  # noqa: F401 (fixtures)

COURSES = 3
#: The neutral grey of a block without the level (server/static/entity.js NONE_COLOUR).
NONE_COLOUR = "#b8b8b8"


def entity_wall():
    """A 3-course running-bond wall; block c{k}b{i} is in course k + 1, a header at each end, phase 1 or 2."""
    model = generate("wall", courses=COURSES, blocks_per_course=3)
    for block in model["blocks"]:
        match = re.fullmatch(r"c(\d+)b(\d+)", block["id"])
        if match:
            course, index = map(int, match.groups())
            block["entity"] = {"wall": "north", "course": str(course + 1),
                               "type": "header" if index == 0 else "stretcher",
                               "attributes": {"phase": 1 if course == 0 else 2}}
    return model


def _course_of(model):
    return {block["id"]: block["entity"]["course"] for block in model["blocks"] if "entity" in block}


def test_blocks_are_coloured_by_course_with_a_legend(page, tmp_path):  # noqa: F811 (the fixture)
    model = entity_wall()
    run_static_from_file(page, tmp_path / "entity_wall.json", model)
    offered = page.eval_on_selector_all("#block-colouring option", "options => options.map(o => o.value)")
    assert offered == ["state", "displacement", "p", "q", "shear", "dilation", "entity:wall", "entity:course",
                       "entity:type", "entity:attributes.phase"]

    page.select_option("#block-colouring", "entity:course")
    legend = page.inner_text("#legend")
    assert "blocks by course" in legend
    assert [line for line in legend.splitlines() if line.strip() in {"1", "2", "3", "none"}] == ["1", "2", "3", "none"]
    looks = page.evaluate("window.extrados.blockLooks()")
    courses = _course_of(model)
    colour_of = {}
    for block_id, course in courses.items():
        colour_of.setdefault(course, looks[block_id]["colour"])
        assert looks[block_id]["colour"] == colour_of[course], f"{block_id} is not coloured as course {course}"
    assert len(set(colour_of.values())) == COURSES, colour_of
    # the colours of Grasshopper's Block Entities, value k of the level getting value_colour(k)
    assert colour_of == {str(k + 1): "#%02x%02x%02x" % value_colour(k) for k in range(COURSES)}
    assert looks["ground"]["colour"] == NONE_COLOUR and NONE_COLOUR not in colour_of.values()

    page.select_option("#block-colouring", "state")
    assert "blocks by course" not in page.inner_text("#legend")
    assert page.evaluate("window.extrados.blockLooks()")["c0b0"]["colour"] != colour_of["1"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.select_option("#block-colouring", "entity:course")
    page.screenshot(path=str(ARTIFACTS / "viewer_entity_courses.png"))


def test_a_filter_on_one_course_hides_the_others_and_their_forces(page, tmp_path):  # noqa: F811 (the fixture)
    model = entity_wall()
    run_static_from_file(page, tmp_path / "entity_wall.json", model)
    result = page.evaluate("window.extrados.lastResult")
    assert [block["entity"] for block in result["blocks"]] == [block.get("entity") for block in model["blocks"]]
    drawn_before = page.evaluate("window.extrados.drawn.contacts")

    page.select_option("#filter-level", "course")
    values = page.eval_on_selector_all("#filter-values input", "inputs => inputs.map(i => i.value)")
    assert values == ["1", "2", "3", "none"]
    for value in values:
        if value != "2":
            page.uncheck(f"#filter-values input[value='{value}']")

    courses = _course_of(model)
    looks = page.evaluate("window.extrados.blockLooks()")
    shown = {block_id for block_id, look in looks.items() if look["visible"]}
    assert shown == {block_id for block_id, course in courses.items() if course == "2"}
    expected = sum(1 for contact in result["contacts"]
                   if _norm(contact["force"]) > 0 and set(contact["blocks"]) & shown)
    assert page.evaluate("window.extrados.drawn.contacts") == expected < drawn_before

    page.select_option("#filter-level", "")
    assert all(look["visible"] for look in page.evaluate("window.extrados.blockLooks()").values())
    assert page.evaluate("window.extrados.drawn.contacts") == drawn_before
