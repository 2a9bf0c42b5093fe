"""Assemble the cone complementarity problem of one step (seed 000 eq. 27, 31-34, 43).

    r = D^T M^-1 k~ + b,   k~ = M v + h f,   b = (Phi_i / h, 0, 0)
    N = D^T M^-1 D + E,    E_i = compliance / h^2 = (h^2 K_i)^-1

Per-block and per-contact work runs in numba kernels; the arrays they build are handed to the
Problem without a copy. The kernels sum in the order of the numpy expressions they replaced, so
they build the same problem bit for bit (the warm-started solver turns a change in the last bit
of r into a different iteration count, hence different impulses): a triple product A T A^T in
index order, a dot product as numpy's einsum reduces, in two lanes of a 128-bit register, the
even and the odd terms apart, then added (``dot3``, ``jacobian_row_dot``).
"""

import numpy as np
from numba import njit

from extrados.engine.contact.frames import contact_jacobians
from extrados.engine.contact.impact_energy import closing_contacts
from extrados.engine.solvers.problem import Problem

#: Largest speed (m/s) at which stabilization b = Phi/h may push penetrating blocks apart,
#: so that an initial overlap is removed gently instead of launching blocks (seed 000 sec. 2.4).
MAX_RECOVERY_SPEED = 0.1
#: Fraction of a penetration removed per step (Baumgarte factor on Phi < 0). With the full
#: Phi/h of eq. 27, position noise of 1e-9 m becomes rhs noise of 1e-6 m/s at h = 1 ms and the
#: warm-started solver chases it every step. With E = c/h^2 a contact at rest carries
#: F = PENETRATION_RECOVERY Phi / c; engine.contact.laws scales the normal compliance of a joint
#: with stiffness by the same factor, so that its rest stiffness is the one the user gave.
#: Iterations per step of the 510-block benchmark wall at rest, steps 100-600: 25-70 at 0.2,
#: 10-38 at 0.1, 3-13 at 0.05 (the rest penetration grows from 0.8 to 3 um). Open contacts keep
#: the full Phi/h so that impacts close the gap in one step.
PENETRATION_RECOVERY = 0.05


@njit(cache=True)
def dot3(x, y):
    """x . y of two (3,) float64 vectors in einsum's order, (x0 y0 + x2 y2) + x1 y1."""
    return (x[0] * y[0] + x[2] * y[2]) + x[1] * y[1]


@njit(cache=True)
def jacobian_row_dot(jacobian, i, row, velocity, body):
    """J_i[row] . v_body in einsum's order: the relative velocity one side of contact i adds.

    Parameters
    ----------
    jacobian : (n_c, 3, 6) float64, Jacobian blocks of one side (a or b)
    i, row : int, contact and frame direction (0, 1, 2 for n, u, v)
    velocity : (n_blocks, 6) float64, twists [m/s, rad/s]
    body : int

    Returns
    -------
    float, m/s
    """
    even = (jacobian[i, row, 0] * velocity[body, 0] + jacobian[i, row, 2] * velocity[body, 2]
            + jacobian[i, row, 4] * velocity[body, 4])
    odd = (jacobian[i, row, 1] * velocity[body, 1] + jacobian[i, row, 3] * velocity[body, 3]
           + jacobian[i, row, 5] * velocity[body, 5])
    return even + odd


@njit(cache=True)
def rotate_tensor(rotation, tensor, out):
    """Write the world-frame tensor A T A^T of a body-frame tensor T into out (each (3, 3) float64)."""
    for i in range(3):
        for m in range(3):
            total = 0.0
            for j in range(3):
                for k in range(3):
                    total += rotation[i, j] * tensor[j, k] * rotation[m, k]
            out[i, m] = total


