"""Non-associated (Coulomb) friction, model setting flow_rule (engine.solvers.coulomb), against closed forms.

Seed 001 sec. 4.1: a rigid 1 m cube slides on a rigid support (mu = 0.8) at 1 m/s; while it translates,
its average stress tensor (seed 001 eq. 35) is symmetric and equal to eq. 58. With N the weight and the
contact forces at the base (z = -1/2 from the centre), the friction mu N at every point and moment balance
(sum x F_n = mu N / 2), eq. 35 gives in the x-z plane

    sigma = -(N / V) [[mu^2 / 2, -mu / 2], [-mu / 2, 1 / 2]]      (tension positive, motion along -x)

that is 7,848, 9,810, 9,810 and 12,262.5 Pa for rho = 2,500 kg/m^3: eq. 58's 7,843.1, 9,803.9, 9,810.0 and
12,262.5 to 0.07 %. The paper states rho = 1,820; its eq. 58 fits 2,500 (12,262.5 = 2,500 x 9.81 / 2 exactly),
which we take. Seed 000's associated CCP (eq. 38) lets the same cube leave the ground (u_n = mu |u_t|).
"""
import math

import numpy as np
import pytest

from blocks import box_block, document, ground
from extrados import analyze
from extrados.engine.errors import ModelError

G = 9.81
MU = 0.8
DENSITY = 2500.0
#: Seed 001 eq. 58 (Pa), its sign convention (compression positive).
EQ_58 = np.array([[7843.1, -9803.9], [-9810.0, 12262.5]])


def sliding_cube(flow_rule):
    """The 1 m cube on a ground that moves at 1 m/s along -x from t = 0 (the cube slides relative to it)."""
    doc = document([ground(), box_block("cube", (-0.5, -0.5, 0.0), (0.5, 0.5, 1.0))], friction=MU,
                   density=DENSITY, settings={"flow_rule": flow_rule})
    doc["support_motion"] = {"kind": "velocity", "velocity": [-1.0, 0.0, 0.0]}
    return doc


def cube_after(flow_rule, duration):
    result = analyze(sliding_cube(flow_rule), {"type": "dynamic", "duration": duration, "time_step": 1e-3}).to_dict()
    return next(block for block in result["blocks"] if block["id"] == "cube"), result


def test_a_sliding_cube_has_the_stress_tensor_of_seed_001_eq_58():
    cube, result = cube_after("non_associated", 0.05)
    assert result["solver_steps"]["unconverged_steps"] == 0
    stress = np.array(cube["stress"])[np.ix_([0, 2], [0, 2])]  # x-z plane
    weight_per_area = DENSITY * G  # N / V for the unit cube
    expected = -weight_per_area * np.array([[MU ** 2 / 2, -MU / 2], [-MU / 2, 0.5]])
    np.testing.assert_allclose(stress, expected, rtol=5e-3)
    np.testing.assert_allclose(np.abs(stress), np.abs(EQ_58), rtol=2e-3)  # the paper's numbers
    assert cube["stress_asymmetry"] < 6.25e-4  # the paper's relative gap rho (eq. 57)
    # it slides without leaving the ground, decelerating at mu g relative to it
    assert abs(cube["position"][2] - 0.5) < 1e-4
    assert cube["velocity"][0] == pytest.approx(-MU * G * 0.05, rel=5e-3)
    assert abs(cube["velocity"][2]) < 1e-3 and np.abs(cube["angular_velocity"]).max() < 1e-2


def test_the_associated_ccp_lets_the_sliding_cube_leave_the_ground():
    """Seed 000 sec. 2.5: the CCP's sliding contacts separate at mu |u_t|; the jump to 1 m/s launches the cube."""
    cube, _ = cube_after("associated", 0.02)
    assert cube["position"][2] - 0.5 > 3e-3


def incline(flow_rule, angle_deg=35.0, friction=0.6):
    """A block on level ground under gravity tilted by the angle: a block on an incline."""
    doc = document([ground(), box_block("block", (-0.25, -0.25, 0.0), (0.25, 0.25, 0.5))], friction=friction,
                   settings={"flow_rule": flow_rule})
    angle = math.radians(angle_deg)
    doc["gravity"] = [G * math.sin(angle), 0.0, -G * math.cos(angle)]
    return doc, G * (math.sin(angle) - friction * math.cos(angle))


def test_a_static_sliding_mechanism_reports_coulomb_acceleration_without_opening():
    """The static step's velocity is the mechanism's initial acceleration times 1 s: with Coulomb friction
    a = g (sin - mu cos) along the incline; the associated CCP gives a / (1 + mu^2) and opens at mu times that."""
    doc, acceleration = incline("non_associated")
    result = analyze(doc, {"type": "static"}).to_dict()
    block = next(b for b in result["blocks"] if b["id"] == "block")
    assert result["stable"] is False and result["solver"]["converged"] and result["solver"]["coulomb_solves"] > 1
    assert block["velocity"][0] == pytest.approx(acceleration, rel=1e-4)
    assert abs(block["velocity"][2]) < 1e-5 * acceleration
    doc, _ = incline("associated")
    result = analyze(doc, {"type": "static"}).to_dict()
    assert "coulomb_solves" not in result["solver"]
    block = next(b for b in result["blocks"] if b["id"] == "block")
    assert block["velocity"][0] == pytest.approx(acceleration / (1 + 0.6 ** 2), rel=1e-4)
    assert block["velocity"][2] == pytest.approx(0.6 * block["velocity"][0], rel=1e-4)


def test_a_block_sliding_down_an_incline_keeps_contact():
    doc, acceleration = incline("non_associated")
    result = analyze(doc, {"type": "dynamic", "duration": 0.3, "time_step": 1e-3}).to_dict()
    block = next(b for b in result["blocks"] if b["id"] == "block")
    assert block["velocity"][0] / 0.3 == pytest.approx(acceleration, rel=2e-3)
    assert abs(block["position"][2] - 0.25) < 1e-5


def test_a_standing_arch_is_the_same_under_either_flow_rule():
    """At v = 0 the non-associated term vanishes (seed 000 sec. 2.6): the same forces."""
    from extrados.engine.generators import generate
    forces = {}
    for rule in ("associated", "non_associated"):
        doc = generate("arch", voussoirs=12)
        doc.setdefault("settings", {})["flow_rule"] = rule
        result = analyze(doc, {"type": "static"}).to_dict()
        assert result["stable"] is True
        forces[rule] = np.array([joint["force"] for joint in result["interfaces"]])
    largest = np.abs(forces["associated"]).max()
    np.testing.assert_allclose(forces["non_associated"], forces["associated"], atol=1e-4 * largest)


def test_an_unknown_flow_rule_is_refused_at_its_path():
    with pytest.raises(ModelError) as caught:
        analyze(sliding_cube("dilatant"), {"type": "static"})
    assert caught.value.path == "settings.flow_rule" and "dilatant" in caught.value.message
