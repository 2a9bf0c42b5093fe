"""The default solver, ``auto``: APGD, or for a static CCP whose Newton matrix factorises cheaply (arches,
columns, domes, walls of up to some thousands of blocks) the Newton solver (engine.solvers.newton); and for a
static CCP left unconverged a bounded retry with the interior-point solver (engine.solvers.interior_point); over
the steps of a run, a `RunPlan` that retries the same way and keeps the solver that converges.

Newton first. On the 40-voussoir arch the Newton solver, its H factorised by the band Cholesky of
engine.solvers.banded, takes 18 steps and 4 ms to 1e-7, APGD 1,748 iterations and 22 ms (the
20-voussoir: 3 ms and 5 ms; benchmarks/solvers.py, 2026-11-29). Where the band is wide its steps factorise
by the supernodal block Cholesky of engine.solvers.block_cholesky, and Newton runs first while that factor
costs at most ``NEWTON_WORK`` flops: the 289-block dome at 1.05 t_min in 19 steps and 0.04 s against APGD's
0.34 s; compas_dem's 800-block dome with aligned hoops at 0.3-0.32 g sideways (its collapse factor 0.31) in
42-50 steps and 0.5 s; walls of 100-5,000 blocks in 7 steps, 3 times faster than APGD at 1,000 blocks
(0.11 s against 0.32 s) and at 5,000 (1.0 s, 1.5 billion flops a step, against 1,156 iterations and 2.7 s).
Above it APGD, whose passes are matrix-free, is kept.

APGD (engine.solvers.apgd) is the fastest solver per unit of accuracy on the engine's problems: one
matrix-free pass per iteration, and warm starts across the steps of a dynamic run. Its iteration
count grows with the conditioning of hinged, nearly mechanism-like systems, and on some static
problems it stops at its cap above the tolerance (a surveyed wall with open joint gaps: residual
7e-6 after 20,000 iterations; issue 20 reports a 289-block dome near its limit thickness that needed
5,132). The interior-point method slows down less there (15-65 iterations on benchmarks/solvers.py's
cases), but each iteration factorises a KKT matrix: worth it once, for
a static answer, not at every step of a dynamic run. So a static solve that the first attempt does
not finish is solved again by it, when the problem has at most ``interior_point.MAX_CONTACTS`` contacts, and
the result keeps whichever of the two reached the smaller residual, with the first attempt in
``SolverResult.first_attempt``. Naming a solver in the model's settings runs that solver alone.

A load factor's probe asks only whether the structure stands at its factor. Far above the collapse factor
its static CCP is a fast mechanism that neither solver converges tightly in its budget (compas_dem's
800-block dome at 10, 5 and 2.5 times a g sideways: 25-63 s each, half of it the retry, and still
unconverged; their first attempts stop at residuals of 1.5-1.8e-3);
such a probe passes ``moving`` and the retry is skipped when the first attempt's contacts already move at
that fraction of their velocity in free fall and at ``MOTION_OVER_RESIDUAL`` times its residual: a mechanism
either way.

The steps of a run (a dynamic analysis, a settle run) are solved by APGD from the last step's impulses while
it converges: at h = 1 ms a step of the 130-block spandrel wall takes it about 60 iterations. At large steps
APGD stops at its cap (h = 0.02 s: 41 of 50 steps unconverged at 5,000 iterations, 1.0 s a step) where the
interior-point solver converges every step in about 24 iterations and 0.26 s (benchmarks/spandrel_wall.py).
A run's `RunPlan` therefore retries an unconverged step by the interior-point solver, as a static solve is,
and gives the run's next steps to that solver first; every ``REPROBE_SOLVES`` solves it lets APGD try again
with at most ``REPROBE_ITERATIONS`` iterations, and APGD takes the run back when it converges. A step with no
warm start (every impulse zero: a run's first step, from rest) is the static problem's twin, and goes to Newton
first where H factorises cheaply, as a static CCP does (the 1,035-block wall's first step at h = 1 ms: 7 Newton
steps against 1,452 APGD iterations from zero; the first 50 steps of its run 4.4 s against 5.8 s). The choice
rests on convergence and iteration counts, never on the clock, so a run is repeatable.
"""
import dataclasses

import numpy as np

