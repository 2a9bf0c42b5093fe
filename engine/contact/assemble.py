"""Assemble the cone complementarity problem of one step (seed 000 eq. 27, 31-34, 43).

    r = D^T M^-1 k~ + b,   k~ = M v + h f,   b = (Phi_i / h, 0, 0)
    N = D^T M^-1 D + E,    E_i = compliance / h^2 = (h^2 K_i)^-1
"""
import numpy as np

from engine.contact.frames import contact_jacobians
from engine.solvers.problem import Problem

#: Largest speed (m/s) at which stabilization b = Phi/h may push penetrating blocks apart,
#: so that an initial overlap is removed gently instead of launching blocks (seed 000 sec. 2.4).
MAX_RECOVERY_SPEED = 0.1
#: Fraction of a penetration removed per step (Baumgarte factor on Phi < 0). With the full
#: Phi/h of eq. 27, position noise of 1e-9 m becomes rhs noise of 1e-6 m/s at h = 1 ms and the
#: warm-started solver chases it every step; 0.2 cuts the iterations of a wall at rest about
#: four-fold. Open contacts keep the full Phi/h so that impacts close the gap in one step.
PENETRATION_RECOVERY = 0.2


def world_inverse_inertia(mechanics, rotations):
    """(n_blocks, 3, 3) world inverse inertia A I_body^-1 A^T; zero for supports."""
    inv_body = np.linalg.inv(mechanics.inertia_body)
    inv_world = np.einsum("nij,njk,nlk->nil", rotations, inv_body, rotations)
    inv_world[mechanics.is_support] = 0.0
    return inv_world


def inverse_masses(mechanics):
    """(n_blocks,) inverse masses; zero for supports."""
    inv = 1.0 / mechanics.mass
    inv[mechanics.is_support] = 0.0
    return inv


def free_velocity(mechanics, state, rotations, wrench, inverse_mass, inverse_inertia, h, support_velocity=None):
    """Velocity after one step without contacts, M^-1 k~ = v + h M^-1 (f - w x I w) (eq. 29, 31).

    Parameters
    ----------
    wrench : (n_blocks, 6) float64, applied force and moment about the centre of mass
    support_velocity : (n_blocks, 6) float64, optional, prescribed velocity of supports

    Returns
    -------
    (n_blocks, 6) float64
    """
    omega = state.angular_velocity
    inertia_world = np.einsum("nij,njk,nlk->nil", rotations, mechanics.inertia_body, rotations)
    gyroscopic = np.cross(omega, np.einsum("nij,nj->ni", inertia_world, omega))
    v_free = state.generalized_velocity().copy()
    v_free[:, :3] += h * inverse_mass[:, None] * wrench[:, :3]
    v_free[:, 3:] += h * np.einsum("nij,nj->ni", inverse_inertia, wrench[:, 3:] - gyroscopic)
    supports = mechanics.is_support
    v_free[supports] = 0.0 if support_velocity is None else support_velocity[supports]
    return v_free


def impact_bias(gap, approach, h, restitution):
    """Normal stabilization b_n per contact (seed 000 eq. 27).

    b = Phi/h lets an open contact close within the step; a penetrating one is pushed out by
    PENETRATION_RECOVERY Phi/h (clamped to MAX_RECOVERY_SPEED). With restitution e a contact that closes within the
    step must separate at e |u_n-| (Newton's law, b = e u_n-).

    Parameters
    ----------
    gap : (n_c,) float64, m
    approach : (n_c,) float64, m/s, normal velocity before the step (negative when closing)
    h : float, s
    restitution : float

    Returns
    -------
    (n_c,) float64, m/s
    """
    bias = np.where(gap > 0.0, gap / h, np.maximum(PENETRATION_RECOVERY * gap / h, -MAX_RECOVERY_SPEED))
    if restitution > 0.0:
        # only contacts that close within this step bounce (gap + h u_n- <= 0); a contact still
        # open at the end of the step is not yet an impact
        closing = gap + h * approach <= 0.0
        bias = np.where(closing, np.minimum(bias, restitution * np.minimum(approach, 0.0)), bias)
    return bias


def assemble_problem(mechanics, state, contacts, friction, compliance, wrench, h, support_velocity=None,
                     restitution=0.0, stretch=None):
    """Build the Problem of eq. 38 for one step of length h.

    Parameters
    ----------
    contacts : Contacts from engine.collision.detect
    friction : (n_contacts,) float64
    compliance : (n_contacts, 3) float64, m/N per contact direction
    wrench : (n_blocks, 6) float64, applied loads
    h : float, s
    restitution : float
        Newton coefficient e: an approaching contact must separate at e times its approach speed.
    stretch : (n_contacts, 3) float64, optional
        World-frame elastic stretch of each contact's tangential spring from the previous step
        (see engine.pipeline.tangential_stretch); enters r as b_t = s/h.

    Returns
    -------
    problem : Problem
    frame : (n_contacts, 3, 3) float64 contact frames (rows n, u, v)
    v_free : (n_blocks, 6) float64 velocity without contact impulses
    """
    rotations = state.rotation_matrices()
    inverse_mass = inverse_masses(mechanics)
    inverse_inertia = world_inverse_inertia(mechanics, rotations)
    v_free = free_velocity(mechanics, state, rotations, wrench, inverse_mass, inverse_inertia, h, support_velocity)
    frame, jac_a, jac_b = contact_jacobians(contacts.point, contacts.normal, contacts.body_a, contacts.body_b,
                                            state.position)
    # r = D^T v_free + b (eq. 34 with M^-1 k~ = v_free; eq. 27 stabilization clamped)
    rhs = (np.einsum("nij,nj->ni", jac_a, v_free[contacts.body_a])
           + np.einsum("nij,nj->ni", jac_b, v_free[contacts.body_b]))
    # pre-step normal velocity u_n- of every contact (supports at their prescribed velocity)
    v_now = state.generalized_velocity()
    if support_velocity is not None:
        v_now[mechanics.is_support] = support_velocity[mechanics.is_support]
    approach = (np.einsum("nj,nj->n", jac_a[:, 0], v_now[contacts.body_a])
                + np.einsum("nj,nj->n", jac_b[:, 0], v_now[contacts.body_b]))
    bias = impact_bias(contacts.gap, approach, h, restitution)
    rhs[:, 0] += bias
    if stretch is not None:
        rhs[:, 1:] += np.einsum("nki,ni->nk", frame[:, 1:], stretch) / h
    problem = Problem(body_a=contacts.body_a, body_b=contacts.body_b, jacobian_a=jac_a, jacobian_b=jac_b,
                      inverse_mass=inverse_mass, inverse_inertia=inverse_inertia,
                      compliance=compliance / h ** 2, friction=friction, rhs=rhs)
    return problem, frame, v_free
