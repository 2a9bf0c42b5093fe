"""State: everything that changes during a run, as arrays (seed 000 eq. 4-5).

Angular velocities are kept in the world frame; the world inertia follows the
current rotation (I_w = A I_body A^T). What the last step kept of its contacts for the next
(impulses to warm start from, spring stretches, bond rows) is in ``contact_memory``
(engine.contact.history); what the last contact detection found, kept to speed up the next, is in
``detection_cache``.

A construction history (seed 001 sec. 4.3.1) builds a structure in stages without rebuilding the
model: ``active`` marks the blocks already built. Block indices, hence contact keys and warm
impulses, stay the same from one stage to the next. Unbuilt blocks touch nothing and do not move
(engine.pipeline). ``active = None``, the default, means every block is built and costs nothing.
"""
from dataclasses import dataclass, field

import numpy as np

from extrados.engine.collision.coherence import DetectionCache
from extrados.engine.contact.history import ContactMemory, no_contact_memory
from extrados.engine.geometry.quaternion import quat_to_matrices


@dataclass
class State:
    """Positions, orientations, velocities and the last impulses of a model."""

    time: float
    position: np.ndarray          # (n_blocks, 3) float64, m, centre of mass
    orientation: np.ndarray       # (n_blocks, 4) float64, unit quaternion [w, x, y, z]
    velocity: np.ndarray          # (n_blocks, 3) float64, m/s
    angular_velocity: np.ndarray  # (n_blocks, 3) float64, rad/s, world frame
    contact_memory: ContactMemory = field(default_factory=no_contact_memory)  # engine.contact.history
    bonds_made: bool = False      # the run's (or the stage's) first contacts were bonded (engine.contact.bonds)
    detection_cache: DetectionCache = field(default_factory=DetectionCache)  # engine.collision.coherence
    active: np.ndarray = None     # (n_blocks,) bool, blocks built so far (construction); None: all
    elastic: object = None        # engine.deformable.coupling.ElasticState of the deformable blocks; None: none yet

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
