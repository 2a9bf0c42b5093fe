"""Contact detection against hand-computed geometry: packing, broad phase, narrow phase.

Blocks are given by world vertices (or body vertices and a pose); every expected
point, normal, gap and joint-polygon area below is worked out by hand in the comments.
"""
import itertools
import math

import numpy as np
import pytest

from extrados.engine.collision.broad_phase import block_aabbs, broad_phase, sweep_and_prune
from extrados.engine.collision.coherence import DetectionCache
from extrados.engine.collision.detect import detect_contacts
from extrados.engine.geometry.packed import pack_polyhedra, pose_polyhedra
from extrados.engine.geometry.quaternion import quat_from_axis_angle, quat_multiply
from extrados.engine.tolerance import TOL

ENVELOPE = 0.005
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
#: Box faces for corners ordered bottom (z0) x0y0, x1y0, x1y1, x0y1, then the same on top.
BOX_FACES = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]]
#: Feature ids hold their kind (reference face on A / on B / edge-edge) in bits 56 and up.
KIND_SHIFT = 56


# --- helpers ----------------------------------------------------------------------------
def box_corners(lo, hi):
    """(8, 3) corners of the axis-aligned box [lo, hi], in BOX_FACES order."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    return np.array([[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0],
                     [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]], float)


def centred_box(half):
    """(8, 3) corners of a box of half-sizes `half` centred on the origin."""
    half = np.asarray(half, float)
    return box_corners(-half, half)


def voussoir_corners(inner, outer, angle0_deg, angle1_deg, depth):
    """(8, 3) corners of an arch voussoir in the xz-plane, in BOX_FACES order.

    Box coordinates (x, y, z) map to (radius, y, angle): (r, y, t) -> (r cos t, y, r sin t),
    whose Jacobian determinant is r > 0, so BOX_FACES stay outward.
    """
    corners = []
    for angle in (angle0_deg, angle1_deg):
        t = math.radians(angle)
        for r, y in ((inner, -depth / 2), (outer, -depth / 2), (outer, depth / 2), (inner, depth / 2)):
            corners.append([r * math.cos(t), y, r * math.sin(t)])
    return np.array(corners)


def detect_world(corner_sets, faces=None, supports=None, envelope=ENVELOPE):
    """Detect contacts between blocks given by world corners (origin at the corner centroid)."""
    faces = faces or [BOX_FACES] * len(corner_sets)
    centres = np.array([c.mean(axis=0) for c in corner_sets])
    packed = pack_polyhedra([c - centre for c, centre in zip(corner_sets, centres)], faces)
    orientation = np.tile(IDENTITY, (len(corner_sets), 1))
    is_support = np.zeros(len(corner_sets), bool) if supports is None else np.asarray(supports)
    return detect_contacts(packed, centres, orientation, is_support, envelope)


def detect_posed(body_corner_sets, positions, orientations, envelope=ENVELOPE):
    """Detect contacts between boxes given in their body frames and posed by quaternions."""
    packed = pack_polyhedra(body_corner_sets, [BOX_FACES] * len(body_corner_sets))
    return detect_contacts(packed, np.asarray(positions, float), np.asarray(orientations, float),
                           np.zeros(len(body_corner_sets), bool), envelope)


def polygon_area(points, normal):
    """Signed area of a polygon about `normal` (positive when counter-clockwise)."""
    return 0.5 * float(np.dot(np.cross(points, np.roll(points, -1, axis=0)).sum(axis=0), normal))


def assert_points(actual, expected, atol=1e-12):
    """The two point sets are equal up to order."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape
    for p in expected:
        assert np.min(np.linalg.norm(actual - p, axis=1)) < atol, f"{p} not among {actual}"


def rotation_about(axis, angle_rad):
    """(3, 3) rotation matrix about `axis`."""
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle_rad) * k + (1 - math.cos(angle_rad)) * k @ k


UNIT_BOX = centred_box([0.5, 0.5, 0.5])


# --- packing ----------------------------------------------------------------------------
def test_pack_unit_box_planes_edges_and_radius():
    packed = pack_polyhedra([UNIT_BOX], [BOX_FACES])
    # bottom, top, -y, +x, +y, -x, each plane at distance 0.5
    expected_normals = [[0, 0, -1], [0, 0, 1], [0, -1, 0], [1, 0, 0], [0, 1, 0], [-1, 0, 0]]
    np.testing.assert_allclose(packed.face_normal_local, expected_normals, atol=1e-15)
    np.testing.assert_allclose(packed.face_offset_local, 0.5, atol=1e-15)
    assert packed.face_start.tolist() == [0, 6]
    assert packed.face_vertex_start.tolist() == [0, 4, 8, 12, 16, 20, 24]
    assert packed.edge_start.tolist() == [0, 12]
    # each unique edge lies on both faces recorded for it, and has unit length
    for (i, j), (f, g) in zip(packed.edge_vertex, packed.edge_face):
        assert {i, j} <= set(BOX_FACES[f]) and {i, j} <= set(BOX_FACES[g]) and f != g
        assert np.linalg.norm(UNIT_BOX[i] - UNIT_BOX[j]) == pytest.approx(1.0)
    assert len({tuple(sorted(e)) for e in packed.edge_vertex.tolist()}) == 12
    assert packed.radius[0] == pytest.approx(math.sqrt(3) / 2)


