"""Where a contact point sits on a deformable block's surface: weights of the block's nodes (issue 23).

A contact point on a deformable block moves with the block's surface: its elastic velocity is sum_j W_j v_j over
the nodes j of the mesh, and its impulse acts on the nodes as W_j gamma (the transpose). Two kinds:

* A point contact (a vertex or an edge against a face: pairs of one or two points) takes the shape functions
  of the boundary triangle under it, W_j = N_j(p).
* A face contact (a joint polygon of m >= 3 corners, engine.collision.detect) is a mortar. The pressure on the
  joint is interpolated between its corners by their generalised barycentric coordinates phi_k (Wachspress
  coordinates of the convex polygon: a partition of unity with linear precision), and corner k's force F_k
  spreads over the face as F_k q_k, q_k = sum_l (G^-1)_kl phi_l the dual functions, G_kl = int phi_k phi_l dA.
  Since int q_k phi_l dA = delta_kl, each q_k has unit resultant at its corner (int q_k dA = 1,
  int q_k x dA = x_k): the elastic block is loaded by the very force and moment the rigid analysis gives the
  joint, and a uniform or linearly varying pressure (a joint resultant anywhere in its kernel) is reproduced
  exactly. The corner's velocity is the transpose, the q_k-weighted mean of the face's velocity:

      W_kj = int q_k N_j dA = sum_l (G^-1)_kl int phi_l N_j dA    over the joint polygon on the block's face.

  The joint keeps the corners, resultants and kernel of the rigid analysis. This is the node-to-face contact
  of seed 001 sec. 2.1 integrated over the polygon (a dual mortar) rather than taken node by node.
* A joint cut into points (engine.deformable.joint_points: its edges' points, then a grid inside) is the same
  mortar with phi_k the hat functions of its points on their Delaunay triangulation (a partition of unity
  with linear precision too), integrated on the face's triangles cut finer than the points' spacing. A
  uniform pressure is then reached by non-negative point forces (tests/test_joint_points.py).

The integrals use the 7-point rule of degree 5 on every boundary triangle of the face (Dunavant 1985), keeping
the points inside the polygon.
"""
import numpy as np
from scipy.spatial import Delaunay

from extrados.engine.deformable.quadratic import boundary_barycentric, boundary_shape_weights

#: Dunavant's 7-point rule on a triangle: barycentric coordinates and weights (summing to 1).
_A1, _B1, _A2, _B2 = 0.059715871789770, 0.470142064105115, 0.797426985353087, 0.101286507323456
RULE_POINTS = np.array([[1 / 3, 1 / 3, 1 / 3],
                        [_A1, _B1, _B1], [_B1, _A1, _B1], [_B1, _B1, _A1],
                        [_A2, _B2, _B2], [_B2, _A2, _B2], [_B2, _B2, _A2]])
RULE_WEIGHTS = np.array([0.225] + [0.132394152788506] * 3 + [0.125939180544827] * 3)
#: A joint cut into points (engine.deformable.joint_points) is integrated on its face's triangles cut into pieces
#: at most 1 / QUADRATURE_PIECES of the points' spacing long, so that every point's hat holds quadrature points.
QUADRATURE_PIECES = 2
#: A boundary triangle belongs to a contact's face when its normal is within this of the contact normal's
#: (1 - cos) and its corners within the plane tolerance of the joint plane.
PARALLEL = 1e-6


def wachspress(polygon, points):
    """(p, m) Wachspress coordinates of 2-D points inside a convex polygon (m, 2), corners in order.

    w_k = A(v_k-1, v_k, v_k+1) / (A(x, v_k-1, v_k) A(x, v_k, v_k+1)), normalised; A the signed area, the
    polygon turned counter-clockwise first. On an edge the formula is 0/0: the areas are floored at 1e-14 of the
    polygon's size squared (the quadrature of ``polygon_weights`` never puts a point there).
    """
    polygon = np.asarray(polygon, float)
    if np.sum(polygon[:, 0] * np.roll(polygon[:, 1], -1) - np.roll(polygon[:, 0], -1) * polygon[:, 1]) < 0:
        return wachspress(polygon[::-1], points)[:, ::-1]
    previous, following = np.roll(polygon, 1, axis=0), np.roll(polygon, -1, axis=0)
    corner = area2(previous, polygon, following)                               # (m,)
    size = np.ptp(polygon, axis=0).max()
    points = np.asarray(points, float)
    before = area2(points[:, None, :], previous[None], polygon[None])          # (p, m) A(x, v_k-1, v_k)
    after = area2(points[:, None, :], polygon[None], following[None])          # (p, m) A(x, v_k, v_k+1)
    floor = 1e-14 * size * size
    weights = corner / (np.maximum(before, floor) * np.maximum(after, floor))
    return weights / weights.sum(axis=1, keepdims=True)


