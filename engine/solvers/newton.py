"""The CCP by semismooth Newton on its dual in the body velocities: hinged masonry in tens of iterations.

Seed 000 eq. 39-40 minimise 1/2 gamma^T N gamma + gamma^T r over the admissible sets Upsilon_i, with
N = D^T M^-1 D + E (eq. 33, 43). Writing 1/2 gamma^T D^T M^-1 D gamma = max_w (w^T D gamma - 1/2 w^T M w)
and exchanging min and max leaves, per contact, min over gamma_i of 1/2 gamma_i^T E_i gamma_i + c_i^T gamma_i
with c_i = r_i + D_i^T w, solved by a projection in the metric of E_i. With E_i = diag(e_n, e_t, e_t) and
the scaled impulse g_i = E_i^1/2 gamma_i that projection is the Euclidean one onto the cohesive set of
``engine.solvers.cone`` (C1) with mu' = mu sqrt(e_t / e_n), C' = sqrt(e_t) C, T' = sqrt(e_n) T. The
dual is the unconstrained, convex, once differentiable problem in w (6 unknowns per movable body)

    min Psi(w) = 1/2 w^T M w + sum_i z_i^T Pi_i(z_i) - 1/2 ||Pi_i(z_i)||^2,   z_i = -E_i^-1/2 (r_i + D_i^T w),   (N1)
    gamma_i(w) = E_i^-1/2 Pi_i(z_i),                                                                         (N2)
    grad Psi = M w - D gamma(w) = M (w - M^-1 D gamma(w)),                                                   (N3)
    H = M + sum_i D_i E_i^-1/2 Pi_i'(z_i) E_i^-1/2 D_i^T  (an element of the generalized Hessian).          (N4)

At a zero of (N3) w = M^-1 D gamma, so u_i = N_i gamma + r_i = E_i gamma_i + c_i, and the optimality of the
projection (N2) is gamma_i in Upsilon_i, u_i in Upsilon_i^*, u_i^T gamma_i = 0: the CCP. The iteration
is Newton's, H dw = -grad Psi, with a line search on the directional derivative (``line_search``); the
residual reported and tested is the CCP's own (``Problem.residual`` of gamma(w)).

Why it takes tens of steps where APGD takes thousands. The stiff directions of H (E^-1, the compliance
that pins the self-stress of statically indeterminate joints, cond(N) ~ 1e10) are solved exactly by the
factorisation; what is left for the iteration is finding which contacts are open, sticking or sliding.
From a cold start that is done from the all-sticking solution (N5, `sticking_start`: every joint a
bilateral elastic spring, one linear solve) through softer compliances (``SOFTENING``), each level from the
last's w. From w = 0 every joint between blocks that fall together starts at the apex of its cone (z = 0:
a static problem's r is non-zero only at the supports), so the first steps guess every state; the
all-sticking solution has a wall's or a dome's joints compressed where they will be and leaves Newton the
few that open or slide (the 1,036-block wall: 7 steps instead of 19; the dome at 1.05 t_min 19 instead of
32). Each step factorises H, of order 6 n_b with the sparsity of the blocks' adjacency: by the band
Cholesky of engine.solvers.banded in reverse Cuthill-McKee order where the band is narrow (arches,
columns, small walls), else by the block Cholesky of engine.solvers.block_cholesky in minimum degree
order (SuperLU where a pivot is not positive in rounding). Where Newton does not finish (``MAX_NEWTON_STEPS``, or its
rounding floor, ``NEWTON_HANDOVER``) APGD continues from its best point, as after the interior-point
solver.

Measured (benchmarks/solvers.py, 2 cores, from zero to 1e-7, 2026-11-29): 7-23 Newton steps on the static
and collapse cases (APGD: 680-2,716 iterations). The 40-voussoir arch in 4 ms against APGD's 22 ms
(banded); by the block Cholesky the dome at 1.05 t_min in 0.04 s against APGD's 0.34 s, the 1,036-block
wall in 0.11 s against 0.32 s, the 5,026-block wall in 1.0 s against 2.7 s (7 steps; before the sticking
start 17 steps, 2.3 s), the cylinder's and the wall-over-a-gap's collapse steps in 0.08 and 0.05 s
against 0.16 and 0.09 s. On the spandrel step at h = 0.02 s it stalls above the handover (sliding contacts change
state back and forth) and APGD does not finish either; the interior-point solver does (47 iterations,
0.28 s). ``auto`` (engine.solvers.auto) therefore runs it first on static problems with a narrow band.

Tangential compliances must be equal (e_u = e_v, as ``engine.contact.laws`` makes them): the scaled set is
then a circular cone.
"""
import numpy as np
from numba import njit
from scipy import sparse
from scipy.sparse.csgraph import reverse_cuthill_mckee
from scipy.sparse.linalg import splu

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.apgd import solve_apgd
from extrados.engine.solvers.banded import band_cholesky, band_multiply, band_solve
from extrados.engine.solvers.block_cholesky import MAX_BODIES, BlockCholesky, block_multiply
from extrados.engine.solvers.cone import cohesive_projection_jacobian, project_cohesive_point
from extrados.engine.solvers.reference import refuse_above
from extrados.engine.solvers.result import finish

