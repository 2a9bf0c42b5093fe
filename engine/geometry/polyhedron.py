"""Checks and mass properties of closed convex polyhedral blocks.

A block is a list of vertices and polygon faces. The checks refuse open meshes,
non-planar or non-convex blocks and zero volume; face orientation is fixed outward.
Mass properties come from trimesh (exact for polyhedra, by the divergence theorem).
"""
from collections import Counter

import numpy as np
import trimesh

from engine.tolerance import TOL


class GeometryError(ValueError):
    """A block's geometry is invalid; ``where`` names the face or edge when known."""

    def __init__(self, message, where=None):
        self.where = where
        super().__init__(message)


def face_normal(points):
    """Unnormalized Newell normal of a planar polygon, (3,) float64."""
    nxt = np.roll(points, -1, axis=0)
    return np.cross(points, nxt).sum(axis=0) * 0.5


def orient_faces_outward(vertices, faces):
    """Return faces whose vertex order gives an outward normal (right-hand rule).

    For a convex block the outward side of a face is the side away from the
    vertex centroid, which lies strictly inside.
    """
    centre = vertices.mean(axis=0)
    oriented = []
    for face in faces:
        pts = vertices[face]
        if np.dot(face_normal(pts), pts.mean(axis=0) - centre) < 0.0:
            face = face[::-1]
        oriented.append(list(face))
    return oriented


def check_closed(faces):
    """Raise GeometryError unless every undirected edge is shared by exactly two faces."""
    count = Counter()
    for face in faces:
        for i, j in zip(face, face[1:] + face[:1]):
            count[(min(i, j), max(i, j))] += 1
    open_edges = [e for e, c in count.items() if c == 1]
    if open_edges:
        raise GeometryError(f"mesh is not closed ({len(open_edges)} open edges, e.g. vertices {list(open_edges[0])})")
    bad = [e for e, c in count.items() if c > 2]
    if bad:
        raise GeometryError(f"mesh is not manifold (edge {list(bad[0])} is shared by {count[bad[0]]} faces)")


def check_convex(vertices, faces):
    """Raise GeometryError on a non-planar face or a vertex outside a face plane.

    Faces must already be oriented outward. Tolerance: TOL.convexity_relative times
    the block's size.
    """
    size = np.ptp(vertices, axis=0).max()
    tol = TOL.convexity_relative * size
    for index, face in enumerate(faces):
        pts = vertices[face]
        normal = face_normal(pts)
        area2 = np.linalg.norm(normal)
        if area2 <= TOL.patch_area:
            raise GeometryError(f"face {index} has zero area", where=f"faces[{index}]")
        normal = normal / area2
        offset = np.dot(normal, pts.mean(axis=0))
        off_plane = np.abs(pts @ normal - offset).max()
        if off_plane > tol:
            raise GeometryError(f"face {index} is not planar (a vertex is {off_plane:.3g} m off its plane)",
                                where=f"faces[{index}]")
        outside = (vertices @ normal - offset).max()
        if outside > tol:
            raise GeometryError(f"block is not convex: a vertex lies {outside:.3g} m outside face {index}",
                                where=f"faces[{index}]")


def used_vertices_only(vertices, faces):
    """Raise GeometryError if a vertex belongs to no face (it would distort convexity checks)."""
    used = set(i for face in faces for i in face)
    unused = sorted(set(range(len(vertices))) - used)
    if unused:
        raise GeometryError(f"vertex {unused[0]} belongs to no face", where=f"vertices[{unused[0]}]")


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
    vertices = np.asarray(vertices, dtype=float)
    if not np.all(np.isfinite(vertices)):
        row = int(np.argwhere(~np.isfinite(vertices))[0][0])
        raise GeometryError(f"vertex {row} is not a finite number", where=f"vertices[{row}]")
    faces = [list(map(int, f)) for f in faces]
    for index, face in enumerate(faces):
        if len(set(face)) != len(face):
            raise GeometryError(f"face {index} repeats a vertex", where=f"faces[{index}]")
        if max(face) >= len(vertices):
            raise GeometryError(f"face {index} refers to vertex {max(face)} but the block has {len(vertices)}",
                                where=f"faces[{index}]")
    used_vertices_only(vertices, faces)
    check_closed(faces)
    faces = orient_faces_outward(vertices, faces)
    check_convex(vertices, faces)
    if block_volume(vertices, faces) <= TOL.patch_area * np.ptp(vertices, axis=0).max():
        raise GeometryError("block has zero volume")
    return vertices, faces


def triangulate(faces):
    """Fan-triangulate convex polygon faces, (n_triangles, 3) int64."""
    return np.array([[f[0], f[k], f[k + 1]] for f in faces for k in range(1, len(f) - 1)], dtype=np.int64)


def block_volume(vertices, faces):
    """Volume (m^3) of a closed polyhedron with outward faces (divergence theorem)."""
    tri = triangulate(faces)
    a, b, c = vertices[tri[:, 0]], vertices[tri[:, 1]], vertices[tri[:, 2]]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


def mass_properties(vertices, faces, density):
    """Mass (kg), centre of mass (m) and inertia tensor about it (kg m^2, world axes), via trimesh.

    Returns
    -------
    mass : float
    centre : (3,) float64
    inertia : (3, 3) float64
    """
    mesh = trimesh.Trimesh(vertices=vertices, faces=triangulate(faces), process=False)
    props = trimesh.triangles.mass_properties(mesh.triangles, density=density)
    return float(props.mass), np.asarray(props.center_mass, float), np.asarray(props.inertia, float)
