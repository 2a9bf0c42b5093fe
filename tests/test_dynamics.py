"""Dynamic analysis against closed forms: Housner rocking, uplift, incline sliding, Newmark sliding
blocks, energy balance, and a wall that stays at rest (issue 3, DESIGN sec. 7)."""
import math

import numpy as np
import pytest

from extrados import Model, ModelError, analyze, generators
from extrados.engine.dynamics.rocking import RockingBody, rocking_response
from extrados.engine.post.rocking_errors import housner_eq3

G = 9.81


def rotated_about_edge(doc, block_id, edge_x, angle_rad):
    """Tilt a block about the horizontal y-axis edge at x = edge_x, z = 0 (positive leans toward -x)."""
    block = next(b for b in doc["blocks"] if b["id"] == block_id)
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    rotation = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    pivot = np.array([edge_x, 0.0, 0.0])
    block["vertices"] = ((np.asarray(block["vertices"]) - pivot) @ rotation.T + pivot).tolist()
    return doc


def block_track(result, block_id):
    """Times, positions (n, 3) and orientations (n, 4) of one block from the frames."""
    doc = result.to_dict()
    index = [b["id"] for b in doc["blocks"]].index(block_id)
    t = np.array([f["t"] for f in doc["frames"]])
    position = np.array([f["positions"][index] for f in doc["frames"]])
    orientation = np.array([f["orientations"][index] for f in doc["frames"]])
    return t, position, orientation


# --- free rocking (Housner 1963; seed 003 sec. 2.1) -----------------------------------------------
def test_free_rocking_follows_housner_over_five_impacts():
    width, height, h = 0.25, 1.0, 2.5e-4
    alpha = math.atan(width / height)
    radius = math.hypot(width, height) / 2.0
    p = math.sqrt(3.0 * G / (4.0 * radius))
    r = (1.0 - 1.5 * math.sin(alpha) ** 2) ** 2           # seed 003 eq. 2 for a rectangular block
    theta0 = 0.5                                           # normalized initial tilt theta_0 / alpha
    doc = generators.generate("rocking_block", width=width, height=height, depth=0.25, friction=0.8)
    rotated_about_edge(doc, "block", width / 2.0, theta0 * alpha)
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 2.6, "time_step": h,
                                            "output_interval": h})
    t, _, q = block_track(result, "block")
    theta = (2.0 * np.arctan2(q[:, 2], q[:, 0]) + theta0 * alpha) / alpha   # tilt / alpha, + leans to +x
    crossings = np.flatnonzero(np.sign(theta[1:]) != np.sign(theta[:-1])) + 1
    assert len(crossings) >= 5
    impacts = t[crossings[:5]]
    amplitudes = np.array([np.abs(seg).max() for seg in np.split(theta, crossings[:5])])    # theta_0 .. theta_5
    half_periods = np.diff(np.concatenate([[-impacts[0]], impacts]))                      # T_0/2 .. T_4/2
    exact_theta, exact_half = housner_eq3(theta0, r, p, 6)
    e_theta = np.sqrt(np.mean((amplitudes - exact_theta) ** 2)) / exact_theta[0]          # seed 003 eq. 7
    e_t = np.sqrt(np.mean((half_periods - exact_half[:5]) ** 2)) / exact_half[0]
    e_g = math.hypot(e_theta, e_t)                                                          # eq. 8
    print(f"Housner free rocking: e_theta = {e_theta:.4f}, e_T = {e_t:.4f}, e_G = {e_g:.4f}")
    np.testing.assert_allclose(amplitudes, exact_theta, rtol=0.05)
    np.testing.assert_allclose(half_periods, exact_half[:5], rtol=0.05)
    # per-impact energy ratio: (cos(alpha - theta_n+1) - cos alpha) / (cos(alpha - theta_n) - cos alpha)
    level = np.cos(alpha * (1.0 - amplitudes)) - math.cos(alpha)
    np.testing.assert_allclose(level[1:] / level[:-1], r, rtol=0.05)
    assert e_g < 0.05


