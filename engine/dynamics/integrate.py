"""Position update of seed 000 eq. 30: Euler-Cromer for centres, exponential map for rotations.

    x+ = x + h v+,        rho+ = exp({0, h w+ / 2}) (x) rho    (w+ in world frame)
"""
import numpy as np
from numba import njit

from extrados.engine.geometry.quaternion import rotate_world_rotation


@njit(cache=True)
def integrate_positions(position, orientation, velocity, h):
    """New positions (n, 3) and orientations (n, 4) after a step h with end-of-step twists velocity (n, 6)."""
    n = position.shape[0]
    new_position = np.empty_like(position)
    new_orientation = np.empty_like(orientation)
    for i in range(n):
        for k in range(3):
            new_position[i, k] = position[i, k] + h * velocity[i, k]
        w = velocity[i, 3:]
        if w[0] != 0.0 or w[1] != 0.0 or w[2] != 0.0:
            new_orientation[i] = rotate_world_rotation(orientation[i], h * w)
        else:
            new_orientation[i] = orientation[i]
    return new_position, new_orientation


def integrate(state, velocity, h, impact_fraction=None):
    """Advance ``state`` (positions, orientations, velocities, time) by a step h (s) that ends with the
    twists ``velocity`` (n_blocks, 6) [m/s, rad/s]: Euler-Cromer positions, exponential-map rotations (eq. 30).

    A block with an ``impact_fraction`` f < 1 ((n_blocks,), engine.contact.impact_energy) moves with its
    start twist for f h and with ``velocity`` after its impact: x+ = x + h (f v- + (1 - f) v+).
    """
    moving = np.array(velocity, dtype=np.float64)
    if impact_fraction is not None:
        f = impact_fraction[:, None]
        moving = np.where(f < 1.0, f * state.generalized_velocity() + (1.0 - f) * velocity, velocity)
    state.velocity = velocity[:, :3].copy()
    state.angular_velocity = velocity[:, 3:].copy()
    state.position, state.orientation = integrate_positions(state.position, state.orientation,
                                                            np.ascontiguousarray(moving), h)
    state.time += h
