"""Energy balance of a dynamic run: kinetic, potential, work of supports, dissipated.

    E_kin = sum 1/2 m |v|^2 + 1/2 w . (I_w w)                (movable blocks)
    E_pot = - (work of the applied loads), accumulated as h (f . v + M . w) per step
    W_sup = work done by moving supports on the blocks, h sum F_c . v_support per step
    E_dis = W_sup - (E_kin - E_kin0) - E_pot                 (what friction and impacts took)
With no support motion E_kin + E_pot never increases.
"""
from dataclasses import dataclass

import numpy as np


def kinetic_energy(mechanics, rotations, velocity):
    """Kinetic energy (J) of the movable blocks for twists velocity (n, 6)."""
    movable = ~mechanics.is_support
    v, w = velocity[movable, :3], velocity[movable, 3:]
    inertia = np.einsum("nij,njk,nlk->nil", rotations[movable], mechanics.inertia_body[movable], rotations[movable])
    return float(0.5 * (mechanics.mass[movable] * np.einsum("ni,ni->n", v, v)).sum()
                 + 0.5 * np.einsum("ni,nij,nj->", w, inertia, w))


def load_power(mechanics, wrench, velocity):
    """Power (W) of the applied loads on the movable blocks."""
    movable = ~mechanics.is_support
    return float(np.einsum("ni,ni->", wrench[movable], velocity[movable]))


def support_power(contacts, contact_force, support_velocity, is_moving):
    """Power (W) that moving supports put into the blocks through contact forces.

    contact_force : (n_c, 3) force on body_b from body_a (N); a support at body_a pushes body_b
    with +F and moves at its prescribed velocity, and symmetrically for body_b.
    """
    if support_velocity is None or len(contacts.gap) == 0:
        return 0.0
    power = 0.0
    a_moving = is_moving[contacts.body_a]
    b_moving = is_moving[contacts.body_b]
    if a_moving.any():
        power += float(np.einsum("ni,ni->", contact_force[a_moving], support_velocity[contacts.body_a[a_moving], :3]))
    if b_moving.any():
        power -= float(np.einsum("ni,ni->", contact_force[b_moving], support_velocity[contacts.body_b[b_moving], :3]))
    return power


@dataclass
class EnergyAccount:
    """Running energy balance; `record()` gives the entry written per frame."""

    kinetic0: float
    kinetic: float = 0.0
    potential: float = 0.0
    supports: float = 0.0

    def add_step(self, kinetic, load_work, support_work):
        self.kinetic = kinetic
        self.potential -= load_work
        self.supports += support_work

    def record(self, t):
        dissipated = self.supports - (self.kinetic - self.kinetic0) - self.potential
        return {"t": t, "kinetic": self.kinetic, "potential": self.potential, "supports": self.supports,
                "dissipated": dissipated, "total": self.kinetic + self.potential}