def test_pack_rejects_open_polyhedron():
    with pytest.raises(ValueError, match=r"blocks\[0\].*not closed"):
        pack_polyhedra([UNIT_BOX], [BOX_FACES[:-1]])


# --- face contacts between boxes ----------------------------------------------------------
def test_coplanar_unit_boxes_give_the_four_corners_of_the_shared_square():
    contacts = detect_world([UNIT_BOX, UNIT_BOX + [0, 0, 1.0]])
    assert contacts.n_contacts == 4 and contacts.pair_start.tolist() == [0, 4]
    assert contacts.body_a.tolist() == [0] * 4 and contacts.body_b.tolist() == [1] * 4
    assert_points(contacts.point, [[x, y, 0.5] for x in (-0.5, 0.5) for y in (-0.5, 0.5)])
    np.testing.assert_allclose(contacts.normal, [[0, 0, 1]] * 4)
    np.testing.assert_allclose(contacts.gap, 0.0, atol=1e-15)
    assert polygon_area(contacts.point, [0, 0, 1]) == pytest.approx(1.0, rel=1e-12)


def test_upper_block_first_gives_downward_normal_and_counter_clockwise_polygon():
    # block 0 sits on block 1: the normal from 0 to 1 points down, the polygon turns about it
    contacts = detect_world([UNIT_BOX + [0, 0, 1.0], UNIT_BOX])
    np.testing.assert_allclose(contacts.normal, [[0, 0, -1]] * 4)
    assert polygon_area(contacts.point, [0, 0, -1]) == pytest.approx(1.0, rel=1e-12)


def test_offset_boxes_give_the_overlap_rectangle():
    # B shifted by (0.3, 0.2): overlap [-0.2, 0.5] x [-0.3, 0.5], area 0.7 * 0.8
    contacts = detect_world([UNIT_BOX, UNIT_BOX + [0.3, 0.2, 1.0]])
    assert_points(contacts.point, [[x, y, 0.5] for x in (-0.2, 0.5) for y in (-0.3, 0.5)])
    assert polygon_area(contacts.point, [0, 0, 1]) == pytest.approx(0.56, rel=1e-12)


def test_box_rotated_45_degrees_about_the_normal_gives_the_octagon():
    # two unit squares, one turned 45 deg: a regular octagon of inradius 0.5,
    # area 8 tan(22.5 deg) 0.5^2 = 2 (sqrt 2 - 1), corners at radius 0.5 / cos(22.5 deg)
    quarter_turn = quat_from_axis_angle([0, 0, 1], math.pi / 4)
    contacts = detect_posed([UNIT_BOX, UNIT_BOX], [[0, 0, 0], [0, 0, 1.0]], [IDENTITY, quarter_turn])
    assert contacts.n_contacts == 8
    assert polygon_area(contacts.point, [0, 0, 1]) == pytest.approx(2 * (math.sqrt(2) - 1), rel=1e-9)
    radii = np.linalg.norm(contacts.point[:, :2], axis=1)
    np.testing.assert_allclose(radii, 0.5 / math.cos(math.pi / 8), rtol=1e-12)
    np.testing.assert_allclose(contacts.point[:, 2], 0.5, atol=1e-12)


def octagonal_prism(circumradius, height, turn_rad):
    """(16, 3) corners and faces of a regular octagonal prism centred on the origin."""
    angles = turn_rad + np.arange(8) * math.pi / 4
    ring = np.c_[circumradius * np.cos(angles), circumradius * np.sin(angles)]
    corners = np.r_[np.c_[ring, np.full(8, -height / 2)], np.c_[ring, np.full(8, height / 2)]]
    faces = [list(range(7, -1, -1)), list(range(8, 16))]
    faces += [[k, (k + 1) % 8, 8 + (k + 1) % 8, 8 + k] for k in range(8)]
    return corners, faces


def test_sixteen_corner_patch_is_reduced_to_eight_keeping_a_large_area():
    # two regular octagons turned by 22.5 deg meet in a regular 16-gon with corners at
    # angles 11.25 + 22.5 k deg and radius cos(22.5) / cos(11.25) (inradius cos 22.5);
    # the best 8 of them, every other one, enclose 2 sqrt(2) r^2; the greedy least-loss
    # removal keeps 8 of the 16 corners and within 3 % of that best area
    lower, faces = octagonal_prism(1.0, 1.0, 0.0)
    upper, _ = octagonal_prism(1.0, 1.0, math.pi / 8)
    contacts = detect_world([lower, upper + [0, 0, 1.0]], faces=[faces, faces])
    assert contacts.n_contacts == 8
    radius = math.cos(math.pi / 8) / math.cos(math.pi / 16)
    angles = math.pi / 16 + np.arange(16) * math.pi / 8
    sixteen_gon = np.c_[radius * np.cos(angles), radius * np.sin(angles), np.full(16, 0.5)]
    for p in contacts.point:
        assert np.min(np.linalg.norm(sixteen_gon - p, axis=1)) < 1e-12
    area = polygon_area(contacts.point, [0, 0, 1])
    assert 0.97 * 2 * math.sqrt(2) * radius ** 2 <= area < 8 * radius ** 2 * math.sin(math.pi / 8)


