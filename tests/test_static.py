"""Static analysis against closed forms and published limits (DESIGN sec. 7).

Each case checks the verdict `stable` just inside and just outside a known threshold,
and the joint forces against equilibrium where they are statically determinate.
"""
import math
import warnings

import numpy as np
import pytest

from extrados import Model, analyze, generators
from extrados.engine.analysis.static import settle_run_stands

G = 9.81
T_MIN = 0.10746          # t/R of the semicircular arch under self-weight (Milankovitch; Cocchetti & Rizzi 2020)
ANGLE_MARGIN_DEG = 0.3   # DESIGN sec. 7 tolerance on threshold angles


def static(name, **params):
    return analyze(Model.from_dict(generators.generate(name, **params)), {"type": "static"})


# --- block on an incline --------------------------------------------------------------
@pytest.mark.parametrize("sign", [-1, 1])
def test_incline_slides_when_tan_theta_exceeds_mu(sign):
    mu = 0.6                                      # b/h = 1 > mu: sliding governs
    theta = math.degrees(math.atan(mu)) + sign * ANGLE_MARGIN_DEG
    result = static("incline", angle_deg=theta, width=0.5, height=0.5, friction=mu)
    assert result.stable is (sign < 0)
    if sign > 0:   # it slides (it is a sliding mechanism, not a rotation)
        block = result.to_dict()["blocks"][[b["id"] for b in result.to_dict()["blocks"]].index("block")]
        assert np.linalg.norm(block["velocity"]) > 10 * np.linalg.norm(block["angular_velocity"]) * 0.5


@pytest.mark.parametrize("sign", [-1, 1])
def test_incline_topples_when_tan_theta_exceeds_b_over_h(sign):
    width, height, mu = 0.3, 0.6, 1.5             # b/h = 0.5 < mu: toppling governs
    theta = math.degrees(math.atan(width / height)) + sign * ANGLE_MARGIN_DEG
    result = static("incline", angle_deg=theta, width=width, height=height, friction=mu)
    assert result.stable is (sign < 0)


def test_block_on_incline_forces_balance_weight():
    mu, theta = 0.6, 20.0
    result = static("incline", angle_deg=theta, width=0.5, height=0.5, friction=mu)
    assert result.stable
    joint = result.to_dict()["interfaces"][0]
    weight = 2000.0 * 0.5 ** 3 * G
    # the slope pushes the block up with its weight: normal W cos(theta), shear W sin(theta)
    assert joint["normal_force"] == pytest.approx(weight * math.cos(math.radians(theta)), rel=1e-5)
    assert joint["shear_force"] == pytest.approx(weight * math.sin(math.radians(theta)), rel=1e-5)


# --- column of stacked blocks ------------------------------------------------------------
def test_column_joint_resultants_equal_weight_above_on_the_axis():
    n, width, height = 5, 0.3, 0.3
    result = static("column", blocks=n, width=width, depth=width, block_height=height)
    assert result.stable
    doc = result.to_dict()
    block_weight = 2000.0 * width * width * height * G
    positions = {b["id"]: b["position"] for b in doc["blocks"]}
    for joint in doc["interfaces"]:
        upper = max(joint["blocks"], key=lambda bid: positions[bid][2])
        blocks_above = sum(1 for p in positions.values() if p[2] >= positions[upper][2] - 1e-9)
        assert joint["normal_force"] == pytest.approx(blocks_above * block_weight, rel=1e-6)
        assert joint["shear_force"] == pytest.approx(0.0, abs=1e-6 * block_weight)
        axis = np.array(positions[upper][:2])
        assert np.allclose(joint["centre"][:2], axis, atol=1e-6 * width)


@pytest.mark.parametrize("sign", [-1, 1])
def test_column_topples_under_lateral_acceleration_beyond_width_over_height(sign):
    n, width, height = 4, 0.3, 0.3
    critical = math.degrees(math.atan(width / (n * height)))   # a/g = b/h of the whole column (half-width / half-height)
    a = G * math.tan(math.radians(critical + sign * ANGLE_MARGIN_DEG))
    result = static("column", blocks=n, width=width, depth=width, block_height=height, friction=0.8,
                    lateral_acceleration=a)
    assert result.stable is (sign < 0)


# --- rocking block uplift ---------------------------------------------------------------------
@pytest.mark.parametrize("sign", [-1, 1])
def test_block_uplifts_when_horizontal_acceleration_exceeds_g_tan_alpha(sign):
    width, height = 0.25, 1.0
    alpha = math.degrees(math.atan(width / height))
    a = G * math.tan(math.radians(alpha + sign * ANGLE_MARGIN_DEG))
    result = static("rocking_block", width=width, height=height, depth=0.25, friction=0.8, lateral_acceleration=a)
    assert result.stable is (sign < 0)


# --- semicircular arch ------------------------------------------------------------------------------
def _arch(thickness_ratio, friction=0.8, voussoirs=20):
    return static("arch", radius=1.0, thickness=thickness_ratio, depth=0.5, voussoirs=voussoirs, friction=friction)


