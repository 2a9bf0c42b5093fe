"""Narrow phase: contact points between pairs of convex polyhedra (seed 000 sec. 2.2, 2.5).

For each candidate pair (A, B), all in the world frame:

0. Bounding spheres further apart than the envelope: no contact. A touching pair whose
   relative pose has barely moved since its last separating-axis test reuses the feature
   that test chose and goes to step 2 or 3 (engine.collision.coherence, step 2).
1. Separating-axis test over the face normals of A, of B, and the cross products of
   edge pairs that form a face of the Minkowski difference. The axis of largest
   separation wins, with face axes preferred over edge axes (TOL.sat_face_bias) and
   A's faces over B's (TOL.sat_reference_bias). Above the envelope: no contact.
2. Face axis: the incident face (most anti-parallel to the reference face) is clipped
   against the side planes of the reference face (Sutherland-Hodgman); the clipped
   corners within the envelope of the reference plane are the contacts, in polygon
   order: for coplanar faces they are the corners of the joint polygon. Corners closer
   than TOL.contact_merge_relative times the smaller block's diameter are one; more than
   ``MAX_CONTACTS_PER_PAIR`` corners are reduced keeping the largest area.
3. Edge axis: one contact midway between the closest points of the two edges.
4. Each contact carries a feature id that survives small motions (warm starting).

Every contact has a unit normal from A to B, a signed gap (negative when the blocks
penetrate) and a point midway between the two surfaces.

The per-pair kernels that take arrays are inlined into ``collide_pairs`` (numba's
inline="always"): a call passes every array of ``Geometry`` field by field and counts its
references, which for a pair of boxes costs twice the clipping itself.
"""
import math
from collections import namedtuple

import numpy as np
from numba import njit

from extrados.engine.collision.coherence import POSE_SIZE, PairFeatures, no_pair_features, pose_is_near, relative_pose
from extrados.engine.tolerance import TOL

#: Contacts kept per pair (seed 000 sec. 2.5 keeps those that maximize the patch).
MAX_CONTACTS_PER_PAIR = 8

# Feature id layout, high to low bits: kind (2) | first index (16) | second index (16) | corner (24).
# Face contacts: kind 0/1 = reference face on A/B, first = reference face, second = incident
# face (local indices), corner = (line in) << 12 | (line out), the two polygon lines meeting
# at the corner: incident edge k is line k, side j of the reference face is line _SIDE_LINE + j.
# Edge contacts: kind 2, first/second = local edges of A/B, corner 0.
# The SAT's choice of a pair (PairFeatures.feature) is kind, first, second with global indices:
# reference face, -1 for a face contact; edge of A, edge of B for an edge contact; kind
# _SEPARATED when the pair is apart.
_KIND_REFERENCE_ON_A = 0
_KIND_REFERENCE_ON_B = 1
_KIND_EDGE_EDGE = 2
_SEPARATED = -1
_INDEX_BITS = 16
_LINE_BITS = 12
_SIDE_LINE = 1 << (_LINE_BITS - 1)

#: World-frame geometry a kernel reads (numba accepts named tuples of arrays).
Geometry = namedtuple("Geometry", [
    "vertex",             # (n_vertices_total, 3) float64, world
    "vertex_start",       # (n_blocks + 1,) int64
    "face_normal",        # (n_faces_total, 3) float64, world
    "face_offset",        # (n_faces_total,) float64, world
    "face_start",         # (n_blocks + 1,) int64
    "face_vertex",        # (n_face_vertices_total,) int64, local vertex indices
    "face_vertex_start",  # (n_faces_total + 1,) int64
    "edge_vertex",        # (n_edges_total, 2) int64, local vertex indices
    "edge_face",          # (n_edges_total, 2) int64, local face indices
    "edge_start",         # (n_blocks + 1,) int64
    "centre",             # (n_blocks, 3) float64, world body origins (inside each block)
    "orientation",        # (n_blocks, 4) float64, unit quaternions [w, x, y, z]
    "radius",             # (n_blocks,) float64, bounding-sphere radius about the origin
])

