"""Separating-axis test of two convex polyhedra (seed 000 sec. 2.2): step 1 of the narrow phase.

The candidate axes are the face normals of A, those of B, and the cross products of edge pairs
that form a face of the Minkowski difference A - B (``is_minkowski_face``; Gregorius, "The
Separating Axis Test between convex polyhedra", GDC 2013). The axis of largest separation wins,
with face axes preferred over edge axes (TOL.sat_face_bias) and A's faces over B's
(TOL.sat_reference_bias). Above the envelope the pair is apart. The chosen feature, a reference
face or a pair of edges, is written as in ``engine.collision.feature_id``.
"""
import numpy as np
from numba import njit

from extrados.engine.collision.feature_id import KIND_EDGE_EDGE, KIND_REFERENCE_ON_A, KIND_REFERENCE_ON_B, SEPARATED
from extrados.engine.collision.vectors import cross, dot, row, scaled, subtract


@njit(cache=True, inline="always")
def separating_feature(geometry, thresholds, a, b):
    """Step 1: the feature of the separating axis the test chooses for blocks a and b.

    Returns
    -------
    feature : (kind, first, second) of int
        KIND_REFERENCE_ON_A or KIND_REFERENCE_ON_B, the global reference face, -1; or
        KIND_EDGE_EDGE, the global edges of a and b; or SEPARATED, -1, -1 when an axis
        separates the blocks by more than the envelope (``engine.collision.feature_id``).
    """
    envelope = thresholds.envelope
    separation_a, face_a = face_query(geometry, a, b, envelope)
    if separation_a > envelope:
        return SEPARATED, -1, -1
    separation_b, face_b = face_query(geometry, b, a, envelope)
    if separation_b > envelope:
        return SEPARATED, -1, -1
    separation_e, edge_a, edge_b = edge_query(geometry, a, b, thresholds.parallel_sine_squared, envelope)
    if separation_e > envelope:
        return SEPARATED, -1, -1
    if separation_e > max(separation_a, separation_b) + thresholds.face_bias:
        return KIND_EDGE_EDGE, edge_a, edge_b
    if separation_b > separation_a + thresholds.reference_bias:
        return KIND_REFERENCE_ON_B, face_b, -1
    return KIND_REFERENCE_ON_A, face_a, -1


@njit(cache=True, inline="always")
def is_feature(geometry, thresholds, a, b, feature):
    """Can the test still choose ``feature`` (kind, first, second) of a and b? An edge pair must
    still span a face of the Minkowski difference and not be parallel; a face always qualifies."""
    kind, first, second = feature
    if kind != KIND_EDGE_EDGE:
        return True
    qualifies, _, _ = edge_pair_axis(geometry, a, b, first, second, thresholds.parallel_sine_squared)
    return qualifies


@njit(cache=True, inline="always")
def face_query(geometry, face_body, vertex_body, envelope):
    """Largest separation along the outward face normals of `face_body`.

    Along face f (plane n . x = d) the gap to the other block is min_v (n . v) - d over its
    vertices v. Stops early once a face separates by more than the envelope.

    Returns
    -------
    separation : float
    face : int
        Global index of the face that attains it.
    """
    best_separation = -np.inf
    best_face = -1
    vertex = geometry.vertex
    v_lo = geometry.vertex_start[vertex_body]
    v_hi = geometry.vertex_start[vertex_body + 1]
    for f in range(geometry.face_start[face_body], geometry.face_start[face_body + 1]):
        nx = geometry.face_normal[f, 0]
        ny = geometry.face_normal[f, 1]
        nz = geometry.face_normal[f, 2]
        lowest = np.inf
        for v in range(v_lo, v_hi):
            lowest = min(lowest, nx * vertex[v, 0] + ny * vertex[v, 1] + nz * vertex[v, 2])
        separation = lowest - geometry.face_offset[f]
        if separation > best_separation:
            best_separation = separation
            best_face = f
            if separation > envelope:
                break
    return best_separation, best_face


@njit(cache=True)
def is_minkowski_face(a, b, c, d):
    """Do the Gauss-map arcs a-b (edge of A) and c-d (edge of -B) cross?

    Edge pairs whose arcs cross span a face of the Minkowski difference A - B; only
    those give true separating axes. Arcs cross when c, d lie on opposite sides of the
    plane through a, b, when a, b lie on opposite sides of the plane through c, d, and
    when both arcs lie in the same hemisphere (signs of c . (b x a) and b . (d x c) agree).
    """
    bxa = cross(b, a)
    dxc = cross(d, c)
    cba = dot(c, bxa)
    dba = dot(d, bxa)
    adc = dot(a, dxc)
    bdc = dot(b, dxc)
    return cba * dba < 0.0 and adc * bdc < 0.0 and cba * bdc > 0.0


