"""All solvers agree with the exact conic reference on real problems (stack, arch, wall),
and the regularized solution is unique (seed 000 sec. 2.6).

The problems are one step from rest of h = 1 ms with stiff dry joints: the compliance
E = (h^2 K)^-1 of eq. 43 is then comparable with D^T M^-1 D, so the regularized
solution is well determined and the solvers' answers can be compared tightly.
"""
import numpy as np
import pytest

from extrados import Model, generators
from extrados.engine.contact.assemble import assemble_problem
from extrados.engine.contact.laws import contact_parameters
from extrados.engine.pipeline import detect
from extrados.engine.solvers import solve
from extrados.engine.state import State

#: Joint stiffness (Pa/m) of a stiff dry joint; gives the compliance of seed 000 eq. 43.
STIFFNESS = 1e9
TOLERANCE = 1e-9
TIME_STEP = 1e-3   # s
AGREEMENT = 1e-4   # impulses within this fraction of the largest


def static_problem(name, **params):
    doc = generators.generate(name, **params)
    for joint in doc["joints"].values():
        joint["normal_stiffness"] = STIFFNESS
        joint["shear_stiffness"] = STIFFNESS
    model = Model.from_dict(doc)
    mech = model.mechanics
    state = State.initial(mech)
    contacts = detect(model, state)
    friction, compliance = contact_parameters(model, contacts)
    problem, _, _ = assemble_problem(mech, state, contacts, friction, compliance, mech.dead_wrench, TIME_STEP)
    return problem


PROBLEMS = {
    "stack": lambda: static_problem("column", blocks=5),
    "arch": lambda: static_problem("arch", voussoirs=10, thickness=0.15),
    "wall": lambda: static_problem("wall", courses=3, blocks_per_course=3),
}


@pytest.fixture(scope="module", params=sorted(PROBLEMS))
def problem_and_reference(request):
    problem = PROBLEMS[request.param]()
    reference = solve(problem, "reference", tolerance=1e-12)
    assert reference.converged
    return request.param, problem, reference


@pytest.mark.parametrize("solver", ["apgd", "spg", "pgs", "jacobi", "interior", "newton", "auto"])
def test_solver_agrees_with_reference(problem_and_reference, solver):
    name, problem, reference = problem_and_reference
    result = solve(problem, solver, tolerance=TOLERANCE, max_iterations=200000)
    assert result.converged, f"{solver} on {name}: residual {result.residual:.2e} after {result.iterations}"
    scale = np.abs(reference.gamma).max()
    assert np.abs(result.gamma - reference.gamma).max() < AGREEMENT * scale


def test_regularized_solution_is_unique_from_two_warm_starts():
    problem = PROBLEMS["arch"]()
    rng = np.random.default_rng(7)
    cold = solve(problem, "apgd", tolerance=TOLERANCE, max_iterations=50000)
    scale = np.abs(cold.gamma).max()
    start = problem.project(rng.normal(scale=scale, size=cold.gamma.shape))
    warm = solve(problem, "apgd", gamma0=start, tolerance=TOLERANCE, max_iterations=50000)
    assert cold.converged and warm.converged
    assert np.abs(cold.gamma - warm.gamma).max() < AGREEMENT * scale
