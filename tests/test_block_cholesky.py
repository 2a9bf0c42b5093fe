"""The block Cholesky of engine.solvers.block_cholesky (C1) against numpy's dense factorisation and solve, its
minimum degree fill, and the Newton solver on a wide band through it."""
import numpy as np
import pytest

import problems
from extrados import Model, analyze, generators
from extrados.engine.solvers import newton, solve
from extrados.engine.solvers.block_cholesky import DENSE_WIDTH, BlockCholesky, block_multiply

#: Relative agreement with the dense LAPACK results (well-conditioned matrices of order 6 x 40).
AGREEMENT = 1e-12


def random_block_matrix(seed, n=40, links=70):
    """A symmetric positive definite matrix of 6 x 6 blocks on a random graph of n bodies: its blocks at
    ``pairs`` (the diagonal and both orders of each link), and the dense matrix."""
    rng = np.random.default_rng(seed)
    links = {tuple(sorted(pair)) for pair in rng.integers(0, n, (links, 2)) if pair[0] != pair[1]}
    pairs = np.array(sorted({(p, p) for p in range(n)} | links | {(q, p) for p, q in links}))
    blocks = rng.normal(size=(len(pairs), 6, 6))
    slot = {(int(p), int(q)): k for k, (p, q) in enumerate(pairs)}
    for (p, q), k in slot.items():
        if p < q:
            blocks[slot[q, p]] = blocks[k].T
        elif p == q:
            blocks[k] = 0.5 * (blocks[k] + blocks[k].T)
    dense = np.zeros((6 * n, 6 * n))
    for (p, q), k in slot.items():
        dense[6 * p:6 * p + 6, 6 * q:6 * q + 6] = blocks[k]
    shift = np.abs(dense).sum(axis=1) + 1.0  # diagonally dominant
    for p in range(n):
        blocks[slot[p, p]] += np.diag(shift[6 * p:6 * p + 6])
    return pairs, blocks, dense + np.diag(shift)


def dense_factor(cholesky):
    """L (6n, 6n) of a factorised BlockCholesky, in elimination order."""
    n = cholesky.diagonal.shape[0]
    factor = np.zeros((6 * n, 6 * n))
    for j in range(n):
        factor[6 * j:6 * j + 6, 6 * j:6 * j + 6] = cholesky.diagonal[j]
        for a in range(cholesky.starts[j], cholesky.starts[j + 1]):
            i = cholesky.rows[a]
            factor[6 * i:6 * i + 6, 6 * j:6 * j + 6] = cholesky.off_diagonal[a]
    return factor


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_block_factor_is_numpys_cholesky_factor_of_the_reordered_matrix(seed):
    pairs, blocks, dense = random_block_matrix(seed)
    cholesky = BlockCholesky.of_pattern(pairs, 40)
    assert cholesky.factorise(blocks)
    rows = (6 * cholesky.order[:, None] + np.arange(6)).ravel()
    expected = np.linalg.cholesky(dense[np.ix_(rows, rows)])
    assert np.abs(dense_factor(cholesky) - expected).max() <= AGREEMENT * np.abs(expected).max()


@pytest.mark.parametrize("seed", [3, 4])
def test_solve_and_multiply_match_the_dense_matrix(seed):
    pairs, blocks, dense = random_block_matrix(seed)
    rhs = np.random.default_rng(seed).normal(size=(40, 6))
    product = block_multiply(blocks, pairs, rhs).ravel()
    assert np.abs(product - dense @ rhs.ravel()).max() <= AGREEMENT * np.abs(product).max()
    cholesky = BlockCholesky.of_pattern(pairs, 40)
    assert cholesky.factorise(blocks)
    expected = np.linalg.solve(dense, rhs.ravel())
    assert np.abs(cholesky.solve(rhs).ravel() - expected).max() <= 1e-10 * np.abs(expected).max()


def test_the_fill_holds_every_block_and_closes_each_column_into_a_clique():
    """A 12 x 12 grid of bodies (a wall's pattern): each column's rows come after it, ascending; each block
    below the diagonal is in L; the rows of a column are joined pairwise in the columns they pass through,
    which is what (C1)'s update needs."""
    side = 12
    links = [(r * side + c, r * side + c + 1) for r in range(side) for c in range(side - 1)]
    links += [(r * side + c, (r + 1) * side + c) for r in range(side - 1) for c in range(side)]
    pairs = np.array(sorted({(p, p) for p in range(side ** 2)} | set(links) | {(q, p) for p, q in links}))
    cholesky = BlockCholesky.of_pattern(pairs, side ** 2)
    starts, rows, position = cholesky.starts, cholesky.rows, cholesky.position
    columns = [rows[starts[j]:starts[j + 1]] for j in range(side ** 2)]
    assert all(np.all(column > j) and np.all(np.diff(column) > 0) for j, column in enumerate(columns))
    pattern = {(int(i), j) for j, column in enumerate(columns) for i in column}
    lower = {(max(position[p], position[q]), min(position[p], position[q])) for p, q in pairs if p != q}
    assert lower <= pattern
    assert all((int(i), int(l)) in pattern for column in columns for k, l in enumerate(column) for i in column[k + 1:])
    assert len(pattern) < 4 * len(lower)   # minimum degree: far below the dense triangle's 10,296 blocks


