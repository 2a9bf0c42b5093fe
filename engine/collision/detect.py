"""Contact detection at one configuration: broad phase, then narrow phase (DESIGN sec. 3, step 1).

Given the cache of the previous detection (engine.collision.coherence), the broad phase
skips its sweep and the narrow phase its separating-axis tests where the blocks barely moved.
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.collision.broad_phase import broad_phase
from extrados.engine.collision.coherence import DetectionCache
from extrados.engine.collision.narrow_phase import narrow_phase
from extrados.engine.geometry.packed import pose_polyhedra


@dataclass(frozen=True)
class Contacts:
    """Contact points with gap below the envelope, grouped by block pair.

    The contacts of one pair are contiguous, in pair order (body_a, then body_b), and,
    for a face contact, in polygon order counter-clockwise about the normal: the
    joint polygon of two coplanar faces.
    """

    body_a: np.ndarray      # (n_contacts,) int64, first block of the pair (body_a < body_b)
    body_b: np.ndarray      # (n_contacts,) int64
    point: np.ndarray       # (n_contacts, 3) float64, m, world, midway between the two surfaces
    normal: np.ndarray      # (n_contacts, 3) float64, unit, from body_a to body_b
    gap: np.ndarray         # (n_contacts,) float64, m, signed distance, negative when penetrating
    feature_id: np.ndarray  # (n_contacts,) int64, persistent within a pair (warm starting)
    pair: np.ndarray        # (n_contacts,) int64, index of the contact's pair, 0 .. n_pairs - 1
    pair_start: np.ndarray  # (n_pairs + 1,) int64, offsets of each touching pair's contacts
    n_candidate_pairs: int  # pairs the broad phase passed to the narrow phase

    @property
    def n_contacts(self):
        return len(self.gap)

    @property
    def n_pairs(self):
        return len(self.pair_start) - 1


def detect_contacts(packed, position, orientation, is_support, envelope, cache=None, active=None):
    """All contacts between blocks closer than the envelope.

    Parameters
    ----------
    packed : PackedPolyhedra
        Block shapes in their body frames.
    position : (n_blocks, 3) float64
        World centre of mass of each block (m).
    orientation : (n_blocks, 4) float64
        Unit quaternions [w, x, y, z].
    is_support : (n_blocks,) bool
        Pairs of two supports are not checked.
    envelope : float
        Largest gap (m) that makes a contact (seed 000 sec. 2.2).
    cache : DetectionCache, optional
        What earlier detections kept (State.detection_cache); read, then updated in place.
        Without it every candidate pair runs the full separating-axis test.
    active : (n_blocks,) bool, optional
        Blocks that take part (engine.state.State.active); candidate pairs with an inactive
        block are dropped before the narrow phase. None: every block takes part.

    Returns
    -------
    Contacts
    """
    if cache is None:
        cache = DetectionCache()
    cache.fit(packed, is_support, envelope)
    posed = pose_polyhedra(packed, position, orientation)
    pairs, cache.fat = broad_phase(posed, packed.vertex_start, is_support, envelope, cache.fat)
    if active is not None:
        pairs = pairs[active[pairs[:, 0]] & active[pairs[:, 1]]]
    body_a, body_b, point, normal, gap, feature_id, pair, pair_start, cache.features = narrow_phase(
        packed, posed, pairs, envelope, cache.features)
    return Contacts(body_a=body_a, body_b=body_b, point=point, normal=normal, gap=gap, feature_id=feature_id,
                    pair=pair, pair_start=pair_start, n_candidate_pairs=len(pairs))
