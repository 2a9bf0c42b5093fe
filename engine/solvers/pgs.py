"""Projected Gauss-Seidel (PGS) for the CCP of seed 000 eq. 38.

The fixed-point iteration of Anitescu & Tasora, "An iterative approach for cone complementarity
problems for nonsmooth dynamics", Comput. Optim. Appl. 47(2), 2010, swept contact by contact:

    gamma_i <- lambda Pi_i(gamma_i - omega eta_i (N gamma + r)_i) + (1 - lambda) gamma_i,

with over-relaxation omega, smoothing lambda in (0, 1] and the block step eta_i = 1 / lambda_max(N_ii).
Each update is one projected-gradient step on the objective restricted to contact i, so with
omega in (0, 2) it never increases f(gamma) = 1/2 gamma^T N gamma + gamma^T r (block coordinate
descent). A per-body accumulator w = M^-1 D gamma is kept current while sweeping, so that

    (N gamma + r)_i = J_a,i w_a + J_b,i w_b + E_i gamma_i + r_i                   (eq. 33, 43)

costs O(1) per contact and a sweep costs O(n_c + n_b). The whole iteration, sweeps and the residual
check after each, runs inside one numba kernel.

Gauss-Seidel stalls on long chains of contacts such as columns (seed 000 sec. 2.4): the
self-equilibrated impulses of over-constrained joints are pinned only by the compliance E and
converge at a rate of about E / lambda(N_ii) per sweep.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.cone import project_cohesive_point
from extrados.engine.solvers.delassus import body_velocity_kernel, contact_velocity_kernel
from extrados.engine.solvers.residual import natural_residual_kernel
from extrados.engine.solvers.result import finish


class Sweep(NamedTuple):
    """The steps of a projected Gauss-Seidel sweep (the update of the module docstring)."""

    block_step: np.ndarray  # (n_c,) float64, eta_i = 1 / lambda_max(N_ii) (kg/s)
    relaxation: float  # over-relaxation omega in (0, 2)
    smoothing: float  # smoothing lambda in (0, 1]


@njit(cache=True)
def gauss_seidel_sweep(problem, sweep, gamma, body_velocity):
    """One projected Gauss-Seidel sweep over all contacts, in place.

    Parameters
    ----------
    problem : ProblemArrays
        The operator, r and the sets (``Problem.arrays``).
    sweep : Sweep
        Block steps, over-relaxation and smoothing.
    gamma : (n_c, 3) float64
        Impulses, updated in place.
    body_velocity : (n_b, 6) float64
        Accumulator M^-1 D gamma, updated in place to stay consistent with ``gamma``.
    """
    step, relaxation, smoothing = sweep
    jacobian_a = problem.jacobian_a
    jacobian_b = problem.jacobian_b
    inverse_inertia = problem.inverse_inertia
    for i in range(gamma.shape[0]):
        a = problem.body_a[i]
        b = problem.body_b[i]
        # (1) local velocity u_i = (N gamma + r)_i from the accumulator
        trial = np.empty(3)
        for row in range(3):
            u = problem.rhs[i, row] + problem.compliance[i, row] * gamma[i, row]
            for k in range(6):
                u += jacobian_a[i, row, k] * body_velocity[a, k] + jacobian_b[i, row, k] * body_velocity[b, k]
            trial[row] = gamma[i, row] - relaxation * step[i] * u
        # (2) projected, smoothed update
        n, tu, tv = project_cohesive_point(trial[0], trial[1], trial[2], problem.friction[i], problem.cohesion[i, 0],
                                           problem.cohesion[i, 1])
        change = np.empty(3)
        change[0] = smoothing * (n - gamma[i, 0])
        change[1] = smoothing * (tu - gamma[i, 1])
        change[2] = smoothing * (tv - gamma[i, 2])
        for row in range(3):
            gamma[i, row] += change[row]
        # (3) keep w = M^-1 D gamma: w_X += M_X^-1 J_X^T change for X = a, b
        for side in range(2):
            body = a if side == 0 else b
            jacobian = jacobian_a[i] if side == 0 else jacobian_b[i]
            impulse = np.zeros(6)
            for k in range(6):
                impulse[k] = jacobian[0, k] * change[0] + jacobian[1, k] * change[1] + jacobian[2, k] * change[2]
            for k in range(3):
                body_velocity[body, k] += problem.inverse_mass[body] * impulse[k]
                body_velocity[body, 3 + k] += (inverse_inertia[body, k, 0] * impulse[3]
                                               + inverse_inertia[body, k, 1] * impulse[4]
                                               + inverse_inertia[body, k, 2] * impulse[5])


@njit(cache=True)
def gauss_seidel_iterate(problem, sweep, tolerance, max_sweeps, gamma, history):
    """Sweep until the residual of ``Problem.residual`` reaches ``tolerance`` or ``max_sweeps`` run out.

    Parameters
    ----------
    problem : ProblemArrays
        The problem (``Problem.arrays``), whose residual is that of ``Problem.residual``.
    sweep : Sweep
        As in ``gauss_seidel_sweep``.
    tolerance : float
        Target residual.
    max_sweeps : int
        Most sweeps.
    gamma : (n_c, 3) float64
        Impulses, updated in place.
    history : (max_sweeps,) or (0,) float64
        Receives the residual after each sweep when long enough.

    Returns
    -------
    sweeps : int
        Sweeps done.
    residual : float
        Residual after the last sweep (nan if the iteration broke down).
    """
    n_contacts = gamma.shape[0]
    body_velocity = body_velocity_kernel(problem, gamma)
    sweeps = 0
    while True:
        gradient = contact_velocity_kernel(problem, body_velocity)
        for i in range(n_contacts):
            for row in range(3):
                gradient[i, row] += problem.compliance[i, row] * gamma[i, row] + problem.rhs[i, row]
        residual = natural_residual_kernel(gamma, gradient, problem.friction, problem.cohesion,
                                           problem.residual_step) / problem.rhs_scale
        if sweeps > 0 and sweeps <= history.shape[0]:
            history[sweeps - 1] = residual
        if not residual > tolerance or sweeps >= max_sweeps:
            return sweeps, residual
        sweeps += 1
        # fresh accumulator each sweep: no drift from incremental updates
        body_velocity = body_velocity_kernel(problem, gamma)
        gauss_seidel_sweep(problem, sweep, gamma, body_velocity)


def block_steps(problem):
    """Block steps eta_i = 1 / lambda_max(N_ii) (kg/s), the largest safe single-contact step.

    A projected-gradient step of size omega eta_i on contact i alone decreases the objective for
    omega in (0, 2), whatever the shape of N_ii.

    Returns
    -------
    (n_c,) float64
    """
    blocks, _ = problem.diagonal_blocks()
    if problem.n_contacts == 0:
        return np.zeros(0)
    return 1.0 / np.linalg.eigvalsh(blocks)[:, -1]


def solve_pgs(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False,
              relaxation=1.0, smoothing=1.0):
    """Solve the CCP by projected Gauss-Seidel sweeps.

    Parameters
    ----------
    problem : Problem
        The cone complementarity problem.
    gamma0 : (n_c, 3) float64, optional
        Warm start; projected onto the cones first. Zero when omitted.
    tolerance : float
        Stop when ``problem.residual`` falls to this value (checked after each sweep).
    max_iterations : int
        Most sweeps.
    record_history : bool
        Keep the residual after every sweep.
    relaxation : float
        Over-relaxation omega in (0, 2).
    smoothing : float
        Smoothing lambda in (0, 1]; 1 disables it.

    Returns
    -------
    SolverResult
    """
    if not 0.0 < relaxation < 2.0:
        raise ValueError(f"relaxation: must lie in (0, 2), got {relaxation}")
    if not 0.0 < smoothing <= 1.0:
        raise ValueError(f"smoothing: must lie in (0, 1], got {smoothing}")
    started = Stopwatch()
    gamma = problem.initial_impulse(gamma0)  # (n_c, 3) float64
    history = np.zeros(max_iterations if record_history else 0)  # (max_iterations,) float64
    sweep = Sweep(block_steps(problem), float(relaxation), float(smoothing))
    sweeps, residual = gauss_seidel_iterate(problem.arrays, sweep, float(tolerance), int(max_iterations), gamma,
                                            history)
    return finish(problem, "pgs", gamma, sweeps, tolerance, started,
                  history[:sweeps].tolist() if record_history else None, failed=not np.isfinite(residual))
