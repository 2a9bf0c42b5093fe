"""Block stress (seed 001 eq. 24-57), strain rate on centroid cells (eq. 14-19, 59) and their
place in the result document, against closed forms (issue 4).

Closed forms used here, for boxes of density rho under gravity g (compression negative):

- Stacked column, block k of height h and section A, weight W = rho g A h, carrying N_top =
  W_above on its top face (arm +h/2) and N_bot = W_above + W on its base (arm -h/2). Eq. 35
  gives sigma_zz = (1/V)(-(h/2) N_top - (h/2) N_bot) = -(W_above + W/2)/A = -rho g d, with d
  the depth of the block's centre below the top of the column; the other components vanish.
- Running-bond wall, one course: summing eq. 35 over its blocks, the head joints cancel (equal
  and opposite forces with the same arm, the centres sharing one height), so the volume average
  is again -rho g d with d the depth of the course's mid-height: linear in depth.
- A box under a point load (H, 0, -P) at the centre of its top face, standing on the ground:
  sigma_zz = -(P + W/2)/A, sigma_xz = H h / V = H / A and, by the balance of moments,
  sigma_zx = sigma_xz. (sigma_xx depends on how the base shares its friction: not determinate.)
- Eq. 55 for a box a x b x c spinning at constant omega about z: the second moments are
  J = m/12 diag(a^2, b^2, c^2), so sigma = (1/V) omega^2 diag(A, B, 0) = rho omega^2 diag(a^2, b^2, 0)/12,
  the centrifugal tension (the "m r^2" term divided by V).
"""
import json
import math
from types import SimpleNamespace

import numpy as np
import pytest

from extrados import Model, ModelError, analyze, generators
from extrados.engine.analysis.dynamic import DynamicRequest, run_dynamic
from extrados.engine.collision.detect import Contacts
from extrados.engine.post.strain import (
    StrainCells, cell_strain_rates, critical_fraction, cumulated_strain, rate_invariants, strain_cells,
    triangle_velocity_gradients, wall_plane,
)
from extrados.engine.post.stress import (
    BlockRotation, block_stress, contact_stress, height_layers, point_loads, principal_stresses,
    rotational_inertia_stress, second_moments, step_rotation, stress_asymmetry, stress_invariants, stress_summary,
)

G = 9.81
DENSITY = 2000.0           # kg/m³, the generators' default
EXACT = 1e-12              # relative: closed forms evaluated with rounding only
#: Static stresses are sums of contact forces over the block volume: at the static solve's default
#: relative residual (1e-7) they match the closed forms to about 1e-7 of the largest force; the
#: column case of DESIGN sec. 7 asks 1e-6.
STATIC_RELATIVE = 1e-6
#: Eq. 35 is symmetric at equilibrium only up to the solve's torque balance (residual 1e-7).
SYMMETRY_STATIC = 1e-6
#: Eq. 55 over a step is symmetric up to the CCP residual of that step (1e-5 in dynamics,
#: SOLVER_DEFAULTS.dynamic_tolerance): the torque balance the integrator used is exactly the one eq. 55 contains.
SYMMETRY_DYNAMIC = 1e-5


def block_row(doc, block_id):
    return next(b for b in doc["blocks"] if b["id"] == block_id)


def box_contacts(points, forces, body_a, body_b):
    """Contacts of one pair list, force on body_b; pair bookkeeping is irrelevant to the stress."""
    n = len(points)
    return Contacts(body_a=np.full(n, body_a, np.int64), body_b=np.full(n, body_b, np.int64),
                    point=np.asarray(points, float), normal=np.tile([0.0, 0.0, 1.0], (n, 1)), gap=np.zeros(n),
                    feature_id=np.arange(n), pair=np.zeros(n, np.int64), pair_start=np.array([0, n]),
                    n_candidate_pairs=1), np.asarray(forces, float)