@pytest.mark.parametrize("box_first", [False, True])
def test_box_on_its_edge_touches_at_the_two_edge_ends(box_first):
    # unit box turned 45 deg about x rests on its lowest edge (half-diagonal sqrt(2)/2 below
    # its centre) on a 2 x 2 slab with top face z = 0.5; the slab's top face is the reference
    # face whichever block comes first, so the normal from A to B is +z or -z
    slab = centred_box([1.0, 1.0, 0.5])
    eighth_turn = quat_from_axis_angle([1, 0, 0], math.pi / 4)
    blocks = [(slab, [0, 0, 0], IDENTITY), (UNIT_BOX, [0, 0, 0.5 + math.sqrt(2) / 2], eighth_turn)]
    if box_first:
        blocks.reverse()
    contacts = detect_posed(*(list(column) for column in zip(*blocks)))
    assert contacts.n_contacts == 2
    assert_points(contacts.point, [[-0.5, 0, 0.5], [0.5, 0, 0.5]], atol=1e-12)
    np.testing.assert_allclose(contacts.normal, [[0, 0, -1 if box_first else 1]] * 2, atol=1e-12)
    np.testing.assert_allclose(contacts.gap, 0.0, atol=1e-12)
    assert (contacts.feature_id >> KIND_SHIFT == (1 if box_first else 0)).all()


def test_slight_penetration_gives_negative_gap_and_midway_points():
    # B's bottom at z = 0.5 - p: the incident corner and its projection on z = 0.5 average to 0.5 - p/2
    penetration = 1e-4
    contacts = detect_world([UNIT_BOX, UNIT_BOX + [0, 0, 1.0 - penetration]])
    assert contacts.n_contacts == 4
    np.testing.assert_allclose(contacts.gap, -penetration, rtol=1e-9)
    np.testing.assert_allclose(contacts.point[:, 2], 0.5 - penetration / 2, rtol=1e-12)
    assert polygon_area(contacts.point, [0, 0, 1]) == pytest.approx(1.0, rel=1e-12)


def test_gap_beyond_the_envelope_gives_no_contact():
    contacts = detect_world([UNIT_BOX, UNIT_BOX + [0, 0, 1.0 + 2 * ENVELOPE]])
    assert contacts.n_contacts == 0 and contacts.n_pairs == 0
    assert contacts.pair_start.tolist() == [0]


def test_gap_within_the_envelope_gives_contacts_with_positive_gap():
    gap = 0.5 * ENVELOPE
    contacts = detect_world([UNIT_BOX, UNIT_BOX + [0, 0, 1.0 + gap]])
    assert contacts.n_contacts == 4
    np.testing.assert_allclose(contacts.gap, gap, rtol=1e-9)
    np.testing.assert_allclose(contacts.point[:, 2], 0.5 + gap / 2, rtol=1e-12)


# --- edge-edge ------------------------------------------------------------------------------
def test_crossing_edges_give_one_contact_between_the_edges():
    # A turned 45 deg about x: top edge along x at z = sqrt(2)/2; B turned 45 deg about y,
    # centred at z = sqrt(2) + g: bottom edge along y at z = sqrt(2)/2 + g
    gap = 0.001
    half_diagonal = math.sqrt(2) / 2
    contacts = detect_posed([UNIT_BOX, UNIT_BOX], [[0, 0, 0], [0, 0, 2 * half_diagonal + gap]],
                            [quat_from_axis_angle([1, 0, 0], math.pi / 4), quat_from_axis_angle([0, 1, 0], math.pi / 4)])
    assert contacts.n_contacts == 1
    np.testing.assert_allclose(contacts.point[0], [0, 0, half_diagonal + gap / 2], atol=1e-12)
    np.testing.assert_allclose(contacts.normal[0], [0, 0, 1], atol=1e-12)
    assert contacts.gap[0] == pytest.approx(gap, rel=1e-9)
    assert contacts.feature_id[0] >> KIND_SHIFT == 2


# --- non-box blocks -----------------------------------------------------------------------
VOUSSOIR = dict(inner=1.0, outer=1.3, depth=0.4)


def test_voussoir_on_a_box_springing():
    # voussoir from 0 to 20 deg: its 0-deg face is the plane z = 0, x in [1, 1.3], y in [-0.2, 0.2]
    voussoir = voussoir_corners(angle0_deg=0.0, angle1_deg=20.0, **VOUSSOIR)
    springer = box_corners([0.8, -0.3, -0.5], [1.5, 0.3, 0.0])
    contacts = detect_world([springer, voussoir], supports=[True, False])
    assert_points(contacts.point, [[x, y, 0.0] for x in (1.0, 1.3) for y in (-0.2, 0.2)], atol=1e-12)
    np.testing.assert_allclose(contacts.normal, [[0, 0, 1]] * 4, atol=1e-12)
    assert polygon_area(contacts.point, [0, 0, 1]) == pytest.approx(0.3 * 0.4, rel=1e-12)


