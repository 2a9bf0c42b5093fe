"""The default solver ``auto`` (engine.solvers.auto): APGD, or Newton on a static problem with a narrow band,
and a bounded retry by the interior-point solver (engine.solvers.interior_point) of a solve left unconverged
(a static one, a run's step); a named solver runs alone.

The 40-voussoir arch needs about 1,600 APGD iterations to the static tolerance 1e-7; with the cap at
ITERATION_CAP APGD stops short, and the interior-point method solves it in under 20 of its own iterations.
"""
import jsonschema
import numpy as np
import pytest

import problems
from extrados import Model, analyze, generators
from extrados.engine.io.schema import result_schema
from extrados.engine.solvers import newton, solve
from extrados.engine.solvers.reference import solve_reference

RESULT_SCHEMA = jsonschema.Draft202012Validator(result_schema())
#: Far below what APGD needs on the 40-voussoir arch (about 1,600 iterations).
ITERATION_CAP = 100
#: APGD's cap after Newton's steps: one iteration, where the arch needs about 8 from Newton's rounding floor
#: (1e-6..1e-5, engine.solvers.newton).
NEWTON_FINISH_CAP = 1
#: The static tolerance the analyses ask (engine.tolerance.SOLVER_DEFAULTS.static_tolerance).
STATIC_TOLERANCE = 1e-7


def arch(**settings):
    doc = generators.generate("arch", voussoirs=40)
    doc.setdefault("settings", {}).update({"max_iterations": ITERATION_CAP, **settings})
    return Model.from_dict(doc)


def test_a_static_solve_newton_leaves_unconverged_is_retried_by_the_interior_point_solver():
    """The arch's band is narrow, so ``auto`` runs Newton first; its steps end at their rounding floor above
    1e-7 and APGD, capped at ITERATION_CAP, finishes them no further (engine.solvers.newton)."""
    result = analyze(arch(max_iterations=NEWTON_FINISH_CAP), "static").to_dict()
    solver = result["solver"]
    assert solver["name"] == "interior" and solver["converged"] and solver["residual"] <= STATIC_TOLERANCE
    first = solver["first_attempt"]
    assert first["name"] == "newton" and not first["converged"] and first["residual"] > STATIC_TOLERANCE
    assert solver["iterations"] > first["iterations"] and solver["seconds"] >= first["seconds"]
    assert result["stable"] and result["verdict_by"] == "static"
    RESULT_SCHEMA.validate(result)


def test_a_static_solve_apgd_leaves_unconverged_is_retried_by_the_interior_point_solver():
    """A Newton matrix too costly for Newton (newton.BANDED_WORK and auto.NEWTON_WORK = 0 here): APGD first,
    capped at ITERATION_CAP."""
    from extrados.engine.solvers import auto

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(newton, "BANDED_WORK", 0)
        patch.setattr(auto, "NEWTON_WORK", 0)
        result = analyze(arch(), "static").to_dict()
    solver = result["solver"]
    assert solver["name"] == "interior" and solver["converged"] and solver["residual"] <= STATIC_TOLERANCE
    first = solver["first_attempt"]
    assert first["name"] == "apgd" and first["iterations"] == ITERATION_CAP and not first["converged"]
    assert solver["iterations"] > first["iterations"] and solver["seconds"] >= first["seconds"]
    assert result["stable"] and result["verdict_by"] == "static"
    RESULT_SCHEMA.validate(result)


def test_the_retried_answer_is_the_converged_apgd_answer():
    """The arch's reactions by ``auto`` at the cap (Newton, finished by APGD) and by APGD given all the
    iterations it needs."""
    retried = analyze(arch(), "static")
    patient = analyze(Model.from_dict({**arch().to_dict(), "settings": {"max_iterations": 20000,
                                                                         "solver": "apgd"}}), "static")
    assert patient.to_dict()["solver"]["converged"]
    weight = np.abs(patient.reactions.force[:, 2]).sum()
    assert retried.reactions.force == pytest.approx(patient.reactions.force, abs=1e-5 * weight)


def test_a_named_solver_runs_alone():
    solver = analyze(arch(solver="apgd"), "static").to_dict()["solver"]
    assert solver["name"] == "apgd" and not solver["converged"] and "first_attempt" not in solver


def test_a_dynamic_step_apgd_leaves_unconverged_is_retried_and_the_run_counts_it():
    """The steps of a run go through its RunPlan (engine.solvers.auto; tests/test_run_plan.py): the arch's first
    step at h = 1 ms needs more than ITERATION_CAP APGD iterations."""
    result = analyze(arch(), {"type": "dynamic", "duration": 0.002, "time_step": 0.001}).to_dict()
    solver, steps = result["solver"], result["solver_steps"]
    assert steps["unconverged_steps"] == 0 and steps["retried_steps"] >= 1 and steps["solvers"]["interior"] >= 1
    first = solver.get("first_attempt")
    assert solver["converged"] and (first is None or (first["name"] == "apgd" and not first["converged"]))
    RESULT_SCHEMA.validate(result)


