"""Average stress tensor of each rigid block from its contact forces (seed 001 eq. 35).

    <sigma> = (1/V) sum_l GM_l (x) F_l

with G the centre of mass, M_l the contact points and F_l the contact forces acting
on the block. Valid while the block does not rotate (seed 001 sec. 3); the rotational
inertia terms of eq. 55 belong to dynamic runs.
"""
import numpy as np


def block_stress(mechanics, position, contacts, contact_force):
    """(n_blocks, 3, 3) average stress (Pa, compression negative) of every block.

    contact_force : (n_c, 3) float64, N, force on body_b (body_a receives the opposite)
    """
    stress = np.zeros((mechanics.n_blocks, 3, 3))
    arm_b = contacts.point - position[contacts.body_b]
    arm_a = contacts.point - position[contacts.body_a]
    np.add.at(stress, contacts.body_b, np.einsum("ni,nj->nij", arm_b, contact_force))
    np.add.at(stress, contacts.body_a, np.einsum("ni,nj->nij", arm_a, -contact_force))
    return stress / mechanics.volume[:, None, None]