#: Lengths and biases of one narrow-phase call (from TOL and the envelope).
Thresholds = namedtuple("Thresholds", [
    "envelope",                # m, largest gap that makes a contact
    "face_bias",               # m, TOL.sat_face_bias
    "reference_bias",          # m, TOL.sat_reference_bias
    "parallel_sine_squared",   # sin^2 of the angle below which two edges are parallel
    "merge_absolute",          # m, TOL.length
    "merge_relative",          # TOL.contact_merge_relative, times the smaller block's diameter
    "reuse_sine_squared",      # sin^2(TOL.sat_reuse_angle / 2)
    "reuse_relative",          # TOL.sat_reuse_translation_relative, times the smaller block's radius
])


def narrow_phase(packed, posed, pairs, envelope, kept=None):
    """Contacts of all candidate pairs.

    Parameters
    ----------
    packed : PackedPolyhedra
    posed : PosedPolyhedra
        World geometry of the same blocks.
    pairs : (n_pairs, 2) int64
        Candidate pairs (A, B), sorted by A then B.
    envelope : float
        Largest gap (m) that still makes a contact.
    kept : PairFeatures, optional
        What the previous call returned for the same blocks: its pairs whose relative pose
        barely moved reuse their feature. Without it every pair runs the separating-axis test.

    Returns
    -------
    body_a, body_b : (n_contacts,) int64
        The pair of each contact; the contacts of one pair are contiguous, in pair order.
    point : (n_contacts, 3) float64
        Midway between the two surfaces, world frame (m).
    normal : (n_contacts, 3) float64
        Unit normal from A to B.
    gap : (n_contacts,) float64
        Signed distance (m), negative when penetrating.
    feature_id : (n_contacts,) int64
        Persistent id of the features that produced the contact, unique within a pair.
    pair : (n_contacts,) int64
        Index of the contact's pair among the pairs with contacts.
    pair_start : (n_pairs_with_contacts + 1,) int64
        Offsets of each pair's contacts.
    features : PairFeatures
        The features of the touching pairs, to pass to the next call.
    """
    geometry = Geometry(posed.vertex, packed.vertex_start, posed.face_normal, posed.face_offset, packed.face_start,
                        packed.face_vertex, packed.face_vertex_start, packed.edge_vertex, packed.edge_face,
                        packed.edge_start, posed.centre, posed.orientation, packed.radius)
    thresholds = Thresholds(float(envelope), TOL.sat_face_bias, TOL.sat_reference_bias,
                            1.0 - TOL.parallel_cosine ** 2, TOL.length, TOL.contact_merge_relative,
                            math.sin(0.5 * TOL.sat_reuse_angle) ** 2, TOL.sat_reuse_translation_relative)
    kept = no_pair_features() if kept is None else kept
    *contacts, key, feature, pose = collide_pairs(geometry, thresholds, np.ascontiguousarray(pairs, dtype=np.int64),
                                                  kept)
    return (*contacts, PairFeatures(key, feature, pose))


