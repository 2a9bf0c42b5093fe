"""What every CCP solver reports: impulses, iterations, residual, convergence, time, history."""
from dataclasses import dataclass

import numpy as np


@dataclass
class SolverResult:
    """Outcome of one CCP solve.

    Attributes
    ----------
    gamma : (n_c, 3) float64
        Impulses (N s) ordered (gamma_n, gamma_u, gamma_v); always finite and in the cones (the cohesive
        sets S_i of ``Problem.cohesion`` where given).
    iterations : int
        Iterations (sweeps for Gauss-Seidel, interior-point steps for the reference).
    residual : float
        ``Problem.residual(gamma)`` recomputed from scratch, so solvers are comparable.
    converged : bool
        True when ``residual <= tolerance`` and nothing went wrong.
    seconds : float
        Wall time of the solve (s), without the time numba spent compiling kernels during it
        (engine.compilation): a first run on a cold kernel cache reports what a later one does.
    history : list of float or None
        Residual after each iteration when asked for.
    name : str
        Solver name, a key of ``engine.solvers.SOLVERS``.
    lipschitz : float or None
        Final Lipschitz estimate of solvers that keep one (APGD), to warm-start the next solve.
    first_attempt : dict or None
        The solve ``auto`` retried (engine.solvers.auto): name, iterations, residual, converged, seconds.
    coulomb_solves : int or None
        CCPs solved by the fixed point of the non-associated flow rule (engine.solvers.coulomb); None without it.
    """

    gamma: np.ndarray
    iterations: int
    residual: float
    converged: bool
    seconds: float
    history: list | None
    name: str
    lipschitz: float | None = None
    first_attempt: dict | None = None
    coulomb_solves: int | None = None


class BestIterate:
    """The fall-back of the iterative solvers (P-SPG-FB's step (5)): the iterate of smallest residual so far, the
    residuals offered when a history is asked for, and whether one of them was not finite."""

    def __init__(self, gamma, residual, record_history=False):
        self.gamma, self.residual = gamma, residual
        self.history = [] if record_history else None
        self.failed = not np.isfinite(residual)

    def offer(self, gamma, residual):
        """Keep ``gamma`` if its ``residual`` is the smallest yet; False (and ``failed``) when it is not finite."""
        if self.history is not None:
            self.history.append(residual)
        if not np.isfinite(residual):
            self.failed = True
            return False
        if residual < self.residual:
            self.gamma, self.residual = gamma, residual
        return True


def finish(problem, name, gamma, iterations, tolerance, started, history, failed=False, lipschitz=None,
           residual=None):
    """Build the SolverResult of an iterate, with its residual computed from scratch.

    Parameters
    ----------
    problem : Problem
        The problem solved.
    name : str
        Solver name.
    gamma : (n_c, 3) float64
        Final iterate; replaced by zero (and reported not converged) if it is not finite.
    iterations : int
        Iterations done.
    tolerance : float
        Residual below which the solve counts as converged.
    started : engine.compilation.Stopwatch
        Made at the start of the solve.
    history : list of float or None
        Residual history.
    failed : bool
        Force ``converged=False`` (e.g. the iteration produced non-finite values).
    lipschitz : float, optional
        Final Lipschitz estimate, reported as is.
    residual : float, optional
        ``problem.residual(gamma)`` when the caller has just computed it from scratch; recomputed
        when omitted.

    Returns
    -------
    SolverResult
    """
    if not np.all(np.isfinite(gamma)):
        gamma = np.zeros((problem.n_contacts, 3))
        failed = True
        residual = None
    if residual is None:
        residual = problem.residual(gamma)
    converged = (not failed) and bool(residual <= tolerance)
    return SolverResult(gamma=gamma, iterations=int(iterations), residual=float(residual), converged=converged,
                        seconds=started.seconds(), history=history, name=name, lipschitz=lipschitz)