def test_two_voussoirs_meet_on_their_radial_joint():
    # joint plane at 20 deg: normal (-sin 20, 0, cos 20) from the lower to the upper voussoir,
    # polygon (outer - inner) x depth with corners at r in {1, 1.3}, y = +-0.2
    lower = voussoir_corners(angle0_deg=0.0, angle1_deg=20.0, **VOUSSOIR)
    upper = voussoir_corners(angle0_deg=20.0, angle1_deg=40.0, **VOUSSOIR)
    contacts = detect_world([lower, upper])
    t = math.radians(20.0)
    normal = [-math.sin(t), 0.0, math.cos(t)]
    assert_points(contacts.point, [[r * math.cos(t), y, r * math.sin(t)] for r in (1.0, 1.3) for y in (-0.2, 0.2)],
                  atol=1e-12)
    np.testing.assert_allclose(contacts.normal, [normal] * 4, atol=1e-12)
    np.testing.assert_allclose(contacts.gap, 0.0, atol=1e-12)
    assert polygon_area(contacts.point, normal) == pytest.approx(0.3 * 0.4, rel=1e-12)


# --- a running-bond wall ------------------------------------------------------------------
BRICK_LENGTH, BRICK_HEIGHT, BRICK_DEPTH = 0.4, 0.175, 0.2


def running_bond_wall(courses=4, bricks=5):
    """Boxes (lo, hi) of a wall on two support slabs that touch each other.

    Even courses: `bricks` whole bricks; odd courses: half, bricks - 1 whole, half.
    """
    length = bricks * BRICK_LENGTH
    boxes = [((-0.3, -0.2, -0.3), (length / 2, 0.2, 0.0)), ((length / 2, -0.2, -0.3), (length + 0.3, 0.2, 0.0))]
    for course in range(courses):
        joints = np.arange(bricks + 1) * BRICK_LENGTH
        if course % 2:
            joints = np.r_[0.0, joints[:-1] + BRICK_LENGTH / 2, length]
        z0 = course * BRICK_HEIGHT
        boxes += [((x0, -BRICK_DEPTH / 2, z0), (x1, BRICK_DEPTH / 2, z0 + BRICK_HEIGHT))
                  for x0, x1 in zip(joints[:-1], joints[1:])]
    return boxes


def expected_joints(boxes, n_supports):
    """{(i, j): (area, axis)} of boxes sharing a face patch of positive area, supports apart."""
    joints = {}
    for i, j in itertools.combinations(range(len(boxes)), 2):
        if i < n_supports and j < n_supports:
            continue
        lo_i, hi_i = np.array(boxes[i][0]), np.array(boxes[i][1])
        lo_j, hi_j = np.array(boxes[j][0]), np.array(boxes[j][1])
        overlap = np.minimum(hi_i, hi_j) - np.maximum(lo_i, lo_j)
        touching = np.isclose(overlap, 0.0, atol=1e-12)
        if touching.sum() == 1 and (overlap[~touching] > 1e-12).all():
            axis = int(np.flatnonzero(touching)[0])
            joints[(i, j)] = (float(np.prod(overlap[~touching])), axis)
    return joints


def test_running_bond_wall_finds_every_joint_once_with_its_area():
    boxes = running_bond_wall()
    n_supports = 2
    contacts = detect_world([box_corners(lo, hi) for lo, hi in boxes],
                            supports=[k < n_supports for k in range(len(boxes))])
    expected = expected_joints(boxes, n_supports)
    # head joints 4 + 5 + 4 + 5 in courses of 5, 6, 5, 6 bricks; bed joints 5 + 6 - 1 = 10
    # between two courses (the pieces between their merged head joints); 3 + 3 course-0
    # bricks on the two slabs (the middle one on both); never the slabs with each other
    assert len(expected) == 18 + 3 * 10 + 6
    starts = contacts.pair_start
    found = {}
    for k in range(contacts.n_pairs):
        s, e = starts[k], starts[k + 1]
        pair = (int(contacts.body_a[s]), int(contacts.body_b[s]))
        assert pair not in found, f"pair {pair} found twice"
        assert (contacts.body_a[s:e] == pair[0]).all() and (contacts.body_b[s:e] == pair[1]).all()
        found[pair] = (polygon_area(contacts.point[s:e], contacts.normal[s]), contacts.normal[s], e - s)
    assert set(found) == set(expected)
    for pair, (area, axis) in expected.items():
        found_area, normal, count = found[pair]
        assert count == 4
        assert found_area == pytest.approx(area, rel=1e-9), pair
        direction = np.sign(np.mean(box_corners(*boxes[pair[1]]), axis=0) - np.mean(box_corners(*boxes[pair[0]]), axis=0))
        np.testing.assert_allclose(normal, np.eye(3)[axis] * direction[axis], atol=1e-12)
    np.testing.assert_allclose(contacts.gap, 0.0, atol=1e-12)
    assert not any(a < n_supports and b < n_supports for a, b in found)
    assert contacts.pair.tolist() == np.repeat(np.arange(contacts.n_pairs), np.diff(starts)).tolist()