def face_corner_forces(size, sigma):
    """Corner points and forces of a box (centre at the origin) under the uniform traction sigma n
    on each face, a quarter of the face's force at each corner: the corners' centroid is the face
    centroid, so the first moment sum F (x) x equals the uniform traction's integral."""
    half = 0.5 * np.asarray(size, float)
    points, forces = [], []
    for axis in range(3):
        others = [k for k in range(3) if k != axis]
        area = 4.0 * half[others[0]] * half[others[1]]
        for side in (-1.0, 1.0):
            normal = np.zeros(3)
            normal[axis] = side
            for s0 in (-1.0, 1.0):
                for s1 in (-1.0, 1.0):
                    point = np.zeros(3)
                    point[axis] = side * half[axis]
                    point[others[0]], point[others[1]] = s0 * half[others[0]], s1 * half[others[1]]
                    points.append(point)
                    forces.append(sigma @ normal * area / 4.0)
    return np.array(points), np.array(forces)


# --- eq. 35 in closed form --------------------------------------------------------------------------
def test_uniform_tractions_on_a_box_give_back_the_uniform_stress():
    size = (0.4, 0.3, 0.2)
    sigma = np.array([[-3.0e4, 0.0, 1.2e4], [0.0, -1.0e4, 0.0], [1.2e4, 0.0, -8.0e4]])   # lateral + vertical + shear
    points, forces = face_corner_forces(size, sigma)
    # the box is body_b; body_a is a dummy neighbour
    contacts, force = box_contacts(points, forces, body_a=0, body_b=1)
    mech = SimpleNamespace(n_blocks=2, volume=np.array([1.0, np.prod(size)]))
    stress = contact_stress(mech, np.zeros((2, 3)), contacts, force)
    np.testing.assert_allclose(stress[1], sigma, atol=EXACT * np.abs(sigma).max())


@pytest.fixture(scope="module")
def column_doc():
    return analyze(Model.from_dict(generators.generate("column", blocks=4)), "static").to_dict()


def test_column_block_stress_is_minus_rho_g_times_depth_of_its_centre(column_doc):
    height, top = 0.3, 4 * 0.3
    for k in range(4):
        row = block_row(column_doc, f"b{k}")
        expected = -DENSITY * G * (top - (k + 0.5) * height)
        stress = np.array(row["stress"])
        assert stress[2, 2] == pytest.approx(expected, rel=STATIC_RELATIVE)
        others = stress.copy()
        others[2, 2] = 0.0
        assert np.abs(others).max() < STATIC_RELATIVE * abs(expected)          # sigma_xx = 0, no shear
        values = row["principal_stress"]["values"]
        assert values[0] == pytest.approx(expected, rel=STATIC_RELATIVE)        # most compressive first
        np.testing.assert_allclose(row["principal_stress"]["directions"][0], [0.0, 0.0, 1.0], atol=STATIC_RELATIVE)
        assert row["p"] == pytest.approx(-expected / 3.0, rel=STATIC_RELATIVE)
        assert row["q"] == pytest.approx(-expected, rel=STATIC_RELATIVE)       # uniaxial: q = |sigma|


def test_box_under_a_lateral_and_vertical_top_load():
    width = height = depth = 0.4
    lateral, vertical = 300.0, 1000.0       # N; tips at H h > (P + W) b/2 and slides at H > mu (P + W): far from both
    doc = generators.generate("rocking_block", width=width, height=height, depth=depth, friction=0.8)
    doc["loads"] = [{"kind": "point", "block": "block", "point": [0.0, 0.0, height],
                     "force": [lateral, 0.0, -vertical]}]
    result = analyze(Model.from_dict(doc), "static").to_dict()
    assert result["stable"]
    area, volume = width * depth, width * height * depth
    weight = DENSITY * G * volume
    stress = np.array(block_row(result, "block")["stress"])
    scale = (vertical + weight / 2.0) / area
    assert stress[2, 2] == pytest.approx(-scale, rel=STATIC_RELATIVE)
    assert stress[0, 2] == pytest.approx(lateral / area, abs=STATIC_RELATIVE * scale)
    assert stress[2, 0] == pytest.approx(lateral / area, abs=STATIC_RELATIVE * scale)
    assert block_row(result, "block")["stress_asymmetry"] < SYMMETRY_STATIC


# --- a running-bond wall: symmetry and the averages of Table I ---------------------------------------
@pytest.fixture(scope="module")
def wall_doc():
    return analyze(Model.from_dict(generators.generate("wall", courses=4, blocks_per_course=3)), "static").to_dict()


