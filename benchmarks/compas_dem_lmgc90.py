"""compas_dem's LMGC90 back end beside Extrados on compas_dem's arch template (12 voussoirs, 10 m span): the
verdict, LMGC90's largest displacement after a 0.5 s settle, and both total support reactions over the weight.

compas_lmgc90 (0.1) pulls PySide6 (670 MB), so it is not a test extra; the interop tests compare RBE and CRA
(tests/test_compas_dem.py). Measured 2026-11-27: LMGC90 settles to under 1 um and its total reaction agrees
with Extrados' within 2e-4 of the weight (a lateral remainder of about 1e-4 W left by the dynamic settle).

    .venv/bin/python -m pip install compas_lmgc90   # once
    .venv/bin/python benchmarks/compas_dem_lmgc90.py
"""
import sys

import numpy as np

from tests.test_compas_dem import DENSITY, SOLVE_SETTINGS, arch, problem_of, total_reaction, weight


def main():
    try:
        import compas_lmgc90  # noqa: F401
    except ImportError:
        print(f"compas_lmgc90 is not installed: {sys.executable} -m pip install compas_lmgc90", file=sys.stderr)
        return 2
    from compas_dem.material import Stone
    from compas_dem.problem import Solver

    from extrados.engine.exchange.compas_dem_backend import solve_with_extrados

    blockmodel = arch()
    stone = Stone(fck=30.0, density=DENSITY)   # LMGC90 takes the density from the blocks' material
    blockmodel.add_material(stone)
    blockmodel.assign_material(stone, elements=list(blockmodel.elements()))
    blockmodel.compute_contacts()
    problem = problem_of(blockmodel)
    ours = solve_with_extrados(problem, settings=SOLVE_SETTINGS)
    problem.set_solver(Solver.LMGC90(duration=0.5, n_steps=500, verbose=500))
    theirs = problem.solve()
    w = weight(problem)
    moved = max(np.linalg.norm(theirs.displacement(e.graphnode)) for e in blockmodel.elements())
    print(f"Extrados: stable = {ours.metadata['stable']}, total reaction / W = "
          f"{np.round(np.asarray(total_reaction(ours, blockmodel)) / w, 9).tolist()}")
    print(f"LMGC90: largest displacement after 0.5 s = {moved:.3g} m, total reaction / W = "
          f"{np.round(np.asarray(total_reaction(theirs, blockmodel, on_v=False)) / w, 9).tolist()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
