"""The closed pieces of one triangle mesh whose bodies touch.

STL and PLY keep a file's bodies in one mesh, and reading merges equal vertices, so two blocks
laid face to face share the corners (and edges) of their common face: their surfaces are connected.
Each piece is still recovered, from its half-edges: on an edge of two triangles, the two belong to
one piece; on an edge of 2k triangles (k pieces meet there), the triangles are ordered by angle
about the edge, and each piece's interior is the wedge between a triangle whose interior side
faces the increasing angle and the next triangle in that order.
"""
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

#: Angles about an edge (rad) are compared to this quantum: two faces of touching blocks drawn in
#: one plane meet the edge at angles equal to round-off (1e-16 rad), far below it, and any two
#: faces of a body make a dihedral angle far above it.
ANGLE_QUANTUM = 1e-9


def closed_pieces(vertices, triangles):
    """The pieces of a triangle mesh, split at edges where several closed pieces meet.

    Parameters
    ----------
    vertices : (n, 3) float64
    triangles : (m, 3) int64, wound alike (outward)

    Returns
    -------
    list of (k,) int64 arrays of triangle indices, one per piece, in the order of their first triangle
    """
    triangles = np.asarray(triangles, np.int64)
    start = triangles.reshape(-1)
    end = np.roll(triangles, -1, axis=1).reshape(-1)
    opposite = np.roll(triangles, -2, axis=1).reshape(-1)
    face = np.repeat(np.arange(len(triangles)), 3)
    low, high = np.minimum(start, end), np.maximum(start, end)
    order = np.lexsort((high, low))
    keys = low[order] * len(vertices) + high[order]
    bounds = np.flatnonzero(np.diff(keys)) + 1
    pairs = []
    for group in np.split(order, bounds):
        if len(group) == 2:
            pairs.append(face[group])
        elif len(group) > 2:
            pairs.extend(wedge_pairs(vertices, start[group], end[group], opposite[group], face[group]))
    pairs = np.array(pairs, np.int64).reshape(-1, 2)
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(len(triangles),) * 2)
    _, label = connected_components(graph, directed=False)
    _, first = np.unique(label, return_index=True)
    return [np.flatnonzero(label == label[f]) for f in np.sort(first)]


def wedge_pairs(vertices, start, end, opposite, face):
    """The pairs of triangles that bound one piece's interior at an edge shared by more than two.

    Parameters
    ----------
    vertices : (n, 3) float64
    start, end : (g,) int64, each triangle's half-edge along the shared edge
    opposite : (g,) int64, each triangle's third vertex
    face : (g,) int64, the triangles

    Returns
    -------
    list of (2,) int64 pairs of triangles
    """
    origin = vertices[min(start[0], end[0])]
    axis = vertices[max(start[0], end[0])] - origin
    axis /= np.linalg.norm(axis)
    across = vertices[opposite] - origin
    across -= np.outer(across @ axis, axis)            # (g, 3) from the edge into each triangle
    reference = across[np.argmax(np.linalg.norm(across, axis=1))]   # not a sliver's zero vector
    reference = reference / np.linalg.norm(reference)
    angle = np.mod(np.arctan2(np.cross(axis, reference) @ across.T, across @ reference), 2 * np.pi)
    turn = np.round(angle / ANGLE_QUANTUM) % np.round(2 * np.pi / ANGLE_QUANTUM)   # 2 pi - 1e-16 is 0
    outward = np.cross(vertices[end] - vertices[start], vertices[opposite] - vertices[start])
    # the interior lies on a triangle's -outward side; it faces the increasing angle when
    # -outward . (axis x across) > 0: such a triangle opens its piece's wedge
    opens = -np.einsum("ij,ij->i", outward, np.cross(axis, across)) > 0
    order = np.lexsort((opens, turn))
    return [(face[order[k]], face[order[(k + 1) % len(order)]]) for k in range(len(order)) if opens[order[k]]]
