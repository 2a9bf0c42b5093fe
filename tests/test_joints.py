"""Joint admissibility, support reactions and contact networks against closed forms (issue 4).

Geometry (kernels of a rectangle, a triangle and a general polygon) is exact to rounding;
the column and incline cases are statically determinate at the joint level, so their
resultants, eccentricities and utilisations match closed forms to the solver's accuracy.
"""
import json
import math

import numpy as np
import pytest

from extrados import Model, analyze, generators
from extrados.engine.collision.detect import Contacts
from extrados.engine.generators import block_entry, box, ground_slab, model_document
from extrados.engine.post.interfaces import interface_resultants
from extrados.engine.post.joints import (
    central_kernel, joint_admissibility, joint_outline, outline_centroid, outside_distance, plane_basis,
    polygon_moments,
)
from extrados.engine.post.networks import contact_network

G = 9.81
DENSITY = 2000.0          # kg/m³, the generators' default
EXACT = 1e-12             # relative, geometry computed in closed form (rounding only)
FORCE_RELATIVE = 1e-6     # DESIGN sec. 7, column: joint resultant = weight above
INCLINE_RELATIVE = 1e-5   # as test_static's incline forces
#: An eccentricity is a difference of corner forces over their sum: at the static solve's default
#: relative residual (1e-7) it is good to about 5e-6; a residual of 1e-9 brings it to 2e-7.
PRECISE_SOLVE = {"tolerance": 1e-9}


def static_doc(name, settings=None, **params):
    model = generators.generate(name, **params)
    if settings:
        model["settings"] = settings
    return analyze(Model.from_dict(model), {"type": "static"}).to_dict()


# --- kernels in closed form -------------------------------------------------------------------
def test_rectangle_kernel_is_the_middle_third_rhombus():
    b, h, corner = 0.8, 0.3, np.array([2.0, -1.0])
    rectangle = corner + np.array([[0.0, 0.0], [b, 0.0], [b, h], [0.0, h]])
    outline = joint_outline(rectangle)
    centre = outline_centroid(outline)
    kernel = central_kernel(outline) - centre
    # one antipole per edge (bottom, right, top, left), counter-clockwise
    expected = np.array([[0.0, h / 6], [-b / 6, 0.0], [0.0, -h / 6], [b / 6, 0.0]])
    np.testing.assert_allclose(centre, corner + [b / 2, h / 2], rtol=EXACT)
    np.testing.assert_allclose(kernel, expected, atol=EXACT * b)


def test_rectangle_second_moments_are_b_h3_over_12():
    b, h = 0.8, 0.3
    area, _, second = polygon_moments(np.array([[0.0, 0.0], [b, 0.0], [b, h], [0.0, h]]))
    assert area == pytest.approx(b * h, rel=EXACT)
    np.testing.assert_allclose(second, np.diag([h * b ** 3 / 12, b * h ** 3 / 12]), atol=EXACT * b ** 3 * h)


def test_triangle_kernel_is_the_triangle_scaled_by_one_quarter_about_its_centroid():
    # eq. 2 for an equilateral triangle: J/(A d) = (a h^3/36)/((a h/2)(h/3)) = h/6 = (2h/3)/4 toward the
    # opposite vertex; affine maps keep centroids, kernels and ratios, so every triangle's kernel is
    # its image under the homothety of ratio +1/4 about the centroid.
    triangle = np.array([[0.0, 0.0], [3.0, 0.0], [1.0, 2.0]])
    centroid = triangle.mean(axis=0)
    kernel = central_kernel(joint_outline(triangle))
    expected = centroid + (triangle - centroid) / 4.0
    # the antipole of edge i (from corner i to i + 1) lies toward the opposite corner i + 2
    np.testing.assert_allclose(kernel, np.roll(expected, -2, axis=0), atol=EXACT * 3.0)


def test_general_polygon_kernel_corners_put_zero_stress_on_an_edge_and_none_negative():
    pentagon = np.array([[0.0, 0.0], [1.2, -0.1], [1.6, 0.7], [0.8, 1.3], [-0.2, 0.8]])
    area, centroid, second = polygon_moments(pentagon)
    inverse = np.linalg.inv(second)
    for e in central_kernel(joint_outline(pentagon)) - centroid:
        # eq. 1: sigma_i / (N / A) = 1 + A e^T J^-1 r_i at the corners
        stress = 1.0 + area * (pentagon - centroid) @ inverse @ e
        assert stress.min() == pytest.approx(0.0, abs=EXACT * 10)
        assert np.count_nonzero(np.abs(stress) < EXACT * 10) == 2   # the whole edge is the neutral axis


