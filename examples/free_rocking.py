"""Free rocking of a slender block against Housner's classical theory (DESIGN sec. 7; seed 003 sec. 2.1).

A 0.25 x 1.0 m block (depth 0.25 m) is released at theta_0 = 0.5 alpha and rocks on a rigid
ground with plastic impacts. Its rocking angle theta(t) and angular velocity are compared with
Housner's exact solution (seed 003 eq. 1 integrated event by event, the angular velocity scaled
by sqrt(r) at every impact, r of eq. 2) and with the closed form of eq. 3; the error measures
e_theta, e_T, e_G of eq. 7-8 are computed for several time steps. Writes out/free_rocking/:
free_rocking.json, theta.png (theta/alpha against t) and phase.png (phase portrait).

    .venv/bin/python examples/free_rocking.py [--time-step 2.5e-4] [--duration 4]
                                              [--steps 2e-3 1e-3 5e-4 2.5e-4] [--out out]
"""
import argparse
import json
import math
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from extrados import Model, analyze, generators  # noqa: E402
from extrados.engine.dynamics.rocking import RockingBody, rocking_response  # noqa: E402
from extrados.engine.post.rocking_errors import (  # noqa: E402
    error_measures,
    half_periods,
    housner_eq3,
    rocking_cycles,
    significant_impacts,
)

G = 9.81
WIDTH, HEIGHT, DEPTH = 0.25, 1.0, 0.25      # m: 2b, 2h and the block's depth
#: High enough that the block rocks without sliding (Housner's hypothesis of no sliding).
FRICTION = 0.8
THETA0 = 0.5                                # theta_0 / alpha
#: DESIGN sec. 7: amplitudes within 2 %, impact times within 1 %, over the first 3 impacts.
DESIGN_IMPACTS, DESIGN_AMPLITUDE_TOL, DESIGN_TIME_TOL = 3, 0.02, 0.01
#: Samples per second of the reference solution in the plots.
PLOT_SAMPLES_PER_S = 2000


# --- Housner's classical theory ------------------------------------------------------------------------
def rocking_parameters(width, height):
    """Slenderness alpha (rad), semi-diagonal R (m), frequency parameter p (1/s), restitution r.

    p = sqrt(m g R / I_0) with I_0 = 4/3 m R^2 for a rectangular block, so p = sqrt(3 g / (4 R));
    eq. 2: r = [1 - m R^2 / I_0 (1 - cos 2 alpha)]^2 = (1 - 1.5 sin^2 alpha)^2.
    """
    body = RockingBody.rectangle(width, height, G)
    return body.alpha, body.radius, body.p, body.restitution ** 2


def housner_exact(theta0, duration):
    """Seed 003 eq. 1 integrated between impacts, theta_dot scaled by sqrt(r) at each impact
    (engine.dynamics.rocking), from theta_0 alpha at rest.

    Returns
    -------
    dict
        t, theta (rad), theta_dot (rad/s) sampled for plotting; impacts (s) and amplitudes
        theta_0, theta_1, ... (rad, one per half cycle that ends in an impact within the duration).
    """
    body = RockingBody.rectangle(WIDTH, HEIGHT, G)
    exact = rocking_response(body, lambda t: 0.0, duration, theta0=theta0 * body.alpha, g=G,
                             samples=PLOT_SAMPLES_PER_S)
    return {**exact, "amplitudes": exact["amplitudes"][:len(exact["impacts"])]}


# --- our engine ---------------------------------------------------------------------------------------------
def tilted_rocking_block(tilt_rad):
    """The rocking block document, leaning toward +x on its edge x = +width/2, z = 0 by tilt_rad."""
    doc = generators.generate("rocking_block", width=WIDTH, height=HEIGHT, depth=DEPTH, friction=FRICTION)
    block = next(b for b in doc["blocks"] if b["id"] == "block")
    c, s = math.cos(tilt_rad), math.sin(tilt_rad)
    about_y = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])    # turns +z toward +x
    pivot = np.array([WIDTH / 2.0, 0.0, 0.0])
    block["vertices"] = ((np.asarray(block["vertices"]) - pivot) @ about_y.T + pivot).tolist()
    return doc


