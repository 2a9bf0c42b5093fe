"""Per-contact parameters of the joint laws: friction, compliance, tangential stretch (seed 000 eq. 13, 43).

A Coulomb joint with stiffness k (Pa/m) over a joint polygon of area A spread over
m contact points gives each point the stiffness K = k A / m (N/m). Its compliance enters
E_i = c_i / h^2 (eq. 43 with c = 1/K). Along the normal the stabilization removes only the
fraction PENETRATION_RECOVERY of a penetration per step, b = PR Phi / h, so a contact at rest
carries F = PR Phi / c_n: the normal entry is c_n = PR / K, which makes that F = K Phi, the
joint's own stiffness (a spring K with a damper K h / PR in series with the time step).
Tangentially the stretch of a step (``tangential_stretch``), fed back as s/h, gives F = K s
with c_t = 1 / K. Joints without stiffness use the model's tiny `settings.compliance` in all
three directions, which only selects a unique force solution (its rest stiffness is
PR / compliance along the normal).
"""
import numpy as np
from numba import njit

from extrados.engine.collision.feature_id import is_edge_point, is_interior_point
from extrados.engine.contact.assemble import PENETRATION_RECOVERY
from extrados.engine.contact.tributary import cell_areas


def pair_polygon_area(contacts):
    """(n_pairs,) area (m^2) of each pair's contact polygon (points in polygon order, then, for a joint cut
    into points, engine.deformable.joint_points, the grid inside it).

    Shoelace formula in 3-D: A = |sum_k p_k x p_k+1| / 2 over the polygon's points, the next corner wrapping
    within each pair; pairs of one or two points have zero area.
    """
    starts = contacts.pair_start
    counts = np.diff(starts)
    if len(counts) == 0:
        return np.zeros(0)
    inside = is_interior_point(contacts.feature_id)          # a cut joint's grid follows its polygon's points
    corners = np.add.reduceat((~inside).astype(np.int64), starts[:-1])
    following = np.minimum(np.arange(len(contacts.gap)) + 1, len(contacts.gap) - 1)
    following[starts[:-1] + corners - 1] = starts[:-1]
    cross = np.where(inside[:, None], 0.0, np.cross(contacts.point, contacts.point[following]))
    twice = np.add.reduceat(cross, starts[:-1], axis=0)
    return np.where(corners >= 3, 0.5 * np.linalg.norm(twice, axis=1), 0.0)


def tributary_area(contacts):
    """(n_c,) m^2, each contact point's share of its pair's polygon area: the area over its point count, or,
    for a joint whose edges were cut into points (engine.deformable.joint_points), the point's Voronoi cell
    within the polygon (engine.contact.tributary)."""
    counts = np.diff(contacts.pair_start)
    area = np.repeat(pair_polygon_area(contacts) / np.maximum(counts, 1), counts)
    cut = is_edge_point(contacts.feature_id)
    if cut.any():
        pairs = np.unique(contacts.pair[cut])
        cells = cell_areas(contacts, pairs, ~is_interior_point(contacts.feature_id))
        area = np.where(np.isnan(cells), area, cells)
    return area


@njit(cache=True)
def law_of_contacts(pair_start, body_a, body_b, n_blocks, pair_keys, pair_law):
    """(n_c,) int64 index of the joint law of every contact, the law of its pair (0: the default).

    Parameters
    ----------
    pair_start : (n_pairs + 1,) int64, offsets of each pair's contacts
    body_a, body_b : (n_c,) int64
    n_blocks : int
    pair_keys : (n_assigned,) int64, sorted keys min(a, b) * n_blocks + max(a, b) of assigned pairs
    pair_law : (n_assigned,) int64, law of each assigned pair
    """
    law = np.zeros(body_a.shape[0], np.int64)
    for pair in range(pair_start.shape[0] - 1):
        first = pair_start[pair]
        a, b = body_a[first], body_b[first]
        key = min(a, b) * n_blocks + max(a, b)
        where = np.searchsorted(pair_keys, key)
        if where < pair_keys.shape[0] and pair_keys[where] == key:
            law[first:pair_start[pair + 1]] = pair_law[where]
    return law


def contact_laws(model, contacts):
    """(n_c,) index into model.joint_table of the law of each contact (0: the default)."""
    table = model.joint_table
    return law_of_contacts(np.asarray(contacts.pair_start, np.int64), np.asarray(contacts.body_a, np.int64),
                           np.asarray(contacts.body_b, np.int64), model.mechanics.n_blocks, table["pair_keys"],
                           table["pair_law"])


def contact_parameters(model, contacts, law=None):
    """Friction (n_c,) and compliance (n_c, 3) in m/N, as it enters E = c / h^2, of every contact.

    For a joint with stiffness the normal entry is PENETRATION_RECOVERY / K and the tangential ones
    1 / K, so that a contact at rest carries K times its penetration or stretch (module docstring).
    ``law`` is `contact_laws` of the contacts when the caller has it already.
    """
    table = model.joint_table
    if law is None:
        law = contact_laws(model, contacts)          # (n_c,) law of each contact
    friction = table["friction"][law]
    compliance = np.full((len(contacts.gap), 3), model.settings["compliance"])
    stiff = np.isfinite(table["normal_stiffness"]) | np.isfinite(table["shear_stiffness"])   # (n_laws,)
    if stiff.any() and stiff[law].any():
        tributary = tributary_area(contacts)
        for column, name, recovery in ((slice(0, 1), "normal_stiffness", PENETRATION_RECOVERY),
                                       (slice(1, 3), "shear_stiffness", 1.0)):
            k = table[name][law] * tributary
            has = np.isfinite(k) & (k > 0)
            compliance[has, column] = recovery / k[has, None]
    return friction, compliance


@njit(cache=True)
def tangential_stretch(frame, impulse, compliance, h):
    """(n_c, 3) world-frame elastic tangential stretch of each contact's spring after a step.

    The tangential compliance is a spring K = 1/c (seed 000 eq. 43, E = c/h^2): the force
    gamma_t/h stretches it by s = -c gamma_t / h. Feeding s/h back into the next step's
    right-hand side (as Phi/h does for the normal, eq. 27) holds a sticking contact still
    instead of letting it creep at c F_t / h; sliding contacts carry the stretch of the
    friction force they transmit, so it never grows beyond c mu N.

    Parameters
    ----------
    frame : (n_c, 3, 3) float64, rows n, u, v
    impulse : (n_c, 3) float64, N s
    compliance : (n_c, 3) float64, m/N
    h : float, s
    """
    stretch = np.empty((frame.shape[0], 3))
    for i in range(frame.shape[0]):
        along_u = compliance[i, 1] * impulse[i, 1]
        along_v = compliance[i, 2] * impulse[i, 2]
        for k in range(3):
            stretch[i, k] = -(along_u * frame[i, 1, k] + along_v * frame[i, 2, k]) / h
    return stretch


def pair_laws(model, contacts):
    """Normal stiffness k_n, shear stiffness k_t (N/m^3, inf where the joint has none) and friction of each
    touching pair's joint, from its first contact; a joint with a normal but no shear stiffness has k_t = k_n
    (the Winkler layer of engine.contact.winkler with its friction spring)."""
    table = model.joint_table
    law = contact_laws(model, contacts)[contacts.pair_start[:-1]]
    normal = table["normal_stiffness"][law]
    shear = table["shear_stiffness"][law]
    return normal, np.where(np.isfinite(shear), shear, normal), table["friction"][law]