def stack_bond_wall(courses=3, bricks=4):
    """Boxes (lo, hi) of a wall whose head joints line up course over course (stack bond), on one slab."""
    boxes = [((-0.3, -0.2, -0.3), (bricks * BRICK_LENGTH + 0.3, 0.2, 0.0))]
    for course in range(courses):
        z0 = course * BRICK_HEIGHT
        boxes += [((k * BRICK_LENGTH, -BRICK_DEPTH / 2, z0),
                   ((k + 1) * BRICK_LENGTH, BRICK_DEPTH / 2, z0 + BRICK_HEIGHT)) for k in range(bricks)]
    return boxes


def found_pairs(contacts):
    """{(a, b): number of contacts} of the detected pairs."""
    starts = contacts.pair_start
    return {(int(contacts.body_a[starts[k]]), int(contacts.body_b[starts[k]])): int(starts[k + 1] - starts[k])
            for k in range(contacts.n_pairs)}


def test_diagonal_neighbours_of_a_stack_bond_wall_make_no_contact():
    # bricks of courses c and c + 1 in neighbouring columns share only an edge: the coplanar head (or bed)
    # faces abut without area, so no joint and no contact; every face joint keeps its four corners
    boxes = stack_bond_wall()
    contacts = detect_world([box_corners(lo, hi) for lo, hi in boxes], supports=[True] + [False] * (len(boxes) - 1))
    expected = expected_joints(boxes, 1)
    # head joints 3 per course, bed joints 4 per course pair and 4 on the slab
    assert len(expected) == 3 * 3 + 4 * 2 + 4
    found = found_pairs(contacts)
    assert set(found) == set(expected)
    assert set(found.values()) == {4}


@pytest.mark.parametrize("shift, corners", [(0.0, 0), (0.5e-4, 0), (2e-3, 4)])
def test_coplanar_faces_that_only_abut_make_no_contact_until_they_overlap(shift, corners):
    # B sits on the plane of A's top face, its bottom face starting where A's top face ends (x = 0.5 - shift):
    # an overlap of width below the merge distance (1e-4 of the 1.73 m diameter) is no joint; 2 mm is one
    contacts = detect_world([UNIT_BOX, UNIT_BOX + [1.0 - shift, 0.0, 1.0]])
    assert contacts.n_contacts == corners
    if corners:
        assert polygon_area(contacts.point, [0, 0, 1]) == pytest.approx(shift * 1.0, rel=1e-9)


def test_a_block_tilted_on_the_edge_of_another_keeps_its_line_contact():
    # B turned 5 deg about the y axis through A's top edge x = 0.5, z = 0.5, its bottom right edge on that
    # edge: the faces tilt, so B rests on A's edge (two contacts at the edge ends), as a rocking block does
    tilt = math.radians(5.0)
    pivot = np.array([0.5, 0.0, 0.5])
    turn = rotation_about([0, 1, 0], tilt)   # lifts the left of B
    upper = (UNIT_BOX + [0.0, 0.0, 1.0] - pivot) @ turn.T + pivot
    contacts = detect_world([UNIT_BOX, upper])
    assert contacts.n_contacts == 2
    assert_points(contacts.point, [[0.5, -0.5, 0.5], [0.5, 0.5, 0.5]], atol=1e-9)


# --- broad phase ----------------------------------------------------------------------------
def test_broad_phase_equals_brute_force_aabb_overlaps():
    rng = np.random.default_rng(7)
    n = 120
    halves = rng.uniform(0.1, 0.6, (n, 3))
    packed = pack_polyhedra([centred_box(h) for h in halves], [BOX_FACES] * n)
    position = rng.uniform(0.0, 5.0, (n, 3))
    orientation = rng.normal(size=(n, 4))
    orientation /= np.linalg.norm(orientation, axis=1, keepdims=True)
    is_support = rng.random(n) < 0.3
    posed = pose_polyhedra(packed, position, orientation)
    aabb_min, aabb_max = block_aabbs(posed.vertex, packed.vertex_start, ENVELOPE)
    # the boxes are those of the rotated corners, inflated by the envelope
    for k in range(n):
        corners = posed.vertex[packed.vertex_start[k]:packed.vertex_start[k + 1]]
        np.testing.assert_allclose(aabb_min[k], corners.min(axis=0) - ENVELOPE)
        np.testing.assert_allclose(aabb_max[k], corners.max(axis=0) + ENVELOPE)
    brute = [(i, j) for i, j in itertools.combinations(range(n), 2)
             if not (is_support[i] and is_support[j])
             and (aabb_min[i] <= aabb_max[j]).all() and (aabb_min[j] <= aabb_max[i]).all()]
    assert len(brute) > 50
    assert sweep_and_prune(aabb_min, aabb_max, is_support).tolist() == [list(p) for p in brute]