def simulate(alpha, h, duration):
    """Our rocking angle theta(t) (rad, + leaning toward +x), theta_dot (rad/s) at every step, and run seconds.

    The frames' orientations are rotations from the tilted start, about y for a block rocking in
    the x-z plane: theta = theta_0 + 2 atan2(q_y, q_w); theta_dot is the world angular velocity about y.
    """
    doc = tilted_rocking_block(THETA0 * alpha)

    shown = set()

    def progress(fraction):
        decile = int(10 * fraction)
        if decile not in shown:
            shown.add(decile)
            print(f"\r  h = {h:g} s: {10 * decile:3d} %", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": duration, "time_step": h,
                                            "output_interval": h}, progress=progress)
    seconds = time.perf_counter() - start
    print(file=sys.stderr)
    out = result.to_dict()
    index = [b["id"] for b in out["blocks"]].index("block")
    t = np.array([f["t"] for f in out["frames"]])
    q = np.array([f["orientations"][index] for f in out["frames"]])
    theta = THETA0 * alpha + 2.0 * np.arctan2(q[:, 2], q[:, 0])
    theta_dot = np.array([v[4] for v in out["histories"]["blocks"]["block"]["velocity"]])
    return t, theta, theta_dot, seconds


def study(alpha, p, r, exact, h, duration):
    """One run of ours at time step h compared with eq. 1 (exact) and eq. 3.

    Returns a JSON-ready dict of figures and the trace (t, theta, theta_dot) for the plots.
    """
    t, theta, theta_dot, seconds = simulate(alpha, h, duration)
    impacts, amplitudes = rocking_cycles(t, theta)
    ours_amp, ours_half = amplitudes / alpha, half_periods(impacts)
    exact_amp, exact_half = exact["amplitudes"] / alpha, half_periods(exact["impacts"])
    eq3_amp, eq3_half = housner_eq3(THETA0, r, p, len(impacts))
    n = min(significant_impacts(exact_amp), len(impacts) - 1, len(exact_amp) - 1)
    k = min(DESIGN_IMPACTS, len(impacts), len(exact["impacts"]))
    amplitude_error = np.abs(ours_amp[1:k + 1] / exact_amp[1:k + 1] - 1.0).max()
    time_error = np.abs(impacts[:k] / exact["impacts"][:k] - 1.0).max()
    return {
        "time_step": h, "run_s": seconds, "steps": int(round(duration / h)),
        "impacts": impacts.tolist(), "amplitudes_over_alpha": ours_amp.tolist(),
        "half_periods": ours_half.tolist(),
        "errors_vs_eq3": error_measures(ours_amp, ours_half, eq3_amp, eq3_half, n),
        "errors_vs_exact": error_measures(ours_amp, ours_half, exact_amp, exact_half, n),
        "first_impacts_vs_exact": {"impacts": k, "amplitude_max_rel_error": amplitude_error,
                                   "impact_time_max_rel_error": time_error,
                                   "within_design_tolerance": bool(amplitude_error <= DESIGN_AMPLITUDE_TOL and
                                                                   time_error <= DESIGN_TIME_TOL)},
    }, (t, theta, theta_dot)