#: Largest problem solved: each step factorises H of order 6 n_b (the block Cholesky, two cores: 20 ms a step
#: on a 1,036-block wall of 12,044 contacts, 110 ms on a 5,000-block wall of 59,500).
MAX_CONTACTS = 100000
#: Most Newton steps on the problem's own compliance before APGD takes over from the best point, and how many
#: steps in a row may pass without lowering the best residual to ``PROGRESS`` times itself before it does:
#: compas_dem's 800-block dome near its collapse factor (0.70 g sideways) needs 128 steps to 1.4e-6 on a
#: slow, uneven descent (818 -> 31 -> 1e-6) where 40 steps left it at 31 and the APGD finish and interior
#: retry, 18 s more, unconverged; a problem where Newton makes no headway stops after PATIENCE steps.
MAX_NEWTON_STEPS = 150
PATIENCE = 20
PROGRESS = 0.9
#: Newton steps tried from a given start (gamma0) before the start from zero, unless they reach
#: NEWTON_HANDOVER: a dynamic step's start, the last step's impulses, is close (50 steps of a 4 x 4 wall:
#: 168 iterations from them, 225 from zero); a start from the solution under other loads is not (the
#: static solves of a 34-block wall's load factor: 876 iterations from such starts, 43 from zero).
WARM_STEPS = 6
#: Continuation from a cold start: the compliance factors of the softer problems solved first, the first from
#: its all-sticking solution (N5), each next from the last's w, each to ``LEVEL_TOLERANCE`` or ``LEVEL_STEPS``
#: (from N5 at (1e6, 1e4, 1e2), at these levels and at the stiff problem alone: the 1,036-block wall 5, 4 and
#: 3 steps, the dome 14, 12 and 21 with 2,508 APGD iterations after them, the collapsing cylinder 18, 18 and
#: 28; from w = 0 through (1e6, 1e4, 1e2): 19, 32 and 16).
SOFTENING = (1e4, 1e2)
LEVEL_TOLERANCE = 1e-6
LEVEL_STEPS = 15
#: The line search stops where |phi'(t)| <= LINE_SEARCH_SLOPE |phi'(0)|, or after LINE_SEARCH_EVALUATIONS.
LINE_SEARCH_SLOPE = 0.1
LINE_SEARCH_EVALUATIONS = 12
#: Newton hands over to APGD when a step lowers the best residual by less than this factor, once that is
#: below NEWTON_HANDOVER: the rounding floor of (N1), where c_i = r_i + D_i^T w cancels free velocities
#: of ~g h to leave ~1e-5 m/s and its rounding is magnified by E^-1 in gamma, lies at 1e-6..1e-5 on the
#: benchmark's arches and walls; APGD goes on from there to 1e-7 in tens of iterations (8 on the arch).
STAGNATION = 0.5
NEWTON_HANDOVER = 1e-4
#: Steps of iterative refinement of each Newton step's linear solve.
REFINEMENTS = 2
#: The band Cholesky (engine.solvers.banded) factorises H where n b^2 (b its band width) is at most this (a
#: 40-voussoir arch: 240 x 12^2); SuperLU does wider bands (the benchmark dome's 282, the 1,036-block
#: wall's 276), where it fills in less.
BANDED_WORK = 2e6