@njit(cache=True)
def collide_pairs(geometry, thresholds, pairs, kept):
    """Narrow phase over all pairs, writing each pair's contacts after the previous pair's.

    Returns the contact arrays of ``narrow_phase`` and the key, feature and pose arrays of
    the pairs whose feature is known (PairFeatures). They are the used leading parts of
    buffers sized for MAX_CONTACTS_PER_PAIR contacts per pair.
    """
    n_pairs = len(pairs)
    n_blocks = len(geometry.radius)
    capacity = n_pairs * MAX_CONTACTS_PER_PAIR
    body_a = np.empty(capacity, np.int64)
    body_b = np.empty(capacity, np.int64)
    point = np.empty((capacity, 3))
    normal = np.empty((capacity, 3))
    gap = np.empty(capacity)
    feature_id = np.empty(capacity, np.int64)
    pair = np.empty(capacity, np.int64)
    pair_start = np.empty(n_pairs + 1, np.int64)
    known_key = np.empty(n_pairs, np.int64)
    known_feature = np.empty((n_pairs, 3), np.int64)
    known_pose = np.empty((n_pairs, POSE_SIZE))
    workspace = clip_workspace(max_face_corners(geometry.face_vertex_start))
    n_contacts = 0
    n_touching = 0
    n_known = 0
    cursor = 0
    for k in range(n_pairs):
        a = pairs[k, 0]
        b = pairs[k, 1]
        # step 0: bounding spheres further apart than the envelope cannot touch
        offset = subtract(row(geometry.centre, b), row(geometry.centre, a))
        if np.sqrt(dot(offset, offset)) > geometry.radius[a] + geometry.radius[b] + thresholds.envelope:
            continue
        # step 0: a kept feature, while the relative pose stays near the one it was chosen at
        current = relative_pose(geometry.centre, geometry.orientation, a, b)
        key = a * n_blocks + b
        while cursor < len(kept.key) and kept.key[cursor] < key:
            cursor += 1
        reused = False
        if cursor < len(kept.key) and kept.key[cursor] == key:
            kind = kept.feature[cursor, 0]
            first = kept.feature[cursor, 1]
            second = kept.feature[cursor, 2]
            translation = thresholds.reuse_relative * min(geometry.radius[a], geometry.radius[b])
            reused = (pose_is_near(kept.pose, cursor, current, thresholds.reuse_sine_squared,
                                   translation * translation)
                      and is_feature(geometry, thresholds, a, b, kind, first, second))
        if reused:
            for i in range(POSE_SIZE):
                known_pose[n_known, i] = kept.pose[cursor, i]
        else:
            # step 1
            kind, first, second = separating_feature(geometry, thresholds, a, b)
            if kind == _SEPARATED:
                continue
            for i in range(POSE_SIZE):
                known_pose[n_known, i] = current[i]
        known_key[n_known] = key
        known_feature[n_known, 0] = kind
        known_feature[n_known, 1] = first
        known_feature[n_known, 2] = second
        n_known += 1
        count = feature_contacts(geometry, thresholds, a, b, kind, first, second, workspace, n_contacts,
                                 point, normal, gap, feature_id)
        if count == 0:
            continue
        pair_start[n_touching] = n_contacts
        for c in range(n_contacts, n_contacts + count):
            body_a[c] = a
            body_b[c] = b
            pair[c] = n_touching
        n_contacts += count
        n_touching += 1
    pair_start[n_touching] = n_contacts
    return (body_a[:n_contacts], body_b[:n_contacts], point[:n_contacts], normal[:n_contacts], gap[:n_contacts],
            feature_id[:n_contacts], pair[:n_contacts], pair_start[:n_touching + 1],
            known_key[:n_known], known_feature[:n_known], known_pose[:n_known])


@njit(cache=True)
def max_face_corners(face_vertex_start):
    """Largest number of corners of any face."""
    largest = 0
    for f in range(len(face_vertex_start) - 1):
        largest = max(largest, face_vertex_start[f + 1] - face_vertex_start[f])
    return largest


@njit(cache=True)
def clip_workspace(max_corners):
    """Polygon buffers for Sutherland-Hodgman ping-pong between two layers.

    Clipping a convex n-gon by m half-planes leaves at most n + m corners. The layers are
    indexed rather than swapped: numba counts references on every rebinding of an array.

    Returns
    -------
    corner : (2, capacity, 3) float64
        Corner positions of the polygon in each layer.
    line : (2, capacity, 2) int64
        The polygon lines meeting at each corner: in (from the previous corner), out (to the next).
    depth : (capacity,) float64
        Distance of each kept corner from the reference plane.
    """
    capacity = 2 * max_corners + 1
    return np.empty((2, capacity, 3)), np.empty((2, capacity, 2), np.int64), np.empty(capacity)


@njit(cache=True, inline="always")
def separating_feature(geometry, thresholds, a, b):
    """Step 1: the feature of the separating axis the test chooses for blocks a and b.

    Returns
    -------
    kind, first, second : int
        _KIND_REFERENCE_ON_A or _KIND_REFERENCE_ON_B, the global reference face, -1; or
        _KIND_EDGE_EDGE, the global edges of a and b; or _SEPARATED, -1, -1 when an axis
        separates the blocks by more than the envelope.
    """
    envelope = thresholds.envelope
    separation_a, face_a = face_query(geometry, a, b, envelope)
    if separation_a > envelope:
        return _SEPARATED, -1, -1
    separation_b, face_b = face_query(geometry, b, a, envelope)
    if separation_b > envelope:
        return _SEPARATED, -1, -1
    separation_e, edge_a, edge_b = edge_query(geometry, a, b, thresholds.parallel_sine_squared, envelope)
    if separation_e > envelope:
        return _SEPARATED, -1, -1
    if separation_e > max(separation_a, separation_b) + thresholds.face_bias:
        return _KIND_EDGE_EDGE, edge_a, edge_b
    if separation_b > separation_a + thresholds.reference_bias:
        return _KIND_REFERENCE_ON_B, face_b, -1
    return _KIND_REFERENCE_ON_A, face_a, -1


