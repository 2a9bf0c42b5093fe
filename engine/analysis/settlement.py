"""A static step's block velocities less the settlement that elastic blocks impose (issue 23).

In the static CCP (engine.analysis.static, h = 1 s) a deformable block's contacts move by its elastic
displacement, and the rigid frames of the blocks follow so that closed contacts stay closed: u_i = J_i v + e_i = 0,
e_i the elastic (and compliant) displacement across contact i. That rigid velocity is a settlement, of the
order of the blocks' elastic strain times their size, not a mechanism: a wall of stone blocks under its own
weight settles by microns, a mechanism moves at a fraction of g h. The settlement is the smallest velocity
(in the blocks' mass metric) that the closed contacts' rows give the same velocity as the step's v,

    v_s = argmin ||v||_M  subject to  J_c v = -e_c = J_c v+ - u_c,

J_c the normal rows of the contacts that carry a force and the tangential rows of those that stick, u_c their
velocities at the end of the step (zero where the solution holds them closed). What is left, v+ - v_s, is the
mechanism the static verdict measures (engine.analysis.static.solve_static): a block turning about a hinge
whose far corner still carries a force within the solver's tolerance keeps its turn, because that corner's
row asks v_s for its elastic displacement only, not for its opening.
"""
import numpy as np
from scipy import sparse
from scipy.sparse.linalg import lsqr

from extrados.engine.contact.frames import contact_jacobians

#: A contact sticks when its tangential impulse is below this fraction of its friction cone's radius.
STICKING = 1.0 - 1e-3


def constrained_rows(impulse, friction):
    """(n_c, 3) bool: the directions (n, u, v) that the static solution holds closed at each contact."""
    normal = impulse[:, 0]
    carrying = normal != 0.0
    sticking = carrying & (np.linalg.norm(impulse[:, 1:], axis=1) < STICKING * friction * np.abs(normal))
    return np.column_stack([carrying, sticking, sticking])


def mechanism_velocity(mechanics, outcome):
    """(n_blocks, 6) the static step's velocities ``outcome.velocity`` less their settlement (module docstring)."""
    velocity = outcome.velocity
    contacts = outcome.contacts
    rows = constrained_rows(outcome.impulse, outcome.friction)
    if not rows.any():
        return velocity
    _, jac_a, jac_b = contact_jacobians(np.ascontiguousarray(contacts.point, float),
                                        np.ascontiguousarray(contacts.normal, float),
                                        np.asarray(contacts.body_a, np.int64), np.asarray(contacts.body_b, np.int64),
                                        mechanics.position0)
    contact, direction = np.nonzero(rows)
    n_rows, n_b = len(contact), mechanics.n_blocks
    scale = metric_scale(mechanics)                                               # (n_b, 6) M^-1/2
    entries, columns = [], []
    for jacobian, body in ((jac_a, contacts.body_a), (jac_b, contacts.body_b)):
        block = np.asarray(body, np.int64)[contact]
        entries.append(jacobian[contact, direction] * scale[block])               # (n_rows, 6)
        columns.append(6 * block[:, None] + np.arange(6))
    matrix = sparse.csr_matrix((np.concatenate(entries).ravel(),
                                (np.repeat(np.tile(np.arange(n_rows), 2), 6), np.concatenate(columns).ravel())),
                               shape=(n_rows, 6 * n_b))
    # J_c v_s = -e_c: the elastic (and compliant) displacement across the closed rows, J_c v+ - u_c; a contact
    # that opens (u_c > 0) while carrying a force within the solver's tolerance leaves its opening to the mechanism
    unscaled = (velocity / np.where(scale > 0.0, scale, 1.0)).ravel()
    target = matrix @ unscaled - outcome.contact_velocity[contact, direction]
    scaled = lsqr(matrix, target, atol=1e-14, btol=1e-14, iter_lim=20 * matrix.shape[1])[0]
    return velocity - (scaled.reshape(n_b, 6) * scale)


def metric_scale(mechanics):
    """(n_blocks, 6) M^-1/2 per block and direction (the mean of the inertia for the rotations); 0 for supports."""
    linear = 1.0 / np.sqrt(mechanics.mass)
    angular = 1.0 / np.sqrt(np.trace(mechanics.inertia_body, axis1=1, axis2=2) / 3.0)
    scale = np.column_stack([np.repeat(linear[:, None], 3, axis=1), np.repeat(angular[:, None], 3, axis=1)])
    scale[mechanics.is_support] = 0.0
    return scale
