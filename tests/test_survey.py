"""Surveyed stones to blocks (engine.survey, seed 002 sec. 4.3): a synthetic survey of a small wall
taken to a model and analysed, and the closed forms of each stage (plane, extrusion, trimming, hull)."""
import json

import numpy as np
import pytest

from extrados import Model, ModelError, analyze
from extrados.engine.generators import generate, ground_slab
from extrados.engine.survey import read_stone_table, read_survey
from extrados.engine.survey.overlaps import resolve_overlaps
from extrados.engine.survey.stones import StoneInfo, StonePoints, SurveyError
from extrados.engine.survey.synthetic import synthetic_survey
from extrados.engine.survey.to_model import survey_to_model

SIGMA = 0.002                                      # m, measurement noise, isotropic
STONE_LENGTH, STONE_HEIGHT = 0.5, 0.3              # m, the faces' true size
COURSES, STONES_PER_COURSE = 3, 4
BULGE = (0.0, 0.004, 0.009)                        # m, each course pushed out of the wall's plane y = 0
POINTS_PER_STONE = 600
DEPTHS = {"stretcher": 0.25, "header": 0.4}        # m
VIEWPOINT = (1.0, -10.0, 0.5)                      # the survey station, in front of the face y = 0
NO_CORNERS = np.zeros((0, 3))


