"""``auto`` over the steps of a run (engine.solvers.auto.RunPlan): APGD from the warm start while it
converges, a step it leaves unconverged retried by the interior-point solver, which then solves the run's
next steps first, and APGD probed again every REPROBE_SOLVES solves.

The 20-voussoir arch stands (a static analysis says so), so a dynamic run of it without loads beyond its
weight must keep it where it is but for the settling of its contact compliance (about 15 um). At h = 0.02 s
with APGD capped at CAP iterations, the first steps stop unconverged and the arch sags by centimetres; auto
solves the first step, from rest, by Newton, and the next ones from its impulses.
"""
import numpy as np
import pytest

import problems
from extrados import Model, analyze, generators
from extrados.engine.solvers import auto
from extrados.engine.solvers.auto import RunPlan

#: APGD's cap: the arch's first steps at h = 0.02 s need more.
CAP = 300
TIME_STEP, DURATION = 0.02, 0.6
#: The dynamic tolerance (engine.tolerance.SOLVER_DEFAULTS.dynamic_tolerance).
TOLERANCE = 1e-5
#: m: the arch's settling on its contact compliance stays well below this.
SETTLING = 1e-4


def arch_run(solver):
    doc = generators.generate("arch", voussoirs=20)
    doc["settings"] = {"solver": solver, "max_iterations": CAP}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": DURATION, "time_step": TIME_STEP})
    document = result.to_dict()
    start, end = (np.array(document["frames"][k]["positions"]) for k in (0, -1))
    return document["solver_steps"], np.abs(end - start).max(), end


def test_a_standing_arch_at_a_large_step_stays_put_where_capped_apgd_lets_it_sag():
    apgd_steps, apgd_drift, _ = arch_run("apgd")
    assert apgd_steps["unconverged_steps"] >= 1 and apgd_drift > 0.01
    steps, drift, end = arch_run("auto")
    assert steps["unconverged_steps"] == 0 and steps["worst_residual"] <= TOLERANCE
    # the first step, from rest, by Newton; from its impulses capped APGD converges (before, from zero it did
    # not, and the interior-point solver took the steps that APGD left unconverged)
    assert steps["solvers"]["newton"] == 1
    assert sum(steps["solvers"].values()) == steps["steps"] == round(DURATION / TIME_STEP)
    assert drift < SETTLING
    interior_steps, _, interior_end = arch_run("interior")
    assert interior_steps["unconverged_steps"] == 0
    assert np.abs(end - interior_end).max() < 0.1 * SETTLING


def warm_start(problem):
    """A start that is not zero (a step with none goes to Newton first: `test_a_step_with_no_warm_start_...`)."""
    return np.tile([1.0, 0.0, 0.0], (problem.n_contacts, 1))


def solves(plan, problem, count):
    return [plan.solve(problem, warm_start(problem), TOLERANCE, 5000) for _ in range(count)]


def test_apgd_takes_the_run_back_at_its_probe_when_it_converges():
    problem = problems.stack().problem
    plan = RunPlan()
    plan.interior_first = True
    reports = solves(plan, problem, auto.REPROBE_SOLVES + 1)
    assert [r.name for r in reports[:-2]] == ["interior"] * (auto.REPROBE_SOLVES - 1)
    probe, after = reports[-2:]
    assert probe.name == "apgd" and probe.converged and probe.first_attempt is None
    assert after.name == "apgd" and not plan.interior_first


def test_a_probe_that_does_not_converge_within_its_cap_is_finished_by_the_interior_point_solver():
    problem = problems.stack().problem
    plan = RunPlan()
    plan.interior_first = True
    plan.solves_since_probe = auto.REPROBE_SOLVES - 1
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(auto, "REPROBE_ITERATIONS", 1)
        report = plan.solve(problem, warm_start(problem), TOLERANCE, 5000)
    assert report.name == "interior" and report.converged
    assert report.first_attempt["name"] == "apgd" and report.first_attempt["iterations"] == 1
    assert not report.first_attempt["converged"] and plan.interior_first


def test_a_named_solver_and_a_static_analysis_get_no_run_plan():
    from extrados.engine.pipeline import SolverSettings

    settings = {"solver": "auto", "max_iterations": 5000}
    assert isinstance(SolverSettings.of(settings, "dynamic").plan, RunPlan)
    assert SolverSettings.of(settings, "static").plan is None
    assert SolverSettings.of(settings, "construction").plan is None
    assert SolverSettings.of({**settings, "solver": "apgd"}, "dynamic").plan is None


def test_a_step_with_no_warm_start_goes_to_newton_where_it_is_cheap():
    """A run's first step from rest has every impulse zero: the static problem's twin, solved by Newton from its
    all-sticking start (engine.solvers.newton, N5) where H factorises cheaply, with the reference's impulses;
    a warm-started step goes to APGD; where Newton is not cheap (auto.NEWTON_WORK) APGD takes the cold step."""
    from extrados.engine.solvers import solve

    problem = problems.random_problem(6, n_bodies=100, n_supports=4, n_contacts=400, equal_tangents=True)
    reference = solve(problem, "reference", tolerance=1e-12).gamma
    cold = RunPlan().solve(problem, np.zeros((problem.n_contacts, 3)), TOLERANCE, 5000)
    assert cold.name == "newton" and cold.converged
    assert np.abs(cold.gamma - reference).max() <= 1e-3 * np.abs(reference).max()
    assert RunPlan().solve(problem, reference, TOLERANCE, 5000).name == "apgd"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(auto, "NEWTON_WORK", 0.0)
        assert RunPlan().solve(problem, None, TOLERANCE, 5000).name == "apgd"
    doc = generators.generate("arch", voussoirs=20)
    steps = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.003, "time_step": 1e-3}).to_dict()
    assert steps["solver_steps"]["solvers"] == {"newton": 1, "apgd": 2}


def test_a_first_step_newton_leaves_unconverged_is_retried_by_the_interior_point_solver():
    """As a static solve is: asked for 1e-14, Newton's steps on the 40-voussoir arch end at their rounding floor
    and APGD, capped at one iteration, finishes them no further; the interior-point solver is tried and the
    better of the two kept, with Newton's attempt recorded."""
    doc = generators.generate("arch", voussoirs=40)
    doc["settings"] = {"max_iterations": 1, "tolerance": 1e-14}
    result = analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 1e-3, "time_step": 1e-3}).to_dict()
    steps, solver = result["solver_steps"], result["solver"]
    assert steps["retried_steps"] == 1 and steps["unconverged_steps"] == 1
    first = solver["first_attempt"]
    assert first["name"] == "newton" and not first["converged"] and solver["residual"] <= first["residual"]
