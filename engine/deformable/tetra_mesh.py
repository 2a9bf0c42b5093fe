"""A convex block meshed into linear tetrahedra (issue 23; seed 002 sec. 4.1 meshes its blocks by Delaunay).

The nodes are the block's vertices, points along its edges and on its faces at the mesh size, and a grid
inside it; their Delaunay tetrahedralisation (scipy.spatial.Delaunay) fills the convex hull of the nodes,
which is the block itself since every vertex is a node and every node lies in the block. A regular grid is
degenerate for Delaunay (four cocircular points on a face, cospherical ones inside give flat tetrahedra,
and dropping those would leave the mesh non-conforming), so the face and interior points are moved off the
grid by up to JITTER of the mesh size, the face points within their face, by a fixed pseudo-random sequence:
the same block always gets the same mesh. A mesh that still holds a flat tetrahedron is refused.
"""
from dataclasses import dataclass

import numpy as np
from scipy.spatial import ConvexHull, Delaunay

#: A tetrahedron whose volume is below this fraction of the mesh size cubed is flat: the mesh is refused.
SLIVER_VOLUME = 1e-9
#: Face and interior grid points move by up to this fraction of the mesh size (uniformly, each coordinate).
JITTER = 0.1
#: Seed of the jitter's pseudo-random sequence.
JITTER_SEED = 20261129
#: Interior grid points closer than this fraction of the mesh size to the block's surface are left out, so
#: that no element is squeezed between a surface node and an interior one.
SURFACE_CLEARANCE = 0.3


@dataclass(frozen=True)
class TetraMesh:
    """Linear tetrahedra of one block."""

    nodes: np.ndarray       # (n, 3) float64, m
    tetrahedra: np.ndarray  # (t, 4) int64, node indices, positively oriented (volume > 0)
    boundary: np.ndarray    # (b, 3) int64, the triangles of the block's surface, outward

    @property
    def volumes(self):
        """(t,) volume of each tetrahedron, m^3."""
        return tetra_volumes(self.nodes, self.tetrahedra)


def tetra_volumes(nodes, tetrahedra):
    """(t,) signed volumes (a, b, c, d) -> (b - a) . ((c - a) x (d - a)) / 6."""
    a, b, c, d = (nodes[tetrahedra[:, k]] for k in range(4))
    return np.einsum("ij,ij->i", b - a, np.cross(c - a, d - a)) / 6.0


def edge_points(vertices, faces, size, rng):
    """Points dividing each edge of the block into pieces of about ``size`` (at most 1 + 2 JITTER times it), each
    moved along its edge by up to JITTER of a piece: the points of parallel edges then never make a square
    cross-section, whose four cocircular corners would give Delaunay a flat tetrahedron inside the block."""
    points = []
    edges = {tuple(sorted((face[k], face[(k + 1) % len(face)]))) for face in faces for k in range(len(face))}
    for i, j in sorted(edges):
        pieces = int(np.ceil(np.linalg.norm(vertices[j] - vertices[i]) / size))
        for t in (np.arange(1, pieces) + rng.uniform(-JITTER, JITTER, pieces - 1)) / pieces:
            points.append(vertices[i] + t * (vertices[j] - vertices[i]))
    return points


def face_points(vertices, faces, size, rng):
    """Points of a grid of spacing ``size`` in each face's plane, jittered in the plane, that lie inside the face,
    clear of its edges."""
    points = []
    for face in faces:
        corners = vertices[face]
        origin = corners[0]
        normal = np.cross(corners[1] - corners[0], corners[2] - corners[0])
        normal /= np.linalg.norm(normal)
        u = (corners[1] - corners[0]) / np.linalg.norm(corners[1] - corners[0])
        v = np.cross(normal, u)
        plane = (corners - origin) @ np.column_stack([u, v])          # the face's corners in its plane
        lo, hi = plane.min(axis=0), plane.max(axis=0)
        grid = np.stack(np.meshgrid(*(np.arange(lo[k] + size / 2, hi[k], size) for k in range(2)),
                                    indexing="ij"), axis=-1).reshape(-1, 2)
        grid = grid + rng.uniform(-JITTER * size, JITTER * size, grid.shape)
        inside = np.all(edge_distances(plane, grid) > SURFACE_CLEARANCE * size, axis=1)
        points.extend(origin + grid[inside] @ np.vstack([u, v]))
    return points


