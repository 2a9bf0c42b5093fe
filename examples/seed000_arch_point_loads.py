"""Stand-alone arch under self-weight and concentrated loads, mu = 0.8 and 0.4 (seed 000 sec. 3.1, figs. 6-7).

The arch is the ring of the spandrel wall of seed 000 (sec. 4: opening radius 3.8 m,
0.8 m thick, 1800 kg/m^3; ring depth 0.6 m and 15 voussoirs as in the `spandrel_wall`
generator) standing alone on its imposts. The seed does not give where its concentrated
loads act; by default one load acts on the key stone at the crown (``--load-angles``
spreads the same total over several points of the extrados, angles from the crown).

For each friction coefficient the collapse load P / W_arch is found by the load factor
analysis (NSCD bisection, seed 000 end of sec. 2.4, bracketed by the limit-analysis LP),
with the mechanism read off the first failing static solve: the hinges and the joints that
slide. Beside it, the conventional thrust line of graphical statics (Heyman) for the same
voussoirs and loads: the load at which no funicular fits the section any more (geometric
safety factor 1, "the threshold beyond which no thrust line can remain within the section",
sec. 3.1), and the a-posteriori friction check of sec. 3.1: the largest |F_t| / F_n over the
joints of the least-thrust line at the NSCD collapse load (above mu: the line would slide).

Figures (OUT/seed000_arch_mu<mu>.png, seed figs. 6-7): (a) layout with the loads, the
conventional line (the limit line when the geometric limit governs, else the least-thrust
line at the collapse load) and the effective thrust line (centres of pressure of the joint
resultants, seed 000 sec. 3.1, fig. 8c) at the last standing factor; (b) the collapse
mechanism: the voussoirs moved along the failing solve's velocities, hinges and sliding
joints marked. OUT/seed000_arch_point_loads.json holds the table and both result documents.

    .venv/bin/python examples/seed000_arch_point_loads.py [--load-angles 0] [--quick] [--out out]
"""
import argparse
import json
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from extrados import analyze, generators  # noqa: E402
from extrados.engine.errors import ModelError  # noqa: E402
from extrados.engine.generators.arch import arch_point_load, arch_weight  # noqa: E402
from extrados.engine.post.funicular import (  # noqa: E402
    combined, left_totals, limit_live_factor, self_weight, semicircular_section, thrust_bounds, vertical_loads,
)
from extrados.engine.post.thrust import effective_thrust_line_of_result  # noqa: E402
from seed000_figures import (  # noqa: E402
    block_outlines, draw_blocks, draw_conventional, draw_effective, draw_loads, draw_mechanism, finish,
)

SPANDREL = generators.GENERATORS["spandrel_wall"]
OPENING_RADIUS = SPANDREL.parameter("opening_radius").default   # m, intrados radius (seed 000 sec. 4)
RING_THICKNESS = SPANDREL.parameter("ring_thickness").default   # m
VOUSSOIRS = SPANDREL.parameter("voussoirs").default
DEPTH = SPANDREL.parameter("thickness").default                 # m, the wall's thickness
DENSITY = SPANDREL.parameter("density").default                 # kg/m^3
RADIUS = OPENING_RADIUS + RING_THICKNESS / 2.0                  # m, centreline radius of the ring
FRICTIONS = (0.8, 0.4)
#: Collapse load over the arch weight that seed 000 sec. 3.1 reports ("of the order of").
PAPER = {0.8: 0.10, 0.4: 0.06}
#: Relative bracket width of the load factor bisection, normal and --quick.
TOLERANCE, QUICK_TOLERANCE = 0.005, 0.02
#: Bisection on the conventional geometric limit stops at this relative width.
CONVENTIONAL_TOLERANCE = 1e-4


# --- model and loads -----------------------------------------------------------------------

def arch_weight_n():
    """Weight of the ring's voussoirs, N."""
    return arch_weight(RADIUS, RING_THICKNESS, DEPTH, VOUSSOIRS, DENSITY)


def point_loads(angles_deg, total, live=True):
    """Vertical loads on the extrados at the given angles from the crown, sharing ``total`` N equally."""
    return [arch_point_load(RADIUS, RING_THICKNESS, VOUSSOIRS, angle, total / len(angles_deg), live)
            for angle in angles_deg]


def arch_document(friction, angles_deg):
    """The stand-alone ring on a ground slab with live loads totalling W_arch: the load factor is P / W_arch."""
    document = generators.generate("arch", radius=RADIUS, thickness=RING_THICKNESS, depth=DEPTH,
                                   voussoirs=VOUSSOIRS, friction=friction, density=DENSITY)
    document["loads"] = point_loads(angles_deg, arch_weight_n())
    return document


