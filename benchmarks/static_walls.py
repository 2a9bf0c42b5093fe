"""Static analysis speed on running-bond walls (issues 2 and 20): mass properties, detection, assembly, solve.

Scene as in ../shared/bench/peers.py: bricks 0.4 x 0.2 x 0.2 m, 2000 kg/m^3, mu = 0.6,
zero initial gaps, on a ground slab. Prints seconds per phase (build: the blocks' mass properties and packed
geometry), contact counts, the solver that ran (``auto`` as a static analysis runs it: Newton where its matrix
factorises cheaply, engine.solvers.auto), its iterations and residual, and the whole ``analyze`` of a model
read from its document (validation and results included), best of ``--repeat``; numba compilation is measured
separately first, on walls of 8 x 8 and 20 x 20 (Newton's banded and block Cholesky factorisations).

    .venv/bin/python benchmarks/static_walls.py [--sizes 10x10 30x34 50x100] [--solver auto]
"""
import argparse
import time

import numpy as np

from extrados import Model, analyze, generators
from extrados.engine.analysis.static import STATIC_STEP, point_speed
from extrados.engine.contact.assemble import assemble_problem
from extrados.engine.contact.laws import contact_parameters
from extrados.engine.pipeline import detect
from extrados.engine.solvers import solve
from extrados.engine.state import State
from extrados.engine.tolerance import SOLVER_DEFAULTS


def wall_document(courses, per_course):
    return generators.generate("wall", courses=courses, blocks_per_course=per_course, block_length=0.4,
                               block_height=0.2, depth=0.2, friction=0.6)


def wall(courses, per_course):
    return Model.from_dict(wall_document(courses, per_course))


def analyze_seconds(document, solver, repeat):
    """Best of ``repeat`` wall times of ``analyze`` by ``solver`` on a model read from ``document``."""
    document = {**document, "settings": {**document.get("settings", {}), "solver": solver}}
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        result = analyze(Model.from_dict(document), "static")
        best = min(best, time.perf_counter() - started)
        if not result.stable:
            raise RuntimeError("the wall falls: the benchmark times a wall that stands")
    return best


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
    report = solve(problem, solver, tolerance=tolerance, max_iterations=max_iterations, retry=True)
    t4 = time.perf_counter()
    velocity = v_free + problem.velocity(report.gamma)
    return {"blocks": mech.n_blocks, "contacts": len(contacts.gap), "pairs": len(contacts.pair_start) - 1,
            "build_s": t1 - t0, "detect_s": t2 - t1, "assemble_s": t3 - t2, "solve_s": t4 - t3,
            "solver": report.name, "iterations": report.iterations, "residual": report.residual,
            "converged": report.converged,
            "max_speed": float(point_speed(mech, velocity).max())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["10x10", "30x34", "50x100"])
    parser.add_argument("--solver", default="auto")
    parser.add_argument("--tolerance", type=float, default=SOLVER_DEFAULTS.static_tolerance,
                        help="relative CCP residual (default: the static analysis default)")
    parser.add_argument("--max-iterations", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3, help="analyze runs per size, the best kept")
    args = parser.parse_args()

    t0 = time.perf_counter()
    for courses, per_course in ((8, 8), (20, 20)):   # narrow and wide bands: both factorisations of the Newton solver
        run(wall(courses, per_course), args.solver, args.tolerance, args.max_iterations)
    print(f"numba compilation / cache load on walls of 8 x 8 and 20 x 20: {time.perf_counter() - t0:.2f} s")
    header = (f"{'courses x bricks':>16} {'blocks':>7} {'contacts':>9} {'build s':>8} {'detect s':>9} "
              f"{'assemble s':>10} {'solve s':>8} {'total s':>8} {'analyze s':>9} {'solver':>7} {'iters':>6} "
              f"{'residual':>9} {'max v m/s':>9}")
    print(header)
    rows = []
    for size in args.sizes:
        courses, per_course = map(int, size.split("x"))
        document = wall_document(courses, per_course)
        r = run(Model.from_dict(document), args.solver, args.tolerance, args.max_iterations)
        total = r["build_s"] + r["detect_s"] + r["assemble_s"] + r["solve_s"]
        whole = analyze_seconds(document, args.solver, args.repeat)
        rows.append((r["contacts"], total))
        print(f"{size:>16} {r['blocks']:>7} {r['contacts']:>9} {r['build_s']:>8.3f} {r['detect_s']:>9.3f} "
              f"{r['assemble_s']:>10.3f} {r['solve_s']:>8.3f} {total:>8.3f} {whole:>9.3f} {r['solver']:>7} "
              f"{r['iterations']:>6} {r['residual']:>9.1e} {r['max_speed']:>9.1e}")
    if len(rows) > 1:
        contacts, seconds = np.array(rows).T
        slope = np.polyfit(np.log(contacts), np.log(seconds), 1)[0]
        print(f"time grows as contacts^{slope:.2f} (1.0 = linear)")


if __name__ == "__main__":
    main()
