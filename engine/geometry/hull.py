"""A convex block given by points: their convex hull as polygon faces.

A block of the model document may give ``points`` (a stone's measured or drawn corners) instead of
``vertices`` and ``faces``; the block is their convex hull. Qhull (scipy.spatial.ConvexHull)
triangulates the hull; the triangles that lie in one plane are merged here into the polygon face
they cover (a cube's hull is 12 triangles, merged into its 6 squares), so that contacts between
faces see one polygon per face. Points inside the hull or inside its faces are not corners of the
block and are left out, without a word: the hull is the block.
"""
import numpy as np
from scipy.spatial import ConvexHull, QhullError

from extrados.engine.geometry.polyhedron import GeometryError
from extrados.engine.tolerance import TOL


def spread_off_subspace(points, rank):
    """(m,) float: the largest distance (m) of the points from their best-fit subspace of dimension ``rank``
    (0 a point, 1 a line, 2 a plane), through their mean along their first principal axes."""
    centred = points - points.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    off = centred - (centred @ axes[:rank].T) @ axes[:rank]
    return float(np.linalg.norm(off, axis=1).max())


def check_spans_a_volume(points):
    """Raise GeometryError when the points lie on one point, line or plane (to within
    TOL.convexity_relative times their size, the tolerance by which a face is planar)."""
    size = np.ptp(points, axis=0).max()
    if not size >= TOL.length:
        raise GeometryError(f"the points coincide (they span less than {TOL.length:g} m)")
    tol = TOL.convexity_relative * size
    for rank, shape in ((1, "on one line"), (2, "in one plane")):
        if spread_off_subspace(points, rank) <= tol:
            raise GeometryError(f"the points lie {shape} (within {tol:.3g} m): they span no volume")


def coplanar_groups(hull, points, tol):
    """(n_triangles,) int64: the face each hull triangle belongs to.

    Grown from a seed triangle across shared edges (``hull.neighbors``): a neighbour joins the face
    when its three corners lie within ``tol`` (m) of the seed's plane (``hull.equations``, outward
    unit normal and offset), so that a gently curved surface is never merged into one face.
    """
    face = np.full(len(hull.simplices), -1, np.int64)
    for seed in range(len(hull.simplices)):
        if face[seed] >= 0:
            continue
        face[seed] = seed
        normal, offset = hull.equations[seed, :3], hull.equations[seed, 3]
        pending = [seed]
        while pending:
            for other in hull.neighbors[pending.pop()]:
                if face[other] < 0 and np.abs(points[hull.simplices[other]] @ normal + offset).max() <= tol:
                    face[other] = seed
                    pending.append(other)
    return face


def outward_triangles(hull, points):
    """(n_triangles, 3) int64: the hull's triangles, each ordered counter-clockwise seen from outside."""
    triangles = hull.simplices.copy()
    a, b, c = (points[triangles[:, k]] for k in range(3))
    flip = np.einsum("ij,ij->i", np.cross(b - a, c - a), hull.equations[:, :3]) < 0.0
    triangles[flip] = triangles[flip][:, ::-1]
    return triangles


def boundary_loop(triangles):
    """The corners of the polygon that outward ``triangles`` (a disk) cover, counter-clockwise from
    outside: the directed edges used by one triangle only, chained end to start."""
    edges = {(int(t[k]), int(t[(k + 1) % 3])) for t in triangles for k in range(3)}
    following = {start: end for start, end in edges if (end, start) not in edges}
    loop = [next(iter(following))]
    while following[loop[-1]] != loop[0]:
        loop.append(following[loop[-1]])
    return loop


def hull_block(points):
    """Vertices and polygon faces of the convex hull of a block's points.

    Parameters
    ----------
    points : (n, 3) array_like of float, m, n >= 4 (the model schema's limits)

    Returns
    -------
    vertices : (m, 3) float64, m, the points that are corners of the faces, in the order given
    faces : list of list of int, one polygon per plane of the hull, counter-clockwise seen from outside

    Raises
    ------
    GeometryError
        Points that coincide or lie on one line or in one plane (no volume), or whose hull qhull
        cannot build in floating point.

    Notes
    -----
    Triangles merge into one face when their corners lie within TOL.hull_coplanar_relative times the
    points' size of one plane (`coplanar_groups`).
    """
    points = np.asarray(points, float)
    check_spans_a_volume(points)
    try:
        hull = ConvexHull(points)
    except QhullError as exc:   # points too far from the origin for their size (a 1 m stone at 1e14 m)
        raise GeometryError(f"qhull cannot build the hull of the points: {str(exc).splitlines()[0]}") from None
    tol = TOL.hull_coplanar_relative * np.ptp(points, axis=0).max()
    group = coplanar_groups(hull, points, tol)
    triangles = outward_triangles(hull, points)
    loops = [boundary_loop(triangles[group == seed]) for seed in np.unique(group)]
    # a hull vertex inside a merged face is no corner of the block
    corners = np.unique(np.concatenate(loops))
    new_index = np.full(len(points), -1, np.int64)
    new_index[corners] = np.arange(len(corners))
    return points[corners], [new_index[loop].tolist() for loop in loops]
