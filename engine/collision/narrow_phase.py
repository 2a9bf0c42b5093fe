"""Narrow phase: contact points between pairs of convex polyhedra (seed 000 sec. 2.2, 2.5).

For each candidate pair (A, B), all in the world frame:

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
"""
from collections import namedtuple

import numpy as np
from numba import njit

from engine.tolerance import TOL

#: Contacts kept per pair (seed 000 sec. 2.5 keeps those that maximize the patch).
MAX_CONTACTS_PER_PAIR = 8

# Feature id layout, high to low bits: kind (2) | first index (16) | second index (16) | corner (24).
# Face contacts: kind 0/1 = reference face on A/B, first = reference face, second = incident
# face (local indices), corner = (line in) << 12 | (line out), the two polygon lines meeting
# at the corner: incident edge k is line k, side j of the reference face is line _SIDE_LINE + j.
# Edge contacts: kind 2, first/second = local edges of A/B, corner 0.
_KIND_REFERENCE_ON_A = 0
_KIND_REFERENCE_ON_B = 1
_KIND_EDGE_EDGE = 2
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
])


def narrow_phase(packed, posed, pairs, envelope):
    """Contacts of all candidate pairs.

    Parameters
    ----------
    packed : PackedPolyhedra
    posed : PosedPolyhedra
        World geometry of the same blocks.
    pairs : (n_pairs, 2) int64
        Candidate pairs (A, B).
    envelope : float
        Largest gap (m) that still makes a contact.

    Returns
    -------
    contact_pair : (n_contacts,) int64
        Row of `pairs` each contact belongs to, non-decreasing.
    point : (n_contacts, 3) float64
        Midway between the two surfaces, world frame (m).
    normal : (n_contacts, 3) float64
        Unit normal from A to B.
    gap : (n_contacts,) float64
        Signed distance (m), negative when penetrating.
    feature_id : (n_contacts,) int64
        Persistent id of the features that produced the contact, unique within a pair.
    """
    geometry = Geometry(posed.vertex, packed.vertex_start, posed.face_normal, posed.face_offset, packed.face_start,
                        packed.face_vertex, packed.face_vertex_start, packed.edge_vertex, packed.edge_face,
                        packed.edge_start, posed.centre, packed.radius)
    thresholds = Thresholds(float(envelope), TOL.sat_face_bias, TOL.sat_reference_bias,
                            1.0 - TOL.parallel_cosine ** 2, TOL.length, TOL.contact_merge_relative)
    return collide_pairs(geometry, thresholds, np.ascontiguousarray(pairs, dtype=np.int64))


@njit(cache=True)
def collide_pairs(geometry, thresholds, pairs):
    """Narrow phase over all pairs: fill up to MAX_CONTACTS_PER_PAIR slots each, then compact."""
    n_pairs = len(pairs)
    slots = n_pairs * MAX_CONTACTS_PER_PAIR
    point = np.empty((slots, 3))
    normal = np.empty((slots, 3))
    gap = np.empty(slots)
    feature_id = np.empty(slots, np.int64)
    count = np.zeros(n_pairs, np.int64)
    workspace = clip_workspace(max_face_corners(geometry.face_vertex_start))
    for k in range(n_pairs):
        count[k] = collide_polyhedron_polyhedron(geometry, thresholds, pairs[k, 0], pairs[k, 1], workspace,
                                                 k * MAX_CONTACTS_PER_PAIR, point, normal, gap, feature_id)
    return compact_slots(count, point, normal, gap, feature_id)


@njit(cache=True)
def max_face_corners(face_vertex_start):
    """Largest number of corners of any face."""
    largest = 0
    for f in range(len(face_vertex_start) - 1):
        largest = max(largest, face_vertex_start[f + 1] - face_vertex_start[f])
    return largest


@njit(cache=True)
def clip_workspace(max_corners):
    """Two polygon buffers (points, line in, line out) for Sutherland-Hodgman ping-pong.

    Clipping a convex n-gon by m half-planes leaves at most n + m corners.
    """
    capacity = 2 * max_corners + 1
    return (np.empty((capacity, 3)), np.empty(capacity, np.int64), np.empty(capacity, np.int64),
            np.empty((capacity, 3)), np.empty(capacity, np.int64), np.empty(capacity, np.int64),
            np.empty(capacity))


