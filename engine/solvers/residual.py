"""The natural-map residual of the CCP, the measure of convergence every solver reports.

For impulses gamma, g = N gamma + r and positive steps s_i, the natural map
gamma_i - Pi_i(gamma_i - s_i g_i) vanishes exactly at the solutions of seed 000 eq. 38 (the fixed
point of the projected gradient; Pi_i projects onto the set S_i of ``engine.solvers.cone``, C1);
divided by s_i each term is a velocity (m/s). ``Problem.residual`` divides the largest by the
largest free velocity ||r||_inf to make it dimensionless.
"""
import numpy as np
from numba import njit, prange

from extrados.engine.solvers.cone import project_cohesive_point


@njit(cache=True)
def natural_map_norm(impulse, gradient, friction, cohesion, tension, step):
    """||gamma_i - Pi_i(gamma_i - s_i g_i)|| / s_i of one contact (m/s), the term of ``Problem.residual``.

    Parameters
    ----------
    impulse : 3-tuple of float
        Impulse (gamma_n, gamma_u, gamma_v) of the contact.
    gradient : 3-tuple of float
        Its row of g = N gamma + r (m/s).
    friction : float
        Friction coefficient.
    cohesion, tension : float
        Cohesion C_i and tensile cap T_i (N s) of the set S_i (``cone.project_cohesive_point``).
    step : float
        Positive step s_i (s/kg).

    Returns
    -------
    float
        nan when an input is not finite.
    """
    gamma_n, gamma_u, gamma_v = impulse
    gradient_n, gradient_u, gradient_v = gradient
    if not (np.isfinite(gamma_n) and np.isfinite(gamma_u) and np.isfinite(gamma_v) and np.isfinite(gradient_n)
            and np.isfinite(gradient_u) and np.isfinite(gradient_v)):
        return np.nan
    n, u, v = project_cohesive_point(gamma_n - step * gradient_n, gamma_u - step * gradient_u,
                                     gamma_v - step * gradient_v, friction, cohesion, tension)
    dn = gamma_n - n
    du = gamma_u - u
    dv = gamma_v - v
    return np.sqrt(dn * dn + du * du + dv * dv) / step


@njit(cache=True)
def natural_residual_part(start, stop, gamma, gradient, friction, cohesion, step):
    """Largest natural-map term over contacts start..stop-1 (see ``natural_map_norm``).

    Returns
    -------
    float
        The largest term (m/s); zero for an empty range; nan when an input is not finite.
    """
    largest = 0.0
    for i in range(start, stop):
        value = natural_map_norm((gamma[i, 0], gamma[i, 1], gamma[i, 2]),
                                 (gradient[i, 0], gradient[i, 1], gradient[i, 2]), friction[i], cohesion[i, 0],
                                 cohesion[i, 1], step[i])
        if np.isnan(value):
            return value
        if value > largest:
            largest = value
    return largest


@njit(cache=True)
def natural_residual_kernel(gamma, gradient, friction, cohesion, step):
    """Largest natural-map residual max_i ||gamma_i - Pi_i(gamma_i - s_i g_i)|| / s_i.

    Parameters
    ----------
    gamma : (n_c, 3) float64
        Impulses.
    gradient : (n_c, 3) float64
        g = N gamma + r (m/s).
    friction : (n_c,) float64
        Friction coefficients.
    cohesion : (n_c, 2) float64
        Cohesion C_i and tensile cap T_i (N s).
    step : (n_c,) float64
        Positive steps s_i (s/kg).

    Returns
    -------
    float
        The residual in velocity units (m/s); zero when there are no contacts; nan when gamma or
        the gradient is not finite.
    """
    return natural_residual_part(0, gamma.shape[0], gamma, gradient, friction, cohesion, step)


@njit(cache=True, parallel=True)
def natural_residual_parallel(contact_bounds, gamma, gradient, friction, cohesion, step):
    """``natural_residual_kernel`` with one thread per run of ``contact_bounds`` (n_parts + 1,)."""
    n_parts = contact_bounds.shape[0] - 1
    largest = np.empty(n_parts)  # (n_parts,) float64
    for part in prange(n_parts):
        largest[part] = natural_residual_part(contact_bounds[part], contact_bounds[part + 1], gamma, gradient,
                                              friction, cohesion, step)
    worst = 0.0
    for part in range(n_parts):
        if np.isnan(largest[part]):
            return largest[part]
        worst = max(worst, largest[part])
    return worst