@njit(cache=True)
def world_inverse_inertia(inverse_body, rotations, is_support):
    """World inverse inertia A I_body^-1 A^T of every block; zero for supports (seed 000 eq. 31).

    Parameters
    ----------
    inverse_body : (n_blocks, 3, 3) float64, I_body^-1, 1/(kg m^2)
    rotations : (n_blocks, 3, 3) float64, rotation matrices A
    is_support : (n_blocks,) bool

    Returns
    -------
    (n_blocks, 3, 3) float64, 1/(kg m^2)
    """
    out = np.zeros(inverse_body.shape)
    for block in range(inverse_body.shape[0]):
        if not is_support[block]:
            rotate_tensor(rotations[block], inverse_body[block], out[block])
    return out


def inverse_masses(mechanics):
    """(n_blocks,) inverse masses; zero for supports."""
    inv = 1.0 / mechanics.mass
    inv[mechanics.is_support] = 0.0
    return inv


@njit(cache=True)
def free_velocity_kernel(velocity, rotations, inertia_body, inverse_mass, inverse_inertia, wrench, is_support, h):
    """Velocity after one step without contacts, v + h M^-1 (f - w x I_w w), of the movable blocks (eq. 29, 31).

    Parameters
    ----------
    velocity : (n_blocks, 6) float64, twists [m/s, rad/s] at the start of the step
    rotations : (n_blocks, 3, 3) float64
    inertia_body : (n_blocks, 3, 3) float64, kg m^2
    inverse_mass : (n_blocks,) float64, 1/kg
    inverse_inertia : (n_blocks, 3, 3) float64, world frame, 1/(kg m^2)
    wrench : (n_blocks, 6) float64, applied force (N) and moment (N m) about the centre of mass
    is_support : (n_blocks,) bool
    h : float, s

    Returns
    -------
    (n_blocks, 6) float64, supports keep their row of ``velocity``
    """
    v_free = velocity.copy()
    inertia = np.empty((3, 3))  # (3, 3) float64, I_w = A I_body A^T of the current block
    spin = np.empty(3)          # (3,) float64, I_w w
    moment = np.empty(3)        # (3,) float64, net moment f_w - w x I_w w
    for block in range(velocity.shape[0]):
        if is_support[block]:
            continue
        omega = velocity[block, 3:]
        rotate_tensor(rotations[block], inertia_body[block], inertia)
        for k in range(3):
            spin[k] = dot3(inertia[k], omega)
        moment[0] = wrench[block, 3] - (omega[1] * spin[2] - omega[2] * spin[1])
        moment[1] = wrench[block, 4] - (omega[2] * spin[0] - omega[0] * spin[2])
        moment[2] = wrench[block, 5] - (omega[0] * spin[1] - omega[1] * spin[0])
        for k in range(3):
            v_free[block, k] += h * inverse_mass[block] * wrench[block, k]
            v_free[block, 3 + k] += h * dot3(inverse_inertia[block, k], moment)
    return v_free


def start_velocity(mechanics, state, support_velocity):
    """(n_blocks, 6) twists at the start of the step, supports at their prescribed velocity if given."""
    velocity = state.generalized_velocity()
    if support_velocity is not None:
        velocity[mechanics.is_support] = support_velocity[mechanics.is_support]
    return velocity


def free_velocity(mechanics, v_start, rotations, wrench, inverse_mass, inverse_inertia, h, prescribed):
    """Velocity after one step without contacts, M^-1 k~ = v + h M^-1 (f - w x I w) (eq. 29, 31).

    Parameters
    ----------
    v_start : (n_blocks, 6) float64, from ``start_velocity``
    wrench : (n_blocks, 6) float64, applied force and moment about the centre of mass
    prescribed : bool
        True when the supports move at a prescribed velocity (kept from v_start); False: they rest.

    Returns
    -------
    (n_blocks, 6) float64
    """
    v_free = free_velocity_kernel(v_start, rotations, mechanics.inertia_body, inverse_mass, inverse_inertia,
                                  np.ascontiguousarray(wrench, dtype=np.float64), mechanics.is_support, h)
    if not prescribed:
        v_free[mechanics.is_support] = 0.0
    return v_free


