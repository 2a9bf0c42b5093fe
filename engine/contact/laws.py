"""Per-contact parameters of the joint laws: friction and compliance (seed 000 eq. 13, 43).

A Coulomb joint with stiffness k (Pa/m) over a joint polygon of area A spread over
m contact points gives each point the stiffness K = k A / m (N/m); its compliance
1/K enters E_i = (h^2 K_i)^-1. Joints without stiffness use the model's tiny
`settings.compliance`, which only selects a unique force solution.
"""
import numpy as np


def pair_polygon_area(contacts):
    """(n_pairs,) area (m^2) of each pair's contact polygon (points in polygon order)."""
    starts = contacts.pair_start
    area = np.zeros(len(starts) - 1)
    for k in range(len(area)):
        pts = contacts.point[starts[k]:starts[k + 1]]
        if len(pts) >= 3:
            area[k] = 0.5 * np.linalg.norm(np.cross(pts, np.roll(pts, -1, axis=0)).sum(axis=0))
    return area


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