def test_arch_stands_just_above_minimum_thickness():
    result = _arch(1.02 * T_MIN)
    assert result.stable
    assert result.solver["converged"]
    doc = result.to_dict()
    # every joint in compression with its centre of pressure inside its polygon
    for joint in doc["interfaces"]:
        assert joint["normal_force"] > 0
        polygon = np.asarray(joint["polygon"])
        lo, hi = polygon.min(axis=0) - 1e-9, polygon.max(axis=0) + 1e-9
        assert np.all(joint["centre"] >= lo) and np.all(joint["centre"] <= hi)


def test_arch_collapses_just_below_minimum_thickness_with_five_hinges():
    result = _arch(0.98 * T_MIN)
    assert not result.stable
    doc = result.to_dict()
    omega = {b["id"]: np.asarray(b["angular_velocity"]) for b in doc["blocks"]}
    omega["ground"] = np.zeros(3)
    n = 20

    def joint_rotation(k):   # joint k lies between v{k-1} (ground for k = 0) and v{k} (ground for k = n)
        below = omega["ground"] if k == 0 else omega[f"v{k - 1}"]
        above = omega["ground"] if k == n else omega[f"v{k}"]
        return np.linalg.norm(above - below)

    relative = np.array([joint_rotation(k) for k in range(n + 1)])
    hinges = np.flatnonzero(relative > 0.05 * relative.max())
    # joints k (angle 9k deg from the left springing): springings 0 and 20, crown 10, and the
    # inner hinges nearest 54.5 deg from the crown, i.e. joints 4 and 16 (54 deg)
    assert set(hinges) == {0, 4, 10, 16, 20}


def test_arch_finite_friction_slides_at_springing_below_mu_0396():
    assert _arch(1.02 * T_MIN, friction=0.396 + 0.01).stable
    result = _arch(1.02 * T_MIN, friction=0.396 - 0.01)
    assert not result.stable
    doc = result.to_dict()
    v = {b["id"]: np.asarray(b["velocity"]) for b in doc["blocks"]}
    # the springer voussoirs slide along the ground (horizontal velocity at the base)
    assert abs(v["v0"][0]) > 0.1 * np.abs(np.array(list(v.values()))).max()


# --- harmonic stack (Paterson & Zwick) ----------------------------------------------------
@pytest.mark.parametrize("scale, stands", [(0.98, True), (1.02, False)])
def test_harmonic_stack_stands_below_and_falls_above_the_harmonic_offsets(scale, stands):
    assert static("stack", blocks=4, scale=scale).stable is stands


# --- equilibrium of every block in a standing wall ----------------------------------------
def test_standing_wall_forces_balance_every_block():
    model = Model.from_dict(generators.generate("wall", courses=4, blocks_per_course=4))
    result = analyze(model, "static")
    assert result.stable
    mech = model.mechanics
    doc = result.to_dict()
    index = {bid: i for i, bid in enumerate(mech.block_ids)}
    net = mech.dead_wrench[:, :3].copy()
    for contact in doc["contacts"]:
        first, second = (index[b] for b in contact["blocks"])
        net[first] += contact["force"]
        net[second] -= contact["force"]
    weight = mech.mass.max() * G
    assert np.abs(net[~mech.is_support]).max() < 1e-5 * weight


@pytest.mark.parametrize("thickness_ratio", [0.2, 0.3, 0.5])
def test_arch_has_no_equilibrium_at_any_thickness_below_mu_0309(thickness_ratio):
    # Cocchetti & Rizzi 2020: below mu = 0.309 no thickness stands (the springing joint slides)
    assert not _arch(thickness_ratio, friction=0.309 - 0.01).stable
    assert _arch(thickness_ratio, friction=0.309 + 0.01).stable


# --- point loads: eccentric load on a column -----------------------------------------------
def test_eccentric_point_load_moves_every_centre_of_pressure_by_moment_balance():
    n, width, height, load, offset = 3, 0.3, 0.3, 800.0, 0.1
    doc = generators.generate("column", blocks=n, width=width, depth=width, block_height=height)
    top = max(doc["blocks"], key=lambda b: max(v[2] for v in b["vertices"]))
    doc["loads"] = [{"kind": "point", "block": top["id"], "point": [offset, 0.0, n * height],
                     "force": [0.0, 0.0, -load], "live": True}]
    result = analyze(Model.from_dict(doc), "static")
    assert result.stable
    block_weight = 2000.0 * width * width * height * G
    for joint in result.to_dict()["interfaces"]:
        z = joint["centre"][2]
        above = round((n * height - z) / height)
        total = above * block_weight + load
        assert joint["normal_force"] == pytest.approx(total, rel=1e-6)
        assert joint["centre"][0] == pytest.approx(load * offset / total, abs=1e-5 * width)  # solver tolerance


# --- joint assignments ------------------------------------------------------------------------
def test_assigned_joint_law_overrides_the_default_friction():
    doc = generators.generate("incline", angle_deg=35.0, width=0.5, height=0.5, friction=0.6)
    assert not analyze(Model.from_dict(doc), "static").stable          # tan 35 = 0.70 > 0.6
    doc["joints"]["rough"] = {"law": "coulomb", "friction": 0.8}
    doc["joint_assignments"] = [{"blocks": ["slope", "block"], "joint": "rough"}]
    assert analyze(Model.from_dict(doc), "static").stable


