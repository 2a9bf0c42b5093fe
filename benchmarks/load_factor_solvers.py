"""Collapse load factors of arches by each static solver (issue 20): seconds, static solves, and the
NSCD factor beside the limit-analysis LP's.

A load factor analysis bisects the static verdict over the live load's factor (engine.analysis.load_factor),
one static CCP per probe. The arches are DESIGN sec. 7's (R = 1 m, t/R = 0.15, mu = 0.8 >= 0.7, so
sliding does not govern and the LP's factor is the collapse factor) with a point load on the extrados
at the crown and above x = R/2, at 20 and 40 voussoirs. Each row runs the analysis with
``settings.solver`` set to the solver named, after a warm-up of numba's kernels.

    .venv/bin/python benchmarks/load_factor_solvers.py [--voussoirs 20 40] [--solvers apgd auto]
                                                      [--out benchmarks/results/load_factor_solvers.txt]
"""
import argparse
import datetime
import math
import os
import platform
import time
from pathlib import Path

from extrados import Model, analyze, generators

RESULTS = Path(__file__).resolve().parent / "results" / "load_factor_solvers.txt"
#: DESIGN sec. 7's arch (tests/test_load_factor.py).
ARCH = {"radius": 1.0, "thickness": 0.15, "friction": 0.8}


def quarter_span_angle_deg():
    """Angle from the crown of the extrados point above x = R/2."""
    return math.degrees(math.asin(0.5 * ARCH["radius"] / (ARCH["radius"] + ARCH["thickness"] / 2.0)))


def arch_document(voussoirs, angle_deg, solver):
    doc = generators.generate("arch", voussoirs=voussoirs, **ARCH, load_fraction=1.0, load_angle_deg=angle_deg)
    doc.setdefault("settings", {})["solver"] = solver
    return doc


def row(voussoirs, place, angle_deg, solver):
    """One line of the table: the load factor analysis of one arch by one solver."""
    started = time.perf_counter()
    result = analyze(Model.from_dict(arch_document(voussoirs, angle_deg, solver)), "load_factor").to_dict()
    seconds = time.perf_counter() - started
    report = result["load_factor_report"]
    nscd, lp = report["nscd"], report["limit_analysis"]
    gap = (nscd - lp) / lp if nscd is not None and lp else float("nan")
    return (f"arch{voussoirs:<4} {place:<8} {solver:<6} {result['solver']['name']:<8} {report['solves']:>6} "
            f"{seconds:>8.2f} {nscd:>9.5f} {lp:>9.5f} {100 * gap:>+7.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voussoirs", nargs="+", type=int, default=[20, 40])
    parser.add_argument("--solvers", nargs="+", default=["apgd", "auto"])
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    warm_up = time.perf_counter()
    for solver in args.solvers:
        analyze(Model.from_dict(arch_document(6, 0.0, solver)), "load_factor")
    lines = [f"Load factors of DESIGN sec. 7's arch by static solver, "
             f"{datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}, {platform.platform()}, "
             f"{os.cpu_count()} cpus",
             f"warm-up (numba compilation or cache load) on a 6-voussoir arch: {time.perf_counter() - warm_up:.1f} s",
             "solver: settings.solver; ran: the solver of the last static solve; NSCD vs LP: (NSCD - LP) / LP",
             f"{'case':<9} {'load':<8} {'solver':<6} {'ran':<8} {'solves':>6} {'seconds':>8} {'NSCD':>9} {'LP':>9} "
             f"{'vs LP %':>7}"]
    print("\n".join(lines), flush=True)
    for voussoirs in args.voussoirs:
        for place, angle in (("crown", 0.0), ("quarter", quarter_span_angle_deg())):
            for solver in args.solvers:
                lines.append(row(voussoirs, place, angle, solver))
                print(lines[-1], flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
