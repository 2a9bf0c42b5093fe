"""Sparse Cholesky of a symmetric positive definite matrix of 6 x 6 blocks, in numba.

The Newton solver's H (engine.solvers.newton, N4) has a 6 x 6 block for each movable body and for each
pair of bodies that touch. Where its band is wide (a dome, a wall) a general sparse LU (SuperLU) spends
18 ms a step on the 288-body dome of benchmarks/solvers.py; the factor of a minimum degree order has about
three times H's blocks, so a block factorisation in that order costs a few million flops.

Three stages:

1. Order (`minimum_degree`): eliminate, one at a time, the body of fewest neighbours among those left,
   joining its neighbours pairwise (the fill). The neighbours a body has when it is eliminated are the
   rows of its column of L, all eliminated after it (George & Liu, Computer Solution of Large Sparse
   Positive Definite Systems, 1981, ch. 5).
2. Factorise (`BlockCholesky.factorise`), right-looking by block columns j in elimination order:

       L_jj = chol(A_jj),   L_ij = A_ij L_jj^-T,   A_il -= L_ij L_lj^T  for i >= l in rows(j),       (C1)

   each (i, l) being in rows(l) because the rows of column j were made a clique when j was eliminated.
   The order is first made a postorder of the elimination tree (parent(j) = first row of column j; the
   fill does not change), so that columns sharing one structure are consecutive: a run of at least
   ``DENSE_WIDTH`` such columns (a supernode: the last columns of a dome or wall, the separators between
   its parts) is factorised as one dense panel by LAPACK's potrf and BLAS's trsm and syrk
   (`BlockCholesky.factorise_supernode`; the other columns one by one, `factorise_columns`). Such runs hold
   82-84 % of the flops of the factors of a 1,036-block wall and an 800-block dome (on supernodes: Ng &
   Peyton, SIAM J. Sci. Comput. 14, 1993).
3. Solve (`solve`): L y = b forward by block columns, L^T x = y backward.
"""
from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy.linalg.blas import dsyrk, dtrsm
from scipy.linalg.lapack import dpotrf
from threadpoolctl import ThreadpoolController

#: Most block rows ordered here: `minimum_degree` keeps the graph as a dense n x n byte matrix (64 MB at
#: this size) and scans it in O(n^2); larger problems factorise by SuperLU (engine.solvers.newton).
MAX_BODIES = 8000
#: Fewest consecutive columns of one structure factorised as a dense supernode; narrower runs go column by
#: column by (C1)'s 6 x 6 block products.
DENSE_WIDTH = 4
#: The BLAS libraries loaded (numpy's, scipy's), held to one thread while a factor is computed: the panels
#: are of order 24-600, where OpenBLAS's threads cost more than they give (the 5,026-block wall's factor:
#: 134 ms on one thread, 173 ms on two), and far more when the cores are busy with another analysis.
BLAS = ThreadpoolController()


@njit(cache=True)
def minimum_degree(adjacency):
    """Minimum degree elimination of a graph given as a dense symmetric 0/1 matrix (n, n) (overwritten with
    the filled graph). Returns the elimination order (n,) and the later neighbours of each eliminated body,
    as positions ascending: ``starts`` (n + 1,) into ``rows``. Ties go to the lowest index."""
    n = adjacency.shape[0]
    for p in range(n):
        adjacency[p, p] = 0
    degree = adjacency.sum(axis=1).astype(np.int64)
    alive = np.ones(n, np.bool_)
    order = np.empty(n, np.int64)
    starts = np.zeros(n + 1, np.int64)
    bodies = np.empty(max(4 * n, 16), np.int64)   # the later neighbours, as bodies, column after column
    for step in range(n):
        pick, fewest = -1, n + 1
        for p in range(n):
            if alive[p] and degree[p] < fewest:
                pick, fewest = p, degree[p]
        order[step] = pick
        alive[pick] = False
        first = starts[step]
        if bodies.shape[0] < first + fewest:
            grown = np.empty(2 * (first + fewest), np.int64)
            grown[:first] = bodies[:first]
            bodies = grown
        count = 0
        for q in range(n):
            if alive[q] and adjacency[pick, q]:
                bodies[first + count] = q
                count += 1
        starts[step + 1] = first + count
        for a in range(count):
            p = bodies[first + a]
            degree[p] -= 1
            for b in range(a + 1, count):
                q = bodies[first + b]
                if not adjacency[p, q]:
                    adjacency[p, q] = 1
                    adjacency[q, p] = 1
                    degree[p] += 1
                    degree[q] += 1
    position = np.empty(n, np.int64)
    position[order] = np.arange(n)
    rows = np.empty(starts[n], np.int64)
    for j in range(n):
        rows[starts[j]:starts[j + 1]] = np.sort(position[bodies[starts[j]:starts[j + 1]]])
    return order, starts, rows


