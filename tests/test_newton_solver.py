"""The Newton solver (engine.solvers.newton): its dual (N1)-(N4) checked against finite differences, its
zero against the CCP, a static analysis run with it against APGD's, and ``auto``'s choice of it (static
problems whose H has a narrow band, engine.solvers.auto).

The dual's gradient (N3) is the derivative of Psi (N1) and the Hessian (N4) that of the gradient where the
contact states do not change; where (N3) vanishes the impulses (N2) solve the CCP, which the agreement
tests of tests/test_solvers.py, tests/test_solver_agreement.py and tests/test_cohesive_cone.py check
against the conic reference.
"""
import numpy as np
import pytest

import problems
from extrados import Model, analyze, generators
from extrados.engine.solvers import newton, solve

#: Relative error of central differences of step 1e-6 on Psi and grad Psi (smooth pieces, rounding ~1e-10).
FINITE_DIFFERENCE = 1e-5


def dual_of(problem):
    space = newton.BodySpace(problem)
    return space, newton.Dual(problem, space)


def test_the_gradient_is_the_derivative_of_the_dual():
    problem = problems.random_problem(4, n_bodies=12, n_supports=2, n_contacts=20, equal_tangents=True)
    space, dual = dual_of(problem)
    rng = np.random.default_rng(0)
    w = rng.normal(scale=0.3, size=(space.n_movable, 6))
    direction = rng.normal(size=w.shape)
    dual.evaluate(w)
    gradient, _ = dual.gradient(w)
    step = 1e-6
    slope = (dual.evaluate(w + step * direction) - dual.evaluate(w - step * direction)) / (2 * step)
    assert slope == pytest.approx(float(np.sum(gradient * direction)), rel=FINITE_DIFFERENCE)


def test_the_hessian_is_the_derivative_of_the_gradient():
    problem = problems.random_problem(5, n_bodies=12, n_supports=2, n_contacts=20, equal_tangents=True)
    space, dual = dual_of(problem)
    rng = np.random.default_rng(1)
    w = rng.normal(scale=0.3, size=(space.n_movable, 6))
    direction = rng.normal(size=w.shape)
    dual.evaluate(w)
    hessian = dual.hessian()
    step = 1e-7
    dual.evaluate(w + step * direction)
    plus, _ = dual.gradient(w + step * direction)
    dual.evaluate(w - step * direction)
    minus, _ = dual.gradient(w - step * direction)
    difference = ((plus - minus) / (2 * step)).ravel()
    predicted = hessian @ direction.ravel()
    assert np.abs(difference - predicted).max() <= FINITE_DIFFERENCE * np.abs(predicted).max()


def test_unequal_tangential_compliances_are_refused_with_the_contact():
    problem = problems.random_problem(0)
    with pytest.raises(ValueError, match=r"newton: contact 0 has unequal tangential compliances"):
        solve(problem, "newton")


def test_a_static_arch_solved_by_newton_stands_with_apgds_reactions():
    doc = generators.generate("arch", voussoirs=20)

    def solved_by(name):
        return analyze(Model.from_dict({**doc, "settings": {**doc.get("settings", {}), "solver": name}}), "static")

    by_newton, by_apgd = solved_by("newton"), solved_by("apgd")
    solver = by_newton.to_dict()["solver"]
    assert solver["name"] == "newton" and solver["converged"] and solver["residual"] <= 1e-7
    assert by_newton.stable and by_apgd.stable
    weight = np.abs(by_apgd.reactions.force[:, 2]).sum()
    assert by_newton.reactions.force == pytest.approx(by_apgd.reactions.force, abs=1e-5 * weight)


def test_auto_runs_newton_first_on_a_static_arch_and_apgd_on_its_steps():
    doc = generators.generate("arch", voussoirs=20)
    static = analyze(Model.from_dict(doc), "static").to_dict()["solver"]
    assert static["name"] == "newton" and static["converged"] and "first_attempt" not in static
    dynamic = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.002, "time_step": 0.001})
    assert dynamic.to_dict()["solver"]["name"] == "apgd"


def test_auto_runs_newton_where_the_band_is_wide_but_the_block_factor_is_cheap(monkeypatch):
    """Contacts between random pairs of 100 blocks: reverse Cuthill-McKee finds no narrow band, the block
    Cholesky's order (engine.solvers.block_cholesky) keeps its factor under auto.NEWTON_WORK flops; above
    that limit auto keeps APGD."""
    from extrados.engine.solvers import auto

    problem = problems.random_problem(6, n_bodies=100, n_supports=4, n_contacts=400, equal_tangents=True)
    space = newton.BodySpace(problem)
    assert not space.banded and 0.0 < space.block_cholesky().flops() <= auto.NEWTON_WORK
    result = solve(problem, "auto", tolerance=1e-6, max_iterations=100000, retry=True)
    assert result.name == "newton" and result.converged
    monkeypatch.setattr(auto, "NEWTON_WORK", 0.5 * space.block_cholesky().flops())
    result = solve(problem, "auto", tolerance=1e-6, max_iterations=100000, retry=True)
    assert result.name == "apgd" and result.converged


