"""Convex polyhedral blocks packed into flat arrays, and their pose in the world frame.

Every block's vertices, faces (planes and vertex loops) and unique edges sit in
contiguous arrays with per-block offsets (``*_start``), so that numba kernels loop
over all blocks without Python objects. Indices stored inside a block's slice
(``face_vertex``, ``edge_vertex``, ``edge_face``) are local to that block.
"""
from dataclasses import dataclass

import numpy as np
from numba import njit

from extrados.engine.geometry.quaternion import quat_to_rows

#: Feature ids (engine.collision.feature_id) give a face or edge index 16 bits
#: and a polygon corner 11 bits.
MAX_FACES_PER_BLOCK = 1 << 16
MAX_EDGES_PER_BLOCK = 1 << 16
MAX_VERTICES_PER_FACE = 1 << 11


@dataclass(frozen=True)
class PackedPolyhedra:
    """Closed convex polyhedra in their body frames, as flat arrays."""

    vertex_local: np.ndarray       # (n_vertices_total, 3) float64, m, body frame (origin at the centre of mass)
    vertex_start: np.ndarray       # (n_blocks + 1,) int64, offsets into vertex_local
    face_normal_local: np.ndarray  # (n_faces_total, 3) float64, unit outward normals, body frame
    face_offset_local: np.ndarray  # (n_faces_total,) float64, m, plane n . x = d in the body frame
    face_start: np.ndarray         # (n_blocks + 1,) int64, offsets into the face arrays
    face_vertex: np.ndarray        # (n_face_vertices_total,) int64, local vertex indices, CCW seen from outside
    face_vertex_start: np.ndarray  # (n_faces_total + 1,) int64, offsets into face_vertex
    edge_vertex: np.ndarray        # (n_edges_total, 2) int64, local vertex indices of each unique edge
    edge_face: np.ndarray          # (n_edges_total, 2) int64, local indices of the two faces sharing the edge
    edge_start: np.ndarray         # (n_blocks + 1,) int64, offsets into the edge arrays
    radius: np.ndarray             # (n_blocks,) float64, m, largest vertex distance from the body origin

    @property
    def n_blocks(self):
        return len(self.radius)


@dataclass(frozen=True)
class PosedPolyhedra:
    """The world-frame geometry of packed polyhedra at one configuration."""

    vertex: np.ndarray       # (n_vertices_total, 3) float64, m, world frame
    face_normal: np.ndarray  # (n_faces_total, 3) float64, unit outward normals, world frame
    face_offset: np.ndarray  # (n_faces_total,) float64, m, plane n . x = d in the world frame
    centre: np.ndarray       # (n_blocks, 3) float64, m, world position of each body origin
    orientation: np.ndarray  # (n_blocks, 4) float64, unit quaternion [w, x, y, z] of each block


def pack_polyhedra(vertices_list, faces_list):
    """Pack closed convex polyhedra into flat arrays.

    Parameters
    ----------
    vertices_list : sequence of (n_v, 3) array_like
        Vertices of each block in its body frame (m), already relative to its centre of mass.
    faces_list : sequence of sequence of sequence of int
        Faces of each block as vertex-index loops, counter-clockwise seen from outside.

    Returns
    -------
    PackedPolyhedra

    Raises
    ------
    ValueError
        When the two lists differ in length, a block is not closed (an edge not shared by
        exactly two faces) or a block exceeds the sizes feature ids can encode.
    """
    if len(vertices_list) != len(faces_list):
        raise ValueError(f"pack_polyhedra: {len(vertices_list)} vertex arrays but {len(faces_list)} face lists")
    faces_list = [[[int(k) for k in face] for face in faces] for faces in faces_list]
    for block, faces in enumerate(faces_list):
        _check_sizes(block, faces)
    vertex_blocks = [np.asarray(vertices, dtype=np.float64).reshape(-1, 3) for vertices in vertices_list]
    loops = [face for faces in faces_list for face in faces]
    vertex_local = np.ascontiguousarray(np.concatenate(vertex_blocks))
    vertex_start = _offsets([len(v) for v in vertex_blocks])
    face_start = _offsets([len(faces) for faces in faces_list])
    face_vertex = np.array([k for loop in loops for k in loop], dtype=np.int64)
    face_vertex_start = _offsets([len(loop) for loop in loops])
    _check_vertex_indices(face_vertex, face_vertex_start[face_start], vertex_start)
    edge_vertex, edge_face, edge_start = all_unique_edges(faces_list, face_start, face_vertex, face_vertex_start,
                                                          vertex_start)
    face_normal, face_offset = face_planes(vertex_local, vertex_start, face_start, face_vertex, face_vertex_start)
    return PackedPolyhedra(
        vertex_local=vertex_local,
        vertex_start=vertex_start,
        face_normal_local=face_normal,
        face_offset_local=face_offset,
        face_start=face_start,
        face_vertex=face_vertex,
        face_vertex_start=face_vertex_start,
        edge_vertex=edge_vertex,
        edge_face=edge_face,
        edge_start=edge_start,
        radius=np.sqrt(np.maximum.reduceat((vertex_local * vertex_local).sum(axis=1), vertex_start[:-1])),
    )


