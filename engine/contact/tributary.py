"""The share of a joint polygon's area that each of its contact points stands for, when its edges are cut.

A joint polygon cut into points (engine.deformable.joint_points: along its edges and on a grid inside) gives
each point its Voronoi cell within the polygon: the part of the joint nearer to it than to any other of the
pair's points. The cells tile the polygon, so the areas sum to the joint's; on a rectangular joint's grid an
inner point carries a whole grid cell, a point on an edge half of one, a corner a quarter: the trapezoid rule
over the joint. A polygon of corners only keeps the area over its point count (engine.contact.laws.tributary_area).
"""
import numpy as np
from numba import njit

from extrados.engine.post.joints import plane_basis

#: Corners a clipped cell may hold: the polygon's points plus one per clip.
CELL_SLACK = 4


@njit(cache=True)
def clip_half_plane(cell, n, normal, offset, out):
    """Clip the convex polygon ``cell[:n]`` (k, 2) to {x : normal . x <= offset}, into ``out``; its corner count."""
    m = 0
    for k in range(n):
        p, q = cell[k], cell[(k + 1) % n]
        dp = normal[0] * p[0] + normal[1] * p[1] - offset
        dq = normal[0] * q[0] + normal[1] * q[1] - offset
        if dp <= 0.0:
            out[m, 0], out[m, 1] = p[0], p[1]
            m += 1
        if (dp < 0.0 < dq) or (dq < 0.0 < dp):
            t = dp / (dp - dq)
            out[m, 0], out[m, 1] = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
            m += 1
    return m


@njit(cache=True)
def shoelace(cell, n):
    """Area of the polygon ``cell[:n]`` (k, 2), either orientation."""
    twice = 0.0
    for k in range(n):
        p, q = cell[k], cell[(k + 1) % n]
        twice += p[0] * q[1] - q[0] * p[1]
    return 0.5 * abs(twice)


@njit(cache=True)
def voronoi_areas(points, polygon):
    """(m,) areas of the Voronoi cells of points (m, 2) within the convex ``polygon`` (k, 2), corners in order."""
    m, k = points.shape[0], polygon.shape[0]
    areas = np.zeros(m)
    size = k + CELL_SLACK * m
    cell, spare = np.empty((size, 2)), np.empty((size, 2))
    normal = np.empty(2)
    for i in range(m):
        cell[:k] = polygon
        n = k
        for j in range(m):
            if j == i or n == 0:
                continue
            normal[0], normal[1] = points[j, 0] - points[i, 0], points[j, 1] - points[i, 1]
            if normal[0] == 0.0 and normal[1] == 0.0:
                continue
            offset = 0.5 * (normal[0] * (points[i, 0] + points[j, 0]) + normal[1] * (points[i, 1] + points[j, 1]))
            n = clip_half_plane(cell, n, normal, offset, spare)
            cell, spare = spare, cell
        areas[i] = shoelace(cell, n)
    return areas


def plane_coordinates(points, normal):
    """(m, 2) coordinates of 3-D ``points`` (m, 3) in the plane of unit ``normal`` (3,) (engine.post.joints'
    in-plane axes)."""
    u, v = plane_basis(normal)
    return np.column_stack([points @ u, points @ v])


def cell_areas(contacts, pairs, boundary):
    """(n_c,) m^2, the Voronoi areas of the contacts of ``pairs`` (indices) within their joint polygon, whose
    corners are the pair's ``boundary`` (n_c,) bool points in order; nan elsewhere."""
    area = np.full(len(contacts.gap), np.nan)
    for pair in pairs:
        start, stop = contacts.pair_start[pair], contacts.pair_start[pair + 1]
        points = plane_coordinates(contacts.point[start:stop] - contacts.point[start], contacts.normal[start])
        area[start:stop] = voronoi_areas(points, points[boundary[start:stop]])
    return area