@njit(cache=True)
def dual_impulses(body_a, body_b, jacobian_a, jacobian_b, rhs, roots, friction, cohesion, velocity, gamma, scaled):
    """gamma(w) of (N2) into ``gamma``, z of (N1) into ``scaled``; returns sum_i z_i^T Pi_i - 1/2 ||Pi_i||^2.

    ``velocity`` (n_b, 6) holds w with zero rows for the supports; ``roots`` (n_c, 3) = E^1/2 diagonal;
    ``friction`` and ``cohesion`` those of the scaled sets (mu', C', T')."""
    total = 0.0
    z = np.empty(3)  # z_i of one contact
    for i in range(body_a.shape[0]):
        a, b = body_a[i], body_b[i]
        for k in range(3):
            c = rhs[i, k]
            for m in range(6):
                c += jacobian_a[i, k, m] * velocity[a, m] + jacobian_b[i, k, m] * velocity[b, m]
            z[k] = -c / roots[i, k]
            scaled[i, k] = z[k]
        n, u, v = project_cohesive_point(z[0], z[1], z[2], friction[i], cohesion[i, 0], cohesion[i, 1])
        total += z[0] * n + z[1] * u + z[2] * v - 0.5 * (n * n + u * u + v * v)
        gamma[i, 0] = n / roots[i, 0]
        gamma[i, 1] = u / roots[i, 1]
        gamma[i, 2] = v / roots[i, 2]
    return total


@njit(cache=True)
def dual_gradient(body_a, body_b, jacobian_a, jacobian_b, gamma, index, mass_blocks, w):
    """grad Psi = M w - D gamma (N3) at the movable bodies (n_m, 6), with the largest |entry| of the gradient
    and of D gamma. ``index`` (n_b,) maps a body to its row of w (-1 for supports)."""
    contact = np.zeros(w.shape)  # D gamma
    for i in range(body_a.shape[0]):
        row_a, row_b = index[body_a[i]], index[body_b[i]]
        for m in range(6):
            sum_a = 0.0
            sum_b = 0.0
            for k in range(3):
                sum_a += jacobian_a[i, k, m] * gamma[i, k]
                sum_b += jacobian_b[i, k, m] * gamma[i, k]
            if row_a >= 0:
                contact[row_a, m] += sum_a
            if row_b >= 0:
                contact[row_b, m] += sum_b
    gradient = np.empty(w.shape)
    size = 0.0
    scale = 0.0
    for p in range(w.shape[0]):
        for r in range(6):
            total = -contact[p, r]
            for c in range(6):
                total += mass_blocks[p, r, c] * w[p, c]
            gradient[p, r] = total
            size = max(size, abs(total))
            scale = max(scale, abs(contact[p, r]))
    return gradient, size, scale


@njit(cache=True)
def kinetic_term(mass_blocks, w):
    """1/2 w^T M w of (N1)."""
    total = 0.0
    for p in range(w.shape[0]):
        for r in range(6):
            for c in range(6):
                total += w[p, r] * mass_blocks[p, r, c] * w[p, c]
    return 0.5 * total