@njit(cache=True)
def postorder(starts, rows):
    """A postorder (n,) of the elimination tree of L's columns (parent(j) = rows[starts[j]], the first row
    below j), children in ascending order: each subtree's columns become consecutive."""
    n = starts.shape[0] - 1
    head = np.full(n, -1, np.int64)
    sibling = np.full(n, -1, np.int64)
    for j in range(n - 1, -1, -1):
        if starts[j + 1] > starts[j]:
            parent = rows[starts[j]]
            sibling[j] = head[parent]
            head[parent] = j
    post = np.empty(n, np.int64)
    stack = np.empty(n, np.int64)
    count = 0
    for root in range(n):
        if starts[root + 1] > starts[root]:
            continue
        top = 0
        stack[0] = root
        while top >= 0:
            node = stack[top]
            child = head[node]
            if child < 0:
                post[count] = node
                count += 1
                top -= 1
            else:
                head[node] = sibling[child]
                top += 1
                stack[top] = child
    return post


@njit(cache=True)
def relabel(starts, rows, post):
    """Columns' ``starts`` and ``rows`` (positions) after the columns are renumbered in the order ``post``."""
    n = post.shape[0]
    new_position = np.empty(n, np.int64)
    new_position[post] = np.arange(n)
    new_starts = np.zeros(n + 1, np.int64)
    for k in range(n):
        new_starts[k + 1] = new_starts[k] + starts[post[k] + 1] - starts[post[k]]
    new_rows = np.empty(rows.shape[0], np.int64)
    for k in range(n):
        j = post[k]
        new_rows[new_starts[k]:new_starts[k + 1]] = np.sort(new_position[rows[starts[j]:starts[j + 1]]])
    return new_starts, new_rows


