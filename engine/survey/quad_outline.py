"""A face outline reshaped to a quadrilateral, so that its extrusion is a hexahedron (seed 002 sec. 4.1).

"Even though almost all the blocks in masonry keep an hexahedral shape, there are some of them that
are eroded or have a beveled edge. After survey, blocks can be reshaped to obtain hexahedral ones.
This phase has been called blocky simplification." The convex outline of a face's noisy points
(`face_plane.outline`) has as many corners as the hull of the noise has, with edges down to
micrometres; extruded, such a block has tiny faces that slow the contact solver. Here the outline
becomes a quadrilateral:

- four measured corners (seed 002 sec. 4.3, "visible blocks vertex measurement"): the quad through
  them, in their plane;
- otherwise the minimum-area rectangle enclosing the convex outline: one of its sides lies along an
  edge of the hull (Freeman and Shapira 1975), so the rectangle of least area u_e v_e over the hull's
  edge directions e, u_e and v_e the hull's extents along e and across it, is the one.

The deviation reported is the Hausdorff distance between the hull outline and the quad (the largest
distance of a point of either from the other, m), with the area change A_quad - A_hull (m^2).
"""
from typing import NamedTuple

import numpy as np

from extrados.engine.survey.face_plane import FaceOutline, in_plane, outline

#: Measured corners that make a quad through themselves.
QUAD_CORNERS = 4


class QuadFit(NamedTuple):
    """How far a face's quad lies from its convex outline."""

    deviation_m: float         # Hausdorff distance between the hull outline and the quad, m
    area_change_m2: float      # A_quad - A_hull, m^2


def minimum_area_rectangle(ring):
    """(4, 2) corners, counter-clockwise, of the least-area rectangle enclosing a convex polygon (k, 2)."""
    edges = np.roll(ring, -1, axis=0) - ring
    along = edges / np.linalg.norm(edges, axis=1)[:, None]                  # (k, 2) unit edge directions e
    across = np.column_stack([-along[:, 1], along[:, 0]])                    # (k, 2) e rotated by +90 degrees
    u = ring @ along.T                                                       # (k corners, k directions)
    v = ring @ across.T
    best = int(np.argmin(np.ptp(u, axis=0) * np.ptp(v, axis=0)))
    (u0, v0), (u1, v1) = (u[:, best].min(), v[:, best].min()), (u[:, best].max(), v[:, best].max())
    local = np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]])
    return local @ np.array([along[best], across[best]])


def polygon_area(ring):
    """Area (m^2) of a simple polygon (k, 2), positive counter-clockwise (the shoelace formula)."""
    x, y = ring.T
    return 0.5 * float(x @ np.roll(y, -1) - y @ np.roll(x, -1))


def distance_outside(points, ring):
    """(n,) distance (m) of each point from a convex counter-clockwise polygon (k, 2); 0 inside it."""
    start, end = ring, np.roll(ring, -1, axis=0)
    edge = end - start                                                       # (k, 2)
    relative = points[:, None, :] - start[None, :, :]                        # (n, k, 2)
    outward = relative[..., 0] * edge[:, 1] - relative[..., 1] * edge[:, 0]  # > 0: right of the edge, outside
    inside = (outward <= 0.0).all(axis=1)
    along = np.clip(np.einsum("nki,ki->nk", relative, edge) / np.einsum("ki,ki->k", edge, edge), 0.0, 1.0)
    nearest = relative - along[..., None] * edge[None]
    distance = np.linalg.norm(nearest, axis=2).min(axis=1)
    return np.where(inside, 0.0, distance)


def hausdorff(ring_a, ring_b):
    """Hausdorff distance (m) between two convex polygons (counter-clockwise): the largest distance of a
    point of either from the other, reached at a corner."""
    return float(max(distance_outside(ring_a, ring_b).max(), distance_outside(ring_b, ring_a).max()))


def quad_outline(plane, points, corners, stone):
    """The quadrilateral outline of a face, and its deviation from the convex outline.

    Parameters
    ----------
    plane, points, corners, stone
        As `face_plane.outline`: the face's plane, its (n, 3) measured points and (k, 3) measured
        outline (or (0, 3)), m, and the stone's id.

    Returns
    -------
    FaceOutline
        The quad: its 4 corners on the plane, counter-clockwise about the normal, its area, and the
        convex outline's ``deviation_m`` (measured corners inside the hull of the corners).
    QuadFit

    Raises
    ------
    SurveyError
        As `face_plane.outline`.
    """
    hull = outline(plane, points, corners, stone)
    hull_ring = in_plane(plane, hull.corners)
    if len(corners) == QUAD_CORNERS and len(hull.corners) == QUAD_CORNERS:
        quad_ring = hull_ring
    else:
        quad_ring = minimum_area_rectangle(hull_ring)
    area = polygon_area(quad_ring)
    fit = QuadFit(hausdorff(hull_ring, quad_ring), area - hull.area_m2)
    return FaceOutline(plane.centroid + quad_ring @ plane.axes, area, hull.deviation_m), fit