# --- uplift under a horizontal ground acceleration ---------------------------------------------------
@pytest.mark.parametrize("ratio", [0.95, 1.05])
def test_uplift_only_when_ground_acceleration_exceeds_g_tan_alpha(ratio):
    width, height = 0.25, 1.0
    a = ratio * G * width / height
    doc = generators.generate("rocking_block", width=width, height=height, depth=0.25, friction=0.8)
    doc["support_motion"] = {"kind": "record", "dt": 0.01, "accelerations": [[a, 0.0, 0.0]] * 41}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.4, "time_step": 1e-3})
    events = result.to_dict()["events"]
    t, _, q = block_track(result, "block")
    tilt = 2.0 * np.abs(np.arctan2(q[:, 2], q[:, 0]))
    if ratio < 1.0:
        assert events["first_uplift"] is None and tilt.max() < 1e-5
    else:
        assert events["first_uplift"] is not None and tilt.max() > 1e-3


def test_housner_reference_integrates_free_rocking_as_eq3():
    body = RockingBody.rectangle(0.25, 1.0)
    assert body.restitution == pytest.approx(1.0 - 1.5 * math.sin(body.alpha) ** 2, rel=1e-12)
    assert body.p == pytest.approx(math.sqrt(3.0 * G / (4.0 * body.radius)), rel=1e-12)
    reference = rocking_response(body, lambda t: 0.0, 3.0, theta0=0.5 * body.alpha)
    eq3_theta, eq3_half = housner_eq3(0.5, body.restitution ** 2, body.p, 5)
    half_periods = np.diff(np.concatenate([[-reference["impacts"][0]], reference["impacts"][:4]]))
    # exactly: each impact keeps r of the kinetic energy,
    # cos(alpha - theta_n+1) - cos alpha = r (cos(alpha - theta_n) - cos alpha)
    level = np.cos(body.alpha - reference["amplitudes"][:5]) - math.cos(body.alpha)
    np.testing.assert_allclose(level[1:] / level[:-1], body.restitution ** 2, rtol=1e-6)
    # eq. 3 linearises sin(alpha - theta) (exact for slender blocks): within 0.5 % here
    np.testing.assert_allclose(reference["amplitudes"][:5] / body.alpha, eq3_theta, rtol=5e-3)
    np.testing.assert_allclose(half_periods, eq3_half[:4], rtol=5e-3)


def test_a_block_the_ground_never_lifts_rests_through_the_whole_trace():
    """Below g tan alpha the ground cannot lift the block (eq. 1 needs |a_g| > g tan alpha): Housner's response is
    theta = 0 from 0 to the end; it also rests to the end after a pulse once it has settled."""
    body = RockingBody.rectangle(0.8, 5.0)                     # tan alpha = 0.16: uplift at 0.16 g
    resting = rocking_response(body, lambda t: 0.1 * G * math.sin(2.0 * math.pi * t), 6.0)
    assert resting["t"][0] == 0.0 and resting["t"][-1] == 6.0
    assert resting["largest"] == 0.0 and not len(resting["impacts"]) and resting["overturned"] is None
    t_record, record = pulse_record(0.5 * CRITICAL_PULSE, PULSE_FREQUENCY, 8.0)
    width, height = PULSE_BLOCK
    settled = rocking_response(RockingBody.rectangle(width, height), lambda t: float(np.interp(t, t_record, record)),
                               8.0)
    assert settled["t"][-1] == 8.0 and len(settled["impacts"]) and settled["overturned"] is None
    assert np.all(settled["theta"][settled["t"] > settled["impacts"][-1] + 0.5] == 0.0)


# --- forced rocking under a ground pulse (Housner's eq. 1 with a_g; engine.dynamics.rocking) --------
#: A 0.4 x 2.0 m block under one sine pulse of 2 Hz: Housner's equation overturns it from
#: a_p = 0.4573 g (found by bisection on engine.dynamics.rocking.rocking_response).
PULSE_BLOCK, PULSE_FREQUENCY, CRITICAL_PULSE = (0.4, 2.0), 2.0, 0.4573 * G


