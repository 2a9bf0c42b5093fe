"""The two-leaf wall generator (seed 002 sec. 5): two ashlar facings, a core of smaller blocks, through stones."""
import pytest

from extrados import Model, analyze
from extrados.engine.generators import generate

PARAMETERS = dict(courses=6, blocks_per_course=4, block_length=0.5, block_height=0.3, thickness=0.9,
                  facing_depth=0.25, core_pieces=2, through_stone_courses=3)


def extent(block, axis):
    values = [vertex[axis] for vertex in block["vertices"]]
    return min(values), max(values)


@pytest.fixture(scope="module")
def wall():
    return generate("two_leaf_wall", **PARAMETERS)


def test_the_blocks_fill_the_wall_exactly(wall):
    volume = Model.from_dict(wall).mechanics.volume[:-1]
    assert volume.sum() == pytest.approx(4 * 0.5 * 6 * 0.3 * 0.9, rel=1e-12)   # L x H x t, no gap, no overlap


def test_leaves_core_and_through_stones(wall):
    blocks = [block for block in wall["blocks"] if block["id"] != "ground"]
    by_leaf = {}
    for block in blocks:
        by_leaf.setdefault(block["entity"]["leaf"], []).append(block)
    # courses 2 and 5 hold through stones: the even ashlars of a course of 4 (course 2) or 5 (course 5, half
    # blocks at its ends) whole or half blocks: 2 + 3
    through = by_leaf["through"]
    assert sorted(int(block["entity"]["course"]) for block in through) == [2, 2, 5, 5, 5]
    for block in through:
        assert extent(block, 1) == pytest.approx((-0.45, 0.45)) and block["entity"]["type"] == "through_stone"
    for block in by_leaf["outer"]:
        assert extent(block, 1) == pytest.approx((-0.45, -0.2))
    for block in by_leaf["inner"]:
        assert extent(block, 1) == pytest.approx((0.2, 0.45))
    for block in by_leaf["core"]:                      # two pieces across the 0.4 m core, half an ashlar long
        y0, y1 = extent(block, 1)
        assert y1 - y0 == pytest.approx(0.2) and -0.2 - 1e-12 <= y0 and y1 <= 0.2 + 1e-12
        x0, x1 = extent(block, 0)
        assert x1 - x0 in (pytest.approx(0.25), pytest.approx(0.125))
    assert len(by_leaf["outer"]) == len(by_leaf["inner"]) == 4 + 5 + 2 + 5 + 4 + 2   # courses 0-5 less through stones
    assert len(by_leaf["core"]) == 2 * 2 * len(by_leaf["outer"])


@pytest.mark.parametrize("core_mortar, law", [(0, "coulomb"), (1, "mohr_coulomb"), (2, "cohesive")])
def test_the_core_joints_take_the_mortar_law(core_mortar, law):
    document = generate("two_leaf_wall", **PARAMETERS, core_mortar=core_mortar)
    assert document["joints"]["core"]["law"] == law and document["default_joint"] == "dry"
    core = {block["id"] for block in document["blocks"] if block.get("entity", {}).get("leaf") == "core"}
    assigned = {block_id for assignment in document["joint_assignments"] for block_id in assignment["blocks"]}
    assert core <= assigned
    assert all(set(assignment["blocks"]) & core for assignment in document["joint_assignments"])
    # a core block of a middle course touches 4 neighbours in its course at most, and the blocks above and below
    assert len(document["joint_assignments"]) > len(core)


def test_the_dry_wall_stands_and_its_entities_come_back(wall):
    result = analyze(Model.from_dict(wall), "static").to_dict()
    assert result["stable"]
    assert [block["entity"] for block in result["blocks"]] == [block.get("entity") for block in wall["blocks"]]


@pytest.mark.parametrize("params, message", [
    (dict(thickness=0.5), "thickness must exceed twice facing_depth"),
    (dict(core_mortar=3), "core_mortar must be 0, 1 or 2"),
    (dict(core_pieces=0), "core_pieces must be at least 1"),
])
def test_bad_parameters_are_named(params, message):
    with pytest.raises(ValueError, match=message):
        generate("two_leaf_wall", **params)
