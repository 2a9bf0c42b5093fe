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
4. Each block keeps its side of the plane (`convex_block.clipped`); the volume each loses is
   reported, with the volume the two shared before: the intersection of the face half-spaces of
   both (scipy.spatial.HalfspaceIntersection), from the centre of the largest ball inside it (the
   Chebyshev centre, a linear program: max r subject to n_f . x + r <= d_f for every face f).

Trimming only removes material, so a pair once separated stays separated when later pairs trim
either block again.
"""
from typing import NamedTuple

import numpy as np
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, HalfspaceIntersection, QhullError

from extrados.engine.collision.broad_phase import sweep_and_prune
from extrados.engine.geometry.polyhedron import block_volume, face_centroids, face_loops, face_normals
from extrados.engine.survey.convex_block import block_edges, clipped
from extrados.engine.survey.stones import SurveyError

#: Blocks that penetrate by less than this times the smaller block's size only touch: the round-off
#: of a block trimmed to its neighbour's plane (1e-16 m) is far below it, a millimetre far above.
OVERLAP_RELATIVE = 1e-9
#: Edges of two blocks within this sine of parallel (0.08 degrees) span no separating axis of their
#: own: their cross product is all round-off, and the face normals already test that direction.
PARALLEL_SINE = 1.4e-3


class Overlap(NamedTuple):
    """Two blocks that overlapped, and what trimming took from each."""

    block_a: str
    block_b: str
    depth_m: float             # penetration along the shared plane's normal
    overlap_m3: float          # volume the two blocks shared
    trimmed_a_m3: float        # volume block A lost (0 when only reported, or A is a support)
    trimmed_b_m3: float


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


def overlap_volume(block_a, block_b, thinnest):
    """m^3, the volume A and B share (step 4); 0 when no ball of radius ``thinnest`` (m) fits in it."""
    planes = [unit_face_planes(*block) for block in (block_a, block_b)]
    normal = np.vstack([planes[0][0], planes[1][0]])                        # (n_faces, 3), unit, outward
    offset = np.concatenate([planes[0][1], planes[1][1]])                   # (n_faces,), m
    centre = linprog([0.0, 0.0, 0.0, -1.0], A_ub=np.column_stack([normal, np.ones(len(normal))]), b_ub=offset,
                     bounds=[(None, None)] * 3 + [(0.0, None)], method="highs")
    if centre.status != 0 or centre.x[3] <= thinnest:
        return 0.0
    try:
        corners = HalfspaceIntersection(np.column_stack([normal, -offset]), centre.x[:3]).intersections
        return float(ConvexHull(corners).volume)
    except QhullError:
        return 0.0


def shared_plane(block_a, block_b, fixed_a, fixed_b):
    """The plane the pair is trimmed to (step 3): unit normal n from A to B, offset, depth (m)."""
    axes = np.vstack([unit_face_planes(*block_a)[0], unit_face_planes(*block_b)[0]])
    depth, b_above = penetrations(block_a[0], block_b[0], axes)
    best = int(np.argmin(depth))
    normal = axes[best] if b_above[best] else -axes[best]
    top_a, bottom_b = (block_a[0] @ normal).max(), (block_b[0] @ normal).min()
    offset = bottom_b if fixed_b else top_a if fixed_a else 0.5 * (top_a + bottom_b)
    return normal, offset, float(depth[best])


def trimmed_pair(ids, blocks, fixed, a, b, trim):
    """The Overlap of blocks a and b (None when they only touch), trimming them in ``blocks`` when ``trim``."""
    (vertices_a, faces_a), (vertices_b, faces_b) = blocks[a], blocks[b]
    axes = np.vstack([unit_face_planes(vertices_a, faces_a)[0], unit_face_planes(vertices_b, faces_b)[0],
                      edge_axes(vertices_a, faces_a, vertices_b, faces_b)])
    size = min(np.ptp(vertices_a, axis=0).max(), np.ptp(vertices_b, axis=0).max())
    if penetrations(vertices_a, vertices_b, axes)[0].min() <= OVERLAP_RELATIVE * size:
        return None
    shared = overlap_volume(blocks[a], blocks[b], OVERLAP_RELATIVE * size)
    normal, offset, depth = shared_plane(blocks[a], blocks[b], fixed[a], fixed[b])
    lost = [0.0, 0.0]
    if trim:
        for k, (index, sign) in enumerate(((a, 1.0), (b, -1.0))):
            if fixed[index]:
                continue
            cut = clipped(*blocks[index], sign * normal, sign * offset)
            if cut is None:
                raise SurveyError(f"trimming its overlap with '{ids[b if index == a else a]}' leaves nothing of it",
                                  stone=ids[index])
            lost[k] = block_volume(*blocks[index]) - block_volume(*cut)
            blocks[index] = cut
    return Overlap(ids[a], ids[b], depth, shared, lost[0], lost[1])


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
        A block that trimming would remove whole.
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
