"""Reference solution of the CCP by an interior-point conic solver (Clarabel), for small problems.

Seed 000 eq. 39-40 is the second-order cone program

    min 1/2 gamma^T N gamma + gamma^T r   s.t.  (mu_i gamma_n,i, gamma_u,i, gamma_v,i) in K_3  for all i,

with N = D^T M^-1 D + E assembled as a sparse matrix (eq. 33, 43) and K_3 = {(t, x) : t >= ||x||}
the standard second-order cone. In Clarabel's form  A x + s = b, s in K  the cone rows are
s_i = -A_i gamma_i with A_i = -diag(mu_i, 1, 1), b_i = 0. A frictionless contact (mu_i = 0)
has a cone with empty interior, so it becomes gamma_n,i >= 0 (nonnegative cone) and
gamma_u,i = gamma_v,i = 0 (zero cone) instead.

Cohesion (``Problem.cohesion``, the set S_i = {n >= -T_i, ||t|| <= C_i + mu_i n} of
``engine.solvers.cone`` C1) makes the constraints affine: (mu_i gamma_n,i + C_i, gamma_u,i, gamma_v,i)
in K_3, i.e. b_i = (C_i, 0, 0), and, where the cut-off bites (mu_i T_i < C_i, i.e. T_i < C_i / mu_i),
a nonnegative row gamma_n,i + T_i >= 0. A frictionless contact becomes gamma_n,i + T_i >= 0 and
(C_i, gamma_u,i, gamma_v,i) in K_3 when C_i > 0 (the zero cone when C_i = 0).

Polish. On contacts that slide (gamma on the cone surface, u on the dual surface) the interior-point
solution leaves natural-map residuals of 1e-7..1e-5 (observed on the random test problems) even at
gap tolerances of 1e-10. A few semismooth Newton steps on the natural map (Facchinei & Pang 2003, ch. 7)

    F(gamma) = gamma - Pi(gamma - S (N gamma + r)) = 0,   S = diag(s_i),
    (I - Pi'(z) (I - S N)) delta = -F(gamma),   z = gamma - S (N gamma + r),       (R1)

started from the interior-point point, converge quadratically once the contact states (open, stick,
slide) are identified; a step is kept only when it lowers ``Problem.residual``.

Scaling. With nu the mean of the diagonal of N and rho = ||r||_inf, the substitution
gamma = (rho / nu) x gives the equivalent program min 1/2 x^T (N / nu) x + (r / rho)^T x over the
same cones (cones are invariant under positive scaling) whose data are of order one; the offsets
C_i and T_i are impulses and scale with gamma: b = (C_i, T_i) nu / rho.
"""

import clarabel
import numpy as np
from scipy import sparse
from scipy.sparse.linalg import spsolve

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.cone import cohesive_projection_jacobian
from extrados.engine.solvers.result import finish

#: Largest problem the reference accepts: its sparse factorizations (Clarabel's and the polish's) grow fast.
MAX_CONTACTS = 5000
#: Clarabel's gap and feasibility tolerances (relative): tight, this is the reference.
INTERIOR_POINT_TOLERANCE = 1e-10
#: Clarabel's iteration cap.
INTERIOR_POINT_MAX_ITERATIONS = 200
#: Most semismooth Newton steps of the polish (R1); quadratic convergence needs two or three.
POLISH_STEPS = 8


def contact_jacobian_matrix(problem):
    """Sparse D of shape (6 n_b, 3 n_c): column 3 i + k holds J_a,i[k]^T at body a's rows and J_b,i[k]^T at b's."""
    n_c, n_b = problem.n_contacts, problem.n_bodies
    columns = np.repeat(np.arange(3 * n_c), 6).reshape(n_c, 3, 6)
    rows_a = 6 * problem.body_a[:, None, None] + np.arange(6)[None, None, :] + np.zeros((1, 3, 1), dtype=np.int64)
    rows_b = 6 * problem.body_b[:, None, None] + np.arange(6)[None, None, :] + np.zeros((1, 3, 1), dtype=np.int64)
    return sparse.coo_matrix(
        (np.concatenate([problem.jacobian_a.ravel(), problem.jacobian_b.ravel()]),
         (np.concatenate([rows_a.ravel(), rows_b.ravel()]), np.concatenate([columns.ravel(), columns.ravel()]))),
        shape=(6 * n_b, 3 * n_c)).tocsr()