@njit(cache=True, inline="always")
def is_feature(geometry, thresholds, a, b, kind, first, second):
    """Can the test still choose this feature of a and b? An edge pair must still span a
    face of the Minkowski difference and not be parallel; a face always qualifies."""
    if kind != _KIND_EDGE_EDGE:
        return True
    qualifies, _, _ = edge_pair_axis(geometry, a, b, first, second, thresholds.parallel_sine_squared)
    return qualifies


@njit(cache=True, inline="always")
def feature_contacts(geometry, thresholds, a, b, kind, first, second, workspace, slot, point, normal, gap,
                     feature_id):
    """Steps 2-3: the contacts of the chosen feature, written from `slot` on; returns their number."""
    if kind == _KIND_EDGE_EDGE:
        _, separation, axis = edge_pair_axis(geometry, a, b, first, second, thresholds.parallel_sine_squared)
        if separation > thresholds.envelope:
            return 0
        return edge_contact(geometry, a, b, first, second, axis, separation, slot, point, normal, gap, feature_id)
    if kind == _KIND_REFERENCE_ON_B:
        return face_contacts(geometry, thresholds, b, a, first, True, workspace, slot, point, normal, gap,
                             feature_id)
    return face_contacts(geometry, thresholds, a, b, first, False, workspace, slot, point, normal, gap, feature_id)


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
def row(array, i):
    """Row i of an (n, 3) array as a tuple (tuples stay in registers; rows would allocate)."""
    return (array[i, 0], array[i, 1], array[i, 2])


@njit(cache=True)
def dot(u, w):
    return u[0] * w[0] + u[1] * w[1] + u[2] * w[2]


@njit(cache=True)
def cross(u, w):
    return (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])


@njit(cache=True)
def subtract(u, w):
    return (u[0] - w[0], u[1] - w[1], u[2] - w[2])


@njit(cache=True)
def scaled(scale, u):
    return (scale * u[0], scale * u[1], scale * u[2])


@njit(cache=True)
def along(origin, scale, direction):
    """origin + scale * direction."""
    return (origin[0] + scale * direction[0], origin[1] + scale * direction[1], origin[2] + scale * direction[2])


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


@njit(cache=True)
def closest_points_on_segments(p0, p1, q0, q1):
    """Closest points of segments p0-p1 and q0-q1 (non-degenerate), as 3-tuples.

    Minimize |p0 + s u - q0 - t w|^2 over s, t in [0, 1]: the unconstrained s is
    (b f - c e) / (a e - b^2) with a = u.u, b = u.w, c = u.r, e = w.w, f = w.r, r = p0 - q0;
    clamp it, take the best t = (b s + f) / e, and if t is clamped recompute s.
    """
    u = subtract(p1, p0)
    w = subtract(q1, q0)
    r = subtract(p0, q0)
    a = dot(u, u)
    b = dot(u, w)
    c = dot(u, r)
    e = dot(w, w)
    f = dot(w, r)
    denominator = a * e - b * b
    s = min(max((b * f - c * e) / denominator, 0.0), 1.0) if denominator > 0.0 else 0.0
    t = (b * s + f) / e
    if t < 0.0:
        t = 0.0
        s = min(max(-c / a, 0.0), 1.0)
    elif t > 1.0:
        t = 1.0
        s = min(max((b - c) / a, 0.0), 1.0)
    return along(p0, s, u), along(q0, t, w)


@njit(cache=True, inline="always")
def edge_contact(geometry, a, b, edge_a, edge_b, axis, separation, slot, point, normal, gap, feature_id):
    """Step 3: one contact midway between the closest points of two crossing edges."""
    va0 = geometry.vertex_start[a]
    vb0 = geometry.vertex_start[b]
    on_a, on_b = closest_points_on_segments(
        row(geometry.vertex, va0 + geometry.edge_vertex[edge_a, 0]),
        row(geometry.vertex, va0 + geometry.edge_vertex[edge_a, 1]),
        row(geometry.vertex, vb0 + geometry.edge_vertex[edge_b, 0]),
        row(geometry.vertex, vb0 + geometry.edge_vertex[edge_b, 1]))
    for i in range(3):
        point[slot, i] = 0.5 * (on_a[i] + on_b[i])
        normal[slot, i] = axis[i]
    gap[slot] = separation
    feature_id[slot] = encode_feature(_KIND_EDGE_EDGE, edge_a - geometry.edge_start[a],
                                      edge_b - geometry.edge_start[b], 0)
    return 1


