"""Rocking by numerical dissipation: HHT-alpha on a Winkler joint against Housner's theory (seed 003 sec. 2-4).

A block of density 2600 kg/m^3 stands on a no-tension Winkler layer of k_n = 5e8 N/m^3 (k5) with friction
too high to slide, and the HHT-alpha method of eq. 4-5 (request ``"integrator": "hht"``) dissipates at its
impacts only what its time step makes it dissipate. Sub-studies (``--studies``), each writing
<study>.json and its figures to OUT/hht_rocking/:

concept
    Seed 003 fig. 2-3: 2H = 4.2 m, 2B = 0.6 m, r = 0.94, theta_0 / alpha = 0.5, dt = 0.013 s and the step
    our law gives for r = 0.94 (``rocking_restitution``), against eq. 1 (Housner's ODE with r) and eq. 3:
    theta / alpha (t), E(t) / E_0, e_theta, e_T, e_G (eq. 7-8) and the phase portrait.
steps
    Fig. 4: dt = 0.007, 0.013, 0.026 s. The energy ratio an impact realises falls as dt grows; every
    point (theta_n, T_n / 2) lies on eq. 3's curve T/2 (theta) within HALF_PERIOD_TOL.
amplitudes
    Fig. 5: theta_0 / alpha = 0.25, 0.5, 0.75, 0.9 at dt = 0.013 s: the mean energy ratio per impact
    the same within AMPLITUDE_INDEPENDENCE_TOL.
harmonic
    A from-rest sine of the ground (``support_motion``) under the same block, r of eq. 2 and the law's
    step, against Housner's ODE under the very ground acceleration the engine reads: same verdict
    (survives / overturns), largest |theta| within HARMONIC_ROTATION_TOL.
ensemble
    Sec. 4.2, fig. 17d-18: the Bachmann-equivalent block (p = 4.8883 1/s, tan alpha = 0.15) under
    Kanai-Tajimi records through the batch runner with r = 0.9532 and 0.9465 (the law's two steps),
    against Housner's ODE with the same r: ECDFs of theta_max / alpha with 90/95 % DKW bands, KS
    distances, and phase portraits of a far-from-collapse, a near-collapse and a collapse record with
    the rhomboidal separatrix (vertices theta = +-alpha and theta_dot = +-2 p sin(alpha / 2)).

    .venv/bin/python examples/hht_rocking.py [--studies concept steps amplitudes harmonic ensemble]
        [--duration 20] [--count 100] [--workers 2] [--out out] [--batch-dir out/hht_rocking_batches]
"""
import argparse
import json
import math
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from distributed import LocalCluster  # noqa: E402
from extrados import analyze, generators  # noqa: E402
from extrados.batch import expand, load_spec  # noqa: E402
from extrados.batch.ensemble import run_with_housner  # noqa: E402
from extrados.batch.housner import (  # noqa: E402
    COLLAPSE_ANGLE,
    ensemble_comparison,
    ground_acceleration,
    rocking_body,
)
from extrados.batch.runner import WORKER_ENVIRONMENT  # noqa: E402
from extrados.engine.dynamics.rocking import RockingBody, rocking_response  # noqa: E402
from extrados.engine.dynamics.time_step_law import REQUEST_LAW, model_time_step  # noqa: E402
from extrados.engine.model import Model  # noqa: E402
from extrados.engine.post.statistics import empirical_cdf  # noqa: E402
from extrados.engine.post.rocking_errors import (  # noqa: E402
    eq3_half_period,
    error_measures,
    half_periods,
    housner_eq3,
    impact_energy_ratios,
    rocking_cycles,
    significant_impacts,
)

