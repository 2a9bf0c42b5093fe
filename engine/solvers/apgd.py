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
"""
import time

import numpy as np
from numba import njit, prange

from engine.solvers.cone import project_cone_point
from engine.solvers.problem import body_velocity_range, natural_map_norm
from engine.solvers.result import finish

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


@njit(cache=True)
def apgd_pass_part(start, stop, body_a, body_b, jacobian_a, jacobian_b, compliance, rhs, friction, residual_step,
                   precondition, metric, x, x_prev, beta, velocity_x, velocity_y, inverse_lipschitz, evaluate,
                   x_next, impulse, sums):
    """Steps (a)-(c) of the module docstring for contacts start..stop-1.

    Parameters
    ----------
    start, stop : int
        Contact range.
    body_a, body_b, jacobian_a, jacobian_b, compliance, rhs, friction : arrays
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
            value = natural_map_norm(x[i, 0], x[i, 1], x[i, 2], h0, h1, h2, friction[i], residual_step[i])
            if np.isnan(value):
                finite = False
            elif value > largest:
                largest = value
        # (a) projected step x+ = Pi(y - P g / L), d = x+ - y
        scaled = precondition[i] * inverse_lipschitz
        n, u, v = project_cone_point(y0 - scaled * g0, y1 - scaled * g1, y2 - scaled * g2, friction[i])
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
                       inverse_inertia, compliance, rhs, friction, residual_step, precondition, metric, x, x_prev,
                       beta, velocity_x, velocity_y, inverse_lipschitz, evaluate, x_next, impulse, sums,
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
                       compliance, rhs, friction, residual_step, precondition, metric, x, x_prev, beta, velocity_x,
                       velocity_y, inverse_lipschitz, evaluate, x_next, impulse[part], sums[part])
    energy = np.empty(n_parts)  # (n_parts,) float64
    for part in prange(n_parts):
        energy[part] = body_velocity_range(body_bounds[part], body_bounds[part + 1], impulse, inverse_mass,
                                           inverse_inertia, velocity_step)
    return energy.sum()


def apgd_pass(problem, precondition, metric, x, x_prev, beta, velocity_x, velocity_y, inverse_lipschitz, evaluate,
              x_next, impulse, sums, velocity_step):
    """Steps (a)-(c) over all contacts: one parallel kernel when the problem has several runs.

    Parameters
    ----------
    problem : Problem
        The problem.
    others
        As in ``apgd_pass_parallel``; ``impulse`` (n_parts, n_b, 6) and ``sums`` (n_parts, 4).

    Returns
    -------
    energy : float
        (D d)^T M^-1 (D d), so that d^T N d = energy + d^T E d.
    sums : (4,) float64
        The sums of ``apgd_pass_part`` over all runs; the largest natural-map term for the last.
    """
    contact_bounds, body_bounds = problem.partition
    operator = (problem.body_a, problem.body_b, problem.jacobian_a, problem.jacobian_b)
    if problem.parallel:
        energy = problem.run_parallel(
            ("apgd", evaluate), apgd_pass_parallel, contact_bounds, body_bounds, *operator, problem.inverse_mass,
            problem.inverse_inertia, problem.compliance, problem.rhs, problem.friction, problem.residual_step,
            precondition, metric, x, x_prev, beta, velocity_x, velocity_y, inverse_lipschitz, evaluate, x_next,
            impulse, sums, velocity_step)
    else:
        apgd_pass_part(0, problem.n_contacts, *operator, problem.compliance, problem.rhs, problem.friction,
                       problem.residual_step, precondition, metric, x, x_prev, beta, velocity_x, velocity_y,
                       inverse_lipschitz, evaluate, x_next, impulse[0], sums[0])
        energy = body_velocity_range(0, problem.n_bodies, impulse, problem.inverse_mass, problem.inverse_inertia,
                                     velocity_step)
    largest = sums[:, 3]
    total = np.array([sums[:, 0].sum(), sums[:, 1].sum(), sums[:, 2].sum(),
                      np.nan if np.isnan(largest).any() else largest.max()])
    return energy, total