def face_points(rng, x0, z0, y):
    """Noisy points on a stone's face [x0, x0 + L] x [z0, z0 + H] in the plane y, half of them on its edges."""
    u = rng.uniform(0.0, 1.0, (POINTS_PER_STONE, 2))
    on_edge = rng.integers(0, 4, POINTS_PER_STONE // 2)
    edge_points = u[: POINTS_PER_STONE // 2]
    for side, (column, value) in enumerate(((1, 0.0), (1, 1.0), (0, 0.0), (0, 1.0))):
        edge_points[on_edge == side, column] = value
    exact = np.column_stack([x0 + u[:, 0] * STONE_LENGTH, np.full(POINTS_PER_STONE, y), z0 + u[:, 1] * STONE_HEIGHT])
    return exact + rng.normal(0.0, SIGMA, exact.shape)


def wall_survey(seed=20261127):
    """A facing of COURSES x STONES_PER_COURSE stones, deformed course by course (BULGE)."""
    rng = np.random.default_rng(seed)
    stones, table = [], {}
    for course in range(COURSES):
        for k in range(STONES_PER_COURSE):
            stone = f"c{course}s{k}"
            x0 = (k + 0.25 * (course % 2)) * STONE_LENGTH       # odd courses bond a quarter stone over
            stones.append(StonePoints(stone, face_points(rng, x0, course * STONE_HEIGHT, BULGE[course]), NO_CORNERS))
            table[stone] = StoneInfo({"building": "tower", "wall": "south", "leaf": "outer", "course": str(course),
                                      "type": "header" if k % 2 else "stretcher",
                                      "attributes": {"mason_mark": f"M{k}", "phase": 1}})
    return stones, table


def ground():
    return ground_slab((-0.5, 3.0), (-0.5, 1.0), 0.2)


@pytest.fixture(scope="module")
def surveyed_wall():
    stones, table = wall_survey()
    document, report = survey_to_model(stones, table, DEPTHS, viewpoint=VIEWPOINT, base_blocks=[ground()])
    return stones, table, document, report


def test_plane_fit_residuals_are_the_noise(surveyed_wall):
    # E[RMS^2] = sigma^2 (n - 3) / n for a plane fitted to n points; the RMS of 600 points scatters by
    # 1/sqrt(2n) = 3 %, so 10 % is 3.5 standard deviations.
    _, _, _, report = surveyed_wall
    expected = SIGMA * np.sqrt((POINTS_PER_STONE - 3) / POINTS_PER_STONE)
    for stone in report.stones:
        assert stone.plane_rms_m == pytest.approx(expected, rel=0.10), stone.stone
        assert stone.plane_rms_m < stone.plane_max_m < 6.0 * SIGMA


def test_faces_are_extruded_into_the_wall_by_their_type_depth(surveyed_wall):
    _, table, document, report = surveyed_wall
    for stone, block in zip(report.stones, document["blocks"]):
        y = np.asarray(block["vertices"])[:, 1]
        course = int(table[stone.stone].entity["course"])
        assert stone.depth_m == DEPTHS[table[stone.stone].entity["type"]] and stone.depth_from == "type"
        # the face lies on the course's plane (to the noise), the back one depth further from the viewpoint
        assert y.min() == pytest.approx(BULGE[course], abs=3.0 * SIGMA)
        assert y.max() - y.min() == pytest.approx(stone.depth_m, abs=2.0 * SIGMA)


def test_block_volumes_are_outline_area_times_depth():
    # only reported, not trimmed: each block is its outline's right prism, V = A d
    stones, table = wall_survey()
    document, report = survey_to_model(stones, table, DEPTHS, viewpoint=VIEWPOINT, overlaps="report")
    volume = Model.from_dict(document).mechanics.volume
    for stone, built in zip(report.stones, volume):
        assert stone.trimmed_m3 == 0.0
        assert built == pytest.approx(stone.outline_area_m2 * stone.depth_m, rel=1e-9)
        assert stone.volume_m3 == pytest.approx(built, rel=1e-9)
    assert report.overlaps and all(overlap.trimmed_a_m3 == overlap.trimmed_b_m3 == 0.0 for overlap in report.overlaps)


def test_untrimmed_overlaps_are_refused_by_the_engine():
    stones, table = wall_survey()
    document, report = survey_to_model(stones, table, DEPTHS, viewpoint=VIEWPOINT, base_blocks=[ground()],
                                       overlaps="report")
    deepest = max(overlap.depth_m for overlap in report.overlaps)
    assert deepest > 3.0 * SIGMA                    # hulls of noisy edge points reach past the joints
    with pytest.raises(ModelError, match="overlap by"):
        analyze(Model.from_dict(document), "static")


def test_trimmed_wall_has_no_overlaps_stands_and_keeps_its_entities(surveyed_wall):
    _, table, document, report = surveyed_wall
    ids = [block["id"] for block in document["blocks"]]
    assert ids[-1] == "ground" and len(ids) == COURSES * STONES_PER_COURSE + 1
    # every neighbouring pair overlapped and was trimmed; the ground never is
    assert len(report.overlaps) >= COURSES * (STONES_PER_COURSE - 1)
    assert all(overlap.trimmed_b_m3 == 0.0 for overlap in report.overlaps if overlap.block_b == "ground")
    for stone in report.stones:
        trimmed = sum(o.trimmed_a_m3 for o in report.overlaps if o.block_a == stone.stone) + \
            sum(o.trimmed_b_m3 for o in report.overlaps if o.block_b == stone.stone)
        assert stone.trimmed_m3 == pytest.approx(trimmed, rel=1e-12) and 0.0 < trimmed < 0.1 * stone.volume_m3
    written = json.loads(json.dumps(report.to_dict(), allow_nan=False))      # the report is plain JSON
    assert [stone["stone"] for stone in written["stones"]] == ids[:-1]
    assert written["overlaps"][0] == report.overlaps[0]._asdict()
    model = Model.from_dict(document)
    again = resolve_overlaps(ids, [(np.asarray(b["vertices"]), b["faces"]) for b in model.to_dict()["blocks"]],
                             [False] * (len(ids) - 1) + [True], trim=False)[1]
    assert again == []
    result = analyze(model, "static").to_dict()       # the engine refuses overlaps deeper than its envelope
    assert result["stable"]
    expected = [{"stone": block_id, **table[block_id].entity} for block_id in ids[:-1]] + [None]
    assert [block["entity"] for block in result["blocks"]] == expected


def square_face(x0, y, z0, size=1.0, n=4):
    """The corners (and points) of a square face [x0, x0 + size] x [z0, z0 + size] in the plane y."""
    grid = np.linspace(0.0, size, n)
    u, v = np.meshgrid(grid, grid)
    return np.column_stack([x0 + u.ravel(), np.full(u.size, y), z0 + v.ravel()])


def test_two_stones_overlapping_are_trimmed_to_the_middle_plane():
    # faces [0, 1] and [0.99, 1.99] along x: a 10 mm overlap, each block loses 5 mm x 1 m x depth
    stones = [StonePoints("a", square_face(0.0, 0.0, 0.0), NO_CORNERS),
              StonePoints("b", square_face(0.99, 0.0, 0.0), NO_CORNERS)]
    table = {"a": StoneInfo({}, depth=0.3), "b": StoneInfo({}, depth=0.3)}
    document, report = survey_to_model(stones, table, {}, into_wall=(0.0, 1.0, 0.0))
    (overlap,) = report.overlaps
    assert overlap.depth_m == pytest.approx(0.01, rel=1e-9)
    assert overlap.overlap_m3 == pytest.approx(0.01 * 0.3, rel=1e-9)
    assert overlap.trimmed_a_m3 == pytest.approx(0.005 * 0.3, rel=1e-9)
    assert overlap.trimmed_b_m3 == pytest.approx(0.005 * 0.3, rel=1e-9)
    a, b = (np.asarray(block["vertices"]) for block in document["blocks"])
    assert a[:, 0].max() == pytest.approx(0.995, abs=1e-12) and b[:, 0].min() == pytest.approx(0.995, abs=1e-12)
    assert np.ptp(a[:, 1]) == pytest.approx(0.3) and a[:, 1].min() == pytest.approx(0.0, abs=1e-12)


def test_a_stone_is_trimmed_back_to_a_support_which_is_left_as_it_is():
    stones = [StonePoints("a", square_face(0.0, 0.0, -0.004), NO_CORNERS)]   # 4 mm into the ground
    document, report = survey_to_model(stones, {"a": StoneInfo({}, depth=0.3)}, {}, into_wall=(0.0, 1.0, 0.0),
                                       base_blocks=[ground()])
    (overlap,) = report.overlaps
    assert (overlap.trimmed_a_m3, overlap.trimmed_b_m3) == (pytest.approx(0.004 * 0.3, rel=1e-9), 0.0)
    assert np.asarray(document["blocks"][0]["vertices"])[:, 2].min() == pytest.approx(0.0, abs=1e-12)
    assert document["blocks"][1] == ground()


@pytest.mark.parametrize("side", [dict(viewpoint=(0.5, 5.0, 0.5)), dict(into_wall=(0.2, -1.0, 0.0))])
def test_the_face_is_extruded_away_from_the_viewpoint(side):
    stones = [StonePoints("a", square_face(0.0, 0.0, 0.0), NO_CORNERS)]
    document, _ = survey_to_model(stones, {"a": StoneInfo({}, depth=0.3)}, {}, **side)
    y = np.asarray(document["blocks"][0]["vertices"])[:, 1]
    assert (y.min(), y.max()) == (pytest.approx(-0.3), pytest.approx(0.0, abs=1e-12))


def test_a_face_seen_edge_on_is_refused():
    stones = [StonePoints("a", square_face(0.0, 0.0, 0.0), NO_CORNERS)]
    with pytest.raises(SurveyError, match="^stone 'a': its face is seen edge-on"):
        survey_to_model(stones, {"a": StoneInfo({}, depth=0.3)}, {}, viewpoint=(-10.0, 0.05, 0.5))


def test_a_measured_outline_is_made_convex_and_its_notch_reported():
    # a unit square measured by its corners, with a 0.1 m notch in its top edge
    corners = np.array([[0, 0, 0], [1, 0, 0], [1, 0, 1], [0.5, 0, 0.9], [0, 0, 1]], float)
    stones = [StonePoints("a", corners, corners)]
    document, report = survey_to_model(stones, {"a": StoneInfo({"type": "quoin"})}, {"quoin": 0.5},
                                       into_wall=(0.0, 1.0, 0.0))
    (stone,) = report.stones
    assert stone.outline_deviation_m == pytest.approx(0.1, rel=1e-9)
    assert stone.outline_area_m2 == pytest.approx(1.0, rel=1e-9) and stone.volume_m3 == pytest.approx(0.5, rel=1e-9)
    assert stone.plane_rms_m == pytest.approx(0.0, abs=1e-12)


def test_a_stone_surveyed_all_round_becomes_its_hull():
    # points on a 0.4 m cube with an erosion hollow 30 mm deep in the middle of its top face
    grid = np.linspace(0.0, 0.4, 5)
    cube = np.array([[x, y, z] for x in grid for y in grid for z in grid
                     if min(x, y, z) == 0.0 or max(x, y, z) == 0.4])
    hollow = np.array([[0.2, 0.2, 0.37]])
    stones = [StonePoints("a", np.vstack([cube[~np.all(cube == [0.2, 0.2, 0.4], axis=1)], hollow]), NO_CORNERS)]
    table = {"a": StoneInfo({"type": "core"}, survey="all_round", reference_volume=0.06)}
    document, report = survey_to_model(stones, table, {}, into_wall=(0.0, 1.0, 0.0))
    (stone,) = report.stones
    assert stone.volume_m3 == pytest.approx(0.064, rel=1e-9) and stone.reference_volume_m3 == 0.06
    assert stone.hull_deviation_m == pytest.approx(0.03, rel=1e-9)
    assert len(document["blocks"][0]["faces"]) == 6      # the hull's triangles merged into the cube's faces
    assert Model.from_dict(document).mechanics.volume[0] == pytest.approx(0.064, rel=1e-9)


@pytest.mark.parametrize("table, depths, message", [
    ({}, {}, "^stone 'a': no entry in the stone table"),
    ({"a": StoneInfo({"type": "voussoir"})}, {"header": 0.4}, "^stone 'a': no depth for its type 'voussoir'"),
    ({"a": StoneInfo({})}, {}, "^stone 'a': no depth: give the stone a depth or a type"),
    ({"a": StoneInfo({}, survey="all_round")}, {}, "^stone 'a': surveyed all round, yet the points lie in one plane"),
])
def test_a_stone_without_a_depth_or_a_volume_is_named(table, depths, message):
    stones = [StonePoints("a", square_face(0.0, 0.0, 0.0), NO_CORNERS)]
    with pytest.raises(SurveyError, match=message):
        survey_to_model(stones, table, depths, into_wall=(0.0, 1.0, 0.0))


def test_a_corner_seen_from_two_stations_read_from_files(tmp_path):
    # two walls meeting at a corner: a face in y = 0 seen from -y (x from 0.3 m on) and a face in x = 0 seen
    # from -x; each stone extruded 0.3 m away from its own station, the blocks touch without overlapping
    south, east = square_face(0.3, 0.0, 0.0), square_face(0.0, 0.0, 0.0)[:, [1, 0, 2]]
    (tmp_path / "points.csv").write_text("stone,x,y,z\n" + "".join(
        f"{stone},{x},{y},{z}\n" for stone, face in (("s", south), ("e", east)) for x, y, z in face))
    (tmp_path / "stones.csv").write_text("stone,type,station_x,station_y,station_z,phase\n"
                                         "s,stretcher,0.5,-8,0.5,1\n"
                                         "e,stretcher,-8,0.5,0.5,2\n")
    stones = read_survey(tmp_path / "points.csv")
    document, report = survey_to_model(stones, read_stone_table(tmp_path / "stones.csv"), {"stretcher": 0.3})
    south_block, east_block = (np.asarray(block["vertices"]) for block in document["blocks"])
    assert south_block.min(axis=0) == pytest.approx([0.3, 0.0, 0.0], abs=1e-12)
    assert south_block.max(axis=0) == pytest.approx([1.3, 0.3, 1.0], abs=1e-12)
    assert east_block.min(axis=0) == pytest.approx([0.0, 0.0, 0.0], abs=1e-12)
    assert east_block.max(axis=0) == pytest.approx([0.3, 1.0, 1.0], abs=1e-12)
    assert document["blocks"][1]["entity"] == {"stone": "e", "type": "stretcher", "attributes": {"phase": "2"}}
    assert report.overlaps == []
    with pytest.raises(SurveyError, match="^stone 's': no station in the stone table and neither viewpoint nor"):
        survey_to_model(stones, {"s": StoneInfo({}, depth=0.3), "e": StoneInfo({}, depth=0.3)}, {})
    with pytest.raises(SurveyError, match=r"points.txt: unknown survey file type '.txt' \(known: .csv, .json, .ply"):
        read_survey(tmp_path / "points.txt")


def test_a_synthetic_survey_without_noise_gives_the_blocks_back():
    # the outer facing of a two-leaf wall seen from the front: each face's points (its corners among them)
    # extruded by the block's depth behind it are the block again, to round-off
    document = generate("two_leaf_wall", courses=3)
    outer = [block for block in document["blocks"] if block.get("entity", {}).get("leaf") == "outer"]
    stones, table = synthetic_survey(outer, VIEWPOINT, 200, 0.0, np.random.default_rng(3))
    rebuilt, report = survey_to_model(stones, table, {}, viewpoint=VIEWPOINT)
    assert report.overlaps == [] and len(rebuilt["blocks"]) == len(outer)
    for block, original in zip(rebuilt["blocks"], outer):
        assert len(block["vertices"]) == 8 and block["entity"] == original["entity"]
        corners = [sorted(map(tuple, np.round(b["vertices"], 12))) for b in (block, original)]
        assert corners[0] == corners[1]
    # with noise, the planes' residuals are the noise again (600 points a face)
    stones, table = synthetic_survey(outer, VIEWPOINT, 600, SIGMA, np.random.default_rng(4))
    _, report = survey_to_model(stones, table, {}, viewpoint=VIEWPOINT)
    assert np.mean([stone.plane_rms_m for stone in report.stones]) == pytest.approx(SIGMA, rel=0.05)


def test_base_blocks_may_be_given_by_points_and_bad_ones_are_named():
    stones = [StonePoints("a", square_face(0.0, 0.0, -0.004), NO_CORNERS)]
    slab = {"id": "ground", "support": True, "points": np.asarray(ground()["vertices"]).tolist()}
    document, report = survey_to_model(stones, {"a": StoneInfo({}, depth=0.3)}, {}, into_wall=(0.0, 1.0, 0.0),
                                       base_blocks=[slab])
    assert report.overlaps[0].trimmed_a_m3 == pytest.approx(0.004 * 0.3, rel=1e-9)
    for bad, message in (({"id": "g"}, r"base_blocks\[0\] 'g': a base block needs vertices and faces, or points"),
                         ({"id": "g", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]},
                          r"base_blocks\[0\] 'g': the points lie in one plane")):
        with pytest.raises(SurveyError, match=message):
            survey_to_model(stones, {"a": StoneInfo({}, depth=0.3)}, {}, into_wall=(0.0, 1.0, 0.0), base_blocks=[bad])