@njit(cache=True)
def face_planes(vertex_local, vertex_start, face_start, face_vertex, face_vertex_start):
    """Unit outward normals and offsets of all faces, (n_faces_total, 3) and (n_faces_total,).

    The normal is Newell's area vector, sum over the loop of (p_k - c) x (p_k+1 - c),
    which is twice the area times the normal for a CCW loop and averages out small
    non-planarity; the offset is d = n . c at the corner centroid c.
    """
    n_faces = len(face_vertex_start) - 1
    normal = np.zeros((n_faces, 3))
    offset = np.zeros(n_faces)
    for block in range(len(face_start) - 1):
        v0 = vertex_start[block]
        for f in range(face_start[block], face_start[block + 1]):
            lo = face_vertex_start[f]
            n_corners = face_vertex_start[f + 1] - lo
            centroid = np.zeros(3)
            for k in range(n_corners):
                centroid += vertex_local[v0 + face_vertex[lo + k]]
            centroid /= n_corners
            for k in range(n_corners):
                arm = vertex_local[v0 + face_vertex[lo + k]] - centroid
                next_arm = vertex_local[v0 + face_vertex[lo + (k + 1) % n_corners]] - centroid
                normal[f] += np.cross(arm, next_arm)
            normal[f] /= np.sqrt(np.dot(normal[f], normal[f]))
            offset[f] = np.dot(normal[f], centroid)
    return normal, offset


def all_unique_edges(faces_list, face_start, face_vertex, face_vertex_start, vertex_start):
    """`unique_edges` of every block in one numpy pass: (n_edges_total, 2) local vertex pairs and faces, in
    each block's order of first appearance, and (n_blocks + 1,) offsets. A block whose edges are not each
    shared by exactly two faces (or too many) is handed to `unique_edges`, which says what is wrong."""
    n_faces = np.diff(face_start)
    corner_face = np.repeat(np.arange(face_vertex_start.size - 1), np.diff(face_vertex_start))
    corner_block = np.repeat(np.arange(n_faces.size), np.diff(face_vertex_start[face_start]))
    following = np.arange(1, face_vertex.size + 1)
    following[face_vertex_start[1:] - 1] = face_vertex_start[:-1]
    first, second = face_vertex, face_vertex[following]
    span = int(np.diff(vertex_start).max(initial=1))
    keys = (corner_block * span + np.minimum(first, second)) * span + np.maximum(first, second)
    _, first_corner, inverse, count = np.unique(keys, return_index=True, return_inverse=True, return_counts=True)
    edge_count = np.bincount(corner_block[first_corner], minlength=n_faces.size)
    bad = np.unique(corner_block[first_corner[(count != 2)]])
    if bad.size or np.any(edge_count >= MAX_EDGES_PER_BLOCK):
        block = int(bad[0]) if bad.size else int(np.flatnonzero(edge_count >= MAX_EDGES_PER_BLOCK)[0])
        unique_edges(block, faces_list[block])
    order = np.argsort(first_corner, kind="stable")                 # edges by first appearance, block by block
    other_corner = np.empty_like(first_corner)
    corners = np.argsort(inverse, kind="stable")                     # each edge's two corners, first one first
    other_corner[inverse[corners[1::2]]] = corners[1::2]
    edge_first = first_corner[order]
    block_of_edge = corner_block[edge_first]
    local_face = corner_face - np.repeat(face_start[:-1], np.diff(face_vertex_start[face_start]))
    edge_vertex = np.column_stack([first[edge_first], second[edge_first]])
    edge_face = np.column_stack([local_face[edge_first], local_face[other_corner[order]]])
    return (np.ascontiguousarray(edge_vertex), np.ascontiguousarray(edge_face),
            _offsets(np.bincount(block_of_edge, minlength=n_faces.size)))