def solve_apgd(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False,
               preconditioned=True):
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

    Returns
    -------
    SolverResult
        The best iterate found (smallest residual among those evaluated).
    """
    started = time.perf_counter()
    history = [] if record_history else None
    x = problem.initial_impulse(gamma0)  # (n_c, 3) float64
    if problem.n_contacts == 0 or max_iterations <= 0:
        return finish(problem, "apgd", x, 0, tolerance, started, history)
    metric = problem.row_sums().max(axis=1) if preconditioned else np.ones(problem.n_contacts)  # (n_c,) P^-1
    precondition = 1.0 / metric  # (n_c,) P
    interval = 1 if record_history else RESIDUAL_INTERVAL

    # (1) initial Lipschitz estimate L0 = ||A w|| / ||w||, A = P^1/2 N P^1/2, w = ones
    #     (Mazhar et al. use the secant through gamma0 and a vector of ones; the Rayleigh-like
    #     ratio of any nonzero w is a lower bound on the true constant, and backtracking fixes it)
    root = np.broadcast_to(np.sqrt(precondition)[:, None], x.shape)  # (n_c, 3) P^1/2 w
    lipschitz = float(np.linalg.norm(root * problem.apply(root)) / np.sqrt(x.size))

    n_parts = problem.partition[0].shape[0] - 1
    impulse = np.empty((n_parts, problem.n_bodies, 6))  # (n_parts, n_b, 6) scratch for D d
    sums = np.empty((n_parts, 4))  # (n_parts, 4) scratch
    x_prev = x.copy()  # (n_c, 3) x_{k-1}
    x_next = np.empty_like(x)  # (n_c, 3) x_{k+1}
    velocity_x = problem.velocity(x)  # (n_b, 6) w_k = M^-1 D x_k
    velocity_prev = velocity_x.copy()  # (n_b, 6) w_{k-1}
    velocity_step = np.empty_like(velocity_x)  # (n_b, 6) M^-1 D d
    best, best_residual = x.copy(), np.inf
    beta, theta = 0.0, 1.0
    iterations = 0
    failed = converged = False
    while iterations < max_iterations:
        velocity_y = velocity_x + beta * (velocity_x - velocity_prev)  # (n_b, 6) w_y
        evaluate = iterations % interval == 0
        # (2)-(3) gradient at the extrapolated point and projected step x+ = Pi(y - P g / L),
        #     backtracking until the quadratic upper bound f(x+) <= f(y) + g^T d + L/2 ||d||_P^2
        #     holds, d = x+ - y; for a quadratic f this is exactly d^T N d <= L ||d||_P^2
        while True:
            energy, (step_norm, compliance_energy, uphill, largest) = apgd_pass(
                problem, precondition, metric, x, x_prev, beta, velocity_x, velocity_y, 1.0 / lipschitz, evaluate,
                x_next, impulse, sums, velocity_step)
            if evaluate:
                # (5) residual and best iterate, for x_k
                evaluate = False
                residual = largest / problem.rhs_scale
                if record_history and iterations > 0:
                    history.append(residual)
                if not np.isfinite(residual):
                    failed = True
                    break
                if residual < best_residual:
                    best[:] = x
                    best_residual = residual
                if best_residual <= tolerance:
                    # confirm from scratch; on a miss, resynchronise the carried velocities
                    best_residual = problem.residual(best)
                    if best_residual <= tolerance:
                        converged = True
                        break
                    velocity_x, velocity_prev = problem.velocity(x), problem.velocity(x_prev)
                    velocity_y = velocity_x + beta * (velocity_x - velocity_prev)
                    continue
            curvature = energy + compliance_energy
            if not np.isfinite(curvature):
                failed = True
                break
            if curvature <= lipschitz * step_norm:
                break
            lipschitz *= LIPSCHITZ_GROWTH
        if failed or converged:
            break
        iterations += 1

        # (4) momentum: theta_{k+1}^2 = (1 - theta_{k+1}) theta_k^2,
        #     beta_{k+1} = theta_k (1 - theta_k) / (theta_k^2 + theta_{k+1})
        theta_next = 0.5 * theta * (np.sqrt(theta * theta + 4.0) - theta)
        beta = theta * (1.0 - theta) / (theta * theta + theta_next)
        # (6) gradient restart (O'Donoghue & Candes): the momentum points uphill
        if uphill > 0.0:
            beta, theta_next = 0.0, 1.0
        x_prev, x, x_next = x, x_next, x_prev
        velocity_prev, velocity_x = velocity_x, velocity_y + velocity_step
        theta = theta_next
        # (7) let the step grow after success
        lipschitz *= LIPSCHITZ_DECAY
    if not (failed or converged):
        # the last iterate has not been evaluated yet
        residual = problem.residual(x)
        if record_history:
            history.append(residual)
        if residual < best_residual:
            best, best_residual = x, residual
        failed = not np.isfinite(residual)
    return finish(problem, "apgd", best, iterations, tolerance, started, history, failed)
