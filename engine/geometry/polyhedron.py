"""Checks and mass properties of closed convex polyhedral blocks.

A block is a list of vertices and polygon faces. The checks refuse open meshes,
non-planar or non-convex blocks and zero volume; face orientation is fixed outward.
Mass properties are exact for polyhedra (the divergence theorem), computed for all blocks at once.
"""
from dataclasses import dataclass
from itertools import chain

import numpy as np

from extrados.engine.tolerance import TOL


class GeometryError(ValueError):
    """A block's geometry is invalid; ``where`` names the face or edge when known."""

    def __init__(self, message, where=None):
        self.where = where
        super().__init__(message)


@dataclass(frozen=True)
class FaceLoops:
    """The corners of a block's polygon faces, flattened face after face."""

    corner: np.ndarray     # (n_corners,) int64, vertex of each corner, in face order
    following: np.ndarray  # (n_corners,) int64, vertex of the next corner of the same face (wrapping)
    start: np.ndarray      # (n_faces + 1,) int64, offsets of each face's corners

    @property
    def face(self):
        """(n_corners,) int64, the face of each corner."""
        return np.repeat(np.arange(len(self.start) - 1), np.diff(self.start))

    def edge_keys(self, n_vertices):
        """(n_corners,) int64 undirected edge keys min(i, j) * n_vertices + max(i, j) of the face edges."""
        return np.minimum(self.corner, self.following) * n_vertices + np.maximum(self.corner, self.following)


def face_loops(faces):
    """FaceLoops of a list of faces (lists of vertex indices, each of 3 or more)."""
    start = np.zeros(len(faces) + 1, np.int64)
    np.cumsum([len(face) for face in faces], out=start[1:])
    corner = np.fromiter(chain.from_iterable(faces), np.int64, start[-1])
    following = np.arange(1, start[-1] + 1)
    following[start[1:] - 1] = start[:-1]
    return FaceLoops(corner, corner[following], start)


def cross3(a, b):
    """Row-wise cross products of (n, 3) arrays (np.cross costs more than the product for small n)."""
    return np.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1], a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                     a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]], axis=1)


def face_normals(vertices, loops):
    """(n_faces, 3) unnormalized Newell normals of planar polygons, 1/2 sum_i p_i x p_(i+1)."""
    return 0.5 * np.add.reduceat(cross3(vertices[loops.corner], vertices[loops.following]), loops.start[:-1])


def face_centroids(vertices, loops):
    """(n_faces, 3) mean of each face's corners."""
    return np.add.reduceat(vertices[loops.corner], loops.start[:-1]) / np.diff(loops.start)[:, None]


def orient_faces_outward(vertices, faces):
    """Return faces whose vertex order gives an outward normal (right-hand rule).

    For a convex block the outward side of a face is the side away from the
    vertex centroid, which lies strictly inside.
    """
    loops = face_loops(faces)
    centre = vertices.mean(axis=0)
    outward = np.einsum("fi,fi->f", face_normals(vertices, loops), face_centroids(vertices, loops) - centre)
    return [list(face[::-1]) if inward else list(face) for face, inward in zip(faces, (outward < 0.0).tolist())]


