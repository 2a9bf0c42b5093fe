"""Broad phase: candidate block pairs whose envelope-inflated world AABBs overlap.

Sort and sweep (seed 000 sec. 2.5 uses an AABB tree; sorting is as fast for
masonry, whose boxes barely move between steps):

1. AABB of every block from its world vertices, inflated by the envelope.
2. Sort the boxes by their lower bound on the axis along which the box centres
   spread most (fewest boxes overlap on that axis).
3. Sweep: each box is tested against the boxes that start before it ends on the
   sweep axis; a pair is a candidate when the boxes overlap on the other two axes too.

Cost O(n log n + s), s the number of overlaps on the sweep axis. The sweep runs on fat
boxes, inflated further by a margin, and its pairs are filtered by the envelope boxes; the
next call only filters again while every envelope box stays inside its fat box
(engine.collision.coherence, step 1).
"""
import numpy as np
from numba import njit

from extrados.engine.collision.coherence import FatBoxes
from extrados.engine.tolerance import TOL


def broad_phase(posed, vertex_start, is_support, envelope, fat=None):
    """Candidate pairs (i < j) of blocks that may be within the envelope of each other.

    Parameters
    ----------
    posed : PosedPolyhedra
        World-frame geometry of the blocks.
    vertex_start : (n_blocks + 1,) int64
        Offsets of each block's vertices (PackedPolyhedra.vertex_start).
    is_support : (n_blocks,) bool
        Pairs of two supports are skipped.
    envelope : float
        Contact envelope (m): boxes are inflated by it.
    fat : FatBoxes, optional
        What the previous call returned for the same blocks and support flags.

    Returns
    -------
    pairs : (n_pairs, 2) int64
        Pairs sorted by first then second block.
    fat : FatBoxes
        To pass to the next call.
    """
    aabb_min, aabb_max = block_aabbs(posed.vertex, vertex_start, float(envelope))
    if fat is None or not boxes_inside(aabb_min, aabb_max, fat.box_min, fat.box_max):
        margin = TOL.broad_phase_margin_relative * envelope
        fat_min, fat_max = aabb_min - margin, aabb_max + margin
        fat = FatBoxes(fat_min, fat_max,
                       sweep_and_prune(fat_min, fat_max, np.ascontiguousarray(is_support, dtype=np.bool_)))
    return overlapping_pairs(fat.pairs, aabb_min, aabb_max), fat


@njit(cache=True)
def boxes_inside(aabb_min, aabb_max, fat_min, fat_max):
    """Does every box lie inside its fat box? All arrays (n_blocks, 3) float64."""
    for block in range(aabb_min.shape[0]):
        for i in range(3):
            if aabb_min[block, i] < fat_min[block, i] or aabb_max[block, i] > fat_max[block, i]:
                return False
    return True


@njit(cache=True)
def overlapping_pairs(pairs, aabb_min, aabb_max):
    """The rows of ``pairs`` (n, 2) int64 whose boxes overlap on all three axes, in order.

    Touching boxes (equal bounds) overlap, as in the sweep.
    """
    keep = np.empty(pairs.shape[0], np.bool_)
    n_kept = 0
    for k in range(pairs.shape[0]):
        i = pairs[k, 0]
        j = pairs[k, 1]
        keep[k] = True
        for axis in range(3):
            if aabb_min[j, axis] > aabb_max[i, axis] or aabb_min[i, axis] > aabb_max[j, axis]:
                keep[k] = False
                break
        n_kept += keep[k]
    kept = np.empty((n_kept, 2), np.int64)
    row = 0
    for k in range(pairs.shape[0]):
        if keep[k]:
            kept[row, 0] = pairs[k, 0]
            kept[row, 1] = pairs[k, 1]
            row += 1
    return kept


@njit(cache=True)
def block_aabbs(vertex, vertex_start, envelope):
    """World AABBs of all blocks inflated by the envelope.

    Parameters
    ----------
    vertex : (n_vertices_total, 3) float64
        World vertices.
    vertex_start : (n_blocks + 1,) int64
    envelope : float

    Returns
    -------
    aabb_min, aabb_max : (n_blocks, 3) float64
    """
    n_blocks = len(vertex_start) - 1
    aabb_min = np.empty((n_blocks, 3))
    aabb_max = np.empty((n_blocks, 3))
    for block in range(n_blocks):
        for i in range(3):
            lo = np.inf
            hi = -np.inf
            for v in range(vertex_start[block], vertex_start[block + 1]):
                lo = min(lo, vertex[v, i])
                hi = max(hi, vertex[v, i])
            aabb_min[block, i] = lo - envelope
            aabb_max[block, i] = hi + envelope
    return aabb_min, aabb_max


@njit(cache=True)
def sweep_axis(aabb_min, aabb_max):
    """Axis (0, 1, 2) along which the box centres have the largest variance."""
    centre = 0.5 * (aabb_min + aabb_max)
    best_axis = 0
    best_variance = -1.0
    for axis in range(3):
        variance = np.var(centre[:, axis])
        if variance > best_variance:
            best_variance = variance
            best_axis = axis
    return best_axis


@njit(cache=True)
def sweep_and_prune(aabb_min, aabb_max, is_support):
    """Pairs (i < j) of overlapping boxes, skipping support-support pairs.

    Parameters
    ----------
    aabb_min, aabb_max : (n_blocks, 3) float64
    is_support : (n_blocks,) bool

    Returns
    -------
    (n_pairs, 2) int64
        Sorted by first then second block. Touching boxes (equal bounds) overlap.
    """
    n_blocks = len(aabb_min)
    axis = sweep_axis(aabb_min, aabb_max) if n_blocks > 0 else 0
    order = np.argsort(aabb_min[:, axis], kind="mergesort")
    # steps 2-3 twice: count the overlaps, then fill them
    n_pairs = _sweep(aabb_min, aabb_max, is_support, axis, order, np.empty((0, 2), np.int64))
    pairs = np.empty((n_pairs, 2), np.int64)
    _sweep(aabb_min, aabb_max, is_support, axis, order, pairs)
    key = pairs[:, 0] * n_blocks + pairs[:, 1]
    return pairs[np.argsort(key, kind="mergesort")]


@njit(cache=True)
def _sweep(aabb_min, aabb_max, is_support, axis, order, pairs):
    """Count the overlapping pairs; also write them when `pairs` has room."""
    fill = len(pairs) > 0
    other_1 = (axis + 1) % 3
    other_2 = (axis + 2) % 3
    n_pairs = 0
    for rank in range(len(order)):
        i = order[rank]
        for next_rank in range(rank + 1, len(order)):
            j = order[next_rank]
            if aabb_min[j, axis] > aabb_max[i, axis]:
                break
            if is_support[i] and is_support[j]:
                continue
            if (aabb_min[j, other_1] > aabb_max[i, other_1] or aabb_min[i, other_1] > aabb_max[j, other_1]
                    or aabb_min[j, other_2] > aabb_max[i, other_2] or aabb_min[i, other_2] > aabb_max[j, other_2]):
                continue
            if fill:
                pairs[n_pairs, 0] = min(i, j)
                pairs[n_pairs, 1] = max(i, j)
            n_pairs += 1
    return n_pairs