@njit(cache=True)
def hessian_blocks(body_a, body_b, jacobian_a, jacobian_b, roots, projection_jacobian, slots, mass_blocks,
                   diagonal_slots, out):
    """The 6 x 6 blocks of H (N4) into ``out`` (n_slots, 6, 6).

    ``slots`` (n_c, 4): the blocks aa, ab, ba, bb of each contact (-1 where a support takes part);
    ``mass_blocks`` (n_m, 6, 6) M per movable body, added at ``diagonal_slots`` (n_m,)."""
    out[:] = 0.0
    for p in range(mass_blocks.shape[0]):
        out[diagonal_slots[p]] += mass_blocks[p]
    weight = np.empty((3, 3))  # E^-1/2 Pi' E^-1/2 of one contact
    weighted = np.empty((2, 3, 6))  # weight J_a, weight J_b
    for i in range(body_a.shape[0]):
        for k in range(3):
            for m in range(3):
                weight[k, m] = projection_jacobian[i, k, m] / (roots[i, k] * roots[i, m])
        for k in range(3):
            for col in range(6):
                sum_a = 0.0
                sum_b = 0.0
                for m in range(3):
                    sum_a += weight[k, m] * jacobian_a[i, m, col]
                    sum_b += weight[k, m] * jacobian_b[i, m, col]
                weighted[0, k, col] = sum_a
                weighted[1, k, col] = sum_b
        for block in range(4):  # aa, ab, ba, bb
            slot = slots[i, block]
            if slot < 0:
                continue
            left = jacobian_a[i] if block < 2 else jacobian_b[i]
            right = weighted[block % 2]
            for row in range(6):
                for col in range(6):
                    total = 0.0
                    for k in range(3):
                        total += left[k, row] * right[k, col]
                    out[slot, row, col] += total


@njit(cache=True)
def band_from_blocks(blocks, pairs, rank, width):
    """The lower band (6 n_m, width) of H from its blocks at ``pairs`` (p, q), rows and columns in the band
    order ``rank`` (n_m,) of the movable bodies."""
    n = 6 * rank.shape[0]
    band = np.zeros((n, width))
    for slot in range(pairs.shape[0]):
        row0 = 6 * rank[pairs[slot, 0]]
        col0 = 6 * rank[pairs[slot, 1]]
        if row0 < col0:
            continue
        for i in range(6):
            for j in range(6):
                if row0 + i >= col0 + j:
                    band[row0 + i, row0 + i - col0 - j] = blocks[slot, i, j]
    return band


class BodySpace:
    """The movable bodies of a problem, their mass blocks, and the fixed sparsity of H (N4): its blocks, their
    band order, and (for wide bands) its CSC form."""

    def __init__(self, problem):
        movable = np.flatnonzero(problem.inverse_mass > 0.0)
        self.movable = movable  # (n_m,) body indices
        self.n_movable = movable.size
        index = np.full(problem.n_bodies, -1, dtype=np.int64)
        index[movable] = np.arange(movable.size)
        self.index = index  # (n_b,) row of w of each body, -1 for supports
        mass = np.zeros((movable.size, 6, 6))
        mass[:, :3, :3] = (1.0 / problem.inverse_mass[movable])[:, None, None] * np.eye(3)
        mass[:, 3:, 3:] = np.linalg.inv(problem.inverse_inertia[movable])
        self.mass_blocks = mass  # (n_m, 6, 6)
        self.slots, self.diagonal_slots, pairs = block_slots(index[problem.body_a], index[problem.body_b],
                                                             movable.size)
        self.n_slots = pairs.shape[0]
        self.pairs = pairs
        self.rank, self.band_width = band_order(pairs, movable.size)
        self.banded = 6 * movable.size * self.band_width ** 2 <= BANDED_WORK
        self.band_index = (6 * self.rank[:, None] + np.arange(6)).ravel()  # (6 n_m,) w's entry -> band row
        self.csc = None  # order, indices, indptr of H in CSC form, made when SuperLU needs it
        self.cholesky = None  # BlockCholesky of a wide band, made when first needed

    def block_cholesky(self):
        """The BlockCholesky of H's block pattern (its order and fill found once per problem)."""
        if self.cholesky is None:
            self.cholesky = BlockCholesky.of_pattern(self.pairs, self.n_movable)
        return self.cholesky

    def matrix(self, blocks):
        """H in CSC form from its (n_slots, 6, 6) blocks."""
        if self.csc is None:
            self.csc = csc_pattern(self.pairs, self.n_movable)
        order, indices, indptr = self.csc
        n = 6 * self.n_movable
        return sparse.csc_matrix((blocks.ravel()[order], indices, indptr), shape=(n, n))


