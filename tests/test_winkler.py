"""Winkler contact patches (engine.contact.winkler) against closed forms, brute-force sums and
finite differences of the kernel itself.

Blocks are posed as detect_contacts poses them: centre-of-mass positions and quaternions
[w, x, y, z] of the packed polyhedra; the faces of each pair come from one detection.
"""
import numpy as np
import pytest
from scipy.optimize import brentq

from extrados import Model, generators
from extrados.engine.collision.detect import detect_contacts
from extrados.engine.collision.feature_id import KIND_EDGE_EDGE, KIND_REFERENCE_ON_A, KIND_REFERENCE_ON_B
from extrados.engine.contact.winkler import EDGE_SPRING_FRACTION, pair_faces, winkler_patches
from extrados.engine.geometry.packed import pack_polyhedra, pose_polyhedra
from extrados.engine.geometry.quaternion import (quat_from_axis_angle, quat_multiply, quat_to_matrix,
                                                 rotate_world_rotation)
from tests.blocks import BOX_FACES, box_block, box_vertices, document

ENVELOPE = 0.005
GRAVITY = 9.81
#: Relative accuracy of the settlement root solve, far below the 1 % of the closed-form check.
SETTLEMENT_RTOL = 1e-12
#: Brute-force sums on an n x n midpoint grid of the incident face: the cells cut by the patch
#: boundary err by about perimeter * cell / area, 2e-4 at n = 2000 for these patches.
GRID = 2000
BRUTE_FORCE_RTOL = 2e-3


class Scene:
    """A model's packed blocks, posed and detected."""

    def __init__(self, doc, normal_stiffness):
        self.mechanics = Model(doc).mechanics
        self.packed = self.mechanics.polyhedra
        self.normal_stiffness = normal_stiffness
        self.position = self.mechanics.position0.copy()
        self.orientation = np.tile([1.0, 0.0, 0.0, 0.0], (self.mechanics.n_blocks, 1))

    def detect(self):
        contacts = detect_contacts(self.packed, self.position, self.orientation, self.mechanics.is_support, ENVELOPE)
        return pair_faces(contacts, self.packed)

    def patches(self, faces, position=None, orientation=None):
        position = self.position if position is None else position
        orientation = self.orientation if orientation is None else orientation
        return winkler_patches(self.packed, pose_polyhedra(self.packed, position, orientation), faces,
                               self.normal_stiffness)


def rocking_scene(width, height, depth, normal_stiffness, density=2600.0):
    """A block (body 0) on the ground slab (body 1), and the block's weight W (N)."""
    scene = Scene(generators.generate("rocking_block", width=width, height=height, depth=depth, density=density),
                  normal_stiffness)
    return scene, scene.mechanics.mass[0] * GRAVITY


def pose_rotated_about_base(scene, height, theta, settlement, axis=(0.0, 1.0, 0.0)):
    """The block turned by theta about its base centre line (through the origin) and lowered by settlement."""
    rotation = quat_from_axis_angle(np.asarray(axis, float), theta)
    scene.orientation[0] = rotation
    scene.position[0] = quat_to_matrix(rotation) @ np.array([0.0, 0.0, 0.5 * height]) - [0.0, 0.0, settlement]


def settled_moment(scene, faces, height, theta, weight):
    """Settlement delta at which the normal force is W, and the moment about the base centre line."""
    def excess(settlement):
        pose_rotated_about_base(scene, height, theta, settlement)
        return scene.patches(faces).force_a[0, 2] - weight
    half_width = scene.packed.radius[0]
    brentq(excess, -half_width * np.sin(theta), half_width, rtol=SETTLEMENT_RTOL, xtol=1e-15)
    patch = scene.patches(faces)
    base_centre = scene.position[0] - quat_to_matrix(scene.orientation[0]) @ np.array([0.0, 0.0, 0.5 * height])
    moment = patch.torque_a[0] + np.cross(scene.position[0] - base_centre, patch.force_a[0])
    return -moment[1]