def test_static_stress_tensors_are_symmetric(wall_doc):
    assert wall_doc["stable"]
    asymmetry = [b["stress_asymmetry"] for b in wall_doc["blocks"] if not b["support"]]
    assert max(asymmetry) < SYMMETRY_STATIC


def test_wall_layer_stress_grows_linearly_with_depth(wall_doc):
    courses, course_height = 4, 0.175
    layers = wall_doc["stress_summary"]["layers"]
    assert [layer["name"] for layer in layers] == [f"layer {k}" for k in range(courses)]
    for k, layer in enumerate(layers):
        assert sorted(layer["blocks"]) == sorted(b["id"] for b in wall_doc["blocks"] if b["id"].startswith(f"c{k}b"))
        depth = (courses - k - 0.5) * course_height
        assert layer["z"] == pytest.approx((k + 0.5) * course_height, rel=EXACT)
        assert layer["stress"][2][2] == pytest.approx(-DENSITY * G * depth, rel=STATIC_RELATIVE)
    p = [layer["p"] for layer in layers]
    assert p == sorted(p, reverse=True)                                   # the lowest course carries most
    structure = wall_doc["stress_summary"]["structure"]
    # equal course volumes: the whole wall averages the depth of its mid-height
    assert structure["stress"][2][2] == pytest.approx(-DENSITY * G * courses * course_height / 2.0,
                                                      rel=STATIC_RELATIVE)
    json.dumps(wall_doc, allow_nan=False)


def test_user_groups_replace_the_courses_and_unknown_ids_are_refused():
    model = Model.from_dict(generators.generate("wall", courses=2, blocks_per_course=2))
    mech = model.mechanics
    stress = np.zeros((mech.n_blocks, 3, 3))
    stress[:, 2, 2] = -np.arange(mech.n_blocks, dtype=float)
    summary = stress_summary(mech, mech.position0, stress, groups={"ends": ["c0b0", "c0b1"]})
    assert [layer["name"] for layer in summary["layers"]] == ["ends"]
    assert summary["layers"][0]["stress"][2][2] == pytest.approx(-0.5, rel=EXACT)   # equal volumes
    with pytest.raises(ModelError, match="nope"):
        stress_summary(mech, mech.position0, stress, groups={"bad": ["nope"]})


def test_height_layers_band_courses_drawn_out_of_level():
    height = np.array([0.51, 0.0, 0.02, 1.0, 0.49, -0.01])
    np.testing.assert_array_equal(height_layers(height, band=0.1), [1, 0, 0, 2, 1, 0])


# --- principal stresses and invariants ------------------------------------------------------------------
def test_principal_stresses_are_sorted_compression_first_with_unit_directions():
    angle = 0.3
    c, s = math.cos(angle), math.sin(angle)
    rotation = np.array([[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]])
    diagonal = np.array([2.0e3, -5.0e4, -1.0e4])
    stress = (rotation @ np.diag(diagonal) @ rotation.T)[None]
    values, directions = principal_stresses(stress)
    np.testing.assert_allclose(values[0], np.sort(diagonal), rtol=EXACT, atol=EXACT * 5.0e4)
    np.testing.assert_allclose(directions[0] @ directions[0].T, np.eye(3), atol=EXACT)
    np.testing.assert_allclose(directions[0] @ stress[0] @ directions[0].T, np.diag(values[0]), atol=EXACT * 5.0e4)
    np.testing.assert_allclose(np.abs(directions[0, 0]), np.abs(rotation[:, 1]), atol=EXACT)


def test_invariants_of_hydrostatic_and_uniaxial_stress():
    stress = np.array([-7.0 * np.eye(3), np.diag([0.0, 0.0, -9.0])])
    p, q = stress_invariants(stress)
    np.testing.assert_allclose(p, [7.0, 3.0], rtol=EXACT)
    np.testing.assert_allclose(q, [0.0, 9.0], atol=EXACT * 9.0)


# --- eq. 55: rotational inertia -------------------------------------------------------------------------
def box_second_moments(mass, size):
    a, b, c = size
    inertia = mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    return second_moments(inertia[None])[0]


def test_second_moments_of_a_box_are_m_side_squared_over_12():
    mass, size = 3.0, (0.4, 0.3, 0.2)
    np.testing.assert_allclose(box_second_moments(mass, size), mass / 12.0 * np.diag(np.square(size)), rtol=EXACT)


