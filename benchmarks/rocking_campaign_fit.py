"""The time-step law fitted on our own free-rocking campaign (seed 003 sec. 3.2-3.3, eq. 6-8).

Reads the tables of benchmarks/rocking_campaign.py (the campaign, and the post-validation if it ran)
and, for each block, stiffness k_n and coefficient of restitution r = 0.80, 0.81, ... 0.99:

1. Housner's amplitudes theta_n / alpha and half periods T_n / 2 (eq. 3, p = sqrt(3 g / (4 R)));
   N = the impacts until eq. 3's amplitude falls below 0.05 theta_0 (engine.post.rocking_errors),
   capped at the last impact eq. 3 places within the run's recorded time (30 s: for r near 1 the
   seed runs longer; we compare what 30 s holds).
2. e_theta, e_T, e_G of each time step's run over n = 0 .. N (eq. 7-8). A run that came to rest
   before its N-th impact has amplitude 0 at the impacts it did not make; its half periods count
   where it has them (the missing ones add nothing to the sum, which is still divided by N).
3. The measured optimal step: the one of least e_G, kept when e_G <= OPTIMUM_ERROR (sec. 3.2).
4. Eq. 6's A_1, A_2, A_3 by nonlinear least squares (scipy.optimize.least_squares) on the measured
   optima, started from the paper's eq. 9; R^2 = 1 - SS_res / SS_tot of the steps. With the optima of
   one block size R H/B alone (a campaign stopped after its first block), A_2 is held at the paper's.
5. R^2 of the fitted law (and of the paper's) on the post-validation's optima (sec. 3.3).

Writes benchmarks/results/rocking_campaign.json and docs/hht_time_step_law.png (estimated against
measured optimal steps, like seed 003 fig. 9a).

    .venv/bin/python benchmarks/rocking_campaign_fit.py [--campaign out/rocking_campaign]
        [--validation out/rocking_validation] [--json ...] [--figure ...]
"""
import argparse
import json
import math
import os
from datetime import datetime, timezone
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.optimize import least_squares  # noqa: E402

from extrados.batch.table import DONE, FAILED, read_rows  # noqa: E402
from extrados.engine.post.rocking_errors import error_measures, housner_eq3, significant_impacts  # noqa: E402
from extrados.engine.dynamics.time_step_law import G, PAPER_LAW, TimeStepLaw  # noqa: E402

#: Coefficients of restitution of the search (sec. 3.2).
RESTITUTIONS = tuple(round(0.80 + 0.01 * k, 2) for k in range(20))
#: Sec. 3.2: a measured optimum is kept only where its e_G is at most 7 %.
OPTIMUM_ERROR = 0.07
#: Eq. 3 terms computed per reference: more impacts than any 30 s run reaches at r <= 0.99.
REFERENCE_IMPACTS = 2000
THETA0 = 0.5
BLOCK = "block"
ROOT = Path(__file__).resolve().parent.parent


def reference(radius, r, recorded):
    """Eq. 3's theta_n / alpha and T_n / 2 (s) of a block of semi-diagonal ``radius`` (m) and N: the impacts
    until 0.05 theta_0, capped at the last impact within ``recorded`` s (step 1 of the module docstring)."""
    p = math.sqrt(0.75 * G / radius)
    amplitude, half_period = housner_eq3(THETA0, r, p, REFERENCE_IMPACTS)
    impact_times = np.cumsum(half_period) - 0.5 * half_period[0]   # t_1 = (T_0 / 2) / 2, t_{n+1} = t_n + T_n / 2
    within = int(np.searchsorted(impact_times, recorded, side="right"))
    return amplitude, half_period, min(significant_impacts(amplitude), within - 1)