def closed_form_moment(theta, weight, normal_stiffness, half_base, depth):
    """Moment of a Winkler base on a rigid block turned by theta: full contact, or uplifted."""
    theta_uplift = weight / (normal_stiffness * 2.0 * half_base * depth * half_base)
    if theta <= theta_uplift:
        return normal_stiffness * theta * depth * (2.0 * half_base) ** 3 / 12.0
    contact = np.sqrt(2.0 * weight / (normal_stiffness * depth * theta))
    return weight * (half_base - contact / 3.0)


@pytest.mark.parametrize("width, height, depth", [(0.5, 1.0, 0.25), (0.3, 1.5, 0.4)])
def test_moment_rotation_matches_the_closed_form_within_one_percent(width, height, depth):
    half_base = width / 2.0
    _, weight = rocking_scene(width, height, depth, 1.0)
    # a stiffness that brings the contact length down to 1 % of 2B at 0.05 rad
    theta_smallest_contact = 0.05
    normal_stiffness = 2.0 * weight / (depth * theta_smallest_contact * (0.02 * half_base) ** 2)
    scene, _ = rocking_scene(width, height, depth, normal_stiffness)
    theta_uplift = weight / (normal_stiffness * width * depth * half_base)
    pose_rotated_about_base(scene, height, theta_uplift, 0.5 * theta_uplift * half_base)
    faces = scene.detect()
    assert faces.kind.tolist() == [KIND_REFERENCE_ON_B]  # the ground's face: the block's base is incident
    for theta in theta_uplift * np.array([0.3, 0.9, 1.0, 1.1, 2.0, 10.0, 100.0, 1000.0]):
        expected = closed_form_moment(theta, weight, normal_stiffness, half_base, depth)
        assert settled_moment(scene, faces, height, theta, weight) == pytest.approx(expected, rel=0.01), theta
    assert settled_moment(scene, faces, height, theta_smallest_contact, weight) == pytest.approx(
        closed_form_moment(theta_smallest_contact, weight, normal_stiffness, half_base, depth), rel=0.01)


def test_faces_apart_carry_no_force():
    scene, _ = rocking_scene(0.5, 1.0, 0.25, 5e8)
    scene.position[0, 2] += 0.001
    patch = scene.patches(scene.detect())
    assert patch.area[0] == 0.0 and patch.normal_force[0] == 0.0 and patch.penetration_max[0] == 0.0
    assert not patch.force_a.any() and not patch.torque_a.any() and not patch.stiffness.any()
    np.testing.assert_allclose(patch.pressure_centre[0, :2], 0.0, atol=1e-12)


def test_uniform_settlement_presses_k_area_delta_at_the_centroid():
    width, depth, settlement, normal_stiffness = 0.5, 0.25, 0.002, 5e8
    scene, _ = rocking_scene(width, 1.0, depth, normal_stiffness)
    scene.position[0, 2] -= settlement
    patch = scene.patches(scene.detect())
    assert patch.area[0] == pytest.approx(width * depth, rel=1e-12)
    np.testing.assert_allclose(patch.force_a[0], [0.0, 0.0, normal_stiffness * width * depth * settlement],
                               rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(patch.pressure_centre[0, :2], 0.0, atol=1e-12)
    assert patch.penetration_max[0] == pytest.approx(settlement, rel=1e-9)
    np.testing.assert_allclose(patch.normal[0], [0.0, 0.0, -1.0], atol=1e-15)


def random_tilted_pose(scene, rng):
    """A partly uplifted pose: tilted by 2-20 mrad about a random horizontal axis, yawed, shifted."""
    axis = np.array([np.cos(rng.uniform(0, 2 * np.pi)), np.sin(rng.uniform(0, 2 * np.pi)), 0.0])
    tilt = quat_from_axis_angle(axis / np.linalg.norm(axis), rng.uniform(0.002, 0.02))
    yaw = quat_from_axis_angle(np.array([0.0, 0.0, 1.0]), rng.uniform(-0.5, 0.5))
    scene.orientation[0] = quat_multiply(tilt, yaw)
    heights = np.sort((scene.packed.vertex_local[:8] @ quat_to_matrix(scene.orientation[0]).T)[:, 2])
    # the deepest base corner a fraction of the base's height spread below the ground
    scene.position[0] = [rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1),
                         -heights[0] - rng.uniform(0.2, 0.8) * (heights[3] - heights[0])]