def test_auto_without_retry_is_apgd_and_with_it_agrees_with_the_reference():
    problem = problems.random_problem(2, n_bodies=40, n_supports=4, n_contacts=50)
    plain = solve(problem, "auto", tolerance=1e-10, max_iterations=5)
    assert plain.name == "apgd" and not plain.converged and plain.first_attempt is None
    retried = solve(problem, "auto", tolerance=1e-6, max_iterations=5, retry=True)
    assert retried.converged and retried.name == "interior"
    assert retried.first_attempt["name"] == "apgd" and not retried.first_attempt["converged"]
    reference = solve_reference(problem, tolerance=1e-12)
    scale = np.abs(reference.gamma).max()
    assert np.abs(retried.gamma - reference.gamma).max() <= 1e-4 * scale


def test_the_settle_runs_steps_are_dynamics_and_are_not_retried():
    """The static CCP retries, to the static tolerance; the steps of a settle run (seed 001's kinematic criterion)
    are dynamics: the dynamic tolerance unless the model sets one, solved as one run's steps (a RunPlan)."""
    from extrados.engine.solvers.auto import RunPlan
    from extrados.engine.analysis.static import step_settings
    from extrados.engine.tolerance import SOLVER_DEFAULTS
    model = arch()
    wrench = np.zeros((model.mechanics.n_blocks, 6))
    static, settle = step_settings(model, wrench, 1.0).solver, step_settings(model, wrench, 1e-3, "dynamic").solver
    assert static.retry and static.tolerance == SOLVER_DEFAULTS.static_tolerance
    assert not settle.retry and settle.tolerance == SOLVER_DEFAULTS.dynamic_tolerance
    assert static.plan is None and isinstance(settle.plan, RunPlan)
    chosen = Model.from_dict(dict(model.to_dict(), settings={"tolerance": 1e-9}))
    assert step_settings(chosen, wrench, 1e-3, "dynamic").solver.tolerance == 1e-9


def test_a_load_factor_probe_that_already_shows_a_clear_mechanism_is_not_retried():
    """The arch under 0.4 g sideways collapses (its point speeds after the static step: 7.6 m/s). APGD alone
    (Newton switched off), capped at 1,500 iterations, stops at a residual of about 2e-6: unconverged, with the
    contacts moving at more than PROBE_MOVING of free fall and MOTION_OVER_RESIDUAL times that residual. As a
    load factor's probe the solve is kept (only its verdict is asked); as a static analysis it is retried.
    Capped at 100 iterations (residual about 5e-2) the probe is retried, and so is a probe of the arch under
    its own weight, which stands: its unconverged contacts move at about its residual."""
    from extrados.engine.analysis.static import PROBE_MOVING, solve_static
    from extrados.engine.solvers import auto

    doc = generators.generate("arch", voussoirs=40)
    doc["loads"] = [{"kind": "body_acceleration", "blocks": "all", "acceleration": [0.4 * 9.81, 0.0, 0.0],
                     "live": True}]
    doc["settings"] = {"max_iterations": 1500}
    model = Model.from_dict(doc)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(newton, "BANDED_WORK", 0)
        patch.setattr(auto, "NEWTON_WORK", 0)
        probe, analysis = solve_static(model, 1.0, probe=True), solve_static(model, 1.0)
    kept, retried = probe.outcome.solver, analysis.outcome.solver
    assert kept.name == "apgd" and not kept.converged and kept.first_attempt is None
    assert kept.residual <= PROBE_MOVING / auto.MOTION_OVER_RESIDUAL
    assert retried.name == "interior" and retried.converged and retried.first_attempt["name"] == "apgd"
    assert not probe.stable and not analysis.stable and probe.verdict_by == analysis.verdict_by == "static"
    assert probe.max_point_speed == pytest.approx(analysis.max_point_speed, rel=0.05)
    doc["settings"] = {"max_iterations": 100}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(newton, "BANDED_WORK", 0)
        patch.setattr(auto, "NEWTON_WORK", 0)
        rough = solve_static(Model.from_dict(doc), 1.0, probe=True).outcome.solver
    assert rough.name == "interior" and rough.first_attempt["residual"] > 1e-2
    doc["loads"] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(newton, "BANDED_WORK", 0)
        patch.setattr(auto, "NEWTON_WORK", 0)
        standing = solve_static(Model.from_dict(doc), 1.0, probe=True)
    assert standing.stable and standing.outcome.solver.name == "interior"
    assert standing.outcome.solver.converged and not standing.outcome.solver.first_attempt["converged"]