def test_rotational_terms_vanish_without_rotation():
    J = box_second_moments(10.0, (0.4, 0.3, 0.2))[None]
    zero = np.zeros((1, 3))
    assert np.all(rotational_inertia_stress(J, np.ones(1), zero, zero) == 0.0)


def test_spinning_box_carries_rho_omega2_side2_over_12_tension():
    size, omega = np.array([0.4, 0.3, 0.2]), 5.0
    volume = np.prod(size)
    J = box_second_moments(DENSITY * volume, size)
    angle = 0.7                                   # the box turned about z: tensor rotates with it
    c, s = math.cos(angle), math.sin(angle)
    rotation = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    stress = rotational_inertia_stress((rotation @ J @ rotation.T)[None], np.array([volume]),
                                       np.array([[0.0, 0.0, omega]]), np.zeros((1, 3)))[0]
    expected = DENSITY * omega ** 2 / 12.0 * np.diag([size[0] ** 2, size[1] ** 2, 0.0])
    np.testing.assert_allclose(stress, rotation @ expected @ rotation.T, atol=EXACT * expected.max())


def test_eq55_restores_the_symmetry_eq35_loses_under_a_couple():
    # A free box a x b x c, forces +-F along y at x = +-a/2: torque F a about z, alpha = F a / (A + B).
    size, couple_force = np.array([0.4, 0.3, 0.2]), 50.0
    volume = np.prod(size)
    J = box_second_moments(DENSITY * volume, size)
    a = size[0]
    alpha = couple_force * a / (J[0, 0] + J[1, 1])
    contacts, force = box_contacts([[a / 2, 0, 0], [-a / 2, 0, 0]], [[0, couple_force, 0], [0, -couple_force, 0]],
                                   body_a=1, body_b=0)
    mech = SimpleNamespace(n_blocks=2, volume=np.array([volume, 1.0]), is_support=np.array([False, True]),
                           inertia_body=np.stack([np.trace(J) * np.eye(3) - J, np.eye(3)]))
    static = contact_stress(mech, np.zeros((2, 3)), contacts, force)[:1]
    rotation = BlockRotation(np.tile(np.eye(3), (2, 1, 1)), np.zeros((2, 3)), np.array([[0, 0, alpha], [0, 0, 0]]))
    dynamic = block_stress(mech, np.zeros((2, 3)), contacts, force, rotation=rotation)[:1]
    assert stress_asymmetry(static)[0] == pytest.approx(1.0, rel=EXACT)        # eq. 35: sigma_yx only
    assert stress_asymmetry(dynamic)[0] < EXACT
    shear = couple_force * a * J[1, 1] / ((J[0, 0] + J[1, 1]) * volume)
    assert dynamic[0, 0, 1] == pytest.approx(shear, rel=EXACT)


def test_rocking_block_stress_is_symmetric_with_eq55_not_with_eq35():
    width, height = 0.25, 1.0
    alpha = math.atan(width / height)
    doc = generators.generate("rocking_block", width=width, height=height, depth=0.25, friction=0.8)
    tilt = 0.5 * alpha                          # rotate about the +x base edge, as test_dynamics does
    c, s = math.cos(tilt), math.sin(tilt)
    block = doc["blocks"][0]
    pivot = np.array([width / 2.0, 0.0, 0.0])
    block["vertices"] = ((np.asarray(block["vertices"]) - pivot) @ np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]).T
                         + pivot).tolist()
    model = Model.from_dict(doc)
    h = 1e-3
    run = run_dynamic(model, DynamicRequest.from_dict({"duration": 0.15, "time_step": h}, model))
    start, outcome = run.last_step_start, run.outcome
    force = np.einsum("nki,nk->ni", outcome.frame, outcome.impulse) / h
    mech = model.mechanics
    assert abs(outcome.velocity[0, 4]) > 0.1    # rocking, rad/s
    rotation = step_rotation(start.orientation, start.velocity, outcome.velocity, h)
    with_inertia = block_stress(mech, start.position, outcome.contacts, force, point_loads(model), rotation)
    without = block_stress(mech, start.position, outcome.contacts, force, point_loads(model))
    assert stress_asymmetry(with_inertia)[0] < SYMMETRY_DYNAMIC
    assert stress_asymmetry(without)[0] > 100 * SYMMETRY_DYNAMIC