def test_a_start_at_the_solution_is_kept_and_a_far_one_falls_back_to_zero():
    """From the reference's impulses Newton has little left to do; from a far start it starts again from zero
    (``WARM_STEPS``) and lands on the same impulses."""
    problem = problems.random_problem(7, n_bodies=20, n_supports=2, n_contacts=30, equal_tangents=True)
    reference = solve(problem, "reference", tolerance=1e-12)
    scale = np.abs(reference.gamma).max()
    at_solution = solve(problem, "newton", gamma0=reference.gamma, tolerance=1e-8, max_iterations=100000)
    cold = solve(problem, "newton", tolerance=1e-8, max_iterations=100000)
    far = solve(problem, "newton", gamma0=np.random.default_rng(2).normal(scale=100.0 * scale, size=(30, 3)),
                tolerance=1e-8, max_iterations=100000)
    assert at_solution.converged and cold.converged and far.converged
    assert at_solution.iterations < cold.iterations <= far.iterations
    for result in (at_solution, cold, far):
        assert np.abs(result.gamma - reference.gamma).max() <= 1e-4 * scale


def test_newton_hands_over_after_patience_steps_without_progress(monkeypatch):
    """``newton_steps`` goes on while a step lowers the best residual to PROGRESS times itself within PATIENCE
    steps (the 800-block dome near collapse needs 128); with no step counted as progress it stops at PATIENCE."""
    problem = problems.random_problem(7, n_bodies=20, n_supports=2, n_contacts=30, equal_tangents=True)
    w = np.zeros((newton.BodySpace(problem).n_movable, 6))
    _, free_residual, free_steps = newton.newton_steps(dual_of(problem)[1], w, 1e-14, newton.MAX_NEWTON_STEPS, None)
    monkeypatch.setattr(newton, "PATIENCE", 3)
    monkeypatch.setattr(newton, "PROGRESS", 0.0)
    _, held_residual, held_steps = newton.newton_steps(dual_of(problem)[1], w, 1e-14, newton.MAX_NEWTON_STEPS, None)
    assert held_steps == 3 < free_steps and free_residual < held_residual


def test_the_sticking_start_solves_the_all_sticking_problem():
    """(N5): w of ``sticking_start`` zeroes the gradient of the quadratic Psi with Pi' = 1, M w + D E^-1 (r +
    D^T w) = 0, on a problem whose contacts are not all sticking at the solution."""
    problem = problems.random_problem(4, n_bodies=12, n_supports=2, n_contacts=20, equal_tangents=True)
    space, dual = dual_of(problem)
    w = newton.sticking_start(dual)
    velocity = np.zeros((problem.n_bodies, 6))
    velocity[space.movable] = w
    sticking = -(problem.rhs + problem.contact_velocity(velocity)) / problem.compliance
    gradient, _, scale = newton.dual_gradient(problem.body_a, problem.body_b, problem.jacobian_a, problem.jacobian_b,
                                              sticking, space.index, space.mass_blocks, w)
    assert np.abs(gradient).max() <= 1e-9 * scale


def test_a_stack_under_gravity_is_solved_by_the_sticking_start_alone():
    """Every joint of a column of boxes on the ground is compressed and sticks, so the all-sticking solution
    (N5) is the CCP's (the conic reference's impulses): each joint carries the weight above it, m g h per box,
    a quarter at each corner (less what the joints' compliance lets the boxes keep moving, 0.4 % here)."""
    scene = problems.stack(n_boxes=5)
    problem = scene.problem
    _, dual = dual_of(problem)
    w = newton.sticking_start(dual)
    dual.evaluate(w)
    assert problem.residual(dual.gamma) <= 1e-9
    reference = solve(problem, "reference", tolerance=1e-12).gamma
    weight = scene.mass * problems.GRAVITY * scene.step
    assert np.abs(dual.gamma - reference).max() <= 1e-6 * weight
    above = np.repeat(np.arange(5, 0, -1), 4)                     # boxes above each corner's joint
    assert dual.gamma[:, 0] == pytest.approx(above * weight / 4, rel=5e-3)
    assert np.abs(dual.gamma[:, 1:]).max() <= 1e-9 * weight