def area2(a, b, c):
    """Twice the signed area of the 2-D triangles (a, b, c), broadcast."""
    return (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0])


def inside_polygon(polygon, points, tolerance):
    """(p,) bool: 2-D points inside the convex polygon (m, 2) or within ``tolerance`` of it."""
    sign = 1.0 if np.sum(area2(polygon, np.roll(polygon, -1, axis=0), polygon.mean(axis=0)[None])) >= 0 else -1.0
    edge = np.roll(polygon, -1, axis=0) - polygon
    length = np.linalg.norm(edge, axis=1)
    cross = sign * (edge[None, :, 0] * (points[:, None, 1] - polygon[None, :, 1])
                    - edge[None, :, 1] * (points[:, None, 0] - polygon[None, :, 0]))
    return np.all(cross >= -tolerance * length[None, :], axis=1)


def plane_axes(normal):
    """Two unit vectors spanning the plane of ``normal`` (3,)."""
    helper = np.eye(3)[np.argmin(np.abs(normal))]
    u = np.cross(normal, helper)
    u /= np.linalg.norm(u)
    return np.vstack([u, np.cross(normal, u)])


def face_triangles(mesh, point, normal, tolerance):
    """Indices of the boundary triangles of ``mesh`` lying in the plane through ``point`` (3,) with unit
    ``normal`` (3,) either way, their corners within ``tolerance`` (m) of it."""
    corners = mesh.nodes[mesh.boundary[:, :3]]                                 # (t, 3, 3)
    facing = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    facing /= np.linalg.norm(facing, axis=1)[:, None]
    parallel = np.abs(facing @ normal) >= 1.0 - PARALLEL
    near = np.all(np.abs((corners - point) @ normal) <= tolerance, axis=1)
    return np.flatnonzero(parallel & near)


def point_weights(mesh, point):
    """(n,) weights of the mesh's nodes at the surface point nearest ``point`` (3,): the shape functions of the
    boundary triangle closest to it, at the point's projection clamped into the triangle."""
    barycentric, distance = closest_barycentric(mesh, point)
    best = int(np.argmin(distance))
    weights = np.zeros(len(mesh.nodes))
    np.add.at(weights, mesh.boundary[best], boundary_shape_weights(mesh, best, barycentric[best]))
    return weights


def closest_barycentric(mesh, point):
    """Barycentric coordinates (t, 3) of the point of each boundary triangle nearest ``point`` (approximately:
    the plane projection, engine.deformable.quadratic.boundary_barycentric, clamped to non-negative coordinates
    and renormalised) and that point's distance (t,)."""
    faces = np.arange(len(mesh.boundary))
    barycentric = np.clip(boundary_barycentric(mesh, faces, point), 0.0, None)
    barycentric /= barycentric.sum(axis=1, keepdims=True)
    nearest = np.einsum("tk,tkj->tj", barycentric, mesh.nodes[mesh.boundary[:, :3]])
    return barycentric, np.linalg.norm(nearest - point, axis=1)


def subdivided_rule(pieces):
    """Barycentric points (q, 3) and weights (q,) (summing to 1) of RULE_POINTS on each of the pieces^2 triangles
    that cut a triangle's edges into ``pieces`` equal parts."""
    corners = []
    for a in range(pieces):
        for b in range(pieces - a):
            up = np.array([[a, b], [a + 1, b], [a, b + 1]], float)
            corners.append(up)
            if a + b + 1 < pieces:
                corners.append(np.array([[a + 1, b], [a + 1, b + 1], [a, b + 1]], float))
    corners = np.array(corners) / pieces                                       # (s, 3, 2) (l1, l2) per corner
    full = np.concatenate([1.0 - corners.sum(axis=2, keepdims=True), corners], axis=2)   # (s, 3, 3)
    points = np.einsum("qk,skc->sqc", RULE_POINTS, full).reshape(-1, 3)
    return points, np.tile(RULE_WEIGHTS, len(corners)) / len(corners)