from extrados.engine.solvers import newton
from extrados.engine.solvers.apgd import solve_apgd
from extrados.engine.solvers.interior_point import MAX_CONTACTS, solve_interior

#: Most movable blocks for which the Newton solver is tried (the factor's order and fill are found first,
#: in O(n^2): tens of milliseconds at this size, engine.solvers.block_cholesky.MAX_BODIES).
NEWTON_BLOCKS = 8000
#: flops of a block Cholesky of H (BlockCholesky.flops) up to which a static CCP whose band is wide goes to
#: Newton first: the 5,026-block wall's 1.5 billion (110 ms a factorisation on two cores) is below it.
NEWTON_WORK = 2e9
#: How many times its residual a first attempt's contact velocities must be for `clearly_moving`: unconverged
#: iterates of structures that stand showed contacts moving at 1-2.2 times their residual (compas_dem's 128- and
#: 800-block domes at 0.5 and 0.625 g sideways, capped at 10-3,000 iterations), the 800-block dome's first
#: attempts at 2.5, 5 and 10 g at 33-48 times (residuals 1.5-1.8e-3); the geometric middle.
MOTION_OVER_RESIDUAL = 10.0
#: A run in the interior-point solver's hands lets APGD try again every this many solves ...
REPROBE_SOLVES = 25
#: ... with at most this many iterations: about the time of one interior-point solve of the spandrel wall's
#: step at h = 0.02 s (0.26 s; APGD's iterations there take 0.2 ms), so a probe that fails costs at most
#: one more solve in REPROBE_SOLVES.
REPROBE_ITERATIONS = 1000


def attempt_summary(report):
    """The result document's record of a solve: name, iterations, residual, converged, seconds."""
    return {"name": report.name, "iterations": int(report.iterations), "residual": float(report.residual),
            "converged": bool(report.converged), "seconds": float(report.seconds)}


def newton_space(problem):
    """The Newton solver's BodySpace of a problem whose H factorises cheaply: a narrow band (newton.BANDED_WORK)
    or a block Cholesky of at most ``NEWTON_WORK`` flops; else None."""
    if (np.count_nonzero(problem.inverse_mass) > NEWTON_BLOCKS or problem.n_contacts > newton.MAX_CONTACTS
            or not newton.equal_tangents(problem)):
        return None
    space = newton.BodySpace(problem)
    if space.banded or space.block_cholesky().flops() <= NEWTON_WORK:
        return space
    return None


def first_solve(problem, gamma0, tolerance, max_iterations, record_history, static):
    """The first attempt: Newton (from zero) for a static CCP whose H factorises cheaply, APGD (from ``gamma0``)
    otherwise."""
    space = newton_space(problem) if static else None
    if space is not None:
        # from zero: from the solution under other loads (the analysis cache's start, a bisection's) Newton
        # takes more steps (engine.solvers.newton.WARM_STEPS)
        return newton.solve_newton(problem, tolerance=tolerance, max_iterations=max_iterations,
                                   record_history=record_history, space=space)
    return solve_apgd(problem, gamma0=gamma0, tolerance=tolerance, max_iterations=max_iterations,
                      record_history=record_history)


def clearly_moving(problem, report, moving):
    """Whether the relative contact velocities at the end of the step, D^T (M^-1 k~ + M^-1 D gamma) for
    ``report``'s impulses, reach ``moving`` times the largest of free fall (D^T M^-1 k~) and
    ``MOTION_OVER_RESIDUAL`` times the residual; False when ``moving`` is None or the problem carries no free
    velocity."""
    if moving is None or problem.free_velocity is None:
        return False
    free = problem.free_velocity
    after = np.abs(problem.contact_velocity(free + problem.velocity(report.gamma))).max(initial=0.0)
    scale = np.abs(problem.contact_velocity(free)).max(initial=0.0)
    return bool(after >= moving * scale and after >= MOTION_OVER_RESIDUAL * report.residual * scale)


