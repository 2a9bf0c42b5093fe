"""Minimum thickness of a semicircular arch under self-weight, by static NSCD analyses.

Bisects t/R between a thickness that collapses and one that stands, for n = 10, 20, 40
voussoirs, and compares with t/R = 0.10746 (Milankovitch; Cocchetti & Rizzi 2020). Then
finds the friction below which the arch at 1.02 t_min slides (reference: 0.396) and the
friction below which no thickness stands (0.309). Writes out/arch_minimum_thickness.json
and a picture of the arch at 1.02 t_min with its joint resultants.

    .venv/bin/python examples/arch_minimum_thickness.py [--iterations 12]
"""
import argparse
import json
from pathlib import Path

from extrados import Model, analyze, generators
from extrados.engine.post.plot import plot_result

T_MIN_REFERENCE = 0.10746
MU_SPRINGING_REFERENCE = 0.396
MU_ANY_THICKNESS_REFERENCE = 0.309


def arch(thickness, friction=0.8, voussoirs=20):
    return Model.from_dict(generators.generate("arch", radius=1.0, thickness=thickness, friction=friction,
                                               voussoirs=voussoirs))


def stands(model):
    return analyze(model, "static").stable


def threshold(stands_at, low, high, iterations):
    """Bisection for the smallest value that stands, given stands_at(high) and not stands_at(low)."""
    for _ in range(iterations):
        middle = 0.5 * (low + high)
        if stands_at(middle):
            high = middle
        else:
            low = middle
    return 0.5 * (low + high)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=12, help="bisection steps")
    parser.add_argument("--out", default="out", help="output folder")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    report = {"t_min_reference": T_MIN_REFERENCE, "t_min": {}}
    for n in (10, 20, 40):
        t_min = threshold(lambda t: stands(arch(t, voussoirs=n)), 0.09, 0.13, args.iterations)
        report["t_min"][n] = t_min
        print(f"n = {n:2d}: t_min/R = {t_min:.5f}  (reference {T_MIN_REFERENCE}, "
              f"{100 * (t_min / T_MIN_REFERENCE - 1):+.2f} %)")
    t = 1.02 * T_MIN_REFERENCE
    mu = threshold(lambda m: stands(arch(t, friction=m)), 0.2, 0.6, args.iterations)
    report["mu_springing_at_1.02_t_min"] = mu
    print(f"friction needed at 1.02 t_min: {mu:.4f}  (reference {MU_SPRINGING_REFERENCE} at t_min)")
    mu_thick = threshold(lambda m: stands(arch(0.3, friction=m)), 0.2, 0.6, args.iterations)
    report["mu_at_t_0.3"] = mu_thick
    print(f"friction needed at t/R = 0.3: {mu_thick:.4f}  (reference {MU_ANY_THICKNESS_REFERENCE}, any thickness)")

    model = arch(t)
    result = analyze(model, "static")
    plot_result(model, result, out / "arch_minimum_thickness.png")
    report["result_at_1.02_t_min"] = result.to_dict()
    (out / "arch_minimum_thickness.json").write_text(json.dumps(report, indent=1))
    print(f"wrote {out / 'arch_minimum_thickness.json'} and {out / 'arch_minimum_thickness.png'}")


if __name__ == "__main__":
    main()
