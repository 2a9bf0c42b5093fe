"""The CCP by an interior-point method in body space (Clarabel), finished by APGD: the stronger solver
a hard static problem is retried with.

Seed 000 eq. 39-40 minimise 1/2 gamma^T N gamma + gamma^T r over the product of cones, with
N = D^T M^-1 D + E (eq. 33, 43). The reference solver (engine.solvers.reference) hands Clarabel N
itself; N couples every pair of contacts on a common block, so a block with 40 contact points puts
3,600 entries in it per neighbour, and on a surveyed wall of 131 blocks and 2,595 contacts N had
1.7 million entries and Clarabel took 20 s. Here the body velocities w = M^-1 D gamma are unknowns
of their own, which gives the same minimum with sparse data:

    min 1/2 w^T M w + 1/2 gamma^T E gamma + r^T gamma
    s.t. w - M^-1 D gamma = 0,   gamma_i in K_i,                                      (IP1)

since w^T M w = gamma^T D^T M^-1 D gamma on the constraint (a support's rows of M^-1 are zero, so its
w is 0 and it gets no mass term). D has 12 entries per contact row and M is block diagonal, so the
KKT matrix Clarabel factorises grows with the contacts, not with their square: the same wall
solved in 1.1 s (33 interior-point iterations).

Scaling. gamma = s_g x_g with s_g = ||r||_inf / mean(diag N) as in the reference, w = s_w x_w with
s_w = ||r||_inf (a velocity), and the objective divided by s_g ||r||_inf, so that the data are of
order one: P = blockdiag(M mean(diag N), E / mean(diag N)), q = (0, r / ||r||_inf), and the equality
x_w - (s_g / s_w) M^-1 D x_g = 0.

Finish. An interior-point solution is interior: on contacts that slide or barely touch it leaves
natural-map residuals (``Problem.residual``) of 1e-6..1e-5 where the engine asks 1e-7, and the
semismooth Newton polish of the reference did not lower them on the surveyed wall. APGD started
from that point converges in tens to hundreds of iterations (560 on the surveyed wall, where APGD
from zero had not converged after 20,000): the interior point has already fixed the slow, nearly
singular directions of hinged masonry that make APGD from zero take thousands.
"""
import clarabel
import numpy as np
from scipy import sparse

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.apgd import solve_apgd
from extrados.engine.solvers.reference import (clarabel_settings, cone_constraints, contact_jacobian_matrix,
                                               inverse_mass_matrix, refuse_above)
from extrados.engine.solvers.result import finish

#: Largest problem solved: the KKT factorisation grows with the contacts (1.1 s at 2,595 contacts of
#: 131 blocks); beyond this the retry of a static solve is not attempted.
MAX_CONTACTS = 20000
#: Clarabel's gap and feasibility tolerances (relative): tight, the finish then needs few iterations.
INTERIOR_POINT_TOLERANCE = 1e-10
#: Clarabel's iteration cap (it takes 15-45 on the engine's problems).
INTERIOR_POINT_MAX_ITERATIONS = 100
#: Clarabel's sparse LDL^T: on a 1,020-block wall (12,044 contacts, 21 iterations) qdldl took 6.8 s, faer
#: (what "auto" picks in Clarabel 0.11) 21.2 s on the same two cores.
DIRECT_SOLVE_METHOD = "qdldl"


def mass_matrix(problem):
    """Sparse M = blockdiag(m I_3, I) per body, (6 n_b, 6 n_b); zero blocks for supports (infinite mass)."""
    blocks = np.zeros((problem.n_bodies, 6, 6))
    movable = problem.inverse_mass > 0.0
    blocks[movable, :3, :3] = (1.0 / problem.inverse_mass[movable])[:, None, None] * np.eye(3)
    blocks[movable, 3:, 3:] = np.linalg.inv(problem.inverse_inertia[movable])
    return sparse.block_diag(list(blocks), format="csc")


