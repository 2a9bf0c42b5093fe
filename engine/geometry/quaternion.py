"""Unit quaternions [w, x, y, z] for block orientations (seed 000 sec. 2.1, eq. 4, 30).

All functions are numba kernels so that collision and integration loops can call them.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def quat_to_rows(q):
    """Rows of the rotation matrix A(rho) of a unit quaternion, as three 3-tuples.

    Tuples stay in registers, so kernels that pose many blocks allocate nothing per block.

    Parameters
    ----------
    q : (4,) float64
        Unit quaternion [w, x, y, z].

    Returns
    -------
    3-tuple of 3-tuples of float
        A(rho), taking body-frame vectors to world frame, row by row.
    """
    w, x, y, z = q[0], q[1], q[2], q[3]
    return ((1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)),
            (2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)),
            (2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)))


@njit(cache=True)
def quat_to_matrix(q):
    """Rotation matrix A(rho) of a unit quaternion.

    Parameters
    ----------
    q : (4,) float64
        Unit quaternion [w, x, y, z].

    Returns
    -------
    (3, 3) float64
        Rotation matrix taking body-frame vectors to world frame.
    """
    rows = quat_to_rows(q)
    m = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            m[i, j] = rows[i][j]
    return m


@njit(cache=True)
def quat_to_matrices(quaternions):
    """(n, 3, 3) rotation matrices of (n, 4) unit quaternions."""
    out = np.empty((quaternions.shape[0], 3, 3))
    for i in range(quaternions.shape[0]):
        out[i] = quat_to_matrix(quaternions[i])
    return out


@njit(cache=True)
def quat_multiply(p, q):
    """Hamilton product p (x) q of two quaternions [w, x, y, z]."""
    r = np.empty(4)
    r[0] = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3]
    r[1] = p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2]
    r[2] = p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1]
    r[3] = p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0]
    return r


@njit(cache=True)
def quat_exp(rotation_vector):
    """Exponential map exp({0, phi/2}) of a rotation vector phi (rad), seed 000 eq. 30.

    Returns the unit quaternion of a rotation by |phi| about phi/|phi|.
    """
    angle = np.sqrt(rotation_vector[0] ** 2 + rotation_vector[1] ** 2 + rotation_vector[2] ** 2)
    r = np.empty(4)
    half = 0.5 * angle
    r[0] = np.cos(half)
    # sin(half)/angle -> 1/2 as angle -> 0 (series keeps the small-angle case exact)
    s = np.sin(half) / angle if angle > 1e-12 else 0.5 - angle * angle / 48.0
    r[1] = s * rotation_vector[0]
    r[2] = s * rotation_vector[1]
    r[3] = s * rotation_vector[2]
    return r


@njit(cache=True)
def rotate_world_rotation(q, world_rotation_vector):
    """Orientation after a world-frame rotation vector: exp(phi) (x) q, renormalized."""
    r = quat_multiply(quat_exp(world_rotation_vector), q)
    n = np.sqrt(r[0] ** 2 + r[1] ** 2 + r[2] ** 2 + r[3] ** 2)
    return r / n


def quat_from_axis_angle(axis, angle_rad):
    """Unit quaternion for a rotation of angle_rad about axis (plain numpy, for generators)."""
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    half = 0.5 * angle_rad
    return np.concatenate([[np.cos(half)], np.sin(half) * axis])


@njit(cache=True)
def quat_conjugate_product(p, q):
    """conj(p) (x) q as a 4-tuple [w, x, y, z]: for unit quaternions, the rotation q seen in the frame of p."""
    return (p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3],
            p[0] * q[1] - p[1] * q[0] - p[2] * q[3] + p[3] * q[2],
            p[0] * q[2] + p[1] * q[3] - p[2] * q[0] - p[3] * q[1],
            p[0] * q[3] - p[1] * q[2] + p[2] * q[1] - p[3] * q[0])


@njit(cache=True)
def quat_rotate_inverse(q, v):
    """A(q)^T v as a 3-tuple: a world vector v in the body frame of a unit quaternion q.

    v' = v - 2 w (u x v) + 2 u x (u x v) with q = [w, u].
    """
    w, ux, uy, uz = q[0], q[1], q[2], q[3]
    cx = uy * v[2] - uz * v[1]
    cy = uz * v[0] - ux * v[2]
    cz = ux * v[1] - uy * v[0]
    return (v[0] - 2.0 * w * cx + 2.0 * (uy * cz - uz * cy),
            v[1] - 2.0 * w * cy + 2.0 * (uz * cx - ux * cz),
            v[2] - 2.0 * w * cz + 2.0 * (ux * cy - uy * cx))