@njit(cache=True)
def encode_feature(kind, first, second, corner):
    """Feature id kind | first | second | corner (see the layout at the top of the module)."""
    return ((np.int64(kind) << _INDEX_BITS | first) << _INDEX_BITS | second) << (2 * _LINE_BITS) | corner


@njit(cache=True, inline="always")
def incident_face(geometry, body, reference_normal):
    """Global index of the face of `body` whose normal is most anti-parallel to the reference normal."""
    best_face = -1
    lowest = np.inf
    for f in range(geometry.face_start[body], geometry.face_start[body + 1]):
        alignment = dot(row(geometry.face_normal, f), reference_normal)
        if alignment < lowest:
            lowest = alignment
            best_face = f
    return best_face


@njit(cache=True)
def face_corner(geometry, body, face, k):
    """World position (3-tuple) of corner k, in loop order, of a face of `body`."""
    return row(geometry.vertex, geometry.vertex_start[body] + geometry.face_vertex[geometry.face_vertex_start[face] + k])


@njit(cache=True)
def layer_row(corner, layer, k):
    """Corner k of a layer of the clip workspace, as a 3-tuple."""
    return (corner[layer, k, 0], corner[layer, k, 1], corner[layer, k, 2])


@njit(cache=True, inline="always")
def clip_by_plane(corner, line, source, n_source, plane_normal, plane_offset, plane_line, tolerance):
    """Keep the part of a convex polygon where n . x - d <= tolerance (Sutherland-Hodgman).

    The polygon is layer ``source`` of the workspace (clip_workspace); the clipped one is
    written to the other layer. Each corner carries the two polygon lines meeting there
    (in: from the previous corner, out: to the next); a corner made on the clip plane takes
    `plane_line` as one of them. Returns the number of corners written.
    """
    if n_source == 0:
        return 0
    target = 1 - source
    n_target = 0
    previous = n_source - 1
    distance_previous = dot(plane_normal, layer_row(corner, source, previous)) - plane_offset
    for current in range(n_source):
        distance_current = dot(plane_normal, layer_row(corner, source, current)) - plane_offset
        inside_previous = distance_previous <= tolerance
        inside_current = distance_current <= tolerance
        if inside_previous != inside_current:
            # the edge previous -> current, on line out of previous, crosses the plane
            t = min(max(distance_previous / (distance_previous - distance_current), 0.0), 1.0)
            for i in range(3):
                corner[target, n_target, i] = (corner[source, previous, i]
                                               + t * (corner[source, current, i] - corner[source, previous, i]))
            line[target, n_target, 0] = plane_line if inside_current else line[source, previous, 1]
            line[target, n_target, 1] = line[source, previous, 1] if inside_current else plane_line
            n_target += 1
        if inside_current:
            for i in range(3):
                corner[target, n_target, i] = corner[source, current, i]
            line[target, n_target, 0] = line[source, current, 0]
            line[target, n_target, 1] = line[source, current, 1]
            n_target += 1
        previous = current
        distance_previous = distance_current
    return n_target


