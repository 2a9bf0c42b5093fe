"""Contact points along the edges of the joints of deformable blocks (issue 23; seed 004 sec. 5.2.1).

LMGC90 puts two contact points on every element edge of a joint, so that a finer mesh has more contact points
and a crack runs along a joint at the mesh's resolution (seed 004 sec. 5.2.1, fig. 17). A deformable block's
``contact_spacing`` does the same here: every edge of a joint polygon on the block is cut into equal pieces
of at most that length, and the points between them join the polygon's corners as contacts of their own, in
polygon order (counter-clockwise, engine.collision.detect). The polygon, its area, resultants and kernel stay
the same (engine.post.joints drops straight corners); each new point's gap is interpolated along its edge (two
plane faces: the gap is affine over the joint), its normal is the joint's, its feature id names the edge and
the station (engine.collision.feature_id.edge_point_ids), so that its bond and impulse carry over from step to
step while the joint stays put.

The points lie on the polygon's edges: along a panel's joint they sample both faces of the panel at each
station, the 3-D counterpart of the paper's 2-D joint line. Each carries its Voronoi cell of the joint
(engine.contact.tributary) as its mortar area, and loads the deformable block at its own place on the surface
(engine.deformable.surface_map.point_weights: node-to-face, seed 001 sec. 2.1) instead of the corners' mortar.
"""
import dataclasses

import numpy as np

from extrados.engine.collision.feature_id import GRID_OFFSET, MAX_EDGE_STATIONS, edge_point_ids, interior_point_ids

#: A piece may be this fraction longer than the spacing: an edge of a whole number of spacings (0.21 m at 0.07 m,
#: 3.0000000000000004 in floating point) keeps its count of pieces, and its points their ids, while it moves.
PIECE_SLACK = 1e-3
#: Grid points inside a joint nearer to one of its edges than this fraction of the grid's smaller step are left
#: out: the edge's own points stand there.
INTERIOR_CLEARANCE = 0.25



def block_spacing(bodies, n_blocks):
    """(n_blocks,) m: the contact spacing of each deformable block of ``bodies`` (block index -> ElasticBody)
    that has one, inf elsewhere; None when no block has one."""
    spacing = np.full(n_blocks, np.inf)
    for block, body in bodies.items():
        if body.contact_spacing is not None:
            spacing[block] = body.contact_spacing
    return spacing if np.isfinite(spacing).any() else None


def cut_joints(contacts, spacing):
    """``contacts`` (engine.collision.detect.Contacts) with every joint polygon (pairs of three or more points)
    touching a block of finite ``spacing`` (n_blocks,) m cut into points at most the smaller spacing of its two
    blocks apart (module docstring); other pairs as they were."""
    counts = np.diff(contacts.pair_start)
    first = contacts.pair_start[:-1]
    if not len(first):
        return contacts
    pair_spacing = np.minimum(spacing[contacts.body_a[first]], spacing[contacts.body_b[first]])
    cut = (counts >= 3) & np.isfinite(pair_spacing)
    if not cut.any():
        return contacts
    gap = np.asarray(contacts.gap, float)
    rows, points, gaps, ids = [], [], [], []
    kept_from = 0                                      # the contacts up to the next cut pair are taken as they are
    sizes = counts.copy()
    for pair in np.flatnonzero(cut):
        start, stop = contacts.pair_start[pair], contacts.pair_start[pair + 1]
        rows.append(np.arange(kept_from, start))
        points.append(contacts.point[kept_from:start])
        gaps.append(gap[kept_from:start])
        ids.append(contacts.feature_id[kept_from:start])
        pair_points, pair_gaps, pair_ids = joint_points(contacts.point[start:stop], gap[start:stop],
                                                        contacts.feature_id[start:stop], contacts.normal[start],
                                                        pair_spacing[pair])
        rows.append(np.full(len(pair_ids), start))
        points.append(pair_points)
        gaps.append(pair_gaps)
        ids.append(pair_ids)
        sizes[pair] = len(pair_ids)
        kept_from = stop
    rows.append(np.arange(kept_from, len(gap)))
    points.append(contacts.point[kept_from:])
    gaps.append(gap[kept_from:])
    ids.append(contacts.feature_id[kept_from:])
    source = np.concatenate(rows)
    return dataclasses.replace(
        contacts, body_a=contacts.body_a[source], body_b=contacts.body_b[source], point=np.vstack(points),
        normal=contacts.normal[source], gap=np.concatenate(gaps), feature_id=np.concatenate(ids).astype(np.int64),
        pair=contacts.pair[source], pair_start=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64))


