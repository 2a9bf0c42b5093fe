"""Coulomb friction of a compliant interface: an elastic-plastic tangential spring per joint (seed 003 sec. 2.2).

A Winkler joint (engine.contact.winkler) carries its normal force N at the pressure centre c of
its penetrated patch. Tangentially the joint is a spring of stiffness K_t = k_t A (k_t the
shear stiffness per unit area, N/m^3, A the penetrated area) whose elastic stretch s is kept
from step to step and capped by Coulomb's law (the return mapping of elastoplasticity):

    s_trial = P s_n + P du,        du = d_B(c) - d_A(c),        P = I - n n^T
    F_B = -K_t s_trial                    if K_t |s_trial| <= mu N   (stick)
    F_B = -mu N s_trial / |s_trial|,  s = mu N / K_t  s_trial / |s_trial|   otherwise (slip)

with d_i(c) the displacement over the step of the material point of body i now at c, and
F_A = -F_B. Seed 003 uses a friction coefficient high enough that no sliding occurs, so that
the contact stiffness alone rules the rocking; the spring keeps sticking joints still without
any damping. A joint whose pressure vanishes forgets its stretch.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def skew_into(out, row, col, v, sign):
    """Add sign * [v]x (the cross-product matrix of v) into out[row:row+3, col:col+3]."""
    out[row + 0, col + 1] -= sign * v[2]
    out[row + 0, col + 2] += sign * v[1]
    out[row + 1, col + 0] += sign * v[2]
    out[row + 1, col + 2] -= sign * v[0]
    out[row + 2, col + 0] -= sign * v[1]
    out[row + 2, col + 1] += sign * v[0]


@njit(cache=True)
def point_jacobian(lever):
    """(3, 6) G with d(point displacement) = G [dx, dtheta] for a point at ``lever`` from the centre:
    dx + dtheta x lever = [I, -[lever]x] [dx, dtheta]."""
    g = np.zeros((3, 6))
    for k in range(3):
        g[k, k] = 1.0
    skew_into(g, 0, 3, lever, -1.0)
    return g


@njit(cache=True)
def friction_forces(centre, normal, normal_force, area, shear_stiffness, friction, stretch_old, displacement_a,
                    displacement_b, centre_a, centre_b, normal_force_tangent):
    """Tangential forces of the joints, their new stretch and their tangent (module docstring).

    Parameters
    ----------
    centre : (n_p, 3) float64, m, pressure centre c of each joint
    normal : (n_p, 3) float64, unit, from A to B
    normal_force : (n_p,) float64, N
    area : (n_p,) float64, m^2, penetrated area
    shear_stiffness : (n_p,) float64, N/m^3, k_t
    friction : (n_p,) float64, mu
    stretch_old : (n_p, 3) float64, m, elastic stretch at the start of the step (zero for a new joint)
    displacement_a, displacement_b : (n_p, 3) float64, m, displacement over the step of the material
        point of A, B now at c
    centre_a, centre_b : (n_p, 3) float64, m, centres of mass of A and B
    normal_force_tangent : (n_p, 12) float64, dN / d(dx_A, dtheta_A, dx_B, dtheta_B) (N/m, N/rad): a sliding
        joint's force -mu N s/|s| follows N

    Returns
    -------
    force_b : (n_p, 3) float64, N, tangential force on B (A gets the opposite)
    stretch : (n_p, 3) float64, m, elastic stretch at the end of the step
    sliding : (n_p,) bool
    stiffness : (n_p, 12, 12) float64, d(wrench_A, wrench_B)/d(dx_A, dtheta_A, dx_B, dtheta_B), world,
        at fixed centre and normal
    """
    n_p = centre.shape[0]
    force_b = np.zeros((n_p, 3))
    stretch = np.zeros((n_p, 3))
    sliding = np.zeros(n_p, np.bool_)
    stiffness = np.zeros((n_p, 12, 12))
    for p in range(n_p):
        n = normal[p]
        spring = shear_stiffness[p] * area[p]
        if normal_force[p] <= 0.0 or spring <= 0.0:
            continue
        du = displacement_b[p] - displacement_a[p]
        trial = stretch_old[p] - np.dot(n, stretch_old[p]) * n + du - np.dot(n, du) * n
        size = np.sqrt(np.dot(trial, trial))
        limit = friction[p] * normal_force[p]
        projector = np.eye(3) - np.outer(n, n)
        direction = np.zeros(3)
        if spring * size <= limit:
            scale = 1.0
            tangent = -spring * projector
        else:
            scale = limit / (spring * size)
            direction = trial / size
            tangent = -spring * scale * (projector - np.outer(direction, direction))
            sliding[p] = True
        stretch[p] = scale * trial
        force_b[p] = -spring * stretch[p]
        # K = [H_A; H_B] D [-G_A, G_B]: wrench rows H_A = [-I; -[c - x_A]x], H_B = [I; [c - x_B]x]
        g_a = point_jacobian(centre[p] - centre_a[p])
        g_b = point_jacobian(centre[p] - centre_b[p])
        d_cols = np.zeros((3, 12))
        d_cols[:, :6] = -tangent @ g_a
        d_cols[:, 6:] = tangent @ g_b
        if sliding[p]:
            # F_B = -mu N s/|s|: its share of dN (Newton cycles between stick and slip without it)
            for k in range(3):
                for col in range(12):
                    d_cols[k, col] -= friction[p] * direction[k] * normal_force_tangent[p, col]
        lever_a = centre[p] - centre_a[p]
        lever_b = centre[p] - centre_b[p]
        for col in range(12):
            column = d_cols[:, col]
            stiffness[p, 0:3, col] = -column
            stiffness[p, 3:6, col] = -np.cross(lever_a, column)
            stiffness[p, 6:9, col] = column
            stiffness[p, 9:12, col] = np.cross(lever_b, column)
    return force_b, stretch, sliding, stiffness
