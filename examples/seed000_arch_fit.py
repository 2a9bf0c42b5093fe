"""Which ring depth and load layout give seed 000's ~10 % (mu = 0.8) and ~6 % (mu = 0.4) for its stand-alone arch?

Seed 000 sec. 3.1 (figs. 6-7) reports the concentrated loads at collapse "of the order of 10 %" of the arch's
weight at mu = 0.8 and "of the order of 6 %" at mu = 0.4, without the ring's depth or where the loads act.
examples/seed000_arch_point_loads.py takes the ring of the spandrel wall (0.6 m deep, 15 voussoirs, opening
radius 3.8 m) with one load at the crown and finds 17.0 % and 5.8 %. This script sweeps the ring depth t
(the opening radius, 15 voussoirs, the wall's 0.8 m thickness and 1800 kg/m^3 kept) and the load layout
(one load at the crown, or two equal loads symmetric about it), computes the collapse load P / W_arch of
each by limit analysis (the LP of engine.analysis.limit; the NSCD bisection gives the same on these arches,
docs/validation.md), finds for each layout the depth at which mu = 0.8 gives the paper's 10 % and reads
mu = 0.4 there; then confirms the fitted arches with the NSCD load factor analysis.

Writes OUT/seed000_arch_fit.json and prints the table.

    .venv/bin/python examples/seed000_arch_fit.py [--depths 0.4 0.45 ...] [--quick] [--out out]
"""
import argparse
import json
from pathlib import Path

from extrados import Model, analyze, generators
from extrados.engine.analysis.limit import limit_load_factor
from extrados.engine.generators.arch import arch_point_load, arch_weight

SPANDREL = generators.GENERATORS["spandrel_wall"]
OPENING_RADIUS = SPANDREL.parameter("opening_radius").default  # m, intrados radius (seed 000 sec. 4)
VOUSSOIRS = SPANDREL.parameter("voussoirs").default
WALL_THICKNESS = SPANDREL.parameter("thickness").default       # m, the arch's depth out of plane
DENSITY = SPANDREL.parameter("density").default                # kg/m^3
PAPER = {0.8: 0.10, 0.4: 0.06}
#: Load layouts: angles (deg from the crown) of equal vertical loads on the extrados.
LAYOUTS = {"crown": (0.0,), "pair ±10°": (-10.0, 10.0), "pair ±15°": (-15.0, 15.0), "pair ±22.5°": (-22.5, 22.5),
           "pair ±30°": (-30.0, 30.0)}
DEPTHS = (0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70)
MAX_FACTOR = 10.0
#: A bisected depth whose factor misses the paper's by more than this fraction marks a jump: the ring goes from
#: failing under its own weight to standing well above the target (loads far from the crown steady it).
JUMP = 0.05
#: Relative bracket of the NSCD load factor that confirms a fitted arch.
NSCD_TOLERANCE = 0.01


def arch_document(depth, friction, angles):
    """The ring of depth ``depth`` (m) on its imposts, live loads at ``angles`` totalling its weight."""
    radius = OPENING_RADIUS + depth / 2.0
    document = generators.generate("arch", radius=radius, thickness=depth, depth=WALL_THICKNESS, voussoirs=VOUSSOIRS,
                                   friction=friction, density=DENSITY)
    weight = arch_weight(radius, depth, WALL_THICKNESS, VOUSSOIRS, DENSITY)
    document["loads"] = [arch_point_load(radius, depth, VOUSSOIRS, angle, weight / len(angles), True)
                         for angle in angles]
    return document


def lp_factor(depth, friction, angles):
    """P / W_arch at collapse by limit analysis; 0 for a ring that does not stand under its own weight (t/R below
    about 0.107 for a semicircle)."""
    limit = limit_load_factor(Model.from_dict(arch_document(depth, friction, angles)), MAX_FACTOR)
    return 0.0 if limit.status == "fails_under_dead_loads" else limit.load_factor


def depth_for(target, angles, depths, factors, resolution=1e-4):
    """The depth (m) at which mu = 0.8 gives ``target``: bisection by the LP inside the first bracket of the
    swept ``factors`` (a ring too thin to stand under its own weight counts 0); None without a bracket."""
    for (low, f0), (high, f1) in zip(zip(depths, factors), zip(depths[1:], factors[1:])):
        if f0 < target <= f1:
            while high - low > resolution:
                middle = 0.5 * (low + high)
                low, high = (middle, high) if lp_factor(middle, 0.8, angles) < target else (low, middle)
            return high
    return None


def nscd_factor(depth, friction, angles):
    """P / W_arch at collapse by the NSCD load factor analysis."""
    result = analyze(arch_document(depth, friction, angles), {"type": "load_factor", "tolerance": NSCD_TOLERANCE})
    return result.to_dict()["load_factor_report"]["nscd"]


def percent(factor):
    """A factor as a percentage; "stands" at the LP's bound, "fails" under the dead loads."""
    if factor is None or factor == 0.0:
        return "fails"
    return "stands" if factor >= 0.999 * MAX_FACTOR else f"{100 * factor:.1f}%"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=float, nargs="+", default=list(DEPTHS), help="ring depths, m")
    parser.add_argument("--quick", action="store_true", help="two layouts, no NSCD confirmation")
    parser.add_argument("--out", default="out", help="output folder")
    args = parser.parse_args()
    layouts = dict(list(LAYOUTS.items())[:2]) if args.quick else LAYOUTS
    rows, fits = [], []
    print(f"{'layout':<12} {'t (m)':>6} {'mu 0.8':>8} {'mu 0.4':>8}")
    for name, angles in layouts.items():
        high = [lp_factor(depth, 0.8, angles) for depth in args.depths]
        low = [lp_factor(depth, 0.4, angles) for depth in args.depths]
        for depth, f_high, f_low in zip(args.depths, high, low):
            rows.append({"layout": name, "depth": depth, "mu_0.8": f_high, "mu_0.4": f_low})
            print(f"{name:<12} {depth:6.3f} {percent(f_high):>8} {percent(f_low):>8}", flush=True)
        depth = depth_for(PAPER[0.8], angles, args.depths, high)
        reached = depth is not None and abs(lp_factor(depth, 0.8, angles) - PAPER[0.8]) < JUMP * PAPER[0.8]
        fit = {"layout": name, "depth_for_10_percent": depth if reached else None,
               "jumps_at_depth": None if reached else depth}
        if reached:
            fit["lp"] = {"mu_0.8": lp_factor(depth, 0.8, angles), "mu_0.4": lp_factor(depth, 0.4, angles)}
            if not args.quick:
                fit["nscd"] = {"mu_0.8": nscd_factor(depth, 0.8, angles), "mu_0.4": nscd_factor(depth, 0.4, angles)}
        fits.append(fit)
        print(f"  10 % at mu = 0.8 needs t = {'—' if not reached else f'{depth:.3f} m'}; there "
              + (", ".join(f"{kind} mu 0.8 {percent(fit[kind]['mu_0.8'])}, mu 0.4 {percent(fit[kind]['mu_0.4'])}"
                           for kind in ("lp", "nscd") if kind in fit) or "nothing to confirm"), flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    document = {"opening_radius": OPENING_RADIUS, "voussoirs": VOUSSOIRS,
                "paper": {str(k): v for k, v in PAPER.items()},
                "rows": rows, "fits": fits}
    (out / "seed000_arch_fit.json").write_text(json.dumps(document, indent=1))
    print(f"wrote {out / 'seed000_arch_fit.json'}")


if __name__ == "__main__":
    main()