G = 9.81
DENSITY = 2600.0        # kg/m^3, seed 003 sec. 3.1
NORMAL_STIFFNESS = 5e8  # N/m^3, k5
#: High enough that the block rocks without sliding (Housner's hypothesis of no sliding).
FRICTION = 1.0
#: Seed 003 fig. 2: 2B x 2H (m; the depth, which eq. 1 does not see, equal to 2B), r and theta_0 / alpha.
CONCEPT = {"width": 0.6, "height": 4.2, "depth": 0.6}
CONCEPT_RESTITUTION, CONCEPT_TILT, CONCEPT_STEP = 0.94, 0.5, 0.013
#: Seed 003 fig. 4 and 5: the time steps (s) and the initial amplitudes theta_0 / alpha.
FIG4_STEPS = (0.007, 0.013, 0.026)
FIG5_TILTS = (0.25, 0.5, 0.75, 0.9)
#: Fig. 4c: every (theta_n, T_n / 2) within this relative distance of eq. 3's T/2 (theta_n).
HALF_PERIOD_TOL = 0.02
#: Fig. 5: the mean energy ratio per impact of every amplitude within this of their mean (absolute, of r).
AMPLITUDE_INDEPENDENCE_TOL = 0.01
#: Impacts over which an energy ratio is averaged (while the amplitude stays above RATIO_FLOOR theta_0).
RATIO_IMPACTS, RATIO_FLOOR = 5, 0.2
#: Harmonic base excitation: largest |theta| of a surviving block within this of Housner's (relative).
HARMONIC_ROTATION_TOL = 0.05
#: (peak ground acceleration / (g tan alpha), frequency / (p / 2 pi), cycles): from-rest sines chosen on
#: Housner's own overturning map, each with the same verdict at 0.9 and 1.1 times its amplitude.
HARMONIC_CASES = ((1.5, 4.0, 3), (3.0, 8.0, 3), (1.5, 2.0, 3), (3.0, 2.0, 3))
#: s of free motion after the excitation, so that a block that started to fall lands within the run.
HARMONIC_TAIL = 3.0
#: The margins on the amplitude at which HARMONIC_CASES' verdicts are checked on the ODE.
HARMONIC_MARGIN = 0.1
#: Seed 003 sec. 4.2: the Bachmann-equivalent block (m) and its two measured coefficients of restitution.
BACHMANN = {"width": 0.09135, "height": 0.609, "depth": 0.3}
BACHMANN_RESTITUTIONS = (0.9532, 0.9465)
#: The ensemble's records (as examples/rocking_ensemble.py: a firm-to-medium soil filter under a 3 s
#: envelope), scaled to PGA (m/s^2), and seconds of free motion after them. PGA 2.2 m/s^2 = 1.5 g tan(alpha),
#: from Housner's ODE: 4 of records 0-15 overturn and the others rock up to 0.7 alpha (at 3.0 m/s^2 79 of 90
#: overturned, a CDF made of collapses).
RECORD = {"duration": 3.0, "dt": 0.01, "ground_frequency": 8.0, "ground_damping": 0.6, "t_rise": 0.5,
          "t_strong": 1.5, "decay": 2.0}
ENSEMBLE_PGA, ENSEMBLE_TAIL = 2.2, 1.0
#: Points of the trapezoidal rule over the base's width in the layer's elastic energy (its integrand is
#: piecewise quadratic: the kink where the base leaves the layer costs a relative error of order 1/points^2).
ENERGY_QUADRATURE_POINTS = 401
BLOCK = "block"


# --- one run of ours and Housner's reference --------------------------------------------------------------
def block_document(shape, tilt=0.0):
    """A rocking_block model on the k5 Winkler layer, leaning toward +x by tilt = theta_0 / alpha."""
    return generators.generate("rocking_block", **shape, friction=FRICTION, density=DENSITY, tilt=tilt,
                               normal_stiffness=NORMAL_STIFFNESS)


def law_time_step(document, restitution):
    """The step (s) a request with ``rocking_restitution`` gets for this model (REQUEST_LAW, eq. 9)."""
    return model_time_step(Model.from_dict(document), restitution, REQUEST_LAW)[0]


def hht_request(duration, time_step=None, restitution=None, output_interval=None):
    """A dynamic HHT request: a time step, or a restitution from which the law picks it."""
    request = {"type": "dynamic", "integrator": "hht", "duration": duration,
               "output_interval": output_interval or time_step}
    if restitution is not None:
        request["rocking_restitution"] = restitution
    else:
        request["time_step"] = time_step
    return request


def hht_run(document, request, shape, theta0):
    """theta(t) (rad, + toward +x), theta_dot (rad/s), the total energy (J) and the run's figures.

    theta = theta_0 + 2 atan2(q_y, q_w) from the frames' orientations (the block rocks about y); the
    energy is m g (z - z_rest) + 1/2 m |v|^2 + 1/2 I_c omega_y^2 + the layer's (``winkler_energy``),
    z_rest = H - W / (k_n A) the centre's height standing at rest.
    """
    start = time.perf_counter()
    result = analyze(document, request)
    seconds = time.perf_counter() - start
    frames, doc = result.frames, result.to_dict()
    mechanics = Model.from_dict(document).mechanics
    index = mechanics.block_ids.index(BLOCK)
    mass, inertia = float(mechanics.mass[index]), float(mechanics.inertia_body[index][1, 1])
    z_rest = 0.5 * shape["height"] - mass * G / (NORMAL_STIFFNESS * shape["width"] * shape["depth"])
    q, velocity, z = frames.orientation[:, index], frames.velocity[:, index], frames.position[:, index, 2]
    theta = theta0 + 2.0 * np.arctan2(q[:, 2], q[:, 0])
    energy = (mass * G * (z - z_rest) + 0.5 * mass * np.sum(velocity[:, :3] ** 2, axis=1)
              + 0.5 * inertia * velocity[:, 4] ** 2 + winkler_energy(z, theta, shape, ENERGY_QUADRATURE_POINTS))
    newton = doc["integrator"]["newton"]
    return {"t": frames.t, "theta": theta, "theta_dot": velocity[:, 4],
            "energy": energy, "time_step": doc["time_step"], "seconds": seconds,
            "unconverged_steps": newton["unconverged_steps"], "halved_steps": len(newton["halved"])}


