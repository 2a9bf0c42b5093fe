"""Neighbouring blocks that overlap, found and trimmed back to a plane between them.

Faces fitted to noisy points and outlined by their hulls reach past the true joints by a few
standard deviations of the noise, so extruded neighbours overlap by millimetres; the engine refuses
overlaps (engine.analysis.static.check_no_overlap). Each overlap is reported, and trimmed unless the
user asks only for the report:

1. Candidate pairs: blocks whose bounding boxes overlap (engine.collision.broad_phase.sweep_and_prune).
2. Overlap test, the separating axis theorem: two convex polyhedra are disjoint exactly when their
   projections onto one of the face normals of either, or onto a cross product of an edge of each,
   do not overlap. The penetration along an axis n is min(max_A - min_B, max_B - min_A) of the
   projections n . x; the blocks overlap when it exceeds OVERLAP_RELATIVE times the smaller block's size
   along every axis.
3. The shared plane: the face normal of either block along which they penetrate least (the joint
   the survey missed), through the middle of the penetration, n . x = (max_A + min_B) / 2; a
   support is not trimmed, so the plane then lies on the support's face.
4. Each block keeps its side of the plane (`convex_block.clipped`). Reported: the volume the two
   shared before, the share of it each gave up, and the volume each lost (`Overlap`). A volume
   shared by convex blocks is the intersection of half-spaces (their faces', and the plane's for a
   share), computed by scipy.spatial.HalfspaceIntersection from the centre of the largest ball
   inside it (the Chebyshev centre, a linear program: max r subject to n_f . x + r <= d_f for every
   face f). A pair is trimmed in coordinates about A's mean vertex, so that face normals,
   volumes and qhull see the blocks' sizes, not their distance from the survey's origin.

Trimming only removes material, so a pair once separated stays separated when later pairs trim
either block again. A block that the cut would remove whole, or leave as a sliver with no volume,
lies (almost) inside its neighbour: a SurveyError names both.
"""
from typing import NamedTuple

import numpy as np
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, HalfspaceIntersection, QhullError

from extrados.engine.collision.broad_phase import sweep_and_prune
from extrados.engine.geometry.polyhedron import GeometryError, block_volume, face_centroids, face_loops, face_normals
from extrados.engine.survey.convex_block import block_edges, clipped
from extrados.engine.survey.stones import SurveyError

#: Blocks that penetrate by less than this times the smaller block's size only touch: the round-off
#: of a block trimmed to its neighbour's plane (1e-16 m) is far below it, a millimetre far above.
OVERLAP_RELATIVE = 1e-9
#: Edges of two blocks within this sine of parallel (0.08 degrees) span no separating axis of their
#: own: their cross product is all round-off, and the face normals already test that direction.
PARALLEL_SINE = 1.4e-3


#: What to check when trimming would leave nothing of a stone: how it came to lie inside its neighbour.
INSIDE_ADVICE = ("a stone surveyed twice (under two ids), or extruded too deep or to the wrong side? Check the "
                 "two stones' points, their depths and the station or viewpoint they were seen from")


class Overlap(NamedTuple):
    """Two blocks that overlapped, and what trimming took from each.

    The plane cut removes from A the slab of A beyond the shared plane, which holds A's share of
    the overlap and, when the plane does not follow the overlap's shape (a corner of B pushed into
    A's face, a tilted B), material of A that B never occupied. So trimmed_a_m3 >= given_a_m3, and
    trimmed_a_m3 - given_a_m3 is what A lost beyond the overlap: a block must stay convex, and the
    cut is flat. Trimmed, given_a_m3 + given_b_m3 = overlap_m3 (a support gives nothing: the stone
    gives the whole overlap). Each volume is 0 where no ball of OVERLAP_RELATIVE times the smaller
    block's size fits in it.
    """

    block_a: str
    block_b: str
    depth_m: float             # penetration along the shared plane's normal
    overlap_m3: float          # volume the two blocks shared
    trimmed_a_m3: float        # volume block A lost (0 when only reported, or A is a support)
    trimmed_b_m3: float
    given_a_m3: float          # of overlap_m3, the share A gave up to B (0 when only reported, or A is a support)
    given_b_m3: float