@njit(cache=True, inline="always")
def edge_query(geometry, a, b, parallel_sine_squared, envelope):
    """Largest separation along cross products of edge pairs of a and b.

    Only edge pairs spanning a face of the Minkowski difference qualify (``edge_axis``).

    Returns
    -------
    separation : float
        -inf when no edge pair qualifies.
    edge_a, edge_b : int
        Global edge indices.
    """
    vertex = geometry.vertex
    face_normal = geometry.face_normal
    edge_vertex = geometry.edge_vertex
    edge_face = geometry.edge_face
    va0 = geometry.vertex_start[a]
    vb0 = geometry.vertex_start[b]
    fa0 = geometry.face_start[a]
    fb0 = geometry.face_start[b]
    centre_a = row(geometry.centre, a)
    best_separation = -np.inf
    best_edge_a = -1
    best_edge_b = -1
    for ea in range(geometry.edge_start[a], geometry.edge_start[a + 1]):
        pa = row(vertex, va0 + edge_vertex[ea, 0])
        direction_a = subtract(row(vertex, va0 + edge_vertex[ea, 1]), pa)
        normal_a0 = row(face_normal, fa0 + edge_face[ea, 0])
        normal_a1 = row(face_normal, fa0 + edge_face[ea, 1])
        for eb in range(geometry.edge_start[b], geometry.edge_start[b + 1]):
            minus_normal_b0 = scaled(-1.0, row(face_normal, fb0 + edge_face[eb, 0]))
            minus_normal_b1 = scaled(-1.0, row(face_normal, fb0 + edge_face[eb, 1]))
            if not is_minkowski_face(normal_a0, normal_a1, minus_normal_b0, minus_normal_b1):
                continue
            pb = row(vertex, vb0 + edge_vertex[eb, 0])
            direction_b = subtract(row(vertex, vb0 + edge_vertex[eb, 1]), pb)
            qualifies, separation, _ = edge_axis(pa, direction_a, pb, direction_b, centre_a, parallel_sine_squared)
            if qualifies and separation > best_separation:
                best_separation = separation
                best_edge_a = ea
                best_edge_b = eb
                if separation > envelope:
                    return best_separation, best_edge_a, best_edge_b
    return best_separation, best_edge_a, best_edge_b


@njit(cache=True)
def edge_axis(pa, direction_a, pb, direction_b, centre_a, parallel_sine_squared):
    """Separating axis of two edges p_a + s e_a and p_b + t e_b.

    The axis L = e_a x e_b / |e_a x e_b| is oriented away from A's origin, and the
    separation is L . (p_b - p_a). Near-parallel edges (|e_a x e_b| below the parallel
    tolerance) do not qualify: a face axis covers them.

    Returns
    -------
    qualifies : bool
    separation : float
    axis : 3-tuple of float
        Unit axis from A to B.
    """
    axis = cross(direction_a, direction_b)
    axis_length_squared = dot(axis, axis)
    if axis_length_squared <= parallel_sine_squared * dot(direction_a, direction_a) * dot(direction_b, direction_b):
        return False, -np.inf, axis
    scale = 1.0 / np.sqrt(axis_length_squared)
    if dot(axis, subtract(pa, centre_a)) < 0.0:
        scale = -scale
    axis = scaled(scale, axis)
    return True, dot(axis, subtract(pb, pa)), axis


@njit(cache=True, inline="always")
def edge_pair_axis(geometry, a, b, edge_a, edge_b, parallel_sine_squared):
    """``edge_axis`` of global edges edge_a of a and edge_b of b, which qualify only when
    they also span a face of the Minkowski difference (``is_minkowski_face``)."""
    va0 = geometry.vertex_start[a]
    vb0 = geometry.vertex_start[b]
    fa0 = geometry.face_start[a]
    fb0 = geometry.face_start[b]
    if not is_minkowski_face(row(geometry.face_normal, fa0 + geometry.edge_face[edge_a, 0]),
                             row(geometry.face_normal, fa0 + geometry.edge_face[edge_a, 1]),
                             scaled(-1.0, row(geometry.face_normal, fb0 + geometry.edge_face[edge_b, 0])),
                             scaled(-1.0, row(geometry.face_normal, fb0 + geometry.edge_face[edge_b, 1]))):
        return False, -np.inf, (0.0, 0.0, 0.0)
    pa = row(geometry.vertex, va0 + geometry.edge_vertex[edge_a, 0])
    pb = row(geometry.vertex, vb0 + geometry.edge_vertex[edge_b, 0])
    return edge_axis(pa, subtract(row(geometry.vertex, va0 + geometry.edge_vertex[edge_a, 1]), pa),
                     pb, subtract(row(geometry.vertex, vb0 + geometry.edge_vertex[edge_b, 1]), pb),
                     row(geometry.centre, a), parallel_sine_squared)
