"""Siconos' fc3d (Coulomb friction) on an exported contact problem, for tests/test_coulomb_siconos.py.

Run by the system Python with Debian's python3-siconos (not the project's venv; tests/siconos_setup.py):

    /usr/bin/python3 tests/siconos_peer.py solve problem.npz answer.npz [nsn_ac | nsgs | dsfp]
    /usr/bin/python3 tests/siconos_peer.py error problem.npz reactions.npy

problem.npz: the Delassus matrix W in CSR (W_data, W_indices, W_indptr, W_shape), q (3 n_c,), mu (n_c,)
(benchmarks/solvers.py's export). ``solve`` writes answer.npz: reaction r and velocity u = W r + q (3 n_c,),
info (0: solved) and Siconos' error; ``error`` prints Siconos' error of the reactions given (fc3d_compute_error:
the natural map of the Coulomb problem over ||q||). fc3d states the problem with De Saxce's modified velocity
u + mu |u_t| e_n, the problem that engine.solvers.coulomb solves.
"""
import sys

import numpy as np
import siconos.numerics as sn

SOLVERS = {"nsn_ac": sn.SICONOS_FRICTION_3D_NSN_AC, "nsgs": sn.SICONOS_FRICTION_3D_NSGS,
           "dsfp": sn.SICONOS_FRICTION_3D_DSFP}
TOLERANCE = 1e-12
MAX_ITERATIONS = 2000


def dense(values, columns, starts, shape):
    """The CSR matrix as a dense array (Debian's python3-siconos comes without scipy)."""
    matrix = np.zeros(tuple(shape))
    rows = np.repeat(np.arange(shape[0]), np.diff(starts))
    matrix[rows, columns] = values
    return matrix


def load(source):
    """W (dense), q, mu and Siconos' FrictionContactProblem of an exported problem."""
    data = np.load(source)
    delassus = dense(data["W_data"], data["W_indices"], data["W_indptr"], data["W_shape"])
    q, mu = data["q"].astype(float), data["mu"].astype(float)
    return delassus, q, mu, sn.FrictionContactProblem(3, mu.size, delassus, q, mu)


def solve(source, target, solver="nsn_ac"):
    _, q, mu, problem = load(source)
    options = sn.SolverOptions(SOLVERS[solver])
    options.iparam[sn.SICONOS_IPARAM_MAX_ITER] = MAX_ITERATIONS
    options.dparam[sn.SICONOS_DPARAM_TOL] = TOLERANCE
    reaction, velocity = np.zeros(3 * mu.size), np.zeros(3 * mu.size)
    info = sn.fc3d_driver(problem, reaction, velocity, options)
    np.savez(target, reaction=reaction, velocity=velocity, info=info, error=options.dparam[sn.SICONOS_DPARAM_RESIDU])


def error(source, reactions):
    delassus, q, _, problem = load(source)
    reaction = np.load(reactions).astype(float)
    velocity = delassus @ reaction + q
    options = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSN_AC)
    _, value = sn.fc3d_compute_error(problem, reaction, velocity, TOLERANCE, options, float(np.linalg.norm(q)))
    print(repr(value))


if __name__ == "__main__":
    {"solve": solve, "error": error}[sys.argv[1]](*sys.argv[2:])