def unit_face_planes(vertices, faces):
    """(n_faces, 3) unit outward normals and (n_faces,) offsets n . x of a block's face planes."""
    loops = face_loops(faces)
    normal = face_normals(vertices, loops)
    normal = normal / np.linalg.norm(normal, axis=1)[:, None]
    return normal, np.einsum("fi,fi->f", normal, face_centroids(vertices, loops))


def edge_axes(vertices_a, faces_a, vertices_b, faces_b):
    """(n, 3) unit cross products of an edge of A and an edge of B, leaving out near-parallel edges."""
    directions = []
    for vertices, faces in ((vertices_a, faces_a), (vertices_b, faces_b)):
        edges = block_edges(faces)
        vector = vertices[edges[:, 1]] - vertices[edges[:, 0]]
        directions.append(vector / np.linalg.norm(vector, axis=1)[:, None])
    axes = np.cross(directions[0][:, None, :], directions[1][None, :, :]).reshape(-1, 3)
    length = np.linalg.norm(axes, axis=1)
    return axes[length > PARALLEL_SINE] / length[length > PARALLEL_SINE, None]


def penetrations(vertices_a, vertices_b, axes):
    """(n_axes,) m: how far A's and B's projections onto each unit axis overlap (negative: a gap),
    and (n_axes,) bool: B lies on the positive side of A along it."""
    project_a, project_b = vertices_a @ axes.T, vertices_b @ axes.T
    forward = project_a.max(axis=0) - project_b.min(axis=0)       # A below B
    backward = project_b.max(axis=0) - project_a.min(axis=0)      # B below A
    return np.minimum(forward, backward), forward <= backward


def shared_volume(block_a, block_b, thinnest, cut=None):
    """m^3, the volume A and B share (step 4), or its part n . x <= c when ``cut`` = (n (3,) unit, c m);
    0 when no ball of radius ``thinnest`` (m) fits in it."""
    planes = [unit_face_planes(*block_a), unit_face_planes(*block_b)]
    if cut is not None:
        planes.append((cut[0][None, :], np.array([cut[1]])))
    normal = np.vstack([normal for normal, _ in planes])                    # (n_planes, 3), unit, outward
    offset = np.concatenate([offset for _, offset in planes])               # (n_planes,), m
    centre = linprog([0.0, 0.0, 0.0, -1.0], A_ub=np.column_stack([normal, np.ones(len(normal))]), b_ub=offset,
                     bounds=[(None, None)] * 3 + [(0.0, None)], method="highs")
    if centre.status != 0:
        return 0.0
    # the ball's radius as the centre has it: HiGHS meets the constraints to 1e-7 only, far more
    # than ``thinnest``, and qhull wants a point clearly inside every half-space
    if (offset - normal @ centre.x[:3]).min() <= thinnest:
        return 0.0
    corners = HalfspaceIntersection(np.column_stack([normal, -offset]), centre.x[:3]).intersections
    try:
        return float(ConvexHull(corners).volume)
    except QhullError:
        # a flat overlap (10 nm thick at 1 m) whose corners, rounded to the coordinates' precision,
        # qhull finds too narrow to hull: joggled (QJ) by a few round-offs, they always span a volume
        return float(ConvexHull(corners, qhull_options="QJ").volume)


def shared_plane(block_a, block_b, fixed_a, fixed_b):
    """The plane the pair is trimmed to (step 3): unit normal n from A to B, offset, depth (m)."""
    axes = np.vstack([unit_face_planes(*block_a)[0], unit_face_planes(*block_b)[0]])
    depth, b_above = penetrations(block_a[0], block_b[0], axes)
    best = int(np.argmin(depth))
    normal = axes[best] if b_above[best] else -axes[best]
    top_a, bottom_b = (block_a[0] @ normal).max(), (block_b[0] @ normal).min()
    offset = bottom_b if fixed_b else top_a if fixed_a else 0.5 * (top_a + bottom_b)
    return normal, offset, float(depth[best])


