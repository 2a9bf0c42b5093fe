"""The result's "warnings": what a reader must know before trusting its verdict (issue 21).

A verdict (stable, a load factor, a collapse time) that rests on a solve left above its tolerance is
still returned, because the nearly converged answer is usually informative, but it is flagged here in
words a user can act on, so that the CLI, the viewer and the Grasshopper components show the same
text. Each warning is {"code", "message", "path"}: ``path`` names the result field it reads.
"""

#: The analyses whose verdict is one static solve (with the default solver: retried once, engine.solvers.auto).
STATIC_ANALYSES = ("static", "load_factor")


def residual_text(value):
    """A residual as text; a stored result writes a non-finite one as null (strict JSON)."""
    return "not finite" if value is None else f"{value:.3g}"


def unconverged_solve(doc):
    """The warning of a static or load factor result whose (last) static solve did not converge, or None."""
    solver = doc["solver"]
    if doc["analysis"] not in STATIC_ANALYSES or solver["converged"]:
        return None
    retried = solver.get("first_attempt")
    tried = (f"{retried['name']} ({retried['iterations']} iterations, residual "
             f"{residual_text(retried['residual'])}), then {solver['name']}" if retried else solver["name"])
    verdict = "load factor" if doc["analysis"] == "load_factor" else f"verdict (stable: {str(doc['stable']).lower()})"
    decided = doc.get("verdict_by", "static")
    rests = ("rests on an approximate solution" if decided == "static"
             else f"was decided by the {decided} that followed it (verdict_by)")
    return {"code": "unconverged_solve", "path": "solver",
            "message": f"the static solve did not converge: {tried} stopped at residual "
                       f"{residual_text(solver['residual'])}, "
                       f"above the tolerance, after {solver['iterations']} iterations in all; the {verdict} {rests}. "
                       "Raise settings.max_iterations, or loosen settings.tolerance if the residual is close to it"}


def unconverged_steps(doc):
    """The warning of a run (dynamic, construction) some of whose steps did not converge, or None."""
    steps = doc.get("solver_steps")
    if not steps or not steps["unconverged_steps"]:
        return None
    return {"code": "unconverged_steps", "path": "solver_steps",
            "message": f"the solver did not converge in {steps['unconverged_steps']} of {steps['steps']} steps "
                       f"(first at t = {steps['first_unconverged_t']:.4g} s, worst residual "
                       f"{residual_text(steps['worst_residual'])}); the motion after it is approximate. Raise "
                       "settings.max_iterations or shorten the time step"}


def result_warnings(doc):
    """The list of warnings of a result document (empty when it has none)."""
    return [warning for warning in (unconverged_solve(doc), unconverged_steps(doc)) if warning is not None]
