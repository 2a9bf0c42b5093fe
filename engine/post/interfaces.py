"""Joint (interface) resultants from contact forces (seed 000 sec. 3.1).

For the contacts k of one joint, with forces f_k at points p_k on a plane of normal n:
    F = sum f_k,   N = F . n,   V = |F - N n|,
    c = sum (f_k . n) p_k / N            (centre of pressure, inside the polygon when all f_k . n >= 0)
    M_c = sum (p_k - c) x f_k            (moment about c; the torsion left once F acts at c)
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.tolerance import TOL


@dataclass(frozen=True)
class Interfaces:
    """Resultants per joint, structure of arrays over n_pairs joints."""

    body_first: np.ndarray    # (n_pairs,) int64, the block the force acts on
    body_second: np.ndarray   # (n_pairs,) int64
    normal: np.ndarray        # (n_pairs, 3) float64, unit, pointing into the first block
    force: np.ndarray         # (n_pairs, 3) float64, N, applied by the second block on the first
    moment: np.ndarray        # (n_pairs, 3) float64, N m, about the centre
    centre: np.ndarray        # (n_pairs, 3) float64, m, centre of pressure
    normal_force: np.ndarray  # (n_pairs,) float64, N (compression positive)
    shear_force: np.ndarray   # (n_pairs,) float64, N
    polygon_start: np.ndarray  # (n_pairs + 1,) int64 offsets into the contact points (polygon corners)


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