# --- strain rate on centroid triangles (eq. 14-19, 59) ---------------------------------------------------
@pytest.fixture(scope="module")
def wall_cells():
    return strain_cells(Model.from_dict(generators.generate("wall", courses=4, blocks_per_course=3)).mechanics)


def test_wall_centroids_span_the_xz_plane_and_a_column_does_not(wall_cells):
    np.testing.assert_allclose(wall_cells.plane.axes, [[1, 0, 0], [0, 0, 1]], atol=EXACT)
    assert len(wall_cells.triangles) >= len(wall_cells.blocks)
    assert np.all(wall_cells.area > 0.0)
    column = Model.from_dict(generators.generate("column", blocks=4)).mechanics
    assert strain_cells(column) is None
    assert wall_plane(np.zeros((2, 3))) is None


@pytest.fixture(scope="module")
def wall_points(wall_cells):
    model = Model.from_dict(generators.generate("wall", courses=4, blocks_per_course=3))
    return wall_cells.plane.coordinates(model.mechanics.position0[wall_cells.blocks])


def test_rigid_motion_of_the_centroids_has_no_strain_rate(wall_cells, wall_points):
    spin, drift = 0.8, np.array([0.3, -0.2])
    velocity = drift + spin * np.stack([-wall_points[:, 1], wall_points[:, 0]], axis=1)
    rate = cell_strain_rates(wall_cells, wall_points, velocity)
    assert np.abs(rate).max() < EXACT * spin


def test_homogeneous_stretch_gives_back_its_strain_rate(wall_cells, wall_points):
    gradient = np.array([[0.02, 0.05], [-0.01, -0.03]])
    velocity = wall_points @ gradient.T
    triangle_gradient, _ = triangle_velocity_gradients(wall_points, velocity, wall_cells.triangles)
    np.testing.assert_allclose(triangle_gradient, np.broadcast_to(gradient, triangle_gradient.shape), atol=EXACT)
    rate = cell_strain_rates(wall_cells, wall_points, velocity)
    np.testing.assert_allclose(rate, np.broadcast_to(0.5 * (gradient + gradient.T), rate.shape), atol=EXACT)


def frames_of(points, t, displacement):
    """(n_frames, n, 3) positions in the xz plane (y = 0) from in-plane displacement(points, t) (n, 2)."""
    moved = np.stack([points + displacement(points, time) for time in t])
    return np.stack([moved[..., 0], np.zeros(moved.shape[:2]), moved[..., 1]], axis=2)


def cells_on_own_positions(cells):
    """The same cells indexed on a plain array of their centroids (block k is vertex k)."""
    return StrainCells(cells.plane, np.arange(len(cells.blocks)), cells.triangles, cells.area, cells.cell_area)


def test_finite_rigid_rotation_accumulates_no_strain(wall_cells, wall_points):
    t = np.linspace(0.0, 1.0, 6)

    def rotated(points, time):
        angle = 0.4 * time                                     # 0.08 rad between frames
        c, s = math.cos(angle), math.sin(angle)
        return points @ np.array([[c, -s], [s, c]]).T - points + [0.1 * time, 0.0]

    origin = wall_cells.plane.origin[[0, 2]]
    history = cumulated_strain(cells_on_own_positions(wall_cells), t,
                               frames_of(wall_points, t, rotated) + [origin[0], 0.0, origin[1]])
    assert np.abs(history.dilation).max() < EXACT and np.abs(history.shear).max() < EXACT


def test_simple_shear_cumulates_shear_rate_over_root_two_and_no_dilation(wall_cells, wall_points):
    shear_rate, t = 0.01, np.linspace(0.0, 2.0, 9)           # 1/s, s
    origin = wall_cells.plane.origin[[0, 2]]

    def sheared(points, time):
        return np.stack([shear_rate * time * points[:, 1], np.zeros(len(points))], axis=1)

    history = cumulated_strain(cells_on_own_positions(wall_cells), t,
                               frames_of(wall_points, t, sheared) + [origin[0], 0.0, origin[1]])
    # D = [[0, g/2], [g/2, 0]]: tr D = 0, sqrt(D_d : D_d) = g / sqrt(2) (eq. 18-19)
    assert np.abs(history.dilation).max() < EXACT
    np.testing.assert_allclose(history.shear[-1], shear_rate * t[-1] / math.sqrt(2.0), rtol=EXACT)
    dilation, shear = rate_invariants(np.array([[[0.0, 0.5], [0.5, 0.0]]]))
    assert dilation[0] == 0.0 and shear[0] == pytest.approx(1.0 / math.sqrt(2.0), rel=EXACT)


