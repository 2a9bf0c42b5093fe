"""Distances from points to a polyhedral surface of planar polygons, convex or not.

A point's distance to a planar polygon is its height above the polygon's plane when its foot
falls inside the polygon (even-odd crossing test in the plane), else its distance to the nearest
side; its distance to the surface is the least over the polygons. No triangulation is needed, so
non-convex faces (an L-shaped face of a CAD body) are measured as drawn.
"""
import numpy as np

from extrados.engine.geometry.polyhedron import face_loops, face_normals


def distance_to_segments(points, start, end):
    """(n_points, n_segments) distances from points to segments.

    Parameters
    ----------
    points : (n, 3) float64
    start, end : (s, 3) float64, the segments' ends
    """
    direction = end - start                                            # (s, 3)
    offset = points[:, None, :] - start[None, :, :]                    # (n, s, 3)
    length2 = np.maximum(np.einsum("ij,ij->i", direction, direction), np.finfo(float).tiny)
    along = np.clip(np.einsum("nsi,si->ns", offset, direction) / length2, 0.0, 1.0)
    return np.linalg.norm(offset - along[:, :, None] * direction[None, :, :], axis=2)


def inside_polygon(points_2d, corners_2d):
    """(n,) bool: whether 2D points lie inside a simple polygon (even-odd rule, half-open crossings)."""
    x, y = points_2d[:, :1], points_2d[:, 1:]
    ax, ay = corners_2d[:, 0], corners_2d[:, 1]
    bx, by = np.roll(ax, -1), np.roll(ay, -1)
    spans = (ay > y) != (by > y)                                       # (n, corners) the side crosses y
    with np.errstate(divide="ignore", invalid="ignore"):
        crossing_x = ax + (y - ay) * (bx - ax) / (by - ay)
    return (spans & (x < crossing_x)).sum(axis=1) % 2 == 1


def distance_to_surface(points, vertices, faces):
    """(n,) float64: the distance of each point to the surface of polygons ``faces`` of ``vertices``.

    Parameters
    ----------
    points : (n, 3) float64
    vertices : (v, 3) float64
    faces : list of planar polygons (lists of vertex indices), of any winding
    """
    normals = face_normals(vertices, face_loops(faces))
    areas = np.linalg.norm(normals, axis=1)
    nearest = np.full(len(points), np.inf)
    for face, normal, area in zip(faces, normals, areas):
        if not area > 0.0:   # a face of no area (a sliver of a mesh): its sides are its neighbours' sides
            continue
        corners = vertices[face]
        unit = normal / area
        axis_u = np.cross(unit, np.eye(3)[np.argmin(np.abs(unit))])
        axis_u /= np.linalg.norm(axis_u)
        axis_v = np.cross(unit, axis_u)
        offsets = points - corners[0]
        plane_2d = np.stack([offsets @ axis_u, offsets @ axis_v], axis=1)
        corners_2d = np.stack([(corners - corners[0]) @ axis_u, (corners - corners[0]) @ axis_v], axis=1)
        sides = distance_to_segments(points, corners, np.roll(corners, -1, axis=0)).min(axis=1)
        distance = np.where(inside_polygon(plane_2d, corners_2d), np.abs(offsets @ unit), sides)
        nearest = np.minimum(nearest, distance)
    return nearest


def surface_samples(vertices, faces):
    """Points spread over a surface of convex polygons: the corners, the sides' midpoints, each face's
    centroid and the midpoints between the centroid and each corner and side midpoint.

    Returns
    -------
    (m, 3) float64
    """
    samples = [vertices]
    for face in faces:
        corners = vertices[face]
        middles = 0.5 * (corners + np.roll(corners, -1, axis=0))
        centroid = corners.mean(axis=0)
        samples += [middles, centroid[None], 0.5 * (centroid + corners), 0.5 * (centroid + middles)]
    return np.concatenate(samples)