def grid_block_matrix(seed, side=12):
    """A diagonally dominant matrix of 6 x 6 blocks on a side x side grid of bodies (a wall's pattern), as
    `random_block_matrix` returns it."""
    rng = np.random.default_rng(seed)
    n = side ** 2
    links = [(r * side + c, r * side + c + 1) for r in range(side) for c in range(side - 1)]
    links += [(r * side + c, (r + 1) * side + c) for r in range(side - 1) for c in range(side)]
    pairs = np.array(sorted({(p, p) for p in range(n)} | set(links) | {(q, p) for p, q in links}))
    slot = {(int(p), int(q)): k for k, (p, q) in enumerate(pairs)}
    blocks = rng.normal(size=(len(pairs), 6, 6))
    for (p, q), k in slot.items():
        if p < q:
            blocks[slot[q, p]] = blocks[k].T
        elif p == q:
            blocks[k] = 0.5 * (blocks[k] + blocks[k].T) + 40.0 * np.eye(6)
    dense = np.zeros((6 * n, 6 * n))
    for (p, q), k in slot.items():
        dense[6 * p:6 * p + 6, 6 * q:6 * q + 6] = blocks[k]
    return pairs, blocks, dense


def test_a_grids_supernodes_are_factorised_densely_to_numpys_factor():
    """The grid's last columns and separators share one structure: postordered, they form runs of at least
    DENSE_WIDTH columns (supernodes) that potrf, trsm and syrk factorise; the factor is still numpy's."""
    pairs, blocks, dense = grid_block_matrix(7)
    cholesky = BlockCholesky.of_pattern(pairs, 144)
    assert len(cholesky.dense) >= 2
    first, end = cholesky.dense[-1]
    assert end - first >= DENSE_WIDTH
    for j in range(first, end - 1):   # rows(j) = {j + 1} + rows(j + 1)
        column, parent = cholesky.rows[cholesky.starts[j]:cholesky.starts[j + 1]], cholesky.rows[
            cholesky.starts[j + 1]:cholesky.starts[j + 2]]
        assert column[0] == j + 1 and np.array_equal(column[1:], parent)
    assert cholesky.factorise(blocks)
    rows = (6 * cholesky.order[:, None] + np.arange(6)).ravel()
    expected = np.linalg.cholesky(dense[np.ix_(rows, rows)])
    assert np.abs(dense_factor(cholesky) - expected).max() <= AGREEMENT * np.abs(expected).max()
    rhs = np.random.default_rng(8).normal(size=(144, 6))
    exact = np.linalg.solve(dense, rhs.ravel())
    assert np.abs(cholesky.solve(rhs).ravel() - exact).max() <= 1e-10 * np.abs(exact).max()


def test_a_pivot_that_is_not_positive_inside_a_supernode_is_reported():
    pairs, blocks, _ = grid_block_matrix(9)
    cholesky = BlockCholesky.of_pattern(pairs, 144)
    body = cholesky.order[cholesky.dense[-1][0]]
    blocks[np.flatnonzero((pairs[:, 0] == body) & (pairs[:, 1] == body))[0]] = -np.eye(6)
    assert not cholesky.factorise(blocks)


def test_a_matrix_that_is_not_positive_definite_is_reported():
    pairs, blocks, _ = random_block_matrix(5)
    diagonal = np.flatnonzero(pairs[:, 0] == pairs[:, 1])[7]
    blocks[diagonal] = -np.eye(6)
    assert not BlockCholesky.of_pattern(pairs, 40).factorise(blocks)


def test_newton_solves_a_wide_band_through_the_block_factor_to_the_reference():
    """Contacts between random pairs of 100 blocks: no narrow band, so each Newton step factorises H by blocks."""
    problem = problems.random_problem(6, n_bodies=100, n_supports=4, n_contacts=400, equal_tangents=True)
    space = newton.BodySpace(problem)
    assert not space.banded
    result = newton.solve_newton(problem, tolerance=1e-8, max_iterations=100000, space=space)
    reference = solve(problem, "reference", tolerance=1e-12)
    assert space.cholesky is not None and result.converged
    assert np.abs(result.gamma - reference.gamma).max() <= 1e-4 * np.abs(reference.gamma).max()


def test_a_wall_solved_by_newton_stands_with_apgds_reactions():
    """A 10 x 12 running-bond wall, whose H has no narrow band: Newton's reactions, through the block factor,
    are APGD's."""
    doc = generators.generate("wall", courses=10, blocks_per_course=12)

    def solved_by(name):
        return analyze(Model.from_dict({**doc, "settings": {**doc.get("settings", {}), "solver": name}}), "static")

    by_newton, by_apgd = solved_by("newton"), solved_by("apgd")
    assert by_newton.solver["name"] == "newton" and by_newton.solver["converged"]
    assert by_newton.stable and by_apgd.stable
    weight = np.abs(by_apgd.reactions.force[:, 2]).sum()
    assert by_newton.reactions.force == pytest.approx(by_apgd.reactions.force, abs=1e-5 * weight)


def test_above_max_bodies_the_newton_steps_factorise_by_superlu(monkeypatch):
    problem = problems.random_problem(6, n_bodies=100, n_supports=4, n_contacts=400, equal_tangents=True)
    monkeypatch.setattr(newton, "MAX_BODIES", 10)
    space = newton.BodySpace(problem)
    result = newton.solve_newton(problem, tolerance=1e-8, max_iterations=100000, space=space)
    reference = solve(problem, "reference", tolerance=1e-12)
    assert space.cholesky is None and result.converged
    assert np.abs(result.gamma - reference.gamma).max() <= 1e-4 * np.abs(reference.gamma).max()
