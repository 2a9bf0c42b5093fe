"""What HHT-alpha's numerical dissipation takes from a rocking impact in our model: the mean energy ratio per
impact of seed 003's fig. 2 block (2H = 4.2 m, 2B = 0.6 m, k_n = 5e8 N/m^3, theta_0 = 0.5 alpha) over a grid
of time steps and alphas (beta = (1 - alpha)^2 / 4, gamma = 1/2 - alpha; alpha = 0 is the trapezoidal rule,
which dissipates nothing on a linear system), beside Housner's r of eq. 2 that the paper's step of 13 ms
reproduced (seed 003 fig. 2, 4). Then eq. 5's alpha at 13 ms on stiffer layers: the distance of the
half periods from eq. 3's curve falls as 1 / sqrt(k_n) (the layer's compliance moves the pivot inside the
base), the energy ratio does not approach r.

    .venv/bin/python benchmarks/hht_impact_dissipation.py [--steps 0.007 0.013 0.026] [--alphas 0 -0.2 -0.41421]
        [--stiffnesses 5e8 2.5e9 1e10] [--duration 7] [--out benchmarks/results/hht_impact_dissipation.txt]
"""
import argparse
from pathlib import Path

from extrados.engine.dynamics.rocking import RockingBody

EQ5_ALPHA = 1.0 - 2.0 ** 0.5
PAPER_STEP = 0.013  # s, seed 003 fig. 2
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "hht_rocking.py"


def load_example():
    import importlib.util

    spec = importlib.util.spec_from_file_location("hht_rocking", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def impact_ratios(example, body, alpha, h, duration, stiffness):
    """The fig. 2 block's free rocking at step h with HHT's alpha on a layer of ``stiffness`` (N/m^3): its
    eq. 3 figures (example's)."""
    example.NORMAL_STIFFNESS = stiffness  # the example's block, rest height and layer energy read it
    request = example.hht_request(duration, h, None, h)
    request["hht"] = {"alpha": alpha, "beta": (1.0 - alpha) ** 2 / 4.0, "gamma": 0.5 - alpha}
    document = example.block_document(example.CONCEPT, example.CONCEPT_TILT)
    run = example.hht_run(document, request, example.CONCEPT, example.CONCEPT_TILT * body.alpha)
    return example.free_rocking_figures(run, body, example.CONCEPT_RESTITUTION, example.CONCEPT_TILT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=float, nargs="+", default=[0.007, 0.013, 0.026])
    parser.add_argument("--alphas", type=float, nargs="+", default=[0.0, -0.2, -0.41421])
    parser.add_argument("--stiffnesses", type=float, nargs="+", default=[5e8, 2.5e9, 1e10])
    parser.add_argument("--duration", type=float, default=7.0)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "hht_impact_dissipation.txt"))
    args = parser.parse_args()
    example = load_example()
    body = RockingBody.rectangle(example.CONCEPT["width"], example.CONCEPT["height"], example.G)
    lines = [f"seed 003 fig. 2 block, theta_0 = {example.CONCEPT_TILT} alpha, "
             f"{args.duration:g} s; Housner's r (eq. 2) = {body.restitution ** 2:.4f}",
             "mean energy ratio per impact (first impacts; example hht_rocking's free_rocking_figures), and the "
             "largest distance of (theta_n, T_n/2) from eq. 3's curve:",
             f"{'k_n (N/m^3)':>11} {'alpha':>9} {'dt (ms)':>8} {'ratio':>7} {'eq. 3':>6}"]
    print("\n".join(lines), flush=True)
    grid = [(example.NORMAL_STIFFNESS, alpha, h) for alpha in args.alphas for h in args.steps]
    grid += [(k, EQ5_ALPHA, PAPER_STEP) for k in args.stiffnesses if k != example.NORMAL_STIFFNESS]
    for stiffness, alpha, h in grid:
        figures = impact_ratios(example, body, alpha, h, args.duration, stiffness)
        lines.append(f"{stiffness:11.3g} {alpha:9.5f} {h * 1e3:8g} {figures['mean_energy_ratio']:7.4f} "
                     f"{figures['half_period_curve_max_error']:6.3f}")
        print(lines[-1], flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
