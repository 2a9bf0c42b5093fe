"""Feature ids: which features of a pair of blocks made a contact, stable under small motions.

Layout, high to low bits: edge point (1) | kind (2) | first index (16) | second index (16) | corner (24).
Face contacts: kind 0/1 = reference face on A/B, first = reference face, second = incident face
(local indices), corner = (line in) << 12 | (line out), the two polygon lines meeting at the
corner: incident edge k is line k, side j of the reference face is line ``SIDE_LINE`` + j.
Edge contacts: kind 2, first/second = local edges of A/B, corner 0.
A point that cuts a joint polygon's edge (engine.deformable.joint_points) has the edge point bit set, the
kind and faces of its pair, and corner = station << 12 | (line out of the corner the edge starts at); a point
of the grid inside the joint has the interior bit set too, and corner = (i + GRID_OFFSET) << 12 | (j + GRID_OFFSET)
for grid point (i, j) about the polygon's first corner.

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
#: The bit of a point cut into a joint polygon's edge or its grid inside; above kind, below the sign. The
#: interior bit marks a point of the grid inside.
EDGE_POINT_BIT = 62
INTERIOR_BIT = 61
#: Grid indices (i, j) are stored as i + GRID_OFFSET and j + GRID_OFFSET, each in LINE_BITS.
GRID_OFFSET = 1 << (LINE_BITS - 1)
#: Kind and corner masks (kind is the two bits above the three indices' fields).
KIND_MASK = 3
CORNER_MASK = (1 << (2 * LINE_BITS)) - 1
LINE_MASK = (1 << LINE_BITS) - 1
#: Most stations along one edge that an edge point's id can number.
MAX_EDGE_STATIONS = 1 << LINE_BITS


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
    return ((feature_id >> (corner_bits + 2 * INDEX_BITS)) & KIND_MASK,
            (feature_id >> (corner_bits + INDEX_BITS)) & index_mask, (feature_id >> corner_bits) & index_mask)


def edge_point_ids(corner_id, station):
    """Feature ids (n,) int64 of the points at ``station`` (n,) int64, 1 .. MAX_EDGE_STATIONS - 1, along the
    edges that start at the polygon corners ``corner_id`` (n,) int64 (module docstring)."""
    corner_id = np.asarray(corner_id, np.int64)
    line_out = corner_id & LINE_MASK
    return (corner_id & ~np.int64(CORNER_MASK)) | (np.asarray(station, np.int64) << LINE_BITS) | line_out \
        | (np.int64(1) << EDGE_POINT_BIT)


def interior_point_ids(corner_id, i, j):
    """Feature ids (n,) int64 of the grid points (i, j) (n,) int64, |i|, |j| < GRID_OFFSET, inside the joint whose
    first corner has the id ``corner_id`` (int64) (module docstring)."""
    i, j = np.asarray(i, np.int64), np.asarray(j, np.int64)
    return (np.int64(corner_id) & ~np.int64(CORNER_MASK)) | ((i + GRID_OFFSET) << LINE_BITS) | (j + GRID_OFFSET) \
        | (np.int64(1) << EDGE_POINT_BIT) | (np.int64(1) << INTERIOR_BIT)


def is_edge_point(feature_id):
    """(n,) bool: the ids of points cut into a joint polygon (``edge_point_ids``, ``interior_point_ids``)."""
    return (np.asarray(feature_id, np.int64) >> EDGE_POINT_BIT) & 1 == 1


def is_interior_point(feature_id):
    """(n,) bool: the ids of points of the grid inside a joint polygon (``interior_point_ids``)."""
    return (np.asarray(feature_id, np.int64) >> INTERIOR_BIT) & 1 == 1
