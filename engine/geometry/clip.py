"""A convex polyhedron clipped by a half-space: the part with n . x <= c.

The intersection of a convex polyhedron and a half-space is convex. Each face polygon is clipped
by the plane (Sutherland-Hodgman, one plane): corners inside are kept, an edge that crosses the
plane gains the point where it does. The corners on the plane close the cut with one new face,
the cap, whose outward normal is n. Vertices are named by where they come from, an original
corner or the crossing of an original edge, so that faces that share a corner share its index.
"""
import numpy as np


def signed_distances(vertices, normal, offset):
    """(n_vertices,) float64, m, n . x - c of each vertex (positive: outside the kept half-space)."""
    return vertices @ normal - offset


def clipped_face(face, distance, on_plane):
    """The corners of one face polygon inside the half-space, in order, as vertex keys.

    Parameters
    ----------
    face : list of int, corners of the polygon, counter-clockwise seen from outside
    distance : (n_vertices,) float64, m, signed distance of every vertex (`signed_distances`)
    on_plane : float, m, a corner within this of the plane lies on it

    Returns
    -------
    list of keys: ``("v", i)`` for a kept corner i, ``("e", i, j)`` (i < j) for the crossing of edge i-j
    """
    kept = []
    for k, i in enumerate(face):
        j = face[(k + 1) % len(face)]
        if distance[i] <= on_plane:
            kept.append(("v", i))
        if (distance[i] < -on_plane and distance[j] > on_plane) or (distance[i] > on_plane and distance[j] < -on_plane):
            kept.append(("e", min(i, j), max(i, j)))
    return kept


def key_point(key, vertices, distance):
    """(3,) float64, m, the point a vertex key names: a corner, or where an edge crosses the plane."""
    if key[0] == "v":
        return vertices[key[1]]
    a, b = vertices[key[1]], vertices[key[2]]
    t = distance[key[1]] / (distance[key[1]] - distance[key[2]])
    return a + t * (b - a)


def cap_face(keys, points, normal):
    """The keys of the corners on the plane ordered counter-clockwise about ``normal`` (the cap's outward normal)."""
    centre = points.mean(axis=0)
    u = np.cross(normal, np.eye(3)[np.argmin(np.abs(normal))])
    u /= np.linalg.norm(u)
    v = np.cross(normal, u)
    angle = np.arctan2((points - centre) @ v, (points - centre) @ u)
    return [keys[k] for k in np.argsort(angle)]


def clip_polyhedron(vertices, faces, normal, offset, on_plane):
    """The part n . x <= c of a closed convex polyhedron, as vertices and faces.

    Parameters
    ----------
    vertices : (n_vertices, 3) float64, m
    faces : list of list of int, polygons counter-clockwise seen from outside
    normal : (3,) float64, unit n
    offset : float, m, c
    on_plane : float, m, a corner within this of the plane lies on it (no sliver edges)

    Returns
    -------
    vertices : (m, 3) float64, m
    faces : list of list of int, the clipped faces with at least 3 corners, then the cap (outward normal n)
        when the plane cuts the polyhedron; the polyhedron itself when it lies inside the half-space
    """
    vertices = np.asarray(vertices, dtype=float)
    distance = signed_distances(vertices, normal, offset)
    key_faces = [keys for keys in (clipped_face(face, distance, on_plane) for face in faces) if len(keys) >= 3]
    cut = {key for keys in key_faces for key in keys if key[0] == "e" or abs(distance[key[1]]) <= on_plane}
    if distance.max() > on_plane and len(cut) >= 3:
        cut = sorted(cut)
        key_faces.append(cap_face(cut, np.array([key_point(key, vertices, distance) for key in cut]), normal))
    index = {}
    for keys in key_faces:
        for key in keys:
            index.setdefault(key, len(index))
    points = np.array([key_point(key, vertices, distance) for key in index])
    return points, [[index[key] for key in keys] for keys in key_faces]
