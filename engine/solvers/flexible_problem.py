"""A Problem whose Delassus operator carries deformable blocks' condensed flexibility (issue 23, seed 001 eq. 11-12).

For contacts on deformable blocks the local velocities gain W_e gamma, W_e = sum_b H_b G_b H_b^T
(engine.deformable.coupling): one dense symmetric positive semi-definite block per deformable block b over
the contacts that touch it. The operator becomes

    N = D^T M^-1 D + E + sum_b S_b^T W_b S_b,

S_b selecting the rows of b's contacts; the rigid part keeps its matrix-free kernels, the dense blocks are
added in every product, in the diagonal blocks and in the row-sum bounds. The solvers that go through the
Problem's methods (apply, diagonal_blocks, row_sums, residual, project) solve it unchanged: SPG
(engine.solvers.spg) does, and `solve_flexible` sends every request there; the fused numba passes of APGD,
PGS and Newton read the rigid arrays only.
"""
from functools import cached_property

import numpy as np

from extrados.engine.solvers.delassus import diagonal_blocks_kernel, diagonal_scale_kernel, row_sum_bound_kernel
from extrados.engine.solvers.problem import Problem
from extrados.engine.solvers.spg import solve_spg


class FlexibleProblem(Problem):
    """A Problem plus dense flexibility blocks ``(rows, matrix)``: rows (k,) int64 contact indices, matrix
    (3k, 3k) float64 in those contacts' frames (n, u, v), row 3 r + j the j-th direction of contact rows[r]."""

    def __init__(self, *args, flexibility=(), **kwargs):
        super().__init__(*args, **kwargs)
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

    def flexible_velocity(self, gamma):
        """(n_c, 3) W_e gamma, the contact velocity the deformable blocks' elasticity adds (m/s)."""
        out = np.zeros((self.n_contacts, 3))
        for rows, matrix in self.flexibility:
            out[rows] += (matrix @ gamma[rows].reshape(-1)).reshape(-1, 3)
        return out

    def apply(self, gamma):
        """N gamma with the flexibility blocks (module docstring)."""
        gamma = np.ascontiguousarray(gamma, dtype=np.float64)
        return super().apply(gamma) + self.flexible_velocity(gamma)

    @cached_property
    def _diagonal(self):
        blocks = diagonal_blocks_kernel(self.operator)
        for rows, matrix in self.flexibility:
            for r, i in enumerate(rows):
                blocks[i] += matrix[3 * r:3 * r + 3, 3 * r:3 * r + 3]
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


def solve_flexible(problem, gamma0=None, tolerance=1e-6, max_iterations=2000, record_history=False, **_):
    """SolverResult of a FlexibleProblem by SPG, whatever solver was asked for (module docstring)."""
    return solve_spg(problem, gamma0=gamma0, tolerance=tolerance, max_iterations=max_iterations,
                     record_history=record_history)