def pulse_record(peak, frequency, duration, dt=1e-3):
    """Times (n,) s and accelerations (n,) m/s^2 of one sine pulse a_g = peak sin(2 pi f t), t <= 1/f."""
    t = dt * np.arange(int(round(duration / dt)) + 2)
    return t, np.where(t <= 1.0 / frequency, peak * np.sin(2.0 * math.pi * frequency * t), 0.0)


@pytest.mark.parametrize("ratio", [0.9, 1.1])
def test_block_under_a_sine_pulse_rocks_and_overturns_as_housner_predicts(ratio):
    width, height = PULSE_BLOCK
    body = RockingBody.rectangle(width, height)
    t_record, record = pulse_record(ratio * CRITICAL_PULSE, PULSE_FREQUENCY, 3.0)
    reference = rocking_response(body, lambda t: float(np.interp(t, t_record, record)), 3.0)
    assert (reference["overturned"] is None) == (ratio < 1.0)      # the bisection's bracket holds
    doc = generators.generate("rocking_block", width=width, height=height, depth=0.4, friction=0.8)
    doc["support_motion"] = {"kind": "record", "dt": 1e-3, "accelerations": [[a, 0.0, 0.0] for a in record]}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 3.0, "time_step": 1e-3,
                                            "output_interval": 5e-3})
    t, _, q = block_track(result, "block")
    theta = 2.0 * np.arctan2(q[:, 2], q[:, 0])          # about y: + leans toward +x, the pulse's direction
    # up to the first impact the rocking angle follows eq. 1 within 3 % of alpha; after it the
    # amplitude within 1 % (the energy impact law keeps Housner's r at each impact at h = 1 ms)
    window = t < reference["impacts"][0]
    expected = np.interp(t[window], reference["t"], reference["theta"])
    worst = np.abs(theta[window] - expected).max() / body.alpha
    print(f"pulse {ratio} x critical: largest |theta| {np.abs(theta).max():.4f} rad, Housner "
          f"{reference['largest']:.4f}; worst difference {worst:.3f} alpha")
    assert worst < 0.03
    collapsed = result.to_dict()["events"]["collapsed"]
    if ratio < 1.0:
        assert not collapsed and abs(np.abs(theta).max() / reference["largest"] - 1.0) < 0.01
    else:
        assert collapsed and np.abs(theta).max() > body.alpha


# --- sliding on an incline -------------------------------------------------------------------------------
def test_block_slides_down_an_incline_at_g_sin_minus_mu_cos():
    theta, mu = 35.0, 0.6
    doc = generators.generate("incline", angle_deg=theta, width=1.0, height=1.0, depth=1.0, friction=mu)
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 1.0, "time_step": 1e-3,
                                            "output_interval": 0.01})
    t, x, _ = block_track(result, "block")
    slope = np.array([math.cos(math.radians(theta)), 0.0, -math.sin(math.radians(theta))])
    s = (x - x[0]) @ slope
    late = t > 0.2
    a = 2.0 * np.polyfit(t[late], s[late], 2)[0]
    exact = G * (math.sin(math.radians(theta)) - mu * math.cos(math.radians(theta)))
    assert a == pytest.approx(exact, rel=0.02)
    normal = (x - x[0]) @ np.array([math.sin(math.radians(theta)), 0.0, math.cos(math.radians(theta))])
    assert np.abs(normal).max() < 1e-3        # no hopping off the slope
    assert {c["state"] for c in result.to_dict()["contacts"]} == {"slip"}


def test_block_sticks_on_an_incline_below_the_friction_angle():
    doc = generators.generate("incline", angle_deg=25.0, width=1.0, height=1.0, depth=1.0, friction=0.6)
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 1.0, "time_step": 1e-3,
                                            "output_interval": 0.1})
    t, x, _ = block_track(result, "block")
    # it settles into its contact springs (c F / PENETRATION_RECOVERY ~ 10 um), then does not creep
    assert np.linalg.norm(x[-1] - x[0]) < 5e-5
    assert np.linalg.norm(x[-1] - x[np.searchsorted(t, 0.2)]) < 1e-7
    assert {c["state"] for c in result.to_dict()["contacts"]} == {"stick"}