# --- feature ids --------------------------------------------------------------------------
def test_feature_ids_survive_a_tiny_rigid_motion():
    # offset boxes: the patch corners come from an incident corner, two edge crossings and a
    # reference corner; a 1e-7 rigid motion keeps each on the same features
    positions = np.array([[0.0, 0.0, 0.0], [0.3, 0.2, 1.0]])
    before = detect_posed([UNIT_BOX, UNIT_BOX], positions, [IDENTITY, IDENTITY])
    nudge = quat_from_axis_angle([0.3, -0.5, 0.8], 1e-7)
    after = detect_posed([UNIT_BOX, UNIT_BOX], positions + [[0, 0, 0], [1e-7, -2e-7, 1e-7]], [IDENTITY, nudge])
    assert before.n_contacts == after.n_contacts == 4
    assert len(set(before.feature_id.tolist())) == 4
    assert before.feature_id.tolist() == after.feature_id.tolist()
    np.testing.assert_allclose(before.point, after.point, atol=1e-6)


def test_nearly_coincident_faces_keep_four_corners_and_their_ids():
    # equal unit squares jittered by 1e-6 (below the merge length 1e-4 x diameter) would clip
    # to an octagon with 1e-6 slivers; the corners merge back to 4 with the same ids
    before = detect_posed([UNIT_BOX, UNIT_BOX], [[0, 0, 0], [0, 0, 1.0]], [IDENTITY, IDENTITY])
    rng = np.random.default_rng(3)
    for _ in range(5):
        jitter = quat_from_axis_angle(rng.normal(size=3), 1e-6)
        after = detect_posed([UNIT_BOX, UNIT_BOX], [[0, 0, 0], [0, 0, 1.0] + 1e-6 * rng.normal(size=3)],
                             [IDENTITY, jitter])
        assert after.feature_id.tolist() == before.feature_id.tolist()
        np.testing.assert_allclose(after.point, before.point, atol=1e-5)


def test_pair_polygon_area_gives_each_joint_area_of_a_wall():
    from extrados import Model, generators
    from extrados.engine.contact.laws import pair_polygon_area
    from extrados.engine.pipeline import detect
    from extrados.engine.state import State

    model = Model.from_dict(generators.generate("wall", courses=3, blocks_per_course=3, block_length=0.4,
                                                block_height=0.175, depth=0.2))
    contacts = detect(model, State.initial(model.mechanics))
    areas = np.sort(pair_polygon_area(contacts))
    # head joints 0.175 x 0.2, bed joints between half-overlapping bricks 0.2 x 0.2, whole bricks on the ground 0.4 x 0.2
    assert set(np.round(areas, 12)) == {0.035, 0.04, 0.08}


# --- temporal coherence (engine.collision.coherence) --------------------------------------------
#: Feature ids hold the first index (reference face, or edge of A) in bits 40-55, the second
#: (incident face, or edge of B) in bits 24-39.
FIRST_SHIFT, SECOND_SHIFT = 40, 24


def feature_choice(feature_id):
    """(kind, first, second) of the SAT feature a contact came from, local indices."""
    f = int(feature_id)
    return f >> KIND_SHIFT, (f >> FIRST_SHIFT) & 0xFFFF, (f >> SECOND_SHIFT) & 0xFFFF


def contacts_by_pair(contacts):
    """{(a, b): slice of the pair's contacts}."""
    starts = contacts.pair_start
    return {(int(contacts.body_a[s]), int(contacts.body_b[s])): slice(s, e) for s, e in zip(starts[:-1], starts[1:])}


def axis_separation(packed, posed, a, b, choice):
    """Separation of blocks a, b along the axis of a feature choice (what the SAT compares)."""
    kind, first, second = choice
    if kind == 2:
        ends_a = posed.vertex[packed.vertex_start[a] + packed.edge_vertex[packed.edge_start[a] + first]]
        ends_b = posed.vertex[packed.vertex_start[b] + packed.edge_vertex[packed.edge_start[b] + second]]
        axis = np.cross(ends_a[1] - ends_a[0], ends_b[1] - ends_b[0])
        axis *= np.sign(axis @ (ends_a[0] - posed.centre[a])) / np.linalg.norm(axis)
        return float(axis @ (ends_b[0] - ends_a[0]))
    face_body, other = (a, b) if kind == 0 else (b, a)
    face = packed.face_start[face_body] + first
    vertices = posed.vertex[packed.vertex_start[other]:packed.vertex_start[other + 1]]
    return float((vertices @ posed.face_normal[face]).min() - posed.face_offset[face])


def reuse_tie(packed, position, a, b):
    """Largest margin (m) by which a reused feature may trail the SAT's choice for pair a, b.

    Within the reuse thresholds every compared separation moves by at most |dt| + theta
    (r_a + r_b + |t|) (engine.collision.coherence), twice that between two features, plus
    the biases the SAT adds.
    """
    radius_a, radius_b = packed.radius[a], packed.radius[b]
    offset = np.linalg.norm(position[b] - position[a])
    motion = (TOL.sat_reuse_translation_relative * min(radius_a, radius_b)
              + TOL.sat_reuse_angle * (radius_a + radius_b + offset))
    return 2 * motion + TOL.sat_face_bias + TOL.sat_reference_bias


