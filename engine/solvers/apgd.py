"""Accelerated projected gradient descent (APGD) for the CCP of seed 000 eq. 38-40.

The algorithm is Nesterov's accelerated projected gradient with an adaptive Lipschitz estimate
and gradient-based restart as laid out for multibody contact by Mazhar, Heyn, Negrut & Tasora,
"Using Nesterov's method to accelerate multibody dynamics with friction and contact",
ACM Transactions on Graphics 34(3), 2015 (their Algorithm "APGD"). It minimises

    f(gamma) = 1/2 gamma^T N gamma + gamma^T r   over   gamma in Upsilon.          (eq. 39-40)

Optional diagonal preconditioning P = diag(1 / scale_i) (one scalar per contact, so the
projection onto the product of cones stays the Euclidean one): the method then runs in the
metric ||x||_P^2 = x^T P^-1 x, i.e. on z = P^-1/2 gamma with operator P^1/2 N P^1/2.
"""
import time

import numpy as np

from engine.solvers.result import finish

#: Lipschitz estimate multiplier after a rejected step (Mazhar et al. 2015 double it).
LIPSCHITZ_GROWTH = 2.0
#: Lipschitz estimate multiplier after an accepted step: lets the step size grow again (Mazhar et al. 2015).
LIPSCHITZ_DECAY = 0.9


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
        Most iterations (each costs two products with N, more when backtracking).
    record_history : bool
        Keep the residual of every iterate.
    preconditioned : bool
        Scale the gradient per contact by 1 / (trace(N_ii)/3).

    Returns
    -------
    SolverResult
        The best iterate found (smallest residual).
    """
    started = time.perf_counter()
    history = [] if record_history else None
    x = problem.initial_impulse(gamma0)  # (n_c, 3) float64
    if problem.n_contacts == 0:
        return finish(problem, "apgd", x, 0, tolerance, started, history)
    _, scale = problem.diagonal_blocks()
    precondition = (1.0 / scale if preconditioned else np.ones_like(scale))[:, None]  # (n_c, 1) P
    metric = 1.0 / precondition  # (n_c, 1) P^-1, weights of the norm ||.||_P

    # (1) initial Lipschitz estimate L0 = ||A w|| / ||w||, A = P^1/2 N P^1/2, w = ones
    #     (Mazhar et al. use the secant through gamma0 and a vector of ones; the Rayleigh-like
    #     ratio of any nonzero w is a lower bound on the true constant, and backtracking fixes it)
    root = np.sqrt(precondition)
    direction = np.broadcast_to(root, x.shape)
    lipschitz = float(np.linalg.norm(root * problem.apply(direction)) / np.sqrt(x.size))

    gradient_x = problem.gradient(x)
    best, best_residual = x, problem.residual(x, gradient_x)
    y = x.copy()
    theta = 1.0
    iterations = 0
    failed = not np.isfinite(best_residual)
    while iterations < max_iterations and best_residual > tolerance and not failed:
        iterations += 1
        # (2) gradient at the extrapolated point
        gradient_y = problem.gradient(y)
        # (3) projected step x+ = Pi(y - P g / L), backtracking until the quadratic upper bound
        #     f(x+) <= f(y) + g^T d + L/2 ||d||_P^2 holds, d = x+ - y; for a quadratic f this is
        #     exactly d^T N d <= L ||d||_P^2
        while True:
            x_next = problem.project(y - (precondition / lipschitz) * gradient_y)
            step = x_next - y
            product = problem.apply(step)
            curvature = float(np.sum(step * product))
            if not np.isfinite(curvature):
                failed = True
                break
            if curvature <= lipschitz * float(np.sum(metric * step * step)):
                break
            lipschitz *= LIPSCHITZ_GROWTH
        if failed:
            break
        gradient_next = gradient_y + product  # N x+ + r = (N y + r) + N d

        # (4) momentum: theta_{k+1}^2 = (1 - theta_{k+1}) theta_k^2,
        #     beta_{k+1} = theta_k (1 - theta_k) / (theta_k^2 + theta_{k+1})
        theta_next = 0.5 * theta * (np.sqrt(theta * theta + 4.0) - theta)
        beta = theta * (1.0 - theta) / (theta * theta + theta_next)

        # (5) residual and best iterate
        residual = problem.residual(x_next, gradient_next)
        if record_history:
            history.append(residual)
        if not np.isfinite(residual):
            failed = True
            break
        if residual < best_residual:
            best, best_residual = x_next, residual

        # (6) gradient restart (O'Donoghue & Candes): the momentum points uphill
        if float(np.sum(gradient_y * (x_next - x))) > 0.0:
            y = x_next.copy()
            theta_next = 1.0
        else:
            y = x_next + beta * (x_next - x)
        x = x_next
        theta = theta_next
        # (7) let the step grow after success
        lipschitz *= LIPSCHITZ_DECAY
    return finish(problem, "apgd", best, iterations, tolerance, started, history, failed)