def joint_points(corners, gap, feature_id, normal, spacing):
    """The points of one joint polygon cut at ``spacing`` (m): its corners (m, 3) and the points along its edges,
    in polygon order, then the grid inside it; with their gaps (affine over the joint) and feature ids.

    The grid's axes run along the first edge (u) and across it (v = n x u), from the first corner, at the first
    edge's piece length along u (``spacing`` when that edge is shorter) and the polygon's width across cut into
    pieces of at most ``spacing`` along v:
    a rectangular joint's grid meets the points on its edges. Grid points nearer an edge than INTERIOR_CLEARANCE
    of a grid step are left to the edge's points.
    """
    following = np.roll(np.arange(len(corners)), -1)
    edge = corners[following] - corners
    length = np.linalg.norm(edge, axis=1)
    pieces = np.clip(np.ceil(length / spacing - PIECE_SLACK), 1, MAX_EDGE_STATIONS - 1).astype(np.int64)
    source = np.repeat(np.arange(len(corners)), pieces)
    station = np.arange(len(source)) - np.repeat(np.cumsum(pieces) - pieces, pieces)
    t = station / pieces[source]
    boundary = corners[source] + t[:, None] * edge[source]
    boundary_gap = gap[source] + t * (gap[following] - gap)[source]
    boundary_id = np.where(station == 0, feature_id[source], edge_point_ids(feature_id[source], np.maximum(station, 1)))
    u = edge[0] / length[0]
    v = np.cross(normal, u)
    plane = np.column_stack([(corners - corners[0]) @ u, (corners - corners[0]) @ v])     # (m, 2)
    du = length[0] / pieces[0] if length[0] >= spacing else spacing    # a short first edge sets no grid step
    width = np.ptp(plane[:, 1])
    dv = width / max(np.ceil(width / spacing - PIECE_SLACK), 1.0)
    i, j = grid_inside(plane, du, dv)
    inside = corners[0] + np.outer(i * du, u) + np.outer(j * dv, v)
    fit = np.linalg.lstsq(np.column_stack([np.ones(len(plane)), plane]), gap, rcond=None)[0]    # gap = a + b u + c v
    inside_gap = fit[0] + fit[1] * i * du + fit[2] * j * dv
    return (np.vstack([boundary, inside]), np.concatenate([boundary_gap, inside_gap]),
            np.concatenate([boundary_id, interior_point_ids(feature_id[0], i, j)]))


def grid_inside(plane, du, dv):
    """Indices (i, j) (k,) int64 of the grid points (i du, j dv) inside the convex polygon ``plane`` (m, 2), at
    least INTERIOR_CLEARANCE of the smaller step from each of its edges."""
    lo, hi = plane.min(axis=0), plane.max(axis=0)
    i, j = np.meshgrid(np.arange(np.floor(lo[0] / du), np.ceil(hi[0] / du) + 1),
                       np.arange(np.floor(lo[1] / dv), np.ceil(hi[1] / dv) + 1), indexing="ij")
    i, j = i.ravel(), j.ravel()
    keep = (np.abs(i) < GRID_OFFSET) & (np.abs(j) < GRID_OFFSET)
    i, j = i[keep], j[keep]
    grid = np.column_stack([i * du, j * dv])
    edge = np.roll(plane, -1, axis=0) - plane
    inward = np.column_stack([-edge[:, 1], edge[:, 0]]) / np.linalg.norm(edge, axis=1)[:, None]
    if np.sum(plane[:, 0] * np.roll(plane[:, 1], -1) - np.roll(plane[:, 0], -1) * plane[:, 1]) < 0:
        inward = -inward
    distance = np.einsum("pkc,kc->pk", grid[:, None, :] - plane[None], inward)             # (p, m)
    keep = distance.min(axis=1, initial=np.inf) >= INTERIOR_CLEARANCE * min(du, dv)
    return i[keep].astype(np.int64), j[keep].astype(np.int64)
