"""One pass of APGD over the contacts: steps (a)-(c) of an iteration, each contact Jacobian read once.

APGD (``engine.solvers.apgd``) runs in the metric of P = diag(p_i). The body velocities
w = M^-1 D gamma are carried with the impulses, so that N gamma + r = D^T w + E gamma + r
(eq. 33, 43). The extrapolation is linear, hence

    y = x_k + beta (x_k - x_{k-1}),   w_y = w_k + beta (w_k - w_{k-1})   (O(n_b)),

and one pass, reading each contact Jacobian once, does all of an iteration:

    (a) gather g_y = D^T w_y + E y + r, step x+ = Pi(y - P g_y / L), d = x+ - y,
    (b) scatter D d per body: d^T N d = (D d)^T M^-1 (D d) + d^T E d for the backtracking test,
        and w_{k+1} = w_y + M^-1 D d,
    (c) every ``apgd.RESIDUAL_INTERVAL`` iterations, gather g_x = D^T w_k + E x_k + r and the
        residual of the current iterate x_k (``Problem.residual``, so a stop is decided one pass
        later).

The textbook form costs two products with N and a dozen (n_c, 3) temporaries per iteration. With
several runs (``Problem.partition``) each pass is ``apgd_pass_parallel``: one thread per run, the
scatter of each run into its own accumulator, summed per body in run order
(``engine.solvers.delassus``).
"""
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from extrados.engine.solvers.cone import project_cohesive_point
from extrados.engine.solvers.delassus import body_velocity_range
from extrados.engine.solvers.residual import natural_map_norm


class PassInputs(NamedTuple):
    """What one pass reads besides the problem: the metric, the extrapolation from x_k and the step."""

    precondition: np.ndarray  # (n_c,) float64, p_i
    metric: np.ndarray  # (n_c,) float64, 1 / p_i
    x: np.ndarray  # (n_c, 3) float64, x_k
    x_prev: np.ndarray  # (n_c, 3) float64, x_{k-1}
    beta: float  # momentum coefficient
    velocity_x: np.ndarray  # (n_b, 6) float64, w_k = M^-1 D x_k
    velocity_y: np.ndarray  # (n_b, 6) float64, w_y
    inverse_lipschitz: float  # 1 / L
    evaluate: bool  # compute the residual term (c) of x_k


class PassOutputs(NamedTuple):
    """Where one pass writes."""

    x_next: np.ndarray  # (n_c, 3) float64, receives x+
    impulse: np.ndarray  # (n_parts, n_b, 6) float64, scratch: D d summed per run and body
    sums: np.ndarray  # (n_parts, 4) float64, the sums of ``apgd_pass_part`` per run
    velocity_step: np.ndarray  # (n_b, 6) float64, receives M^-1 D d


@njit(cache=True)
def apgd_pass_part(problem, inputs, outputs, part, start, stop):
    """Steps (a)-(c) of the module docstring for contacts start..stop-1, run ``part``.

    Parameters
    ----------
    problem : ProblemArrays
        The operator, r, the sets and the residual steps (``Problem.arrays``).
    inputs : PassInputs
        The metric, the extrapolation and the step.
    outputs : PassOutputs
        Receives x+ on the range in ``x_next``, D d summed over the range, per body, in
        ``impulse[part]``, and in ``sums[part]`` ||d||_P^2 = sum_i d_i^T d_i / p_i, d^T E d,
        g_y^T (x+ - x_k) and the largest natural-map term of x_k (m/s; nan if one is not finite;
        0 unless ``inputs.evaluate``).
    part : int
        Run index.
    start, stop : int
        Contact range.
    """
    precondition, metric, x, x_prev, beta, velocity_x, velocity_y, inverse_lipschitz, evaluate = inputs
    jacobian_a = problem.jacobian_a
    jacobian_b = problem.jacobian_b
    compliance = problem.compliance
    rhs = problem.rhs
    impulse = outputs.impulse[part]
    impulse[:] = 0.0
    step_norm = 0.0
    compliance_energy = 0.0
    uphill = 0.0
    largest = 0.0
    finite = True
    for i in range(start, stop):
        a = problem.body_a[i]
        b = problem.body_b[i]
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
            value = natural_map_norm((x[i, 0], x[i, 1], x[i, 2]), (h0, h1, h2), problem.friction[i],
                                     problem.cohesion[i, 0], problem.cohesion[i, 1], problem.residual_step[i])
            if np.isnan(value):
                finite = False
            elif value > largest:
                largest = value
        # (a) projected step x+ = Pi(y - P g / L), d = x+ - y
        scaled = precondition[i] * inverse_lipschitz
        n, u, v = project_cohesive_point(y0 - scaled * g0, y1 - scaled * g1, y2 - scaled * g2, problem.friction[i],
                                         problem.cohesion[i, 0], problem.cohesion[i, 1])
        outputs.x_next[i, 0] = n
        outputs.x_next[i, 1] = u
        outputs.x_next[i, 2] = v
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
    sums = outputs.sums[part]
    sums[0] = step_norm
    sums[1] = compliance_energy
    sums[2] = uphill
    sums[3] = largest if finite else np.nan


@njit(cache=True, parallel=True)
def apgd_pass_parallel(problem, inputs, outputs):
    """One APGD pass with one thread per run of ``Problem.partition``.

    Parameters
    ----------
    problem, inputs, outputs
        As in ``apgd_pass_part``; ``outputs.velocity_step`` receives M^-1 D d.

    Returns
    -------
    float
        (D d)^T M^-1 (D d).
    """
    contact_bounds = problem.contact_bounds
    body_bounds = problem.body_bounds
    n_parts = contact_bounds.shape[0] - 1
    for part in prange(n_parts):
        apgd_pass_part(problem, inputs, outputs, part, contact_bounds[part], contact_bounds[part + 1])
    energy = np.empty(n_parts)  # (n_parts,) float64
    for part in prange(n_parts):
        energy[part] = body_velocity_range(problem, body_bounds[part], body_bounds[part + 1], outputs.impulse,
                                           outputs.velocity_step)
    return energy.sum()


@njit(cache=True)
def apgd_pass(problem, inputs, outputs):
    """Steps (a)-(c) over all contacts: on the calling thread for one run, else ``apgd_pass_parallel``.

    Parameters
    ----------
    problem, inputs, outputs
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
    n_parts = problem.contact_bounds.shape[0] - 1
    if n_parts == 1:
        apgd_pass_part(problem, inputs, outputs, 0, 0, problem.body_a.shape[0])
        energy = body_velocity_range(problem, 0, problem.inverse_mass.shape[0], outputs.impulse, outputs.velocity_step)
    else:
        energy = apgd_pass_parallel(problem, inputs, outputs)
    sums = outputs.sums
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