def test_strain_indicator_adds_the_critical_area_fraction_each_interval(wall_cells, wall_points):
    # uniform stretch along x: x(t) = (1 + e t) x0. Over an interval the midpoint rule gives
    # tr dE = e dt / (1 + e t_mid), sqrt(dE_d : dE_d) = that / sqrt(2): every cell alike.
    stretch, t = 0.01, np.linspace(0.0, 1.0, 11)
    origin = wall_cells.plane.origin[[0, 2]]

    def stretched(points, time):
        return np.stack([stretch * time * points[:, 0], np.zeros(len(points))], axis=1)

    step = stretch * np.diff(t) / (1.0 + stretch * 0.5 * (t[1:] + t[:-1]))
    dilation = np.concatenate([[0.0], np.cumsum(step)])
    shear = dilation / math.sqrt(2.0)
    thresholds = (0.0045, 0.0025)              # crossed at different frames: dilation after 5, shear after 4
    history = cumulated_strain(cells_on_own_positions(wall_cells), t,
                               frames_of(wall_points, t, stretched) + [origin[0], 0.0, origin[1]], *thresholds)
    critical = (dilation > thresholds[0]) & (shear > thresholds[1])
    np.testing.assert_allclose(history.indicator, np.cumsum(critical), rtol=EXACT)
    np.testing.assert_allclose(history.dilation[:, 0], dilation, rtol=EXACT, atol=EXACT * stretch)
    # S_c / S_T: half the area critical
    assert critical_fraction(np.array([1.0, 1.0, 0.0]), np.array([1.0, 0.0, 1.0]), np.array([2.0, 1.0, 1.0]),
                             0.5, 0.5) == pytest.approx(0.5, rel=EXACT)


# --- the dynamic result -------------------------------------------------------------------------------------
def test_dynamic_wall_result_records_networks_and_strain_per_frame():
    doc = generators.generate("wall", courses=3, blocks_per_course=2)
    doc["support_motion"] = {"kind": "sine", "direction": [1, 0, 0], "frequency": 2.0, "peak_acceleration": 2.0}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.1, "time_step": 1e-3,
                                            "output_interval": 0.02}).to_dict()
    json.dumps(result, allow_nan=False)
    frames = [f["t"] for f in result["frames"]]
    network = result["network_history"]
    assert network["t"] == frames[1:]
    n_contacts = len(result["contacts"])
    assert network["stick"][-1] + network["slip"][-1] + network["open"][-1] == n_contacts
    assert network["strong"][-1] + network["weak"][-1] == network["closed"][-1]
    strain = result["strain"]
    assert strain["history"]["t"] == pytest.approx(frames, rel=EXACT)
    assert len(strain["dilation"]) == len(strain["blocks"]) == 7
    assert all(len(layer["blocks"]) for layer in result["stress_summary"]["layers"])
    movable = [b for b in result["blocks"] if not b["support"]]
    assert max(b["stress_asymmetry"] for b in movable) < SYMMETRY_DYNAMIC


def test_load_factor_result_counts_the_point_load_at_the_standing_factor():
    # A crown load on an arch: without the load (or at the wrong factor) the crown voussoir's
    # torque balance, and with it the symmetry of eq. 35, would fail by the load's moment.
    doc = generators.generate("arch", thickness=0.15, voussoirs=10, load_fraction=1.0, load_angle_deg=0.0)
    result = analyze(Model.from_dict(doc), {"type": "load_factor", "max_factor": 2.0, "tolerance": 0.01}).to_dict()
    assert 0.0 < result["load_factor"] < 2.0
    assert max(b["stress_asymmetry"] for b in result["blocks"] if not b["support"]) < SYMMETRY_STATIC
