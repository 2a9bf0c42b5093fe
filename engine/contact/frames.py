"""Contact frames (n, u, v) and compact Jacobians D_i (seed 000 eq. 8-12, 19).

For contact i between bodies a and b with unit normal n pointing from a to b,
the relative velocity along a frame direction d at the contact point p is
    u_d = d . (v_b + w_b x (p - x_b)) - d . (v_a + w_a x (p - x_a)),
so the Jacobian row of body b is [d, (p - x_b) x d] and of body a [-d, -(p - x_a) x d].
A positive normal impulse pushes b along +n and a along -n.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def tangent_basis(normal):
    """Two unit tangents (u, v) with (n, u, v) right-handed, chosen continuously from n."""
    n = normal
    # pick the world axis least aligned with n to build u
    if abs(n[0]) < 0.57735:
        a = np.array([1.0, 0.0, 0.0])
    elif abs(n[1]) < 0.57735:
        a = np.array([0.0, 1.0, 0.0])
    else:
        a = np.array([0.0, 0.0, 1.0])
    u = np.cross(n, a)
    u /= np.sqrt(u[0] ** 2 + u[1] ** 2 + u[2] ** 2)
    v = np.cross(n, u)
    return u, v


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
    for i in range(n_c):
        n = normal[i]
        u, v = tangent_basis(n)
        frame[i, 0] = n
        frame[i, 1] = u
        frame[i, 2] = v
        arm_a = point[i] - position[body_a[i]]
        arm_b = point[i] - position[body_b[i]]
        for k in range(3):
            d = frame[i, k]
            ca = np.cross(arm_a, d)
            cb = np.cross(arm_b, d)
            for j in range(3):
                jac_a[i, k, j] = -d[j]
                jac_a[i, k, 3 + j] = -ca[j]
                jac_b[i, k, j] = d[j]
                jac_b[i, k, 3 + j] = cb[j]
    return frame, jac_a, jac_b