# --- Newmark sliding block ----------------------------------------------------------------------------------
def sliding_block(record_dt, accelerations, mu, duration):
    """Relative displacement ground - block along x at the end of a run of a block on moving ground."""
    doc = generators.generate("rocking_block", width=1.0, height=0.5, depth=1.0, friction=mu)
    doc["support_motion"] = {"kind": "record", "dt": record_dt, "accelerations": accelerations}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": duration, "time_step": 1e-3,
                                            "output_interval": 0.01})
    _, block, _ = block_track(result, "block")
    _, ground, _ = block_track(result, "ground")
    return (ground[-1, 0] - ground[0, 0]) - (block[-1, 0] - block[0, 0])


def test_rectangular_pulse_slides_the_block_by_newmarks_displacement():
    a, t0, mu = 0.5 * G, 0.2, 0.3
    exact = (a * t0) ** 2 / (2.0 * mu * G) * (1.0 - mu * G / a)      # Newmark 1965: 0.06540 m
    dt = 1e-4                                                        # record sampling: a sharp pulse
    record = [[a, 0.0, 0.0]] * (int(round(t0 / dt)) + 1) + [[0.0, 0.0, 0.0]] * 2
    assert sliding_block(dt, record, mu, 0.8) == pytest.approx(exact, rel=0.01)


def test_half_sine_pulse_slides_the_block_by_newmarks_displacement():
    a, period, mu = 0.5 * G, 0.5, 0.2
    dt = 1e-3
    times = np.arange(0.0, period + dt / 2, dt)
    record = [[float(a * np.sin(np.pi * t / period)), 0.0, 0.0] for t in times]
    assert sliding_block(dt, record, mu, 1.4) == pytest.approx(0.28095, rel=0.01)


def rigid_plastic_sliding(ground_velocity, ground_acceleration, mu, duration, dt=1e-5):
    """Newmark's rigid-plastic sliding block on a flat moving base, integrated finely (1-D, exact law).

    The block sticks while |a_g| <= mu g and slides otherwise, decelerated by mu g against the
    relative velocity. Returns times and the relative displacement ground - block.
    """
    times = np.arange(0.0, duration + dt / 2, dt)
    v_block, relative = 0.0, 0.0
    out = np.empty_like(times)
    for k, t in enumerate(times):
        out[k] = relative
        slip = ground_velocity(t) - v_block
        if abs(slip) > 1e-9:
            v_next = v_block + math.copysign(mu * G, slip) * dt
            if (ground_velocity(t + dt) - v_next) * slip < 0.0:   # relative motion stops within the step
                v_next = ground_velocity(t + dt)
        elif abs(ground_acceleration(t)) <= mu * G:
            v_next = ground_velocity(t + dt)
        else:
            v_next = v_block + math.copysign(mu * G, ground_acceleration(t)) * dt
        relative += 0.5 * dt * ((ground_velocity(t) - v_block) + (ground_velocity(t + dt) - v_next))
        v_block = v_next
    return times, out


def test_block_on_harmonic_base_slides_as_newmarks_rigid_plastic_block():
    frequency, peak, mu, duration = 2.0, 0.4 * G, 0.2, 1.5
    omega = 2.0 * math.pi * frequency
    amplitude = peak / omega ** 2
    doc = generators.generate("rocking_block", width=1.0, height=0.5, depth=1.0, friction=mu)
    doc["support_motion"] = {"kind": "sine", "direction": [1, 0, 0], "frequency": frequency,
                             "peak_acceleration": peak}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": duration, "time_step": 1e-3,
                                            "output_interval": 0.01})
    t, block, _ = block_track(result, "block")
    _, ground, _ = block_track(result, "ground")
    relative = (ground[:, 0] - ground[0, 0]) - (block[:, 0] - block[0, 0])
    ref_t, ref = rigid_plastic_sliding(lambda s: amplitude * omega * math.cos(omega * s),
                                       lambda s: -amplitude * omega ** 2 * math.sin(omega * s), mu, duration)
    expected = np.interp(t, ref_t, ref)
    # slip per cycle: the range of the relative displacement over each of the last two cycles
    for start in (duration - 2.0 / frequency, duration - 1.0 / frequency):
        window = (t >= start) & (t <= start + 1.0 / frequency)
        ours, newmark = np.ptp(relative[window]), np.ptp(expected[window])
        assert ours == pytest.approx(newmark, rel=0.05)
    assert np.abs(relative - expected).max() < 0.05 * np.ptp(expected)


