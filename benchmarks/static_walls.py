"""Static analysis speed on running-bond walls (issue 2): detection + assembly + solve.

Scene as in ../shared/bench/peers.py: bricks 0.4 x 0.2 x 0.2 m, 2000 kg/m^3, mu = 0.6,
zero initial gaps, on a ground slab. Prints seconds per phase, contact counts, solver
iterations and residual; numba compilation is measured separately on a tiny wall first.

    .venv/bin/python benchmarks/static_walls.py [--sizes 10x10 30x34 50x100] [--solver apgd]
"""
import argparse
import time

import numpy as np

from extrados import Model, generators
from extrados.engine.analysis.static import STATIC_STEP, point_speed
from extrados.engine.contact.assemble import assemble_problem
from extrados.engine.contact.laws import contact_parameters
from extrados.engine.pipeline import detect
from extrados.engine.solvers import solve
from extrados.engine.state import State
from extrados.engine.tolerance import SOLVER_DEFAULTS


def wall(courses, per_course):
    return Model.from_dict(generators.generate("wall", courses=courses, blocks_per_course=per_course,
                                               block_length=0.4, block_height=0.2, depth=0.2, friction=0.6))


def run(model, solver, tolerance, max_iterations):
    """Time the phases of one static analysis; returns a dict of figures."""
    t0 = time.perf_counter()
    mech = model.mechanics
    state = State.initial(mech)
    t1 = time.perf_counter()
    contacts = detect(model, state)
    t2 = time.perf_counter()
    friction, compliance = contact_parameters(model, contacts)
    problem, frame, v_free = assemble_problem(mech, state, contacts, friction, compliance, mech.dead_wrench,
                                              STATIC_STEP)
    t3 = time.perf_counter()
    report = solve(problem, solver, tolerance=tolerance, max_iterations=max_iterations)
    t4 = time.perf_counter()
    velocity = v_free + problem.velocity(report.gamma)
    return {"blocks": mech.n_blocks, "contacts": len(contacts.gap), "pairs": len(contacts.pair_start) - 1,
            "build_s": t1 - t0, "detect_s": t2 - t1, "assemble_s": t3 - t2, "solve_s": t4 - t3,
            "iterations": report.iterations, "residual": report.residual, "converged": report.converged,
            "max_speed": float(point_speed(mech, velocity).max())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["10x10", "30x34", "50x100"])
    parser.add_argument("--solver", default="apgd")
    parser.add_argument("--tolerance", type=float, default=SOLVER_DEFAULTS.static_tolerance,
                        help="relative CCP residual (default: the static analysis default)")
    parser.add_argument("--max-iterations", type=int, default=5000)
    args = parser.parse_args()

    t0 = time.perf_counter()
    run(wall(2, 2), args.solver, args.tolerance, 50)
    print(f"numba compilation / cache load on a tiny wall: {time.perf_counter() - t0:.2f} s")
    header = (f"{'courses x bricks':>16} {'blocks':>7} {'contacts':>9} {'detect s':>9} {'assemble s':>10} "
              f"{'solve s':>8} {'total s':>8} {'iters':>6} {'residual':>9} {'max v m/s':>9}")
    print(header)
    rows = []
    for size in args.sizes:
        courses, per_course = map(int, size.split("x"))
        model = wall(courses, per_course)
        r = run(model, args.solver, args.tolerance, args.max_iterations)
        total = r["detect_s"] + r["assemble_s"] + r["solve_s"]
        rows.append((r["contacts"], total))
        print(f"{size:>16} {r['blocks']:>7} {r['contacts']:>9} {r['detect_s']:>9.3f} {r['assemble_s']:>10.3f} "
              f"{r['solve_s']:>8.3f} {total:>8.3f} {r['iterations']:>6} {r['residual']:>9.1e} {r['max_speed']:>9.1e}")
    if len(rows) > 1:
        contacts, seconds = np.array(rows).T
        slope = np.polyfit(np.log(contacts), np.log(seconds), 1)[0]
        print(f"time grows as contacts^{slope:.2f} (1.0 = linear)")


if __name__ == "__main__":
    main()
