"""Per-contact parameters of the joint laws: friction and compliance (seed 000 eq. 13, 43).

A Coulomb joint with stiffness k (Pa/m) over a joint polygon of area A spread over
m contact points gives each point the stiffness K = k A / m (N/m); its compliance
1/K enters E_i = (h^2 K_i)^-1. Joints without stiffness use the model's tiny
`settings.compliance`, which only selects a unique force solution.
"""
import numpy as np


def pair_polygon_area(contacts):
    """(n_pairs,) area (m^2) of each pair's contact polygon (points in polygon order).

    Shoelace formula in 3-D: A = |sum_k p_k x p_k+1| / 2, the next corner wrapping within
    each pair; pairs of one or two points have zero area.
    """
    starts = contacts.pair_start
    counts = np.diff(starts)
    if len(counts) == 0:
        return np.zeros(0)
    following = np.arange(len(contacts.gap)) + 1
    following[starts[1:] - 1] = starts[:-1]
    twice = np.add.reduceat(np.cross(contacts.point, contacts.point[following]), starts[:-1], axis=0)
    return np.where(counts >= 3, 0.5 * np.linalg.norm(twice, axis=1), 0.0)


def pair_laws(model, contacts):
    """(n_pairs,) index into model.joint_table of the law of each contact pair (0: the default)."""
    table = model.joint_table
    first = contacts.pair_start[:-1]
    a, b = contacts.body_a[first], contacts.body_b[first]
    keys = np.minimum(a, b).astype(np.int64) * model.mechanics.n_blocks + np.maximum(a, b)
    law = np.zeros(len(first), np.int64)
    if len(table["pair_keys"]):
        where = np.minimum(np.searchsorted(table["pair_keys"], keys), len(table["pair_keys"]) - 1)
        found = table["pair_keys"][where] == keys
        law[found] = table["pair_law"][where[found]]
    return law


def contact_parameters(model, contacts):
    """Friction (n_c,) and compliance (n_c, 3) in m/N for every contact."""
    table = model.joint_table
    counts = np.diff(contacts.pair_start)
    law = np.repeat(pair_laws(model, contacts), counts)              # (n_c,) law of each contact
    friction = table["friction"][law]
    compliance = np.full((len(contacts.gap), 3), model.settings["compliance"])
    stiff = np.isfinite(table["normal_stiffness"]) | np.isfinite(table["shear_stiffness"])
    if stiff[law].any():
        tributary = np.repeat(pair_polygon_area(contacts) / np.maximum(counts, 1), counts)   # m^2 per point
        for column, name in ((slice(0, 1), "normal_stiffness"), (slice(1, 3), "shear_stiffness")):
            k = table[name][law] * tributary
            has = np.isfinite(k) & (k > 0)
            compliance[has, column] = 1.0 / k[has, None]
    return friction, compliance
