"""Contact detection at one configuration: broad phase, then narrow phase (DESIGN sec. 3, step 1)."""
from dataclasses import dataclass

import numpy as np

from engine.collision.broad_phase import broad_phase
from engine.collision.narrow_phase import narrow_phase
from engine.geometry.packed import pose_polyhedra


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


def detect_contacts(packed, position, orientation, is_support, envelope):
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

    Returns
    -------
    Contacts
    """
    posed = pose_polyhedra(packed, position, orientation)
    pairs = broad_phase(posed, packed.vertex_start, is_support, envelope)
    contact_pair, point, normal, gap, feature_id = narrow_phase(packed, posed, pairs, envelope)
    first_of_pair = np.flatnonzero(np.diff(contact_pair, prepend=-1))
    pair_start = np.append(first_of_pair, len(contact_pair)).astype(np.int64)
    pair = np.repeat(np.arange(len(first_of_pair), dtype=np.int64), np.diff(pair_start))
    return Contacts(body_a=pairs[contact_pair, 0], body_b=pairs[contact_pair, 1], point=point, normal=normal,
                    gap=gap, feature_id=feature_id, pair=pair, pair_start=pair_start,
                    n_candidate_pairs=len(pairs))