def test_degenerate_joints_are_segments_with_a_middle_third_kernel_or_points():
    collinear = np.array([[0.0, 0.0], [0.5, 0.0], [1.5, 0.0]])
    segment = joint_outline(collinear)
    assert len(segment) == 2
    np.testing.assert_allclose(sorted(central_kernel(segment)[:, 0]), [0.5, 1.0], atol=EXACT)
    assert outside_distance(np.array([1.0, 0.0]), central_kernel(segment)) <= EXACT
    assert outside_distance(np.array([1.1, 0.0]), central_kernel(segment)) == pytest.approx(0.1)
    point = joint_outline(np.array([[0.2, 0.3]]))
    np.testing.assert_allclose(central_kernel(point), [[0.2, 0.3]])


def _synthetic_joint(points, forces, normal=(0.0, 0.0, 1.0)):
    """Interfaces and points of one joint between blocks 0 and 1, normal from 0 into 1."""
    n = len(points)
    normal = np.asarray(normal, float)
    contacts = Contacts(body_a=np.zeros(n, np.int64), body_b=np.ones(n, np.int64), point=np.asarray(points, float),
                        normal=np.tile(normal, (n, 1)), gap=np.zeros(n), feature_id=np.arange(n),
                        pair=np.zeros(n, np.int64), pair_start=np.array([0, n]), n_candidate_pairs=1)
    frame = np.tile(np.stack([normal, *plane_basis(normal)]), (n, 1, 1))     # rows n, u, v
    return interface_resultants(contacts, frame, np.asarray(forces, float)), contacts.point


def assert_same_points(actual, expected, atol):
    """Every expected point has an actual one within atol, and as many of them."""
    assert len(actual) == len(expected)
    for point in expected:
        assert np.linalg.norm(np.asarray(actual) - point, axis=1).min() <= atol


@pytest.mark.parametrize("share, in_kernel", [(0.6, True), (2.0 / 3.0, True), (0.8, False)])
def test_two_point_joint_is_read_as_a_line_section_with_a_middle_third(share, in_kernel):
    length, n = 0.6, 1000.0
    joints, points = _synthetic_joint([[0.0, 0.0, 0.0], [length, 0.0, 0.0]],
                                      [[0.0, 0.0, (1.0 - share) * n], [0.0, 0.0, share * n]])
    admissible = joint_admissibility(joints, points, np.full(2, 0.5))
    assert admissible.eccentricity[0] == pytest.approx((share - 0.5) * length, rel=EXACT)
    assert admissible.in_polygon[0] and admissible.in_kernel[0] == in_kernel
    np.testing.assert_allclose(admissible.kernel[:, 0], [length / 3, 2 * length / 3], atol=EXACT)


def test_one_point_joint_has_no_eccentricity_and_an_unloaded_one_no_shear_capacity():
    joints, points = _synthetic_joint([[0.1, 0.2, 0.0]], [[0.0, 0.0, 0.0]])
    admissible = joint_admissibility(joints, points, np.array([0.6]))
    assert not admissible.closed[0] and admissible.eccentricity[0] == 0.0
    assert admissible.shear_utilisation[0] == np.inf


def test_kernel_of_a_tilted_joint_is_the_rhombus_in_its_plane():
    tilt = math.radians(30.0)
    u = np.array([math.cos(tilt), 0.0, -math.sin(tilt)])
    v = np.array([0.0, 1.0, 0.0])
    normal = np.cross(u, v)
    b, h, corner = 0.4, 0.2, np.array([1.0, 2.0, 3.0])
    rectangle = [corner + x * u + y * v for x, y in [(0.0, 0.0), (b, 0.0), (b, h), (0.0, h)]]
    joints, points = _synthetic_joint(rectangle, np.tile(10.0 * normal, (4, 1)), normal)
    admissible = joint_admissibility(joints, points, np.full(4, 0.5))
    centroid = corner + b / 2 * u + h / 2 * v
    np.testing.assert_allclose(admissible.centroid[0], centroid, atol=EXACT * b)
    assert_same_points(admissible.kernel, [centroid + s * d for s in (1, -1) for d in (b / 6 * u, h / 6 * v)],
                       atol=EXACT * b)
    assert admissible.eccentricity[0] == pytest.approx(0.0, abs=EXACT * b)
    assert admissible.in_kernel[0] and admissible.shear_utilisation[0] == 0.0