def test_joint_stiffness_sets_the_compliance_per_contact_from_the_joint_area():
    from extrados.engine.contact.assemble import PENETRATION_RECOVERY
    from extrados.engine.contact.laws import contact_parameters
    from extrados.engine.pipeline import detect
    from extrados.engine.state import State

    doc = generators.generate("column", blocks=2, width=0.3, depth=0.3, block_height=0.3)
    doc["joints"]["dry"].update(normal_stiffness=1e9, shear_stiffness=4e8)
    model = Model.from_dict(doc)
    contacts = detect(model, State.initial(model.mechanics))
    friction, compliance = contact_parameters(model, contacts)
    tributary = 0.3 * 0.3 / 4                                             # 4 corners per joint
    np.testing.assert_allclose(compliance[:, 0], PENETRATION_RECOVERY / (1e9 * tributary))
    np.testing.assert_allclose(compliance[:, 1:], 1.0 / (4e8 * tributary))
    np.testing.assert_allclose(friction, 0.8)


@pytest.mark.parametrize("stiffness", [1e7, 1e8])
def test_a_block_on_a_stiff_joint_settles_by_its_weight_over_the_joint_stiffness(stiffness):
    """A block of weight W on a joint of normal stiffness k (Pa/m) and area A comes to rest
    W / (k A) lower: the user's stiffness, not one softened by the partial penetration recovery.
    Settling is overdamped here (damping ratio h sqrt(kA) / (2 PR sqrt(m)) = 0.4-1.3), so 0.3 s
    at h = 1 ms is many time constants; 1 % tolerance."""
    width, height, density = 0.3, 0.3, 2000.0
    doc = generators.generate("column", blocks=1, width=width, depth=width, block_height=height, density=density)
    doc["joints"]["dry"].update(normal_stiffness=stiffness, shear_stiffness=stiffness)
    model = Model.from_dict(doc)
    result = analyze(model, {"type": "dynamic", "duration": 0.3, "time_step": 1e-3}).to_dict()
    block = next(b for b in result["blocks"] if not b["support"])
    weight = density * width * width * height * 9.81
    settlement = height / 2 - block["position"][2]
    assert settlement == pytest.approx(weight / (stiffness * width * width), rel=0.01)



@pytest.mark.parametrize("normal_stiffness, shear_stiffness", [(1e11, 1e8), (1e8, 1e11), (1e8, 1e8), (1e9, 1e8)])
def test_a_block_pushed_sideways_shears_and_tilts_by_the_joint_stiffnesses(normal_stiffness, shear_stiffness):
    """A lateral body force F = 0.2 W (below friction) on a w x w x w block on a joint of normal
    stiffness k_n and shear stiffness k_t (Pa/m), area A: the base shears by F / (k_t A) and the block
    tilts by F (w/2) / K_rot, with four corner springs k_n A / 4 at w/2 from the axis,
    K_rot = k_n A w^2 / 4; its centre moves F / (k_t A) + (w/2)^2 F / K_rot sideways; 1 % tolerance.
    While the block settles and tilts the separating-axis test swaps the reference and incident
    faces, which renumbers the corners' feature ids: their tangential springs must carry over (they
    reset before, and the block ended 7 % and 62 % too far in the last two cases)."""
    width, density, ratio = 0.3, 2000.0, 0.2
    doc = generators.generate("column", blocks=1, width=width, depth=width, block_height=width, density=density,
                              lateral_acceleration=ratio * 9.81)
    doc["joints"]["dry"].update(normal_stiffness=normal_stiffness, shear_stiffness=shear_stiffness)
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.3, "time_step": 1e-3}).to_dict()
    block = next(b for b in result["blocks"] if not b["support"])
    area = width * width
    force = ratio * density * width ** 3 * 9.81
    rotational = normal_stiffness * area * width ** 2 / 4
    expected = force / (shear_stiffness * area) + (width / 2) ** 2 * force / rotational
    assert block["position"][0] == pytest.approx(expected, rel=0.01)


# --- settle runs ------------------------------------------------------------------------------
def test_a_settle_run_whose_motion_overflows_is_a_mechanism_not_an_error():
    """A 200 x 100 x 50 mm block without gravity under 10 kN at a corner is flung off its base and spun up: the
    step's explicit gyroscopic term (eq. 31) then diverges within the run and its speed stops being a finite
    number. The settle run calls that motion a mechanism (it raised a ValueError from the next step's problem)."""
    document = generators.generate("column", blocks=1, width=0.2, depth=0.1, block_height=0.05)
    document["gravity"] = [0.0, 0.0, 0.0]
    document["loads"] = [{"kind": "point", "block": "b0", "point": [0.1, 0.05, 0.05], "force": [0.0, 1e4, 3e3]}]
    model = Model.from_dict(document)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)          # numpy's overflow as the speed grows past 1e308
        stands = settle_run_stands(model, model.mechanics.dead_wrench + model.mechanics.live_wrench)
    assert stands is False
