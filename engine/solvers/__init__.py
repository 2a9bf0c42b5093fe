"""Cone complementarity solvers (seed 000 sec. 2.4-2.6): every solver sees only a ``Problem``.

All solvers share the signature
``solve_xxx(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False)``
and return a ``SolverResult`` whose residual is ``Problem.residual``, so they can be swapped and
compared on the same problem. Every solver works through ``Problem.project`` (or the projection
kernels of ``engine.solvers.cone``), so cohesive joints (``Problem(..., cohesion=...)``, a cone
shifted by the cohesion and cut off at a tensile cap) are solved by all of them alike.
"""
from extrados.engine.solvers.apgd import solve_apgd
from extrados.engine.solvers.auto import solve_auto
from extrados.engine.solvers.interior_point import solve_interior
from extrados.engine.solvers.jacobi import solve_jacobi
from extrados.engine.solvers.newton import solve_newton
from extrados.engine.solvers.pgs import solve_pgs
from extrados.engine.solvers.problem import Problem
from extrados.engine.solvers.reference import solve_reference
from extrados.engine.solvers.result import SolverResult
from extrados.engine.solvers.spg import solve_spg

#: Solvers by name; ``auto`` is APGD with the retry of engine.solvers.auto.
SOLVERS = {
    "auto": solve_auto,
    "apgd": solve_apgd,
    "spg": solve_spg,
    "pgs": solve_pgs,
    "jacobi": solve_jacobi,
    "reference": solve_reference,
    "interior": solve_interior,
    "newton": solve_newton,
}


def solve(problem, name, **options):
    """Solve ``problem`` with the solver called ``name`` (a key of ``SOLVERS``).

    Parameters
    ----------
    problem : Problem
        The cone complementarity problem.
    name : str
        Solver name.
    **options
        Passed to the solver (gamma0, tolerance, max_iterations, record_history, ...).

    Returns
    -------
    SolverResult

    Raises
    ------
    ValueError
        When ``name`` is not a known solver.
    """
    try:
        solver = SOLVERS[name]
    except KeyError:
        raise ValueError(f"solver: unknown name {name!r}; expected one of {sorted(SOLVERS)}") from None
    return solver(problem, **options)


__all__ = ["Problem", "SolverResult", "SOLVERS", "solve", "solve_apgd", "solve_spg", "solve_pgs", "solve_jacobi",
           "solve_reference", "solve_interior", "solve_auto"]
