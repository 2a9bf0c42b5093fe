"""The blocky simplification of seed 002 sec. 4.1 (engine.survey.quad_outline): a face outline
reshaped to a quadrilateral, so that each ashlar becomes a hexahedron, against closed forms."""
import numpy as np
import pytest

from extrados.engine.survey.stones import StoneInfo, StonePoints, SurveyError
from extrados.engine.survey.to_model import survey_to_model

ANGLE = np.radians(7.0)                 # the face's rectangle turned in its plane (x, z)
LENGTH, HEIGHT, BEVEL = 0.6, 0.3, 0.03  # m; BEVEL cut off each corner at 45 degrees
NO_CORNERS = np.zeros((0, 3))


def bevelled_face():
    """Points on the outline of a LENGTH x HEIGHT rectangle in the plane y = 0, turned by ANGLE, each
    corner bevelled by BEVEL along both edges (an eroded ashlar), and on a grid inside it."""
    corners = []
    for x, z, dx, dz in ((0, 0, 1, 1), (LENGTH, 0, -1, 1), (LENGTH, HEIGHT, -1, -1), (0, HEIGHT, 1, -1)):
        corners += [(x + dx * BEVEL, z), (x, z + dz * BEVEL)] if dx * dz > 0 else [(x, z + dz * BEVEL),
                                                                                   (x + dx * BEVEL, z)]
    grid = [(x, z) for x in np.linspace(0.1, 0.5, 5) for z in np.linspace(0.1, 0.2, 3)]
    xz = np.array(corners + grid)
    turn = np.array([[np.cos(ANGLE), -np.sin(ANGLE)], [np.sin(ANGLE), np.cos(ANGLE)]])
    xz = xz @ turn.T
    return np.column_stack([xz[:, 0], np.zeros(len(xz)), xz[:, 1]]), turn


def test_a_bevelled_face_becomes_its_rectangle_and_a_hexahedron():
    points, turn = bevelled_face()
    table = {"a": StoneInfo({}, depth=0.25)}
    document, report = survey_to_model([StonePoints("a", points, NO_CORNERS)], table, {},
                                       into_wall=(0.0, 1.0, 0.0), outline="quad")
    (block,), (stone,) = document["blocks"], report.stones
    assert len(block["faces"]) == 6 and all(len(face) == 4 for face in block["faces"])
    vertices = np.asarray(block["vertices"])
    front = vertices[vertices[:, 1] < 0.1][:, [0, 2]] @ turn          # back in the rectangle's own axes
    assert np.ptp(front[:, 0]) == pytest.approx(LENGTH, abs=1e-12)
    assert np.ptp(front[:, 1]) == pytest.approx(HEIGHT, abs=1e-12)
    # the hull misses a right triangle of legs BEVEL at each corner: the quad's corner lies BEVEL / sqrt(2)
    # from the bevel, and the quad's area exceeds the hull's by 4 BEVEL^2 / 2
    assert stone.quad_deviation_m == pytest.approx(BEVEL / np.sqrt(2.0), rel=1e-9)
    assert stone.quad_area_change_m2 == pytest.approx(2.0 * BEVEL ** 2, rel=1e-9)
    assert stone.outline_area_m2 == pytest.approx(LENGTH * HEIGHT, rel=1e-9)
    assert stone.volume_m3 == pytest.approx(LENGTH * HEIGHT * 0.25, rel=1e-9)


def test_four_measured_corners_make_the_quad_through_them():
    # a trapezoid measured by its four corners, with points inside: the quad is the trapezoid, not a rectangle
    corners = np.array([[0, 0, 0], [1, 0, 0], [0.9, 0, 0.4], [0.1, 0, 0.4]], float)
    inside = np.array([[0.5, 0, 0.2], [0.3, 0, 0.1]])
    stones = [StonePoints("a", np.vstack([corners, inside]), corners)]
    document, report = survey_to_model(stones, {"a": StoneInfo({}, depth=0.3)}, {}, into_wall=(0.0, 1.0, 0.0),
                                       outline="quad")
    (stone,) = report.stones
    assert stone.quad_deviation_m == pytest.approx(0.0, abs=1e-12) and stone.quad_area_change_m2 == pytest.approx(
        0.0, abs=1e-12)
    assert stone.outline_area_m2 == pytest.approx(0.5 * (1.0 + 0.8) * 0.4, rel=1e-9)
    assert len(document["blocks"][0]["faces"]) == 6


def test_the_hull_outline_reports_no_quad_and_an_unknown_outline_is_refused():
    points, _ = bevelled_face()
    stones = [StonePoints("a", points, NO_CORNERS)]
    table = {"a": StoneInfo({}, depth=0.25)}
    document, report = survey_to_model(stones, table, {}, into_wall=(0.0, 1.0, 0.0))
    assert report.stones[0].quad_deviation_m is None and len(document["blocks"][0]["faces"]) == 10
    with pytest.raises(SurveyError, match="outline is 'box'; it must be one of hull, quad"):
        survey_to_model(stones, table, {}, into_wall=(0.0, 1.0, 0.0), outline="box")