def unique_edges(block, faces):
    """Unique edges of a closed polyhedron and the two faces sharing each.

    Parameters
    ----------
    block : int
        Block index, for error messages.
    faces : list of list of int
        Vertex loops of the block's faces.

    Returns
    -------
    edge_vertex : (n_edges, 2) int64
        Vertex pairs in order of first appearance.
    edge_face : (n_edges, 2) int64
        The face where the edge first appears, then the other one.
    """
    edge_index, edge_vertex, edge_face = {}, [], []
    for face, loop in enumerate(faces):
        for a, b in zip(loop, loop[1:] + loop[:1]):
            key = (min(a, b), max(a, b))
            if key not in edge_index:
                edge_index[key] = len(edge_vertex)
                edge_vertex.append([a, b])
                edge_face.append([face, -1])
            elif edge_face[edge_index[key]][1] == -1:
                edge_face[edge_index[key]][1] = face
            else:
                raise ValueError(f"blocks[{block}]: edge {key} is shared by more than two faces")
    open_edges = sum(1 for f in edge_face if f[1] == -1)
    if open_edges:
        raise ValueError(f"blocks[{block}]: polyhedron is not closed ({open_edges} open edges)")
    if len(edge_vertex) >= MAX_EDGES_PER_BLOCK:
        raise ValueError(f"blocks[{block}]: {len(edge_vertex)} edges, at most {MAX_EDGES_PER_BLOCK - 1} allowed")
    return np.array(edge_vertex, dtype=np.int64), np.array(edge_face, dtype=np.int64)


def _check_sizes(block, faces):
    """Raise when a block has more faces or face corners than feature ids encode."""
    if len(faces) >= MAX_FACES_PER_BLOCK:
        raise ValueError(f"blocks[{block}]: {len(faces)} faces, at most {MAX_FACES_PER_BLOCK - 1} allowed")
    for k, face in enumerate(faces):
        if not 3 <= len(face) < MAX_VERTICES_PER_FACE:
            raise ValueError(f"blocks[{block}].faces[{k}]: {len(face)} corners, "
                             f"need 3 to {MAX_VERTICES_PER_FACE - 1}")


def _check_vertex_indices(face_vertex, block_face_vertex_start, vertex_start):
    """Raise when a face refers to a vertex its block does not have."""
    n_vertices = np.repeat(np.diff(vertex_start), np.diff(block_face_vertex_start))
    bad = np.flatnonzero((face_vertex < 0) | (face_vertex >= n_vertices))
    if len(bad):
        block = int(np.searchsorted(block_face_vertex_start, bad[0], side="right") - 1)
        raise ValueError(f"blocks[{block}]: face refers to vertex {face_vertex[bad[0]]}, "
                         f"the block has {n_vertices[bad[0]]} vertices")


def _offsets(counts):
    """(len(counts) + 1,) int64 running offsets starting at 0."""
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


def pose_polyhedra(packed, position, orientation):
    """World-frame vertices and face planes of all blocks.

    Parameters
    ----------
    packed : PackedPolyhedra
    position : (n_blocks, 3) float64
        World position of each body origin (centre of mass), m.
    orientation : (n_blocks, 4) float64
        Unit quaternions [w, x, y, z].

    Returns
    -------
    PosedPolyhedra
    """
    position = np.ascontiguousarray(position, dtype=np.float64)
    orientation = np.ascontiguousarray(orientation, dtype=np.float64)
    vertex = world_vertices(packed.vertex_local, packed.vertex_start, position, orientation)
    normal, offset = world_face_planes(packed.face_normal_local, packed.face_offset_local, packed.face_start,
                                       position, orientation)
    return PosedPolyhedra(vertex, normal, offset, position, orientation)


@njit(cache=True)
def world_vertices(vertex_local, vertex_start, position, orientation):
    """World positions x + A(rho) v of all vertices; returns (n_vertices_total, 3) float64."""
    vertex = np.empty_like(vertex_local)
    for block in range(len(vertex_start) - 1):
        rotation = quat_to_rows((orientation[block, 0], orientation[block, 1], orientation[block, 2],
                                 orientation[block, 3]))
        for v in range(vertex_start[block], vertex_start[block + 1]):
            for i in range(3):
                vertex[v, i] = (position[block, i] + rotation[i][0] * vertex_local[v, 0]
                                + rotation[i][1] * vertex_local[v, 1] + rotation[i][2] * vertex_local[v, 2])
    return vertex


@njit(cache=True)
def world_face_planes(face_normal_local, face_offset_local, face_start, position, orientation):
    """World face planes: n' = A n and d' = d + n' . x, as (n_faces_total, 3) and (n_faces_total,)."""
    normal = np.empty_like(face_normal_local)
    offset = np.empty_like(face_offset_local)
    for block in range(len(face_start) - 1):
        rotation = quat_to_rows((orientation[block, 0], orientation[block, 1], orientation[block, 2],
                                 orientation[block, 3]))
        for f in range(face_start[block], face_start[block + 1]):
            for i in range(3):
                normal[f, i] = (rotation[i][0] * face_normal_local[f, 0] + rotation[i][1] * face_normal_local[f, 1]
                                + rotation[i][2] * face_normal_local[f, 2])
            offset[f] = (face_offset_local[f] + normal[f, 0] * position[block, 0]
                         + normal[f, 1] * position[block, 1] + normal[f, 2] * position[block, 2])
    return normal, offset
