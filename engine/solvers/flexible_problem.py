"""A Problem whose Delassus operator carries deformable blocks' condensed flexibility (issue 23, seed 001 eq. 11-12).

For contacts on deformable blocks the local velocities gain W_e gamma, W_e = sum_b H_b G_b H_b^T
(engine.deformable.coupling): one dense symmetric positive semi-definite block per deformable block b over
the contacts that touch it. The operator becomes

    N = D^T M^-1 D + E + sum_b S_b^T W_b S_b,

S_b selecting the rows of b's contacts; the rigid part keeps its matrix-free kernels, the dense blocks are
added in every product, in the diagonal blocks and in the row-sum bounds. The solvers that go through the
Problem's methods (apply, diagonal_blocks, row_sums, residual, project) solve it unchanged: APGD through those
methods (engine.solvers.operator_apgd) and SPG (engine.solvers.spg) do, and `solve_flexible` sends every request
to one of them, whatever solver was asked for; the fused numba passes of APGD, PGS and Newton read the rigid
arrays only.

Which of the two: a step of a run (``static`` False) goes to APGD, a static CCP (the elastic compliance, h = 1 s)
to SPG (engine.solvers.spg). On the steps of seed 004's small panel at l_c = 0.1 SPG needed 2-7 times as many
products as APGD (ten problems captured along the loading: 1,206-7,578 against 446-1,448;
benchmarks/seed004_panel_steps.py measures whole steps). On the static CCPs of the suite's deformable models
SPG reaches the tolerance where APGD does not within the iteration cap (the cube pressed through cut joints), and
its tighter final iterate keeps the nearly neutral load wedges of the bending test still (velocities 6e-5
against APGD's 1.8e-3 m/s, whose stop at 4.6e-8 passes the static verdict's threshold).
"""
from functools import cached_property

import numpy as np
from numba import njit

from extrados.engine.solvers.delassus import diagonal_blocks_kernel, diagonal_scale_kernel, row_sum_bound_kernel
from extrados.engine.solvers.operator_apgd import solve_operator_apgd
from extrados.engine.solvers.problem import Problem
from extrados.engine.solvers.spg import solve_spg


class FlexibleProblem(Problem):
    """A Problem plus dense flexibility blocks ``(rows, matrix)``: rows (k,) int64 contact indices, matrix
    (3k, 3k) float64 in those contacts' frames (n, u, v), row 3 r + j the j-th direction of contact rows[r]."""

    def __init__(self, *args, flexibility=(), static=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.static = bool(static)           # a static CCP (elastic compliance): `solve_flexible` gives it to SPG
        blocks = []
        for index, (rows, matrix) in enumerate(flexibility):
            rows = np.asarray(rows, np.int64)
            matrix = np.ascontiguousarray(matrix, np.float64)
            if matrix.shape != (3 * len(rows), 3 * len(rows)) or not np.all(np.isfinite(matrix)):
                raise ValueError(f"flexibility[{index}]: expected a finite ({3 * len(rows)}, {3 * len(rows)}) "
                                 f"matrix, got shape {matrix.shape}")
            if len(rows) and (rows.min() < 0 or rows.max() >= self.n_contacts):
                raise ValueError(f"flexibility[{index}]: contact index out of range")
            blocks.append((rows, matrix))
        self.flexibility = tuple(blocks)
        sizes = [len(rows) for rows, _ in blocks]
        self._row_start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self._rows = np.concatenate([rows for rows, _ in blocks] + [np.zeros(0, np.int64)])
        self._matrix_start = np.concatenate([[0], np.cumsum([9 * k * k for k in sizes])]).astype(np.int64)
        self._matrices = np.concatenate([matrix.ravel() for _, matrix in blocks] + [np.zeros(0)])

    def flexible_velocity(self, gamma):
        """(n_c, 3) W_e gamma, the contact velocity the deformable blocks' elasticity adds (m/s)."""
        out = np.zeros((self.n_contacts, 3))
        add_blocks_product(self._row_start, self._rows, self._matrix_start, self._matrices,
                           np.ascontiguousarray(gamma, dtype=np.float64), out)
        return out

    def apply(self, gamma):
        """N gamma with the flexibility blocks (module docstring)."""
        gamma = np.ascontiguousarray(gamma, dtype=np.float64)
        return super().apply(gamma) + self.flexible_velocity(gamma)

    @cached_property
    def _diagonal(self):
        blocks = diagonal_blocks_kernel(self.operator)
        for rows, matrix in self.flexibility:
            k = len(rows)
            np.add.at(blocks, rows, matrix.reshape(k, 3, k, 3)[np.arange(k), :, np.arange(k), :])
        blocks.flags.writeable = False
        return blocks, self._diagonal_scale

    @cached_property
    def _diagonal_scale(self):
        scale = diagonal_scale_kernel(self.operator)
        for rows, matrix in self.flexibility:
            within = np.arange(3 * len(rows))
            np.add.at(scale, rows, matrix[within, within].reshape(-1, 3).sum(axis=1) / 3.0)
        scale.flags.writeable = False
        return scale

    @cached_property
    def _row_sums(self):
        bound = row_sum_bound_kernel(self.operator)
        for rows, matrix in self.flexibility:
            np.add.at(bound, rows, np.abs(matrix).sum(axis=1).reshape(-1, 3))
        bound.flags.writeable = False
        return bound


@njit(cache=True)
def add_blocks_product(row_start, rows, matrix_start, matrices, gamma, out):
    """out[rows_b] += W_b gamma[rows_b] for every block b: rows_b = rows[row_start[b]:row_start[b + 1]], W_b the
    (3k, 3k) matrix stored row by row from matrices[matrix_start[b]].

    Each block's product is one BLAS matrix-vector product (np.dot): the solvers spend nearly all their time
    here once joints are cut into many points (benchmarks/deformable_joint_points.py).
    """
    for block in range(row_start.shape[0] - 1):
        first, k = row_start[block], row_start[block + 1] - row_start[block]
        if k == 0:
            continue
        size = 3 * k
        local = np.empty(size)
        for r in range(k):
            for j in range(3):
                local[3 * r + j] = gamma[rows[first + r], j]
        offset = matrix_start[block]
        product = np.dot(matrices[offset:offset + size * size].reshape(size, size), local)
        for i in range(size):
            out[rows[first + i // 3], i % 3] += product[i]


def solve_flexible(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False, **_):
    """SolverResult of a FlexibleProblem, whatever solver was asked for: by APGD through its methods for a step of
    a run, by SPG for a static CCP (module docstring)."""
    solver = solve_spg if problem.static else solve_operator_apgd
    return solver(problem, gamma0=gamma0, tolerance=tolerance, max_iterations=max_iterations,
                  record_history=record_history)