def trimmed_block(stone, other, block, normal, offset):
    """``block`` of ``stone`` cut to normal . x <= offset against block ``other``; SurveyError naming
    both when nothing of it, or a sliver with no volume, is left (it lies almost inside ``other``)."""
    try:
        return clipped(*block, normal, offset)
    except GeometryError as exc:
        raise SurveyError(f"trimmed to its shared plane with '{other}', {exc}: it lies (almost) inside "
                          f"'{other}'. Is it {INSIDE_ADVICE}", stone=stone) from None


def trimmed_pair(ids, blocks, fixed, a, b, trim):
    """The Overlap of blocks a and b (None when they only touch), trimming them in ``blocks`` when ``trim``."""
    # about A's mean vertex: a survey in national grid coordinates puts its stones 1e5 - 1e7 m from the
    # origin, where face normals from the coordinates as they are are off by 1e-6 rad and more
    origin = blocks[a][0].mean(axis=0)                                     # (3,) m
    pair = [(blocks[index][0] - origin, blocks[index][1]) for index in (a, b)]
    (vertices_a, faces_a), (vertices_b, faces_b) = pair
    axes = np.vstack([unit_face_planes(vertices_a, faces_a)[0], unit_face_planes(vertices_b, faces_b)[0],
                      edge_axes(vertices_a, faces_a, vertices_b, faces_b)])
    size = min(np.ptp(vertices_a, axis=0).max(), np.ptp(vertices_b, axis=0).max())
    if penetrations(vertices_a, vertices_b, axes)[0].min() <= OVERLAP_RELATIVE * size:
        return None
    shared = shared_volume(*pair, OVERLAP_RELATIVE * size)
    normal, offset, depth = shared_plane(*pair, fixed[a], fixed[b])
    lost, given = [0.0, 0.0], [0.0, 0.0]
    if trim:
        sides = [(k, index, other, sign) for k, (index, other, sign) in enumerate(((a, b, 1.0), (b, a, -1.0)))
                 if not fixed[index]]
        for k, _, _, sign in sides:      # the share of the overlap beyond the plane, seen from the block
            given[k] = shared_volume(*pair, OVERLAP_RELATIVE * size, (-sign * normal, -sign * offset))
        for k, index, other, sign in sides:
            vertices, faces = trimmed_block(ids[index], ids[other], pair[k], sign * normal, sign * offset)
            lost[k] = block_volume(*pair[k]) - block_volume(vertices, faces)
            blocks[index] = (vertices + origin, faces)
    return Overlap(ids[a], ids[b], depth, shared, lost[0], lost[1], given[0], given[1])


def resolve_overlaps(ids, blocks, fixed, trim=True):
    """Find the overlapping pairs of blocks and trim each back to their shared plane.

    Parameters
    ----------
    ids : sequence of str, (n_blocks,)
    blocks : list of (vertices (n, 3) float64 m, faces list of list of int), outward faces
    fixed : (n_blocks,) bool
        Blocks never trimmed (supports, blocks given as they are); pairs of two are not tested.
    trim : bool
        False: only report the overlaps.

    Returns
    -------
    blocks : list of (vertices, faces)
        Trimmed where they overlapped (a new list; the blocks not trimmed are the ones given).
    overlaps : list of Overlap
        In the order the pairs were trimmed (by first, then second block).

    Raises
    ------
    SurveyError
        A block that trimming would remove whole or leave as a sliver with no volume, naming it and
        the block it lies inside.
    """
    blocks = list(blocks)
    fixed = np.asarray(fixed, dtype=bool)
    lower = np.array([vertices.min(axis=0) for vertices, _ in blocks])
    upper = np.array([vertices.max(axis=0) for vertices, _ in blocks])
    overlaps = []
    for a, b in sweep_and_prune(lower, upper, fixed):
        found = trimmed_pair(ids, blocks, fixed, int(a), int(b), trim)
        if found is not None:
            overlaps.append(found)
    return blocks, overlaps