# --- output ---------------------------------------------------------------------------------------------------
def plot_theta(path, alpha, p, r, exact, ours, trace):
    t, theta, _ = trace
    fig, ax = plt.subplots(figsize=(10, 4.5), dpi=120)
    ax.plot(exact["t"], exact["theta"] / alpha, color="k", lw=1.2, label="Housner, eq. 1 (exact)")
    ax.plot(t, theta / alpha, color="tab:red", lw=1.0, ls="--", label=f"Extrados, h = {ours['time_step']:g} s")
    eq3_amp, _ = housner_eq3(THETA0, r, p, len(exact["amplitudes"]))
    peaks = np.concatenate([[0.0], 0.5 * (exact["impacts"][:-1] + exact["impacts"][1:])])
    signs = (-1.0) ** np.arange(len(peaks))
    ax.plot(peaks, signs * eq3_amp, "o", mfc="none", color="tab:blue", label="Housner, eq. 3 amplitudes")
    ax.axhline(0.0, color="0.6", lw=0.5)
    ax.set_xlabel("t (s)")
    ax.set_ylabel(r"$\theta / \alpha$")
    ax.set_title(f"Free rocking, {WIDTH} x {HEIGHT} m block, " + r"$\theta_0 = 0.5\alpha$, plastic impacts")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_phase(path, alpha, p, exact, ours, trace):
    _, theta, theta_dot = trace
    fig, ax = plt.subplots(figsize=(6.5, 6), dpi=120)
    ax.plot(exact["theta"] / alpha, exact["theta_dot"] / (p * alpha), color="k", lw=1.2,
            label="Housner, eq. 1 (exact)")
    ax.plot(theta / alpha, theta_dot / (p * alpha), color="tab:red", lw=0.9, ls="--",
            label=f"Extrados, h = {ours['time_step']:g} s")
    ax.set_xlabel(r"$\theta / \alpha$")
    ax.set_ylabel(r"$\dot\theta / (p\,\alpha)$")
    ax.set_title("Phase portrait")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def print_table(exact, runs, alpha):
    k = 4
    print(f"{'':>14}" + "".join(f"{'t' + str(i + 1) + ' s':>9}" for i in range(k)) +
          "".join(f"{'th' + str(i + 1) + '/a':>9}" for i in range(k)) +
          f"{'N':>4}{'e_th':>8}{'e_T':>8}{'e_G':>8}{'e_G(eq3)':>9}{'run s':>7}")
    print(f"{'Housner eq. 1':>14}" + "".join(f"{x:9.5f}" for x in exact["impacts"][:k]) +
          "".join(f"{x / alpha:9.5f}" for x in exact["amplitudes"][1:k + 1]))
    for run in runs:
        e, e3 = run["errors_vs_exact"], run["errors_vs_eq3"]
        print(f"{'h = ' + format(run['time_step'], 'g'):>14}" + "".join(f"{x:9.5f}" for x in run["impacts"][:k]) +
              "".join(f"{x:9.5f}" for x in run["amplitudes_over_alpha"][1:k + 1]) +
              f"{e['N']:4d}{e['e_theta']:8.4f}{e['e_T']:8.4f}{e['e_G']:8.4f}{e3['e_G']:9.4f}{run['run_s']:7.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-step", type=float, default=2.5e-4, help="time step of the plotted run, s")
    parser.add_argument("--duration", type=float, default=4.0, help="s")
    parser.add_argument("--steps", type=float, nargs="+", default=[2e-3, 1e-3, 5e-4, 2.5e-4],
                        help="time steps of the error study (eq. 7-8), s")
    parser.add_argument("--out", default="out", help="output folder; files go to OUT/free_rocking/")
    args = parser.parse_args()
    out = Path(args.out) / "free_rocking"
    out.mkdir(parents=True, exist_ok=True)

    alpha, radius, p, r = rocking_parameters(WIDTH, HEIGHT)
    print(f"alpha = {alpha:.6f} rad, R = {radius:.5f} m, p = {p:.6f} 1/s, r = {r:.6f}, theta_0 = {THETA0} alpha")
    exact = housner_exact(THETA0, args.duration)
    steps = sorted(set(args.steps) | {args.time_step}, reverse=True)
    studies = [study(alpha, p, r, exact, h, args.duration) for h in steps]
    runs = [run for run, _ in studies]
    shown, trace = next(item for item in studies if item[0]["time_step"] == args.time_step)

    eq3_amp, eq3_half = housner_eq3(THETA0, r, p, len(exact["impacts"]))
    report = {
        "block": {"width": WIDTH, "height": HEIGHT, "depth": DEPTH, "friction": FRICTION},
        "alpha": alpha, "R": radius, "p": p, "r": r, "theta0_over_alpha": THETA0, "duration": args.duration,
        "housner_exact": {"impacts": exact["impacts"].tolist(),
                          "amplitudes_over_alpha": (exact["amplitudes"] / alpha).tolist(),
                          "half_periods": half_periods(exact["impacts"]).tolist()},
        "housner_eq3": {"amplitudes_over_alpha": eq3_amp.tolist(), "half_periods": eq3_half.tolist()},
        "runs": runs,
    }
    (out / "free_rocking.json").write_text(json.dumps(report, indent=1))
    plot_theta(out / "theta.png", alpha, p, r, exact, shown, trace)
    plot_phase(out / "phase.png", alpha, p, exact, shown, trace)

    print_table(exact, runs, alpha)
    print("e_* of seed 003 eq. 7-8 against eq. 1 (exact); e_G(eq3) against the closed form eq. 3")
    for run in runs:
        check = run["first_impacts_vs_exact"]
        print(f"h = {run['time_step']:g} s: first {check['impacts']} impacts, amplitudes within "
              f"{100 * check['amplitude_max_rel_error']:.2f} %, impact times within "
              f"{100 * check['impact_time_max_rel_error']:.2f} % of eq. 1 "
              f"(DESIGN sec. 7: 2 %, 1 %): {'pass' if check['within_design_tolerance'] else 'FAIL'}")
    print(f"wrote {out / 'free_rocking.json'}, {out / 'theta.png'}, {out / 'phase.png'}")


if __name__ == "__main__":
    main()