def wrench_vector(patch):
    """(12,) F_A, tau_A, F_B, tau_B of the first pair."""
    return np.concatenate([patch.force_a[0], patch.torque_a[0], -patch.force_a[0], patch.torque_b[0]])


def finite_difference_tangent(scene, faces, step):
    """Central differences of the wrenches in (dx_A, dtheta_A, dx_B, dtheta_B), world frame."""
    tangent = np.empty((12, 12))
    for column in range(12):
        body, coordinate = divmod(column, 6)
        sides = []
        for sign in (1.0, -1.0):
            position, orientation = scene.position.copy(), scene.orientation.copy()
            if coordinate < 3:
                position[body, coordinate] += sign * step
            else:
                rotation = np.zeros(3)
                rotation[coordinate - 3] = sign * step
                orientation[body] = rotate_world_rotation(orientation[body], rotation)
            sides.append(wrench_vector(scene.patches(faces, position, orientation)))
        tangent[:, column] = (sides[0] - sides[1]) / (2.0 * step)
    return tangent


def test_tangent_matches_central_differences_on_partly_uplifted_poses():
    scene, _ = rocking_scene(0.5, 1.0, 0.25, 5e8)
    rng = np.random.default_rng(18)
    for _ in range(4):
        random_tilted_pose(scene, rng)
        faces = scene.detect()
        assert faces.kind.tolist() == [KIND_REFERENCE_ON_B]
        patch = scene.patches(faces)
        assert 0.0 < patch.area[0] < 0.5 * 0.25  # partly uplifted
        assert_tangent_matches_central_differences(scene, faces)


def overhanging_scene():
    """A block overhanging a smaller one (both faces clip each other), tilted so a part uplifts."""
    lower = box_block("lower", (-0.2, -0.15, -0.4), (0.2, 0.15, 0.0), support=True)
    upper = box_block("upper", (-0.15, -0.2, 0.0), (0.45, 0.4, 0.5))
    scene = Scene(document([lower, upper]), 5e8)
    scene.orientation[1] = quat_from_axis_angle(np.array([1.0, 0.3, 0.0]) / np.linalg.norm([1.0, 0.3, 0.0]), 0.01)
    scene.position[1, 2] -= 0.0005
    return scene


def assert_tangent_matches_central_differences(scene, faces):
    tangent = scene.patches(faces).stiffness[0]
    # step: 1e-7 m or rad against penetrations of millimetres (truncation ~1e-8, round-off ~1e-11)
    error = np.abs(finite_difference_tangent(scene, faces, 1e-7) - tangent).max() / np.abs(tangent).max()
    assert error < 1e-5


def test_tangent_counts_the_side_planes_that_clip_the_patch():
    scene = overhanging_scene()
    assert_tangent_matches_central_differences(scene, scene.detect())
    # a level block on the ground: its own base is the reference face, the ground's face is clipped
    scene, _ = rocking_scene(0.5, 1.0, 0.25, 5e8)
    scene.position[0, 2] -= 0.001
    faces = scene.detect()
    assert faces.kind.tolist() == [KIND_REFERENCE_ON_A]
    assert_tangent_matches_central_differences(scene, faces)


