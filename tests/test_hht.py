"""HHT-alpha on compliant Winkler joints (seed 003 eq. 4-5) and the time-step law (eq. 9-10).

Closed forms: eq. 9 for the Bachmann-equivalent block; a block at rest on a Winkler layer sinks W / (k_n A)
and stays; HHT conserves energy as the step goes to zero and dissipates more at larger steps
(seed 003 fig. 4); a rocking block's motion does not depend on how the model is turned about the
vertical (rotations are handled in 3-D); a step whose Newton iterations fail is halved and reported.
"""
import math

import numpy as np
import pytest

from extrados import ModelError, analyze, generators
from extrados.engine.dynamics.hht import HHTStep
from extrados.engine.dynamics.time_step_law import PAPER_LAW, REQUEST_LAW, model_time_step
from extrados.engine.model import Model
from extrados.engine.state import State

K_N = 5e8          # N/m^3, seed 003's k5
DENSITY = 2600.0   # kg/m^3, seed 003 sec. 3.1
#: Seed 003 sec. 4.2: the Bachmann-equivalent block and its two coefficients of restitution.
BACHMANN = {"height": 0.609, "width": 0.09135, "steps": {0.9532: 0.00278, 0.9465: 0.00319}}


def rocking(tilt=0.5, width=0.25, height=1.0, depth=0.25, stiffness=K_N, friction=0.8):
    return generators.generate("rocking_block", width=width, height=height, depth=depth, friction=friction,
                               density=DENSITY, tilt=tilt, normal_stiffness=stiffness)


def hht(duration, h, **fields):
    return {"type": "dynamic", "integrator": "hht", "duration": duration, "time_step": h, "output_interval": h,
            **fields}


def rocking_angle(result, theta0):
    """theta(t) (rad) of the block about y from the frames (it starts at theta0, leaning toward +x)."""
    q = result.frames.orientation[:, 0]
    return theta0 + 2.0 * np.arctan2(q[:, 2], q[:, 0])


def amplitudes(theta):
    """The largest |theta| of every half cycle after the first impact (theta between sign changes)."""
    crossings = np.flatnonzero(np.signbit(theta[1:]) != np.signbit(theta[:-1])) + 1
    return np.array([np.abs(part).max() for part in np.split(theta, crossings)[1:]])


def test_eq9_gives_the_seed_time_steps_for_the_bachmann_block():
    half_height, half_width = BACHMANN["height"] / 2.0, BACHMANN["width"] / 2.0
    radius = math.hypot(half_height, half_width)
    for r, step in BACHMANN["steps"].items():
        assert PAPER_LAW.time_step(radius, half_height / half_width, K_N, r) == pytest.approx(step, abs=5e-6)


def test_eq10_is_eq9_for_a_rectangular_block():
    for width, height in ((0.3, 1.2), (1.2, 4.8), (0.6, 6.0)):
        radius = 0.5 * math.hypot(width, height)
        p = math.sqrt(3.0 * 9.81 / (4.0 * radius))
        alpha = math.atan(width / height)
        for law in (PAPER_LAW, REQUEST_LAW):
            assert law.time_step_from_frequency(p, alpha, K_N, 0.9) == pytest.approx(
                law.time_step(radius, height / width, K_N, 0.9), rel=1e-12)
    # the paper's eq. 10 coefficient
    assert PAPER_LAW.a1 * (0.75 * 9.81) ** PAPER_LAW.a2 == pytest.approx(-7.851, abs=2e-3)


def test_the_law_reads_r_h_over_b_and_k_n_of_the_model():
    # deeper than wide: it rocks about its edges along y, at B = width / 2
    h, base = model_time_step(Model.from_dict(rocking(tilt=0.0, width=0.3, height=1.2, depth=0.5)), 0.9, PAPER_LAW)
    assert base.block == "block"
    assert base.radius == pytest.approx(0.5 * math.hypot(0.3, 1.2))
    assert base.aspect_ratio == pytest.approx(4.0)
    assert base.normal_stiffness == K_N
    assert h == pytest.approx(PAPER_LAW.time_step(base.radius, 4.0, K_N, 0.9))


