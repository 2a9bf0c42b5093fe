"""What a step of seed 004's mesh-size study costs (issue 23; seed 004 sec. 5.2.1, fig. 17).

The small panel of examples/seed004_mesh_study.py (17 deformable blocks of 210 x 60 mm, 10 mm thick or, at
l_c <= 0.05, as thin as the contact spacing as the study has it (study_thickness); Tables 1-2's medium mortar)
at each ``--lc`` runs its first ``--steps`` steps of 0.1 ms under the loading shoe (20 mm/s). Prints, per l_c:
tetrahedra, contact points at the last step, and per step (the first, from rest, not averaged) the
seconds in all, the seconds in the contact solver and its iterations; the rest of a step is detection, the
surface weights and the condensed flexibility (engine.deformable.coupling).

    .venv/bin/python benchmarks/seed004_panel_steps.py [--lc 0.2 0.1] [--steps 30]
                                                       [--out benchmarks/results/seed004_panel_steps.txt]
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

from extrados.engine.pipeline import step
from extrados.engine.state import State

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from diagonal_compression import loading_settings  # noqa: E402
from seed004_mesh_study import BLOCK_LENGTH  # noqa: E402
from seed004_mesh_study import study_model, study_thickness  # noqa: E402

THICKNESS = 0.01         # m, the study's, thinner at fine l_c (study_thickness)
SPEED = 0.02             # m/s, the study's
TIME_STEP = 1e-4         # s, the study's


def measure(lc, steps):
    """Figures of the panel's first ``steps`` steps at ``lc``."""
    model = study_model(lc, BLOCK_LENGTH["mesh"], study_thickness(lc, BLOCK_LENGTH["mesh"], THICKNESS), SPEED)
    state = State.initial(model.mechanics)
    settings = loading_settings(model, TIME_STEP)
    seconds, solver, iterations = [], [], []
    for _ in range(steps):
        started = time.perf_counter()
        outcome = step(model, state, settings)
        seconds.append(time.perf_counter() - started)
        solver.append(outcome.solver.seconds)
        iterations.append(outcome.solver.iterations)
    tetrahedra = sum(len(body.mesh.tetrahedra) for body in model.elastic_bodies.values())
    averaged = slice(1, None) if steps > 1 else slice(None)
    return {"lc": lc, "tetrahedra": tetrahedra, "contacts": outcome.contacts.n_contacts,
            "first": seconds[0], "seconds": float(np.mean(seconds[averaged])),
            "solver": float(np.mean(solver[averaged])), "iterations": float(np.mean(iterations[averaged]))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lc", nargs="+", type=float, default=[0.2, 0.1], help="l_c values")
    parser.add_argument("--steps", type=int, default=30, help="steps of 0.1 ms per l_c (the first not averaged)")
    parser.add_argument("--out", default="benchmarks/results/seed004_panel_steps.txt")
    args = parser.parse_args()
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    lines = [f"seed 004 study panel (examples/seed004_mesh_study.py), medium laws, first {args.steps} steps of "
             f"{TIME_STEP * 1e3:g} ms (the first, from rest, not averaged)"]
    for lc in args.lc:
        figures = measure(lc, args.steps)
        lines.append(f"l_c {figures['lc']:4g}: {figures['tetrahedra']:5d} tetrahedra, {figures['contacts']:5d} contact "
                     f"points, first step {figures['first']:6.2f} s, then {figures['seconds']:6.3f} s a step, "
                     f"{figures['solver']:6.3f} s of it solving ({figures['iterations']:6.0f} solver iterations)")
        print(lines[-1], flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