def assert_balanced(scene, patch):
    """Action = -reaction: the total moment about B's centre vanishes."""
    centre_a, centre_b = scene.position[0], scene.position[1]
    total = patch.torque_a[0] + patch.torque_b[0] + np.cross(centre_a - centre_b, patch.force_a[0])
    assert np.abs(total).max() <= 1e-9 * np.abs(patch.force_a[0]).max() * scene.packed.radius.max()


def brute_force_patch(scene, faces):
    """int d dA and int d x dA over the incident face by a midpoint grid, keeping the cells inside
    the reference face's side planes and below its plane."""
    posed = pose_polyhedra(scene.packed, scene.position, scene.orientation)
    packed = scene.packed

    def corners(body, face):
        local = packed.face_vertex[packed.face_vertex_start[face]:packed.face_vertex_start[face + 1]]
        return posed.vertex[packed.vertex_start[body] + local]
    reference_body = faces.body_b[0] if faces.kind[0] == KIND_REFERENCE_ON_B else faces.body_a[0]
    incident_body = faces.body_a[0] if faces.kind[0] == KIND_REFERENCE_ON_B else faces.body_b[0]
    reference = corners(reference_body, faces.reference_face[0])
    incident = corners(incident_body, faces.incident_face[0])  # a parallelogram (a box face)
    normal, offset = posed.face_normal[faces.reference_face[0]], posed.face_offset[faces.reference_face[0]]
    fractions = (np.arange(GRID) + 0.5) / GRID
    u, w = np.meshgrid(fractions, fractions)
    along_u, along_w = incident[1] - incident[0], incident[3] - incident[0]
    points = incident[0] + u.reshape(-1, 1) * along_u + w.reshape(-1, 1) * along_w
    cell = np.linalg.norm(np.cross(along_u, along_w)) / GRID ** 2
    penetration = offset - points @ normal
    inside = penetration > 0.0
    for j in range(len(reference)):
        side = np.cross(reference[(j + 1) % len(reference)] - reference[j], normal)
        inside &= (points - reference[j]) @ side <= 0.0
    weights = np.where(inside, penetration, 0.0) * cell
    return weights.sum(), weights @ points


def assert_matches_brute_force(scene, faces):
    patch = scene.patches(faces)
    force, first_moment = brute_force_patch(scene, faces)
    assert patch.normal_force[0] == pytest.approx(scene.normal_stiffness * force, rel=BRUTE_FORCE_RTOL)
    np.testing.assert_allclose(patch.pressure_centre[0], first_moment / force,
                               atol=BRUTE_FORCE_RTOL * scene.packed.radius.max())
    assert_balanced(scene, patch)


def test_block_overhanging_a_smaller_block_presses_over_the_clipped_polygon():
    scene = overhanging_scene()
    faces = scene.detect()
    patch = scene.patches(faces)
    overlap = 0.35 * 0.3  # x from -0.15 to 0.2, y from -0.15 to 0.15: both faces overhang
    assert 0.0 < patch.area[0] < 0.9 * overlap  # the tilt uplifts a part of it
    assert_matches_brute_force(scene, faces)


def test_corner_only_penetration_presses_over_a_triangle():
    scene, _ = rocking_scene(0.5, 1.0, 0.25, 5e8)
    axis = np.array([1.0, -1.0, 0.0]) / np.sqrt(2.0)
    scene.orientation[0] = quat_from_axis_angle(axis, 0.03)
    corners = scene.packed.vertex_local[:8] @ quat_to_matrix(scene.orientation[0]).T
    heights = np.sort(corners[:, 2])
    scene.position[0, 2] = -heights[0] - 0.3 * (heights[1] - heights[0])  # one corner below the ground
    faces = scene.detect()
    patch = scene.patches(faces)
    assert patch.penetration_max[0] == pytest.approx(0.3 * (heights[1] - heights[0]), rel=1e-9)
    assert_matches_brute_force(scene, faces)


