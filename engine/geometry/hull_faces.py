"""The convex hull of a point set as a block: polygon faces, not triangles.

scipy's Qhull returns the hull as triangles (its option Qt). A block's faces are the contact
patches of the engine (seed 000 sec. 2.5: multi-point contact on coplanar faces), so the triangles
of one plane are merged back into the polygon they triangulate.
"""
from typing import NamedTuple

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from extrados.engine.geometry.polyhedron import GeometryError
from extrados.engine.tolerance import TOL


class HullPolygons(NamedTuple):
    """A convex hull as a polyhedral block."""

    vertices: np.ndarray   # (n_vertices, 3) float64, the hull's corners
    faces: list            # n_faces lists of vertex indices, counter-clockwise seen from outside
    planes: np.ndarray     # (n_faces, 4) float64, unit outward normal n and offset d: n.x + d = 0 on the face
    volume: float          # volume of the hull, in the points' units cubed


def convex_hull(points):
    """The convex hull of points as a block of polygon faces.

    Parameters
    ----------
    points : (n, 3) array_like of float
        At least four points not in one plane.

    Returns
    -------
    HullPolygons

    Raises
    ------
    GeometryError
        Fewer than four points, or all of them in one plane (no volume).
    """
    points = np.asarray(points, float)
    try:
        hull = ConvexHull(points)
    except (QhullError, ValueError) as exc:
        raise GeometryError(f"the points span no volume ({len(points)} points, all in one plane or fewer than 4): "
                            f"{str(exc).splitlines()[0]}") from None
    size = float(np.ptp(points, axis=0).max())
    face_of_triangle, planes = coplanar_groups(hull.equations, TOL.coplanar_relative * size)
    corners, faces = [], []
    for face, plane in enumerate(planes):
        corners.append(polygon_corners(points, hull.simplices[face_of_triangle == face], plane[:3]))
    used = np.unique(np.concatenate(corners))
    renumber = np.full(len(points), -1, np.int64)
    renumber[used] = np.arange(len(used))
    faces = [renumber[c].tolist() for c in corners]
    return HullPolygons(points[used], faces, planes, float(hull.volume))


def coplanar_groups(equations, distance):
    """Group the hull's triangles by plane.

    Two triangles lie in one plane when their outward unit normals are parallel
    (TOL.parallel_cosine) and their offsets differ by less than ``distance``.

    Parameters
    ----------
    equations : (n_triangles, 4) float64
        Qhull's facet planes, unit outward normal and offset.
    distance : float
        Largest offset difference of one plane, in the points' units.

    Returns
    -------
    face_of_triangle : (n_triangles,) int64
    planes : (n_faces, 4) float64, the plane of each face's first triangle
    """
    face_of_triangle = np.full(len(equations), -1, np.int64)
    planes = []
    for triangle, plane in enumerate(equations):
        for face, known in enumerate(planes):
            if plane[:3] @ known[:3] > TOL.parallel_cosine and abs(plane[3] - known[3]) < distance:
                face_of_triangle[triangle] = face
                break
        else:
            face_of_triangle[triangle] = len(planes)
            planes.append(plane)
    return face_of_triangle, np.array(planes)


def polygon_corners(points, triangles, normal):
    """The corners of the convex polygon that ``triangles`` tile, counter-clockwise about ``normal``.

    The corners are the triangles' vertices sorted by angle about their mean in the plane; a vertex
    on a side of the polygon stays (the neighbouring face has it too, so the block stays closed).

    Parameters
    ----------
    points : (n, 3) float64
    triangles : (k, 3) int64, indices into points
    normal : (3,) float64, unit outward normal

    Returns
    -------
    (m,) int64, indices into points
    """
    corners = np.unique(triangles)
    offsets = points[corners] - points[corners].mean(axis=0)
    axis_u = offsets[np.argmax(np.linalg.norm(offsets, axis=1))]
    axis_u = axis_u / np.linalg.norm(axis_u)
    axis_v = np.cross(normal, axis_u)
    return corners[np.argsort(np.arctan2(offsets @ axis_v, offsets @ axis_u))]