# --- conventional thrust line ---------------------------------------------------------------

def as_vertical_loads(section, loads):
    """VerticalLoads of point-load entries of a model document (their x and downward force)."""
    return vertical_loads(section, [int(load["block"][1:]) for load in loads], [load["point"][0] for load in loads],
                          [-load["force"][2] for load in loads])


def scaled(loads, factor):
    """VerticalLoads with every force times factor."""
    return type(loads)(loads.voussoir, loads.x, factor * loads.force)


def friction_demand(section, loads, line):
    """|F_t| / F_n at every joint of a funicular: the friction its joints would need (seed 000 sec. 3.1).

    The part left of joint j pushes the rest with F_j = (H, V_A - W_j) (funicular eq. 1);
    the joint's unit normal is n_j = (d_z, -d_x) / |d_j| and its tangent d_j / |d_j|,
    d_j = E_j - I_j.

    Returns
    -------
    (n_joints,) float64
    """
    total, _ = left_totals(section, loads)
    force = np.column_stack([np.full(len(total), line.thrust), line.left_reaction - total])   # (n_joints, 2)
    d = section.extrados - section.intrados
    d /= np.linalg.norm(d, axis=1)[:, None]
    normal = np.column_stack([d[:, 1], -d[:, 0]])
    return np.abs((force * d).sum(axis=1)) / (force * normal).sum(axis=1)


def conventional_analysis(dead, live, factor, upper, friction):
    """Conventional limit factors (without and with the sliding check at ``friction``), and at ``factor``: the
    bounds and the least-thrust line's friction demand.

    Parameters
    ----------
    dead, live : VerticalLoads
        On `semicircular_section` of the ring; live at factor 1.
    factor : float
        The live factor to draw the lines at (the NSCD collapse factor).
    upper : float
        A factor above the conventional limit, to start its bisection.

    Returns
    -------
    dict with limit_factor (no sliding), limit_factor_with_friction, bounds (ThrustBounds at the limit),
    bounds_at_factor (or None when no line fits there), friction_demand (largest |F_t| / F_n of the
    least-thrust line at factor, None if none)
    """
    section = ring_section()
    limit = limit_live_factor(section, dead, live, start=upper, relative=CONVENTIONAL_TOLERANCE)
    with_friction = limit_live_factor(section, dead, live, friction, start=upper, relative=CONVENTIONAL_TOLERANCE)
    at_limit = thrust_bounds(section, combined(dead, scaled(live, limit)))
    try:
        at_factor = thrust_bounds(section, combined(dead, scaled(live, factor)))
    except ModelError:
        at_factor = None
    demand = None
    if at_factor is not None and at_factor.minimum is not None:
        demand = float(friction_demand(section, combined(dead, scaled(live, factor)), at_factor.minimum).max())
    return {"limit_factor": limit, "limit_factor_with_friction": with_friction, "bounds": at_limit, "bounds_at_factor": at_factor, "friction_demand": demand}


def ring_section():
    """The ring's joints for graphical statics."""
    return semicircular_section(RADIUS, RING_THICKNESS, VOUSSOIRS)


# --- NSCD --------------------------------------------------------------------------------------

def load_factor_run(document, tolerance, max_factor=10.0):
    """Load factor analysis of a model document: (result document, seconds)."""
    start = time.perf_counter()
    result = analyze(document, {"type": "load_factor", "tolerance": tolerance, "max_factor": max_factor}).to_dict()
    return result, time.perf_counter() - start


def mechanism_summary(report):
    """Hinged and sliding joints of a load factor report's mechanism, as "a|b" strings."""
    mechanism = report["mechanism"] or {"hinges": [], "sliding": []}
    return (["|".join(hinge["blocks"]) for hinge in mechanism["hinges"]],
            ["|".join(pair) for pair in mechanism["sliding"]])


def springer_sliding(report, supports=("ground",)):
    """Whether the mechanism slides at a joint between a voussoir and a support."""
    _, sliding = mechanism_summary(report)
    return any(any(support in pair.split("|") for support in supports) for pair in sliding)


# --- figure ----------------------------------------------------------------------------------

