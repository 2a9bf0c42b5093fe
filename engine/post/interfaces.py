"""Joint (interface) resultants from contact forces (seed 000 sec. 3.1).

For the contacts k of one joint, with forces f_k at points p_k on a plane of normal n:
    F = sum f_k,   N = F . n,   V = |F - N n|,
    c = sum (f_k . n) p_k / N            (centre of pressure, inside the polygon when all f_k . n >= 0)
    M_c = sum (p_k - c) x f_k            (moment about c; the torsion left once F acts at c)
"""
import numpy as np

from extrados.engine.result import Interfaces
from extrados.engine.tolerance import TOL


def interface_resultants(contacts, frame, contact_force):
    """Resultant of each joint.

    Parameters
    ----------
    contacts : Contacts (points of a pair contiguous, in polygon order)
    frame : (n_c, 3, 3) float64, rows n, u, v
    contact_force : (n_c, 3) float64, N, world-frame force on body_b from body_a

    Returns
    -------
    Interfaces
    """
    starts = contacts.pair_start
    n_pairs = len(starts) - 1
    if n_pairs == 0:
        empty3 = np.zeros((0, 3))
        return Interfaces(np.zeros(0, np.int64), np.zeros(0, np.int64), empty3, empty3, empty3, empty3,
                          np.zeros(0), np.zeros(0), starts)
    first = starts[:-1]
    normal = frame[first, 0]
    counts = np.diff(starts)
    pair = np.repeat(np.arange(n_pairs), counts)
    force = np.add.reduceat(contact_force, first, axis=0)
    point_normal_force = np.einsum("ij,ij->i", contact_force, normal[pair])
    normal_force = np.add.reduceat(point_normal_force, first)
    shear = force - normal_force[:, None] * normal
    weighted = np.add.reduceat(point_normal_force[:, None] * contacts.point, first, axis=0)
    centroid = np.add.reduceat(contacts.point, first, axis=0) / counts[:, None]
    scale = np.add.reduceat(np.abs(point_normal_force), first)
    loaded = normal_force > TOL.open_contact_relative * np.maximum(scale, np.finfo(float).tiny)
    centre = np.where(loaded[:, None], weighted / np.where(loaded, normal_force, 1.0)[:, None], centroid)
    arm = contacts.point - centre[pair]
    moment = np.add.reduceat(np.cross(arm, contact_force), first, axis=0)
    return Interfaces(contacts.body_b[first], contacts.body_a[first], normal, force, moment, centre,
                      normal_force, np.linalg.norm(shear, axis=1), starts)
