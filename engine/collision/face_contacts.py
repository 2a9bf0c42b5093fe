"""Face contacts (seed 000 sec. 2.2, 2.5): step 2 of the narrow phase, the contact patch of two faces.

When the separating-axis test chooses a face axis, the incident face (most anti-parallel to the
reference face) is clipped against the side planes of the reference face (Sutherland-Hodgman);
the clipped corners within the envelope of the reference plane are the contacts, in polygon
order: for coplanar faces they are the corners of the joint polygon. Corners closer than
TOL.contact_merge_relative times the smaller block's diameter are one; more than
``MAX_CONTACTS_PER_PAIR`` corners are reduced keeping the largest area. A clipped incident face
without area (``faces_only_abut``: blocks that share only an edge) gives no contact.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from extrados.engine.collision.feature_id import KIND_REFERENCE_ON_B, LINE_BITS, SIDE_LINE, encode_feature
from extrados.engine.collision.vectors import along, cross, distance, dot, row, scaled, subtract

#: Contacts kept per pair (seed 000 sec. 2.5 keeps those that maximize the patch).
MAX_CONTACTS_PER_PAIR = 8

#: Polygon buffers of the clipping, two layers that the clipping ping-pongs between.
ClipWorkspace = namedtuple("ClipWorkspace", [
    "corner",  # (2, capacity, 3) float64, corner positions of the polygon in each layer
    "line",    # (2, capacity, 2) int64, the polygon lines meeting at each corner: in (from the previous), out
    "depth",   # (capacity,) float64, distance of each kept corner from the reference plane
])


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
    ClipWorkspace
        Buffers of capacity 2 max_corners + 1 corners.
    """
    capacity = 2 * max_corners + 1
    return ClipWorkspace(np.empty((2, capacity, 3)), np.empty((2, capacity, 2), np.int64), np.empty(capacity))


@njit(cache=True, inline="always")
def face_contacts(geometry, thresholds, a, b, feature, workspace, contacts, slot):
    """Step 2: clip the incident face against the reference face; write the kept corners from ``slot`` on.

    ``feature`` is (KIND_REFERENCE_ON_A or KIND_REFERENCE_ON_B, the global reference face, -1); the
    other arguments are those of ``narrow_phase.feature_contacts``. Returns the number of contacts
    written (at most MAX_CONTACTS_PER_PAIR).
    """
    kind, reference_face, _ = feature
    reference_on_b = kind == KIND_REFERENCE_ON_B
    reference_body = b if reference_on_b else a
    incident_body = a if reference_on_b else b
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
        n_corners = clip_by_plane(workspace, layer, n_corners, side_normal, dot(side_normal, start), SIDE_LINE + j,
                                  merge_distance)
        layer = 1 - layer
    if faces_only_abut(workspace, layer, n_corners, reference_normal, merge_distance):
        return 0

    # keep the corners within the envelope of the reference plane, moved midway to their
    # projection on it, dropping repeated corners; the kept ones go to the other layer
    kept = 1 - layer
    n_kept = 0
    for k in range(n_corners):
        position = layer_row(corner, layer, k)
        height = dot(reference_normal, position) - reference_offset  # above the reference plane
        if height > thresholds.envelope:
            continue
        midway = along(position, -0.5 * height, reference_normal)
        if n_kept > 0 and distance(midway, layer_row(corner, kept, n_kept - 1)) <= merge_distance:
            continue
        for i in range(3):
            corner[kept, n_kept, i] = midway[i]
        line[kept, n_kept, 0] = line[layer, k, 0]
        line[kept, n_kept, 1] = line[layer, k, 1]
        depth[n_kept] = height
        n_kept += 1
    if n_kept > 1 and distance(layer_row(corner, kept, n_kept - 1), layer_row(corner, kept, 0)) <= merge_distance:
        n_kept -= 1
    n_kept = reduce_polygon(workspace, kept, n_kept, reference_normal, MAX_CONTACTS_PER_PAIR)

    # the clipped loop follows the incident face, clockwise about the reference normal;
    # write it counter-clockwise about the contact normal (from A to B)
    sign = -1.0 if reference_on_b else 1.0
    reference_local = reference_face - geometry.face_start[reference_body]
    incident_local = inc_face - geometry.face_start[incident_body]
    for k in range(n_kept):
        source = k if reference_on_b else n_kept - 1 - k
        for i in range(3):
            contacts.point[slot + k, i] = corner[kept, source, i]
            contacts.normal[slot + k, i] = sign * reference_normal[i]
        contacts.gap[slot + k] = depth[source]
        contacts.feature_id[slot + k] = encode_feature(kind, reference_local, incident_local,
                                                       line[kept, source, 0] << LINE_BITS | line[kept, source, 1])
    return n_kept


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


@njit(cache=True, inline="always")
def faces_only_abut(workspace, layer, n_corners, reference_normal, merge_distance):
    """Does the incident face, clipped by the reference face's side planes, leave no area (a sliver)?

    Then the blocks meet only on the boundary of the reference face: along an edge of both, as
    diagonal neighbours in a grid of blocks do (aligned courses, a dome's aligned hoops), or at a
    corner. Such a touch has no joint to carry a force through and no defined normal (every direction
    between the two blocks' face normals is one): it makes no contact. Masonry joints are faces, as in
    rigid-block equilibrium (RBE) and LMGC90; sharp edges that cross at an angle still meet through the
    edge axis (engine.collision.edge_contacts), and a block tilted on another's edge (rocking) keeps its
    line contact, its face lying over the other's. A sliver is thinner than the merge distance: twice
    its area is at most the merge distance times its perimeter.
    """
    if n_corners < 3:
        return True
    corner = workspace.corner
    first = layer_row(corner, layer, 0)
    twice_area = 0.0
    perimeter = 0.0
    for k in range(n_corners):
        here = layer_row(corner, layer, k)
        following = layer_row(corner, layer, (k + 1) % n_corners)
        twice_area += dot(cross(subtract(here, first), subtract(following, first)), reference_normal)
        perimeter += distance(here, following)
    return abs(twice_area) <= merge_distance * perimeter


@njit(cache=True)
def face_corner(geometry, body, face, k):
    """World position (3-tuple) of corner k, in loop order, of a face of `body`."""
    return row(geometry.vertex,
               geometry.vertex_start[body] + geometry.face_vertex[geometry.face_vertex_start[face] + k])


@njit(cache=True)
def layer_row(corner, layer, k):
    """Corner k of a layer of the clip workspace, as a 3-tuple."""
    return (corner[layer, k, 0], corner[layer, k, 1], corner[layer, k, 2])


@njit(cache=True, inline="always")
def clip_by_plane(workspace, source, n_source, plane_normal, plane_offset, plane_line, tolerance):
    """Keep the part of a convex polygon where n . x - d <= tolerance (Sutherland-Hodgman).

    The polygon is layer ``source`` of the workspace (clip_workspace); the clipped one is
    written to the other layer. Each corner carries the two polygon lines meeting there
    (in: from the previous corner, out: to the next); a corner made on the clip plane takes
    `plane_line` as one of them. Returns the number of corners written.
    """
    corner = workspace.corner
    line = workspace.line
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
def reduce_polygon(workspace, layer, n_corners, plane_normal, max_corners):
    """Drop corners of a convex polygon (a layer of the clip workspace) until `max_corners`
    remain; returns the new count.

    Each time the corner c whose removal loses the least area goes: the triangle with its
    neighbours p and n, of area |((c - p) x (n - c)) . normal| / 2.
    """
    corner, line, depth = workspace
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