def housner_free(body, restitution, tilt, duration):
    """Housner's eq. 1 from theta_0 = tilt alpha at rest, impacts keeping the energy ratio ``restitution``;
    with its energy over m g R, cos(alpha - |theta|) - cos(alpha) + theta_dot^2 / (2 p^2) (I_O = m g R / p^2)."""
    exact = rocking_response(replace(body, restitution=math.sqrt(restitution)), lambda t: 0.0, duration,
                             theta0=tilt * body.alpha, g=G)
    energy = np.cos(body.alpha - np.abs(exact["theta"])) - math.cos(body.alpha) + 0.5 * (exact["theta_dot"] / body.p) ** 2
    return {**exact, "energy": energy}


def free_rocking_figures(run, body, restitution, tilt):
    """Impacts, amplitudes and half periods of a free-rocking run against eq. 3 (seed 003 eq. 3, 7-8).

    Returns a JSON-ready dict: amplitudes theta_n / alpha, half periods T_n / 2 (s), eq. 3's of both,
    e_theta, e_T, e_G against eq. 3 over the significant impacts N, the energy ratio of each impact, their
    mean over the first RATIO_IMPACTS (amplitudes above RATIO_FLOOR theta_0), and the largest relative
    distance of a (theta_n, T_n / 2) from eq. 3's curve over the significant impacts.
    """
    impacts, amplitudes = rocking_cycles(run["t"], run["theta"])
    ours, half = amplitudes / body.alpha, half_periods(impacts)
    eq3_amp, eq3_half = housner_eq3(tilt, restitution, body.p, len(impacts))
    n = significant_impacts(ours)
    ratios = impact_energy_ratios(ours[:n + 1])
    kept = ratios[:RATIO_IMPACTS][ours[1:RATIO_IMPACTS + 1] > RATIO_FLOOR * tilt]
    curve = np.abs(half[:n + 1] / eq3_half_period(ours[:n + 1], body.p) - 1.0)
    return {"time_step": run["time_step"], "seconds": run["seconds"], "unconverged_steps": run["unconverged_steps"],
            "halved_steps": run["halved_steps"], "impacts": impacts.tolist(), "amplitudes_over_alpha": ours.tolist(),
            "half_periods": half.tolist(), "eq3_amplitudes_over_alpha": eq3_amp.tolist(),
            "eq3_half_periods": eq3_half.tolist(), "errors_vs_eq3": error_measures(ours, half, eq3_amp, eq3_half, n),
            "energy_ratios": ratios.tolist(), "mean_energy_ratio": float(np.mean(kept)),
            "half_period_curve_max_error": float(curve.max())}


def winkler_energy(z_centre, theta, shape, points):
    """Elastic energy (J) of the Winkler layer under a block rocking in the x-z plane (seed 003 sec. 2.2).

    A base point s in [-B, B] of the block's centre at height z_centre tilted by theta (toward +x) sits at
    z = z_centre - s sin(theta) - H cos(theta), the ground's top at z = 0; the layer stores
    k_n / 2 int_A max(0, -z)^2 dA = k_n D / 2 int max(0, -z(s))^2 ds (trapezoidal rule on ``points`` points).

    Parameters
    ----------
    z_centre, theta : (n,) ndarray
        m and rad.
    """
    half_width, half_height = 0.5 * shape["width"], 0.5 * shape["height"]
    s = np.linspace(-half_width, half_width, points)
    z = z_centre[:, None] - s[None, :] * np.sin(theta)[:, None] - half_height * np.cos(theta)[:, None]
    return 0.5 * NORMAL_STIFFNESS * shape["depth"] * np.trapezoid(np.maximum(-z, 0.0) ** 2, s, axis=1)


# --- free rocking: fig. 2-5 ----------------------------------------------------------------------------------
def free_rocking(tilt, duration, time_step=None, restitution=None):
    """Our free rocking of the fig. 2 block from theta_0 = tilt alpha: the run and its eq. 3 figures."""
    document = block_document(CONCEPT, tilt)
    body = RockingBody.rectangle(CONCEPT["width"], CONCEPT["height"], G)
    output = time_step or law_time_step(document, restitution)
    run = hht_run(document, hht_request(duration, time_step, restitution, output), CONCEPT, tilt * body.alpha)
    print(f"  theta_0 = {tilt} alpha, dt = {run['time_step']:.5g} s: {run['seconds']:.1f} s", file=sys.stderr)
    return run, free_rocking_figures(run, body, CONCEPT_RESTITUTION, tilt)


