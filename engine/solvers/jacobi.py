"""Projected Jacobi for the CCP of seed 000 eq. 38: the Anitescu & Tasora (2010) update, all contacts at once.

    gamma <- Pi(gamma - tau (N gamma + r)),   tau_i = omega eta_i / L,            (J1)

with eta_i = 1 / lambda_max(N_ii) (see ``pgs.block_steps``) and L an upper bound on the largest
eigenvalue of the scaled operator A = eta^1/2 N eta^1/2. (J1) is then a projected gradient step of
size omega / L in the metric of eta^-1, which decreases the objective for omega in (0, 2): the
damping is derived, not guessed.

The bound. With D_i^T = [J_a,i, J_b,i], for any body twists x,
x^T D_i eta_i D_i^T x = eta_i ||J_a x_a + J_b x_b||^2 <= 2 eta_i (||J_a x_a||^2 + ||J_b x_b||^2), so

    D eta D^T <= 2 blockdiag_B(H_B),   H_B = sum_{i touches B} eta_i J_iB^T J_iB   (6 x 6),
    lambda_max(A) <= 2 max_B lambda_max(M_B^-1/2 H_B M_B^-1/2) + max_i eta_i max(E_i).     (J2)
"""

import numpy as np
from numba import njit

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.pgs import block_steps
from extrados.engine.solvers.result import finish


@njit(cache=True)
def body_stiffness_kernel(operator, step):
    """Per-body sums H_B = sum_i eta_i J_iB^T J_iB of eq. (J2).

    Parameters
    ----------
    operator : Operator
        The operator (``Problem.operator``).
    step : (n_c,) float64
        Per-contact steps eta_i.

    Returns
    -------
    (n_b, 6, 6) float64
    """
    stiffness = np.zeros((operator.inverse_mass.shape[0], 6, 6))  # (n_b, 6, 6) float64
    for i in range(operator.body_a.shape[0]):
        for side in range(2):
            body = operator.body_a[i] if side == 0 else operator.body_b[i]
            jacobian = operator.jacobian_a[i] if side == 0 else operator.jacobian_b[i]
            for row in range(6):
                for col in range(6):
                    stiffness[body, row, col] += step[i] * (jacobian[0, row] * jacobian[0, col]
                                                            + jacobian[1, row] * jacobian[1, col]
                                                            + jacobian[2, row] * jacobian[2, col])
    return stiffness


def scaled_lipschitz_bound(problem, step):
    """Upper bound (J2) on lambda_max(eta^1/2 N eta^1/2) for per-contact steps ``step`` (n_c,)."""
    stiffness = body_stiffness_kernel(problem.operator, step)  # (n_b, 6, 6)
    # M_B^-1/2 = blockdiag(sqrt(m^-1) I_3, (I^-1)^1/2), the root from the eigen-decomposition
    values, vectors = np.linalg.eigh(problem.inverse_inertia)  # (n_b, 3), (n_b, 3, 3)
    root = np.zeros((problem.n_bodies, 6, 6))
    root[:, :3, :3] = np.sqrt(problem.inverse_mass)[:, None, None] * np.eye(3)
    root[:, 3:, 3:] = np.einsum("bij,bj,bkj->bik", vectors, np.sqrt(np.clip(values, 0.0, None)), vectors)
    scaled = root @ stiffness @ root  # (n_b, 6, 6) symmetric
    body_bound = np.linalg.eigvalsh(scaled)[:, -1].max() if problem.n_bodies else 0.0
    compliance_bound = float(np.max(step[:, None] * problem.compliance))
    return 2.0 * body_bound + compliance_bound


def solve_jacobi(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False,
                 relaxation=1.0):
    """Solve the CCP by damped projected Jacobi iterations (J1).

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
    relaxation : float
        omega in (0, 2), a multiple of the safe step 1 / L of (J2).

    Returns
    -------
    SolverResult
    """
    if not 0.0 < relaxation < 2.0:
        raise ValueError(f"relaxation: must lie in (0, 2), got {relaxation}")
    started = Stopwatch()
    history = [] if record_history else None
    gamma = problem.initial_impulse(gamma0)  # (n_c, 3) float64
    if problem.n_contacts == 0:
        return finish(problem, "jacobi", gamma, 0, tolerance, started, history)
    step = block_steps(problem)  # (n_c,) float64
    tau = (relaxation / scaled_lipschitz_bound(problem, step) * step)[:, None]  # (n_c, 1)
    gradient = problem.gradient(gamma)
    residual = problem.residual(gamma, gradient)
    iterations = 0
    while iterations < max_iterations and residual > tolerance and np.isfinite(residual):
        iterations += 1
        gamma = problem.project(gamma - tau * gradient)
        gradient = problem.gradient(gamma)
        residual = problem.residual(gamma, gradient)
        if record_history:
            history.append(residual)
    return finish(problem, "jacobi", gamma, iterations, tolerance, started, history,
                  failed=not np.isfinite(residual))
