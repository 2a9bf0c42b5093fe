"""Support motions that start and end at rest: the from-rest sine and the baseline-corrected record (issue 17)."""
import math

import numpy as np
import pytest

from extrados import Model, ModelError, analyze, generators
from extrados.engine.dynamics.support_motion import support_motion_from_document
from extrados.engine.tolerance import TOL

FREQUENCY, PEAK = 2.0, 3.0          # Hz, m/s^2
OMEGA = 2.0 * math.pi * FREQUENCY
AMPLITUDE = PEAK / OMEGA ** 2       # m
#: Round-off of sin/cos of a phase up to 2 pi times 5 periods, relative to the amplitude.
PHASE_ROUNDOFF = 1e-12


def sine(**fields):
    spec = {"kind": "sine", "direction": [1, 0, 0], "frequency": FREQUENCY, "peak_acceleration": PEAK, **fields}
    return support_motion_from_document(spec, ["ground"], [True]).motion


def test_the_default_sine_starts_at_speed_as_in_seed_000():
    motion = sine()
    assert motion.velocity(0.0)[0] == pytest.approx(AMPLITUDE * OMEGA, rel=1e-15)
    assert np.array_equal(motion.velocity(0.0), sine(start="at_speed").velocity(0.0))


def test_the_from_rest_sine_starts_at_rest_and_does_not_drift():
    motion = sine(start="from_rest")
    assert np.array_equal(motion.velocity(0.0), np.zeros(3))
    assert np.array_equal(motion.displacement(0.0), np.zeros(3))
    times = np.linspace(0.0, 5.0 / FREQUENCY, 2001)
    x = np.array([motion.displacement(t)[0] for t in times])
    # closed form d = D (1 - cos(w t)): between 0 and 2 D, back to 0 after every period
    assert np.allclose(x, AMPLITUDE * (1.0 - np.cos(OMEGA * times)), rtol=0.0, atol=PHASE_ROUNDOFF * AMPLITUDE)
    for period in range(1, 6):
        assert abs(motion.displacement(period / FREQUENCY)[0]) < PHASE_ROUNDOFF * AMPLITUDE
    # the same peak acceleration, reached at t = 0 (a finite acceleration step, no velocity jump)
    assert motion.acceleration(0.0)[0] == pytest.approx(PEAK, rel=1e-15)
    # velocity and acceleration are the derivatives of the displacement (central differences, O(h^2))
    h = 1e-5
    for t in (0.1, 0.37, 1.2):
        slope = (motion.displacement(t + h)[0] - motion.displacement(t - h)[0]) / (2.0 * h)
        assert slope == pytest.approx(motion.velocity(t)[0], rel=1e-8)
        curvature = (motion.velocity(t + h)[0] - motion.velocity(t - h)[0]) / (2.0 * h)
        assert curvature == pytest.approx(motion.acceleration(t)[0], rel=1e-8)


def constant_record(**fields):
    # 0.4 s of a constant 1 m/s^2: the ground ends moving at 0.4 m/s unless the baseline brings it to rest
    spec = {"kind": "record", "dt": 0.01, "accelerations": [[1.0, 0.0, 0.0]] * 41, **fields}
    return support_motion_from_document(spec, ["ground"], [True]).motion


def test_after_a_record_the_ground_stops_accelerating_and_keeps_its_velocity_by_default():
    motion = constant_record()
    assert np.array_equal(motion.acceleration(0.5), np.zeros(3))
    assert motion.velocity(0.5)[0] == pytest.approx(0.4, rel=1e-12)


def test_a_baseline_corrected_record_leaves_the_ground_at_rest_after_its_end():
    motion = constant_record(baseline="end_at_rest")
    for t in (0.4, 0.5, 10.0):
        assert np.abs(motion.velocity(t)).max() < TOL.baseline_velocity
    assert np.array_equal(motion.acceleration(0.5), np.zeros(3))
    assert np.abs(motion.displacement(10.0)).max() < TOL.baseline_displacement


@pytest.mark.parametrize("field, value", [("start", "later"), ("baseline", "cubic")])
def test_an_unknown_start_or_baseline_is_refused_at_its_field(field, value):
    doc = generators.generate("rocking_block", width=0.25, height=1.0, depth=0.25, friction=0.8)
    kind = {"start": "sine", "baseline": "record"}[field]
    doc["support_motion"] = {"sine": {"kind": "sine", "direction": [1, 0, 0], "frequency": 1.0, "amplitude": 0.01},
                             "record": {"kind": "record", "dt": 0.01, "accelerations": [[0, 0, 0]] * 3}}[kind]
    doc["support_motion"][field] = value
    with pytest.raises(ModelError) as error:
        Model.from_dict(doc)
    assert error.value.path == f"support_motion.{field}"


def test_an_analysis_moves_the_ground_from_rest_as_the_closed_form():
    doc = generators.generate("rocking_block", width=0.5, height=0.5, depth=0.5, friction=0.8)
    doc["support_motion"] = {"kind": "sine", "direction": [1, 0, 0], "frequency": FREQUENCY,
                             "peak_acceleration": PEAK, "start": "from_rest"}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.5, "time_step": 1e-3,
                                            "output_interval": 0.05}).to_dict()
    index = [block["id"] for block in result["blocks"]].index("ground")
    times = np.array([frame["t"] for frame in result["frames"]])
    x = np.array([frame["positions"][index][0] for frame in result["frames"]])
    # frames hold positions to 1e-6 m (TOL.frame_position_decimals): half a unit of rounding each
    assert np.allclose(x - x[0], AMPLITUDE * (1.0 - np.cos(OMEGA * times)), rtol=0.0, atol=1e-6)
