"""Accelerated projected gradient descent (APGD) for the CCP of seed 000 eq. 38-40.

The algorithm is Nesterov's accelerated projected gradient with an adaptive Lipschitz estimate
and gradient-based restart as laid out for multibody contact by Mazhar, Heyn, Negrut & Tasora,
"Using Nesterov's method to accelerate multibody dynamics with friction and contact",
ACM Transactions on Graphics 34(3), 2015 (their Algorithm "APGD"). It minimises

    f(gamma) = 1/2 gamma^T N gamma + gamma^T r   over   gamma in Upsilon.          (eq. 39-40)

Preconditioning. P = diag(p_i), one scalar per contact so that the projection onto the product of
cones stays the Euclidean one; the method then runs in the metric ||x||_P^2 = x^T P^-1 x, i.e. on
z = P^-1/2 gamma with operator A = P^1/2 N P^1/2. With p_i = 1 / max_rows R_i, R the bounds on the
absolute row sums of N (``Problem.row_sums``), Gershgorin's theorem gives lambda_max(A) <= 1, and
contacts with few neighbours (top course, wall ends, the ground) take longer steps than under the
mean eigenvalue trace(N_ii)/3 used before. Measured to a residual of 1e-6: 15-16% fewer iterations
on the benchmark walls of 100, 1,000 and 5,000 blocks, -17% to +2% on other walls; to 1e-7 on
arches, columns and stacks -7% to +16%. Where the joints are statically indeterminate (several
contact points per joint, tiny compliance) the solution set is nearly flat and the metric decides
which impulse distribution is returned: it differs from the one of the old scaling, not the
resultants or the velocities.

One pass over the contacts per iteration (``engine.solvers.apgd_pass``): the body velocities
w = M^-1 D gamma are carried with the impulses and extrapolated with them, so that one pass, reading
each contact Jacobian once, does the gather, the projected step, the scatter for the backtracking
test and, every ``RESIDUAL_INTERVAL`` iterations, the residual of x_k. The carried w drift from
M^-1 D x by rounding only (1e-10 relative after 1,000 iterations on 60,000 contacts); a stop is
confirmed with ``Problem.residual`` from scratch, and the velocities are recomputed if it is not
confirmed.

The iteration runs in numba. ``apgd_iterate`` does whole iterations, the extrapolation of w, the
passes with their backtracking, momentum and restart, and returns to Python only at the iteration
cap, on non-finite values, or when an evaluated residual reaches the tolerance, for the
confirmation from scratch (then it resumes where it stopped). On the time steps of a wall of 105
blocks (1,140 contacts, about 15 iterations a step, two shared cores) a pass takes 60 us in the
kernel; it took 100-113 us when Python drove every pass, and takes 67-75 us with the fixed costs of
the solve included. With several runs (``Problem.partition``) each pass is
``apgd_pass.apgd_pass_parallel``, and the whole call goes through the thread governor, which times
it as one kernel. The final Lipschitz estimate is reported (``SolverResult.lipschitz``) so that the
next time step may start from it (``lipschitz0``).
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.apgd_pass import PassInputs, PassOutputs, apgd_pass
from extrados.engine.solvers.result import finish

#: Lipschitz estimate multiplier after a rejected step (Mazhar et al. 2015 double it).
LIPSCHITZ_GROWTH = 2.0
#: Lipschitz estimate multiplier after an accepted step: lets the step size grow again (Mazhar et al. 2015).
LIPSCHITZ_DECAY = 0.9
#: Iterations between residual evaluations (step (c) of ``engine.solvers.apgd_pass``) when no history
#: is kept. The residual costs a second gather and projection per contact: a pass with it took 1.6
#: times as long (59,500 contacts, one thread), and evaluating every fourth iterate made that solve
#: 18% faster than evaluating all. Only evaluated iterates are candidates for the stop and the best
#: iterate, so a solve may run up to three iterations longer.
RESIDUAL_INTERVAL = 4
#: Why ``apgd_iterate`` returned: the iteration cap, an evaluated residual at the tolerance (to be
#: confirmed from scratch), a residual or curvature that is not finite.
ITERATION_CAP, STOP_TO_CONFIRM, NOT_FINITE = 0, 1, 2


class IterationState(NamedTuple):
    """Where the APGD iteration stands between two calls of ``apgd_iterate``."""

    iterations: int  # k, iterations accepted
    beta: float  # momentum coefficient of the next extrapolation
    theta: float  # theta_k of step (4)
    lipschitz: float  # estimate L of the largest eigenvalue of A = P^1/2 N P^1/2
    best_residual: float  # smallest residual evaluated so far
    x: np.ndarray  # (n_c, 3) float64 x_k
    x_prev: np.ndarray  # (n_c, 3) float64 x_{k-1}
    x_next: np.ndarray  # (n_c, 3) float64 scratch for x_{k+1}
    velocity_x: np.ndarray  # (n_b, 6) float64 w_k = M^-1 D x_k
    velocity_prev: np.ndarray  # (n_b, 6) float64 w_{k-1}


class Settings(NamedTuple):
    """What stays fixed through one APGD solve, besides the problem."""

    precondition: np.ndarray  # (n_c,) float64, p_i of P = diag(p_i)
    metric: np.ndarray  # (n_c,) float64, 1 / p_i
    tolerance: float  # residual that stops the iteration
    max_iterations: int  # iteration cap, counted with IterationState.iterations
    interval: int  # iterations between residual evaluations (1 when a history is kept)


@njit(cache=True)
def apgd_iterate(problem, settings, state, evaluated, best, history):
    """Steps (2)-(7) of APGD, iteration after iteration, until the cap, a stop to confirm or non-finite values.

    Parameters
    ----------
    problem : ProblemArrays
        The problem (``Problem.arrays``); with several runs every pass is
        ``apgd_pass.apgd_pass_parallel``.
    settings : Settings
        Metric, tolerance, iteration cap and residual interval.
    state : IterationState
        Where the iteration stands; its arrays are used in place.
    evaluated : bool
        The residual of ``state.x`` was evaluated already (resuming after a stop that was not
        confirmed): the first pass only steps.
    best : (n_c, 3) float64
        Receives the evaluated iterate of smallest residual when that improves on
        ``state.best_residual``.
    history : (max_iterations,) or (0,) float64
        Receives the residual of x_k at index k - 1 for k >= 1 when not empty (then ``settings.interval``
        is 1).

    Returns
    -------
    stop : int
        ``ITERATION_CAP``, ``STOP_TO_CONFIRM`` or ``NOT_FINITE``.
    state : IterationState
        The state to resume from; after ``STOP_TO_CONFIRM`` iteration ``state.iterations`` is still
        to be done, its residual evaluated.
    """
    iterations, beta, theta, lipschitz, best_residual, x, x_prev, x_next, velocity_x, velocity_prev = state
    n_parts = problem.contact_bounds.shape[0] - 1
    n_bodies = problem.inverse_mass.shape[0]
    impulse = np.empty((n_parts, n_bodies, 6))  # (n_parts, n_b, 6) scratch for D d
    sums = np.empty((n_parts, 4))  # (n_parts, 4) scratch
    velocity_y = np.empty((n_bodies, 6))  # (n_b, 6) w_y
    velocity_step = np.empty((n_bodies, 6))  # (n_b, 6) M^-1 D d
    record = history.shape[0] > 0
    stop = ITERATION_CAP
    while iterations < settings.max_iterations:
        for body in range(n_bodies):
            for k in range(6):
                velocity_y[body, k] = velocity_x[body, k] + beta * (velocity_x[body, k] - velocity_prev[body, k])
        evaluate = iterations % settings.interval == 0 and not evaluated
        evaluated = False
        # (2)-(3) gradient at the extrapolated point and projected step x+ = Pi(y - P g / L),
        #     backtracking until the quadratic upper bound f(x+) <= f(y) + g^T d + L/2 ||d||_P^2
        #     holds, d = x+ - y; for a quadratic f this is exactly d^T N d <= L ||d||_P^2
        while True:
            energy, step_norm, compliance_energy, uphill, largest = apgd_pass(
                problem, PassInputs(settings.precondition, settings.metric, x, x_prev, beta, velocity_x, velocity_y,
                                    1.0 / lipschitz, evaluate),
                PassOutputs(x_next, impulse, sums, velocity_step))
            if evaluate:
                # (5) residual and best iterate, for x_k
                evaluate = False
                residual = largest / problem.rhs_scale
                if record and iterations > 0:
                    history[iterations - 1] = residual
                if not np.isfinite(residual):
                    stop = NOT_FINITE
                    break
                if residual < best_residual:
                    best[:] = x
                    best_residual = residual
                if best_residual <= settings.tolerance:
                    stop = STOP_TO_CONFIRM
                    break
            curvature = energy + compliance_energy
            if not np.isfinite(curvature):
                stop = NOT_FINITE
                break
            if curvature <= lipschitz * step_norm:
                break
            lipschitz *= LIPSCHITZ_GROWTH
        if stop != ITERATION_CAP:
            break
        iterations += 1

        # (4) momentum: theta_{k+1}^2 = (1 - theta_{k+1}) theta_k^2,
        #     beta_{k+1} = theta_k (1 - theta_k) / (theta_k^2 + theta_{k+1})
        theta_next = 0.5 * theta * (np.sqrt(theta * theta + 4.0) - theta)
        beta = theta * (1.0 - theta) / (theta * theta + theta_next)
        # (6) gradient restart (O'Donoghue & Candes): the momentum points uphill
        if uphill > 0.0:
            beta = 0.0
            theta_next = 1.0
        x_prev, x, x_next = x, x_next, x_prev
        # w_{k+1} = w_y + M^-1 D d, written over w_{k-1}
        for body in range(n_bodies):
            for k in range(6):
                velocity_prev[body, k] = velocity_y[body, k] + velocity_step[body, k]
        velocity_prev, velocity_x = velocity_x, velocity_prev
        theta = theta_next
        # (7) let the step grow after success
        lipschitz *= LIPSCHITZ_DECAY
    return stop, IterationState(iterations, beta, theta, lipschitz, best_residual, x, x_prev, x_next, velocity_x,
                                velocity_prev)


def initial_lipschitz(problem, precondition):
    """Step (1): the estimate L0 = ||A w|| / ||w|| of the Lipschitz constant, A = P^1/2 N P^1/2, w = ones.

    Mazhar et al. use the secant through gamma0 and a vector of ones; the Rayleigh-like ratio of any
    nonzero w is a lower bound on the true constant, and backtracking fixes it.

    Parameters
    ----------
    problem : Problem
        The problem.
    precondition : (n_c,) float64
        p_i.

    Returns
    -------
    float
        L0 (of A, whose units are those of N times P).
    """
    root = np.ascontiguousarray(np.broadcast_to(np.sqrt(precondition)[:, None], (problem.n_contacts, 3)))
    return scaled_norm(root, problem.apply(root)) / np.sqrt(root.size)


@njit(cache=True)
def scaled_norm(scale, vector):
    """||scale * vector|| (elementwise product) of two (n, 3) arrays, summed in order.

    Not np.linalg.norm: above 10,000 entries it runs OpenBLAS's threaded dot product, whose threads
    took ~8 ms to wake once per solve and then spun on the core the numba passes need (a wall of
    5,860 contacts solved in 27 ms per step instead of 12 ms).
    """
    total = 0.0
    for i in range(vector.shape[0]):
        for k in range(3):
            term = scale[i, k] * vector[i, k]
            total += term * term
    return np.sqrt(total)


def iterate(problem, settings, state, evaluated, best, history):
    """``apgd_iterate`` on the arrays of ``problem``, through ``Problem.run_parallel`` when it has several runs.

    The governor then times whole runs of iterations, so that its choice of thread count carries
    over from one time step to the next.
    """
    arguments = (problem.arrays, settings, state, evaluated, best, history)
    if problem.parallel:
        return problem.run_parallel("apgd", apgd_iterate, *arguments)
    return apgd_iterate(*arguments)


def solve_apgd(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False,
               preconditioned=True, lipschitz0=None):
    """Solve the CCP by Nesterov-accelerated projected gradient with adaptive step and restart.

    Parameters
    ----------
    problem : Problem
        The cone complementarity problem.
    gamma0 : (n_c, 3) float64, optional
        Warm start; projected onto the cones first. Zero when omitted.
    tolerance : float
        Stop when ``problem.residual`` falls to this value.
    max_iterations : int
        Most iterations (each one pass over the contacts, more when backtracking).
    record_history : bool
        Keep the residual of every iterate (then evaluated at every iteration).
    preconditioned : bool
        Scale the gradient per contact by the inverse row-sum bound of ``Problem.row_sums``.
    lipschitz0 : float, optional
        Initial Lipschitz estimate, e.g. ``SolverResult.lipschitz`` of the previous time step;
        the estimate of step (1) when omitted or not positive.

    Returns
    -------
    SolverResult
        The best iterate found (smallest residual among those evaluated), with the final Lipschitz
        estimate.
    """
    started = Stopwatch()
    x = problem.initial_impulse(gamma0)  # (n_c, 3) float64
    if problem.n_contacts == 0 or max_iterations <= 0:
        return finish(problem, "apgd", x, 0, tolerance, started, [] if record_history else None)
    if preconditioned:
        # P^-1 = the largest row bound of each contact (np.maximum: max(axis=1) took 20 times as long)
        bound = problem.row_sums()  # (n_c, 3) float64
        metric = np.maximum(np.maximum(bound[:, 0], bound[:, 1]), bound[:, 2])  # (n_c,) P^-1
    else:
        metric = np.ones(problem.n_contacts)  # (n_c,) P^-1
    precondition = 1.0 / metric  # (n_c,) P
    settings = Settings(precondition, metric, float(tolerance), int(max_iterations),
                        1 if record_history else RESIDUAL_INTERVAL)
    if lipschitz0 is None or not lipschitz0 > 0:
        lipschitz0 = initial_lipschitz(problem, precondition)
    velocity_x = problem.velocity(x)  # (n_b, 6) float64
    state = IterationState(iterations=0, beta=0.0, theta=1.0, lipschitz=float(lipschitz0), best_residual=np.inf, x=x,
                           x_prev=x.copy(), x_next=np.empty_like(x), velocity_x=velocity_x,
                           velocity_prev=velocity_x.copy())
    best = x.copy()  # (n_c, 3) float64
    residuals = np.empty(max_iterations if record_history else 0)  # (max_iterations,) float64 history
    evaluated = converged = False
    while True:
        stop, state = iterate(problem, settings, state, evaluated, best, residuals)
        if stop != STOP_TO_CONFIRM:
            break
        # confirm from scratch; on a miss, resynchronise the carried velocities and go on
        best_residual = problem.residual(best)
        if best_residual <= tolerance:
            converged = True
            break
        state = state._replace(best_residual=best_residual, velocity_x=problem.velocity(state.x),
                               velocity_prev=problem.velocity(state.x_prev))
        evaluated = True
    failed = stop == NOT_FINITE
    if not (failed or converged):
        # the last iterate has not been evaluated yet
        residual = problem.residual(state.x)
        if record_history:
            residuals[state.iterations - 1] = residual
        if residual < state.best_residual:
            best = state.x
        failed = not np.isfinite(residual)
    history = residuals[:state.iterations].tolist() if record_history else None
    return finish(problem, "apgd", best, state.iterations, tolerance, started, history, failed, state.lipschitz,
                  best_residual if converged else None)
