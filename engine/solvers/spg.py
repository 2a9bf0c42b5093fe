"""P-SPG-FB: preconditioned spectral projected gradient with fall-back (seed 000 sec. 2.4).

The method of Heyn, Anitescu, Tasora & Negrut, "Using Krylov subspace and spectral methods for
solving complementarity problems in many-body contact dynamics simulation", IJNME 95(7), 2013,
built on the non-monotone spectral projected gradient of Birgin, Martinez & Raydan,
"Nonmonotone spectral projected gradient methods on convex sets", SIAM J. Optim. 10(4), 2000
(their SPG2), with the non-monotone line search of Grippo, Lampariello & Lucidi (1986).
It minimises f(gamma) = 1/2 gamma^T N gamma + gamma^T r over gamma in Upsilon (eq. 39-40).

With P = diag(1 / scale_i) (one scalar per contact, so Pi_Upsilon is unchanged) and
g_k = N gamma_k + r, iteration k is

    (1) d_k = Pi(gamma_k - alpha_k P g_k) - gamma_k                 spectral projected direction
    (2) lambda = 1; while f(gamma_k + lambda d_k) > max_{j<M} f(gamma_{k-j}) + sigma lambda g_k^T d_k:
            lambda <- safeguarded quadratic interpolation in [sigma_1 lambda, sigma_2 lambda]
    (3) gamma_{k+1} = gamma_k + lambda d_k                          feasible: a convex combination
    (4) s = gamma_{k+1} - gamma_k, y = g_{k+1} - g_k, Barzilai-Borwein steps in the P metric
            BB1 = s^T P^-1 s / s^T y,   BB2 = s^T y / y^T P y,
        alpha_{k+1} = clip(BB1 on odd k, BB2 on even k; alpha_min, alpha_max)
    (5) fall-back: return the iterate of smallest residual.

Alternating the two BB steps (Dai & Fletcher, "Projected Barzilai-Borwein methods for large-scale
box-constrained quadratic programming", Numer. Math. 100, 2005) instead of BB1 alone: on a column of
50 blocks BB1 alone needs ~15000 iterations to reach a residual of 1e-8, the alternation ~800.

f is quadratic, so along d_k: f(gamma + lambda d) = f + lambda g^T d + lambda^2/2 d^T N d, one product
N d_k per iteration gives the line search, the new gradient g + lambda N d and both BB steps
(BB1 = ||d||_P^2 / d^T N d and BB2 = d^T N d / (N d)^T P (N d), independent of lambda).
"""
from collections import deque

import numpy as np

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.result import BestIterate, finish

#: Non-monotone memory M: compare with the largest of the last M objective values (BMR 2000: 10).
MEMORY = 10
#: Sufficient decrease parameter sigma of the Armijo-type test (BMR 2000: 1e-4).
SUFFICIENT_DECREASE = 1e-4
#: Safeguard interval [sigma_1, sigma_2] for the interpolated step, as fractions of the last one (BMR 2000).
INTERPOLATION_BOUNDS = (0.1, 0.9)
#: Safeguards [alpha_min, alpha_max] on the spectral step, in units of the preconditioned problem (BMR 2000).
SPECTRAL_STEP_BOUNDS = (1e-10, 1e10)


def solve_spg(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False):
    """Solve the CCP by preconditioned non-monotone spectral projected gradient with fall-back.

    Parameters
    ----------
    problem : Problem
        The cone complementarity problem.
    gamma0 : (n_c, 3) float64, optional
        Warm start; projected onto the cones first. Zero when omitted.
    tolerance : float
        Stop when ``problem.residual`` falls to this value.
    max_iterations : int
        Most iterations (one product with N each).
    record_history : bool
        Keep the residual of every iterate.

    Returns
    -------
    SolverResult
        The best iterate found (smallest residual).
    """
    started = Stopwatch()
    gamma = problem.initial_impulse(gamma0)  # (n_c, 3) float64
    if problem.n_contacts == 0:
        return finish(problem, "spg", gamma, 0, tolerance, started, [] if record_history else None)
    _, scale = problem.diagonal_blocks()
    precondition = (1.0 / scale)[:, None]  # (n_c, 1) P
    metric = scale[:, None]  # (n_c, 1) P^-1
    alpha_min, alpha_max = SPECTRAL_STEP_BOUNDS
    lower, upper = INTERPOLATION_BOUNDS

    gradient = problem.gradient(gamma)
    objective = 0.5 * float(np.sum(gamma * (gradient + problem.rhs)))  # f = 1/2 gamma^T N gamma + gamma^T r
    recent = deque([objective], maxlen=MEMORY)
    best = BestIterate(gamma, problem.residual(gamma, gradient), record_history)
    # alpha = 1 is the Jacobi-like step of the preconditioned problem
    alpha = 1.0
    iterations = 0
    failed = best.failed
    while iterations < max_iterations and best.residual > tolerance and not failed:
        iterations += 1
        # (1) spectral projected direction
        direction = problem.project(gamma - (alpha * precondition) * gradient) - gamma
        slope = float(np.sum(gradient * direction))  # g^T d <= -||d||_P^2 / alpha < 0 unless d = 0
        product = problem.apply(direction)
        curvature = float(np.sum(direction * product))  # d^T N d
        if not np.isfinite(curvature):
            failed = True
            break

        # (2) non-monotone line search along the exact quadratic. Near the solution ||d||^2 / alpha
        #     falls below the rounding of g^T d (about eps |g| |gamma|) and the sign of the slope is
        #     noise: the objective is flat to machine precision, so the spectral step is taken whole
        #     and the fall-back (5) guards against a bad one.
        step = 1.0
        if slope < 0.0:
            excess = max(recent) - objective  # >= 0: the non-monotone allowance
            while step * slope + 0.5 * step * step * curvature > excess + SUFFICIENT_DECREASE * step * slope:
                # minimiser of the quadratic through f(0), f'(0) and f(step) is -g^T d / d^T N d
                interpolated = -slope / curvature
                step = interpolated if lower * step <= interpolated <= upper * step else 0.5 * step

        # (3) accept
        gamma = gamma + step * direction
        objective += step * slope + 0.5 * step * step * curvature
        gradient = gradient + step * product
        recent.append(objective)

        # (4) alternating Barzilai-Borwein step (s = step d, y = step N d)
        if curvature > 0.0:
            if iterations % 2:
                alpha = float(np.sum(metric * direction * direction)) / curvature  # BB1 ||d||_P^2 / d^T N d
            else:
                alpha = curvature / float(np.sum(precondition * product * product))  # BB2 d^T N d / ||N d||_P^-1^2
        else:
            alpha = alpha_max
        alpha = min(alpha_max, max(alpha_min, alpha))

        # (5) fall-back bookkeeping
        if not best.offer(gamma, problem.residual(gamma, gradient)):
            failed = True
            break
    return finish(problem, "spg", best.gamma, iterations, tolerance, started, best.history, failed)
