"""Winkler contact patches (seed 003 sec. 2.2): the no-tension elastic layer between two faces.

A compliant joint presses with p = k_n d, k_n the normal stiffness (N/m^3, pressure per unit
closure) and d the penetration of the incident face below the reference plane, and pulls never.
For each touching pair of a detection (engine.collision.detect.Contacts):

1. The faces: the reference and incident face of the pair's first feature id (``pair_faces``).
2. The patch P: the incident face polygon (world frame), clipped by the side planes of the
   reference face and then by the reference plane itself, keeping the part below it
   (h(x) = n . x - offset < 0). P is convex and d = -h is linear over it.
3. Its moments A = int_P dA, T1 = int_P y dA, T2 = int_P y y^T dA, exact by a triangle fan
   (y = x - p, p the first corner of P): per triangle of area A_t and corners y_j,
   int y = A_t/3 sum_j y_j and int y y^T = A_t/12 [sum_j y_j y_j^T + (sum_j y_j)(sum_j y_j)^T].
4. The wrenches: F_I = k_n (int_P d dA) n on the incident body, applied over P, -F_I on the
   reference body, with torques about each block's centre of mass (``pair_wrench``).
5. Their tangent with respect to small world displacements and rotations of both blocks,
   exact: the closure's variation over P plus the motion of P's edges on the side planes.

An edge-edge pair (no face) is a point spring where the edges cross: a patch of area a_e there,
pressed by their overlap along their common normal, recomputed at each pose as the narrow phase
does; its tangent is that of a point carried by B against a plane turning with A (it neglects
the turning of the edges' common normal with B).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from extrados.engine.collision.edge_contacts import closest_points_of_edges
from extrados.engine.collision.face_contacts import clip_by_plane, clip_workspace, face_corner, max_face_corners
from extrados.engine.collision.feature_id import KIND_EDGE_EDGE, KIND_REFERENCE_ON_B, SIDE_LINE, decode_features
from extrados.engine.collision.narrow_phase import posed_geometry
from extrados.engine.collision.separating_axis import edge_pair_axis
from extrados.engine.collision.vectors import along, cross, dot, row, scaled, subtract
from extrados.engine.tolerance import TOL

#: Edge-edge springs: a_e = (EDGE_SPRING_FRACTION * smaller bounding radius)^2, the area of a
#: Winkler patch that only keeps crossing edges from interpenetrating (masonry joints are faces):
#: a_e = r^2 / 400, a few per mille of a face of the block: soft next to any face joint.
EDGE_SPRING_FRACTION = 0.05

#: Simpson's weights at the start, middle and end of a segment, per unit length.
SIMPSON = (1.0 / 6.0, 4.0 / 6.0, 1.0 / 6.0)

#: The faces of each touching pair, decoded from its first contact (engine.collision.feature_id).
PairFaces = namedtuple("PairFaces", [
    "body_a",          # (n_pairs,) int64
    "body_b",          # (n_pairs,) int64
    "kind",            # (n_pairs,) int64, KIND_REFERENCE_ON_A / _ON_B / KIND_EDGE_EDGE
    "reference_face",  # (n_pairs,) int64, global face index into the packed polyhedra; -1 for edge-edge
    "incident_face",   # (n_pairs,) int64, global face index; -1 for edge-edge
    "edge_a",          # (n_pairs,) int64, global edge index of A's crossing edge; -1 for face pairs
    "edge_b",          # (n_pairs,) int64, global edge index of B's crossing edge; -1 for face pairs
])

#: Winkler forces of the touching pairs and their tangent.
WinklerPatches = namedtuple("WinklerPatches", [
    "force_a",          # (n_pairs, 3) float64, N, world, on A (B gets -force_a)
    "torque_a",         # (n_pairs, 3) float64, N m, on A about A's centre of mass
    "torque_b",         # (n_pairs, 3) float64, N m, on B about B's centre of mass
    "normal",           # (n_pairs, 3) float64, unit, from A to B (the reference face's normal, signed)
    "pressure_centre",  # (n_pairs, 3) float64, m, int d x / int d; the centroid of P without pressure,
                        # the mean corner of the joint polygon without P (apart); the point of an edge pair
    "area",             # (n_pairs,) float64, m^2, penetrated area of P (a_e for a penetrating edge pair)
    "normal_force",     # (n_pairs,) float64, N, k_n int_P d dA >= 0
    "penetration_max",  # (n_pairs,) float64, m, largest d over P (0 when apart)
    "stiffness",        # (n_pairs, 12, 12) float64: d(F_A, tau_A, F_B, tau_B) / d(dx_A, dtheta_A, dx_B, dtheta_B)
    "energy",           # (n_pairs,) float64, J, the layer's strain energy k_n/2 int_P d^2 dA
])

#: The moments of a patch about its origin p (step 3), and the penetration there.
PatchMoments = namedtuple("PatchMoments", [
    "origin",       # 3-tuple, m, world, p
    "area",         # m^2, A
    "first",        # 3-tuple, m^3, T1 = int y dA
    "second",       # (3, 3) float64, m^4, T2 = int y y^T dA
    "penetration",  # m, d(p)
    "deepest",      # m, largest d over the patch
    "n_side_edges",  # edges of P on the reference face's side planes, in SideEdges
])

#: The edges of a patch P that lie on side planes of the reference face (their motion moves P).
SideEdges = namedtuple("SideEdges", [
    "start",   # (capacity, 3) float64, m, y = x - p of the edge's first corner
    "end",     # (capacity, 3) float64, m, y of its second corner
    "weight",  # (capacity, 3) float64, 1/m: s / |s_t|, s the side plane's normal, s_t its part in the incident face
])


def pair_faces(contacts, packed):
    """The blocks and faces of each touching pair of a detection.

    Parameters
    ----------
    contacts : Contacts
        A detection (engine.collision.detect.detect_contacts).
    packed : PackedPolyhedra
        The blocks it was made of (for the global face indices).

    Returns
    -------
    PairFaces
        Reference and incident faces of face pairs (reference on A for KIND_REFERENCE_ON_A,
        on B for KIND_REFERENCE_ON_B); edge-edge pairs (KIND_EDGE_EDGE) have faces -1.
    """
    first = contacts.pair_start[:-1]
    body_a = contacts.body_a[first]
    body_b = contacts.body_b[first]
    kind, reference_local, incident_local = decode_features(contacts.feature_id[first])
    reference_body = np.where(kind == KIND_REFERENCE_ON_B, body_b, body_a)
    incident_body = np.where(kind == KIND_REFERENCE_ON_B, body_a, body_b)
    is_face = kind != KIND_EDGE_EDGE
    reference_face = np.where(is_face, packed.face_start[reference_body] + reference_local, -1)
    incident_face = np.where(is_face, packed.face_start[incident_body] + incident_local, -1)
    # an edge pair's feature holds the local edges of A and B where a face pair's holds its faces
    edge_a = np.where(is_face, -1, packed.edge_start[body_a] + reference_local)
    edge_b = np.where(is_face, -1, packed.edge_start[body_b] + incident_local)
    return PairFaces(body_a, body_b, kind, reference_face, incident_face, edge_a, edge_b)


def winkler_patches(packed, posed, faces, normal_stiffness):
    """Winkler forces of the touching pairs at a pose, and their tangent.

    Parameters
    ----------
    packed : PackedPolyhedra
    posed : PosedPolyhedra
        The blocks at the pose (engine.geometry.packed.pose_polyhedra).
    faces : PairFaces
        The pairs (``pair_faces`` of a detection; may come from an earlier pose).
    normal_stiffness : float or (n_pairs,) float64
        k_n of each pair's joint, N/m^3.

    Returns
    -------
    WinklerPatches
    """
    stiffness = np.ascontiguousarray(np.broadcast_to(np.asarray(normal_stiffness, float), faces.kind.shape))
    return winkler_kernel(posed_geometry(packed, posed), faces, stiffness, 1.0 - TOL.parallel_cosine ** 2)


@njit(cache=True)
def winkler_kernel(geometry, faces, normal_stiffness, parallel_sine_squared):
    """Steps 2-5 for all pairs (see the module docstring); returns WinklerPatches.

    ``parallel_sine_squared``: edges at a smaller angle's sine squared are parallel (TOL.parallel_cosine).
    """
    n_pairs = len(faces.kind)
    out = WinklerPatches(np.zeros((n_pairs, 3)), np.zeros((n_pairs, 3)), np.zeros((n_pairs, 3)),
                         np.empty((n_pairs, 3)), np.empty((n_pairs, 3)), np.zeros(n_pairs), np.zeros(n_pairs),
                         np.zeros(n_pairs), np.zeros((n_pairs, 12, 12)), np.zeros(n_pairs))
    workspace = clip_workspace(max_face_corners(geometry.face_vertex_start))
    capacity = workspace.corner.shape[1]
    side_edges = SideEdges(np.empty((capacity, 3)), np.empty((capacity, 3)), np.empty((capacity, 3)))
    for k in range(n_pairs):
        a = faces.body_a[k]
        b = faces.body_b[k]
        if faces.kind[k] == KIND_EDGE_EDGE:
            reference, incident = a, b
            reference_normal, moments = edge_moments(geometry, a, b, faces.edge_a[k], faces.edge_b[k],
                                                     parallel_sine_squared)
        else:
            reference_on_b = faces.kind[k] == KIND_REFERENCE_ON_B
            reference = b if reference_on_b else a
            incident = a if reference_on_b else b
            reference_normal = row(geometry.face_normal, faces.reference_face[k])
            moments = patch_moments(geometry, workspace, side_edges, reference, faces.reference_face[k], incident,
                                    faces.incident_face[k])
        for i in range(3):
            out.normal[k, i] = reference_normal[i] if reference == a else -reference_normal[i]
        pair_wrench(out, k, moments, side_edges, normal_stiffness[k], reference_normal,
                    row(geometry.centre, incident), row(geometry.centre, reference), reference == a)
    return out


@njit(cache=True)
def edge_moments(geometry, a, b, edge_a, edge_b, parallel_sine_squared):
    """The axis (A to B) of two crossing edges at the pose, and the moments of their point spring.

    As the narrow phase's edge contact (engine.collision.edge_contacts): the separation along
    the edges' common normal, at the point midway between their closest points; a patch of area
    a_e there while they penetrate (none when the edges no longer span a face of the Minkowski
    difference).
    """
    valid, separation, axis = edge_pair_axis(geometry, a, b, edge_a, edge_b, parallel_sine_squared)
    on_a, on_b = closest_points_of_edges(geometry, a, b, edge_a, edge_b)
    point = along(on_a, 0.5, subtract(on_b, on_a))
    zero = (0.0, 0.0, 0.0)
    if not valid or separation >= 0.0:
        return axis, PatchMoments(point, 0.0, zero, np.zeros((3, 3)), 0.0, 0.0, 0)
    spring_area = (EDGE_SPRING_FRACTION * min(geometry.radius[a], geometry.radius[b])) ** 2
    return axis, PatchMoments(point, spring_area, zero, np.zeros((3, 3)), -separation, -separation, 0)


@njit(cache=True)
def patch_moments(geometry, workspace, side_edges, reference, reference_face, incident, incident_face):
    """Steps 2-3: clip the incident face to the patch P below the reference face; its moments.

    Returns PatchMoments about the first corner of P (area 0 about the mean corner of the
    side-clipped incident face, the joint polygon, when nothing penetrates); the edges of P on
    the reference face's side planes go to ``side_edges``.
    """
    corner = workspace.corner
    normal = row(geometry.face_normal, reference_face)
    offset = geometry.face_offset[reference_face]
    n_corners = geometry.face_vertex_start[incident_face + 1] - geometry.face_vertex_start[incident_face]
    for j in range(n_corners):
        position = face_corner(geometry, incident, incident_face, j)
        for i in range(3):
            corner[0, j, i] = position[i]
        workspace.line[0, j, 0] = (j - 1) % n_corners
        workspace.line[0, j, 1] = j
    layer = 0
    # the side planes: side j runs from corner j to j + 1 of a loop CCW about the normal
    n_sides = geometry.face_vertex_start[reference_face + 1] - geometry.face_vertex_start[reference_face]
    for j in range(n_sides):
        start = face_corner(geometry, reference, reference_face, j)
        side_normal = cross(subtract(face_corner(geometry, reference, reference_face, (j + 1) % n_sides), start),
                            normal)
        n_corners = clip_by_plane(workspace, layer, n_corners, side_normal, dot(side_normal, start), SIDE_LINE + j,
                                  0.0)
        layer = 1 - layer
    joint_centre = (0.0, 0.0, 0.0)
    for j in range(n_corners):
        joint_centre = along(joint_centre, 1.0 / n_corners, (corner[layer, j, 0], corner[layer, j, 1],
                                                             corner[layer, j, 2]))
    # the reference plane: keep h = n . x - offset <= 0
    n_corners = clip_by_plane(workspace, layer, n_corners, normal, offset, SIDE_LINE + n_sides, 0.0)
    layer = 1 - layer
    if n_corners < 3:
        return PatchMoments(joint_centre, 0.0, (0.0, 0.0, 0.0), np.zeros((3, 3)), 0.0, 0.0, 0)
    origin = (corner[layer, 0, 0], corner[layer, 0, 1], corner[layer, 0, 2])
    area = 0.0
    first = np.zeros(3)
    second = np.zeros((3, 3))
    deepest = 0.0
    for j in range(n_corners):
        deepest = max(deepest, offset - (normal[0] * corner[layer, j, 0] + normal[1] * corner[layer, j, 1]
                                         + normal[2] * corner[layer, j, 2]))
    # the fan of triangles (p, y_j, y_j+1), p at y = 0
    for j in range(1, n_corners - 1):
        y1 = subtract((corner[layer, j, 0], corner[layer, j, 1], corner[layer, j, 2]), origin)
        y2 = subtract((corner[layer, j + 1, 0], corner[layer, j + 1, 1], corner[layer, j + 1, 2]), origin)
        twice = cross(y1, y2)
        triangle = 0.5 * np.sqrt(dot(twice, twice))
        area += triangle
        for r in range(3):
            first[r] += triangle / 3.0 * (y1[r] + y2[r])
            for c in range(3):
                second[r, c] += triangle / 12.0 * (y1[r] * y1[c] + y2[r] * y2[c]
                                                   + (y1[r] + y2[r]) * (y1[c] + y2[c]))
    n_side_edges = record_side_edges(geometry, workspace, layer, n_corners, side_edges, reference, reference_face,
                                     incident_face, origin)
    return PatchMoments(origin, area, (first[0], first[1], first[2]), second, offset - dot(normal, origin), deepest,
                        n_side_edges)


@njit(cache=True)
def record_side_edges(geometry, workspace, layer, n_corners, side_edges, reference, reference_face, incident_face,
                      origin):
    """Write the edges of P (layer ``layer`` of the workspace) that lie on side planes of the
    reference face to ``side_edges``, about ``origin``; returns their number.

    Edge j of P, from corner j to j + 1, lies on the line out of corner j (clip_by_plane).
    """
    normal = row(geometry.face_normal, reference_face)
    incident_normal = row(geometry.face_normal, incident_face)
    n_sides = geometry.face_vertex_start[reference_face + 1] - geometry.face_vertex_start[reference_face]
    count = 0
    for j in range(n_corners):
        side = workspace.line[layer, j, 1] - SIDE_LINE
        if side < 0 or side >= n_sides:
            continue
        start = face_corner(geometry, reference, reference_face, side)
        side_normal = cross(subtract(face_corner(geometry, reference, reference_face, (side + 1) % n_sides), start),
                            normal)
        in_face = along(side_normal, -dot(side_normal, incident_normal), incident_normal)
        weight = scaled(1.0 / dot(in_face, in_face) ** 0.5, side_normal)
        following = (j + 1) % n_corners
        for i in range(3):
            side_edges.start[count, i] = workspace.corner[layer, j, i] - origin[i]
            side_edges.end[count, i] = workspace.corner[layer, following, i] - origin[i]
            side_edges.weight[count, i] = weight[i]
        count += 1
    return count


@njit(cache=True)
def pair_wrench(out, k, moments, side_edges, normal_stiffness, normal, centre_incident, centre_reference,
                reference_is_a):
    """Steps 4-5: the wrenches of one pair from its patch moments, and their tangent, into row k of ``out``.

    With y = x - p over P, d(y) = d(p) - n . y, D0 = int d dA = d(p) A - n . T1 and
    D1 = int d y dA = d(p) T1 - T2 n; c_I, c_R the centres relative to p:

        F_I = k_n D0 n,  tau_I = k_n (D1 - c_I D0) x n,  F_R = -F_I,  tau_R = -k_n (D1 - c_R D0) x n.

    Tangent: at a material point x of the incident block the closure varies as
    dd(x) = -n . (du_I(x) - du_R(x)), du = dx + dtheta x (x - c), i.e. dd = a + b . y with
    a = -n . (dx_I - dx_R) + dtheta_I . (c_I x n) - dtheta_R . (c_R x n) and b = n x (dtheta_R - dtheta_I);
    the normal turns with the reference block, dn = dtheta_R x n, and the points of P move with
    the incident block. Then dD0 = a A + b . T1, dD1 = a T1 + T2 b + D0 dx_I + dtheta_I x (D1 - c_I D0)
    plus the terms of P's edges on the reference face's side planes, which move with the
    reference block (side_edge_terms), and F, tau vary through D0, D1, n and the centres. The
    boundary of P where d = 0 moves without changing the integrals (the integrand vanishes
    there); the incident face's own edges are material. The tangent is exact (up to the
    poses where P changes its number of edges).

    ``normal`` is n, the reference face's outward normal (into the incident block);
    ``reference_is_a`` places I and R in the (A, B) order of the outputs.
    """
    area, first, second, penetration = moments.area, moments.first, moments.second, moments.penetration
    origin = moments.origin
    c_incident = subtract(centre_incident, origin)
    c_reference = subtract(centre_reference, origin)
    if area > 0.0:
        force_sum = penetration * area - dot(normal, first)
        lever_sum = (penetration * first[0] - dot(row(second, 0), normal),
                     penetration * first[1] - dot(row(second, 1), normal),
                     penetration * first[2] - dot(row(second, 2), normal))
        # int d^2 dA = d(p)^2 A - 2 d(p) n . T1 + n . T2 n
        out.energy[k] = 0.5 * normal_stiffness * (penetration * force_sum - dot(normal, first) * penetration
                                                  + dot(normal, (dot(row(second, 0), normal),
                                                                 dot(row(second, 1), normal),
                                                                 dot(row(second, 2), normal))))
    else:
        force_sum = 0.0
        lever_sum = (0.0, 0.0, 0.0)
    out.area[k] = area
    out.normal_force[k] = normal_stiffness * force_sum
    out.penetration_max[k] = moments.deepest
    centre = scaled(1.0 / force_sum, lever_sum) if force_sum > 0.0 else (
        scaled(1.0 / area, first) if area > 0.0 else (0.0, 0.0, 0.0))
    # rows and columns of the 12 x 12 tangent: A's six, then B's (displacement then rotation)
    incident_slot = 6 if reference_is_a else 0
    reference_slot = 0 if reference_is_a else 6
    arm_incident = subtract(lever_sum, scaled(force_sum, c_incident))
    arm_reference = subtract(lever_sum, scaled(force_sum, c_reference))
    torque_incident = scaled(normal_stiffness, cross(arm_incident, normal))
    torque_reference = scaled(-normal_stiffness, cross(arm_reference, normal))
    for i in range(3):
        out.pressure_centre[k, i] = origin[i] + centre[i]
        out.force_a[k, i] = (-1.0 if reference_is_a else 1.0) * normal_stiffness * force_sum * normal[i]
        out.torque_a[k, i] = torque_reference[i] if reference_is_a else torque_incident[i]
        out.torque_b[k, i] = torque_incident[i] if reference_is_a else torque_reference[i]
    if area == 0.0:
        return
    # the tangent, one column (unit displacement of one coordinate) at a time
    for column in range(12):
        dx_i = unit_part(column, incident_slot)
        dtheta_i = unit_part(column, incident_slot + 3)
        dx_r = unit_part(column, reference_slot)
        dtheta_r = unit_part(column, reference_slot + 3)
        a = (-dot(normal, subtract(dx_i, dx_r)) + dot(dtheta_i, cross(c_incident, normal))
             - dot(dtheta_r, cross(c_reference, normal)))
        b = cross(normal, subtract(dtheta_r, dtheta_i))
        edge_force_sum, edge_lever_sum = side_edge_terms(moments, side_edges, normal, dx_i, dtheta_i, dx_r,
                                                         dtheta_r, c_incident, c_reference)
        d_force_sum = a * area + dot(b, first) + edge_force_sum
        d_lever_sum = (a * first[0] + dot(row(second, 0), b) + force_sum * dx_i[0] + edge_lever_sum[0],
                       a * first[1] + dot(row(second, 1), b) + force_sum * dx_i[1] + edge_lever_sum[1],
                       a * first[2] + dot(row(second, 2), b) + force_sum * dx_i[2] + edge_lever_sum[2])
        carried = cross(dtheta_i, arm_incident)
        d_lever_sum = (d_lever_sum[0] + carried[0], d_lever_sum[1] + carried[1], d_lever_sum[2] + carried[2])
        d_normal = cross(dtheta_r, normal)
        d_force = scaled(normal_stiffness, (d_force_sum * normal[0] + force_sum * d_normal[0],
                                            d_force_sum * normal[1] + force_sum * d_normal[1],
                                            d_force_sum * normal[2] + force_sum * d_normal[2]))
        d_torque_incident = torque_variation(normal_stiffness, normal, d_normal, d_lever_sum, force_sum,
                                             d_force_sum, dx_i, c_incident, arm_incident)
        d_torque_reference = torque_variation(-normal_stiffness, normal, d_normal, d_lever_sum, force_sum,
                                              d_force_sum, dx_r, c_reference, arm_reference)
        for i in range(3):
            out.stiffness[k, incident_slot + i, column] = d_force[i]
            out.stiffness[k, reference_slot + i, column] = -d_force[i]
            out.stiffness[k, incident_slot + 3 + i, column] = d_torque_incident[i]
            out.stiffness[k, reference_slot + 3 + i, column] = d_torque_reference[i]


@njit(cache=True)
def side_edge_terms(moments, side_edges, normal, dx_i, dtheta_i, dx_r, dtheta_r, c_incident, c_reference):
    """The terms of dD0 and dD1 from the motion of P's edges on the reference face's side planes.

    Side plane phi(x) = s . (x - c_j) <= 0 moves with the reference block: at a material point
    of the incident block d phi = s . dw, dw = du_I - du_R the relative displacement, so an edge
    moves out of P by s . dw / |s_t| and int_P f dA changes by -int_edge f (s . dw) / |s_t| ds,
    f = d or d y: products of up to three linear functions, exact by Simpson's rule.

    Returns
    -------
    float, 3-tuple
        The terms of dD0 (m^3) and of dD1 (m^4).
    """
    d_force_sum = 0.0
    d_lever_sum = (0.0, 0.0, 0.0)
    for e in range(moments.n_side_edges):
        start = row(side_edges.start, e)
        edge = subtract(row(side_edges.end, e), start)
        weight = row(side_edges.weight, e)
        for node in range(3):
            y = along(start, 0.5 * node, edge)
            closure = moments.penetration - dot(normal, y)
            relative = subtract(along(dx_i, 1.0, cross(dtheta_i, subtract(y, c_incident))),
                                along(dx_r, 1.0, cross(dtheta_r, subtract(y, c_reference))))
            rate = -SIMPSON[node] * dot(edge, edge) ** 0.5 * closure * dot(weight, relative)
            d_force_sum += rate
            d_lever_sum = along(d_lever_sum, rate, y)
    return d_force_sum, d_lever_sum


@njit(cache=True)
def unit_part(column, start):
    """Entries start .. start + 2 of the unit 12-vector e_column, as a 3-tuple."""
    return (1.0 if column == start else 0.0, 1.0 if column == start + 1 else 0.0, 1.0 if column == start + 2 else 0.0)


@njit(cache=True)
def torque_variation(scale, normal, d_normal, d_lever_sum, force_sum, d_force_sum, d_centre, centre, arm):
    """Variation of tau = scale (D1 - c D0) x n: scale [(dD1 - dc D0 - c dD0) x n + (D1 - c D0) x dn]."""
    d_arm = (d_lever_sum[0] - d_centre[0] * force_sum - centre[0] * d_force_sum,
             d_lever_sum[1] - d_centre[1] * force_sum - centre[1] * d_force_sum,
             d_lever_sum[2] - d_centre[2] * force_sum - centre[2] * d_force_sum)
    first = cross(d_arm, normal)
    second = cross(arm, d_normal)
    return scaled(scale, (first[0] + second[0], first[1] + second[1], first[2] + second[2]))