def concept_study(duration):
    """Seed 003 fig. 2-3 at the paper's dt and at the law's, against Housner's eq. 1 and eq. 3."""
    body = RockingBody.rectangle(CONCEPT["width"], CONCEPT["height"], G)
    exact = housner_free(body, CONCEPT_RESTITUTION, CONCEPT_TILT, duration)
    runs = {"paper": free_rocking(CONCEPT_TILT, duration, time_step=CONCEPT_STEP),
            "law": free_rocking(CONCEPT_TILT, duration, restitution=CONCEPT_RESTITUTION)}
    summary = {"block": CONCEPT, "alpha": body.alpha, "p": body.p, "R": body.radius,
               "eq2_restitution": body.restitution ** 2, "restitution": CONCEPT_RESTITUTION,
               "theta0_over_alpha": CONCEPT_TILT, "duration": duration, "law": REQUEST_LAW.to_dict(),
               "runs": {name: figures for name, (_, figures) in runs.items()}}
    traces = {f"HHT, dt = {figures['time_step']:.4g} s ({name})": run for name, (run, figures) in runs.items()}
    return summary, exact, traces


def steps_study(duration, steps):
    """Seed 003 fig. 4: the same block at several dt."""
    runs = {h: free_rocking(CONCEPT_TILT, duration, time_step=h) for h in steps}
    figures = [run_figures for _, run_figures in runs.values()]
    ratios = [f["mean_energy_ratio"] for f in figures]
    return {"steps": list(steps), "runs": figures, "mean_energy_ratios": ratios,
            "dissipation_grows_with_step": bool(all(a > b for a, b in zip(ratios[:-1], ratios[1:]))),
            "half_period_curve_max_error": max(f["half_period_curve_max_error"] for f in figures),
            "half_period_tolerance": HALF_PERIOD_TOL}, {f"dt = {h:g} s": run for h, (run, _) in runs.items()}


def amplitudes_study(duration, tilts, time_step):
    """Seed 003 fig. 5: several theta_0 / alpha at one dt; the energy ratio per impact should not depend on it."""
    runs = [free_rocking(tilt, duration, time_step=time_step)[1] for tilt in tilts]
    ratios = np.array([f["mean_energy_ratio"] for f in runs])
    return {"tilts": list(tilts), "time_step": time_step, "runs": runs, "mean_energy_ratios": ratios.tolist(),
            "spread": float(np.abs(ratios - ratios.mean()).max()), "tolerance": AMPLITUDE_INDEPENDENCE_TOL}


# --- harmonic base excitation ------------------------------------------------------------------------------
def harmonic_document(body, case):
    """The fig. 2 block standing on the layer, its ground moved along x by a from-rest sine for whole cycles:
    a_g = A cos(2 pi f t) (engine.dynamics.support_motion), A and f given over g tan(alpha) and p / (2 pi)."""
    acceleration, frequency, cycles = case
    f = frequency * body.p / (2.0 * math.pi)
    document = block_document(CONCEPT)
    document["support_motion"] = {"kind": "sine", "direction": [1.0, 0.0, 0.0], "frequency": f,
                                  "peak_acceleration": acceleration * G * math.tan(body.alpha),
                                  "start": "from_rest", "duration": cycles / f}
    return document


def harmonic_duration(body, case):
    """s: the excitation's cycles and HARMONIC_TAIL after them."""
    return case[2] * 2.0 * math.pi / (case[1] * body.p) + HARMONIC_TAIL


def housner_harmonic(body, case):
    """Housner's eq. 1 (r of eq. 2) under the ground acceleration the engine reads from the case's model."""
    document = harmonic_document(body, case)
    return rocking_response(body, ground_acceleration(document), harmonic_duration(body, case), g=G)


def harmonic_case(body, case):
    """Ours (r of eq. 2 through rocking_restitution) against Housner's ODE for one sine: verdicts, largest |theta|."""
    document = harmonic_document(body, case)
    restitution = body.restitution ** 2
    step = law_time_step(document, restitution)
    run = hht_run(document, hht_request(harmonic_duration(body, case), None, restitution, step), CONCEPT, 0.0)
    exact = housner_harmonic(body, case)
    fallen = np.flatnonzero(np.abs(run["theta"]) >= COLLAPSE_ANGLE)
    ours_largest = float(np.abs(run["theta"][:fallen[0] + 1] if len(fallen) else run["theta"]).max())
    margins = [housner_harmonic(body, (case[0] * scale, *case[1:]))["overturned"] is not None
               for scale in (1.0 - HARMONIC_MARGIN, 1.0 + HARMONIC_MARGIN)]
    print(f"  sine {case}: dt = {run['time_step']:.4g} s, {run['seconds']:.1f} s", file=sys.stderr)
    return {"acceleration_over_g_tan_alpha": case[0], "frequency_over_p": case[1], "cycles": case[2],
            "frequency": document["support_motion"]["frequency"],
            "peak_acceleration": document["support_motion"]["peak_acceleration"], "time_step": run["time_step"],
            "seconds": run["seconds"], "unconverged_steps": run["unconverged_steps"],
            "overturned": bool(len(fallen)), "housner_overturned": exact["overturned"] is not None,
            "housner_verdict_at_margins": margins,
            "largest_over_alpha": ours_largest / body.alpha,
            "housner_largest_over_alpha": min(exact["largest"], COLLAPSE_ANGLE) / body.alpha,
            }, (run, exact)


