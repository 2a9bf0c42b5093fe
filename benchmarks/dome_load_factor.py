"""Horizontal collapse load factor of compas_dem's dome with aligned hoops (issue 20): seconds, static solves,
settle runs.

The dome is compas_dem's ``DomeTemplate`` (meridians x hoops, its defaults otherwise) with its odd hoops
turned back by half a block, so that the hoops are aligned and the blocks do not overlap (as shipped,
the odd hoops are turned and overlap, README's compas_dem section); its lowest hoop is the supports,
mu = 0.6, 2,400 kg/m3. The live load is a horizontal acceleration of every block (``live_acceleration``
[9.81, 0, 0], compas_dem_backend), so the factor is the fraction of g sideways at collapse.

Each static solve of the bisection is timed (the analysis's own ``solve_static``, wrapped here to
read how its verdict was reached): near the collapse factor the static velocities lie in the
borderline band and a settle run decides (engine.analysis.static), which is where the time goes.
The limit-analysis LP gives the factor from below (its friction pyramid is inscribed in the cone); the
NSCD bisection stands at it or a few per cent above. Until diagonal neighbours, which share only an
edge, stopped making line contacts (engine.collision.face_contacts.faces_only_abut), the LP stood at
max_factor (the contacts' arbitrary normals let it prestress the hoops) and the NSCD factor was 30-45 %
higher than now (16 x 8: 0.793 against 0.554): those contacts carried load by friction.

    .venv/bin/python benchmarks/dome_load_factor.py [--domes 16x8 40x20] [--out benchmarks/results/dome_load_factor.txt]
"""
import argparse
import datetime
import math
import os
import platform
import time
from pathlib import Path

from extrados import analyze
from extrados.engine.analysis import load_factor
from extrados.engine.exchange.compas_dem_model import model_document

RESULTS = Path(__file__).resolve().parent / "results" / "dome_load_factor.txt"
FRICTION = 0.6
DENSITY = 2400.0       # kg/m3
SIDEWAYS_G = [9.81, 0.0, 0.0]


def aligned_dome(meridians, hoops):
    """compas_dem Problem of the dome with aligned hoops, its lowest hoop the supports."""
    from compas.geometry import Rotation
    from compas_dem.models import BlockModel
    from compas_dem.problem import Problem
    from compas_dem.templates import DomeTemplate

    class AlignedDome(DomeTemplate):
        def blocks(self):
            meshes = super().blocks()   # per meridian, hoop by hoop; odd hoops turned by half a block
            back = Rotation.from_axis_and_angle([0.0, 0.0, 1.0], -math.pi / self.meridians)
            for k, mesh in enumerate(meshes):
                if (k % self.hoops) % 2 == 1:
                    mesh.transform(back)
            return meshes

    model = BlockModel.from_template(AlignedDome(meridians=meridians, hoops=hoops))
    model.add_supports([e.graphnode for k, e in enumerate(model.elements()) if k % hoops == hoops - 1])
    problem = Problem(model)
    problem.set_contact_model("MohrCoulomb", mu=FRICTION)
    return problem


class TimedSolves:
    """Wraps load_factor's solve_static: (factor, verdict_by, seconds) of every static solve."""

    def __init__(self):
        self.solves = []
        self.original = load_factor.solve_static

    def __enter__(self):
        def timed(model, live_factor=1.0, **options):
            started = time.perf_counter()
            solution = self.original(model, live_factor, **options)
            self.solves.append((live_factor, solution.verdict_by, time.perf_counter() - started))
            return solution
        load_factor.solve_static = timed
        return self

    def __exit__(self, *exc):
        load_factor.solve_static = self.original


def row(meridians, hoops):
    """One line of the table: the load factor analysis of one dome."""
    doc = model_document(aligned_dome(meridians, hoops), DENSITY, (), SIDEWAYS_G, None)
    with TimedSolves() as timed:
        started = time.perf_counter()
        result = analyze(doc, "load_factor").to_dict()
        seconds = time.perf_counter() - started
    report = result["load_factor_report"]
    settle = [s for _, verdict, s in timed.solves if verdict == "settle run"]
    blocks = len(result["blocks"])
    return (f"{meridians}x{hoops:<6} {blocks:>6} {len(result['contacts']):>8} {factor(report['limit_analysis'], 4)} "
            f"{factor(report['nscd'], 5)} {report['solves']:>6} {len(settle):>6} {sum(settle):>8.1f} {seconds:>8.1f}")


def factor(value, digits):
    """A load factor in the table's 8 columns, "-" where there is none (the dead loads fail, or max_factor stands)."""
    return f"{'-':>8}" if value is None else f"{value:>8.{digits}f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domes", nargs="+", default=["16x8", "40x20"], help="meridians x hoops")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    warm_up = time.perf_counter()
    analyze(model_document(aligned_dome(8, 4), DENSITY, (), SIDEWAYS_G, None), "static")
    lines = [f"Horizontal load factor of compas_dem's dome with aligned hoops, "
             f"{datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}, {platform.platform()}, "
             f"{os.cpu_count()} cpus",
             f"warm-up (numba compilation or cache load) on an 8 x 4 dome: {time.perf_counter() - warm_up:.1f} s",
             "LP: limit analysis (a lower bound: friction pyramids); NSCD: the bisection's standing factor; "
             "solves: static solves; settle: those decided by a settle run, and their seconds",
             f"{'dome':<9} {'blocks':>6} {'contacts':>8} {'LP':>8} {'NSCD':>8} {'solves':>6} {'settle':>6} "
             f"{'settle s':>8} {'total s':>8}"]
    print("\n".join(lines), flush=True)
    for dome in args.domes:
        meridians, hoops = (int(n) for n in dome.split("x"))
        lines.append(row(meridians, hoops))
        print(lines[-1], flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