def block_slots(index_a, index_b, n_movable):
    """Slots of H's 6 x 6 blocks: (n_c, 4) slots aa, ab, ba, bb per contact (-1 with a support), (n_m,) slots of
    the diagonal blocks, and the (n_slots, 2) block positions (p, q)."""
    both = (index_a >= 0) & (index_b >= 0)
    positions = [np.column_stack([index_a, index_a]), np.column_stack([index_a, index_b]),
                 np.column_stack([index_b, index_a]), np.column_stack([index_b, index_b])]
    valid = [index_a >= 0, both, both, index_b >= 0]
    keys = [np.where(ok, pq[:, 0] * n_movable + pq[:, 1], -1) for pq, ok in zip(positions, valid)]
    diagonal = np.arange(n_movable) * (n_movable + 1)
    unique, inverse = np.unique(np.concatenate([diagonal] + [k[k >= 0] for k in keys]), return_inverse=True)
    slots = np.full((index_a.size, 4), -1, dtype=np.int64)
    start = n_movable
    for column, k in enumerate(keys):
        ok = k >= 0
        slots[ok, column] = inverse[start:start + ok.sum()]
        start += ok.sum()
    pairs = np.column_stack([unique // max(n_movable, 1), unique % max(n_movable, 1)])
    return slots, inverse[:n_movable].astype(np.int64), pairs


def band_order(pairs, n_movable):
    """Reverse Cuthill-McKee rank (n_m,) of the movable bodies over H's block pattern, and the band width
    (half-bandwidth + 1) of H in that order."""
    if n_movable == 0:
        return np.zeros(0, dtype=np.int64), 1
    graph = sparse.csr_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n_movable, n_movable))
    order = reverse_cuthill_mckee(graph, symmetric_mode=True)
    rank = np.empty(n_movable, dtype=np.int64)
    rank[order] = np.arange(n_movable)
    reach = int(np.abs(rank[pairs[:, 0]] - rank[pairs[:, 1]]).max())
    return rank, 6 * (reach + 1)


def csc_pattern(pairs, n_movable):
    """CSC indices and indptr of the blocks at ``pairs``, and the order that takes the blocks' flat data to it."""
    local = np.arange(6)
    rows = (6 * pairs[:, 0, None, None] + local[None, :, None] + 0 * local[None, None, :]).ravel()
    cols = (6 * pairs[:, 1, None, None] + 0 * local[None, :, None] + local[None, None, :]).ravel()
    order = np.lexsort((rows, cols))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(cols, minlength=6 * n_movable))])
    return order, rows[order], indptr


