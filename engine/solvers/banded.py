"""Symmetric positive definite band matrices: Cholesky factorisation and solves in numba.

The Newton solver's H (engine.solvers.newton, N4) couples blocks that touch. Ordered by reverse
Cuthill-McKee (scipy.sparse.csgraph) a chain of blocks such as an arch or a column has a band of a few
blocks: H of a 40-voussoir arch, order 240, has half-bandwidth 11, and a band Cholesky costs
n b^2 / 2 flops, microseconds, where a general sparse factorisation called from Python costs a fraction of
a millisecond in its setup alone. Storage is the lower band by rows: band[i, k] = H[i, i - k] for
0 <= k <= b (entries with i - k < 0 unused).

    L[j, j] = sqrt(H[j, j] - sum_k L[j, k]^2),  L[i, j] = (H[i, j] - sum_k L[i, k] L[j, k]) / L[j, j],   (B1)

sums over max(i, j) - b <= k < j (Golub & Van Loan, Matrix Computations, 4th ed., alg. 4.3.5).
"""
import numpy as np
from numba import njit


@njit(cache=True)
def band_cholesky(band):
    """Overwrite the lower band ``band`` (n, b + 1) of an SPD matrix with its Cholesky factor (B1).

    Returns False, leaving ``band`` partly overwritten, when a pivot is not positive (the matrix is not
    positive definite to working precision)."""
    n, width = band.shape
    b = width - 1
    for j in range(n):
        pivot = band[j, 0]
        for k in range(max(0, j - b), j):
            pivot -= band[j, j - k] * band[j, j - k]
        if not pivot > 0.0:
            return False
        pivot = np.sqrt(pivot)
        band[j, 0] = pivot
        for i in range(j + 1, min(n, j + b + 1)):
            total = band[i, i - j]
            for k in range(max(0, i - b), j):
                total -= band[i, i - k] * band[j, j - k]
            band[i, i - j] = total / pivot
    return True


@njit(cache=True)
def band_solve(factor, rhs):
    """x with L L^T x = rhs, from the factor of ``band_cholesky``."""
    n, width = factor.shape
    b = width - 1
    x = rhs.copy()
    for i in range(n):
        total = x[i]
        for k in range(max(0, i - b), i):
            total -= factor[i, i - k] * x[k]
        x[i] = total / factor[i, 0]
    for i in range(n - 1, -1, -1):
        total = x[i]
        for k in range(i + 1, min(n, i + b + 1)):
            total -= factor[k, k - i] * x[k]
        x[i] = total / factor[i, 0]
    return x


@njit(cache=True)
def band_multiply(band, x):
    """H x for the symmetric matrix whose lower band is ``band``."""
    n, width = band.shape
    b = width - 1
    out = np.zeros(n)
    for i in range(n):
        out[i] += band[i, 0] * x[i]
        for k in range(1, min(b, i) + 1):
            out[i] += band[i, k] * x[i - k]
            out[i - k] += band[i, k] * x[i]
    return out
