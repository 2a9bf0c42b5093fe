"""Narrow phase: contact points between pairs of convex polyhedra (seed 000 sec. 2.2, 2.5).

For each candidate pair (A, B), all in the world frame:

0. Bounding spheres further apart than the envelope: no contact. A touching pair whose
   relative pose has barely moved since its last separating-axis test reuses the feature
   that test chose and goes to step 2 or 3 (engine.collision.coherence, step 2).
1. Separating-axis test over the face normals of A, of B, and the cross products of
   edge pairs that form a face of the Minkowski difference (engine.collision.separating_axis).
   The axis of largest separation wins, with face axes preferred over edge axes
   (TOL.sat_face_bias) and A's faces over B's (TOL.sat_reference_bias). Above the envelope:
   no contact.
2. Face axis: the incident face is clipped against the side planes of the reference face;
   the clipped corners within the envelope of the reference plane are the contacts, at most
   ``MAX_CONTACTS_PER_PAIR`` (engine.collision.face_contacts). A clipped face with no area
   (the blocks share only an edge or a corner on the reference face's boundary) gives none.
3. Edge axis: one contact midway between the closest points of the two edges
   (engine.collision.edge_contacts).
4. Each contact carries a feature id that survives small motions, for warm starting
   (engine.collision.feature_id).

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
from extrados.engine.collision.edge_contacts import edge_contact
from extrados.engine.collision.face_contacts import (MAX_CONTACTS_PER_PAIR, clip_workspace, face_contacts,
                                                     max_face_corners)
from extrados.engine.collision.feature_id import KIND_EDGE_EDGE, SEPARATED
from extrados.engine.collision.separating_axis import is_feature, separating_feature
from extrados.engine.collision.vectors import dot, row, subtract
from extrados.engine.tolerance import TOL

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


#: Contact buffers the per-pair kernels write into, sized for MAX_CONTACTS_PER_PAIR contacts per pair.
ContactBuffers = namedtuple("ContactBuffers", [
    "point",       # (capacity, 3) float64, midway between the two surfaces, world (m)
    "normal",      # (capacity, 3) float64, unit normal from A to B
    "gap",         # (capacity,) float64, signed distance (m), negative when penetrating
    "feature_id",  # (capacity,) int64, engine.collision.feature_id
])


def posed_geometry(packed, posed):
    """The Geometry bundle of packed polyhedra at the pose of ``posed`` (PosedPolyhedra)."""
    return Geometry(posed.vertex, packed.vertex_start, posed.face_normal, posed.face_offset, packed.face_start,
                    packed.face_vertex, packed.face_vertex_start, packed.edge_vertex, packed.edge_face,
                    packed.edge_start, posed.centre, posed.orientation, packed.radius)


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
    geometry = posed_geometry(packed, posed)
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
    contacts = ContactBuffers(np.empty((capacity, 3)), np.empty((capacity, 3)), np.empty(capacity),
                              np.empty(capacity, np.int64))
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
                      and is_feature(geometry, thresholds, a, b, (kind, first, second)))
        if reused:
            for i in range(POSE_SIZE):
                known_pose[n_known, i] = kept.pose[cursor, i]
        else:
            # step 1
            kind, first, second = separating_feature(geometry, thresholds, a, b)
            if kind == SEPARATED:
                continue
            for i in range(POSE_SIZE):
                known_pose[n_known, i] = current[i]
        known_key[n_known] = key
        known_feature[n_known, 0] = kind
        known_feature[n_known, 1] = first
        known_feature[n_known, 2] = second
        n_known += 1
        count = feature_contacts(geometry, thresholds, a, b, (kind, first, second), workspace, contacts, n_contacts)
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
    return (body_a[:n_contacts], body_b[:n_contacts], contacts.point[:n_contacts], contacts.normal[:n_contacts],
            contacts.gap[:n_contacts], contacts.feature_id[:n_contacts], pair[:n_contacts], pair_start[:n_touching + 1],
            known_key[:n_known], known_feature[:n_known], known_pose[:n_known])


@njit(cache=True, inline="always")
def feature_contacts(geometry, thresholds, a, b, feature, workspace, contacts, slot):
    """Steps 2-3: the contacts of the feature the test chose for blocks a and b.

    Parameters
    ----------
    geometry : Geometry
        World geometry of the blocks.
    thresholds : Thresholds
        Lengths and biases of the call.
    a, b : int
        The blocks.
    feature : (kind, first, second) of int
        The feature (``engine.collision.feature_id``): a reference face or a pair of edges.
    workspace : ClipWorkspace
        Scratch polygons of the clipping (``engine.collision.face_contacts``).
    contacts : ContactBuffers
        Receives the contacts from index ``slot`` on.
    slot : int
        Index of the first contact to write.

    Returns
    -------
    int
        The number of contacts written.
    """
    if feature[0] == KIND_EDGE_EDGE:
        return edge_contact(geometry, thresholds, a, b, feature, contacts, slot)
    return face_contacts(geometry, thresholds, a, b, feature, workspace, contacts, slot)