class Dual:
    """Psi (N1), gamma(w) (N2) and grad Psi (N3) of one problem, with the scaled sets."""

    def __init__(self, problem, space):
        self.problem, self.space = problem, space
        self.gamma = np.empty((problem.n_contacts, 3))
        self.scaled = np.empty((problem.n_contacts, 3))
        self.soften(1.0)

    def soften(self, factor):
        """Use the compliance ``factor`` E (the continuation's level; 1: the problem's own)."""
        self.roots = np.sqrt(factor * self.problem.compliance)  # (n_c, 3) E^1/2
        self.friction = self.problem.friction * self.roots[:, 1] / self.roots[:, 0]
        self.cohesion = np.ascontiguousarray(self.problem.cohesion * self.roots[:, [1, 0]])

    def full_velocity(self, w):
        """(n_b, 6) velocities: w at the movable bodies, zero at the supports."""
        velocity = np.zeros((self.problem.n_bodies, 6))
        velocity[self.space.movable] = w
        return velocity

    def evaluate(self, w):
        """Psi(w), with gamma(w) and z(w) left in ``self.gamma`` and ``self.scaled``."""
        p = self.problem
        contact_terms = dual_impulses(p.body_a, p.body_b, p.jacobian_a, p.jacobian_b, p.rhs, self.roots,
                                      self.friction, self.cohesion, self.full_velocity(w), self.gamma, self.scaled)
        return kinetic_term(self.space.mass_blocks, w) + contact_terms

    def gradient(self, w):
        """grad Psi (N3) at the w of the last ``evaluate``, and its size relative to D gamma's (0 when both
        vanish)."""
        p = self.problem
        gradient, size, scale = dual_gradient(p.body_a, p.body_b, p.jacobian_a, p.jacobian_b, self.gamma,
                                              self.space.index, self.space.mass_blocks, w)
        return gradient, (size / scale if scale > 0.0 else (0.0 if size == 0.0 else np.inf))

    def hessian_blocks(self, sticking=False):
        """The (n_slots, 6, 6) blocks of H (N4) at the z of the last ``evaluate``; ``sticking``: with Pi' = 1
        at every contact (H of the all-sticking problem, (N5))."""
        p, space = self.problem, self.space
        if sticking:
            jacobian = np.broadcast_to(np.eye(3), (p.n_contacts, 3, 3)).copy()
        else:
            jacobian = cohesive_projection_jacobian(self.scaled, self.friction, self.cohesion)
        blocks = np.empty((space.n_slots, 6, 6))
        hessian_blocks(p.body_a, p.body_b, p.jacobian_a, p.jacobian_b, self.roots, jacobian, space.slots,
                       space.mass_blocks, space.diagonal_slots, blocks)
        return blocks

    def hessian(self):
        """H (N4) at the z of the last ``evaluate``, sparse (CSC)."""
        return self.space.matrix(self.hessian_blocks())

    def newton_step(self, gradient, sticking=False):
        """-H^-1 grad (n_m, 6): by the band Cholesky of engine.solvers.banded where H's band is narrow
        (``BANDED_WORK``), else by the block Cholesky of engine.solvers.block_cholesky (SuperLU where a pivot
        is not positive in rounding); each with ``REFINEMENTS`` steps of iterative refinement. ``sticking``:
        H of the all-sticking problem (`hessian_blocks`)."""
        space = self.space
        if not space.banded:
            return self.sparse_newton_step(gradient, sticking)
        blocks = self.hessian_blocks(sticking)
        band = band_from_blocks(blocks, space.pairs, space.rank, space.band_width)
        factor = band.copy()
        if not band_cholesky(factor):
            return newton_step(space.matrix(blocks), gradient.ravel()).reshape(-1, 6)
        rhs = np.empty(gradient.size)
        rhs[space.band_index] = -gradient.ravel()
        step = band_solve(factor, rhs)
        for _ in range(REFINEMENTS):
            step += band_solve(factor, rhs - band_multiply(band, step))
        return step[space.band_index].reshape(-1, 6)


    def sparse_newton_step(self, gradient, sticking=False):
        """-H^-1 grad (n_m, 6) where H's band is wide: block Cholesky in minimum degree order, else (more than
        engine.solvers.block_cholesky.MAX_BODIES bodies, or a pivot not positive in rounding) SuperLU."""
        space, blocks = self.space, self.hessian_blocks(sticking)
        cholesky = space.block_cholesky() if space.n_movable <= MAX_BODIES else None
        if cholesky is None or not cholesky.factorise(blocks):
            return newton_step(space.matrix(blocks), gradient.ravel()).reshape(-1, 6)
        step = cholesky.solve(-gradient)
        for _ in range(REFINEMENTS):
            step += cholesky.solve(-gradient - block_multiply(blocks, space.pairs, step))
        return step


def equal_tangents(problem):
    """True when every contact's two tangential compliances are equal (what the solver needs)."""
    return bool(np.array_equal(problem.compliance[:, 1], problem.compliance[:, 2]))


def check_tangential_compliance(problem):
    """Raise ValueError when a contact's two tangential compliances differ (the scaled set would be elliptic)."""
    unequal = np.flatnonzero(problem.compliance[:, 1] != problem.compliance[:, 2])
    if unequal.size:
        raise ValueError(f"newton: contact {int(unequal[0])} has unequal tangential compliances "
                         f"{problem.compliance[unequal[0], 1]:g} and {problem.compliance[unequal[0], 2]:g} s/kg; "
                         "the Newton solver needs e_u = e_v")


