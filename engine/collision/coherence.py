"""Temporal coherence: what one contact detection keeps for the next.

Masonry blocks barely move between time steps, so most of what one detection finds still
holds at the next (Box2D's fat boxes and persistent manifolds; Gregorius, "The Separating
Axis Test between convex polyhedra", GDC 2013):

1. Broad phase: the sweep runs on boxes inflated beyond the envelope by a margin
   (TOL.broad_phase_margin_relative). While every block's envelope box stays inside its fat
   box, the pairs whose envelope boxes overlap are among the fat pairs, and filtering the fat
   pairs by the current boxes gives exactly the pairs a new sweep would.
2. Narrow phase: each touching pair keeps the feature its separating-axis test (SAT) chose,
   the reference face on A or on B or the pair of edges, and the pair's relative pose when
   the test ran. While the relative pose has moved less than TOL.sat_reuse_angle and
   TOL.sat_reuse_translation_relative, the test is skipped and only the contacts of the kept
   feature are computed, at the current pose, by the same kernel the test would call: the
   contacts equal those of a full detection whenever the test would choose the same feature.

   Why it rarely chooses another: in A's frame, the relative motion (translation dt of B's
   origin, rotation theta) moves every point of B by at most |dt| + theta r_B, so each
   separation the test compares changes by at most |dt| + theta (r_A + r_B + |t|), t the
   offset between the origins. Another feature wins only when it was within twice that of
   winning: a near tie, such as two coplanar faces, either of which is a fair reference.

Pairs that the test found separated are not kept; they run the full test at every step.
"""
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import njit

from extrados.engine.geometry.quaternion import quat_conjugate_product, quat_rotate_inverse

#: Relative pose of a pair: quaternion conj(q_A) (x) q_B [w, x, y, z], then A(q_A)^T (x_B - x_A).
POSE_SIZE = 7


class FatBoxes(NamedTuple):
    """The boxes and pairs of the last broad-phase sweep."""

    box_min: np.ndarray  # (n_blocks, 3) float64, m, world AABB inflated by the envelope and the margin
    box_max: np.ndarray  # (n_blocks, 3) float64, m
    pairs: np.ndarray    # (n_fat_pairs, 2) int64, pairs of overlapping fat boxes, sorted


class PairFeatures(NamedTuple):
    """The SAT's choice for each pair it found within the envelope, and the relative pose it was made at."""

    key: np.ndarray      # (n_kept,) int64, a * n_blocks + b of the pair (a < b), increasing
    feature: np.ndarray  # (n_kept, 3) int64, kind, first, second (engine.collision.feature_id)
    pose: np.ndarray     # (n_kept, POSE_SIZE) float64, relative pose when the SAT ran


def no_pair_features():
    """PairFeatures of no pair."""
    return PairFeatures(np.zeros(0, np.int64), np.zeros((0, 3), np.int64), np.zeros((0, POSE_SIZE)))


@dataclass
class DetectionCache:
    """What the last detection keeps for the next; empty until a detection fills it.

    A State holds one; detect_contacts reads and replaces its fat boxes and pair features.
    It is made for one set of blocks, support flags and envelope: a detection with others
    empties it first (``fit``), so a cache never carries one model's features to another.
    """

    polyhedra: object = None          # PackedPolyhedra the cache was made for; None when empty
    is_support: np.ndarray = None     # (n_blocks,) bool, support flags it was made with
    envelope: float = np.nan          # m, envelope it was made with
    fat: FatBoxes = None              # broad phase; None until the first sweep
    features: PairFeatures = field(default_factory=no_pair_features)  # narrow phase

    def fit(self, polyhedra, is_support, envelope):
        """Empty the cache unless it was made for these blocks, support flags and envelope."""
        if (self.polyhedra is polyhedra and self.envelope == envelope
                and np.array_equal(self.is_support, is_support)):
            return
        self.polyhedra = polyhedra
        self.is_support = np.array(is_support, dtype=np.bool_)
        self.envelope = envelope
        self.fat = None
        self.features = no_pair_features()


@njit(cache=True, inline="always")
def relative_pose(position, orientation, a, b):
    """Pose of block b in the body frame of block a, as a POSE_SIZE-tuple.

    Parameters
    ----------
    position : (n_blocks, 3) float64
        World body origins (m).
    orientation : (n_blocks, 4) float64
        Unit quaternions [w, x, y, z].
    a, b : int

    Returns
    -------
    7-tuple of float
        conj(q_a) (x) q_b, then A(q_a)^T (x_b - x_a) (m).
    """
    # tuples, not rows: a row of an array is a view, whose reference count costs more than the arithmetic
    q_a = (orientation[a, 0], orientation[a, 1], orientation[a, 2], orientation[a, 3])
    q = quat_conjugate_product(q_a, (orientation[b, 0], orientation[b, 1], orientation[b, 2], orientation[b, 3]))
    t = quat_rotate_inverse(q_a, (position[b, 0] - position[a, 0], position[b, 1] - position[a, 1],
                                  position[b, 2] - position[a, 2]))
    return (q[0], q[1], q[2], q[3], t[0], t[1], t[2])


@njit(cache=True, inline="always")
def pose_is_near(kept, row, pose, half_angle_sine_squared, translation_squared):
    """Has the relative pose moved less than the reuse thresholds since ``kept[row]``?

    The rotation between the two poses is d = conj(q_kept) (x) q, whose vector part has
    length sin(theta / 2) for a rotation by theta (and the same for -q, the same rotation).

    Parameters
    ----------
    kept : (n_kept, POSE_SIZE) float64
    row : int
    pose : POSE_SIZE-tuple of float, the current relative pose
    half_angle_sine_squared : float
        sin^2(theta_max / 2).
    translation_squared : float
        Square of the largest translation (m^2).
    """
    d = quat_conjugate_product((kept[row, 0], kept[row, 1], kept[row, 2], kept[row, 3]),
                               (pose[0], pose[1], pose[2], pose[3]))
    if d[1] * d[1] + d[2] * d[2] + d[3] * d[3] > half_angle_sine_squared:
        return False
    dx = pose[4] - kept[row, 4]
    dy = pose[5] - kept[row, 5]
    dz = pose[6] - kept[row, 6]
    return dx * dx + dy * dy + dz * dz <= translation_squared