@njit(cache=True)
def compact_slots(count, slot_point, slot_normal, slot_gap, slot_feature):
    """Move the used slots of each pair together, keeping pair order."""
    n_contacts = count.sum()
    contact_pair = np.empty(n_contacts, np.int64)
    point = np.empty((n_contacts, 3))
    normal = np.empty((n_contacts, 3))
    gap = np.empty(n_contacts)
    feature_id = np.empty(n_contacts, np.int64)
    c = 0
    for k in range(len(count)):
        for s in range(k * MAX_CONTACTS_PER_PAIR, k * MAX_CONTACTS_PER_PAIR + count[k]):
            contact_pair[c] = k
            point[c] = slot_point[s]
            normal[c] = slot_normal[s]
            gap[c] = slot_gap[s]
            feature_id[c] = slot_feature[s]
            c += 1
    return contact_pair, point, normal, gap, feature_id


@njit(cache=True)
def collide_polyhedron_polyhedron(geometry, thresholds, a, b, workspace, slot, point, normal, gap, feature_id):
    """Contacts between convex blocks a and b, written from `slot` on; returns their number."""
    envelope = thresholds.envelope
    # bounding spheres further apart than the envelope cannot touch
    offset = subtract(row(geometry.centre, b), row(geometry.centre, a))
    distance = np.sqrt(dot(offset, offset))
    if distance > geometry.radius[a] + geometry.radius[b] + envelope:
        return 0
    # step 1: separating axes
    separation_a, face_a = face_query(geometry, a, b, envelope)
    if separation_a > envelope:
        return 0
    separation_b, face_b = face_query(geometry, b, a, envelope)
    if separation_b > envelope:
        return 0
    separation_e, edge_a, edge_b, axis = edge_query(geometry, a, b, thresholds.parallel_sine_squared, envelope)
    if separation_e > envelope:
        return 0
    best_face_separation = max(separation_a, separation_b)
    if separation_e > best_face_separation + thresholds.face_bias:
        # step 3
        return edge_contact(geometry, a, b, edge_a, edge_b, axis, separation_e, slot, point, normal, gap, feature_id)
    # step 2
    if separation_b > separation_a + thresholds.reference_bias:
        return face_contacts(geometry, thresholds, b, a, face_b, True, workspace, slot, point, normal, gap, feature_id)
    return face_contacts(geometry, thresholds, a, b, face_a, False, workspace, slot, point, normal, gap, feature_id)


@njit(cache=True)
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