def newton_step(hessian, gradient, refinements=REFINEMENTS):
    """-H^-1 grad by SuperLU with ``refinements`` steps of iterative refinement (H is stiff: cond ~ 1e12);
    NaNs where the factorisation breaks down (a zero pivot in rounding), which ``newton_move`` takes as no
    descent."""
    try:
        factor = splu(hessian, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    except RuntimeError:  # "Factor is exactly singular"
        return np.full(gradient.shape, np.nan)
    step = -factor.solve(gradient)
    for _ in range(refinements):
        step += factor.solve(-gradient - hessian @ step)
    return step


def line_search(dual, w, step, slope):
    """The step length along ``step`` from w: 1 when Psi still descends there, else a root of the directional
    derivative phi'(t) = grad Psi(w + t step)^T step on (0, 1) to within ``LINE_SEARCH_SLOPE`` |phi'(0)|
    (Illinois' regula falsi: phi' is increasing, Psi being convex). Psi itself is not compared: it is a sum
    of terms of the order of the self-stress energy, whose rounding hides the decrease near the solution.
    Leaves ``dual`` evaluated at the point returned; returns (w, gradient, relative gradient size) there.
    ``slope`` = phi'(0) < 0."""
    def derivative(length):
        trial = w + length * step
        dual.evaluate(trial)
        gradient, size = dual.gradient(trial)
        return (trial, gradient, size), float(np.sum(gradient * step))

    low, high = 0.0, 1.0
    slope_low = slope
    point, slope_high = derivative(high)
    if slope_high <= 0.0:
        return point
    side = 0
    for _ in range(LINE_SEARCH_EVALUATIONS):
        length = (low * slope_high - high * slope_low) / (slope_high - slope_low)
        point, slope_here = derivative(length)
        if abs(slope_here) <= LINE_SEARCH_SLOPE * abs(slope):
            break
        if slope_here < 0.0:
            low, slope_low = length, slope_here
            slope_high = slope_high * 0.5 if side == -1 else slope_high
            side = -1
        else:
            high, slope_high = length, slope_here
            slope_low = slope_low * 0.5 if side == 1 else slope_low
            side = 1
    return point


def newton_move(dual, w, gradient):
    """One Newton step with its line search from w: (w, gradient, relative gradient size), or None where the
    Newton direction does not descend (the gradient is at its rounding floor, or the step is not finite)."""
    step = dual.newton_step(gradient)
    slope = float(np.sum(gradient * step))
    if not slope < 0.0:
        return None
    return line_search(dual, w, step, slope)


def sticking_start(dual):
    """w (n_m, 6) of the all-sticking problem at the compliance level ``dual`` has: every contact a bilateral
    elastic joint, Pi' = 1 in (N4), so that Psi is quadratic and its minimiser one linear solve,

        (M + D E^-1 D^T) w = -D E^-1 r;                                                                 (N5)

    zero where that solve breaks down in rounding."""
    p, space = dual.problem, dual.space
    sticking = -p.rhs / dual.roots ** 2                                # (n_c, 3) gamma of (N2) at w = 0 with Pi = 1
    gradient, _, _ = dual_gradient(p.body_a, p.body_b, p.jacobian_a, p.jacobian_b, sticking, space.index,
                                   space.mass_blocks, np.zeros((space.n_movable, 6)))
    w = dual.newton_step(gradient, sticking=True)
    return w if np.all(np.isfinite(w)) else np.zeros((space.n_movable, 6))


def soft_level(dual, w, history):
    """Newton on (N1) at the compliance level ``dual`` has, from w, until the relative gradient is below
    ``LEVEL_TOLERANCE`` or after ``LEVEL_STEPS`` steps: (w, steps taken). ``history``, unless None, gets the
    problem's residual after each step."""
    dual.evaluate(w)
    gradient, size = dual.gradient(w)
    steps = 0
    while size > LEVEL_TOLERANCE and steps < LEVEL_STEPS:
        moved = newton_move(dual, w, gradient)
        if moved is None:
            break
        w, gradient, size = moved
        steps += 1
        if history is not None:
            history.append(dual.problem.residual(dual.gamma))
    return w, steps


def newton_steps(dual, w, tolerance, max_steps, history):
    """Newton on the problem's own compliance from w, until ``tolerance``, ``max_steps``, ``PATIENCE`` steps
    without progress, or a stall below ``NEWTON_HANDOVER``: (best gamma, its residual, steps taken); ``history``,
    unless None, gets each residual."""
    problem = dual.problem
    dual.evaluate(w)
    gradient, _ = dual.gradient(w)
    best, best_residual = dual.gamma.copy(), problem.residual(dual.gamma)
    steps = last_gain = 0
    while best_residual > tolerance and steps < max_steps and steps - last_gain < PATIENCE:
        moved = newton_move(dual, w, gradient)
        if moved is None:
            break
        w, gradient, _ = moved
        steps += 1
        residual = problem.residual(dual.gamma)
        if history is not None:
            history.append(residual)
        stalled = not residual < STAGNATION * best_residual
        if residual < PROGRESS * best_residual:
            last_gain = steps
        if residual < best_residual:
            best, best_residual = dual.gamma.copy(), residual
        if stalled and best_residual < NEWTON_HANDOVER:
            break
    return best, best_residual, steps


def solve_newton(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False, space=None):
    """Solve the CCP by semismooth Newton on (N1), then APGD from its best point if it has not converged.

    Parameters
    ----------
    problem : Problem
        Tangential compliances equal per contact.
    gamma0 : (n_c, 3) float64, optional
        A start: at most ``WARM_STEPS`` Newton steps from w = M^-1 D gamma0, then, unless they reached
        ``NEWTON_HANDOVER``, the cold start (N5) through ``SOFTENING``.
    tolerance : float
        Relative CCP residual (``Problem.residual``) to reach.
    max_iterations : int
        Cap on the APGD iterations of the finish (Newton's steps are capped by ``MAX_NEWTON_STEPS``).
    record_history : bool
        Keep the residual after each Newton step.
    space : BodySpace, optional
        ``BodySpace(problem)`` when the caller has built it (engine.solvers.auto).

    Returns
    -------
    SolverResult
        ``iterations`` counts Newton steps plus APGD iterations of the finish.

    Raises
    ------
    ValueError
        When a contact's tangential compliances differ, or the problem has more than ``MAX_CONTACTS`` contacts.
    """
    refuse_above(problem, "newton", MAX_CONTACTS)
    started = Stopwatch()
    check_tangential_compliance(problem)
    history = [] if record_history else None
    if problem.n_contacts == 0:
        return finish(problem, "newton", np.zeros((0, 3)), 0, tolerance, started, history)
    space = BodySpace(problem) if space is None else space
    dual = Dual(problem, space)
    best, best_residual, steps = None, np.inf, 0
    if gamma0 is not None:
        w = problem.velocity(problem.initial_impulse(gamma0))[space.movable]
        best, best_residual, steps = newton_steps(dual, w, tolerance, WARM_STEPS, history)
    if best_residual > NEWTON_HANDOVER:
        dual.soften(SOFTENING[0])
        w = sticking_start(dual)
        for factor in SOFTENING:
            dual.soften(factor)
            w, taken = soft_level(dual, w, history)
            steps += taken
        dual.soften(1.0)
        cold, cold_residual, taken = newton_steps(dual, w, tolerance, MAX_NEWTON_STEPS, history)
        steps += taken
        if cold_residual < best_residual:
            best, best_residual = cold, cold_residual
    if best_residual <= tolerance or not np.isfinite(best_residual):
        return finish(problem, "newton", best, steps, tolerance, started, history, residual=best_residual)
    finished = solve_apgd(problem, gamma0=best, tolerance=tolerance, max_iterations=max_iterations,
                          record_history=record_history)
    if record_history:
        history.extend(finished.history)
    return finish(problem, "newton", finished.gamma, steps + finished.iterations, tolerance, started, history,
                  residual=finished.residual)
