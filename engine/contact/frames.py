"""Contact frames (n, u, v) and compact Jacobians D_i (seed 000 eq. 8-12, 19).

For contact i between bodies a and b with unit normal n pointing from a to b,
the relative velocity along a frame direction d at the contact point p is
    u_d = d . (v_b + w_b x (p - x_b)) - d . (v_a + w_a x (p - x_a)),
so the Jacobian row of body b is [d, (p - x_b) x d] and of body a [-d, -(p - x_a) x d].
A positive normal impulse pushes b along +n and a along -n.

The kernels work on scalars: a contact allocates nothing.
"""
import numpy as np
from numba import njit

#: A world axis with |n . axis| below 1/sqrt(3) is far enough from the normal to build a tangent:
#: at least one of the three axes always is.
AXIS_COSINE = 0.57735


@njit(cache=True)
def cross(a0, a1, a2, b0, b1, b2):
    """Components of the cross product a x b of two 3-vectors given by their components."""
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@njit(cache=True)
def tangent_basis(n0, n1, n2):
    """Two unit tangents (u, v) with (n, u, v) right-handed, chosen continuously from n.

    Parameters
    ----------
    n0, n1, n2 : float
        Components of the unit normal n.

    Returns
    -------
    u0, u1, u2, v0, v1, v2 : float
        Components of u = n x a / |n x a|, a the world axis least aligned with n, and v = n x u.
    """
    a0, a1, a2 = 0.0, 0.0, 1.0
    if abs(n0) < AXIS_COSINE:
        a0, a1, a2 = 1.0, 0.0, 0.0
    elif abs(n1) < AXIS_COSINE:
        a0, a1, a2 = 0.0, 1.0, 0.0
    u0, u1, u2 = cross(n0, n1, n2, a0, a1, a2)
    length = np.sqrt(u0 ** 2 + u1 ** 2 + u2 ** 2)
    u0 /= length
    u1 /= length
    u2 /= length
    v0, v1, v2 = cross(n0, n1, n2, u0, u1, u2)
    return u0, u1, u2, v0, v1, v2


@njit(cache=True)
def write_jacobian_row(jacobian, row, direction, arm, sign):
    """Row ``row`` of a body's Jacobian block: sign [d, r x d] (eq. 19).

    Parameters
    ----------
    jacobian : (3, 6) float64
        One contact's Jacobian block of one body; the row is overwritten.
    row : int
        0, 1, 2 for the frame direction n, u, v.
    direction : (3,) float64
        Unit frame direction d.
    arm : (3,) float64
        r = p - x, from the body's centre of mass to the contact point (m).
    sign : float
        +1 for body b, -1 for body a.
    """
    d0, d1, d2 = direction[0], direction[1], direction[2]
    c0, c1, c2 = cross(arm[0], arm[1], arm[2], d0, d1, d2)
    jacobian[row, 0] = sign * d0
    jacobian[row, 1] = sign * d1
    jacobian[row, 2] = sign * d2
    jacobian[row, 3] = sign * c0
    jacobian[row, 4] = sign * c1
    jacobian[row, 5] = sign * c2


@njit(cache=True)
def contact_jacobians(point, normal, body_a, body_b, position):
    """Frames and Jacobian blocks of all contacts.

    Parameters
    ----------
    point, normal : (n_c, 3) float64
    body_a, body_b : (n_c,) int64
    position : (n_b, 3) float64, centres of mass

    Returns
    -------
    frame : (n_c, 3, 3) float64, rows n, u, v
    jacobian_a, jacobian_b : (n_c, 3, 6) float64
    """
    n_c = point.shape[0]
    frame = np.empty((n_c, 3, 3))
    jac_a = np.empty((n_c, 3, 6))
    jac_b = np.empty((n_c, 3, 6))
    arm_a = np.empty(3)  # (3,) float64, p - x_a of the current contact
    arm_b = np.empty(3)  # (3,) float64, p - x_b
    for i in range(n_c):
        n0, n1, n2 = normal[i, 0], normal[i, 1], normal[i, 2]
        u0, u1, u2, v0, v1, v2 = tangent_basis(n0, n1, n2)
        frame[i, 0, 0], frame[i, 0, 1], frame[i, 0, 2] = n0, n1, n2
        frame[i, 1, 0], frame[i, 1, 1], frame[i, 1, 2] = u0, u1, u2
        frame[i, 2, 0], frame[i, 2, 1], frame[i, 2, 2] = v0, v1, v2
        for k in range(3):
            arm_a[k] = point[i, k] - position[body_a[i], k]
            arm_b[k] = point[i, k] - position[body_b[i], k]
        for row in range(3):
            write_jacobian_row(jac_a[i], row, frame[i, row], arm_a, -1.0)
            write_jacobian_row(jac_b[i], row, frame[i, row], arm_b, 1.0)
    return frame, jac_a, jac_b
