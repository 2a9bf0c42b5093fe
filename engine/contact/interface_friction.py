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
def unit_cross(j, v):
    """e_j x v, the column j of -[v]x."""
    if j == 0:
        return (0.0, -v[2], v[1])
    if j == 1:
        return (v[2], 0.0, -v[0])
    return (-v[1], v[0], 0.0)


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
        # K = [H_A; H_B] D [-G_A, G_B]: wrench rows H_A = [-I; -[c - x_A]x], H_B = [I; [c - x_B]x], point
        # columns G = [I, -[lever]x] (d(point) = dx + dtheta x lever); written out, as numba's small matrix
        # products each call BLAS
        lever_a = centre[p] - centre_a[p]
        lever_b = centre[p] - centre_b[p]
        d_cols = np.zeros((3, 12))
        for k in range(3):
            for j in range(3):
                d_cols[k, j] = -tangent[k, j]
                d_cols[k, 6 + j] = tangent[k, j]
            # tangent @ (-[lever]x): column j of -[l]x is e_j x l
            for j in range(3):
                e_x_a = unit_cross(j, lever_a)
                e_x_b = unit_cross(j, lever_b)
                d_cols[k, 3 + j] = -(tangent[k, 0] * e_x_a[0] + tangent[k, 1] * e_x_a[1] + tangent[k, 2] * e_x_a[2])
                d_cols[k, 9 + j] = tangent[k, 0] * e_x_b[0] + tangent[k, 1] * e_x_b[1] + tangent[k, 2] * e_x_b[2]
        if sliding[p]:
            # F_B = -mu N s/|s|: its share of dN (Newton cycles between stick and slip without it)
            for k in range(3):
                for col in range(12):
                    d_cols[k, col] -= friction[p] * direction[k] * normal_force_tangent[p, col]
        for col in range(12):
            f0, f1, f2 = d_cols[0, col], d_cols[1, col], d_cols[2, col]
            stiffness[p, 0, col], stiffness[p, 1, col], stiffness[p, 2, col] = -f0, -f1, -f2
            stiffness[p, 6, col], stiffness[p, 7, col], stiffness[p, 8, col] = f0, f1, f2
            stiffness[p, 3, col] = -(lever_a[1] * f2 - lever_a[2] * f1)
            stiffness[p, 4, col] = -(lever_a[2] * f0 - lever_a[0] * f2)
            stiffness[p, 5, col] = -(lever_a[0] * f1 - lever_a[1] * f0)
            stiffness[p, 9, col] = lever_b[1] * f2 - lever_b[2] * f1
            stiffness[p, 10, col] = lever_b[2] * f0 - lever_b[0] * f2
            stiffness[p, 11, col] = lever_b[0] * f1 - lever_b[1] * f0
    return force_b, stretch, sliding, stiffness
