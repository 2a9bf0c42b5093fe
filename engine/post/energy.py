"""Energy balance of a dynamic run: kinetic, potential, work of supports, dissipated.

    E_kin = sum 1/2 m |v|^2 + 1/2 w . (I_w w)                (movable blocks)
    E_pot = - (work of the applied loads), accumulated as h (f . v + M . w) per step
    W_sup = work done by moving supports on the blocks, h sum F_c . v_support per step
    E_dis = W_sup - (E_kin - E_kin0) - E_pot                 (what friction and impacts took)
With no support motion E_kin + E_pot never increases.

The sums over blocks and contacts run in numba kernels, once per step.
"""
from dataclasses import dataclass

import numpy as np
from numba import njit


@njit(cache=True)
def kinetic_energy_kernel(mass, inertia_body, is_support, rotations, velocity):
    """Kinetic energy (J) of the movable blocks, sum 1/2 m |v|^2 + 1/2 (A^T w) . I_body (A^T w).

    Parameters
    ----------
    mass : (n,) float64, kg
    inertia_body : (n, 3, 3) float64, kg m^2, body axes
    is_support : (n,) bool
    rotations : (n, 3, 3) float64, A
    velocity : (n, 6) float64, twists [m/s, rad/s], angular part in world frame
    """
    translation = 0.0
    rotation = 0.0
    for block in range(mass.shape[0]):
        if is_support[block]:
            continue
        v0, v1, v2 = velocity[block, 0], velocity[block, 1], velocity[block, 2]
        translation += mass[block] * (v0 * v0 + v1 * v1 + v2 * v2)
        # w . I_w w = (A^T w) . I_body (A^T w)
        w = velocity[block, 3:]
        b0 = rotations[block, 0, 0] * w[0] + rotations[block, 1, 0] * w[1] + rotations[block, 2, 0] * w[2]
        b1 = rotations[block, 0, 1] * w[0] + rotations[block, 1, 1] * w[1] + rotations[block, 2, 1] * w[2]
        b2 = rotations[block, 0, 2] * w[0] + rotations[block, 1, 2] * w[1] + rotations[block, 2, 2] * w[2]
        inertia = inertia_body[block]
        rotation += (b0 * (inertia[0, 0] * b0 + inertia[0, 1] * b1 + inertia[0, 2] * b2)
                     + b1 * (inertia[1, 0] * b0 + inertia[1, 1] * b1 + inertia[1, 2] * b2)
                     + b2 * (inertia[2, 0] * b0 + inertia[2, 1] * b1 + inertia[2, 2] * b2))
    return 0.5 * translation + 0.5 * rotation


def kinetic_energy(mechanics, rotations, velocity):
    """Kinetic energy (J) of the movable blocks for twists velocity (n, 6)."""
    return float(kinetic_energy_kernel(mechanics.mass, mechanics.inertia_body, mechanics.is_support, rotations,
                                       np.ascontiguousarray(velocity, dtype=np.float64)))


@njit(cache=True)
def load_power_kernel(wrench, velocity, is_support):
    """Power (W) sum f . v + M . w of the wrenches (n, 6) on the movable blocks with twists (n, 6)."""
    power = 0.0
    for block in range(wrench.shape[0]):
        if not is_support[block]:
            for k in range(6):
                power += wrench[block, k] * velocity[block, k]
    return power


def load_power(mechanics, wrench, velocity):
    """Power (W) of the applied loads on the movable blocks."""
    return float(load_power_kernel(np.ascontiguousarray(wrench, dtype=np.float64),
                                   np.ascontiguousarray(velocity, dtype=np.float64), mechanics.is_support))


@njit(cache=True)
def support_power_kernel(body_a, body_b, frame, impulse, h, support_velocity, is_moving):
    """Power (W) that moving supports put into the blocks through contact forces F = frame^T gamma / h.

    Parameters
    ----------
    body_a, body_b : (n_c,) int64
    frame : (n_c, 3, 3) float64, rows n, u, v
    impulse : (n_c, 3) float64, N s, on body_b from body_a in the contact frame
    h : float, s
    support_velocity : (n_blocks, 6) float64, prescribed twists
    is_moving : (n_blocks,) bool

    Returns
    -------
    float
        sum over contacts of F . v_a (support at body_a) - F . v_b (support at body_b).
    """
    power = 0.0
    for i in range(body_a.shape[0]):
        a = body_a[i]
        b = body_b[i]
        if not (is_moving[a] or is_moving[b]):
            continue
        for k in range(3):
            force = (frame[i, 0, k] * impulse[i, 0] + frame[i, 1, k] * impulse[i, 1]
                     + frame[i, 2, k] * impulse[i, 2]) / h
            if is_moving[a]:
                power += force * support_velocity[a, k]
            if is_moving[b]:
                power -= force * support_velocity[b, k]
    return power


def support_power(contacts, frame, impulse, h, support_velocity, is_moving):
    """Power (W) that moving supports put into the blocks through contact forces.

    The force on body_b from body_a is F = frame^T gamma / h (N); a support at body_a pushes body_b
    with +F and moves at its prescribed velocity, and symmetrically for body_b.

    Parameters
    ----------
    contacts : Contacts
    frame : (n_c, 3, 3) float64, rows n, u, v
    impulse : (n_c, 3) float64, N s
    h : float, s
    support_velocity : (n_blocks, 6) float64 or None
    is_moving : (n_blocks,) bool
    """
    if support_velocity is None or len(contacts.gap) == 0:
        return 0.0
    return float(support_power_kernel(np.asarray(contacts.body_a, np.int64), np.asarray(contacts.body_b, np.int64),
                                      frame, np.ascontiguousarray(impulse, dtype=np.float64), h,
                                      np.ascontiguousarray(support_velocity, dtype=np.float64), is_moving))


@dataclass
class EnergyAccount:
    """Running energy balance; `record()` gives the entry written per frame.

    ``elastic`` is the strain energy the joints hold (HHT's Winkler layers and friction springs, zero
    under NSCD); what the supports put in and is neither kinetic, potential nor elastic was dissipated.
    """

    kinetic0: float
    elastic0: float = 0.0   # J, held by the joints at the start
    kinetic: float = 0.0
    potential: float = 0.0
    supports: float = 0.0
    elastic: float = 0.0

    def add_step(self, kinetic, load_work, support_work, elastic=0.0):
        self.kinetic = kinetic
        self.potential -= load_work
        self.supports += support_work
        self.elastic = elastic

    def record(self, t):
        dissipated = (self.supports - (self.kinetic - self.kinetic0) - self.potential
                      - (self.elastic - self.elastic0))
        return {"t": t, "kinetic": self.kinetic, "potential": self.potential, "elastic": self.elastic,
                "supports": self.supports, "dissipated": dissipated,
                "total": self.kinetic + self.potential + self.elastic}
