"""Euclidean projection onto the admissible impulse set of a contact, and its derivative.

The set is the Coulomb friction cone (seed 000 sec. 2.2, the cone Upsilon_i), or for a cohesive joint
that cone shifted by the cohesion and cut off at a tensile cap (C1 below).

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
Pi = (max(n, 0), 0, 0); (P1) also asks n >= 0, which only matters there (mu = 0, tau = 0, n < 0).

Cohesive joints (mortar) admit a cone shifted by the cohesion C >= 0 and truncated by a tensile
cap T >= 0 (Mohr-Coulomb with a tension cut-off, both in impulses, N s):

    S_i = {(n, t) : n >= -T,  ||t|| <= C + mu n}.                               (C1)

For mu > 0 it is the cone of apex n = -C/mu cut by the half-space n >= -T (inactive when
T >= C/mu); for mu = 0 it is the cylinder {n >= -T} x {||t|| <= C}; with C = T = 0 it is Upsilon_i.
``project_cohesive_point`` projects onto S_i and ``cohesive_projection_jacobian`` differentiates it.
"""
import numpy as np
from numba import njit, prange


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
    if tau <= friction * normal and normal >= 0.0:
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
def clamp_to_disk(tangent_u, tangent_v, radius):
    """Nearest point t min(1, radius / ||t||) of the disk ||t|| <= radius (>= 0) to t = (tangent_u, tangent_v)."""
    tau = np.sqrt(tangent_u * tangent_u + tangent_v * tangent_v)
    if tau <= radius:
        return tangent_u, tangent_v
    ratio = radius / tau  # tau > radius >= 0
    return ratio * tangent_u, ratio * tangent_v


@njit(cache=True)
def project_cohesive_point(normal, tangent_u, tangent_v, friction, cohesion, tension):
    """Project one impulse (gamma_n, gamma_u, gamma_v) onto its cohesive set S_i of (C1).

    Derivation. S = K cap H with K = {||t|| <= C + mu n} (convex) and H = {n >= -T}. If Pi_K(z) lies
    in H it is Pi_S(z). Otherwise the constraint n >= -T is active at Pi_S(z) (were the minimiser of
    ||x - z|| over S interior to H, it would minimise over K near it, hence over K by convexity, and
    equal Pi_K(z), which is not in H), so Pi_S(z) is the projection onto the slice K cap {n = -T},
    the disk of radius C - mu T centred on the axis: (-T, t min(1, (C - mu T) / ||t||)).

    Pi_K for mu > 0 is ``project_cone_point`` about the apex n = -C/mu, written without dividing by
    mu (no cancellation of n against a large C/mu when mu is small). With tau = ||t||:

        (K1) tau <= C + mu n                   : z is in K;
        (K2) otherwise n' = (n + mu (tau - C)) / (1 + mu^2), the foot on the generator through t/tau,
             with radius R' = C + mu n' there:
             R' > 0 and tau > 0                : Pi_K = (n', R' t / tau);
             else                              : the apex (-C/mu, 0, 0).

    Pi_K(z) has n >= -C/mu, so only T < C/mu can cut it off: then C - mu T > 0, and the apex is kept
    exactly when C <= mu T. For mu = 0, S = {n >= -T} x {||t|| <= C} is a product and
    Pi_S = (max(n, -T), t min(1, C / ||t||)). With C = T = 0, S is the Coulomb cone (seed eq. 14) and
    ``project_cone_point`` is returned as is, so problems without cohesion keep their bits.

    Parameters
    ----------
    normal, tangent_u, tangent_v : float
        Impulse components (N s) in the contact frame (n, u, v).
    friction : float
        Friction coefficient mu >= 0.
    cohesion : float
        Cohesion C >= 0 (N s): the tangential impulse admitted at zero normal impulse.
    tension : float
        Tensile cap T >= 0 (N s): the largest tensile (negative) normal impulse.

    Returns
    -------
    tuple of float
        The projected components (gamma_n, gamma_u, gamma_v).
    """
    if cohesion == 0.0 and tension == 0.0:
        return project_cone_point(normal, tangent_u, tangent_v, friction)
    if friction == 0.0:
        projected_u, projected_v = clamp_to_disk(tangent_u, tangent_v, cohesion)
        return max(normal, -tension), projected_u, projected_v
    tau = np.sqrt(tangent_u * tangent_u + tangent_v * tangent_v)
    # (K1) inside the shifted cone
    if tau <= cohesion + friction * normal:
        if normal >= -tension:
            return normal, tangent_u, tangent_v
    else:
        # (K2) foot on the generator through t / tau, or the apex
        foot = (normal + friction * (tau - cohesion)) / (1.0 + friction * friction)
        radius = cohesion + friction * foot
        if radius > 0.0 and tau > 0.0:
            if foot >= -tension:
                ratio = radius / tau
                return foot, ratio * tangent_u, ratio * tangent_v
        elif cohesion <= friction * tension:
            return -cohesion / friction, 0.0, 0.0
    # the tension cut-off is active: onto the disk n = -T, ||t|| <= C - mu T (> 0 here, but for rounding)
    projected_u, projected_v = clamp_to_disk(tangent_u, tangent_v, max(cohesion - friction * tension, 0.0))
    return -tension, projected_u, projected_v


