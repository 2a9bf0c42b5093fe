"""The band Cholesky of engine.solvers.banded against numpy's dense factorisation and solve (B1)."""
import numpy as np
import pytest

from extrados.engine.solvers.banded import band_cholesky, band_multiply, band_solve

#: Relative agreement with the dense LAPACK results (well-conditioned matrices of order 60).
AGREEMENT = 1e-12


def random_band_matrix(seed, n=60, half_band=7):
    """A symmetric positive definite matrix with ``half_band`` nonzero diagonals below the main one, and its
    lower band (n, half_band + 1)."""
    rng = np.random.default_rng(seed)
    dense = np.zeros((n, n))
    for k in range(1, half_band + 1):
        values = rng.normal(size=n - k)
        dense += np.diag(values, -k) + np.diag(values, k)
    dense += np.diag(np.abs(dense).sum(axis=1) + rng.uniform(0.5, 1.5, n))  # diagonally dominant
    band = np.zeros((n, half_band + 1))
    for i in range(n):
        for k in range(min(i, half_band) + 1):
            band[i, k] = dense[i, i - k]
    return dense, band


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_band_factor_is_numpys_cholesky_factor(seed):
    dense, band = random_band_matrix(seed)
    assert band_cholesky(band)
    expected = np.linalg.cholesky(dense)
    factor = np.zeros_like(dense)
    for i in range(dense.shape[0]):
        for k in range(min(i, band.shape[1] - 1) + 1):
            factor[i, i - k] = band[i, k]
    assert np.abs(factor - expected).max() <= AGREEMENT * np.abs(expected).max()


@pytest.mark.parametrize("seed", [3, 4])
def test_solve_and_multiply_match_the_dense_matrix(seed):
    dense, band = random_band_matrix(seed)
    rhs = np.random.default_rng(seed).normal(size=dense.shape[0])
    assert np.abs(band_multiply(band, rhs) - dense @ rhs).max() <= AGREEMENT * np.abs(dense @ rhs).max()
    factor = band.copy()
    assert band_cholesky(factor)
    solution = band_solve(factor, rhs)
    expected = np.linalg.solve(dense, rhs)
    assert np.abs(solution - expected).max() <= 1e-10 * np.abs(expected).max()


def test_a_matrix_that_is_not_positive_definite_is_reported():
    dense, band = random_band_matrix(5)
    band[10, 0] = -1.0  # a negative diagonal entry
    assert not band_cholesky(band)