def harmonic_study(cases):
    """Every HARMONIC_CASES sine: the same verdict as Housner's, and a survivor's largest |theta| within
    HARMONIC_ROTATION_TOL of Housner's."""
    body = RockingBody.rectangle(CONCEPT["width"], CONCEPT["height"], G)
    results = [harmonic_case(body, case) for case in cases]
    rows = [row for row, _ in results]
    for row in rows:
        row["same_verdict"] = row["overturned"] == row["housner_overturned"]
        row["largest_error"] = (None if row["overturned"] or row["housner_overturned"] else
                                row["largest_over_alpha"] / row["housner_largest_over_alpha"] - 1.0)
    return {"block": CONCEPT, "alpha": body.alpha, "p": body.p, "restitution": body.restitution ** 2,
            "collapse_angle": COLLAPSE_ANGLE, "tolerance": HARMONIC_ROTATION_TOL, "cases": rows}, \
        [trace for _, trace in results]


# --- the Bachmann-equivalent block under stochastic records ------------------------------------------------
def ensemble_spec(count, restitution):
    """The batch spec: the Bachmann block under stochastic records 0 .. count - 1 at ENSEMBLE_PGA along x, HHT
    with ``rocking_restitution`` (the law's step, the frames every step so that theta_max is not missed)."""
    generator = {"name": "rocking_block", "parameters": {**BACHMANN, "friction": FRICTION, "density": DENSITY,
                                                         "normal_stiffness": NORMAL_STIFFNESS}}
    step = law_time_step(block_document(BACHMANN), restitution)
    analysis = {**hht_request(RECORD["duration"] + ENSEMBLE_TAIL, None, restitution, step),
                "frames": "none", "histories": "none"}
    return {"generator": generator, "analysis": analysis,
            "ground_motions": {"stochastic": {"count": count, "parameters": RECORD}, "direction": [1, 0, 0],
                               "target_pga": [ENSEMBLE_PGA]},
            "outputs": {"names": ["collapse", "theta_max_over_alpha"], "blocks": [BLOCK]}}


def ensemble_batches(count, batch_dir, workers):
    """{r: (spec, rows, references)}: both restitutions' batches and their Housner references, on one cluster.
    A case the engine failed keeps its row with its error (``ensemble_study`` reports and leaves it out).

    Each batch's folder is emptied first: a batch resumes the cases it finds, and these must be fresh runs.
    """
    batches = {}
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                      env=WORKER_ENVIRONMENT) as cluster:
        for restitution in BACHMANN_RESTITUTIONS:
            spec = ensemble_spec(count, restitution)
            start = time.perf_counter()
            folder = Path(batch_dir) / f"r{restitution}"
            shutil.rmtree(folder, ignore_errors=True)
            rows, references = run_with_housner(spec, folder, cluster.scheduler_address, BLOCK, restitution)
            print(f"  r = {restitution}: {count} records in {time.perf_counter() - start:.0f} s", file=sys.stderr)
            batches[restitution] = (spec, rows, references)
    return batches


def phase_records(rows, collapse_ratio):
    """Indices of a far-from-collapse, a near-collapse and a collapse record (seed 003 fig. 18: theta_max / alpha
    0.24, 0.84 and collapsed), the closest of ours to those; None where the ensemble has none."""
    values = np.array([row[f"theta_max_over_alpha[{BLOCK}]"] for row in rows])
    standing = np.flatnonzero(values < collapse_ratio)
    fallen = np.flatnonzero(values >= collapse_ratio)

    def closest(target):
        return int(standing[np.argmin(np.abs(values[standing] - target))]) if len(standing) else None
    return {"far": closest(0.24), "near": closest(0.84), "collapse": int(fallen[0]) if len(fallen) else None}


def phase_traces(spec, key, restitution):
    """Our run (frames every step) and Housner's trace of the case ``key`` of a batch spec."""
    case = next(case for case in expand(*load_spec(spec)) if case.key == key)
    run = hht_run(case.model, {**case.analysis, "frames": "json", "histories": "json"}, BACHMANN, 0.0)
    body = rocking_body(case.model, BLOCK)
    exact = rocking_response(replace(body, restitution=math.sqrt(restitution)), ground_acceleration(case.model),
                             case.analysis["duration"], g=G)
    return run, exact