# --- a column of stacked blocks --------------------------------------------------------------
def blocks_above(joint, n, height):
    """How many of the column's n blocks lie above a horizontal joint."""
    return round(n - joint["centroid"][2] / height)


def test_column_joints_carry_the_weight_above_at_the_centroid_and_ground_reacts_with_the_total():
    n, width, height = 4, 0.3, 0.3
    doc = static_doc("column", blocks=n, width=width, depth=width, block_height=height)
    weight = DENSITY * width * width * height * G
    for joint in doc["interfaces"]:
        above = blocks_above(joint, n, height)
        assert joint["normal_force"] == pytest.approx(above * weight, rel=FORCE_RELATIVE)
        assert joint["eccentricity"] == pytest.approx(0.0, abs=FORCE_RELATIVE * width)
        assert joint["in_kernel"] and joint["in_polygon"] and joint["closed"]
        assert joint["shear_utilisation"] == pytest.approx(0.0, abs=FORCE_RELATIVE)
        # the kernel of the square joint: the rhombus with half-diagonals width / 6
        kernel = np.asarray(joint["kernel"]) - joint["centroid"]
        np.testing.assert_allclose(np.sort(np.abs(kernel).max(axis=1)), np.full(4, width / 6), rtol=EXACT)
    [reaction] = doc["reactions"]
    assert reaction["block"] == "ground"
    np.testing.assert_allclose(reaction["force"], [0.0, 0.0, n * weight], rtol=FORCE_RELATIVE,
                               atol=FORCE_RELATIVE * n * weight)
    np.testing.assert_allclose(reaction["moment"], 0.0, atol=FORCE_RELATIVE * n * weight * width)
    assert reaction["point"] == pytest.approx([0.0, 0.0, -height / 2])


def test_column_under_lateral_force_moves_the_centre_by_a_over_g_times_the_centroid_height_above():
    n, width, height = 4, 0.3, 0.3
    ratio = 0.6 * width / (n * height)          # a/g: 0.6 of the overturning value b / H_total
    doc = static_doc("column", PRECISE_SOLVE, blocks=n, width=width, depth=width, block_height=height,
                     friction=0.8, lateral_acceleration=ratio * G)
    assert doc["stable"]
    weight = DENSITY * width * width * height * G
    kernel_out = 0
    for joint in doc["interfaces"]:
        above = blocks_above(joint, n, height)
        # moment of the part above about the joint centroid: W e = (W a/g)(above h / 2)
        expected = ratio * above * height / 2
        assert joint["eccentricity"] == pytest.approx(expected, rel=FORCE_RELATIVE)
        assert joint["eccentricity_vector"][0] == pytest.approx(expected, rel=FORCE_RELATIVE)   # downwind, +x
        assert joint["in_polygon"]
        assert joint["in_kernel"] is (expected < width / 6)
        kernel_out += not joint["in_kernel"]
        assert joint["shear_utilisation"] == pytest.approx(ratio / 0.8, rel=FORCE_RELATIVE)
        assert joint["normal_force"] == pytest.approx(above * weight, rel=FORCE_RELATIVE)
    assert kernel_out == 2                           # the two lowest joints leave the kernel


def test_support_reaction_balances_every_load_on_the_column():
    n, width, height = 3, 0.3, 0.3
    ratio = 0.5 * width / (n * height)
    doc = static_doc("column", PRECISE_SOLVE, blocks=n, width=width, depth=width, block_height=height,
                     lateral_acceleration=ratio * G)
    [reaction] = doc["reactions"]
    point = np.asarray(reaction["point"])
    mass = DENSITY * width * width * height
    load = mass * np.array([ratio * G, 0.0, -G])                     # on every block, at its centre
    centres = [np.array([0.0, 0.0, (k + 0.5) * height]) for k in range(n)]
    load_moment = sum(np.cross(c - point, load) for c in centres)
    scale = n * mass * G
    np.testing.assert_allclose(reaction["force"], -n * load, atol=FORCE_RELATIVE * scale)
    np.testing.assert_allclose(reaction["moment"], -load_moment, atol=FORCE_RELATIVE * scale * height)


