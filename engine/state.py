"""State: everything that changes during a run, as arrays (seed 000 eq. 4-5).

Angular velocities are kept in the world frame; the world inertia follows the
current rotation (I_w = A I_body A^T). The impulses of the last step, kept to warm start the
next one, are found by contact key through an open-addressing hash index (``key_index``); what
the last contact detection found, kept to speed up the next, is in ``detection_cache``.

A construction history (seed 001 sec. 4.3.1) builds a structure in stages without rebuilding the
model: ``active`` marks the blocks already built. Block indices, hence contact keys and warm
impulses, stay the same from one stage to the next. Unbuilt blocks touch nothing and do not move
(engine.pipeline). ``active = None``, the default, means every block is built and costs nothing.
"""
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from extrados.engine.collision.coherence import DetectionCache
from extrados.engine.contact.bonds import BOND_COLUMNS
from extrados.engine.geometry.quaternion import quat_to_matrices


@njit(cache=True)
def key_index(keys):
    """Open-addressing hash index of ``keys``: slot -> row of the first occurrence of each key.

    A key goes to the first free slot from ``key mod size`` on (linear probing). The keys are
    splitmix64 hashes (engine.pipeline.contact_keys), so their low bits are already uniform.

    Parameters
    ----------
    keys : (n,) int64

    Returns
    -------
    (size,) int64
        Rows of ``keys``, -1 in an empty slot; size is the smallest power of two >= 2 n (at least
        1), so at least half the slots stay empty and every probe ends.
    """
    size = 1
    while size < 2 * keys.shape[0]:
        size *= 2
    mask = size - 1
    index = np.full(size, -1, np.int64)
    for row in range(keys.shape[0]):
        slot = keys[row] & mask
        while index[slot] >= 0 and keys[index[slot]] != keys[row]:
            slot = (slot + 1) & mask
        if index[slot] < 0:
            index[slot] = row
    return index


@njit(cache=True)
def find_key(index, keys, key):
    """Row of the first occurrence of ``key`` in ``keys`` (n,) int64, through ``key_index(keys)``; -1 when absent."""
    mask = index.shape[0] - 1
    slot = key & mask
    while index[slot] >= 0:
        row = index[slot]
        if keys[row] == key:
            return row
        slot = (slot + 1) & mask
    return -1


@dataclass
class State:
    """Positions, orientations, velocities and the last impulses of a model."""

    time: float
    position: np.ndarray          # (n_blocks, 3) float64, m, centre of mass
    orientation: np.ndarray       # (n_blocks, 4) float64, unit quaternion [w, x, y, z]
    velocity: np.ndarray          # (n_blocks, 3) float64, m/s
    angular_velocity: np.ndarray  # (n_blocks, 3) float64, rad/s, world frame
    warm_keys: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))        # (n_prev,) contact keys
    warm_index: np.ndarray = field(default_factory=lambda: key_index(np.zeros(0, np.int64)))  # key_index(warm_keys)
    warm_impulses: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))         # (n_prev, 3) N s
    warm_stretch: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))          # (n_prev, 3) m, world
    warm_pair: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))        # (n_prev,) block pair keys
    warm_pair_index: np.ndarray = field(default_factory=lambda: key_index(np.zeros(0, np.int64)))  # key_index(warm_pair)
    warm_point: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))            # (n_prev, 3) m, world points
    warm_bond: np.ndarray = field(default_factory=lambda: np.zeros((0, BOND_COLUMNS)))  # (n_prev, 9) bond rows
    bonds_made: bool = False      # the run's (or the stage's) first contacts were bonded (engine.contact.bonds)
    detection_cache: DetectionCache = field(default_factory=DetectionCache)  # engine.collision.coherence
    active: np.ndarray = None     # (n_blocks,) bool, blocks built so far (construction); None: all

    @classmethod
    def initial(cls, mechanics):
        """The model at rest in its drawn position."""
        n = mechanics.n_blocks
        orientation = np.zeros((n, 4))
        orientation[:, 0] = 1.0
        return cls(0.0, mechanics.position0.copy(), orientation, np.zeros((n, 3)), np.zeros((n, 3)))

    def rotation_matrices(self):
        """(n_blocks, 3, 3) rotation matrices A(rho) of the current orientations."""
        return quat_to_matrices(self.orientation)

    def generalized_velocity(self):
        """(n_blocks, 6) [linear, angular] velocities (seed 000 eq. 5, world frame)."""
        return np.hstack([self.velocity, self.angular_velocity])