def ensemble_study(count, batch_dir, workers):
    """Both restitutions: ECDFs, KS distances, collapse fractions and the three phase portraits' traces, over
    the records the engine ran to the end; the others are listed under ``failed`` with their errors."""
    body = rocking_body(block_document(BACHMANN), BLOCK)
    start = time.perf_counter()
    batches = ensemble_batches(count, batch_dir, workers)
    seconds = time.perf_counter() - start
    summary = {"block": BACHMANN, "alpha": body.alpha, "p": body.p, "tan_alpha": math.tan(body.alpha),
               "pga": ENSEMBLE_PGA, "record": RECORD, "count": count, "seconds": seconds, "by_restitution": {}}
    samples, traces = {}, {}
    for restitution, (spec, all_rows, all_references) in batches.items():
        failed = [{"motion": row["motion"], "error": row["error"]} for row in all_rows if row["error"] is not None]
        rows, references = zip(*[(row, reference) for row, reference in zip(all_rows, all_references)
                                 if row["error"] is None])
        ours = [row[f"theta_max_over_alpha[{BLOCK}]"] for row in rows]
        housner = [reference["theta_max_over_alpha"] for reference in references]
        comparison = ensemble_comparison(ours, housner, COLLAPSE_ANGLE / body.alpha)
        picks = phase_records(rows, comparison["collapse_ratio"])
        summary["by_restitution"][str(restitution)] = {
            **comparison, "time_step": spec["analysis"]["output_interval"], "failed": failed,
            "phase_records": {name: (None if k is None else rows[k]["motion"]) for name, k in picks.items()}}
        samples[restitution] = (np.minimum(ours, comparison["collapse_ratio"]),
                                np.minimum(housner, comparison["collapse_ratio"]))
        if restitution == BACHMANN_RESTITUTIONS[0]:
            traces = {name: phase_traces(spec, rows[k]["key"], restitution) for name, k in picks.items() if k is not None}
    return summary, samples, traces


# --- figures --------------------------------------------------------------------------------------------------
def plot_free_rocking(path, body, exact, traces, title):
    """theta / alpha (t) and E(t) / E_0 of Housner's eq. 1 and of our runs (seed 003 fig. 2b-c, 4a-b)."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), dpi=120, sharex=True)
    top.plot(exact["t"], exact["theta"] / body.alpha, "k", lw=1.2, label="Housner, eq. 1")
    bottom.plot(exact["t"], exact["energy"] / exact["energy"][0], "k", lw=1.2, label="Housner, eq. 1")
    for label, run in traces.items():
        top.plot(run["t"], run["theta"] / body.alpha, lw=0.9, ls="--", label=label)
        bottom.plot(run["t"], run["energy"] / run["energy"][0], lw=0.9, ls="--", label=label)
    top.set_ylabel(r"$\theta / \alpha$")
    bottom.set_ylabel(r"$E / E_0$")
    bottom.set_xlabel("t (s)")
    top.set_title(title)
    top.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def separatrix(ax, body):
    """Seed 003 fig. 18's rhomboid: theta / alpha = +-1 at rest, theta_dot = +-2 p sin(alpha / 2) upright."""
    top = 2.0 * math.sin(0.5 * body.alpha) / body.alpha
    ax.plot([1.0, 0.0, -1.0, 0.0, 1.0], [0.0, top, 0.0, -top, 0.0], "r:", lw=1.2, label="separatrix")


def plot_phase(ax, body, exact, run, title):
    """Phase portrait theta / alpha, theta_dot / (p alpha) of Housner's eq. 1 and of our run."""
    ax.plot(exact["theta"] / body.alpha, exact["theta_dot"] / (body.p * body.alpha), "k", lw=1.0,
            label="Housner, eq. 1")
    ax.plot(run["theta"] / body.alpha, run["theta_dot"] / (body.p * body.alpha), "tab:red", lw=0.8, ls="--",
            label="HHT")
    ax.set_xlabel(r"$\theta / \alpha$")
    ax.set_ylabel(r"$\dot\theta / (p\,\alpha)$")
    ax.set_title(title, fontsize=9)