def test_column_networks_split_at_the_mean_corner_force():
    n = 4
    doc = static_doc("column", blocks=n)
    network = doc["network"]
    assert network["stick"] == network["closed"] == len(doc["contacts"]) == 4 * n
    assert network["slip"] == network["open"] == 0
    # corner forces (k/4) W for k = 1..4 blocks above; mean 2.5 W / 4: joints under 3 and 4 blocks are strong
    assert (network["strong"], network["weak"]) == (8, 8)
    weight = DENSITY * 0.3 ** 3 * G
    assert network["mean_normal_force"] == pytest.approx(2.5 * weight / 4, rel=FORCE_RELATIVE)
    strong = [c for c in doc["contacts"] if c["network"] == "strong"]
    assert min(np.dot(c["force"], c["normal"]) for c in strong) == pytest.approx(3 * weight / 4, rel=FORCE_RELATIVE)


# --- block on an incline ------------------------------------------------------------------------
def test_incline_shear_utilisation_is_tan_theta_over_mu_and_the_centre_moves_downhill():
    mu, theta, side = 0.6, 20.0, 0.5
    doc = static_doc("incline", angle_deg=theta, width=side, height=side, friction=mu)
    assert doc["stable"]
    [joint] = doc["interfaces"]
    tan = math.tan(math.radians(theta))
    assert joint["shear_utilisation"] == pytest.approx(tan / mu, rel=INCLINE_RELATIVE)
    # moment about the joint centroid: N e = (W sin theta)(h / 2), so e = tan(theta) h / 2 > b / 6
    assert joint["eccentricity"] == pytest.approx(tan * side / 2, rel=INCLINE_RELATIVE)
    assert joint["in_polygon"] and not joint["in_kernel"]
    assert doc["network"]["stick"] == 4


def test_sliding_block_is_all_slip_and_on_the_cone():
    mu, theta = 0.6, math.degrees(math.atan(0.6)) + 2.0
    doc = static_doc("incline", angle_deg=theta, width=0.5, height=0.5, friction=mu)
    assert not doc["stable"]
    assert doc["network"]["slip"] == doc["network"]["closed"] == 4
    assert doc["interfaces"][0]["shear_utilisation"] == pytest.approx(1.0, rel=INCLINE_RELATIVE)


# --- open joints and the document -----------------------------------------------------------------
def test_open_joint_has_null_admissibility_and_the_document_has_no_nan():
    gap, side = 0.002, 0.3                          # below the default envelope 0.005 m: contacts, no force
    blocks = [block_entry("left", *box((-side, 0.0), (0.0, side), (0.0, side))),
              block_entry("right", *box((gap, gap + side), (0.0, side), (0.0, side))),
              ground_slab((-2 * side, 2 * side), (-side, 2 * side), side)]
    doc = analyze(Model.from_dict(model_document(blocks, 0.6, DENSITY)), "static").to_dict()
    json.dumps(doc, allow_nan=False)
    [between] = [j for j in doc["interfaces"] if set(j["blocks"]) == {"left", "right"}]
    assert not between["closed"]
    assert all(between[key] is None for key in ("eccentricity", "eccentricity_vector", "in_kernel", "in_polygon",
                                                "shear_utilisation"))
    assert doc["network"]["open"] == 4 and doc["network"]["closed"] == 8
    assert all(c["network"] is None for c in doc["contacts"] if c["state"] == "open")
    [reaction] = doc["reactions"]
    assert reaction["force"][2] == pytest.approx(2 * DENSITY * side ** 3 * G, rel=FORCE_RELATIVE)


def test_contact_network_takes_the_mean_over_closed_contacts_only():
    states = np.array(["stick", "slip", "open", "stick", "stick"])
    force = np.array([1.0, 3.0, 0.0, 2.0, 2.0])    # mean over closed = 2.0; equal to the mean is weak
    network = contact_network(states, force)
    assert network.mean_normal_force == pytest.approx(2.0)
    np.testing.assert_array_equal(network.strong, [False, True, False, False, False])
    np.testing.assert_array_equal(network.weak, [True, False, False, True, True])
    assert network.counts == {"stick": 3, "slip": 1, "open": 1, "closed": 4, "strong": 1, "weak": 3}


def test_contact_network_of_no_closed_contact_is_empty():
    network = contact_network(np.array(["open", "open"]), np.zeros(2))
    assert network.mean_normal_force == 0.0 and network.counts["strong"] == network.counts["weak"] == 0
