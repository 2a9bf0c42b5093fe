"""Free rocking at coarse NSCD steps against Housner (seed 003 eq. 1-3): the energy impact law of
engine.contact.impact_energy, with plastic impacts and with a requested rocking_restitution r."""
import dataclasses
import math

import numpy as np
import pytest

from extrados import Model, ModelError, analyze, generators
from extrados.engine.dynamics.rocking import RockingBody, rocking_response
from tests.test_dynamics import block_track, rotated_about_edge

#: theta_0 / alpha of every run (seed 003 sec. 3.1).
THETA0 = 0.5
#: Peak amplitudes theta_1 .. theta_5 compared, each within AMPLITUDE_TOL of Housner's (issue 18).
IMPACTS, AMPLITUDE_TOL = 5, 0.03
#: Blocks (width, depth, height), m: the issue's 0.25 x 0.5 x 1.0 block and a more slender one.
BLOCKS = [(0.25, 0.5, 1.0), (0.2, 0.4, 1.6)]
STEPS = [1e-3, 2e-3]


def rocking_peaks(width, depth, height, h, analysis_fields, duration):
    """theta_1 .. theta_5 / alpha of our free rocking from theta_0 = THETA0 alpha at step h (s)."""
    alpha = math.atan(width / height)
    doc = generators.generate("rocking_block", width=width, height=height, depth=depth, friction=0.8)
    rotated_about_edge(doc, "block", width / 2.0, THETA0 * alpha)
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": duration, "time_step": h,
                                            "output_interval": h, **analysis_fields})
    _, _, q = block_track(result, "block")
    theta = (2.0 * np.arctan2(q[:, 2], q[:, 0]) + THETA0 * alpha) / alpha
    crossings = np.flatnonzero(np.sign(theta[1:]) != np.sign(theta[:-1])) + 1
    assert len(crossings) >= IMPACTS + 1, f"only {len(crossings)} impacts in {duration} s"
    return np.array([np.abs(seg).max() for seg in np.split(theta, crossings[:IMPACTS + 1])[1:IMPACTS + 1]])


def housner_peaks(width, height, energy_ratio=None):
    """Housner's theta_1 .. theta_5 / alpha (eq. 1 with impacts by eq. 2, engine.dynamics.rocking),
    with the block's own r or ``energy_ratio``, and the time (s) to the sixth impact."""
    body = RockingBody.rectangle(width, height)
    if energy_ratio is not None:
        body = dataclasses.replace(body, restitution=math.sqrt(energy_ratio))
    exact = rocking_response(body, lambda t: 0.0, 10.0, theta0=THETA0 * body.alpha)
    return exact["amplitudes"][1:IMPACTS + 1] / body.alpha, exact["impacts"][IMPACTS]


@pytest.mark.parametrize("h", STEPS)
@pytest.mark.parametrize("block", BLOCKS)
def test_plastic_free_rocking_keeps_housners_r_at_coarse_steps(block, h):
    width, depth, height = block
    exact, sixth_impact = housner_peaks(width, height)
    ours = rocking_peaks(width, depth, height, h, {}, sixth_impact + 0.05)
    print(f"{block} h = {h:g} s: theta_n/alpha {np.round(ours, 4)}, Housner {np.round(exact, 4)}")
    np.testing.assert_allclose(ours, exact, rtol=AMPLITUDE_TOL)


@pytest.mark.parametrize("h", STEPS)
@pytest.mark.parametrize("energy_ratio", [0.80, 0.90, None])
def test_rocking_restitution_sets_the_energy_ratio_of_each_impact(energy_ratio, h):
    width, depth, height = BLOCKS[0]
    r = energy_ratio or RockingBody.rectangle(width, height).restitution ** 2
    exact, sixth_impact = housner_peaks(width, height, r)
    ours = rocking_peaks(width, depth, height, h, {"rocking_restitution": r}, sixth_impact + 0.05)
    print(f"r = {r:.4f}, h = {h:g} s: theta_n/alpha {np.round(ours, 4)}, Housner {np.round(exact, 4)}")
    np.testing.assert_allclose(ours, exact, rtol=AMPLITUDE_TOL)


@pytest.mark.parametrize("fields", [{"rocking_restitution": 0.9, "restitution": 0.5}, {"rocking_restitution": 1.0}])
def test_rocking_restitution_refused_beside_newton_restitution_or_out_of_range(fields):
    doc = generators.generate("rocking_block")
    with pytest.raises(ModelError) as error:
        analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.01, "time_step": 1e-3, **fields})
    assert error.value.path == "analysis.rocking_restitution"


def test_rocking_restitution_is_refused_where_only_some_supports_move():
    """The impact law measures energies in the ground's frame; a loading shoe that moves alone has none."""
    panel = generators.generate("panel", mortar=1, loading_speed=2e-3)
    with pytest.raises(ModelError) as error:
        analyze(panel, {"type": "dynamic", "duration": 0.002, "time_step": 1e-3, "rocking_restitution": 0.9})
    assert error.value.path == "analysis.rocking_restitution"