def test_a_block_at_rest_on_a_winkler_layer_stays_sunk_by_its_weight_over_k_a():
    result = analyze(rocking(tilt=0.0), hht(0.5, 0.01))
    weight_sink = DENSITY * 0.25 * 1.0 * 0.25 * 9.81 / (K_N * 0.25 * 0.25)
    z = result.frames.position[:, 0, 2]
    assert z[0] == pytest.approx(0.5 - weight_sink, abs=1e-12)
    assert np.abs(z - z[0]).max() < 1e-9 * weight_sink + 1e-12
    doc = result.to_dict()
    assert doc["integrator"]["newton"]["unconverged_steps"] == 0
    assert doc["integrator"]["name"] == "hht"


def hht_spectral_radius(omega_h, alpha=1.0 - math.sqrt(2.0), beta=0.5, gamma=math.sqrt(2.0) - 0.5):
    """Spectral radius of eq. 4 for an undamped oscillator x'' + w^2 x = 0 at a step with w h = omega_h:
    the largest |eigenvalue| of the map (x, v, a)_i -> (x, v, a)_{i+1} (h = 1)."""
    w2 = omega_h ** 2
    amplification = np.empty((3, 3))
    for j, (x, v, a) in enumerate(np.eye(3)):
        a1 = -((1.0 + alpha) * w2 * (x + v + (0.5 - beta) * a) - alpha * w2 * x) / (1.0 + (1.0 + alpha) * w2 * beta)
        amplification[:, j] = (x + v + (0.5 - beta) * a + beta * a1, v + (1.0 - gamma) * a + gamma * a1, a1)
    return np.abs(np.linalg.eigvals(amplification)).max()


def test_a_block_bouncing_on_its_layer_decays_at_hhts_spectral_radius():
    """The vertical mode of a block on a Winkler layer (full contact: a linear oscillator of stiffness k_n A)
    loses amplitude per step at the spectral radius of eq. 4-5 for its w h."""
    model = Model.from_dict(rocking(tilt=0.0))
    mech = model.mechanics
    omega = math.sqrt(K_N * 0.25 * 0.25 / mech.mass[0])
    for omega_h in (0.44, 1.3):
        h = omega_h / omega
        state = State.initial(mech)
        state.position[0, 2] -= 2e-6          # within full contact: the weight sinks the block 4e-5 m
        stepper = HHTStep(model)
        stepper.start(state, mech.dead_wrench)
        deviation = []
        for _ in range(int(40 * math.pi / omega_h)):   # 20 periods
            stepper.advance(state, h, mech.dead_wrench)
            deviation.append(abs(state.position[0, 2] - mech.position0[0, 2]))
        fifth = len(deviation) // 5
        per_step = (max(deviation[-fifth:]) / max(deviation[:fifth])) ** (1.0 / (len(deviation) - fifth))
        assert per_step == pytest.approx(hht_spectral_radius(omega_h), abs=1e-3)


def test_impacts_lose_nothing_as_the_step_vanishes_and_more_at_larger_steps():
    """Seed 003 sec. 2.3, fig. 4: the time step alone rules the dissipation; an elastic Winkler layer
    with a small step gives the energy of an impact back (r near 1, against Housner's 0.83 here)."""
    alpha = math.atan(0.25 / 1.0)
    remaining = {}
    for h in (0.001, 0.005, 0.02):
        result = analyze(rocking(), hht(1.6, h))
        remaining[h] = amplitudes(rocking_angle(result, 0.5 * alpha))[1] / alpha
    assert remaining[0.001] > 0.48
    assert remaining[0.02] < remaining[0.005] < remaining[0.001]


def test_rocking_does_not_depend_on_the_model_turned_about_the_vertical():
    doc = rocking()
    turned = rocking()
    angle = math.radians(37.0)
    c, s = math.cos(angle), math.sin(angle)
    about_z = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    for block in turned["blocks"]:
        block["vertices"] = (np.asarray(block["vertices"]) @ about_z.T).tolist()
    first = analyze(doc, hht(0.8, 0.01))
    second = analyze(turned, hht(0.8, 0.01))
    lift = first.frames.position[:, 0] - first.frames.position[0, 0]
    turned_lift = (second.frames.position[:, 0] - second.frames.position[0, 0]) @ about_z
    assert np.abs(lift - turned_lift).max() < 1e-9