def run_errors(row, amplitude, half_period, n):
    """Eq. 7-8 of one run (a table row) against a reference over n = 0 .. n (step 2 of the module docstring)."""
    ours_amplitude = np.zeros(n + 1)
    recorded = np.asarray(row[f"free_rocking_amplitudes[{BLOCK}]"][:n + 1])
    ours_amplitude[:len(recorded)] = recorded
    ours_half = np.asarray(half_period[:n + 1], dtype=float).copy()
    recorded_half = np.asarray(row[f"free_rocking_half_periods[{BLOCK}]"][:n + 1])
    ours_half[:len(recorded_half)] = recorded_half
    return error_measures(ours_amplitude, ours_half, amplitude, half_period, n)


def measured_optima(rows):
    """The measured optimal step of every (block, k_n, r) whose least e_G is at most OPTIMUM_ERROR, over the
    (block, k_n) whose runs at every time step of the table finished, done or failed with their own error
    (a failed run is no candidate; a campaign stopped part way leaves the unfinished (block, k_n) out,
    whose best step would be the best of those that happened to finish).

    Returns
    -------
    list of dict
        height, width (m), R (m), H_over_B, k_n (N/m^3), r, dt (s), e_theta, e_T, e_G, N, steps (runs compared).
    """
    steps = {row["analysis/time_step"] for row in rows}
    groups = {}
    for row in rows:
        if row["status"] in (DONE, FAILED):
            groups.setdefault((row["height"], row["width"], row["normal_stiffness"]), []).append(row)
    optima = []
    for (height, width, k_n), finished in sorted(groups.items()):
        if {run["analysis/time_step"] for run in finished} != steps:
            continue
        runs = [run for run in finished if run["status"] == DONE]
        radius = 0.5 * math.hypot(height, width)
        for r in RESTITUTIONS:
            best = None
            for run in runs:
                amplitude, half_period, n = reference(radius, r, run["free_rocking_recorded"])
                if n < 1 or not run[f"free_rocking_half_periods[{BLOCK}]"]:
                    continue
                errors = run_errors(run, amplitude, half_period, n)
                if best is None or errors["e_G"] < best[1]["e_G"]:
                    best = (run["analysis/time_step"], errors)
            if best is not None and best[1]["e_G"] <= OPTIMUM_ERROR:
                optima.append({"height": height, "width": width, "R": radius, "H_over_B": height / width,
                               "k_n": k_n, "r": r, "dt": best[0], **best[1], "steps": len(runs)})
    return optima


def finished_groups(rows):
    """'2H x 2B m: k_n / 1e8 ...' of each block with the stiffnesses whose time steps all finished (done or failed)."""
    steps = {row["analysis/time_step"] for row in rows}
    done = {}
    for row in rows:
        if row["status"] in (DONE, FAILED):
            done.setdefault((row["height"], row["width"], row["normal_stiffness"]), set()).add(row["analysis/time_step"])
    blocks = {}
    for (height, width, k_n), finished in sorted(done.items()):
        if finished == steps:
            blocks.setdefault((height, width), []).append(f"k{k_n / 1e8:g}")
    return [f"{height:g} x {width:g} m: {', '.join(ks)}" for (height, width), ks in blocks.items()]


def drift_percentiles(rows):
    """Median and 95th percentile (m) of the sliding between impacts (free_rocking_drift) of the runs that did
    not overturn: friction 0.8 keeps the blocks from sliding when these are small against the block."""
    drift = [row[f"free_rocking_drift[{BLOCK}]"] or 0.0 for row in rows
             if row["status"] == DONE and max(row[f"free_rocking_amplitudes[{BLOCK}]"], default=0.0) < 1.0]
    return {"median": float(np.median(drift)), "p95": float(np.percentile(drift, 95))}


def law_inputs(optima):
    """(R H/B, k_n, ln r, measured dt) arrays of the optima."""
    columns = [(o["R"] * o["H_over_B"], o["k_n"], math.log(o["r"]), o["dt"]) for o in optima]
    return tuple(np.array(column, dtype=float) for column in zip(*columns))


def law_steps(coefficients, size, stiffness, log_r):
    """Eq. 6: A_1 (R H/B)^A_2 k_n^A_3 ln r (s)."""
    a1, a2, a3 = coefficients
    return a1 * size ** a2 * stiffness ** a3 * log_r