def solve_auto(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False, retry=False,
               moving=None):
    """Newton or APGD, then, when ``retry`` and it did not converge, the interior-point solver (see the module).

    Parameters
    ----------
    problem : Problem
    gamma0 : (n_c, 3) float64, optional, APGD's start (Newton starts from zero)
    tolerance : float, relative CCP residual
    max_iterations : int, APGD's cap (and that of the interior-point solver's APGD finish)
    record_history : bool, passed to APGD
    retry : bool, a static CCP (engine.pipeline.SolverSettings): Newton first where its band is narrow, and a
        retry of an unconverged solve
    moving : float, optional, no retry when the first attempt is `clearly_moving` at this fraction (a load
        factor's probe)

    Returns
    -------
    SolverResult of the solver kept; after a retry its ``first_attempt`` records the first attempt (Newton's or
    APGD's), and its iterations and seconds are those of both solves
    """
    first = first_solve(problem, gamma0, tolerance, max_iterations, record_history, retry)
    if first.converged or not retry or problem.n_contacts > MAX_CONTACTS or clearly_moving(problem, first, moving):
        return first
    return better_of(first, solve_interior(problem, tolerance=tolerance, max_iterations=max_iterations))


def better_of(first, second):
    """The SolverResult of smaller residual, with the iterations and seconds of both and the first in
    ``first_attempt``."""
    kept = second if second.residual < first.residual else first
    return dataclasses.replace(kept, iterations=first.iterations + second.iterations,
                               seconds=first.seconds + second.seconds, first_attempt=attempt_summary(first))


class RunPlan:
    """``auto`` over the solves of one run (see the module): a solve with no warm start by Newton where it is
    cheap (`cold_newton`), else APGD from the warm start; an unconverged solve retried by the interior-point
    solver, which then solves first; APGD tried again every ``REPROBE_SOLVES`` solves and kept from the first
    one it converges. Problems of more than ``MAX_CONTACTS`` contacts stay with APGD."""

    def __init__(self):
        self.interior_first = False
        self.solves_since_probe = 0

    def solve(self, problem, gamma0, tolerance, max_iterations, record_history=False):
        """SolverResult of ``problem`` from the impulses ``gamma0`` (APGD's start; the interior-point solver
        starts cold); a retried solve keeps the better residual and records its first attempt."""
        if gamma0 is None or not np.any(gamma0):
            cold = self.cold_newton(problem, tolerance, max_iterations)
            if cold is not None:
                return cold if cold.converged else self.retried(problem, cold, tolerance, max_iterations)
        if problem.n_contacts > MAX_CONTACTS:
            return solve_apgd(problem, gamma0=gamma0, tolerance=tolerance, max_iterations=max_iterations,
                              record_history=record_history)
        if self.interior_first:
            self.solves_since_probe += 1
            if self.solves_since_probe < REPROBE_SOLVES:
                return self.interior_then_apgd(problem, gamma0, tolerance, max_iterations, record_history)
            self.solves_since_probe = 0
        cap = min(max_iterations, REPROBE_ITERATIONS) if self.interior_first else max_iterations
        first = solve_apgd(problem, gamma0=gamma0, tolerance=tolerance, max_iterations=cap,
                           record_history=record_history)
        if first.converged:
            self.interior_first = False
            return first
        return self.retried(problem, first, tolerance, max_iterations)

    def retried(self, problem, first, tolerance, max_iterations):
        """``first``, an unconverged solve, retried by the interior-point solver (up to ``MAX_CONTACTS``
        contacts), which solves the run's next steps first if it does better."""
        if problem.n_contacts > MAX_CONTACTS:
            return first
        second = solve_interior(problem, tolerance=tolerance, max_iterations=max_iterations)
        self.interior_first = second.converged or second.residual < first.residual
        return better_of(first, second)

    @staticmethod
    def cold_newton(problem, tolerance, max_iterations):
        """Newton's solve of a step that has no warm start (every impulse zero: a run's first step), where its
        H factorises cheaply (`newton_space`); else None."""
        space = newton_space(problem)
        if space is None:
            return None
        return newton.solve_newton(problem, tolerance=tolerance, max_iterations=max_iterations, space=space)

    def interior_then_apgd(self, problem, gamma0, tolerance, max_iterations, record_history):
        """The interior-point solve; where it does not converge, APGD from ``gamma0`` too, which takes the
        run back when it converges (or, neither converging, ends nearer the solution)."""
        first = solve_interior(problem, tolerance=tolerance, max_iterations=max_iterations)
        if first.converged:
            return first
        second = solve_apgd(problem, gamma0=gamma0, tolerance=tolerance, max_iterations=max_iterations,
                            record_history=record_history)
        self.interior_first = not second.converged and first.residual <= second.residual
        return better_of(first, second)