# --- energy -------------------------------------------------------------------------------------------------
def test_total_energy_never_increases_without_support_motion():
    doc = generators.generate("arch", thickness=0.9 * 0.10746, voussoirs=10, friction=0.8)
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.6, "time_step": 1e-3,
                                            "output_interval": 1e-3})
    energy = result.to_dict()["energy"]
    events = result.to_dict()["events"]
    assert events["collapsed"] and 0.0 < events["collapse"] <= 0.6 and not result.stable
    assert events["first_uplift"] is not None and events["first_uplift"] < events["collapse"]
    total = np.array([e["total"] for e in energy])
    kinetic = np.array([e["kinetic"] for e in energy])
    assert kinetic.max() > 1.0                                   # the arch really collapses
    assert np.diff(total).max() < 1e-6 * kinetic.max()


# --- stable for large steps ----------------------------------------------------------------------------------
@pytest.mark.parametrize("h", [1e-2, 1e-3])
def test_wall_at_rest_stays_at_rest(h):
    duration = 10.0
    model = Model.from_dict(generators.generate("wall", courses=4, blocks_per_course=4, block_length=0.4,
                                                block_height=0.2, depth=0.2, friction=0.6))
    result = analyze(model, {"type": "dynamic", "duration": duration, "time_step": h, "output_interval": 0.5})
    doc = result.to_dict()
    mech = model.mechanics
    drift = max(np.linalg.norm(np.asarray(f["positions"]) - mech.position0, axis=1).max() for f in doc["frames"])
    assert drift < 1e-4
    total = np.array([e["total"] for e in doc["energy"]])
    weight = mech.mass[~mech.is_support].sum() * G
    assert np.diff(total).max() < 1e-6 * weight * 0.2     # no gain beyond lifting the wall by 0.2 um
    assert not doc["events"]["collapsed"] and doc["events"]["first_sliding"] is None


# --- requests ------------------------------------------------------------------------------------------------
def test_dynamic_request_errors_name_the_field():
    model = Model.from_dict(generators.generate("column", blocks=2))
    with pytest.raises(ModelError, match="duration"):
        analyze(model, {"type": "dynamic"})
    with pytest.raises(ModelError) as info:
        analyze(model, {"type": "dynamic", "duration": 1.0, "time_step": -1})
    assert info.value.path == "analysis.time_step"
    with pytest.raises(ModelError) as info:
        analyze(model, {"type": "dynamic", "duration": 1.0, "speed": 2})
    assert info.value.path == "analysis.speed"


def test_progress_is_reported_and_a_run_can_be_cancelled():
    model = Model.from_dict(generators.generate("column", blocks=2))
    seen = []
    result = analyze(model, {"type": "dynamic", "duration": 0.2, "time_step": 1e-3}, progress=seen.append,
                     cancel=lambda: len(seen) >= 10)
    doc = result.to_dict()
    assert doc["cancelled"] is True and seen == sorted(seen) and 0 < seen[-1] < 1
    assert doc["stopped_at"] == pytest.approx(doc["frames"][-1]["t"])


