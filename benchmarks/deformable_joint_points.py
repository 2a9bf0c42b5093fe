"""What cutting joints into contact points costs (issue 23; seed 004 sec. 5.2.1): the diagonal compression panel.

Seed 004's mesh-size study (figs. 17-23) refines the contact points with the mesh (two per element edge). Here the
panel of examples/diagonal_compression.py (63 deformable blocks, E = 8.26 GPa, nu = 0.2, Table 4 set 1, the
default mesh of about 50 10-node tetrahedra a block) runs its first steps of 1 ms under the loading shoe with the
joints' corners only and with ``contact_spacing`` cut joints. Prints, per spacing: contact points, seconds per
step, solver iterations per step, the force on the shoe at the last step (it must not depend much on the spacing
while the panel is elastic).

    .venv/bin/python benchmarks/deformable_joint_points.py [--spacings none 0.08 0.035] [--steps 6]
                                                           [--out benchmarks/results/deformable_joint_points.txt]
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

from extrados.engine.generators.panel import ACTUATOR_IDS
from extrados.engine.pipeline import step
from extrados.engine.state import State

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from diagonal_compression import (PAPER_BLOCK_POISSON, SOLVER_TOLERANCE, diagonal_force,  # noqa: E402
                                  loading_settings, panel_model)

BLOCK_MODULUS = 8.26e9   # Pa, seed 004 Table 4
TIME_STEP = 1e-3         # s
SPEED = 2e-3             # m/s, the example's loading speed


def measure(spacing, steps):
    """Figures of the panel's first ``steps`` steps with joints cut at ``spacing`` (m; None: corners only)."""
    field = {"E": BLOCK_MODULUS, "nu": PAPER_BLOCK_POISSON}
    if spacing is not None:
        field["contact_spacing"] = spacing
    model = panel_model(1, SPEED, {}, field)
    state = State.initial(model.mechanics)
    actuator = np.isin(np.array(model.block_ids), ACTUATOR_IDS)
    settings = loading_settings(model, TIME_STEP)
    seconds, iterations = [], []
    for _ in range(steps):
        started = time.perf_counter()
        outcome = step(model, state, settings)
        seconds.append(time.perf_counter() - started)
        iterations.append(outcome.solver.iterations)
    tetrahedra = sum(len(body.mesh.tetrahedra) for body in model.elastic_bodies.values())
    return {"spacing": "corners" if spacing is None else f"{spacing:g} m", "contacts": outcome.contacts.n_contacts,
            "tetrahedra": tetrahedra, "seconds": float(np.mean(seconds[1:] or seconds)),
            "iterations": float(np.mean(iterations[1:] or iterations)),
            "force_kN": diagonal_force(outcome, actuator, TIME_STEP) / 1e3}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spacings", nargs="+", default=["none", "0.08", "0.035"],
                        help="contact spacings (m), 'none' for the corners only")
    parser.add_argument("--steps", type=int, default=6, help="steps of 1 ms per spacing (the first one not averaged)")
    parser.add_argument("--out", default="benchmarks/results/deformable_joint_points.txt")
    args = parser.parse_args()
    lines = [f"diagonal compression panel, 63 deformable blocks, first {args.steps} steps of {TIME_STEP * 1e3:g} ms "
             f"(the first one's solve from rest not averaged); solver to {SOLVER_TOLERANCE:g}"]
    for text in args.spacings:
        figures = measure(None if text == "none" else float(text), args.steps)
        lines.append(f"joints {figures['spacing']:>8}: {figures['contacts']:5d} contact points, "
                     f"{figures['tetrahedra']} tetrahedra, {figures['seconds']:6.2f} s a step, "
                     f"{figures['iterations']:7.0f} solver iterations a step, shoe force {figures['force_kN']:.2f} kN")
        print(lines[-1], flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
