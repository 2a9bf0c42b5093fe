"""Deformable blocks against rigid ones on seed 001's 248-block wall (issue 23): build, static solve, settle run.

The wall of examples/construction_wall.py (16 courses of a running bond, 0.40 x 0.22 x 0.30 m blocks, 1820 kg/m^3,
mu = 0.65) on one ground slab, once of rigid blocks and once of deformable ones (E = 16 GPa, seed 001 sec. 4.3.2,
nu = 0.2, the default mesh of about 50 tetrahedra a block). Prints, per model: the build (meshing, stiffness), the
static analysis, and a settle run from rest under gravity (``--steps`` steps of 1 ms, the settle run of
engine.analysis.static), its seconds per step and in all, the solver and its iterations, the largest point
speed at the end. The issue asks that the deformable wall's settle runs in minutes on 2 cores.

    .venv/bin/python benchmarks/deformable_wall.py [--courses 16] [--blocks-per-course 15] [--steps 300]
                                                   [--element tet10] [--out benchmarks/results/deformable_wall.txt]
"""
import argparse
import time
from pathlib import Path

import numpy as np

from extrados import Model, analyze
from extrados.engine.analysis.static import point_speed, step_settings
from extrados.engine.generators.wall import running_bond_wall
from extrados.engine.pipeline import step
from extrados.engine.state import State

BLOCK_LENGTH, BLOCK_HEIGHT, DEPTH = 0.40, 0.22, 0.30   # m, seed 001's wall as examples/construction_wall.py has it
DENSITY, FRICTION = 1820.0, 0.65
STONE = {"E": 16e9, "nu": 0.2}                         # seed 001 sec. 4.3.2


def wall_document(courses, per_course, element=None):
    """The wall; its blocks deformable of ``element`` ("tet4" or "tet10") when given."""
    document = running_bond_wall(courses=courses, blocks_per_course=per_course, block_length=BLOCK_LENGTH,
                                 block_height=BLOCK_HEIGHT, depth=DEPTH, friction=FRICTION, density=DENSITY)
    if element is not None:
        document["materials"]["stone"]["deformable"] = {**STONE, "element": element}
    return document


def measure(document, steps):
    """Figures of one model: build, static analysis, settle run."""
    started = time.perf_counter()
    model = Model.from_dict(document)
    bodies = model.elastic_bodies
    build = time.perf_counter() - started
    started = time.perf_counter()
    result = analyze(model, "static")
    static = time.perf_counter() - started
    mech = model.mechanics
    state = State.initial(mech)
    settings = step_settings(model, mech.dead_wrench, 1e-3, "dynamic")
    iterations, started = [], time.perf_counter()
    for _ in range(steps):
        outcome = step(model, state, settings)
        iterations.append(outcome.solver.iterations)
    settle = time.perf_counter() - started
    return {"blocks": mech.n_blocks, "tetrahedra": sum(len(b.mesh.tetrahedra) for b in bodies.values()),
            "nodes": sum(b.n_nodes for b in bodies.values()), "build_s": build, "static_s": static,
            "stable": result.stable, "verdict_by": result.extra["verdict_by"], "settle_s": settle,
            "step_ms": 1e3 * settle / steps, "solver": outcome.solver.name,
            "iterations_mean": float(np.mean(iterations)), "contacts": len(outcome.contacts.gap),
            "final_speed": float(point_speed(mech, outcome.velocity).max())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--courses", type=int, default=16)
    parser.add_argument("--blocks-per-course", type=int, default=15)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--element", default="tet10", choices=["tet4", "tet10"])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    # compile the kernels on a small wall first, so that neither timing below carries numba's compilation
    for element in (None, args.element):
        measure(wall_document(2, 2, element), 3)
    lines = [f"deformable_wall: {args.courses} x {args.blocks_per_course} wall, {args.steps} steps of 1 ms"]
    figures = {}
    for label, element in (("rigid", None), (args.element, args.element)):
        figures[label] = f = measure(wall_document(args.courses, args.blocks_per_course, element), args.steps)
        lines.append(f"{label:6s} blocks {f['blocks']} tetrahedra {f['tetrahedra']} nodes {f['nodes']}: build "
                     f"{f['build_s']:.2f} s, static {f['static_s']:.2f} s ({'stands' if f['stable'] else 'falls'}, "
                     f"by {f['verdict_by']}), settle {f['settle_s']:.1f} s = {f['step_ms']:.1f} ms a step "
                     f"({f['solver']}, {f['iterations_mean']:.0f} iterations a step, {f['contacts']} contacts), "
                     f"largest speed at the end {f['final_speed']:.2e} m/s")
    ratio = figures[args.element]["step_ms"] / figures["rigid"]["step_ms"]
    lines.append(f"a deformable step costs {ratio:.1f} rigid steps; the deformable settle of {args.steps} steps "
                 f"took {figures[args.element]['settle_s'] / 60:.1f} min")
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
