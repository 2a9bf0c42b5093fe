"""Euclidean projection onto Coulomb friction cones (seed 000 sec. 2.2, the cone Upsilon_i), and its derivative.

Impulses are ordered (gamma_n, gamma_u, gamma_v): normal first, then the two tangents.
(The seed orders (u, v, n) in eq. 15; only the ordering differs.)

The cone of contact i with friction coefficient mu >= 0 is

    Upsilon_i = {(n, t) in R x R^2 : ||t|| <= mu n},                         (seed eq. 14)

and its polar cone is -Upsilon_i^* with Upsilon_i^* = {(n, t) : mu ||t|| <= n}.
The projection of a point (n, t), with tangential magnitude tau = ||t||, is

    (P1) tau <= mu n          : the point is in the cone, Pi = (n, t);
    (P2) mu tau <= -n         : the point is in the polar cone, Pi = 0;
    (P3) otherwise            : onto the surface, along the generator through t/tau,

             n'  = (n + mu tau) / (1 + mu^2),
             t'  = mu n' t / tau.

(P3) is the orthogonal projection onto the ray {s (1, mu t/tau) : s >= 0}, which is the closest
generator; it never divides by zero because (P1) and (P2) together cover tau = 0.
For mu = 0 the cone is the half-line {t = 0, n >= 0} and the three cases give
Pi = (max(n, 0), 0, 0).
"""
import numpy as np
from numba import njit


@njit(cache=True)
def project_cone_point(normal, tangent_u, tangent_v, friction):
    """Project one impulse (gamma_n, gamma_u, gamma_v) onto its Coulomb cone.

    Parameters
    ----------
    normal, tangent_u, tangent_v : float
        Impulse components (N s) in the contact frame (n, u, v).
    friction : float
        Friction coefficient mu >= 0.

    Returns
    -------
    tuple of float
        The projected components (gamma_n, gamma_u, gamma_v).
    """
    tau = np.sqrt(tangent_u * tangent_u + tangent_v * tangent_v)
    # (P1) inside the cone
    if tau <= friction * normal:
        return normal, tangent_u, tangent_v
    # (P2) inside the polar cone
    if friction * tau <= -normal:
        return 0.0, 0.0, 0.0
    # (P3) onto the surface; tau > 0 here
    projected_normal = (normal + friction * tau) / (1.0 + friction * friction)
    ratio = friction * projected_normal / tau
    return projected_normal, ratio * tangent_u, ratio * tangent_v


@njit(cache=True)
def project_cones(gamma, friction, out):
    """Project every contact impulse onto its cone, Pi_Upsilon(gamma).

    Parameters
    ----------
    gamma : (n_c, 3) float64
        Impulses (gamma_n, gamma_u, gamma_v) per contact.
    friction : (n_c,) float64
        Friction coefficients mu_i.
    out : (n_c, 3) float64
        Receives the projection; may be ``gamma`` itself.
    """
    for i in range(gamma.shape[0]):
        n, u, v = project_cone_point(gamma[i, 0], gamma[i, 1], gamma[i, 2], friction[i])
        out[i, 0] = n
        out[i, 1] = u
        out[i, 2] = v


@njit(cache=True)
def cone_projection_jacobian(points, friction):
    """Jacobian dPi/dz of the cone projection at each point (an element of the generalized Jacobian on kinks).

    With z = (n, t), tau = ||t||, that = t / tau, c = 1 / (1 + mu^2) and a = n + mu tau, differentiating
    the three cases of the module docstring gives

        (P1) I_3;   (P2) 0;
        (P3) dPi_n/dn = c,         dPi_n/dt = c mu that^T,
             dPi_t/dn = c mu that, dPi_t/dt = c mu (mu that that^T + a / tau (I_2 - that that^T)).

    Parameters
    ----------
    points : (n_c, 3) float64
        Points z (gamma_n, gamma_u, gamma_v) at which to differentiate.
    friction : (n_c,) float64
        Friction coefficients.

    Returns
    -------
    (n_c, 3, 3) float64
        Symmetric Jacobians with eigenvalues in [0, 1].
    """
    n_points = points.shape[0]
    out = np.zeros((n_points, 3, 3))  # (n_c, 3, 3) float64
    for i in range(n_points):
        mu = friction[i]
        normal = points[i, 0]
        tau = np.sqrt(points[i, 1] * points[i, 1] + points[i, 2] * points[i, 2])
        if tau <= mu * normal:
            for k in range(3):
                out[i, k, k] = 1.0
        elif mu * tau > -normal:
            c = 1.0 / (1.0 + mu * mu)
            a = normal + mu * tau
            direction = (points[i, 1] / tau, points[i, 2] / tau)
            out[i, 0, 0] = c
            for k in range(2):
                out[i, 0, 1 + k] = c * mu * direction[k]
                out[i, 1 + k, 0] = c * mu * direction[k]
                for m in range(2):
                    identity = 1.0 if k == m else 0.0
                    out[i, 1 + k, 1 + m] = c * mu * (mu * direction[k] * direction[m]
                                                      + a / tau * (identity - direction[k] * direction[m]))
    return out
