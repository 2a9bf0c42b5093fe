"""Matrix-free products with the Delassus operator N = D^T M^-1 D + E of seed 000 (eq. 33, 43).

Contact i couples bodies ``body_a[i]`` and ``body_b[i]``. The relative contact velocity in the frame
(n, u, v) is u_i = J_a,i v_a + J_b,i v_b with J (3, 6) acting on the body twist [linear velocity,
angular velocity] in world frame, i.e. u_i = D_i^T v. The impulse gamma_i applies the generalized
impulse J_a,i^T gamma_i to body a and J_b,i^T gamma_i to body b.

Every product costs O(n_c + n_b): M^-1 D gamma is accumulated per body (scatter) and D^T v is
gathered per contact.

Parallel runs. A large problem is cut into runs of consecutive contacts (``Problem.partition``), one
thread each. The gather is independent per contact. The scatter D gamma = sum_i J_i^T gamma_i would
race on a body shared by two runs, so each run adds into its own (n_b, 6) accumulator and the
accumulators are summed per body afterwards, in run order. The cuts depend on n_c alone: the
rounding, hence every result, is the same whatever the number of threads.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, prange


class Operator(NamedTuple):
    """The arrays of N = D^T M^-1 D + E that its kernels read (see ``Problem``).

    The kernels read fields by name: a ``ProblemArrays``, which has these fields, serves as well.
    """

    body_a: np.ndarray  # (n_c,) int64, first body of each contact
    body_b: np.ndarray  # (n_c,) int64, second body of each contact
    jacobian_a: np.ndarray  # (n_c, 3, 6) float64, J_a,i: rows (n, u, v), columns [linear, angular], world frame
    jacobian_b: np.ndarray  # (n_c, 3, 6) float64, J_b,i
    inverse_mass: np.ndarray  # (n_b,) float64, 1/kg, zero for supports
    inverse_inertia: np.ndarray  # (n_b, 3, 3) float64, 1/(kg m^2), world frame, zero for supports
    compliance: np.ndarray  # (n_c, 3) float64, diagonal of E (s/kg), eq. 43


class Partition(NamedTuple):
    """Runs of the parallel kernels: run k holds contacts contact_bounds[k]..contact_bounds[k + 1]-1
    and, for the per-body step of the scatter, bodies body_bounds[k]..body_bounds[k + 1]-1."""

    contact_bounds: np.ndarray  # (n_parts + 1,) int64
    body_bounds: np.ndarray  # (n_parts + 1,) int64


@njit(cache=True)
def scatter_part(operator, start, stop, gamma, impulse):
    """Generalized impulse D gamma of contacts start..stop-1, summed per body.

    Contact i adds J_a,i^T gamma_i to body a and J_b,i^T gamma_i to body b.

    Parameters
    ----------
    operator : Operator
        Its bodies and Jacobians, for D gamma.
    start, stop : int
        Contact range.
    gamma : (n_c, 3) float64
        Impulses (gamma_n, gamma_u, gamma_v).
    impulse : (n_b, 6) float64
        Overwritten with [force, moment] impulse per body (N s, N m s).
    """
    jacobian_a = operator.jacobian_a
    jacobian_b = operator.jacobian_b
    impulse[:] = 0.0
    for i in range(start, stop):
        a = operator.body_a[i]
        b = operator.body_b[i]
        for k in range(6):
            impulse[a, k] += (jacobian_a[i, 0, k] * gamma[i, 0] + jacobian_a[i, 1, k] * gamma[i, 1]
                              + jacobian_a[i, 2, k] * gamma[i, 2])
            impulse[b, k] += (jacobian_b[i, 0, k] * gamma[i, 0] + jacobian_b[i, 1, k] * gamma[i, 1]
                              + jacobian_b[i, 2, k] * gamma[i, 2])


@njit(cache=True)
def body_velocity_range(operator, start, stop, impulse, velocity):
    """Velocity change w_B = M_B^-1 t_B of bodies start..stop-1, t_B the impulse summed over runs.

    Parameters
    ----------
    operator : Operator
        Its inverse masses and inertias, for M^-1 per body.
    start, stop : int
        Body range.
    impulse : (n_parts, n_b, 6) float64
        Impulse per run and body (``scatter_part``), summed in run order.
    velocity : (n_b, 6) float64
        Rows start..stop-1 receive [linear (m/s), angular (rad/s)].

    Returns
    -------
    float
        sum_B t_B^T M_B^-1 t_B over the range; over all bodies, gamma^T D^T M^-1 D gamma.
    """
    inverse_mass = operator.inverse_mass
    inverse_inertia = operator.inverse_inertia
    energy = 0.0
    total = np.empty(6)  # (6,) float64
    for body in range(start, stop):
        total[:] = 0.0
        for part in range(impulse.shape[0]):
            for k in range(6):
                total[k] += impulse[part, body, k]
        # M^-1 = blockdiag(m^-1 I_3, I^-1) per body
        for k in range(3):
            velocity[body, k] = inverse_mass[body] * total[k]
            velocity[body, 3 + k] = (inverse_inertia[body, k, 0] * total[3] + inverse_inertia[body, k, 1] * total[4]
                                     + inverse_inertia[body, k, 2] * total[5])
        for k in range(6):
            energy += total[k] * velocity[body, k]
    return energy


@njit(cache=True)
def gather_row(operator, i, a, b, row, velocity):
    """Row ``row`` (0..2) of D_i^T v = J_a,i v_a + J_b,i v_b of contact i, between bodies a and b.

    ``velocity`` (n_b, 6) holds the body twists; the row is a velocity (m/s) of the contact frame.
    """
    total = 0.0
    for k in range(6):
        total += operator.jacobian_a[i, row, k] * velocity[a, k] + operator.jacobian_b[i, row, k] * velocity[b, k]
    return total


@njit(cache=True)
def delassus_part(operator, start, stop, velocity, gamma, out):
    """Rows start..stop-1 of N gamma = D^T w + E gamma, given w = M^-1 D gamma per body.

    Parameters
    ----------
    operator : Operator
        Its bodies, Jacobians and compliance, for D^T w + E gamma.
    start, stop : int
        Contact range.
    velocity : (n_b, 6) float64
        w = M^-1 D gamma.
    gamma : (n_c, 3) float64
        Impulses.
    out : (n_c, 3) float64
        Rows start..stop-1 receive (N gamma)_i (m/s).
    """
    for i in range(start, stop):
        a = operator.body_a[i]
        b = operator.body_b[i]
        for row in range(3):
            out[i, row] = gather_row(operator, i, a, b, row, velocity) + operator.compliance[i, row] * gamma[i, row]


@njit(cache=True)
def body_velocity_kernel(operator, gamma):
    """Generalized velocity change M^-1 D gamma of every body, on the calling thread.

    Parameters
    ----------
    operator : Operator
        Its bodies, Jacobians, inverse masses and inertias, for M^-1 D gamma.
    gamma : (n_c, 3) float64
        Impulses (gamma_n, gamma_u, gamma_v).

    Returns
    -------
    (n_b, 6) float64
        Velocity change [linear (m/s), angular (rad/s)] of each body.
    """
    n_bodies = operator.inverse_mass.shape[0]
    impulse = np.empty((1, n_bodies, 6))  # (1, n_b, 6) float64
    scatter_part(operator, 0, gamma.shape[0], gamma, impulse[0])
    velocity = np.empty((n_bodies, 6))  # (n_b, 6) float64
    body_velocity_range(operator, 0, n_bodies, impulse, velocity)
    return velocity


@njit(cache=True)
def delassus_kernel(operator, gamma):
    """N gamma = D^T M^-1 D gamma + E gamma (m/s, (n_c, 3)) of impulses ``gamma`` (n_c, 3), on the calling thread.

    The scatter, M^-1 per body and gather of ``delassus_parallel`` as one run.
    """
    velocity = body_velocity_kernel(operator, gamma)  # (n_b, 6) float64, M^-1 D gamma
    out = np.empty((gamma.shape[0], 3))  # (n_c, 3) float64
    delassus_part(operator, 0, gamma.shape[0], velocity, gamma, out)
    return out


@njit(cache=True, parallel=True)
def body_velocity_parallel(operator, partition, gamma, impulse, velocity):
    """M^-1 D gamma with one thread per run (see the module docstring).

    Parameters
    ----------
    operator : Operator
        As in ``body_velocity_kernel``.
    partition : Partition
        Runs of contacts and of bodies (``Problem.partition``).
    gamma : (n_c, 3) float64
        Impulses.
    impulse : (n_parts, n_b, 6) float64
        Scratch accumulators.
    velocity : (n_b, 6) float64
        Receives M^-1 D gamma.

    Returns
    -------
    float
        gamma^T D^T M^-1 D gamma.
    """
    contact_bounds, body_bounds = partition
    n_parts = contact_bounds.shape[0] - 1
    for part in prange(n_parts):
        scatter_part(operator, contact_bounds[part], contact_bounds[part + 1], gamma, impulse[part])
    energy = np.empty(n_parts)  # (n_parts,) float64
    for part in prange(n_parts):
        energy[part] = body_velocity_range(operator, body_bounds[part], body_bounds[part + 1], impulse, velocity)
    return energy.sum()


@njit(cache=True, parallel=True)
def delassus_parallel(operator, partition, gamma, impulse, velocity, out):
    """N gamma = D^T M^-1 D gamma + E gamma with one thread per run: scatter, M^-1 per body, gather.

    Parameters
    ----------
    operator, partition, gamma, impulse, velocity
        As in ``body_velocity_parallel``.
    out : (n_c, 3) float64
        Receives N gamma (m/s).
    """
    contact_bounds, body_bounds = partition
    n_parts = contact_bounds.shape[0] - 1
    for part in prange(n_parts):
        scatter_part(operator, contact_bounds[part], contact_bounds[part + 1], gamma, impulse[part])
    for part in prange(n_parts):
        body_velocity_range(operator, body_bounds[part], body_bounds[part + 1], impulse, velocity)
    for part in prange(n_parts):
        delassus_part(operator, contact_bounds[part], contact_bounds[part + 1], velocity, gamma, out)


@njit(cache=True)
def contact_velocity_kernel(operator, body_velocity):
    """Relative contact velocities D^T v = J_a v_a + J_b v_b in each contact frame.

    Parameters
    ----------
    operator : Operator
        Its bodies and Jacobians, for D^T v.
    body_velocity : (n_b, 6) float64
        Body twists [linear, angular] in world frame.

    Returns
    -------
    (n_c, 3) float64
        Velocities (u_n, u_u, u_v) per contact.
    """
    n_contacts = operator.body_a.shape[0]
    out = np.empty((n_contacts, 3))  # (n_c, 3) float64
    for i in range(n_contacts):
        a = operator.body_a[i]
        b = operator.body_b[i]
        for row in range(3):
            out[i, row] = gather_row(operator, i, a, b, row, body_velocity)
    return out


@njit(cache=True)
def side_entry(operator, jacobian, body, row, col):
    """Entry (row, col) of J M_B^-1 J^T = m^-1 J_lin J_lin^T + J_ang I^-1 J_ang^T for one side of a contact.

    Parameters
    ----------
    operator : Operator
        Its inverse masses and inertias, for M_B^-1.
    jacobian : (3, 6) float64
        J_a,i or J_b,i.
    body : int
        Its body B.
    row, col : int
        Entry, 0..2.
    """
    # linear part m^-1 J_lin J_lin^T
    linear = 0.0
    for k in range(3):
        linear += jacobian[row, k] * jacobian[col, k]
    # angular part J_ang I^-1 J_ang^T
    angular = 0.0
    for k in range(3):
        for m in range(3):
            angular += jacobian[row, 3 + k] * operator.inverse_inertia[body, k, m] * jacobian[col, 3 + m]
    return operator.inverse_mass[body] * linear + angular


@njit(cache=True)
def diagonal_blocks_kernel(operator):
    """Diagonal blocks N_ii = J_a M_a^-1 J_a^T + J_b M_b^-1 J_b^T + E_i of the Delassus operator.

    Returns
    -------
    (n_c, 3, 3) float64
        Symmetric positive definite 3x3 blocks.
    """
    n_contacts = operator.body_a.shape[0]
    blocks = np.zeros((n_contacts, 3, 3))  # (n_c, 3, 3) float64
    for i in range(n_contacts):
        for side in range(2):
            body = operator.body_a[i] if side == 0 else operator.body_b[i]
            jacobian = operator.jacobian_a[i] if side == 0 else operator.jacobian_b[i]
            for row in range(3):
                for col in range(3):
                    blocks[i, row, col] += side_entry(operator, jacobian, body, row, col)
        for row in range(3):
            blocks[i, row, row] += operator.compliance[i, row]
    return blocks


@njit(cache=True)
def diagonal_scale_kernel(operator):
    """Mean eigenvalue trace(N_ii) / 3 of each diagonal block of the Delassus operator.

    Only the three diagonal entries of N_ii = J_a M_a^-1 J_a^T + J_b M_b^-1 J_b^T + E_i are formed,
    a third of the work of ``diagonal_blocks_kernel``; the sums run in the same order, so the
    result equals the trace of its blocks bit for bit.

    Returns
    -------
    (n_c,) float64
        trace(N_ii) / 3 (s/kg), > 0 because E_i > 0.
    """
    n_contacts = operator.body_a.shape[0]
    scale = np.empty(n_contacts)  # (n_c,) float64
    for i in range(n_contacts):
        trace = 0.0
        for row in range(3):
            entry = 0.0  # N_ii[row, row]
            for side in range(2):
                body = operator.body_a[i] if side == 0 else operator.body_b[i]
                jacobian = operator.jacobian_a[i] if side == 0 else operator.jacobian_b[i]
                entry += side_entry(operator, jacobian, body, row, row)
            trace += entry + operator.compliance[i, row]
        scale[i] = trace / 3.0
    return scale


@njit(cache=True)
def row_sum_bound_kernel(operator):
    """Upper bounds on the absolute row sums sum_j |N_ij| of the Delassus operator.

    Entrywise |N| = |D^T M^-1 D + E| <= |D|^T |M^-1| |D| + E, so the row sums of N are bounded by
    the product of that nonnegative operator with a vector of ones: a scatter of |J|^T 1 per body,
    |M^-1| per body, a gather with |J|.

    Returns
    -------
    (n_c, 3) float64
        Bounds (s/kg) on the rows (n, u, v) of each contact, >= the diagonal of N.
    """
    body_a, body_b, jacobian_a, jacobian_b, inverse_mass, inverse_inertia, compliance = operator
    n_contacts = body_a.shape[0]
    n_bodies = inverse_mass.shape[0]
    # h_B = sum over the contact sides on B of |J|^T 1
    column_sums = np.zeros((n_bodies, 6))  # (n_b, 6) float64
    for i in range(n_contacts):
        for k in range(6):
            column_sums[body_a[i], k] += (abs(jacobian_a[i, 0, k]) + abs(jacobian_a[i, 1, k])
                                          + abs(jacobian_a[i, 2, k]))
            column_sums[body_b[i], k] += (abs(jacobian_b[i, 0, k]) + abs(jacobian_b[i, 1, k])
                                          + abs(jacobian_b[i, 2, k]))
    # q_B = |M_B^-1| h_B
    weighted = np.empty((n_bodies, 6))  # (n_b, 6) float64
    for body in range(n_bodies):
        for k in range(3):
            weighted[body, k] = abs(inverse_mass[body]) * column_sums[body, k]
            weighted[body, 3 + k] = (abs(inverse_inertia[body, k, 0]) * column_sums[body, 3]
                                     + abs(inverse_inertia[body, k, 1]) * column_sums[body, 4]
                                     + abs(inverse_inertia[body, k, 2]) * column_sums[body, 5])
    out = np.empty((n_contacts, 3))  # (n_c, 3) float64
    for i in range(n_contacts):
        a = body_a[i]
        b = body_b[i]
        for row in range(3):
            total = compliance[i, row]
            for k in range(6):
                total += abs(jacobian_a[i, row, k]) * weighted[a, k] + abs(jacobian_b[i, row, k]) * weighted[b, k]
            out[i, row] = total
    return out
