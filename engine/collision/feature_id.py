"""Feature ids: which features of a pair of blocks made a contact, stable under small motions.

Layout, high to low bits: kind (2) | first index (16) | second index (16) | corner (24).
Face contacts: kind 0/1 = reference face on A/B, first = reference face, second = incident face
(local indices), corner = (line in) << 12 | (line out), the two polygon lines meeting at the
corner: incident edge k is line k, side j of the reference face is line ``SIDE_LINE`` + j.
Edge contacts: kind 2, first/second = local edges of A/B, corner 0.

The separating-axis test's choice for a pair (``PairFeatures.feature``, a feature
(kind, first, second)) uses global indices: reference face, -1 for a face contact; edge of A,
edge of B for an edge contact; kind ``SEPARATED`` when the pair is apart.
"""
import numpy as np
from numba import njit

KIND_REFERENCE_ON_A = 0
KIND_REFERENCE_ON_B = 1
KIND_EDGE_EDGE = 2
SEPARATED = -1
INDEX_BITS = 16
LINE_BITS = 12
SIDE_LINE = 1 << (LINE_BITS - 1)


@njit(cache=True)
def encode_feature(kind, first, second, corner):
    """Feature id kind | first | second | corner (see the module docstring)."""
    return ((np.int64(kind) << INDEX_BITS | first) << INDEX_BITS | second) << (2 * LINE_BITS) | corner


def decode_features(feature_id):
    """Kind, first index and second index of feature ids (the inverse of encode_feature, corner dropped).

    Parameters
    ----------
    feature_id : (n,) int64

    Returns
    -------
    kind, first, second : (n,) int64
        As in the module docstring (local indices).
    """
    feature_id = np.asarray(feature_id, dtype=np.int64)
    index_mask = (1 << INDEX_BITS) - 1
    corner_bits = 2 * LINE_BITS
    return (feature_id >> (corner_bits + 2 * INDEX_BITS), (feature_id >> (corner_bits + INDEX_BITS)) & index_mask,
            (feature_id >> corner_bits) & index_mask)
