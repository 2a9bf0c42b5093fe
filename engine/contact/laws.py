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


def contact_parameters(model, contacts):
    """Friction (n_c,) and compliance (n_c, 3) in m/N for every contact."""
    n = len(contacts.gap)
    friction = np.full(n, model.default_friction)
    compliance = np.full((n, 3), model.settings["compliance"])
    if model.pair_friction or _any_stiffness(model):
        ids = model.block_ids
        area = pair_polygon_area(contacts)
        counts = np.diff(contacts.pair_start)
        for k in range(len(counts)):
            s, e = contacts.pair_start[k], contacts.pair_start[k + 1]
            a, b = contacts.body_a[s], contacts.body_b[s]
            joint = model.joint_between(ids[a], ids[b])
            friction[s:e] = joint["friction"]
            tributary = area[k] / counts[k] if area[k] > 0 else None
            if tributary:
                if "normal_stiffness" in joint:
                    compliance[s:e, 0] = 1.0 / (joint["normal_stiffness"] * tributary)
                if "shear_stiffness" in joint:
                    compliance[s:e, 1:] = 1.0 / (joint["shear_stiffness"] * tributary)
    return friction, compliance


def _any_stiffness(model):
    return any("normal_stiffness" in j or "shear_stiffness" in j for j in model.joints.values())