def edge_distances(polygon, points):
    """(p, k) signed distance of each point inside the convex polygon (counter-clockwise or not) from each edge."""
    area = np.sum(polygon[:, 0] * np.roll(polygon[:, 1], -1) - np.roll(polygon[:, 0], -1) * polygon[:, 1])
    edge = np.roll(polygon, -1, axis=0) - polygon
    inward = np.sign(area) * np.column_stack([-edge[:, 1], edge[:, 0]])
    inward /= np.linalg.norm(inward, axis=1)[:, None]
    return np.einsum("kj,pkj->pk", inward, points[:, None, :] - polygon[None, :, :])


def interior_points(vertices, size, rng):
    """Points of a grid of spacing ``size``, jittered, inside the block's hull, clear of its surface."""
    hull = ConvexHull(vertices)
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    axes = [np.arange(lo[k] + size / 2, hi[k], size) for k in range(3)]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    grid = grid + rng.uniform(-JITTER * size, JITTER * size, grid.shape)
    # hull.equations: n . x + d <= 0 inside; keep the points at least the clearance inside every face
    depth = -(grid @ hull.equations[:, :3].T + hull.equations[:, 3])
    return grid[np.all(depth > SURFACE_CLEARANCE * size, axis=1)]


def mesh_block(vertices, faces, size):
    """The linear tetrahedra of a convex block at mesh size ``size`` (m).

    Parameters
    ----------
    vertices : (n, 3) array_like, m
    faces : list of lists of vertex indices, each face planar and convex (a model document's block)
    size : float, m, the largest edge length aimed at

    Returns
    -------
    TetraMesh
    """
    vertices = np.asarray(vertices, float)
    if not size > 0.0:
        raise ValueError(f"mesh size must be positive, not {size!r}")
    rng = np.random.default_rng(JITTER_SEED)
    nodes = np.vstack([vertices, *[np.array(p).reshape(-1, 3) for p in (
        edge_points(vertices, faces, size, rng), face_points(vertices, faces, size, rng),
        interior_points(vertices, size, rng))]])
    tetrahedra = Delaunay(nodes).simplices.astype(np.int64)
    volumes = tetra_volumes(nodes, tetrahedra)
    flat = np.abs(volumes) <= SLIVER_VOLUME * size ** 3
    if np.any(flat & ~on_one_face(nodes, tetrahedra, vertices)):
        raise ValueError(f"the block's mesh at size {size:g} m holds a flat tetrahedron; try another mesh size")
    tetrahedra, volumes = tetrahedra[~flat], volumes[~flat]
    flipped = volumes < 0.0
    tetrahedra[flipped] = tetrahedra[flipped][:, [0, 2, 1, 3]]
    return TetraMesh(nodes, tetrahedra, boundary_triangles(nodes, tetrahedra))


def on_one_face(nodes, tetrahedra, vertices):
    """(t,) bool: the tetrahedra whose four nodes lie in the plane of one face of the block (the convex hull of
    ``vertices``). Four cocircular nodes of a face (a rectangle's corners) make Delaunay put a flat tetrahedron
    on the face; dropping it leaves the face triangulated by the two triangles under it, and the mesh conforming."""
    planes = ConvexHull(vertices).equations                                       # (f, 4): n . x + d = 0 on face
    distance = np.abs(nodes[tetrahedra] @ planes[:, :3].T + planes[:, 3])         # (t, 4, f)
    scale = np.ptp(vertices, axis=0).max()
    return np.any(np.all(distance <= 1e-9 * scale, axis=1), axis=1)


def boundary_triangles(nodes, tetrahedra):
    """The triangles that belong to one tetrahedron only, turned outward (away from their tetrahedron)."""
    local = np.array([[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]])   # each face, outward for a positive tetrahedron
    triangles = tetrahedra[:, local].reshape(-1, 3)
    keys = np.sort(triangles, axis=1)
    _, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    return triangles[counts[inverse.ravel()] == 1]