def compare_with_full_detection(packed, position, orientation, cached, envelope=ENVELOPE):
    """Check cached contacts against a full detection; returns the number of pairs whose
    reused feature differs from the SAT's choice (each a near tie)."""
    full = detect_contacts(packed, position, orientation, np.zeros(len(position), bool), envelope)
    assert cached.n_candidate_pairs == full.n_candidate_pairs
    by_pair_cached, by_pair_full = contacts_by_pair(cached), contacts_by_pair(full)
    assert set(by_pair_cached) == set(by_pair_full)
    posed = pose_polyhedra(packed, position, orientation)
    ties = 0
    for pair, sc in by_pair_cached.items():
        sf = by_pair_full[pair]
        chosen, reused = feature_choice(full.feature_id[sf.start]), feature_choice(cached.feature_id[sc.start])
        if chosen != reused:
            ties += 1
            trail = axis_separation(packed, posed, *pair, chosen) - axis_separation(packed, posed, *pair, reused)
            assert abs(trail) <= reuse_tie(packed, position, *pair), (pair, chosen, reused, trail)
            continue
        assert cached.feature_id[sc].tolist() == full.feature_id[sf].tolist()
        for name in ("point", "normal", "gap"):
            np.testing.assert_allclose(getattr(cached, name)[sc], getattr(full, name)[sf], rtol=0, atol=1e-12)
    return ties


def sat_runs(before, after):
    """Pairs of ``after`` (PairFeatures) whose SAT ran: new, or kept at another pose."""
    kept = {int(k): pose for k, pose in zip(before.key, before.pose)}
    return sum(int(k) not in kept or not np.array_equal(kept[int(k)], pose) for k, pose in zip(after.key, after.pose))


def rotated(orientation, axis, angle_rad):
    """A unit quaternion turned further by angle_rad about a world axis."""
    return np.asarray(quat_multiply(quat_from_axis_angle(axis, angle_rad), orientation))


def test_cached_detection_equals_full_detection_on_a_moving_arch():
    # nine voussoirs of a semicircular arch and a pair of boxes touching edge to edge, each
    # block random-walking at each step either by 1e-8 (resting: its pairs reuse their
    # features) or by 1e-4 m and rad (moving: its pairs run the SAT); for 150 steps the
    # cached contacts equal the full detection's wherever the feature is the same
    angles = np.linspace(0.0, 180.0, 10)
    corners = [voussoir_corners(angle0_deg=a0, angle1_deg=a1, **VOUSSOIR) for a0, a1 in zip(angles[:-1], angles[1:])]
    half_diagonal = math.sqrt(2) / 2
    edge_pair = [quat_from_axis_angle([1, 0, 0], math.pi / 4), quat_from_axis_angle([0, 1, 0], math.pi / 4)]
    position = np.array([c.mean(axis=0) for c in corners] + [[5.0, 0, 0], [5.0, 0, 2 * half_diagonal + 1e-3]])
    packed = pack_polyhedra([c - centre for c, centre in zip(corners, position)] + [UNIT_BOX, UNIT_BOX],
                            [BOX_FACES] * (len(corners) + 2))
    orientation = np.array([IDENTITY] * len(corners) + edge_pair)
    rng = np.random.default_rng(11)
    cache = DetectionCache()
    reused = ran = ties = 0
    for _ in range(150):
        before = cache.features
        contacts = detect_contacts(packed, position, orientation, np.zeros(len(position), bool), ENVELOPE, cache)
        runs = sat_runs(before, cache.features)
        ran += runs
        reused += len(cache.features.key) - runs
        ties += compare_with_full_detection(packed, position, orientation, contacts)
        step = np.where(rng.random(len(position)) < 0.3, 1e-4, 1e-8)
        position = position + step[:, None] * rng.normal(size=position.shape)
        orientation = np.array([rotated(q, rng.normal(size=3), s * rng.normal()) for q, s in zip(orientation, step)])
    assert len(contacts_by_pair(contacts)) == 9
    assert reused > 300 and ran > 300
    assert ties <= 0.01 * (reused + ran)


def test_sat_runs_again_once_a_block_moves_or_turns_beyond_the_threshold():
    packed = pack_polyhedra([UNIT_BOX, UNIT_BOX], [BOX_FACES] * 2)
    translation = TOL.sat_reuse_translation_relative * packed.radius.min()
    position = np.array([[0.0, 0.0, 0.0], [0.2, 0.1, 1.0]])
    orientation = np.array([IDENTITY, IDENTITY])
    cache = DetectionCache()

    def detect_and_runs(position, orientation):
        before = cache.features
        contacts = detect_contacts(packed, position, orientation, np.zeros(2, bool), ENVELOPE, cache)
        compare_with_full_detection(packed, position, orientation, contacts)
        return sat_runs(before, cache.features)

    assert detect_and_runs(position, orientation) == 1
    # below both thresholds, however often: the feature is reused, the points follow the block;
    # B's tilt makes its bottom face the better reference by more than TOL.sat_reference_bias,
    # a near tie that keeps A's top face
    for k in range(1, 4):
        assert detect_and_runs(position + [[0, 0, 0], [0.3 * k * translation, 0, 0]], orientation) == 0
    assert detect_and_runs(position, np.array([IDENTITY, rotated(IDENTITY, [0, 1, 1], 0.9 * TOL.sat_reuse_angle)])) == 0
    # beyond either, measured from the pose of the last test
    moved = position + [[0, 0, 0], [1.1 * translation, 0, 0]]
    assert detect_and_runs(moved, orientation) == 1
    assert detect_and_runs(moved, np.array([IDENTITY, rotated(IDENTITY, [1, 0, 0], 1.1 * TOL.sat_reuse_angle)])) == 1
    # a relative motion counts, a common one does not: both blocks turned and moved together
    common = rotated(IDENTITY, [0, 0, 1], 0.3)
    assert detect_and_runs(position @ rotation_about([0, 0, 1], 0.3).T + 2.0, np.array([common, common])) == 1
    assert detect_and_runs(position @ rotation_about([0, 0, 1], 0.3).T + 2.0 + 1e-3, np.array([common, common])) == 0
    # a block moved to another face of its neighbour gets that face's contacts
    beside = detect_contacts(packed, np.array([[0, 0, 0], [1.0, 0.2, 0.1]]), orientation, np.zeros(2, bool),
                             ENVELOPE, cache)
    assert compare_with_full_detection(packed, np.array([[0, 0, 0], [1.0, 0.2, 0.1]]), orientation, beside) == 0
    np.testing.assert_allclose(beside.normal, [[1, 0, 0]] * 4, atol=1e-12)