def test_a_step_that_does_not_converge_is_halved_and_reported():
    class Stubborn(HHTStep):
        """Newton gets no iteration at the full step, the usual count at half of it."""

        def settings(self, h):
            settings = super().settings(h)
            return settings._replace(iterations=0) if h > 0.006 else settings

    model = Model.from_dict(rocking())
    state = State.initial(model.mechanics)
    stepper = Stubborn(model)
    wrench = model.mechanics.dead_wrench
    stepper.start(state, wrench)
    trial = stepper.advance(state, 0.01, wrench)
    assert trial.report.halvings == 1
    assert trial.report.converged
    assert state.time == pytest.approx(0.01)
    reference_state = State.initial(model.mechanics)
    reference = HHTStep(model)
    reference.start(reference_state, wrench)
    for _ in range(2):
        reference.advance(reference_state, 0.005, wrench)
    assert np.abs(state.position - reference_state.position).max() < 1e-12


def test_the_request_refuses_what_hht_cannot_run():
    rigid = generators.generate("rocking_block")
    with pytest.raises(ModelError, match="normal_stiffness") as error:
        analyze(rigid, hht(0.1, 0.01))
    assert error.value.path == "joints.dry"
    with pytest.raises(ModelError) as error:
        analyze(rocking(), hht(0.1, 0.01, restitution=0.5))
    assert error.value.path == "analysis.restitution"
    with pytest.raises(ModelError) as error:
        analyze(rocking(), hht(0.1, 0.01, rocking_restitution=0.9))
    assert error.value.path == "analysis.time_step"


def test_rocking_restitution_picks_the_laws_time_step():
    request = {"type": "dynamic", "integrator": "hht", "duration": 0.1, "rocking_restitution": 0.9}
    doc = analyze(rocking(), request).to_dict()
    law = doc["integrator"]["time_step_law"]
    radius, aspect = 0.5 * math.hypot(0.25, 1.0), 4.0
    assert law["time_step"] == pytest.approx(REQUEST_LAW.time_step(radius, aspect, K_N, 0.9))
    assert doc["time_step"] == law["time_step"]
    assert (law["A1"], law["A2"], law["A3"]) == (REQUEST_LAW.a1, REQUEST_LAW.a2, REQUEST_LAW.a3)


def test_the_energy_record_holds_the_layers_strain_energy():
    """A block set on a Winkler layer without its settlement bounces in full contact between 0 and twice
    the static settlement d = m g / (k_n A): a linear oscillator, whose energy K + V + k_n/2 int d^2 dA the
    trapezoidal rule (alpha = 0, beta = 1/4, gamma = 1/2) keeps; at the lowest point the layer holds
    k_n A (2 d)^2 / 2 = 2 m g d, all the weight's work. Eq. 5's parameters dissipate."""
    doc = generators.generate("rocking_block", width=0.25, height=1.0, depth=0.25, friction=0.8, density=DENSITY)
    doc["joints"]["dry"]["normal_stiffness"] = K_N
    model = Model.from_dict(doc)
    mass, area = model.mechanics.mass[0], 0.25 * 0.25
    settlement = mass * 9.81 / (K_N * area)
    omega = math.sqrt(K_N * area / mass)
    h = 0.5 / omega
    result = analyze(doc, hht(40 * h, h, hht={"alpha": 0.0, "beta": 0.25, "gamma": 0.5})).to_dict()
    elastic = np.array([entry["elastic"] for entry in result["energy"]])
    total = np.array([entry["total"] for entry in result["energy"]])
    assert elastic.max() == pytest.approx(2.0 * mass * 9.81 * settlement, rel=0.02)  # sampled near the bottom
    assert np.abs(total - total[0]).max() < 1e-6 * elastic.max()
    damped = analyze(doc, hht(40 * h, h)).to_dict()
    dissipated = np.array([entry["dissipated"] for entry in damped["energy"]])
    # HHT dissipates its own algorithmic energy: K + V + U may rise within a step by 1e-4 of the layer's peak,
    # while over the 6 periods it loses 1.8 % of it at w h = 0.5
    assert dissipated.min() > -1e-3 * elastic.max() and dissipated[-1] > 0.01 * elastic.max()
