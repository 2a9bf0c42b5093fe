"""APGD through a Problem's own methods: for problems whose operator the fused passes of engine.solvers.apgd cannot
read, the deformable blocks' FlexibleProblem (engine.solvers.flexible_problem).

The iteration is that of engine.solvers.apgd (Mazhar, Heyn, Negrut & Tasora, ACM TOG 34(3), 2015): Nesterov's
accelerated projected gradient on f(gamma) = 1/2 gamma^T N gamma + gamma^T r over the sets S_i (seed 000
eq. 39-40), with a backtracked Lipschitz estimate L and gradient restart,

    x_k+1 = Pi(y_k - P g(y_k) / L),   accepted when f(x_k+1) <= f(y_k) + g(y_k)^T d + L/2 ||d||_P^-1^2,
    d = x_k+1 - y_k,  y_k+1 = x_k+1 + beta_k (x_k+1 - x_k),  beta = 0 (restart) where g(y_k)^T (x_k+1 - x_k) > 0,

in the metric of P = diag(1 / scale_i), the scale of the residual (``Problem.diagonal_blocks``). f being
quadratic, the test is d^T N d <= L ||d||_P^-1^2 (as engine.solvers.apgd has it): comparing f's values instead
fails in rounding once the steps are small (near the tolerance the difference of two large objectives is noise,
L doubled to overflow: 399 of the 519 steps of examples/diagonal_compression.py's deformable panel stopped
unconverged). N being linear, g(x_k+1) = g(y_k) + N d and g(y_k+1) = g(x_k+1) + beta_k (g(x_k+1) - g(x_k)): one
product with N per trial step, as SPG's one per iteration. The gradients so carried drift by rounding (a step of
that panel stopped at 1.00001e-6 from scratch against 1e-6), so a stop is confirmed from scratch and the
iteration goes on from fresh gradients where it is not. On the steps of seed 004's small panel at l_c = 0.1
(744-756 contacts; ten problems captured along its loading) it reached 1e-6 in 383-1,252 iterations where SPG
took 1,206-7,578 (benchmarks/seed004_panel_steps.py measures whole steps).
"""
import numpy as np

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.apgd import LIPSCHITZ_DECAY, LIPSCHITZ_GROWTH
from extrados.engine.solvers.result import BestIterate, finish

#: A backtracking that drives L past this (in units of the preconditioned operator, whose diagonal is 1) has met
#: a curvature that is not finite or not positive: the solve stops as failed.
LIPSCHITZ_LIMIT = 1e30


def solve_operator_apgd(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False):
    """Solve the CCP by APGD through ``problem``'s methods (apply, project, residual, diagonal_blocks).

    Parameters
    ----------
    problem : Problem
        Any Problem, a FlexibleProblem among them.
    gamma0 : (n_c, 3) float64, optional
        Warm start; projected onto the sets first. Zero when omitted.
    tolerance : float
        Stop when ``problem.residual`` falls to this value.
    max_iterations : int
        Most accepted steps.
    record_history : bool
        Keep the residual of every iterate.

    Returns
    -------
    SolverResult
        The iterate of smallest residual.
    """
    started = Stopwatch()
    x = problem.initial_impulse(gamma0)                       # (n_c, 3) x_k
    if problem.n_contacts == 0:
        return finish(problem, "apgd", x, 0, tolerance, started, [] if record_history else None)
    precondition = (1.0 / problem.diagonal_blocks()[1])[:, None]   # (n_c, 1) P
    gradient_x = problem.gradient(x)
    y, gradient_y = x, gradient_x
    theta, lipschitz = 1.0, 1.0
    best = BestIterate(x, problem.residual(x, gradient_x), record_history)
    failed = best.failed
    iterations = 0
    while iterations < max_iterations and not failed:
        if best.residual <= tolerance:
            confirmed = problem.residual(best.gamma)          # from scratch: the carried gradients drift
            if confirmed <= tolerance:
                break
            best.residual = confirmed
            gradient_x, gradient_y = problem.gradient(x), problem.gradient(y)
        iterations += 1
        while True:
            x_next = problem.project(y - (precondition / lipschitz) * gradient_y)
            step = x_next - y
            product = problem.apply(step)                                      # N d
            curvature = float(np.sum(step * product))
            if not np.isfinite(curvature):
                failed = True
                break
            if curvature <= lipschitz * float(np.sum(step * step / precondition)):
                break
            lipschitz *= LIPSCHITZ_GROWTH
            if not lipschitz < LIPSCHITZ_LIMIT:
                failed = True
                break
        if failed:
            break
        gradient_next = gradient_y + product
        if not best.offer(x_next, problem.residual(x_next, gradient_next)):
            failed = True
            break
        theta_next = 0.5 * (-theta * theta + theta * np.sqrt(theta * theta + 4.0))
        beta = theta * (1.0 - theta) / (theta * theta + theta_next)
        if float(np.sum(gradient_y * (x_next - x))) > 0.0:   # restart: the momentum points uphill
            beta, theta_next = 0.0, 1.0
        y = x_next + beta * (x_next - x)
        gradient_y = gradient_next + beta * (gradient_next - gradient_x)
        x, gradient_x, theta = x_next, gradient_next, theta_next
        lipschitz *= LIPSCHITZ_DECAY
    return finish(problem, "apgd", best.gamma, iterations, tolerance, started, best.history, failed)