def plot_half_periods(path, body, runs, tilt_label):
    """theta_n / alpha against T_n / 2 of every run over eq. 3's curve (seed 003 fig. 4c)."""
    fig, ax = plt.subplots(figsize=(6.5, 5), dpi=120)
    curve = np.linspace(0.01, 0.99, 200)
    ax.plot(curve, eq3_half_period(curve, body.p), "k", lw=1.0, label="eq. 3")
    for label, figures in runs.items():
        ax.plot(figures["amplitudes_over_alpha"], figures["half_periods"], "o", mfc="none", label=label)
    ax.set_xlabel(r"$\theta_n / \alpha$")
    ax.set_ylabel(r"$T_n / 2$ (s)")
    ax.set_title(f"Half period against amplitude, {tilt_label}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_amplitudes(path, body, study):
    """theta_n / alpha and T_n / 2 along the impacts for every theta_0 / alpha against eq. 3 (seed 003 fig. 5)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), dpi=120)
    for tilt, figures in zip(study["tilts"], study["runs"]):
        n = np.arange(len(figures["amplitudes_over_alpha"]))
        (line,) = left.plot(n, figures["eq3_amplitudes_over_alpha"], lw=1.0, label=rf"eq. 3, $\theta_0$ = {tilt} α")
        left.plot(n, figures["amplitudes_over_alpha"], "o", mfc="none", color=line.get_color())
        right.plot(n, figures["eq3_half_periods"], lw=1.0, color=line.get_color())
        right.plot(n, figures["half_periods"], "o", mfc="none", color=line.get_color())
    left.set_ylabel(r"$\theta_n / \alpha$")
    right.set_ylabel(r"$T_n / 2$ (s)")
    for ax in (left, right):
        ax.set_xlabel("impacts n")
    left.legend(fontsize=8)
    fig.suptitle(f"HHT at dt = {study['time_step']:g} s (circles) against eq. 3 with r = {CONCEPT_RESTITUTION}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_harmonic(path, body, study, traces):
    """theta / alpha (t) of every sine, ours against Housner's."""
    fig, axes = plt.subplots(len(traces), 1, figsize=(10, 2.6 * len(traces)), dpi=110, squeeze=False)
    limit = COLLAPSE_ANGLE / body.alpha
    for ax, row, (run, exact) in zip(axes[:, 0], study["cases"], traces):
        ax.plot(exact["t"], np.clip(exact["theta"] / body.alpha, -limit, limit), "k", lw=1.0, label="Housner, eq. 1")
        ax.plot(run["t"], np.clip(run["theta"] / body.alpha, -limit, limit), "tab:red", lw=0.9, ls="--",
                label=f"HHT, dt = {row['time_step']:.4g} s")
        ax.set_ylabel(r"$\theta / \alpha$")
        ax.set_title(f"A = {row['acceleration_over_g_tan_alpha']} g tan α, ω = {row['frequency_over_p']} p, "
                     f"{row['cycles']} cycles", fontsize=9)
    axes[0, 0].legend(fontsize=8, loc="upper right")
    axes[-1, 0].set_xlabel("t (s)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_ensemble_cdfs(path, samples, summary):
    """Per restitution: Housner's ECDF of theta_max / alpha with its 90 % and 95 % DKW bands and ours (fig. 17d)."""
    fig, axes = plt.subplots(1, len(samples), figsize=(6 * len(samples), 4.5), dpi=120, squeeze=False)
    for ax, (restitution, (ours, housner)) in zip(axes[0], samples.items()):
        for confidence, shade in ((0.95, 0.15), (0.90, 0.3)):
            band = empirical_cdf(housner, confidence)
            ax.fill_between(band.values, band.lower, band.upper, step="post", color="0.2", alpha=shade,
                            label=f"Housner: {confidence:.0%} DKW band")
        reference, engine = empirical_cdf(housner), empirical_cdf(ours)
        ax.step(reference.values, reference.probability, "k", where="post", label=f"Housner ODE, r = {restitution}")
        ax.step(engine.values, engine.probability, "tab:red", where="post", label=f"HHT, rocking_restitution = {restitution}")
        figures = summary["by_restitution"][str(restitution)]
        ax.set_title(f"r = {restitution}, dt = {figures['time_step']:.4g} s: KS {figures['ks_distance']:.3f}",
                     fontsize=9)
        ax.set_xlabel(rf"$\theta_{{max}} / \alpha$ (collapsed: {figures['collapse_ratio']:.2f})")
        ax.set_ylabel(r"$F(\theta_{max} / \alpha)$")
        ax.set_ylim(0.0, 1.0)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_ensemble_phases(path, body, summary, traces):
    """Phase portraits of the far-from-collapse, near-collapse and collapse records with the separatrix (fig. 18)."""
    fig, axes = plt.subplots(1, max(len(traces), 1), figsize=(5.5 * max(len(traces), 1), 5), dpi=110, squeeze=False)
    records = summary["by_restitution"][str(BACHMANN_RESTITUTIONS[0])]["phase_records"]
    for ax, (name, (run, exact)) in zip(axes[0], traces.items()):
        plot_phase(ax, body, exact, run, f"{name}: {records[name]}")
        separatrix(ax, body)
        ax.set_xlim(-1.6, 1.6)
        ax.set_ylim(-1.6, 1.6)
    axes[0, 0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# --- the studies as run from the command line ----------------------------------------------------------------
def write(out, name, document):
    (out / f"{name}.json").write_text(json.dumps(document, indent=1))


def run_concept(out, args):
    summary, exact, traces = concept_study(args.duration)
    body = RockingBody.rectangle(CONCEPT["width"], CONCEPT["height"], G)
    write(out, "concept", summary)
    plot_free_rocking(out / "concept.png", body, exact, traces,
                      f"Seed 003 fig. 2: 2H = {CONCEPT['height']} m, 2B = {CONCEPT['width']} m, r = "
                      f"{CONCEPT_RESTITUTION}, k_n = {NORMAL_STIFFNESS:g} N/m^3")
    fig, ax = plt.subplots(figsize=(6.5, 6), dpi=120)
    plot_phase(ax, body, exact, traces[next(iter(traces))], f"Seed 003 fig. 3, dt = {CONCEPT_STEP} s")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "concept_phase.png")
    plt.close(fig)
    for name, figures in summary["runs"].items():
        errors = figures["errors_vs_eq3"]
        print(f"concept, {name} dt = {figures['time_step']:.5g} s: e_theta {errors['e_theta']:.4f}, e_T "
              f"{errors['e_T']:.4f}, e_G {errors['e_G']:.4f} over N = {errors['N']}; energy ratio per impact "
              f"{figures['mean_energy_ratio']:.4f} (r = {CONCEPT_RESTITUTION}); {figures['seconds']:.1f} s")


def run_steps(out, args):
    summary, traces = steps_study(args.duration, args.steps)
    body = RockingBody.rectangle(CONCEPT["width"], CONCEPT["height"], G)
    write(out, "steps", summary)
    exact = housner_free(body, CONCEPT_RESTITUTION, CONCEPT_TILT, args.duration)
    plot_free_rocking(out / "steps.png", body, exact, traces, "Seed 003 fig. 4: the time step rules the dissipation")
    plot_half_periods(out / "steps_half_periods.png", body,
                      {f"dt = {f['time_step']:g} s": f for f in summary["runs"]}, rf"$\theta_0$ = {CONCEPT_TILT} α")
    print(f"steps {summary['steps']}: energy ratio per impact {np.round(summary['mean_energy_ratios'], 4).tolist()} "
          f"(falls with dt: {summary['dissipation_grows_with_step']}); (theta_n, T_n/2) within "
          f"{100 * summary['half_period_curve_max_error']:.2f} % of eq. 3 (limit {100 * HALF_PERIOD_TOL:g} %)")


def run_amplitudes(out, args):
    summary = amplitudes_study(args.duration, args.tilts, args.amplitude_step)
    write(out, "amplitudes", summary)
    plot_amplitudes(out / "amplitudes.png", RockingBody.rectangle(CONCEPT["width"], CONCEPT["height"], G), summary)
    print(f"amplitudes {summary['tilts']} at dt = {args.amplitude_step} s: energy ratio per impact "
          f"{np.round(summary['mean_energy_ratios'], 4).tolist()}, spread {summary['spread']:.4f} "
          f"(limit {AMPLITUDE_INDEPENDENCE_TOL})")


def run_harmonic(out, args):
    summary, traces = harmonic_study(HARMONIC_CASES)
    body = RockingBody.rectangle(CONCEPT["width"], CONCEPT["height"], G)
    write(out, "harmonic", summary)
    plot_harmonic(out / "harmonic.png", body, summary, traces)
    for row in summary["cases"]:
        error = "" if row["largest_error"] is None else f", largest |theta| {100 * row['largest_error']:+.1f} %"
        print(f"sine {row['acceleration_over_g_tan_alpha']} g tan(alpha), {row['frequency_over_p']} p: HHT "
              f"{'overturns' if row['overturned'] else 'survives'}, Housner "
              f"{'overturns' if row['housner_overturned'] else 'survives'}{error}")


def run_ensemble_study(out, args):
    summary, samples, traces = ensemble_study(args.count, args.batch_dir, args.workers)
    body = rocking_body(block_document(BACHMANN), BLOCK)
    write(out, "ensemble", summary)
    plot_ensemble_cdfs(out / "ensemble_cdf.png", samples, summary)
    plot_ensemble_phases(out / "ensemble_phase.png", body, summary, traces)
    for restitution, figures in summary["by_restitution"].items():
        print(f"ensemble r = {restitution}, dt = {figures['time_step']:.4g} s: KS distance "
              f"{figures['ks_distance']:.3f} (p = {figures['ks_pvalue']:.3f}); collapsed HHT "
              f"{figures['nscd']['collapsed']}, Housner {figures['housner']['collapsed']} of "
              f"{figures['nscd']['cases']} ({len(figures['failed'])} failed: "
              f"{figures['failed'][0]['error'] if figures['failed'] else 'none'})")
    print(f"ensemble: {summary['seconds']:.0f} s")


STUDIES = {"concept": run_concept, "steps": run_steps, "amplitudes": run_amplitudes, "harmonic": run_harmonic,
           "ensemble": run_ensemble_study}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--studies", nargs="+", choices=list(STUDIES), default=list(STUDIES))
    parser.add_argument("--duration", type=float, default=20.0, help="s of free rocking")
    parser.add_argument("--steps", type=float, nargs="+", default=list(FIG4_STEPS), help="fig. 4's steps, s")
    parser.add_argument("--tilts", type=float, nargs="+", default=list(FIG5_TILTS), help="fig. 5's theta_0 / alpha")
    parser.add_argument("--amplitude-step", type=float, default=CONCEPT_STEP, help="fig. 5's step, s")
    parser.add_argument("--count", type=int, default=100, help="the ensemble's records")
    parser.add_argument("--workers", type=int, default=2, help="the ensemble's Dask worker processes")
    parser.add_argument("--out", type=Path, default=Path("out"), help="files go to OUT/hht_rocking/")
    parser.add_argument("--batch-dir", type=Path, default=Path("out/hht_rocking_batches"),
                        help="the ensemble's batch tables (outside OUT: two batches, each with its cases.json)")
    args = parser.parse_args(argv)
    out = args.out / "hht_rocking"
    out.mkdir(parents=True, exist_ok=True)
    for name in args.studies:
        STUDIES[name](out, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