def check_closed(faces, n_vertices):
    """Raise GeometryError unless every undirected edge is shared by exactly two faces.

    Edges are named in the order they first occur, face after face.
    """
    loops = face_loops(faces)
    keys, first, count = np.unique(loops.edge_keys(n_vertices), return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    keys, first, count = keys[order], first[order], count[order]

    def edge(k):
        return sorted([int(loops.corner[first[k]]), int(loops.following[first[k]])])

    open_edges = np.flatnonzero(count == 1)
    if len(open_edges):
        raise GeometryError(f"mesh is not closed ({len(open_edges)} open edges, e.g. vertices {edge(open_edges[0])})")
    bad = np.flatnonzero(count > 2)
    if len(bad):
        raise GeometryError(f"mesh is not manifold (edge {edge(bad[0])} is shared by {count[bad[0]]} faces)")


#: Vertex-face pairs the convexity checks hold at once: memory stays linear in a block's size
#: (16 MB of pairs) however many faces and vertices it has (a 20,002-gon prism took 23 GB).
PAIR_CHUNK = 1 << 20


def face_chunks(span):
    """Consecutive ranges (first, last) of faces whose ``span`` (vertices to compare with each)
    sum to at most PAIR_CHUNK, a range holding at least one face.

    Parameters
    ----------
    span : (n_faces,) int64
    """
    ends = np.cumsum(span)
    first = 0
    while first < len(span):
        last = max(first + 1, int(np.searchsorted(ends, ends[first] - span[first] + PAIR_CHUNK, side="right")))
        yield first, last
        first = last


def check_convex(vertices, faces):
    """Raise GeometryError on a non-planar face or a vertex outside a face plane.

    Faces must already be oriented outward. Tolerance: TOL.convexity_relative times the block's
    size; a face is of zero area below TOL.geometric_relative times the size squared (narrower
    than the geometric tolerance, for a face as long as the block). The first face that fails is
    named, with the first of its checks that fails (zero area, planarity, convexity).
    """
    size = np.ptp(vertices, axis=0).max()
    tol = TOL.convexity_relative * size
    loops = face_loops(faces)
    normal = face_normals(vertices, loops)
    area2 = np.linalg.norm(normal, axis=1)                                 # (n_faces,)
    zero = area2 <= TOL.geometric_relative * size ** 2                    # narrower than the tolerance
    normal = normal / np.where(zero, 1.0, area2)[:, None]
    offset = np.einsum("fi,fi->f", normal, face_centroids(vertices, loops))
    corner_face = loops.face
    corner_offset = np.abs(np.einsum("ci,ci->c", vertices[loops.corner], normal[corner_face]) - offset[corner_face])
    off_plane = np.maximum.reduceat(corner_offset, loops.start[:-1])       # (n_faces,)
    outside = np.empty(len(normal))                                        # (n_faces,)
    for first, last in face_chunks(np.full(len(normal), len(vertices))):
        outside[first:last] = (vertices @ normal[first:last].T - offset[first:last]).max(axis=0)
    failing = np.flatnonzero(zero | (off_plane > tol) | (outside > tol))
    if len(failing) == 0:
        return
    index = int(failing[0])
    if zero[index]:
        raise GeometryError(f"face {index} has zero area", where=f"faces[{index}]")
    if off_plane[index] > tol:
        raise GeometryError(f"face {index} is not planar (a vertex is {off_plane[index]:.3g} m off its plane)",
                            where=f"faces[{index}]")
    raise GeometryError(f"block is not convex: a vertex lies {outside[index]:.3g} m outside face {index}",
                        where=f"faces[{index}]")


def used_vertices_only(vertices, faces):
    """Raise GeometryError if a vertex belongs to no face (it would distort convexity checks)."""
    used = set(i for face in faces for i in face)
    unused = sorted(set(range(len(vertices))) - used)
    if unused:
        raise GeometryError(f"vertex {unused[0]} belongs to no face", where=f"vertices[{unused[0]}]")


def float_vertices(vertices):
    """(n, 3) float64 array of the vertices; GeometryError naming the first vertex too large for a float."""
    try:
        return np.asarray(vertices, dtype=float)
    except OverflowError:
        for row, point in enumerate(vertices):
            try:
                [float(x) for x in point]
            except OverflowError:
                raise GeometryError(f"vertex {row} is not a finite number", where=f"vertices[{row}]") from None
        raise


def validated_block(vertices, faces):
    """Check a block and return (vertices, outward faces).

    Parameters
    ----------
    vertices : (n, 3) array_like of float, m
    faces : list of list of int

    Returns
    -------
    vertices : (n, 3) float64
    faces : list of list of int, oriented outward

    Raises
    ------
    GeometryError
        Open or non-manifold mesh, bad indices, non-planar face, non-convex block, zero volume.
    """
    vertices = float_vertices(vertices)
    if not np.all(np.isfinite(vertices)):
        row = int(np.argwhere(~np.isfinite(vertices))[0][0])
        raise GeometryError(f"vertex {row} is not a finite number", where=f"vertices[{row}]")
    if not np.ptp(vertices, axis=0).max() >= TOL.length:
        raise GeometryError(f"block is smaller than {TOL.length:g} m", where="vertices")
    faces = [list(map(int, f)) for f in faces]
    for index, face in enumerate(faces):
        if len(set(face)) != len(face):
            raise GeometryError(f"face {index} repeats a vertex", where=f"faces[{index}]")
        if max(face) >= len(vertices):
            raise GeometryError(f"face {index} refers to vertex {max(face)} but the block has {len(vertices)}",
                                where=f"faces[{index}]")
    used_vertices_only(vertices, faces)
    check_closed(faces, len(vertices))
    faces = orient_faces_outward(vertices, faces)
    check_convex(vertices, faces)
    if block_volume(vertices, faces) <= TOL.geometric_relative * np.ptp(vertices, axis=0).max() ** 3:
        raise GeometryError("block has zero volume")
    return vertices, faces


#: Relative margin by which the batched checks are stricter than validated_block's, so that
#: rounding (sums in another order) never lets them pass a block that validated_block refuses.
BATCH_MARGIN = 1e-6


def _all_of_runs(flags, start, n_runs):
    """(n_runs,) bool: all flags of each run start[k]:start[k + 1] are True (True for an empty run)."""
    bad = np.zeros(n_runs, bool)
    bad[np.searchsorted(start, np.flatnonzero(~flags), side="right") - 1] = True
    return ~bad


def largest_outside(points, vertex_start, face_block, unit, offset, span, first, last):
    """(last - first,) m, the largest signed distance of a vertex of its block above each face
    plane of faces first..last-1 (positive: the vertex is outside).

    Parameters
    ----------
    points : (n_vertices, 3) float64, the vertices of all blocks
    vertex_start : (n_blocks + 1,) int64, offsets of each block's vertices
    face_block : (n_faces,) int64, the block of each face
    unit : (n_faces, 3) float64, unit outward normals
    offset : (n_faces,) float64, m, planes n . x = d
    span : (n_faces,) int64, vertices of each face's block
    """
    pair_face = np.repeat(np.arange(first, last), span[first:last])
    pair_start = np.concatenate([[0], np.cumsum(span[first:last])])
    pair_vertex = np.arange(pair_start[-1]) - pair_start[pair_face - first] + vertex_start[face_block[pair_face]]
    outside = np.einsum("pi,pi->p", points[pair_vertex], unit[pair_face]) - offset[pair_face]
    return np.maximum.reduceat(outside, pair_start[:-1])


def prevalidated_blocks(blocks):
    """`validated_block` of many blocks at once where they pass; None for the others.

    The checks of validated_block (finite vertices, indices, repeated and unused vertices,
    closed manifold, planar convex faces, volume) run in one numpy pass over every corner, face
    and vertex, with margins BATCH_MARGIN stricter. A block they do not pass is left to
    validated_block, which says what is wrong; so is any block whose faces the batch cannot read.

    Parameters
    ----------
    blocks : sequence of (vertices, faces)
        (n, 3) array_like vertices (m) and faces (lists of at least 3 vertex indices).

    Returns
    -------
    list of (vertices (n, 3) float64, outward faces) or None, one per block
    """
    try:
        vertices = [np.asarray(v, dtype=float) for v, _ in blocks]
    except OverflowError:
        return [None] * len(blocks)
    faces = [list(map(int, face)) for _, block_faces in blocks for face in block_faces]
    n_vertices = np.array([len(v) for v in vertices])                         # (n_blocks,)
    if (len(blocks) == 0 or any(v.ndim != 2 or v.shape[1] != 3 for v in vertices) or n_vertices.min() < 4
            or min(len(block_faces) for _, block_faces in blocks) < 4
            or min(map(len, faces)) < 3 or max(map(max, faces)) >= n_vertices.max()):
        return [None] * len(blocks)
    vertex_start = np.concatenate([[0], np.cumsum(n_vertices)])
    face_start = np.concatenate([[0], np.cumsum([len(f) for _, f in blocks])])
    face_block = np.repeat(np.arange(len(blocks)), np.diff(face_start))      # (n_faces,)
    points = np.concatenate(vertices)                                          # (n_all_vertices, 3)
    loops = face_loops(faces)                                                  # local vertex indices
    corner_face = loops.face
    corner_block = face_block[corner_face]
    corner_start = loops.start[face_start]                                     # (n_blocks + 1,)
    # topology: indices in range, no repeat within a face, every vertex used, closed manifold
    ok = _all_of_runs(np.isfinite(points).all(axis=1), vertex_start, len(blocks))
    ok &= _all_of_runs(loops.corner < n_vertices[corner_block], corner_start, len(blocks))
    shift = vertex_start[corner_block]
    top = n_vertices[corner_block] - 1
    global_loops = FaceLoops(shift + np.minimum(loops.corner, top), shift + np.minimum(loops.following, top),
                             loops.start)                                      # indices into points
    order = np.lexsort((global_loops.corner, corner_face))
    repeated = (corner_face[order][1:] == corner_face[order][:-1]) & \
        (global_loops.corner[order][1:] == global_loops.corner[order][:-1])
    ok[corner_block[order][1:][repeated]] = False
    used = np.zeros(len(points), bool)
    used[global_loops.corner] = True
    ok &= _all_of_runs(used, vertex_start, len(blocks))
    _, first, count = np.unique(global_loops.edge_keys(len(points)), return_index=True, return_counts=True)
    ok[corner_block[first[count != 2]]] = False
    # orientation (orient_faces_outward), then check_convex and the volume with outward normals
    normal = face_normals(points, global_loops)
    centroid = face_centroids(points, global_loops)
    centre = np.add.reduceat(points, vertex_start[:-1]) / n_vertices[:, None]
    inward = np.einsum("fi,fi->f", normal, centroid - centre[face_block]) < 0.0
    normal[inward] *= -1.0
    size = np.maximum.reduceat(points, vertex_start[:-1]) - np.minimum.reduceat(points, vertex_start[:-1])
    size = size.max(axis=1)                                                    # (n_blocks,) as np.ptp(...).max()
    tol = (1.0 - BATCH_MARGIN) * TOL.convexity_relative * size[face_block]     # (n_faces,)
    area2 = np.linalg.norm(normal, axis=1)
    ok &= size >= (1.0 + BATCH_MARGIN) * TOL.length
    ok[face_block[area2 <= (1.0 + BATCH_MARGIN) * TOL.geometric_relative * size[face_block] ** 2]] = False
    unit = normal / np.where(area2 > 0.0, area2, 1.0)[:, None]
    offset = np.einsum("fi,fi->f", unit, centroid)
    off_plane = np.abs(np.einsum("ci,ci->c", points[global_loops.corner], unit[corner_face]) - offset[corner_face])
    ok[face_block[np.maximum.reduceat(off_plane, loops.start[:-1]) > tol]] = False
    # every vertex of the block against every face plane of it
    span = n_vertices[face_block]                                              # (n_faces,)
    for first, last in face_chunks(span):
        outside = largest_outside(points, vertex_start, face_block, unit, offset, span, first, last)
        ok[face_block[first:last][outside > tol[first:last]]] = False
    # V = sum over faces of (a point of the face) . (its outward area vector) / 3, exact for planar faces
    volume = np.add.reduceat(np.einsum("fi,fi->f", centroid, normal), face_start[:-1]) / 3.0
    ok &= volume > (1.0 + BATCH_MARGIN) * TOL.geometric_relative * size ** 3
    outward = [face[::-1] if flip else face for face, flip in zip(faces, inward.tolist())]
    return [(vertices[b], outward[face_start[b]:face_start[b + 1]]) if ok[b] else None for b in range(len(blocks))]


def triangulate(faces):
    """Fan-triangulate convex polygon faces, (n_triangles, 3) int64."""
    return np.array([[f[0], f[k], f[k + 1]] for f in faces for k in range(1, len(f) - 1)], dtype=np.int64)


def block_volume(vertices, faces):
    """Volume (m^3) of a closed polyhedron with outward faces (divergence theorem)."""
    tri = triangulate(faces)
    a, b, c = vertices[tri[:, 0]], vertices[tri[:, 1]], vertices[tri[:, 2]]
    return float(np.einsum("ij,ij->i", a, cross3(b, c)).sum() / 6.0)


def fan_triangles(faces_of_blocks, vertex_start):
    """Fan triangles (n_triangles, 3) of every block's convex faces, as indices into the blocks' stacked
    vertices (block b's vertex i is ``vertex_start[b] + i``), and the block of each triangle (ascending)."""
    face_sizes = np.array([len(face) for faces in faces_of_blocks for face in faces], np.int64)
    face_block = np.repeat(np.arange(len(faces_of_blocks)), [len(faces) for faces in faces_of_blocks])
    corner = np.fromiter(chain.from_iterable(chain.from_iterable(faces_of_blocks)), np.int64, face_sizes.sum())
    corner += np.repeat(vertex_start[face_block], face_sizes)
    face_start = np.concatenate([[0], np.cumsum(face_sizes)])[:-1]
    triangle_face = np.repeat(np.arange(face_sizes.size), face_sizes - 2)
    first = face_start[triangle_face]
    fan = np.arange(triangle_face.size) - np.repeat(np.cumsum(face_sizes - 2) - (face_sizes - 2), face_sizes - 2)
    triangles = np.column_stack([corner[first], corner[first + fan + 1], corner[first + fan + 2]])
    return triangles, face_block[triangle_face]


def unit_mass_properties(blocks):
    """Volume, centre of mass and inertia at unit density of closed polyhedra with outward faces, exact by the
    divergence theorem, all blocks in one numpy pass. At density rho the mass is rho V and the inertia rho I;
    the centre does not depend on rho.

    Each fan triangle (a, b, c) of a face and the block's vertex mean o span a tetrahedron of signed volume
    V_t = a.(b x c)/6 (positions relative to o), first moment V_t (a + b + c)/4 and second moment
    int x x^T dV = V_t/20 (a a^T + b b^T + c c^T + s s^T), s = a + b + c (the covariance of a tetrahedron with
    one vertex at the origin: Tonon, J. Math. Stat. 1, 2004); their sums over the block are the block's. The
    inertia about the centre is tr(C) 1 - C of the second moment C about it. Equal to trimesh's per-mesh
    integrals (tests/test_model.py), 8 times faster on a 5,000-block wall (one call for all blocks).

    Parameters
    ----------
    blocks : sequence of (vertices, faces)
        (n, 3) float64 vertices (m) and faces (lists of vertex indices, oriented outward).

    Returns
    -------
    volume : (n_blocks,) float64, m^3
    centre : (n_blocks, 3) float64, m
    inertia : (n_blocks, 3, 3) float64, m^5 (kg m^2 per kg/m^3), world axes, about the centre
    """
    vertices = [np.asarray(v, float) for v, _ in blocks]
    counts = np.array([len(v) for v in vertices], np.int64)
    vertex_start = np.concatenate([[0], np.cumsum(counts)])
    mean = np.add.reduceat(np.concatenate(vertices), vertex_start[:-1]) / counts[:, None]  # (n_blocks, 3) o
    points = np.concatenate(vertices) - np.repeat(mean, counts, axis=0)
    triangles, triangle_block = fan_triangles([faces for _, faces in blocks], vertex_start)
    a, b, c = points[triangles[:, 0]], points[triangles[:, 1]], points[triangles[:, 2]]
    tetra = np.einsum("ij,ij->i", a, cross3(b, c)) / 6.0                      # (n_triangles,) V_t
    s = a + b + c
    outer = sum(np.einsum("ti,tj->tij", p, p) for p in (a, b, c, s))           # (n_triangles, 3, 3)
    block_start = np.flatnonzero(np.r_[True, triangle_block[1:] != triangle_block[:-1]])
    volume = np.add.reduceat(tetra, block_start)
    moment = np.add.reduceat(tetra[:, None] * s, block_start) / 4.0
    second = np.add.reduceat(tetra[:, None, None] * outer, block_start) / 20.0
    offset = moment / volume[:, None]                                          # centre - o
    second -= volume[:, None, None] * np.einsum("bi,bj->bij", offset, offset)
    inertia = np.trace(second, axis1=1, axis2=2)[:, None, None] * np.eye(3) - second
    return volume, mean + offset, inertia