def plot_case(row, document, result, conventional, path):
    """Figure of one friction coefficient: (a) layout and thrust lines, (b) mechanism (seed figs. 6-7)."""
    size = 2.0 * RADIUS
    weight = arch_weight_n()
    report = result["load_factor_report"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), dpi=90)
    outlines = block_outlines(document)
    draw_blocks(axes[0], outlines)
    factor = row["nscd"]
    draw_loads(axes[0], point_loads(row["load_angles_deg"], factor * weight), weight, 0.1 * size)
    bounds = conventional["bounds"]
    if row["conventional_limit"] <= 1.001 * factor or conventional["bounds_at_factor"] is None:
        draw_conventional(axes[0], bounds.limit, f"conventional limit line ({100 * row['conventional_limit']:.1f}%)")
    else:
        minimum = conventional["bounds_at_factor"].minimum
        draw_conventional(axes[0], minimum, f"conventional least-thrust line, |Ft|/Fn up to "
                                            f"{row['friction_demand']:.2f}")
    line = effective_thrust_line_of_result(result)
    if line is not None:
        draw_effective(axes[0], line)
    x_range, z_range = (-1.15 * size / 2, 1.15 * size / 2), (-0.35 * size / 2, 1.45 * size / 2)
    finish(axes[0], f"(a) mu = {row['friction']}: loads at collapse ({100 * factor:.1f}% of W), thrust lines",
           x_range, z_range)
    draw_mechanism(axes[1], document, result, report["mechanism"], size)
    hinges, sliding = mechanism_summary(report)
    finish(axes[1], f"(b) mechanism: {len(hinges)} hinges, sliding at {', '.join(sliding) or 'no joint'}",
           x_range, z_range)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# --- the case study ------------------------------------------------------------------------------

def run_case(friction, angles_deg, tolerance):
    """One friction coefficient: NSCD load factor and the conventional analysis; (row, document, result, conv)."""
    document = arch_document(friction, angles_deg)
    result, seconds = load_factor_run(document, tolerance)
    report = result["load_factor_report"]
    section = ring_section()
    dead = self_weight(section, DENSITY, DEPTH)
    live = as_vertical_loads(section, document["loads"])
    conventional = conventional_analysis(dead, live, report["nscd"], upper=2.0 * report["nscd"], friction=friction)
    hinges, sliding = mechanism_summary(report)
    row = {"friction": friction, "load_angles_deg": list(angles_deg), "nscd": report["nscd"],
           "limit_analysis": report["limit_analysis"], "bracket": report["bracket"],
           "conventional_limit": conventional["limit_factor"],
           "conventional_limit_with_friction": conventional["limit_factor_with_friction"],
           "friction_demand": conventional["friction_demand"], "paper": PAPER.get(friction), "hinges": hinges, "sliding": sliding,
           "springer_sliding": springer_sliding(report), "solves": report["solves"], "seconds": seconds}
    return row, document, result, conventional


def percent(value):
    return "-" if value is None else f"{100 * value:.1f}%"


def print_table(rows):
    print(f"{'mu':>4} {'NSCD':>7} {'LP':>7} {'conv.':>7} {'conv.mu':>7} {'paper':>7} {'|Ft|/Fn':>8} {'springer':>9}"
          "  hinges")
    for row in rows:
        demand = "-" if row["friction_demand"] is None else f"{row['friction_demand']:.3f}"
        print(f"{row['friction']:4.1f} {percent(row['nscd']):>7} {percent(row['limit_analysis']):>7} "
              f"{percent(row['conventional_limit']):>7} {percent(row['conventional_limit_with_friction']):>7} "
              f"{'~' + percent(row['paper']):>7} {demand:>8} "
              f"{'slides' if row['springer_sliding'] else 'holds':>9}  {' '.join(row['hinges'])}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load-angles", type=float, nargs="+", default=[0.0], metavar="DEG",
                        help="angles from the crown of the concentrated loads (they share the total equally)")
    parser.add_argument("--quick", action="store_true", help=f"bisect to {QUICK_TOLERANCE} instead of {TOLERANCE}")
    parser.add_argument("--out", default="out", help="output folder")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tolerance = QUICK_TOLERANCE if args.quick else TOLERANCE

    print(f"arch: intrados radius {OPENING_RADIUS} m, ring {RING_THICKNESS} m, {VOUSSOIRS} voussoirs, "
          f"depth {DEPTH} m, W_arch = {arch_weight_n() / 1e3:.1f} kN; loads at {args.load_angles} deg from the crown")
    rows, results = [], {}
    for friction in FRICTIONS:
        row, document, result, conventional = run_case(friction, args.load_angles, tolerance)
        rows.append(row)
        results[f"mu_{friction}"] = result
        plot_case(row, document, result, conventional, out / f"seed000_arch_mu{friction}.png")
    print_table(rows)
    print("collapse load P / W_arch; conv.: no funicular fits the section beyond it; conv.mu: none fits with every "
          "joint within friction; |Ft|/Fn: friction the least-thrust line needs at the NSCD collapse load")
    (out / "seed000_arch_point_loads.json").write_text(json.dumps({"rows": rows, "results": results}, indent=1))
    print(f"wrote {out}/seed000_arch_mu*.png and {out / 'seed000_arch_point_loads.json'}")


if __name__ == "__main__":
    main()