def r_squared(measured, estimated):
    """The coefficient of determination 1 - SS_res / SS_tot of ``estimated`` against ``measured``."""
    return float(1.0 - np.sum((measured - estimated) ** 2) / np.sum((measured - measured.mean()) ** 2))


def fit_law(optima):
    """Eq. 6's (A_1, A_2, A_3) by least squares on the steps of the optima, their R^2 (step 4), and whether
    A_2 was held at the paper's: optima of one size R H/B alone cannot tell A_2 from A_1."""
    size, stiffness, log_r, measured = law_inputs(optima)
    held = len(np.unique(size)) < 2

    def coefficients(free):
        return (free[0], PAPER_LAW.a2, free[1]) if held else tuple(free)
    start = (PAPER_LAW.a1, PAPER_LAW.a3) if held else (PAPER_LAW.a1, PAPER_LAW.a2, PAPER_LAW.a3)
    fit = least_squares(lambda free: law_steps(coefficients(free), size, stiffness, log_r) - measured, start,
                        x_scale="jac")
    fitted = tuple(float(c) for c in coefficients(fit.x))
    return fitted, r_squared(measured, law_steps(fitted, size, stiffness, log_r)), held


def law_r_squared(law, optima):
    """R^2 of ``law`` (a TimeStepLaw) on the measured optima, None without at least two."""
    if len(optima) < 2:
        return None
    size, stiffness, log_r, measured = law_inputs(optima)
    return r_squared(measured, law_steps((law.a1, law.a2, law.a3), size, stiffness, log_r))


def throughput(rows):
    """Cases per minute of the latest run that computed cases: its rows over the time from its start
    (the run id) to its last finished case, compilation of the workers included."""
    latest = max(row["run"] for row in rows)
    finished = [row["finished_at"] for row in rows if row["run"] == latest]
    minutes = (datetime.fromisoformat(max(finished)) - datetime.fromisoformat(latest)).total_seconds() / 60.0
    return {"run": latest, "run_cases": len(finished), "minutes": minutes, "cases_per_minute": len(finished) / minutes}