@njit(cache=True)
def edge_query(geometry, a, b, parallel_sine_squared, envelope):
    """Largest separation along cross products of edge pairs of a and b.

    For an edge pair spanning a Minkowski face, the axis L = e_a x e_b / |e_a x e_b| is
    oriented away from A's origin, and the separation is L . (p_b - p_a) for points p_a,
    p_b on the two edges. Near-parallel edges (|e_a x e_b| below the parallel tolerance)
    are skipped: a face axis covers them.

    Returns
    -------
    separation : float
        -inf when no edge pair qualifies.
    edge_a, edge_b : int
        Global edge indices.
    axis : 3-tuple of float
        Unit axis from A to B.
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
    best_axis = (0.0, 0.0, 0.0)
    for ea in range(geometry.edge_start[a], geometry.edge_start[a + 1]):
        pa = row(vertex, va0 + edge_vertex[ea, 0])
        direction_a = subtract(row(vertex, va0 + edge_vertex[ea, 1]), pa)
        normal_a0 = row(face_normal, fa0 + edge_face[ea, 0])
        normal_a1 = row(face_normal, fa0 + edge_face[ea, 1])
        length_a_squared = dot(direction_a, direction_a)
        for eb in range(geometry.edge_start[b], geometry.edge_start[b + 1]):
            minus_normal_b0 = scaled(-1.0, row(face_normal, fb0 + edge_face[eb, 0]))
            minus_normal_b1 = scaled(-1.0, row(face_normal, fb0 + edge_face[eb, 1]))
            if not is_minkowski_face(normal_a0, normal_a1, minus_normal_b0, minus_normal_b1):
                continue
            pb = row(vertex, vb0 + edge_vertex[eb, 0])
            direction_b = subtract(row(vertex, vb0 + edge_vertex[eb, 1]), pb)
            axis = cross(direction_a, direction_b)
            axis_length_squared = dot(axis, axis)
            if axis_length_squared <= parallel_sine_squared * length_a_squared * dot(direction_b, direction_b):
                continue
            scale = 1.0 / np.sqrt(axis_length_squared)
            if dot(axis, subtract(pa, centre_a)) < 0.0:
                scale = -scale
            axis = scaled(scale, axis)
            separation = dot(axis, subtract(pb, pa))
            if separation > best_separation:
                best_separation = separation
                best_edge_a = ea
                best_edge_b = eb
                best_axis = axis
                if separation > envelope:
                    return best_separation, best_edge_a, best_edge_b, best_axis
    return best_separation, best_edge_a, best_edge_b, best_axis


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


@njit(cache=True)
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


@njit(cache=True)
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
def clip_by_plane(source, source_in, source_out, n_source, plane_normal, plane_offset, line, tolerance,
                  target, target_in, target_out):
    """Keep the part of a convex polygon where n . x - d <= tolerance (Sutherland-Hodgman).

    Each corner carries the two polygon lines meeting there (in: from the previous corner,
    out: to the next); a corner made on the clip plane takes `line` as one of them.
    Returns the number of corners written to target.
    """
    if n_source == 0:
        return 0
    n_target = 0
    previous = n_source - 1
    distance_previous = dot(plane_normal, row(source, previous)) - plane_offset
    for current in range(n_source):
        distance_current = dot(plane_normal, row(source, current)) - plane_offset
        inside_previous = distance_previous <= tolerance
        inside_current = distance_current <= tolerance
        if inside_previous != inside_current:
            # the edge previous -> current, on line source_out[previous], crosses the plane
            t = min(max(distance_previous / (distance_previous - distance_current), 0.0), 1.0)
            for i in range(3):
                target[n_target, i] = source[previous, i] + t * (source[current, i] - source[previous, i])
            target_in[n_target] = line if inside_current else source_out[previous]
            target_out[n_target] = source_out[previous] if inside_current else line
            n_target += 1
        if inside_current:
            for i in range(3):
                target[n_target, i] = source[current, i]
            target_in[n_target] = source_in[current]
            target_out[n_target] = source_out[current]
            n_target += 1
        previous = current
        distance_previous = distance_current
    return n_target


@njit(cache=True)
def face_contacts(geometry, thresholds, reference_body, incident_body, reference_face, reference_on_b, workspace,
                  slot, point, normal, gap, feature_id):
    """Step 2: clip the incident face against the reference face; write the kept corners.

    Returns the number of contacts written (at most MAX_CONTACTS_PER_PAIR).
    """
    polygon, polygon_in, polygon_out, clipped, clipped_in, clipped_out, depth = workspace
    reference_normal = row(geometry.face_normal, reference_face)
    reference_offset = geometry.face_offset[reference_face]
    # corners closer than this are one; also the slack of the side-plane clipping, so that a
    # corner of nearly coincident faces stays one corner with one feature id
    merge_distance = thresholds.merge_absolute + thresholds.merge_relative * 2.0 * min(
        geometry.radius[reference_body], geometry.radius[incident_body])

    # the incident polygon; incident edge k, from corner k to corner k + 1, is line k
    inc_face = incident_face(geometry, incident_body, reference_normal)
    n_incident = geometry.face_vertex_start[inc_face + 1] - geometry.face_vertex_start[inc_face]
    for k in range(n_incident):
        corner = face_corner(geometry, incident_body, inc_face, k)
        for i in range(3):
            polygon[k, i] = corner[i]
        polygon_in[k] = (k - 1) % n_incident
        polygon_out[k] = k
    n_corners = n_incident

    # clip by the side planes of the reference face: side j runs from corner j to j + 1,
    # and (c_j+1 - c_j) x n is its outward side normal for a loop CCW about n
    n_reference = geometry.face_vertex_start[reference_face + 1] - geometry.face_vertex_start[reference_face]
    for j in range(n_reference):
        corner = face_corner(geometry, reference_body, reference_face, j)
        following = face_corner(geometry, reference_body, reference_face, (j + 1) % n_reference)
        side_normal = cross(subtract(following, corner), reference_normal)
        side_normal = scaled(1.0 / np.sqrt(dot(side_normal, side_normal)), side_normal)
        n_corners = clip_by_plane(polygon, polygon_in, polygon_out, n_corners, side_normal,
                                  dot(side_normal, corner), _SIDE_LINE + j, merge_distance,
                                  clipped, clipped_in, clipped_out)
        polygon, clipped = clipped, polygon
        polygon_in, clipped_in = clipped_in, polygon_in
        polygon_out, clipped_out = clipped_out, polygon_out

    # keep the corners within the envelope of the reference plane, moved midway to their
    # projection on it, dropping repeated corners
    n_kept = 0
    for k in range(n_corners):
        distance = dot(reference_normal, row(polygon, k)) - reference_offset
        if distance > thresholds.envelope:
            continue
        midway = along(row(polygon, k), -0.5 * distance, reference_normal)
        if n_kept > 0 and _distance(midway, row(polygon, n_kept - 1)) <= merge_distance:
            continue
        for i in range(3):
            polygon[n_kept, i] = midway[i]
        polygon_in[n_kept] = polygon_in[k]
        polygon_out[n_kept] = polygon_out[k]
        depth[n_kept] = distance
        n_kept += 1
    if n_kept > 1 and _distance(row(polygon, n_kept - 1), row(polygon, 0)) <= merge_distance:
        n_kept -= 1
    n_kept = reduce_polygon(polygon, polygon_in, polygon_out, depth, n_kept, reference_normal,
                            MAX_CONTACTS_PER_PAIR)

    # the clipped loop follows the incident face, clockwise about the reference normal;
    # write it counter-clockwise about the contact normal (from A to B)
    kind = _KIND_REFERENCE_ON_B if reference_on_b else _KIND_REFERENCE_ON_A
    sign = -1.0 if reference_on_b else 1.0
    reference_local = reference_face - geometry.face_start[reference_body]
    incident_local = inc_face - geometry.face_start[incident_body]
    for k in range(n_kept):
        source = k if reference_on_b else n_kept - 1 - k
        for i in range(3):
            point[slot + k, i] = polygon[source, i]
            normal[slot + k, i] = sign * reference_normal[i]
        gap[slot + k] = depth[source]
        feature_id[slot + k] = encode_feature(kind, reference_local, incident_local,
                                              polygon_in[source] << _LINE_BITS | polygon_out[source])
    return n_kept


@njit(cache=True)
def _distance(u, w):
    difference = subtract(u, w)
    return np.sqrt(dot(difference, difference))


@njit(cache=True)
def reduce_polygon(polygon, polygon_in, polygon_out, depth, n_corners, plane_normal, max_corners):
    """Drop corners of a convex polygon until `max_corners` remain; returns the new count.

    Each time the corner c whose removal loses the least area goes: the triangle with its
    neighbours p and n, of area |((c - p) x (n - c)) . normal| / 2.
    """
    while n_corners > max_corners:
        smallest_loss = np.inf
        drop = 0
        for k in range(n_corners):
            corner = row(polygon, k)
            to_corner = subtract(corner, row(polygon, (k - 1) % n_corners))
            from_corner = subtract(row(polygon, (k + 1) % n_corners), corner)
            loss = abs(dot(cross(to_corner, from_corner), plane_normal))
            if loss < smallest_loss:
                smallest_loss = loss
                drop = k
        for k in range(drop, n_corners - 1):
            for i in range(3):
                polygon[k, i] = polygon[k + 1, i]
            polygon_in[k] = polygon_in[k + 1]
            polygon_out[k] = polygon_out[k + 1]
            depth[k] = depth[k + 1]
        n_corners -= 1
    return n_corners
