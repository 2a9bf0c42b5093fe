"""Spandrel arch against the same arch standing alone under its spandrels' weight (seed 000 sec. 3.1, fig. 8).

The assembly is the `spandrel_wall` of seed 000 (16.2 x 5.0 x 0.8 m, opening radius 3.8 m,
mu = 0.4), whose ring is the arch of figs. 6-7 (examples/seed000_arch_point_loads.py). The
concentrated loads act on the ring's extrados at the same places, as percentages of the
weight of the sole arch.

The "equivalent arch" of fig. 8b is the ring alone with the spandrels as dead weight: on
each voussoir a vertical dead load equal to the weight of the fill between its extrados
chord and the top of the wall, acting at that strip's centroid. Its collapse load comes
from the load factor analysis (NSCD bisection) and from graphical statics (the
conventional thrust line, with the a-posteriori friction check of sec. 3.1). The whole
assembly is then analysed statically under the load that fails the equivalent arch: it
stands (fig. 8d), and the effective thrust line of its ring (centres of pressure of the
joint resultants along the named chain v0 .. v{n-1}, fig. 8c) is compared with the
conventional one: the conventional line, a funicular of vertical loads, keeps one horizontal
thrust and swings from the extrados at the crown to the intrados at the haunches; the
effective line follows the ring (its mean eccentricity from the centreline, over half
the ring's thickness, is reported for both) while the spandrels' horizontal push changes
its horizontal thrust along the ring (sec. 3.1: "smoother and rounded ... horizontal forces
associated with the confinement effects produced by the spandrels"). Unless --quick, the load factor of the
whole assembly is found too.

Writes OUT/seed000_spandrel_arch.png (panels a-d of fig. 8) and OUT/seed000_spandrel_arch.json.

    .venv/bin/python examples/seed000_spandrel_arch.py [--load-angles 0] [--quick] [--out out]
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
from extrados.engine.generators.arch import voussoir_section  # noqa: E402
from extrados.engine.post.funicular import combined, left_totals, self_weight  # noqa: E402
from extrados.engine.post.thrust import effective_thrust_line_of_result  # noqa: E402
from seed000_arch_point_loads import (  # noqa: E402
    DENSITY, DEPTH, QUICK_TOLERANCE, RADIUS, RING_THICKNESS, SPANDREL, TOLERANCE, VOUSSOIRS, arch_document,
    arch_weight_n, as_vertical_loads, conventional_analysis, load_factor_run, mechanism_summary, point_loads,
    ring_section, scaled,
)
from seed000_figures import (  # noqa: E402
    block_outlines, draw_blocks, draw_conventional, draw_effective, draw_loads, draw_mechanism, draw_resultants,
    finish,
)

FRICTION = SPANDREL.parameter("friction").default
WALL_HEIGHT = SPANDREL.parameter("height").default     # m
WALL_LENGTH = SPANDREL.parameter("length").default     # m
G = 9.81
#: Collapse load of the equivalent arch over W_arch that seed 000 sec. 3.1 reports ("of the order of").
PAPER_EQUIVALENT = 0.40
#: Largest factor the assembly's load factor analysis tries.
ASSEMBLY_MAX_FACTOR = 10.0


# --- the equivalent arch ------------------------------------------------------------------

def fill_strip(k):
    """Area (m²) and centroid (x, z on the chord) of the fill between voussoir k's extrados chord and the wall top.

    The strip over the chord E_k E_{k+1} is a trapezoid with vertical sides of heights
    h_1 = H - z(E_k) and h_2 = H - z(E_{k+1}); its area is (x_2 - x_1)(h_1 + h_2) / 2 and its
    centroid lies at x_1 + (x_2 - x_1)(h_1 + 2 h_2) / (3 (h_1 + h_2)).
    """
    section = voussoir_section(RADIUS, RING_THICKNESS, VOUSSOIRS, k)
    (x1, z1), (x2, z2) = section[0], section[3]
    h1, h2 = WALL_HEIGHT - z1, WALL_HEIGHT - z2
    area = 0.5 * (x2 - x1) * (h1 + h2)
    x = x1 + (x2 - x1) * (h1 + 2.0 * h2) / (3.0 * (h1 + h2))
    return area, (x, z1 + (z2 - z1) * (x - x1) / (x2 - x1))


def spandrel_dead_loads():
    """Dead point loads (model document entries) of the fill on each voussoir's extrados (module docstring)."""
    loads = []
    for k in range(VOUSSOIRS):
        area, (x, z) = fill_strip(k)
        loads.append({"kind": "point", "block": f"v{k}", "point": [x, 0.0, z],
                      "force": [0.0, 0.0, -DENSITY * G * DEPTH * area], "live": False})
    return loads