def inverse_mass_matrix(problem):
    """Sparse M^-1 = blockdiag(m^-1 I_3, I^-1) per body, (6 n_b, 6 n_b); zero blocks for supports."""
    blocks = np.zeros((problem.n_bodies, 6, 6))
    blocks[:, :3, :3] = problem.inverse_mass[:, None, None] * np.eye(3)
    blocks[:, 3:, 3:] = problem.inverse_inertia
    return sparse.block_diag(list(blocks), format="csr")


def delassus_matrix(problem):
    """Sparse N = D^T M^-1 D + E (eq. 33, 43) of shape (3 n_c, 3 n_c), unknowns ordered (n, u, v) per contact."""
    jacobian = contact_jacobian_matrix(problem)
    return (jacobian.T @ inverse_mass_matrix(problem) @ jacobian + sparse.diags(problem.compliance.ravel())).tocsc()


def cone_constraints(friction, cohesion, impulse_scale):
    """Clarabel A (rows x 3 n_c), b and cone list for gamma = impulse_scale x in the product of the S_i.

    Parameters
    ----------
    friction : (n_c,) float64
        Friction coefficients mu_i.
    cohesion : (n_c, 2) float64
        Cohesion C_i and tensile cap T_i (N s).
    impulse_scale : float
        Impulse (N s) of one unit of the scaled unknown x.

    Returns
    -------
    matrix : scipy.sparse.csc_matrix (rows, 3 n_c)
    offset : (rows,) float64
    cones : list of Clarabel cones
    """
    n_c = friction.shape[0]
    strength = cohesion[:, 0] / impulse_scale  # (n_c,) C_i in units of x
    tension = cohesion[:, 1] / impulse_scale  # (n_c,) T_i in units of x
    rows, cols, values, offsets, cones = [], [], [], [], []
    row = 0

    def add(block_rows, block_cols, entries, offset, block_cones):
        """Append a block of rows: entries of A at (block_rows, block_cols), b = offset, and their cones."""
        nonlocal row
        rows.append(row + block_rows)
        cols.append(block_cols)
        values.append(entries)
        offsets.append(offset)
        row += offset.size
        cones.extend(block_cones)

    frictionless = friction == 0.0
    smooth = np.flatnonzero(frictionless & (cohesion[:, 0] == 0.0))
    if smooth.size:
        # gamma_u = gamma_v = 0:  A x + s = 0, s = 0
        tangential = np.stack([3 * smooth + 1, 3 * smooth + 2], axis=1).ravel()
        add(np.arange(tangential.size), tangential, np.ones(tangential.size), np.zeros(tangential.size),
            [clarabel.ZeroConeT(int(tangential.size))])
    cohesive = np.flatnonzero(frictionless & (cohesion[:, 0] > 0.0))
    for i in cohesive:
        # (C, gamma_u, gamma_v) in K_3:  s = (C, x_u, x_v) = b - A x with A = -[0; e_u; e_v], b = (C, 0, 0)
        add(np.array([1, 2]), np.array([3 * i + 1, 3 * i + 2]), -np.ones(2), np.array([strength[i], 0.0, 0.0]),
            [clarabel.SecondOrderConeT(3)])
    capped = np.flatnonzero(frictionless | (friction * cohesion[:, 1] < cohesion[:, 0]))
    if capped.size:
        # gamma_n + T >= 0:  -x_n + s = T, s >= 0 (T = 0 without cohesion: gamma_n >= 0)
        add(np.arange(capped.size), 3 * capped, -np.ones(capped.size), tension[capped],
            [clarabel.NonnegativeConeT(int(capped.size))])
    rough = np.flatnonzero(friction > 0.0)
    if rough.size:
        # (mu gamma_n + C, gamma_u, gamma_v) in K_3:  -diag(mu, 1, 1) x_i + s_i = (C, 0, 0)
        offset = np.zeros((rough.size, 3))
        offset[:, 0] = strength[rough]
        add(np.arange(3 * rough.size), (3 * rough[:, None] + np.arange(3)[None, :]).ravel(),
            -np.stack([friction[rough], np.ones(rough.size), np.ones(rough.size)], axis=1).ravel(), offset.ravel(),
            [clarabel.SecondOrderConeT(3) for _ in range(rough.size)])
    matrix = sparse.csc_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(cols))),
                               shape=(row, 3 * n_c))
    return matrix, np.concatenate(offsets), cones


