"""Convex blocks from points: the blocky simplification of seed 002 sec. 4.1.

"Even though almost all the blocks in masonry keep an hexahedral shape, some are eroded or have a
bevelled edge; after survey, blocks can be reshaped." A stone measured all round becomes the convex
hull of its points (scipy.spatial.ConvexHull); how far the stone departs from it is the largest
distance of a measured point inside the hull (the depth of an erosion hollow or a re-entrant corner).
`clipped` cuts a convex block by a half-space, the trimming of `overlaps`.

The block's polygon faces are those of a block given by points (engine.geometry.hull.hull_block).
"""
from typing import NamedTuple

import numpy as np
from scipy.spatial import ConvexHull

from extrados.engine.geometry.hull import hull_block
from extrados.engine.geometry.polyhedron import GeometryError
from extrados.engine.survey.stones import SurveyError


class HullBlock(NamedTuple):
    """A convex block and how far the points it was made of lie inside it."""

    vertices: np.ndarray       # (n, 3) float64, m
    faces: list                # list of list of int, counter-clockwise seen from outside
    volume_m3: float
    deviation_m: float         # largest distance of a point inside the hull's boundary


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
        vertices, faces = hull_block(points)
    except GeometryError as exc:
        raise SurveyError(f"surveyed all round, yet {exc}; give it a depth to extrude its face", stone=stone) from None
    hull = ConvexHull(points)
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
    (vertices, faces) of the cut block

    Raises
    ------
    GeometryError
        Nothing of the block lies below the plane, or what does spans no volume (a sliver within
        the tolerance of `engine.geometry.hull.hull_block`), saying how thick it is.
    """
    height = vertices @ normal - offset                         # (n,) m above the plane
    if height.min() >= 0.0:
        raise GeometryError("nothing of it is left")
    edges = block_edges(faces)
    a, b = height[edges[:, 0]], height[edges[:, 1]]
    crossing = (a < 0.0) != (b < 0.0)
    t = a[crossing] / (a[crossing] - b[crossing])                # where each crossing edge meets the plane
    start, end = vertices[edges[crossing, 0]], vertices[edges[crossing, 1]]
    points = np.vstack([vertices[height <= 0.0], start + t[:, None] * (end - start)])
    try:
        return hull_block(points)
    except GeometryError as exc:
        raise GeometryError(f"only a sliver {-height.min():.3g} m thick is left ({exc})") from None