@njit(cache=True)
def project_cohesive_sets(gamma, friction, cohesion, out):
    """Project every contact impulse onto its cohesive set S_i of (C1).

    Parameters
    ----------
    gamma : (n_c, 3) float64
        Impulses (gamma_n, gamma_u, gamma_v) per contact (N s).
    friction : (n_c,) float64
        Friction coefficients mu_i.
    cohesion : (n_c, 2) float64
        Cohesion C_i and tensile cap T_i per contact (N s).
    out : (n_c, 3) float64
        Receives the projection; may be ``gamma`` itself.
    """
    project_range(0, gamma.shape[0], gamma, friction, cohesion, out)


@njit(cache=True, parallel=True)
def project_parallel(contact_bounds, gamma, friction, cohesion, out):
    """``project_cohesive_sets`` with one thread per run of ``contact_bounds`` (n_parts + 1,)."""
    for part in prange(contact_bounds.shape[0] - 1):
        project_range(contact_bounds[part], contact_bounds[part + 1], gamma, friction, cohesion, out)


@njit(cache=True)
def project_range(start, stop, gamma, friction, cohesion, out):
    """Rows start..stop-1 of ``project_cohesive_sets``."""
    for i in range(start, stop):
        n, u, v = project_cohesive_point(gamma[i, 0], gamma[i, 1], gamma[i, 2], friction[i], cohesion[i, 0],
                                         cohesion[i, 1])
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
        if tau <= mu * normal and normal >= 0.0:
            for k in range(3):
                out[i, k, k] = 1.0
        elif mu * tau > -normal:
            # c mu a is the radius of the cone at the foot of the projection
            surface_jacobian(points[i, 1], points[i, 2], tau, mu, mu * (normal + mu * tau) / (1.0 + mu * mu), out[i])
    return out


@njit(cache=True)
def surface_jacobian(tangent_u, tangent_v, tau, mu, radius, out):
    """Write into ``out`` (3, 3) the Jacobian of the projection onto a cone's surface (P3, K2), R the radius
    of the cone at the projection's foot and c = 1 / (1 + mu^2), that = t / tau:

        dPi_n/dn = c,  dPi_n/dt = c mu that^T,  dPi_t/dn = c mu that,
        dPi_t/dt = c mu^2 that that^T + R / tau (I_2 - that that^T).
    """
    c = 1.0 / (1.0 + mu * mu)
    direction = (tangent_u / tau, tangent_v / tau)
    out[0, 0] = c
    for k in range(2):
        out[0, 1 + k] = c * mu * direction[k]
        out[1 + k, 0] = c * mu * direction[k]
        for m in range(2):
            identity = 1.0 if k == m else 0.0
            out[1 + k, 1 + m] = (c * mu * mu * direction[k] * direction[m]
                                 + radius / tau * (identity - direction[k] * direction[m]))


