"""settings.overlap on compas_dem's DomeTemplate as shipped, whose odd hoops overlap the next ones.

For each resolution (meridians x hoops, the lowest hoop the supports, 2400 kg/m^3, mu 0.6): the
deepest overlap and the pairs that overlap, the time the shrink repair takes (detection and cuts,
engine.analysis.overlap.repaired), the largest fraction of a block's volume it removes, and the
static verdict and time of the whole analysis under shrink and under accept.

    .venv/bin/python benchmarks/overlap_repair_dome.py [--sizes 16x6 24x8 40x20]

The table is printed and written to benchmarks/results/overlap_repair_dome.txt.
"""
import argparse
import datetime
import pathlib
import time

from compas_dem.models import BlockModel
from compas_dem.problem import Problem
from compas_dem.templates import DomeTemplate

from extrados import Model, analyze
from extrados.engine.analysis.overlap import repaired
from extrados.engine.exchange.compas_dem_model import model_document

DENSITY = 2400.0
FRICTION = 0.6
RESULTS = pathlib.Path(__file__).resolve().parent / "results" / "overlap_repair_dome.txt"


def dome_problem(meridians, hoops):
    """The compas_dem problem of the DomeTemplate as shipped, its lowest hoop the supports."""
    dome = BlockModel.from_template(DomeTemplate(meridians=meridians, hoops=hoops))
    dome.add_supports([e.graphnode for k, e in enumerate(dome.elements()) if k % hoops == hoops - 1])
    problem = Problem(dome)
    problem.set_contact_model("MohrCoulomb", mu=FRICTION)
    return problem


def timed_analysis(doc, mode):
    """(stable, seconds) of the static analysis of ``doc`` under settings.overlap ``mode``."""
    start = time.perf_counter()
    result = analyze({**doc, "settings": {"overlap": {"mode": mode}}})
    return result.stable, time.perf_counter() - start


def row(meridians, hoops):
    doc = model_document(dome_problem(meridians, hoops), DENSITY)
    start = time.perf_counter()
    _, report = repaired(Model.from_dict({**doc, "settings": {"overlap": {"mode": "shrink"}}}))
    repair_seconds = time.perf_counter() - start
    shrink, accept = timed_analysis(doc, "shrink"), timed_analysis(doc, "accept")
    fraction = max(block["volume_fraction"] for block in report["blocks"])
    return (f"{meridians:>3} x {hoops:<3} {len(doc['blocks']):>6} {1e3 * report['max_overlap']:>10.2f} "
            f"{len(report['pairs']):>6} {repair_seconds:>8.2f} {100 * fraction:>9.2f} "
            f"{str(shrink[0]):>7} {shrink[1]:>8.1f} {str(accept[0]):>7} {accept[1]:>8.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["16x6", "24x8", "40x20"], help="meridians x hoops")
    args = parser.parse_args()
    timed_analysis(model_document(dome_problem(16, 6), DENSITY), "shrink")   # compiles the kernels first
    lines = [f"# {datetime.date.today()}  overlap repair of compas_dem's DomeTemplate as shipped",
             "  size    blocks  overlap_mm  pairs  repair_s  cut_vol_%  shrink  shrink_s  accept  accept_s"]
    for size in args.sizes:
        meridians, hoops = (int(n) for n in size.split("x"))
        lines.append(row(meridians, hoops))
        print(lines[-1], flush=True)
    RESULTS.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