def hat_functions(points, where):
    """(p, m) the piecewise-linear hat functions of ``points`` (m, 2) on their Delaunay triangulation, at 2-D
    ``where`` (p, 2); a point outside the triangulation gets the hats of the nearest simplex, clamped."""
    triangulation = Delaunay(points)
    simplex = triangulation.find_simplex(where)
    outside = simplex < 0
    if outside.any():
        centres = points[triangulation.simplices].mean(axis=1)
        simplex[outside] = np.argmin(np.linalg.norm(where[outside, None] - centres[None], axis=2), axis=1)
    transform = triangulation.transform[simplex]                               # (p, 3, 2)
    partial = np.einsum("pij,pj->pi", transform[:, :2], where - transform[:, 2])
    barycentric = np.clip(np.column_stack([partial, 1.0 - partial.sum(axis=1)]), 0.0, None)
    barycentric /= barycentric.sum(axis=1, keepdims=True)
    hats = np.zeros((len(where), len(points)))
    np.put_along_axis(hats, triangulation.simplices[simplex], barycentric, axis=1)
    return hats


def polygon_weights(mesh, corners, normal, tolerance, outline=None, spacing=None):
    """(m, n) mortar weights W_kj of a joint's points (m, 3) on the mesh's face in its plane (module docstring),
    body frame. The points are a polygon's corners (Wachspress coordinates), or, for a joint cut into points
    (engine.deformable.joint_points), ``outline`` (m,) bool marks the polygon's points (in order) among them
    and their hat functions on the points' Delaunay triangulation interpolate the pressure, the quadrature
    refined to ``spacing`` (m). Points that the face's quadrature cannot tell apart take `point_weights`."""
    axes = plane_axes(normal)
    planar = corners @ axes.T                                                  # (m, 2)
    polygon = planar if outline is None else planar[outline]
    triangles = mesh.boundary[face_triangles(mesh, corners.mean(axis=0), normal, tolerance)]
    coupling = np.zeros((len(corners), len(mesh.nodes)))                      # int phi_k N_j dA
    gram = np.zeros((len(corners), len(corners)))                             # int phi_k phi_l dA
    if len(triangles):
        vertices = mesh.nodes[triangles[:, :3]]                                # (t, 3, 3)
        area = 0.5 * np.linalg.norm(np.cross(vertices[:, 1] - vertices[:, 0], vertices[:, 2] - vertices[:, 0]), axis=1)
        longest = np.linalg.norm(vertices - np.roll(vertices, 1, axis=1), axis=2).max()
        pieces = 1 if spacing is None else int(np.ceil(QUADRATURE_PIECES * longest / spacing))
        rule, rule_weights = subdivided_rule(pieces)
        points = np.einsum("qk,tkj->tqj", rule, vertices)                      # (t, q, 3)
        reach = 1e-12 * np.ptp(polygon, axis=0).max()                          # points on an edge are in
        inside = inside_polygon(polygon, (points @ axes.T).reshape(-1, 2), reach).reshape(points.shape[:2])
        t, q = np.nonzero(inside)
        weight = rule_weights[q] * area[t]                                     # (p,)
        where = points[t, q] @ axes.T
        phi = wachspress(polygon, where) if outline is None else hat_functions(planar, where)   # (p, m)
        shapes = boundary_shape_weights(mesh, 0, rule)[q]                      # (p, s): every face one order
        weighted = weight[:, None] * phi
        for k in range(shapes.shape[1]):
            np.add.at(coupling.T, triangles[t, k], weighted * shapes[:, k:k + 1])
        gram = weighted.T @ phi
    if np.linalg.matrix_rank(gram, tol=1e-9 * max(np.abs(gram).max(initial=0.0), 1e-300)) < len(corners):
        return np.array([point_weights(mesh, corner) for corner in corners])
    return np.linalg.solve(gram, coupling)