def equivalent_arch_document(angles_deg):
    """The ring alone with the spandrels' dead weight and the live loads totalling W_arch."""
    document = arch_document(FRICTION, angles_deg)
    document["loads"] += spandrel_dead_loads()
    return document


def assembly_document(angles_deg, factor):
    """The spandrel wall with the live loads on the ring's extrados totalling factor * W_arch."""
    document = generators.generate("spandrel_wall")
    document["loads"] = point_loads(angles_deg, factor * arch_weight_n())
    return document


# --- shape of a thrust line ---------------------------------------------------------------

def eccentricity_ratio(points_xz):
    """Mean distance of a line's joint points (n, 2) from the ring's centreline, over half its thickness.

    0 on the centreline; 1 on the intrados or extrados, where a conventional line hinges.
    """
    radial = np.linalg.norm(points_xz, axis=1) - RADIUS
    return float(np.abs(radial).mean() / (RING_THICKNESS / 2.0))


def conventional_forces(loads, line):
    """(n_joints, 2) thrust (x, z) of a funicular at each joint: (H, V_A - W_j) (funicular eq. 1)."""
    total, _ = left_totals(ring_section(), loads)
    return np.column_stack([np.full(len(total), line.thrust), line.left_reaction - total])


def line_shape(effective, conventional, loads):
    """How the two lines differ: eccentricity ratios, horizontal thrust (N) and thrust angle at the springings.

    The conventional line carries one horizontal thrust H everywhere (vertical loads only);
    along the effective line H changes where the spandrels push on the ring.
    """
    forces = conventional_forces(loads, conventional)
    springing = np.degrees(np.arctan2(effective.force[0, 2], effective.force[0, 0]))
    return {"effective_eccentricity_ratio": eccentricity_ratio(effective.centre[:, [0, 2]]),
            "conventional_eccentricity_ratio": eccentricity_ratio(conventional.crossing),
            "effective_horizontal_thrust_springing_crown_n": [float(effective.force[0, 0]),
                                                              float(effective.force[len(effective.force) // 2, 0])],
            "conventional_horizontal_thrust_n": float(conventional.thrust),
            "effective_springing_angle_deg": float(springing),
            "conventional_springing_angle_deg": float(np.degrees(np.arctan2(forces[0, 1], forces[0, 0])))}


# --- figure ----------------------------------------------------------------------------------

def plot_spandrel(summary, documents, results, lines, path):
    """Panels (a)-(d) of seed 000 fig. 8."""
    weight = arch_weight_n()
    factor = summary["equivalent_arch"]["failing_factor"]
    loads = point_loads(summary["load_angles_deg"], factor * weight)
    fig, axes = plt.subplots(2, 2, figsize=(13, 6.2), dpi=80)
    (a, b), (c, d) = axes
    wall = block_outlines(documents["assembly"])
    ring = {f"v{k}" for k in range(VOUSSOIRS)}
    x_range, z_range = (-WALL_LENGTH / 2 - 0.3, WALL_LENGTH / 2 + 0.3), (-0.6, WALL_HEIGHT + 1.6)
    draw_blocks(a, wall, highlight=ring)
    draw_loads(a, loads, weight, 1.2)
    draw_conventional(a, lines["conventional"], lines["conventional_label"])
    finish(a, "(a) bond pattern, loads (% of the sole arch's weight) and conventional thrust line", x_range, z_range)
    draw_mechanism(b, documents["equivalent"], results["equivalent"],
                   results["equivalent"]["load_factor_report"]["mechanism"], 2.0 * RADIUS)
    draw_loads(b, loads, weight, 1.2)
    finish(b, f"(b) equivalent stand-alone arch (spandrels as dead weight): collapse at "
              f"{100 * summary['equivalent_arch']['nscd']:.1f}%", x_range, z_range)
    draw_blocks(c, wall, colour="#f4efe6", linewidth=0.3)
    draw_blocks(c, {k: v for k, v in wall.items() if k in ring}, highlight=ring)
    draw_conventional(c, lines["conventional"], "conventional")
    draw_effective(c, lines["effective"], segment=0.5)
    shape = summary["line_shape"]
    finish(c, f"(c) effective thrust line of the ring in the assembly: mean eccentricity "
              f"{shape['effective_eccentricity_ratio']:.2f} t/2 "
              f"(conventional {shape['conventional_eccentricity_ratio']:.2f})",
           x_range, z_range)
    draw_blocks(d, wall, highlight=ring)
    interfaces = results["assembly"]["interfaces"]
    largest = max(joint["normal_force"] for joint in interfaces)
    draw_resultants(d, interfaces, 0.6 / largest, linewidth=1.2)
    draw_loads(d, loads, weight, 1.2)
    verdict = "stands" if results["assembly"]["stable"] else "does not stand"
    finish(d, f"(d) whole assembly under the same loads {verdict}: joint resultants (length ~ force)",
           x_range, z_range, legend=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# --- the case study ------------------------------------------------------------------------------

def equivalent_arch(angles_deg, tolerance):
    """Load factor of the equivalent arch and the conventional analysis of it; (summary, document, result, conv)."""
    document = equivalent_arch_document(angles_deg)
    result, seconds = load_factor_run(document, tolerance)
    report = result["load_factor_report"]
    section = ring_section()
    dead = combined(self_weight(section, DENSITY, DEPTH), as_vertical_loads(section, spandrel_dead_loads()))
    live = as_vertical_loads(section, point_loads(angles_deg, arch_weight_n()))
    conventional = conventional_analysis(dead, live, report["nscd"], upper=2.0 * report["nscd"], friction=FRICTION)
    hinges, sliding = mechanism_summary(report)
    summary = {"nscd": report["nscd"], "failing_factor": report["bracket"][1],
               "limit_analysis": report["limit_analysis"], "paper": PAPER_EQUIVALENT,
               "conventional_limit": conventional["limit_factor"],
               "conventional_limit_with_friction": conventional["limit_factor_with_friction"],
               "conventional_friction_demand": conventional["friction_demand"],
               "spandrel_weight_over_arch": float(-sum(load["force"][2] for load in spandrel_dead_loads())
                                                  / arch_weight_n()),
               "hinges": hinges, "sliding": sliding, "seconds": seconds}
    return summary, document, result, (dead, live, conventional)


def conventional_line(dead, live, conventional, factor):
    """The conventional line to draw at factor: the least-thrust line there, else the limit line; and its label."""
    at_factor = conventional["bounds_at_factor"]
    if at_factor is not None and at_factor.minimum is not None:
        return at_factor.minimum, combined(dead, scaled(live, factor)), "conventional least-thrust line"
    limit = conventional["limit_factor"]
    return conventional["bounds"].limit, combined(dead, scaled(live, limit)), "conventional limit line"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load-angles", type=float, nargs="+", default=[0.0], metavar="DEG",
                        help="angles from the crown of the concentrated loads (they share the total equally)")
    parser.add_argument("--quick", action="store_true",
                        help="coarser bisection, and no load factor analysis of the whole assembly")
    parser.add_argument("--out", default="out", help="output folder")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tolerance = QUICK_TOLERANCE if args.quick else TOLERANCE

    equivalent, equivalent_doc, equivalent_result, (dead, live, conventional) = equivalent_arch(
        args.load_angles, tolerance)
    factor = equivalent["failing_factor"]
    assembly_doc = assembly_document(args.load_angles, factor)
    start = time.perf_counter()
    assembly = analyze(assembly_doc, {"type": "static"}).to_dict()
    static_seconds = time.perf_counter() - start
    effective = effective_thrust_line_of_result(assembly, chain=[f"v{k}" for k in range(VOUSSOIRS)])
    line, loads, label = conventional_line(dead, live, conventional, equivalent["nscd"])
    shape = line_shape(effective, line, loads)
    summary = {"load_angles_deg": list(args.load_angles), "friction": FRICTION, "equivalent_arch": equivalent,
               "assembly_static": {"factor": factor, "stable": assembly["stable"],
                                   "verdict_by": assembly["verdict_by"], "seconds": static_seconds},
               "line_shape": shape, "assembly_load_factor": None}
    if not args.quick:
        result, seconds = load_factor_run(assembly_document(args.load_angles, 1.0), tolerance, ASSEMBLY_MAX_FACTOR)
        report = result["load_factor_report"]
        summary["assembly_load_factor"] = {"nscd": report["nscd"], "limit_analysis": report["limit_analysis"],
                                           "status": report["status"], "seconds": seconds}
    plot_spandrel(summary, {"assembly": assembly_doc, "equivalent": equivalent_doc},
                  {"assembly": assembly, "equivalent": equivalent_result},
                  {"conventional": line, "conventional_label": label, "effective": effective},
                  out / "seed000_spandrel_arch.png")
    (out / "seed000_spandrel_arch.json").write_text(json.dumps(
        {**summary, "effective_thrust_line": effective.to_dict(), "assembly_result": assembly,
         "equivalent_arch_result": equivalent_result}, indent=1))
    print_summary(summary)
    print(f"wrote {out / 'seed000_spandrel_arch.png'} and {out / 'seed000_spandrel_arch.json'}")


def print_summary(summary):
    eq = summary["equivalent_arch"]
    demand = eq["conventional_friction_demand"]
    print(f"spandrel weight on the ring: {eq['spandrel_weight_over_arch']:.2f} W_arch; mu = {summary['friction']}")
    print(f"{'case':<42} {'P / W_arch':>11} {'paper':>7}")
    print(f"{'equivalent arch, NSCD load factor':<42} {100 * eq['nscd']:10.1f}% {'~40%':>7}   hinges "
          f"{' '.join(eq['hinges'])}; sliding {' '.join(eq['sliding']) or '-'}")
    print(f"{'equivalent arch, LP (associative)':<42} {100 * eq['limit_analysis']:10.1f}%")
    print(f"{'equivalent arch, conventional (no sliding)':<42} {100 * eq['conventional_limit']:10.1f}%"
          f"   least-thrust line needs |Ft|/Fn = {'-' if demand is None else f'{demand:.3f}'} at the NSCD load")
    print(f"{'equivalent arch, conventional (sliding checked)':<42} "
          f"{100 * eq['conventional_limit_with_friction']:10.1f}% {'~40%':>7}   some line within mu at every joint")
    static = summary["assembly_static"]
    print(f"{'whole assembly at the failing load':<42} {100 * static['factor']:10.1f}%"
          f" {'stands' if static['stable'] else 'FAILS':>7} (paper: stands)")
    if summary["assembly_load_factor"]:
        whole = summary["assembly_load_factor"]
        print(f"{'whole assembly, NSCD load factor':<42} {100 * whole['nscd']:10.1f}%   ({whole['status']})")
    shape = summary["line_shape"]
    springing, crown = shape["effective_horizontal_thrust_springing_crown_n"]
    print(f"mean eccentricity from the ring's centreline / (t/2): "
          f"effective {shape['effective_eccentricity_ratio']:.2f}, "
          f"conventional {shape['conventional_eccentricity_ratio']:.2f}")
    print(f"horizontal thrust: effective {springing / 1e3:.1f} kN at the springing, {crown / 1e3:.1f} kN at the crown; "
          f"conventional {shape['conventional_horizontal_thrust_n'] / 1e3:.1f} kN throughout")
    print(f"thrust angle at the springing: effective {shape['effective_springing_angle_deg']:.1f} deg, conventional "
          f"{shape['conventional_springing_angle_deg']:.1f} deg from the horizontal")


if __name__ == "__main__":
    main()