def polish(problem, delassus, gamma):
    """Semismooth Newton steps (R1) on the natural map from ``gamma``, kept while the residual drops.

    Parameters
    ----------
    problem : Problem
        The problem.
    delassus : scipy.sparse matrix (3 n_c, 3 n_c)
        N from ``delassus_matrix``.
    gamma : (n_c, 3) float64
        A feasible point close to the solution.

    Returns
    -------
    gamma : (n_c, 3) float64
        The polished point (feasible).
    steps : int
        Newton steps kept.
    """
    _, scale = problem.diagonal_blocks()
    step = np.repeat(1.0 / scale, 3)  # (3 n_c,) the diagonal of S, as in Problem.residual
    identity = sparse.identity(3 * problem.n_contacts, format="csc")
    contraction = identity - sparse.diags(step) @ delassus  # I - S N
    residual = problem.residual(gamma)
    steps = 0
    for _ in range(POLISH_STEPS):
        if residual == 0.0:
            break
        point = gamma - step.reshape(-1, 3) * problem.gradient(gamma)
        mapping = (gamma - problem.project(point)).ravel()  # F(gamma)
        derivative = sparse.block_diag(list(cohesive_projection_jacobian(point, problem.friction, problem.cohesion)),
                                       format="csc")
        newton = (identity - derivative @ contraction).tocsc()
        delta = spsolve(newton, -mapping)
        if not np.all(np.isfinite(delta)):
            break
        candidate = problem.project(gamma + delta.reshape(-1, 3))
        candidate_residual = problem.residual(candidate)
        if not candidate_residual < residual:
            break
        gamma, residual = candidate, candidate_residual
        steps += 1
    return gamma, steps


def refuse_above(problem, name, limit):
    """Raise ValueError when ``problem`` has more contacts than solver ``name`` takes (``limit``)."""
    if problem.n_contacts > limit:
        raise ValueError(f"{name}: {problem.n_contacts} contacts exceed the limit of {limit}; "
                         "use an iterative solver (apgd, spg, pgs, jacobi)")


def clarabel_settings(max_iterations, tolerance=INTERIOR_POINT_TOLERANCE):
    """Clarabel's settings, quiet, with ``tolerance`` on its relative gaps and feasibility."""
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.max_iter = max_iterations
    settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = tolerance
    return settings


def solve_reference(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False):
    """Solve the CCP exactly (to interior-point accuracy) as a second-order cone program.

    Parameters
    ----------
    problem : Problem
        The cone complementarity problem; at most ``MAX_CONTACTS`` contacts.
    gamma0 : ignored
        Interior-point methods do not warm start; accepted for a uniform signature.
    tolerance : float
        ``converged`` requires ``problem.residual`` at most this (Clarabel itself runs to 1e-10).
    max_iterations : int
        Cap on interior-point iterations (at most ``INTERIOR_POINT_MAX_ITERATIONS``).
    record_history : bool
        Ignored (history is None): Clarabel reports no per-iteration residual of ours.

    Returns
    -------
    SolverResult
        ``iterations`` counts interior-point steps plus kept Newton steps of the polish.

    Raises
    ------
    ValueError
        When the problem has more than ``MAX_CONTACTS`` contacts.
    """
    refuse_above(problem, "reference", MAX_CONTACTS)
    started = Stopwatch()
    if problem.n_contacts == 0:
        return finish(problem, "reference", np.zeros((0, 3)), 0, tolerance, started, None)
    delassus = delassus_matrix(problem)
    diagonal_mean = float(delassus.diagonal().mean())
    impulse_scale = problem.rhs_scale / diagonal_mean
    quadratic = sparse.triu(delassus / diagonal_mean, format="csc")
    linear = problem.rhs.ravel() / problem.rhs_scale
    matrix, offset, cones = cone_constraints(problem.friction, problem.cohesion, impulse_scale)

    settings = clarabel_settings(int(min(max_iterations, INTERIOR_POINT_MAX_ITERATIONS)))
    solution = clarabel.DefaultSolver(quadratic, linear, matrix, offset, cones, settings).solve()
    gamma = problem.project(impulse_scale * np.asarray(solution.x).reshape(-1, 3))
    failed = solution.status not in (clarabel.SolverStatus.Solved, clarabel.SolverStatus.AlmostSolved)
    if failed or not np.all(np.isfinite(gamma)):
        return finish(problem, "reference", gamma, solution.iterations, tolerance, started, None, True)
    gamma, newton_steps = polish(problem, delassus, gamma)
    return finish(problem, "reference", gamma, solution.iterations + newton_steps, tolerance, started, None)