def plot(path, law, optima, validation):
    """Estimated (``law``) against measured optimal steps (s), campaign and post-validation."""
    fig, ax = plt.subplots(figsize=(5.5, 5.2), dpi=120)
    for points, marker, label in ((optima, "o", "campaign (Table 1)"), (validation, "^", "post-validation")):
        if points:
            size, stiffness, log_r, measured = law_inputs(points)
            ax.plot(measured, law_steps((law.a1, law.a2, law.a3), size, stiffness, log_r), marker, ms=3.5,
                    mfc="none", ls="none", label=label)
    top = max([o["dt"] for o in optima + validation] + [0.04])
    ax.plot([0.0, top], [0.0, top], color="k", lw=0.8, label="estimated = measured")
    ax.set_xlabel("measured optimal $\\Delta t$ (s)")
    ax.set_ylabel("estimated optimal $\\Delta t$ (s), Extrados law")
    ax.set_title(f"$\\Delta t = {law.a1:.4g}\\,(R H/B)^{{{law.a2:.3f}}} k_n^{{{law.a3:.3f}}} \\ln r$, "
                 f"$R^2 = {law.r_squared:.3f}$", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaign", default="out/rocking_campaign", help="the campaign's batch folder")
    parser.add_argument("--validation", default="out/rocking_validation", help="the post-validation's batch folder")
    parser.add_argument("--json", default=str(ROOT / "benchmarks/results/rocking_campaign.json"))
    parser.add_argument("--figure", default=str(ROOT / "docs/hht_time_step_law.png"))
    args = parser.parse_args(argv)
    rows = read_rows(args.campaign)
    if not rows:
        raise SystemExit(f"no finished cases in {args.campaign}; run benchmarks/rocking_campaign.py first")
    optima = measured_optima(rows)
    if len(optima) < 4:
        raise SystemExit(f"{len(optima)} measured optima with e_G <= {OPTIMUM_ERROR}: too few to fit 3 coefficients")
    coefficients, fitted_r2, a2_held = fit_law(optima)
    law = TimeStepLaw(*coefficients, fitted_r2, "benchmarks/rocking_campaign.py")
    validation_rows = read_rows(args.validation)
    validation = measured_optima(validation_rows) if validation_rows else []
    done = sum(row["status"] == DONE for row in rows)
    report = {
        "date": datetime.now(timezone.utc).date().isoformat(),
        "law": {"A1": law.a1, "A2": law.a2, "A3": law.a3, "r_squared": law.r_squared, "A2_held_at_paper": a2_held},
        "paper": {"A1": PAPER_LAW.a1, "A2": PAPER_LAW.a2, "A3": PAPER_LAW.a3, "r_squared": PAPER_LAW.r_squared,
                  "r_squared_on_our_optima": law_r_squared(PAPER_LAW, optima)},
        "campaign": {"cases": len(rows), "done": done, "optima": len(optima),
                     "failed": [{"height": row["height"], "width": row["width"], "k_n": row["normal_stiffness"],
                                 "dt": row["analysis/time_step"], "error": row["error"]}
                                for row in rows if row["status"] == FAILED],
                     "searched": len({(r["height"], r["width"], r["normal_stiffness"]) for r in rows}) * len(RESTITUTIONS),
                     **throughput(rows), "cores": os.cpu_count()},
        "blocks_done": finished_groups(rows),
        "drift_m": drift_percentiles(rows),
        "overturned": [{"height": row["height"], "width": row["width"], "k_n": row["normal_stiffness"],
                        "dt": row["analysis/time_step"]} for row in rows
                       if row["status"] == DONE and max(row[f"free_rocking_amplitudes[{BLOCK}]"], default=0.0) >= 1.0],
        "validation": {"cases": len(validation_rows), "optima": len(validation),
                       "r_squared": law_r_squared(law, validation), "paper_r_squared": 0.980,
                       "paper_law_r_squared": law_r_squared(PAPER_LAW, validation)},
        "settings": {"theta0_over_alpha": THETA0, "restitutions": list(RESTITUTIONS), "optimum_error": OPTIMUM_ERROR},
        "optima": optima, "validation_optima": validation,
    }
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    plot(args.figure, law, optima, validation)
    failed = [row for row in rows if row["status"] == FAILED]
    if failed:
        print(f"{len(failed)} runs failed, e.g. {failed[0]['error']}")
    print(f"{done} of {len(rows)} cases done; {len(optima)} of {report['campaign']['searched']} (block, k_n, r) "
          f"have an optimal step with e_G <= {OPTIMUM_ERROR}")
    print(f"{'':10}{'A1':>11}{'A2':>8}{'A3':>8}{'R^2':>8}")
    print(f"{'paper':10}{PAPER_LAW.a1:11.4g}{PAPER_LAW.a2:8.3f}{PAPER_LAW.a3:8.3f}{PAPER_LAW.r_squared:8.3f}")
    print(f"{'Extrados':10}{law.a1:11.4g}{law.a2:8.3f}{law.a3:8.3f}{law.r_squared:8.3f}"
          + ("  (A2 held at the paper's: one block size)" if a2_held else ""))
    v = report["validation"]
    print(f"post-validation: {v['optima']} optima of {v['cases']} cases, R^2 = {v['r_squared']} (paper 0.980); "
          f"{report['campaign']['cases_per_minute']:.1f} cases per minute")
    drift = report["drift_m"]
    print(f"sliding of a block between impacts: median {drift['median']:.2g} m, 95th percentile {drift['p95']:.2g} m; "
          f"{len(report['overturned'])} runs overturned (theta reached alpha: the integrator gained energy)")
    print(f"wrote {args.json}, {args.figure}")
    return report


if __name__ == "__main__":
    main()