@njit(cache=True)
def disk_clamp_jacobian(tangent_u, tangent_v, radius, out):
    """Write into ``out`` (2, 2) the Jacobian of ``clamp_to_disk``: I_2 inside, R / tau (I_2 - that that^T) outside."""
    tau = np.sqrt(tangent_u * tangent_u + tangent_v * tangent_v)
    if tau <= radius:
        out[0, 0] = 1.0
        out[1, 1] = 1.0
        return
    direction = (tangent_u / tau, tangent_v / tau)
    for k in range(2):
        for m in range(2):
            identity = 1.0 if k == m else 0.0
            out[k, m] = radius / tau * (identity - direction[k] * direction[m])


@njit(cache=True)
def cohesive_projection_jacobian(points, friction, cohesion):
    """Jacobian dPi_S/dz of ``project_cohesive_point`` at each point (an element of the generalized Jacobian on kinks).

    The cases of ``project_cohesive_point``, with c = 1 / (1 + mu^2), that = t / tau and R' = C + mu n':

        (K1) inside S: I_3;   apex: 0;
        (K2) on the shifted cone: dPi_n/dn = c, dPi_n/dt = c mu that^T, dPi_t/dn = c mu that,
             dPi_t/dt = c mu^2 that that^T + R' / tau (I_2 - that that^T)
             (``cone_projection_jacobian`` about the apex: c mu a = R' there);
        cut-off, or mu = 0: Pi_n is constant (-T) or the identity in n, and Pi_t = clamp_to_disk(t, R)
             has Jacobian I_2 inside the disk, R / tau (I_2 - that that^T) outside.

    With C = T = 0 it is ``cone_projection_jacobian``.

    Parameters
    ----------
    points : (n_c, 3) float64
        Points z (gamma_n, gamma_u, gamma_v) at which to differentiate (N s).
    friction : (n_c,) float64
        Friction coefficients.
    cohesion : (n_c, 2) float64
        Cohesion C_i and tensile cap T_i (N s).

    Returns
    -------
    (n_c, 3, 3) float64
        Symmetric Jacobians with eigenvalues in [0, 1].
    """
    out = cone_projection_jacobian(points, friction)  # (n_c, 3, 3) float64, kept where C = T = 0
    for i in range(points.shape[0]):
        mu = friction[i]
        strength = cohesion[i, 0]
        tension = cohesion[i, 1]
        if strength == 0.0 and tension == 0.0:
            continue
        out[i] = 0.0
        normal = points[i, 0]
        if mu == 0.0:
            out[i, 0, 0] = 1.0 if normal > -tension else 0.0
            disk_clamp_jacobian(points[i, 1], points[i, 2], strength, out[i, 1:, 1:])
            continue
        tau = np.sqrt(points[i, 1] * points[i, 1] + points[i, 2] * points[i, 2])
        if tau <= strength + mu * normal:
            if normal >= -tension:
                for k in range(3):
                    out[i, k, k] = 1.0
                continue
        else:
            foot = (normal + mu * (tau - strength)) / (1.0 + mu * mu)  # as in project_cohesive_point
            radius = strength + mu * foot
            if radius > 0.0 and tau > 0.0:
                if foot >= -tension:
                    surface_jacobian(points[i, 1], points[i, 2], tau, mu, radius, out[i])
                    continue
            elif strength <= mu * tension:
                continue  # the apex: a constant
        # the tension cut-off: Pi_n = -T, Pi_t clamped to the disk of radius C - mu T
        disk_clamp_jacobian(points[i, 1], points[i, 2], max(strength - mu * tension, 0.0), out[i, 1:, 1:])
    return out
