"""Convex blocks from points: the blocky simplification of seed 002 sec. 4.1.

"Even though almost all the blocks in masonry keep an hexahedral shape, some are eroded or have a
bevelled edge; after survey, blocks can be reshaped." A stone measured all round becomes the convex
hull of its points (scipy.spatial.ConvexHull); how far the stone departs from it is the largest
distance of a measured point inside the hull (the depth of an erosion hollow or a re-entrant corner).
`clipped` cuts a convex block by a half-space, the trimming of `overlaps`.

Qhull returns triangles; the triangles of one plane (to TOL.geometric_relative times the block's
size) are merged into one polygon face, as the model document writes a face.
"""
from typing import NamedTuple

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from extrados.engine.geometry.polyhedron import cross3
from extrados.engine.survey.stones import SurveyError
from extrados.engine.tolerance import TOL


class HullBlock(NamedTuple):
    """A convex block and how far the points it was made of lie inside it."""

    vertices: np.ndarray       # (n, 3) float64, m
    faces: list                # list of list of int, counter-clockwise seen from outside
    volume_m3: float
    deviation_m: float         # largest distance of a point inside the hull's boundary


def polygon_faces(hull, size):
    """The faces of a 3D hull as polygons: triangles of one plane merged, corners counter-clockwise
    about the outward normal, indices into ``hull.points``.

    Parameters
    ----------
    hull : scipy.spatial.ConvexHull
    size : float, m
        The block's size: a triangle whose corners lie within TOL.geometric_relative times it of
        another triangle's plane (facing the same way) belongs to that triangle's face.
    """
    normal, offset = hull.equations[:, :3], hull.equations[:, 3]            # n . x + d <= 0 inside
    corners = hull.points[hull.simplices]                                   # (n_triangles, 3, 3)
    off_plane = np.abs(np.einsum("tcx,px->tpc", corners, normal) + offset[None, :, None]).max(axis=2)
    same = (off_plane <= TOL.geometric_relative * size) & (normal @ normal.T > 0.0)   # (n_triangles, n_triangles)
    plane_of = same.argmax(axis=1)                                          # first triangle of each one's plane
    return [counter_clockwise(hull.points, np.unique(hull.simplices[plane_of == plane]), normal[plane])
            for plane in np.unique(plane_of)]


def counter_clockwise(points, corners, normal):
    """``corners`` (indices into points) sorted counter-clockwise about ``normal`` (a convex polygon)."""
    offset = points[corners] - points[corners].mean(axis=0)
    u = offset[0]
    v = cross3(normal[None, :], u[None, :])[0]
    return corners[np.argsort(np.arctan2(offset @ v, offset @ u))].tolist()


def compact(points, faces):
    """(vertices, faces) keeping only the points the faces use, renumbered."""
    used = np.unique(np.concatenate(faces))
    index = np.full(len(points), -1)
    index[used] = np.arange(len(used))
    return points[used], [index[face].tolist() for face in faces]


def convex_block(points, stone):
    """The convex hull of a stone's points as a block.

    Parameters
    ----------
    points : (n, 3) float64, m
    stone : str

    Returns
    -------
    HullBlock

    Raises
    ------
    SurveyError
        Points that span no volume.
    """
    try:
        hull = ConvexHull(points)
    except QhullError:
        raise SurveyError(f"its {len(points)} points span no volume: survey it all round or give it a depth",
                          stone=stone) from None
    size = float(np.ptp(points, axis=0).max())
    vertices, faces = compact(hull.points, polygon_faces(hull, size))
    inside = -(points @ hull.equations[:, :3].T + hull.equations[:, 3]).max(axis=1)   # (n,) m to the boundary
    return HullBlock(vertices, faces, float(hull.volume), float(inside.max()))


def block_edges(faces):
    """(n_edges, 2) int64, the undirected edges of a closed polyhedron's faces, each once."""
    pairs = np.array([(a, b) for face in faces for a, b in zip(face, face[1:] + face[:1])])
    return np.unique(np.sort(pairs, axis=1), axis=0)


def clipped(vertices, faces, normal, offset):
    """A convex block cut to the half-space normal . x <= offset.

    The kept vertices and the points where edges cross the plane span the cut block.

    Parameters
    ----------
    vertices : (n, 3) float64, m
    faces : list of list of int
    normal : (3,) float64, unit
    offset : float, m

    Returns
    -------
    (vertices, faces) of the cut block, or None when nothing of it is left
    """
    height = vertices @ normal - offset                         # (n,) m above the plane
    edges = block_edges(faces)
    a, b = height[edges[:, 0]], height[edges[:, 1]]
    crossing = (a < 0.0) != (b < 0.0)
    t = a[crossing] / (a[crossing] - b[crossing])                # where each crossing edge meets the plane
    start, end = vertices[edges[crossing, 0]], vertices[edges[crossing, 1]]
    points = np.vstack([vertices[height <= 0.0], start + t[:, None] * (end - start)])
    try:
        hull = ConvexHull(points)
    except (QhullError, ValueError):
        return None
    return compact(hull.points, polygon_faces(hull, float(np.ptp(vertices, axis=0).max())))