@njit(cache=True)
def supernodes(starts, rows, width):
    """(m, 2) first and end (exclusive) columns of the runs of at least ``width`` consecutive columns of one
    structure: column j + 1 is j's parent and rows(j) = {j + 1} + rows(j + 1)."""
    n = starts.shape[0] - 1
    found = np.empty((n // max(width, 1) + 1, 2), np.int64)
    count = 0
    first = 0
    for j in range(n):
        last_of_run = j == n - 1
        if not last_of_run:
            counts_j = starts[j + 1] - starts[j]
            counts_next = starts[j + 2] - starts[j + 1]
            last_of_run = not (counts_j > 0 and rows[starts[j]] == j + 1 and counts_j == counts_next + 1)
        if last_of_run:
            if j + 1 - first >= width:
                found[count, 0] = first
                found[count, 1] = j + 1
                count += 1
            first = j + 1
    return found[:count].copy()


@njit(cache=True)
def block_slots(pairs, position, starts, rows):
    """Where each block (p, q) of ``pairs`` goes: the diagonal block of p's position (``-1 - position``), the
    off-diagonal slot of L holding it (row position(p) > column position(q)), ``n_off`` for a block above the
    diagonal (its transpose is the one read), ``n_off + 1`` for a lower block missing from L's pattern."""
    n_off = rows.shape[0]
    out = np.empty(pairs.shape[0], np.int64)
    for s in range(pairs.shape[0]):
        i, j = position[pairs[s, 0]], position[pairs[s, 1]]
        if i == j:
            out[s] = -1 - i
        elif i < j:
            out[s] = n_off
        else:
            out[s] = n_off + 1
            for k in range(starts[j], starts[j + 1]):
                if rows[k] == i:
                    out[s] = k
    return out


@njit(cache=True)
def chol6(block):
    """Lower Cholesky factor of a 6 x 6 SPD block in place (the upper part zeroed); False on a pivot <= 0."""
    for j in range(6):
        pivot = block[j, j]
        for k in range(j):
            pivot -= block[j, k] * block[j, k]
        if not pivot > 0.0:
            return False
        pivot = np.sqrt(pivot)
        block[j, j] = pivot
        for i in range(j + 1, 6):
            total = block[i, j]
            for k in range(j):
                total -= block[i, k] * block[j, k]
            block[i, j] = total / pivot
        for i in range(j):
            block[i, j] = 0.0
    return True


@njit(cache=True)
def right_divide_transposed(block, factor):
    """block <- block factor^-T for a lower triangular 6 x 6 ``factor`` (each row solved forward)."""
    for r in range(6):
        for j in range(6):
            total = block[r, j]
            for k in range(j):
                total -= block[r, k] * factor[j, k]
            block[r, j] = total / factor[j, j]


@njit(cache=True)
def subtract_product(target, left, right):
    """target -= left right^T for 6 x 6 blocks."""
    for r in range(6):
        for c in range(6):
            total = 0.0
            for k in range(6):
                total += left[r, k] * right[c, k]
            target[r, c] -= total


@njit(cache=True)
def assemble(blocks, slots, diagonal, off_diagonal):
    """H's ``blocks`` (n_slots, 6, 6) into the lower blocks of L's pattern by ``slots`` (`block_slots`)."""
    n_off = off_diagonal.shape[0]
    diagonal[:] = 0.0
    off_diagonal[:] = 0.0
    for s in range(blocks.shape[0]):
        slot = slots[s]
        if slot < 0:
            diagonal[-1 - slot] += blocks[s]
        elif slot < n_off:
            off_diagonal[slot] += blocks[s]


@njit(cache=True)
def factorise_columns(first, end, starts, rows, diagonal, off_diagonal, where):
    """(C1) for the columns first..end - 1, one at a time; False when a pivot is not positive. ``where`` (n,)
    is scratch space."""
    for j in range(first, end):
        if not chol6(diagonal[j]):
            return False
        for a in range(starts[j], starts[j + 1]):
            right_divide_transposed(off_diagonal[a], diagonal[j])
        for b in range(starts[j], starts[j + 1]):
            column = rows[b]
            subtract_product(diagonal[column], off_diagonal[b], off_diagonal[b])
            for k in range(starts[column], starts[column + 1]):
                where[rows[k]] = k
            for a in range(b + 1, starts[j + 1]):
                subtract_product(off_diagonal[where[rows[a]]], off_diagonal[a], off_diagonal[b])
    return True


@njit(cache=True)
def gather_supernode(first, end, starts, rows, diagonal, off_diagonal, panel, below):
    """The supernode of columns first..end - 1 as dense matrices: its diagonal part into ``panel``
    (6w, 6w) (lower triangle) and the rows below it into ``below`` (6r, 6w)."""
    last = end - 1
    r = starts[last + 1] - starts[last]
    for c in range(end - first):
        j = first + c
        inside = last - j
        panel[6 * c:6 * c + 6, 6 * c:6 * c + 6] = diagonal[j]
        for a in range(inside):
            row = c + 1 + a
            panel[6 * row:6 * row + 6, 6 * c:6 * c + 6] = off_diagonal[starts[j] + a]
        for a in range(r):
            below[6 * a:6 * a + 6, 6 * c:6 * c + 6] = off_diagonal[starts[j] + inside + a]


@njit(cache=True)
def scatter_supernode(first, end, starts, rows, diagonal, off_diagonal, panel, below, update, where):
    """L's blocks of the supernode back from ``panel`` (its factor) and ``below`` (the rows below, divided
    by the factor's transpose), and the update ``update`` (6r, 6r) (lower triangle: below below^T)
    subtracted from the columns of the rows below, as (C1) does block by block."""
    last = end - 1
    r = starts[last + 1] - starts[last]
    for c in range(end - first):
        j = first + c
        inside = last - j
        diagonal[j] = panel[6 * c:6 * c + 6, 6 * c:6 * c + 6]
        for p in range(6):
            for q in range(p + 1, 6):
                diagonal[j, p, q] = 0.0
        for a in range(inside):
            row = c + 1 + a
            off_diagonal[starts[j] + a] = panel[6 * row:6 * row + 6, 6 * c:6 * c + 6]
        for a in range(r):
            off_diagonal[starts[j] + inside + a] = below[6 * a:6 * a + 6, 6 * c:6 * c + 6]
    tail = starts[last]
    for b in range(r):
        column = rows[tail + b]
        for p in range(6):
            for q in range(p + 1):
                value = update[6 * b + p, 6 * b + q]
                diagonal[column, p, q] -= value
                if q < p:
                    diagonal[column, q, p] -= value
        for k in range(starts[column], starts[column + 1]):
            where[rows[k]] = k
        for a in range(b + 1, r):
            off_diagonal[where[rows[tail + a]]] -= update[6 * a:6 * a + 6, 6 * b:6 * b + 6]


@njit(cache=True)
def solve_factorised(diagonal, off_diagonal, starts, rows, rhs):
    """x (n, 6) with L L^T x = rhs (n, 6), all in elimination order."""
    n = diagonal.shape[0]
    x = rhs.copy()
    for j in range(n):
        for r in range(6):
            total = x[j, r]
            for k in range(r):
                total -= diagonal[j, r, k] * x[j, k]
            x[j, r] = total / diagonal[j, r, r]
        for a in range(starts[j], starts[j + 1]):
            i = rows[a]
            for r in range(6):
                total = 0.0
                for k in range(6):
                    total += off_diagonal[a, r, k] * x[j, k]
                x[i, r] -= total
    for j in range(n - 1, -1, -1):
        for a in range(starts[j], starts[j + 1]):
            i = rows[a]
            for r in range(6):
                total = 0.0
                for k in range(6):
                    total += off_diagonal[a, k, r] * x[i, k]
                x[j, r] -= total
        for r in range(5, -1, -1):
            total = x[j, r]
            for k in range(r + 1, 6):
                total -= diagonal[j, k, r] * x[j, k]
            x[j, r] = total / diagonal[j, r, r]
    return x


@njit(cache=True)
def block_multiply(blocks, pairs, x):
    """H x (n, 6) for H given by its (n_slots, 6, 6) blocks at ``pairs`` (p, q) and x (n, 6)."""
    out = np.zeros_like(x)
    for s in range(pairs.shape[0]):
        p, q = pairs[s, 0], pairs[s, 1]
        for r in range(6):
            total = 0.0
            for c in range(6):
                total += blocks[s, r, c] * x[q, c]
            out[p, r] += total
    return out


@dataclass
class BlockCholesky:
    """The order and fill of L for H's block pattern, and L's blocks once `factorise`d.

    Parameters (of `of_pattern`): ``pairs`` (n_slots, 2) block positions (p, q) of H, the diagonal and both
    (p, q) and (q, p) of each off-diagonal pair; ``n`` the number of block rows.
    """

    order: np.ndarray         # (n,) body eliminated at each position
    position: np.ndarray      # (n,) position of each body
    starts: np.ndarray        # (n + 1,) column j of L holds rows[starts[j]:starts[j + 1]]
    rows: np.ndarray          # (n_off,) positions, ascending within each column
    slots: np.ndarray         # (n_slots,) where each of H's blocks goes (`block_slots`)
    diagonal: np.ndarray      # (n, 6, 6) L_jj
    off_diagonal: np.ndarray  # (n_off, 6, 6) L_ij
    dense: np.ndarray         # (m, 2) first and end columns of the supernodes factorised densely (`supernodes`)

    @classmethod
    def of_pattern(cls, pairs, n):
        adjacency = np.zeros((n, n), np.uint8)
        adjacency[pairs[:, 0], pairs[:, 1]] = 1
        adjacency[pairs[:, 1], pairs[:, 0]] = 1
        order, starts, rows = minimum_degree(adjacency)
        post = postorder(starts, rows)
        starts, rows = relabel(starts, rows, post)
        order = order[post]
        position = np.empty(n, np.int64)
        position[order] = np.arange(n)
        slots = block_slots(pairs, position, starts, rows)
        if np.any(slots == rows.size + 1):
            raise RuntimeError("block_cholesky: a block of H is missing from the pattern of L")
        return cls(order, position, starts, rows, slots, np.empty((n, 6, 6)), np.empty((rows.size, 6, 6)),
                   supernodes(starts, rows, DENSE_WIDTH))

    def flops(self):
        """Multiplications and additions of one factorisation, about: (C1)'s block products, 432 flops each."""
        counts = np.diff(self.starts).astype(np.float64)
        return float(432.0 * (0.5 * counts * (counts + 1.0) + counts + 1.0).sum())

    def factorise(self, blocks):
        """Factorise H from its (n_slots, 6, 6) blocks; False when it is not positive definite in rounding."""
        assemble(blocks, self.slots, self.diagonal, self.off_diagonal)
        where = np.empty(self.diagonal.shape[0], np.int64)
        done = 0
        if len(self.dense):
            with BLAS.limit(limits=1, user_api="blas"):
                for first, end in self.dense:
                    columns = factorise_columns(done, first, self.starts, self.rows, self.diagonal,
                                                self.off_diagonal, where)
                    if not (columns and self.factorise_supernode(first, end, where)):
                        return False
                    done = end
        return factorise_columns(done, self.diagonal.shape[0], self.starts, self.rows, self.diagonal,
                                 self.off_diagonal, where)

    def factorise_supernode(self, first, end, where):
        """(C1) for the columns first..end - 1 of one structure at once: potrf of their diagonal part,
        trsm of the rows below, syrk of the update; False when a pivot is not positive."""
        r = self.starts[end] - self.starts[end - 1]
        panel = np.zeros((6 * (end - first), 6 * (end - first)), order="F")
        below = np.empty((6 * r, 6 * (end - first)), order="F")
        gather_supernode(first, end, self.starts, self.rows, self.diagonal, self.off_diagonal, panel, below)
        panel, info = dpotrf(panel, lower=1, clean=1, overwrite_a=1)
        if info != 0:
            return False
        update = np.zeros((0, 0))
        if r:
            below = dtrsm(1.0, panel, below, side=1, lower=1, trans_a=1, overwrite_b=1)
            update = dsyrk(1.0, below, lower=1)
        scatter_supernode(first, end, self.starts, self.rows, self.diagonal, self.off_diagonal, panel, below,
                          update, where)
        return True

    def solve(self, rhs):
        """x (n, 6) with H x = rhs (n, 6), by the last factorisation, rows in the bodies' order."""
        x = solve_factorised(self.diagonal, self.off_diagonal, self.starts, self.rows, rhs[self.order])
        out = np.empty_like(x)
        out[self.order] = x
        return out