def test_crossing_edges_press_as_a_point_spring():
    cube = [np.array(box_vertices((-0.5, -0.5, -0.5), (0.5, 0.5, 0.5)), float)] * 2
    packed = pack_polyhedra(cube, [BOX_FACES] * 2)
    orientation = np.array([quat_from_axis_angle(np.array([1.0, 0.0, 0.0]), np.pi / 4),
                            quat_from_axis_angle(np.array([0.0, 1.0, 0.0]), np.pi / 4)])
    overlap = 0.001
    position = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, np.sqrt(2.0) - overlap]])
    contacts = detect_contacts(packed, position, orientation, np.zeros(2, bool), ENVELOPE)
    faces = pair_faces(contacts, packed)
    assert faces.kind.tolist() == [KIND_EDGE_EDGE] and faces.reference_face.tolist() == [-1]
    normal_stiffness = 5e8
    patch = winkler_patches(packed, pose_polyhedra(packed, position, orientation), faces, normal_stiffness)
    spring = normal_stiffness * (EDGE_SPRING_FRACTION * packed.radius.min()) ** 2
    np.testing.assert_allclose(patch.force_a[0], [0.0, 0.0, -spring * overlap], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(patch.pressure_centre[0], contacts.point[0], atol=1e-15)
    assert patch.stiffness[0, 2, 2] == pytest.approx(-spring, rel=1e-12)  # F_A,z grows down as A rises
    # the spring follows the pose: B lowered by as much again doubles the overlap
    position[1, 2] -= overlap
    patch = winkler_patches(packed, pose_polyhedra(packed, position, orientation), faces, normal_stiffness)
    np.testing.assert_allclose(patch.force_a[0], [0.0, 0.0, -2.0 * spring * overlap], rtol=1e-9, atol=1e-9)


class PackedScene:
    """Two packed blocks posed by hand (no model document), as Scene."""

    def __init__(self, packed, position, orientation, normal_stiffness):
        self.packed, self.position, self.orientation = packed, position, orientation
        self.normal_stiffness = normal_stiffness

    def patches(self, faces, position=None, orientation=None):
        position = self.position if position is None else position
        orientation = self.orientation if orientation is None else orientation
        return winkler_patches(self.packed, pose_polyhedra(self.packed, position, orientation), faces,
                               self.normal_stiffness)


def test_crossing_edges_tangent_matches_central_differences():
    """The point spring of two crossing edges, skewed and off-centre: its 12 x 12 tangent against central
    differences of its wrenches. The tangent treats the edges' common normal as a face's fixed normal: it
    omits the normal's turning with the two bodies, terms of the order of the force itself (1.6e-3 of the
    largest entry here, against 1e-5 for a face pair), which slows Newton near such a contact without
    changing where it converges."""
    cube = [np.array(box_vertices((-0.5, -0.5, -0.5), (0.5, 0.5, 0.5)), float)] * 2
    packed = pack_polyhedra(cube, [BOX_FACES] * 2)
    orientation = np.array([quat_multiply(quat_from_axis_angle(np.array([0.0, 0.0, 1.0]), 0.3),
                                          quat_from_axis_angle(np.array([1.0, 0.0, 0.0]), np.pi / 4)),
                            quat_from_axis_angle(np.array([0.0, 1.0, 0.0]), np.pi / 4 + 0.05)])
    position = np.array([[0.0, 0.0, 0.0], [0.03, -0.02, np.sqrt(2.0) - 0.002]])
    contacts = detect_contacts(packed, position, orientation, np.zeros(2, bool), ENVELOPE)
    faces = pair_faces(contacts, packed)
    assert faces.kind.tolist() == [KIND_EDGE_EDGE]
    scene = PackedScene(packed, position, orientation, 5e8)
    assert np.linalg.norm(scene.patches(faces).force_a[0]) > 0.0
    tangent = scene.patches(faces).stiffness[0]
    error = np.abs(finite_difference_tangent(scene, faces, 1e-7) - tangent).max() / np.abs(tangent).max()
    assert error < 2.5e-3