def test_a_block_coming_into_contact_is_found_while_the_broad_phase_reuses_its_sweep():
    # B falls onto A by 1 mm a step from 30.5 mm above; the sweep of the fat boxes (envelope +
    # 5 mm margin) runs again only once B has fallen more than the margin, every 5 or 6 steps;
    # the contact appears at the same step as in a full detection, the first gap below the envelope
    packed = pack_polyhedra([UNIT_BOX, UNIT_BOX], [BOX_FACES] * 2)
    orientation = np.array([IDENTITY, IDENTITY])
    cache = DetectionCache()
    sweeps = 0
    first_contact_gap = None
    for gap in 1e-3 * (np.arange(30, -1, -1) + 0.5):
        position = np.array([[0, 0, 0], [0.1, 0, 1.0 + gap]])
        fat = cache.fat
        contacts = detect_contacts(packed, position, orientation, np.zeros(2, bool), ENVELOPE, cache)
        sweeps += cache.fat is not fat
        assert compare_with_full_detection(packed, position, orientation, contacts) == 0
        if contacts.n_contacts and first_contact_gap is None:
            first_contact_gap = gap
    assert first_contact_gap == pytest.approx(0.0045)
    assert contacts.n_contacts == 4
    assert TOL.broad_phase_margin_relative * ENVELOPE == pytest.approx(5e-3)
    assert 5 <= sweeps <= 7


def test_broad_phase_from_fat_boxes_equals_a_new_sweep():
    # random boxes swept once, then moved by up to half the margin (fat boxes reused) and
    # by more (swept again): the pairs are always those of a sweep of the current boxes
    rng = np.random.default_rng(5)
    n = 80
    packed = pack_polyhedra([centred_box(h) for h in rng.uniform(0.1, 0.6, (n, 3))], [BOX_FACES] * n)
    position = rng.uniform(0.0, 4.0, (n, 3))
    orientation = np.tile(IDENTITY, (n, 1))
    is_support = rng.random(n) < 0.2
    _, fat = broad_phase(pose_polyhedra(packed, position, orientation), packed.vertex_start, is_support, ENVELOPE)
    margin = TOL.broad_phase_margin_relative * ENVELOPE
    for step, swept in ((0.5 * margin, False), (3.0 * margin, True)):
        moved = position + rng.uniform(-step, step, (n, 3)) / math.sqrt(3)
        posed = pose_polyhedra(packed, moved, orientation)
        pairs, next_fat = broad_phase(posed, packed.vertex_start, is_support, ENVELOPE, fat)
        assert (next_fat is not fat) == swept
        aabb_min, aabb_max = block_aabbs(posed.vertex, packed.vertex_start, ENVELOPE)
        assert pairs.tolist() == sweep_and_prune(aabb_min, aabb_max, is_support).tolist()


def test_detection_cache_starts_afresh_for_other_blocks_supports_or_envelope():
    boxes = pack_polyhedra([UNIT_BOX, UNIT_BOX], [BOX_FACES] * 2)
    other = pack_polyhedra([UNIT_BOX, UNIT_BOX], [BOX_FACES] * 2)
    position, orientation = np.array([[0, 0, 0], [0, 0, 1.0]]), np.array([IDENTITY, IDENTITY])
    supports = np.zeros(2, bool)
    cache = DetectionCache()
    detect_contacts(boxes, position, orientation, supports, ENVELOPE, cache)
    kept = cache.features
    cache.fit(boxes, supports.copy(), ENVELOPE)
    assert cache.features is kept and len(kept.key) == 1
    for blocks, is_support, envelope in ((other, supports, ENVELOPE), (boxes, [True, False], ENVELOPE),
                                         (boxes, supports, 2 * ENVELOPE)):
        detect_contacts(boxes, position, orientation, supports, ENVELOPE, cache)
        cache.fit(blocks, is_support, envelope)
        assert cache.fat is None and len(cache.features.key) == 0