@njit(cache=True)
def impact_bias(gap, approach, h, restitution):
    """Normal stabilization b_n of one contact (seed 000 eq. 27).

    b = Phi/h lets an open contact close within the step; a penetrating one is pushed out by
    PENETRATION_RECOVERY Phi/h (clamped to MAX_RECOVERY_SPEED). With restitution e a contact that closes within the
    step must separate at e |u_n-| (Newton's law, b = e u_n-).

    Parameters
    ----------
    gap : float, m
    approach : float, m/s, normal velocity before the step (negative when closing)
    h : float, s
    restitution : float

    Returns
    -------
    float, m/s
    """
    if gap > 0.0:
        bias = gap / h
    else:
        bias = max(PENETRATION_RECOVERY * gap / h, -MAX_RECOVERY_SPEED)
    # only contacts that close within this step bounce (gap + h u_n- <= 0); a contact still
    # open at the end of the step is not yet an impact
    if restitution > 0.0 and gap + h * approach <= 0.0:
        bias = min(bias, restitution * min(approach, 0.0))
    return bias


@njit(cache=True)
def bond_bias(gap, bond_gap, h):
    """Normal bias (m/s) of a bonded mortar contact: its opening from the gap it was bonded at over h.

    A bond is a spring both ways: with the normal compliance 1 / K (engine.contact.mortar.compliance_of_bonds)
    the step's force is -K (delta + h u_n), K times the opening at the end of the step (implicit Euler),
    in tension as in compression. Penetration's partial recovery (PENETRATION_RECOVERY) would make it a
    spring with a damper K h / PR, which slow loading tests see.
    """
    return (gap - bond_gap) / h


@njit(cache=True)
def contact_rhs(body_a, body_b, jacobian_a, jacobian_b, frame, v_free, v_start, gap, stretch, h, restitution,
                bond_gap):
    """Right-hand side r = D^T M^-1 k~ + b of every contact (seed 000 eq. 27, 34).

    r_i = J_a,i v_free,a + J_b,i v_free,b, plus the normal bias b_n of ``impact_bias`` (of
    ``bond_bias`` for a bonded contact, whose ``bond_gap`` is not nan) and the tangential
    spring s_i / h along u and v (see engine.contact.laws.tangential_stretch).

    Parameters
    ----------
    body_a, body_b : (n_c,) int64
    jacobian_a, jacobian_b : (n_c, 3, 6) float64
    frame : (n_c, 3, 3) float64, rows n, u, v
    v_free : (n_blocks, 6) float64, M^-1 k~, velocity after the step without contacts
    v_start : (n_blocks, 6) float64, velocity before the step (gives the approach speed u_n-)
    gap : (n_c,) float64, m
    stretch : (n_c, 3) float64, m, world-frame tangential stretch of the previous step
    h : float, s
    restitution : float
    bond_gap : (n_c,) float64, m, the gap a bonded contact was bonded at; nan for the others

    Returns
    -------
    (n_c, 3) float64, m/s, ordered (n, u, v)
    """
    n_c = body_a.shape[0]
    rhs = np.empty((n_c, 3))
    for i in range(n_c):
        a = body_a[i]
        b = body_b[i]
        for row in range(3):
            rhs[i, row] = (jacobian_row_dot(jacobian_a, i, row, v_free, a)
                           + jacobian_row_dot(jacobian_b, i, row, v_free, b))
        approach = jacobian_row_dot(jacobian_a, i, 0, v_start, a) + jacobian_row_dot(jacobian_b, i, 0, v_start, b)
        if np.isnan(bond_gap[i]):
            rhs[i, 0] += impact_bias(gap[i], approach, h, restitution)
        else:
            rhs[i, 0] += bond_bias(gap[i], bond_gap[i], h)
        for row in range(1, 3):
            rhs[i, row] += dot3(frame[i, row], stretch[i]) / h
    return rhs


