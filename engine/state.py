"""State: everything that changes during a run, as arrays (seed 000 eq. 4-5).

Angular velocities are kept in the world frame; the world inertia follows the
current rotation (I_w = A I_body A^T).
"""
from dataclasses import dataclass, field

import numpy as np

from engine.geometry.quaternion import quat_to_matrices


@dataclass
class State:
    """Positions, orientations, velocities and the last impulses of a model."""

    time: float
    position: np.ndarray          # (n_blocks, 3) float64, m, centre of mass
    orientation: np.ndarray       # (n_blocks, 4) float64, unit quaternion [w, x, y, z]
    velocity: np.ndarray          # (n_blocks, 3) float64, m/s
    angular_velocity: np.ndarray  # (n_blocks, 3) float64, rad/s, world frame
    warm_keys: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))        # (n_prev,) sorted contact keys
    warm_impulses: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))         # (n_prev, 3) N s
    warm_stretch: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))          # (n_prev, 3) m, world

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