@njit(cache=True, inline="always")
def face_contacts(geometry, thresholds, reference_body, incident_body, reference_face, reference_on_b, workspace,
                  slot, point, normal, gap, feature_id):
    """Step 2: clip the incident face against the reference face; write the kept corners.

    Returns the number of contacts written (at most MAX_CONTACTS_PER_PAIR).
    """
    corner, line, depth = workspace
    reference_normal = row(geometry.face_normal, reference_face)
    reference_offset = geometry.face_offset[reference_face]
    # corners closer than this are one; also the slack of the side-plane clipping, so that a
    # corner of nearly coincident faces stays one corner with one feature id
    merge_distance = thresholds.merge_absolute + thresholds.merge_relative * 2.0 * min(
        geometry.radius[reference_body], geometry.radius[incident_body])

    # the incident polygon, in layer 0; incident edge k, from corner k to corner k + 1, is line k
    inc_face = incident_face(geometry, incident_body, reference_normal)
    n_incident = geometry.face_vertex_start[inc_face + 1] - geometry.face_vertex_start[inc_face]
    for k in range(n_incident):
        position = face_corner(geometry, incident_body, inc_face, k)
        for i in range(3):
            corner[0, k, i] = position[i]
        line[0, k, 0] = (k - 1) % n_incident
        line[0, k, 1] = k
    n_corners = n_incident
    layer = 0

    # clip by the side planes of the reference face: side j runs from corner j to j + 1,
    # and (c_j+1 - c_j) x n is its outward side normal for a loop CCW about n
    n_reference = geometry.face_vertex_start[reference_face + 1] - geometry.face_vertex_start[reference_face]
    for j in range(n_reference):
        start = face_corner(geometry, reference_body, reference_face, j)
        following = face_corner(geometry, reference_body, reference_face, (j + 1) % n_reference)
        side_normal = cross(subtract(following, start), reference_normal)
        side_normal = scaled(1.0 / np.sqrt(dot(side_normal, side_normal)), side_normal)
        n_corners = clip_by_plane(corner, line, layer, n_corners, side_normal, dot(side_normal, start),
                                  _SIDE_LINE + j, merge_distance)
        layer = 1 - layer

    # keep the corners within the envelope of the reference plane, moved midway to their
    # projection on it, dropping repeated corners; the kept ones go to the other layer
    kept = 1 - layer
    n_kept = 0
    for k in range(n_corners):
        position = layer_row(corner, layer, k)
        distance = dot(reference_normal, position) - reference_offset
        if distance > thresholds.envelope:
            continue
        midway = along(position, -0.5 * distance, reference_normal)
        if n_kept > 0 and _distance(midway, layer_row(corner, kept, n_kept - 1)) <= merge_distance:
            continue
        for i in range(3):
            corner[kept, n_kept, i] = midway[i]
        line[kept, n_kept, 0] = line[layer, k, 0]
        line[kept, n_kept, 1] = line[layer, k, 1]
        depth[n_kept] = distance
        n_kept += 1
    if n_kept > 1 and _distance(layer_row(corner, kept, n_kept - 1), layer_row(corner, kept, 0)) <= merge_distance:
        n_kept -= 1
    n_kept = reduce_polygon(corner, line, depth, kept, n_kept, reference_normal, MAX_CONTACTS_PER_PAIR)

    # the clipped loop follows the incident face, clockwise about the reference normal;
    # write it counter-clockwise about the contact normal (from A to B)
    kind = _KIND_REFERENCE_ON_B if reference_on_b else _KIND_REFERENCE_ON_A
    sign = -1.0 if reference_on_b else 1.0
    reference_local = reference_face - geometry.face_start[reference_body]
    incident_local = inc_face - geometry.face_start[incident_body]
    for k in range(n_kept):
        source = k if reference_on_b else n_kept - 1 - k
        for i in range(3):
            point[slot + k, i] = corner[kept, source, i]
            normal[slot + k, i] = sign * reference_normal[i]
        gap[slot + k] = depth[source]
        feature_id[slot + k] = encode_feature(kind, reference_local, incident_local,
                                              line[kept, source, 0] << _LINE_BITS | line[kept, source, 1])
    return n_kept


@njit(cache=True)
def _distance(u, w):
    difference = subtract(u, w)
    return np.sqrt(dot(difference, difference))


@njit(cache=True, inline="always")
def reduce_polygon(corner, line, depth, layer, n_corners, plane_normal, max_corners):
    """Drop corners of a convex polygon (a layer of the clip workspace) until `max_corners`
    remain; returns the new count.

    Each time the corner c whose removal loses the least area goes: the triangle with its
    neighbours p and n, of area |((c - p) x (n - c)) . normal| / 2.
    """
    while n_corners > max_corners:
        smallest_loss = np.inf
        drop = 0
        for k in range(n_corners):
            position = layer_row(corner, layer, k)
            to_corner = subtract(position, layer_row(corner, layer, (k - 1) % n_corners))
            from_corner = subtract(layer_row(corner, layer, (k + 1) % n_corners), position)
            loss = abs(dot(cross(to_corner, from_corner), plane_normal))
            if loss < smallest_loss:
                smallest_loss = loss
                drop = k
        for k in range(drop, n_corners - 1):
            for i in range(3):
                corner[layer, k, i] = corner[layer, k + 1, i]
            line[layer, k, 0] = line[layer, k + 1, 0]
            line[layer, k, 1] = line[layer, k + 1, 1]
            depth[k] = depth[k + 1]
        n_corners -= 1
    return n_corners