def normal_approach(body_a, body_b, jacobian_a, jacobian_b, velocity):
    """(n_c,) m/s, normal relative velocity u_n = J_a,n v_a + J_b,n v_b of twists ``velocity`` (n_blocks, 6)."""
    return (np.einsum("ij,ij->i", jacobian_a[:, 0], velocity[body_a])
            + np.einsum("ij,ij->i", jacobian_b[:, 0], velocity[body_b]))


def assemble_problem(mechanics, state, contacts, friction, compliance, wrench, h, support_velocity=None,
                     restitution=0.0, stretch=None, cohesion=None, bond_gap=None, was_open=None):
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
        (see engine.contact.laws.tangential_stretch); enters r as b_t = s/h.
    cohesion : (n_contacts, 2) float64, optional
        N, [shear cohesion C, tensile capacity T] of each contact's bond (engine.contact.bonds);
        the Problem's cone of each contact is shifted by C h and cut at -T h. None: dry contacts.
    bond_gap : (n_contacts,) float64, optional
        m, the gap each bonded contact was bonded at, nan for the others (``bond_bias``).
    was_open : (n_contacts,) bool, optional
        The contacts open in the last step, when the energy impact law is on (engine.contact.impact_energy):
        one that closes within the step (``closing_contacts``) takes a velocity-level impact, b = 0
        (u_n+ >= 0), instead of closing at Phi/h. None: the law is off.

    Returns
    -------
    problem : Problem
    frame : (n_contacts, 3, 3) float64 contact frames (rows n, u, v)
    v_free : (n_blocks, 6) float64 velocity without contact impulses
    """
    rotations = state.rotation_matrices()
    inverse_mass = inverse_masses(mechanics)
    inverse_inertia = world_inverse_inertia(mechanics.inverse_inertia_body, rotations, mechanics.is_support)
    v_start = start_velocity(mechanics, state, support_velocity)
    v_free = free_velocity(mechanics, v_start, rotations, wrench, inverse_mass, inverse_inertia, h,
                           support_velocity is not None)
    body_a = np.ascontiguousarray(contacts.body_a, dtype=np.int64)
    body_b = np.ascontiguousarray(contacts.body_b, dtype=np.int64)
    frame, jac_a, jac_b = contact_jacobians(contacts.point, contacts.normal, body_a, body_b, state.position)
    if stretch is None:
        stretch = np.zeros((len(body_a), 3))
    if bond_gap is None:
        bond_gap = np.full(len(body_a), np.nan)
    gap = np.ascontiguousarray(contacts.gap, dtype=np.float64)
    if was_open is not None:
        approach = normal_approach(body_a, body_b, jac_a, jac_b, v_start)
        gap = np.where(closing_contacts(was_open, gap, approach, h), 0.0, gap)
    # r = D^T v_free + b (eq. 34 with M^-1 k~ = v_free; eq. 27 stabilization clamped)
    rhs = contact_rhs(body_a, body_b, jac_a, jac_b, frame, v_free, v_start, gap,
                      np.ascontiguousarray(stretch, dtype=np.float64), h, restitution,
                      np.ascontiguousarray(bond_gap, dtype=np.float64))
    # the Problem takes its arrays over and freezes them: the ones that came from the caller are copied
    problem = Problem(body_a=body_a.copy(), body_b=body_b.copy(), jacobian_a=jac_a, jacobian_b=jac_b,
                      inverse_mass=inverse_mass, inverse_inertia=inverse_inertia,
                      compliance=compliance / h ** 2, friction=np.array(friction, dtype=np.float64),
                      rhs=rhs, copy=False, free_velocity=v_free.copy(),
                      cohesion=None if cohesion is None else np.ascontiguousarray(cohesion * h, dtype=np.float64))
    return problem, frame, v_free