def body_space_program(problem):
    """Clarabel's P, q, A, b, cones of (IP1), scaled, and the impulse of one unit of x_g (N s)."""
    n_w = 6 * problem.n_bodies
    jacobian = contact_jacobian_matrix(problem)
    velocity_map = (inverse_mass_matrix(problem) @ jacobian).tocsc()                 # M^-1 D
    diagonal = np.asarray(jacobian.multiply(velocity_map).sum(axis=0)).ravel() + problem.compliance.ravel()
    diagonal_mean = float(diagonal.mean())
    impulse_scale = problem.rhs_scale / diagonal_mean
    quadratic = sparse.block_diag([mass_matrix(problem) * diagonal_mean,
                                   sparse.diags(problem.compliance.ravel() / diagonal_mean)], format="csc")
    linear = np.concatenate([np.zeros(n_w), problem.rhs.ravel() / problem.rhs_scale])
    equality = sparse.hstack([sparse.identity(n_w), -velocity_map / diagonal_mean], format="csc")
    cone_rows, cone_offset, cones = cone_constraints(problem.friction, problem.cohesion, impulse_scale)
    cone_rows = sparse.hstack([sparse.csc_matrix((cone_rows.shape[0], n_w)), cone_rows], format="csc")
    matrix = sparse.vstack([equality, cone_rows], format="csc")
    offset = np.concatenate([np.zeros(n_w), cone_offset])
    return sparse.triu(quadratic, format="csc"), linear, matrix, offset, [clarabel.ZeroConeT(n_w)] + cones, \
        impulse_scale


def solve_interior(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False):
    """Solve the CCP by (IP1) with Clarabel, then APGD from its point to ``tolerance``.

    Parameters
    ----------
    problem : Problem
        At most ``MAX_CONTACTS`` contacts.
    gamma0 : ignored
        Interior-point methods do not warm start; accepted for a uniform signature.
    tolerance : float
        Relative CCP residual (``Problem.residual``) to reach.
    max_iterations : int
        Cap on the APGD iterations of the finish (the interior-point ones are capped by
        ``INTERIOR_POINT_MAX_ITERATIONS``).
    record_history : bool
        Ignored (history is None).

    Returns
    -------
    SolverResult
        ``iterations`` counts interior-point steps plus APGD iterations of the finish.

    Raises
    ------
    ValueError
        When the problem has more than ``MAX_CONTACTS`` contacts.
    """
    refuse_above(problem, "interior", MAX_CONTACTS)
    started = Stopwatch()
    if problem.n_contacts == 0:
        return finish(problem, "interior", np.zeros((0, 3)), 0, tolerance, started, None)
    quadratic, linear, matrix, offset, cones, impulse_scale = body_space_program(problem)
    settings = clarabel_settings(INTERIOR_POINT_MAX_ITERATIONS, INTERIOR_POINT_TOLERANCE)
    settings.direct_solve_method = DIRECT_SOLVE_METHOD
    solution = clarabel.DefaultSolver(quadratic, linear, matrix, offset, cones, settings).solve()
    gamma = problem.project(impulse_scale * np.asarray(solution.x)[6 * problem.n_bodies:].reshape(-1, 3))
    failed = solution.status not in (clarabel.SolverStatus.Solved, clarabel.SolverStatus.AlmostSolved)
    if failed or not np.all(np.isfinite(gamma)):
        return finish(problem, "interior", gamma, solution.iterations, tolerance, started, None, True)
    residual = problem.residual(gamma)
    if residual <= tolerance:
        return finish(problem, "interior", gamma, solution.iterations, tolerance, started, None, residual=residual)
    finished = solve_apgd(problem, gamma0=gamma, tolerance=tolerance, max_iterations=max_iterations)
    return finish(problem, "interior", finished.gamma, solution.iterations + finished.iterations, tolerance, started,
                  None, residual=finished.residual)
