"""Trimming overlapping survey blocks (engine.survey.overlaps): what it reports against closed forms, and the
blocks it cannot trim (one inside the other, a sliver left) refused by a SurveyError naming both, also through
`extrados survey` (exit 2)."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from extrados.cli import main
from extrados.engine.geometry.hull import hull_block
from extrados.engine.survey.overlaps import resolve_overlaps
from extrados.engine.survey.stones import StoneInfo, StonePoints, SurveyError
from extrados.engine.survey.to_model import survey_to_model

NO_CORNERS = np.zeros((0, 3))
INTO_WALL = (0.0, 1.0, 0.0)
HEIGHT = 0.3                      # m, the prisms' height along z
INSIDE = r"it lies \(almost\) inside 'a'\. Is it a stone surveyed twice"


def box(lower, upper, rotation=np.eye(3), shift=0.0):
    """(vertices, faces) of the box [lower, upper], turned by ``rotation`` about the origin and moved by ``shift``."""
    corners = np.array([[x, y, z] for x in (lower[0], upper[0]) for y in (lower[1], upper[1])
                        for z in (lower[2], upper[2])], float)
    return hull_block(corners @ rotation.T + shift)


def diamond(left_x, centre_y, side):
    """A square prism of ``side`` turned 45 degrees about z, its left corner at (left_x, centre_y), z in [0, HEIGHT]."""
    half = side / np.sqrt(2.0)
    square = [(left_x, centre_y), (left_x + half, centre_y - half), (left_x + 2 * half, centre_y),
              (left_x + half, centre_y + half)]
    return hull_block([(x, y, z) for x, y in square for z in (0.0, HEIGHT)])


def square_face(x0, y, z0, size=1.0, n=4):
    """Points of a square face [x0, x0 + size] x [z0, z0 + size] in the plane y."""
    grid = np.linspace(0.0, size, n)
    u, v = np.meshgrid(grid, grid)
    return np.column_stack([x0 + u.ravel(), np.full(u.size, y), z0 + v.ravel()])


def test_boxes_overlapping_by_a_slab_each_give_and_lose_half_of_it():
    # [0, 1] and [0.9, 1.9] along x, 0.5 m by HEIGHT: the slab 0.1 x 0.5 x HEIGHT is shared and cut at x = 0.95
    _, (overlap,) = resolve_overlaps(["a", "b"], [box([0, 0, 0], [1, 0.5, HEIGHT]), box([0.9, 0, 0], [1.9, 0.5, HEIGHT])],
                                     [False, False])
    slab = 0.1 * 0.5 * HEIGHT
    assert overlap.depth_m == pytest.approx(0.1, rel=1e-9) and overlap.overlap_m3 == pytest.approx(slab, rel=1e-9)
    for volume in (overlap.trimmed_a_m3, overlap.trimmed_b_m3, overlap.given_a_m3, overlap.given_b_m3):
        assert volume == pytest.approx(slab / 2, rel=1e-9)


def test_a_corner_pushed_into_a_face_costs_the_face_more_than_the_overlap():
    # A = [0, 1] x [0, 1] x [0, HEIGHT]; B a square of side 0.5 turned 45 degrees, its left corner d = 0.1 m into
    # A's face x = 1. The least penetration is d along x; the cut x = 1 - d / 2 takes from A the slab
    # d / 2 x 1 x HEIGHT, though the two share only the corner's triangle, base 2 d and height d: d^2 HEIGHT.
    # Of it, A gives up the part beyond the cut, d^2 - (d / 2)^2, and B its tip, (d / 2)^2 (all it loses).
    d = 0.1
    _, (overlap,) = resolve_overlaps(["a", "b"], [box([0, 0, 0], [1, 1, HEIGHT]), diamond(1.0 - d, 0.5, 0.5)],
                                     [False, False])
    assert overlap.depth_m == pytest.approx(d, rel=1e-9)
    assert overlap.overlap_m3 == pytest.approx(d**2 * HEIGHT, rel=1e-9)
    assert overlap.trimmed_a_m3 == pytest.approx(d / 2 * HEIGHT, rel=1e-9)        # five times the overlap
    assert overlap.given_a_m3 == pytest.approx(0.75 * d**2 * HEIGHT, rel=1e-9)
    assert overlap.trimmed_b_m3 == pytest.approx(0.25 * d**2 * HEIGHT, rel=1e-9)
    assert overlap.given_b_m3 == pytest.approx(0.25 * d**2 * HEIGHT, rel=1e-9)


def test_a_stone_gives_a_support_the_whole_overlap_and_only_reported_overlaps_give_nothing():
    stone, ground = box([0, 0, -0.004], [1, 0.3, 1]), box([-1, -1, -0.2], [2, 2, 0])
    _, (overlap,) = resolve_overlaps(["a", "ground"], [stone, ground], [False, True])
    assert overlap.given_a_m3 == pytest.approx(0.004 * 0.3, rel=1e-9)
    assert overlap.trimmed_a_m3 == pytest.approx(0.004 * 0.3, rel=1e-9)
    assert (overlap.trimmed_b_m3, overlap.given_b_m3) == (0.0, 0.0)
    _, (reported,) = resolve_overlaps(["a", "ground"], [stone, ground], [False, True], trim=False)
    assert reported.overlap_m3 == pytest.approx(0.004 * 0.3, rel=1e-9)
    assert reported[-4:] == (0.0, 0.0, 0.0, 0.0)


def test_blocks_with_all_faces_coplanar_split_their_whole_volume():
    _, (overlap,) = resolve_overlaps(["a", "b"], [box([0, 0, 0], [1, 1, 1])] * 2, [False, False])
    assert overlap.overlap_m3 == pytest.approx(1.0, rel=1e-9)
    assert overlap[-4:] == tuple(pytest.approx(0.5, rel=1e-9) for _ in range(4))


@pytest.mark.parametrize("far, d, rel", [(1e5, 1e-8, 1e-2), (7e6, 1e-3, 1e-5)])
def test_overlaps_far_from_the_origin_are_measured_at_the_blocks_scale(far, d, rel):
    # two boxes 1 x 0.5 x 0.3 overlapping by d along x, turned, far from the origin (a national grid's northing is
    # 7e6 m): trimmed about the pair, the slab d x 0.5 x 0.3 is found to the coordinates' round-off (1e-11 m at
    # 1e5 m, 1e-9 m at 7e6 m). From the coordinates as they were, the face normals were off by 5e-6 and at 1e5 m
    # the 10 nm overlap came out 2e-6 m deep and cost A 0.017 m^3 and B 0.167 m^3 (more than its volume).
    turn = Rotation.from_euler("xyz", [30, 20, 10], degrees=True).as_matrix()
    _, (overlap,) = resolve_overlaps(["a", "b"], [box([0, 0, 0], [1, 0.5, 0.3], turn, far),
                                                  box([1 - d, 0, 0], [2 - d, 0.5, 0.3], turn, far)], [False, False])
    assert overlap.depth_m == pytest.approx(d, rel=rel)
    assert overlap.overlap_m3 == pytest.approx(d * 0.5 * 0.3, rel=rel)
    assert overlap[-4:] == tuple(pytest.approx(d * 0.5 * 0.3 / 2, rel=rel) for _ in range(4))


@pytest.mark.parametrize("inner, message", [
    (box([0.3, 0.3, 0.3], [0.6, 0.6, 0.6]), "nothing of it is left"),
    # B's x in [0.5, 0.75 + 1e-13]: the cut at x = 0.75 (the middle of A's top 1 and B's bottom 0.5) leaves 1e-13 m
    (box([0.5, 0.0, 0.0], [0.75 + 1e-13, 1.0, 1.0]), r"only a sliver 1e-13 m thick is left \(the points lie in one plane"),
    # a sliver of 0.5 um: thinner than the block check's 1e-6 of the block's size
    (box([0.5, 0.0, 0.0], [0.75 + 5e-7, 1.0, 1.0]), r"only a sliver 5e-07 m thick is left"),
])
def test_a_block_inside_its_neighbour_is_named_with_it(inner, message):
    with pytest.raises(SurveyError, match=f"^stone 'b': trimmed to its shared plane with 'a', {message}.*{INSIDE}"):
        resolve_overlaps(["a", "b"], [box([0, 0, 0], [1, 1, 1]), inner], [False, False])


def test_a_stone_extruded_inside_its_neighbour_is_refused_by_extrados_survey(tmp_path, capsys):
    # a's face [0, 1]^2 in y = 0, 0.3 m deep; b's face [0.3, 0.6]^2 seen behind it at y = 0.1, 0.05 m deep:
    # b lies inside a, and the cut at y = 0.075 (the middle of their 0.15 m penetration along y) leaves none of it
    stones = [StonePoints("a", square_face(0.0, 0.0, 0.0), NO_CORNERS),
              StonePoints("b", square_face(0.3, 0.1, 0.3, size=0.3), NO_CORNERS)]
    with pytest.raises(SurveyError, match=f"^stone 'b': trimmed to its shared plane with 'a', nothing.*{INSIDE}"):
        survey_to_model(stones, {"a": StoneInfo({}, depth=0.3), "b": StoneInfo({}, depth=0.05)}, {},
                        into_wall=INTO_WALL)
    (tmp_path / "points.csv").write_text("stone,x,y,z\n" + "".join(
        f"{stone.stone},{x},{y},{z}\n" for stone in stones for x, y, z in stone.points))
    (tmp_path / "stones.csv").write_text("stone,type\na,stretcher\nb,core\n")
    (tmp_path / "depths.json").write_text('{"stretcher": 0.3, "core": 0.05}')
    code = main(["survey", str(tmp_path / "points.csv"), "--stones", str(tmp_path / "stones.csv"), "--depths",
                 str(tmp_path / "depths.json"), "--out", str(tmp_path / "model.json"), "--viewpoint", "0.5", "-10", "0.5"])
    error = capsys.readouterr().err
    assert code == 2 and error.startswith("extrados: error: stone 'b': trimmed to its shared plane with 'a', nothing")
    assert "Check the two stones' points, their depths and the station or viewpoint" in error
    assert not (tmp_path / "model.json").exists()
