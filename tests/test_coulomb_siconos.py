"""Our Coulomb friction (flow_rule non_associated, engine.solvers.coulomb) against Siconos' fc3d solvers.

Exported steps (W, q, mu of benchmarks/solvers.py's export) are solved by Siconos' nonsmooth Newton on
Alart-Curnier's function (NSN_AC, the reference solver of the fc3d family) under Debian's python3-siconos
(tests/siconos_setup.py installs it; tests/siconos_peer.py runs it), and each side's answer is checked in the
other's measure of the Coulomb problem. The associated CCP of seed 000 (eq. 38) is checked too: it solves a
different problem, and Siconos' measure says so.
"""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from blocks import box_block, document, ground
from siconos_setup import INSTALL_COMMAND, siconos_python

from extrados.engine.solvers import solve
from extrados.engine.solvers.coulomb import dilatancy_shift, shifted_problem, solve_coulomb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import solvers as bench  # noqa: E402  benchmarks/solvers.py: its step cases and export

PEER = Path(__file__).resolve().parent / "siconos_peer.py"
#: Our fixed point's tolerance on the shift, and the inner CCPs' (Problem.residual).
TOLERANCE, CCP_TOLERANCE = 1e-8, 1e-10


@pytest.fixture(scope="module")
def peer():
    python = siconos_python()
    if python is None:
        pytest.fail(f"Siconos is not installed for the system Python; run: {INSTALL_COMMAND}")
    return python


def ours(problem):
    return solve_coulomb(problem, lambda shifted, start: solve(shifted, "newton", gamma0=start, tolerance=CCP_TOLERANCE,
                                                                max_iterations=20000), None, TOLERANCE)


def siconos_answer(peer, case, folder):
    bench.export_problem(case, folder)
    answer = folder / "answer.npz"
    subprocess.run([peer, str(PEER), "solve", str(folder / f"{case.name}.npz"), str(answer)], check=True, timeout=600)
    data = np.load(answer)
    assert int(data["info"]) == 0, f"Siconos NSN_AC did not converge: error {float(data['error'])}"
    return data["reaction"].reshape(-1, 3)


def siconos_error(peer, case, folder, gamma):
    np.save(folder / "gamma.npy", gamma.ravel())
    done = subprocess.run([peer, str(PEER), "error", str(folder / f"{case.name}.npz"), str(folder / "gamma.npy")],
                          check=True, capture_output=True, text=True, timeout=600)
    return float(done.stdout)


def coulomb_residual(problem, gamma):
    """Our measure of the Coulomb problem at gamma: the CCP residual with the shift gamma itself implies."""
    return shifted_problem(problem, dilatancy_shift(problem, gamma)).residual(gamma)


def relative(a, b):
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def sliding_cube_step():
    """The second step of seed 001's sliding cube (tests/test_flow_rule.py): it slides at ~1 m/s on the ground."""
    doc = document([ground(), box_block("cube", (-0.5, -0.5, 0.0), (0.5, 0.5, 1.0))], friction=0.8, density=2500.0,
                   settings={"flow_rule": "non_associated"})
    doc["support_motion"] = {"kind": "velocity", "velocity": [-1.0, 0.0, 0.0]}
    return bench.moving_case("cube", doc, 1e-3, 1)


def test_a_sliding_cube_step_is_siconos_coulomb_solution(peer, tmp_path):
    case = sliding_cube_step()
    reference = siconos_answer(peer, case, tmp_path)
    mine = ours(case.problem)
    assert mine.converged
    assert relative(mine.gamma, reference) < 1e-6
    assert siconos_error(peer, case, tmp_path, mine.gamma) < 1e-9
    ccp = solve(case.problem, "newton", tolerance=CCP_TOLERANCE, max_iterations=20000).gamma
    assert siconos_error(peer, case, tmp_path, ccp) > 1e-5  # 8e-4 measured: the associated CCP answers another problem


def test_a_collapse_step_of_the_wall_over_a_gap_solves_siconos_problem(peer, tmp_path):
    """A step of 2 m high wall over a gap as it starts to fall (most of its 672 contacts slide). Each answer
    solves the other's problem to round-off; they differ by about 1 % (measured 0.97 %): the Coulomb problem
    with many sliding contacts has more than one solution, where the associated CCP (strictly convex with the
    compliance) has one, 54 % away."""
    case = bench.wall_gap_case(quick=True)
    reference = siconos_answer(peer, case, tmp_path)
    mine = ours(case.problem)
    assert mine.converged, mine.residual
    assert siconos_error(peer, case, tmp_path, mine.gamma) < 1e-9
    assert coulomb_residual(case.problem, reference) < 1e-8
    assert relative(mine.gamma, reference) < 0.03
    assert relative(case.problem.velocity(mine.gamma), case.problem.velocity(reference)) < 0.03
    ccp = solve(case.problem, "newton", tolerance=CCP_TOLERANCE, max_iterations=20000).gamma
    assert siconos_error(peer, case, tmp_path, ccp) > 1e-5  # 7e-5 measured: 10^4 times the bound on ours
    assert relative(ccp, reference) > 0.2