def test_a_run_reports_the_steps_whose_solve_did_not_converge():
    doc = generators.generate("column", blocks=2)
    # APGD named: auto would retry these steps with the interior-point solver (engine.solvers.auto.RunPlan)
    doc["settings"] = {"solver": "apgd", "max_iterations": 2, "tolerance": 1e-12}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.01, "time_step": 1e-3}).to_dict()
    steps = result["solver_steps"]
    assert steps["steps"] == 10 and steps["unconverged_steps"] == 10 and steps["first_unconverged_t"] == 1e-3
    assert steps["worst_residual"] > 1e-12 and steps["most_iterations"] <= 2
    converged = analyze(Model.from_dict(generators.generate("column", blocks=2)),
                        {"type": "dynamic", "duration": 0.01, "time_step": 1e-3}).to_dict()["solver_steps"]
    assert converged["unconverged_steps"] == 0 and converged["worst_residual"] <= 1e-5


# --- settlement of part of the foundation -----------------------------------------------------------
def test_settlement_of_part_of_the_foundation_tilts_the_block_above():
    from tests.blocks import box_block, document

    doc = document([box_block("left", (-1.0, -0.5, -0.5), (0.0, 0.5, 0.0), support=True),
                    box_block("right", (0.0, -0.5, -0.5), (1.0, 0.5, 0.0), support=True),
                    box_block("beam", (-0.6, -0.2, 0.0), (1.0, 0.2, 0.3))], friction=0.8)
    # the right slab goes down 10 mm: accelerate down for 0.1 s, decelerate for 0.1 s (samples
    # are joined linearly, so each pulse starts and ends at zero and the two are symmetric)
    a, dt = 1.0, 1e-3
    pulse = [[0, 0, 0]] + [[0, 0, -a]] * 100 + [[0, 0, 0]] + [[0, 0, a]] * 100 + [[0, 0, 0]]
    doc["support_motion"] = {"kind": "record", "dt": dt, "blocks": ["right"], "accelerations": pulse}
    model = Model.from_dict(doc)
    result = analyze(model, {"type": "dynamic", "duration": 0.8, "time_step": 1e-3, "output_interval": 0.01})
    _, left, _ = block_track(result, "left")
    _, right, _ = block_track(result, "right")
    _, beam, q = block_track(result, "beam")
    drop = right[0, 2] - right[-1, 2]
    assert drop == pytest.approx(a * 0.1 ** 2, rel=0.05)          # the settled slab went down 10 mm
    assert np.abs(left - left[0]).max() == 0.0                    # the other slab stayed put
    # the beam (centre of mass over the right slab) pivots on the left slab's edge at x = 0 until
    # its right end, 1 m away, rests on the settled slab: a rotation about y of drop / 1 m
    tilt = 2.0 * np.arctan2(q[-1, 2], q[-1, 0])
    assert tilt == pytest.approx(math.atan(drop / 1.0), rel=0.05)
    assert beam[-1, 2] < beam[0, 2]


def test_kinematic_stop_ends_a_settle_run_early():
    model = Model.from_dict(generators.generate("column", blocks=3))
    result = analyze(model, {"type": "dynamic", "duration": 2.0, "time_step": 1e-3, "kinematic_stop": 1e-4})
    doc = result.to_dict()
    assert doc["stopped_at"] is not None and doc["stopped_at"] < 0.1
    assert doc["frames"][-1]["t"] == pytest.approx(doc["stopped_at"])


# --- Newton restitution ---------------------------------------------------------------------------------
def test_newton_restitution_returns_e_times_the_impact_speed():
    from tests.blocks import box_block, document, ground

    drop, e = 0.05, 0.5
    model = Model.from_dict(document([ground(), box_block("box", (-0.2, -0.2, drop), (0.2, 0.2, drop + 0.2))]))
    result = analyze(model, {"type": "dynamic", "duration": 0.2, "time_step": 1e-3, "output_interval": 1e-3,
                             "restitution": e})
    velocity = np.array(result.to_dict()["histories"]["blocks"]["box"]["velocity"])[:, 2]
    impact = math.sqrt(2.0 * G * drop)
    assert -velocity.min() == pytest.approx(impact, rel=0.02)
    assert velocity.max() == pytest.approx(e * impact, rel=0.03)
