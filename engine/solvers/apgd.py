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

One pass over the contacts per iteration. The body velocities w = M^-1 D gamma are carried with
the impulses, so that N gamma + r = D^T w + E gamma + r. The extrapolation is linear, hence

    y = x_k + beta (x_k - x_{k-1}),   w_y = w_k + beta (w_k - w_{k-1})   (O(n_b)),

and one pass, reading each contact Jacobian once, does all of an iteration:

    (a) gather g_y = D^T w_y + E y + r, step x+ = Pi(y - P g_y / L), d = x+ - y,
    (b) scatter D d per body: d^T N d = (D d)^T M^-1 (D d) + d^T E d for the backtracking test,
        and w_{k+1} = w_y + M^-1 D d,
    (c) every ``RESIDUAL_INTERVAL`` iterations, gather g_x = D^T w_k + E x_k + r and the residual
        of the current iterate x_k (``Problem.residual``, so a stop is decided one pass later).

The textbook form costs two products with N and a dozen (n_c, 3) temporaries per iteration. The
carried w drift from M^-1 D x by rounding only (1e-10 relative after 1,000 iterations on 60,000
contacts); a stop is confirmed with ``Problem.residual`` from scratch, and the velocities are
recomputed if it is not confirmed.

The iteration runs in numba. ``apgd_iterate`` does whole iterations, the extrapolation of w, the
passes with their backtracking, momentum and restart, and returns to Python only at the iteration
cap, on non-finite values, or when an evaluated residual reaches the tolerance, for the
confirmation from scratch (then it resumes where it stopped). On the time steps of a wall of 105
blocks (1,140 contacts, about 15 iterations a step, two shared cores) a pass takes 60 us in the
kernel; it took 100-113 us when Python drove every pass, and takes 67-75 us with the fixed costs of
the solve included. With several runs (``Problem.partition``) each pass is ``apgd_pass_parallel``,
and the whole call goes through the thread governor, which times it as one kernel. The final
Lipschitz estimate is reported (``SolverResult.lipschitz``) so that the next time step may start
from it (``lipschitz0``).
"""
import time
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from extrados.engine.solvers.cone import project_cohesive_point
from extrados.engine.solvers.delassus import body_velocity_range
from extrados.engine.solvers.residual import natural_map_norm
from extrados.engine.solvers.result import finish

#: Lipschitz estimate multiplier after a rejected step (Mazhar et al. 2015 double it).
LIPSCHITZ_GROWTH = 2.0
#: Lipschitz estimate multiplier after an accepted step: lets the step size grow again (Mazhar et al. 2015).
LIPSCHITZ_DECAY = 0.9
#: Iterations between residual evaluations (c) when no history is kept. The residual costs a second
#: gather and projection per contact: a pass with it took 1.6 times as long (59,500 contacts, one
#: thread), and evaluating every fourth iterate made that solve 18% faster than evaluating all.
#: Only evaluated iterates are candidates for the stop and the best iterate, so a solve may run up
#: to three iterations longer.
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


@njit(cache=True)
def apgd_pass_part(start, stop, body_a, body_b, jacobian_a, jacobian_b, compliance, rhs, friction, cohesion,
                   residual_step, precondition, metric, x, x_prev, beta, velocity_x, velocity_y, inverse_lipschitz,
                   evaluate, x_next, impulse, sums):
    """Steps (a)-(c) of the module docstring for contacts start..stop-1.

    Parameters
    ----------
    start, stop : int
        Contact range.
    body_a, body_b, jacobian_a, jacobian_b, compliance, rhs, friction, cohesion : arrays
        The problem (see ``Problem``).
    residual_step : (n_c,) float64
        Steps s_i of ``Problem.residual``.
    precondition, metric : (n_c,) float64
        p_i and 1 / p_i.
    x, x_prev : (n_c, 3) float64
        Iterates x_k and x_{k-1}.
    beta : float
        Momentum coefficient.
    velocity_x, velocity_y : (n_b, 6) float64
        w_k = M^-1 D x_k and w_y.
    inverse_lipschitz : float
        1 / L.
    evaluate : bool
        Compute the residual term (c) of x_k.
    x_next : (n_c, 3) float64
        Receives x+ on the range.
    impulse : (n_b, 6) float64
        Overwritten with D d summed over the range, per body.
    sums : (4,) float64
        Receives ||d||_P^2 = sum_i d_i^T d_i / p_i, d^T E d, g_y^T (x+ - x_k) and the largest
        natural-map term of x_k (m/s; nan if one is not finite; 0 unless ``evaluate``).
    """
    impulse[:] = 0.0
    step_norm = 0.0
    compliance_energy = 0.0
    uphill = 0.0
    largest = 0.0
    finite = True
    for i in range(start, stop):
        a = body_a[i]
        b = body_b[i]
        # (a) y = x + beta (x - x_prev) and g_y = D^T w_y + E y + r
        y0 = x[i, 0] + beta * (x[i, 0] - x_prev[i, 0])
        y1 = x[i, 1] + beta * (x[i, 1] - x_prev[i, 1])
        y2 = x[i, 2] + beta * (x[i, 2] - x_prev[i, 2])
        g0 = rhs[i, 0] + compliance[i, 0] * y0
        g1 = rhs[i, 1] + compliance[i, 1] * y1
        g2 = rhs[i, 2] + compliance[i, 2] * y2
        for k in range(6):
            g0 += jacobian_a[i, 0, k] * velocity_y[a, k] + jacobian_b[i, 0, k] * velocity_y[b, k]
            g1 += jacobian_a[i, 1, k] * velocity_y[a, k] + jacobian_b[i, 1, k] * velocity_y[b, k]
            g2 += jacobian_a[i, 2, k] * velocity_y[a, k] + jacobian_b[i, 2, k] * velocity_y[b, k]
        # (c) natural-map term of x_k with g_x = D^T w_k + E x_k + r
        if evaluate:
            h0 = rhs[i, 0] + compliance[i, 0] * x[i, 0]
            h1 = rhs[i, 1] + compliance[i, 1] * x[i, 1]
            h2 = rhs[i, 2] + compliance[i, 2] * x[i, 2]
            for k in range(6):
                h0 += jacobian_a[i, 0, k] * velocity_x[a, k] + jacobian_b[i, 0, k] * velocity_x[b, k]
                h1 += jacobian_a[i, 1, k] * velocity_x[a, k] + jacobian_b[i, 1, k] * velocity_x[b, k]
                h2 += jacobian_a[i, 2, k] * velocity_x[a, k] + jacobian_b[i, 2, k] * velocity_x[b, k]
            value = natural_map_norm(x[i, 0], x[i, 1], x[i, 2], h0, h1, h2, friction[i], cohesion[i, 0],
                                     cohesion[i, 1], residual_step[i])
            if np.isnan(value):
                finite = False
            elif value > largest:
                largest = value
        # (a) projected step x+ = Pi(y - P g / L), d = x+ - y
        scaled = precondition[i] * inverse_lipschitz
        n, u, v = project_cohesive_point(y0 - scaled * g0, y1 - scaled * g1, y2 - scaled * g2, friction[i],
                                         cohesion[i, 0], cohesion[i, 1])
        x_next[i, 0] = n
        x_next[i, 1] = u
        x_next[i, 2] = v
        d0 = n - y0
        d1 = u - y1
        d2 = v - y2
        step_norm += metric[i] * (d0 * d0 + d1 * d1 + d2 * d2)
        compliance_energy += compliance[i, 0] * d0 * d0 + compliance[i, 1] * d1 * d1 + compliance[i, 2] * d2 * d2
        uphill += g0 * (n - x[i, 0]) + g1 * (u - x[i, 1]) + g2 * (v - x[i, 2])
        # (b) D d: J_a^T d to body a, J_b^T d to body b
        for k in range(6):
            impulse[a, k] += jacobian_a[i, 0, k] * d0 + jacobian_a[i, 1, k] * d1 + jacobian_a[i, 2, k] * d2
            impulse[b, k] += jacobian_b[i, 0, k] * d0 + jacobian_b[i, 1, k] * d1 + jacobian_b[i, 2, k] * d2
    sums[0] = step_norm
    sums[1] = compliance_energy
    sums[2] = uphill
    sums[3] = largest if finite else np.nan


@njit(cache=True, parallel=True)
def apgd_pass_parallel(contact_bounds, body_bounds, body_a, body_b, jacobian_a, jacobian_b, inverse_mass,
                       inverse_inertia, compliance, rhs, friction, cohesion, residual_step, precondition, metric, x,
                       x_prev, beta, velocity_x, velocity_y, inverse_lipschitz, evaluate, x_next, impulse, sums,
                       velocity_step):
    """One APGD pass with one thread per run of ``Problem.partition``.

    Parameters
    ----------
    contact_bounds, body_bounds : (n_parts + 1,) int64
        Runs of contacts and of bodies.
    impulse : (n_parts, n_b, 6) float64
        Scratch accumulators of D d.
    sums : (n_parts, 4) float64
        Receives the sums of ``apgd_pass_part`` per run.
    velocity_step : (n_b, 6) float64
        Receives M^-1 D d.
    others
        As in ``apgd_pass_part``.

    Returns
    -------
    float
        (D d)^T M^-1 (D d).
    """
    n_parts = contact_bounds.shape[0] - 1
    for part in prange(n_parts):
        apgd_pass_part(contact_bounds[part], contact_bounds[part + 1], body_a, body_b, jacobian_a, jacobian_b,
                       compliance, rhs, friction, cohesion, residual_step, precondition, metric, x, x_prev, beta,
                       velocity_x, velocity_y, inverse_lipschitz, evaluate, x_next, impulse[part], sums[part])
    energy = np.empty(n_parts)  # (n_parts,) float64
    for part in prange(n_parts):
        energy[part] = body_velocity_range(body_bounds[part], body_bounds[part + 1], impulse, inverse_mass,
                                           inverse_inertia, velocity_step)
    return energy.sum()


@njit(cache=True)
def apgd_pass(contact_bounds, body_bounds, body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia,
              compliance, rhs, friction, cohesion, residual_step, precondition, metric, x, x_prev, beta, velocity_x,
              velocity_y, inverse_lipschitz, evaluate, x_next, impulse, sums, velocity_step):
    """Steps (a)-(c) over all contacts: on the calling thread for one run, else ``apgd_pass_parallel``.

    Parameters
    ----------
    contact_bounds, body_bounds : (n_parts + 1,) int64
        ``Problem.partition``.
    others
        As in ``apgd_pass_parallel``.

    Returns
    -------
    energy : float
        (D d)^T M^-1 (D d), so that d^T N d = energy + d^T E d.
    step_norm, compliance_energy, uphill : float
        The sums of ``apgd_pass_part`` over all runs, in run order.
    largest : float
        The largest natural-map term of x_k (m/s); nan if one is not finite; 0 unless ``evaluate``.
    """
    n_parts = contact_bounds.shape[0] - 1
    if n_parts == 1:
        apgd_pass_part(0, body_a.shape[0], body_a, body_b, jacobian_a, jacobian_b, compliance, rhs, friction,
                       cohesion, residual_step, precondition, metric, x, x_prev, beta, velocity_x, velocity_y,
                       inverse_lipschitz, evaluate, x_next, impulse[0], sums[0])
        energy = body_velocity_range(0, inverse_mass.shape[0], impulse, inverse_mass, inverse_inertia, velocity_step)
    else:
        energy = apgd_pass_parallel(contact_bounds, body_bounds, body_a, body_b, jacobian_a, jacobian_b, inverse_mass,
                                    inverse_inertia, compliance, rhs, friction, cohesion, residual_step, precondition,
                                    metric, x, x_prev, beta, velocity_x, velocity_y, inverse_lipschitz, evaluate,
                                    x_next, impulse, sums, velocity_step)
    step_norm = 0.0
    compliance_energy = 0.0
    uphill = 0.0
    largest = 0.0
    for part in range(n_parts):
        step_norm += sums[part, 0]
        compliance_energy += sums[part, 1]
        uphill += sums[part, 2]
        if np.isnan(sums[part, 3]) or np.isnan(largest):
            largest = np.nan
        elif sums[part, 3] > largest:
            largest = sums[part, 3]
    return energy, step_norm, compliance_energy, uphill, largest


@njit(cache=True)
def apgd_iterate(contact_bounds, body_bounds, body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia,
                 compliance, rhs, friction, cohesion, residual_step, rhs_scale, precondition, metric, tolerance,
                 max_iterations, interval, state, evaluated, best, history):
    """Steps (2)-(7) of APGD, iteration after iteration, until the cap, a stop to confirm or non-finite values.

    Parameters
    ----------
    contact_bounds, body_bounds : (n_parts + 1,) int64
        ``Problem.partition``; with several runs every pass is ``apgd_pass_parallel``.
    body_a ... residual_step
        The problem (see ``Problem``).
    rhs_scale : float
        ``Problem.rhs_scale`` (m/s).
    precondition, metric : (n_c,) float64
        p_i and 1 / p_i.
    tolerance : float
        Residual that stops the iteration.
    max_iterations : int
        Iteration cap, counted with ``state.iterations``.
    interval : int
        Iterations between residual evaluations.
    state : IterationState
        Where the iteration stands; its arrays are used in place.
    evaluated : bool
        The residual of ``state.x`` was evaluated already (resuming after a stop that was not
        confirmed): the first pass only steps.
    best : (n_c, 3) float64
        Receives the evaluated iterate of smallest residual when that improves on
        ``state.best_residual``.
    history : (max_iterations,) or (0,) float64
        Receives the residual of x_k at index k - 1 for k >= 1 when not empty (then ``interval`` is 1).

    Returns
    -------
    stop : int
        ``ITERATION_CAP``, ``STOP_TO_CONFIRM`` or ``NOT_FINITE``.
    state : IterationState
        The state to resume from; after ``STOP_TO_CONFIRM`` iteration ``state.iterations`` is still
        to be done, its residual evaluated.
    """
    iterations, beta, theta, lipschitz, best_residual, x, x_prev, x_next, velocity_x, velocity_prev = state
    n_parts = contact_bounds.shape[0] - 1
    n_bodies = inverse_mass.shape[0]
    impulse = np.empty((n_parts, n_bodies, 6))  # (n_parts, n_b, 6) scratch for D d
    sums = np.empty((n_parts, 4))  # (n_parts, 4) scratch
    velocity_y = np.empty((n_bodies, 6))  # (n_b, 6) w_y
    velocity_step = np.empty((n_bodies, 6))  # (n_b, 6) M^-1 D d
    record = history.shape[0] > 0
    stop = ITERATION_CAP
    while iterations < max_iterations:
        for body in range(n_bodies):
            for k in range(6):
                velocity_y[body, k] = velocity_x[body, k] + beta * (velocity_x[body, k] - velocity_prev[body, k])
        evaluate = iterations % interval == 0 and not evaluated
        evaluated = False
        # (2)-(3) gradient at the extrapolated point and projected step x+ = Pi(y - P g / L),
        #     backtracking until the quadratic upper bound f(x+) <= f(y) + g^T d + L/2 ||d||_P^2
        #     holds, d = x+ - y; for a quadratic f this is exactly d^T N d <= L ||d||_P^2
        while True:
            energy, step_norm, compliance_energy, uphill, largest = apgd_pass(
                contact_bounds, body_bounds, body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia,
                compliance, rhs, friction, cohesion, residual_step, precondition, metric, x, x_prev, beta, velocity_x,
                velocity_y, 1.0 / lipschitz, evaluate, x_next, impulse, sums, velocity_step)
            if evaluate:
                # (5) residual and best iterate, for x_k
                evaluate = False
                residual = largest / rhs_scale
                if record and iterations > 0:
                    history[iterations - 1] = residual
                if not np.isfinite(residual):
                    stop = NOT_FINITE
                    break
                if residual < best_residual:
                    best[:] = x
                    best_residual = residual
                if best_residual <= tolerance:
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


def iterate(problem, precondition, metric, tolerance, max_iterations, interval, state, evaluated, best, history):
    """``apgd_iterate`` on the arrays of ``problem``, through ``Problem.run_parallel`` when it has several runs.

    The governor then times whole runs of iterations, so that its choice of thread count carries
    over from one time step to the next.
    """
    contact_bounds, body_bounds = problem.partition
    arguments = (contact_bounds, body_bounds, problem.body_a, problem.body_b, problem.jacobian_a, problem.jacobian_b,
                 problem.inverse_mass, problem.inverse_inertia, problem.compliance, problem.rhs, problem.friction,
                 problem.cohesion, problem.residual_step, problem.rhs_scale, precondition, metric, float(tolerance),
                 int(max_iterations), interval, state, evaluated, best, history)
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
    started = time.perf_counter()
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
    interval = 1 if record_history else RESIDUAL_INTERVAL
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
        stop, state = iterate(problem, precondition, metric, tolerance, max_iterations, interval, state, evaluated,
                              best, residuals)
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
