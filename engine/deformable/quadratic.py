"""The quadratic (10-node) tetrahedron of a meshed block: its nodes, shape functions and quadrature (issue 23).

Linear tetrahedra lock in bending (tests/test_deformable_fe.py); the 10-node tetrahedron holds every quadratic
displacement, pure bending's exact field among them (Zienkiewicz, Taylor & Zhu, The Finite Element Method: Its
Basis and Fundamentals, the tetrahedral family; Hughes, The Finite Element Method, ch. 3). Its edges are straight:
the mid-edge nodes are the edges' midpoints, so the map from barycentric coordinates is affine and the Jacobian
constant, |J| = 6 V.

Node order of a 10-node tetrahedron (`TetraMesh.tetrahedra` of shape (t, 10)): the corners 0-3 as a linear
tetrahedron's, then the mid-edge nodes of the edges (0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3) (`EDGES`).
Node order of a 6-node boundary triangle (`TetraMesh.boundary` of shape (b, 6)): the corners 0-2, outward as a
linear boundary triangle's, then the mid-edge nodes of the edges (0, 1), (1, 2), (2, 0) (`TRIANGLE_EDGES`).
A mesh's order is the shape of its arrays: 4 nodes per tetrahedron linear, 10 quadratic.
"""
import numpy as np

from extrados.engine.deformable.tetra_mesh import TetraMesh

#: The corners (i, j) of the edge of each mid-edge node 4-9 of a 10-node tetrahedron.
EDGES = ((0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3))
#: The corners (i, j) of the edge of each mid-edge node 3-5 of a 6-node triangle.
TRIANGLE_EDGES = ((0, 1), (1, 2), (2, 0))
#: Nodes per tetrahedron of each order, and nodes per boundary triangle.
LINEAR_NODES, QUADRATIC_NODES = 4, 10
LINEAR_FACE_NODES, QUADRATIC_FACE_NODES = 3, 6

#: Hammer, Marlowe & Stroud (1956)'s 4-point rule on a tetrahedron, degree 2: the points' barycentric
#: coordinates (a, a, a, b) and its permutations, a = (5 - sqrt 5) / 20, b = (5 + 3 sqrt 5) / 20, each weighing
#: a quarter of the volume. With straight edges B is linear, B^T D B quadratic: the stiffness is exact.
_A, _B = (5.0 - np.sqrt(5.0)) / 20.0, (5.0 + 3.0 * np.sqrt(5.0)) / 20.0
GAUSS_POINTS = np.array([[_B, _A, _A, _A], [_A, _B, _A, _A], [_A, _A, _B, _A], [_A, _A, _A, _B]])
GAUSS_WEIGHTS = np.full(4, 0.25)
#: Barycentric coordinates of a tetrahedron's centroid, where the stresses of a quadratic one are taken.
CENTROID = np.full(4, 0.25)

#: The consistent mass's diagonal over rho V, from int L1^a L2^b L3^c L4^d dV = 6 V a! b! c! d! / (a+b+c+d+3)!:
#: a corner int (L (2L - 1))^2 = 1/70, a mid-edge node int (4 L_i L_j)^2 = 8/105.
CONSISTENT_MASS_DIAGONAL = np.array([1.0 / 70.0] * 4 + [8.0 / 105.0] * 6)
#: HRZ lumping (Hinton, Rock & Zienkiewicz 1976): that diagonal scaled to sum to one, the share of rho V at each
#: node, 1/36 at a corner and 4/27 at a mid-edge node, all positive (a row sum lumping would give the corners
#: -1/20). The first moment sum_a m_a x_a is exact, rho V times the centroid; second moments are not.
HRZ_MASS_FRACTIONS = CONSISTENT_MASS_DIAGONAL / CONSISTENT_MASS_DIAGONAL.sum()


def is_quadratic(mesh):
    """Whether the mesh's tetrahedra have 10 nodes (True) or 4 (False); any other count is refused."""
    per_element = mesh.tetrahedra.shape[1]
    if per_element not in (LINEAR_NODES, QUADRATIC_NODES):
        raise ValueError(f"mesh.tetrahedra has {per_element} nodes per tetrahedron; "
                         f"{LINEAR_NODES} (linear) or {QUADRATIC_NODES} (quadratic) expected")
    return per_element == QUADRATIC_NODES


def shape_functions(barycentric):
    """(..., 10) the 10-node tetrahedron's shape functions at barycentric coordinates (..., 4).

    Corner i: L_i (2 L_i - 1); mid-edge node of the edge (i, j): 4 L_i L_j.
    """
    lam = np.asarray(barycentric, float)
    mid = [4.0 * lam[..., i] * lam[..., j] for i, j in EDGES]
    return np.concatenate([lam * (2.0 * lam - 1.0), np.stack(mid, axis=-1)], axis=-1)


def shape_derivatives(barycentric):
    """(..., 10, 4) dN_a / dL_i of the 10-node tetrahedron's shape functions at barycentric coordinates (..., 4).

    Corner i: dN_i / dL_i = 4 L_i - 1; mid-edge node (i, j): dN / dL_i = 4 L_j, dN / dL_j = 4 L_i.
    """
    lam = np.asarray(barycentric, float)
    derivatives = np.zeros(lam.shape[:-1] + (QUADRATIC_NODES, 4))
    for i in range(4):
        derivatives[..., i, i] = 4.0 * lam[..., i] - 1.0
    for k, (i, j) in enumerate(EDGES):
        derivatives[..., 4 + k, i] = 4.0 * lam[..., j]
        derivatives[..., 4 + k, j] = 4.0 * lam[..., i]
    return derivatives


def shape_gradients_at(corner_gradients, barycentric):
    """(t, ..., 10, 3) gradients dN_a / dx of each 10-node tetrahedron at barycentric coordinates (..., 4).

    The barycentric coordinates are affine in x on a straight-edged tetrahedron, with gradients the linear shape
    functions' (``corner_gradients``, (t, 4, 3)); the chain rule gives dN_a / dx = sum_i dN_a / dL_i grad L_i.
    """
    return np.einsum("...ai,tij->t...aj", shape_derivatives(barycentric), corner_gradients)


def triangle_shape_functions(barycentric):
    """(..., 6) the 6-node triangle's shape functions at barycentric coordinates (..., 3).

    Corner i: L_i (2 L_i - 1); mid-edge node of the edge (i, j): 4 L_i L_j (the 10-node tetrahedron's, on a face).
    """
    lam = np.asarray(barycentric, float)
    mid = [4.0 * lam[..., i] * lam[..., j] for i, j in TRIANGLE_EDGES]
    return np.concatenate([lam * (2.0 * lam - 1.0), np.stack(mid, axis=-1)], axis=-1)


def quadratic_mesh(mesh):
    """The 10-node tetrahedra of a linear mesh: one node, shared, at the midpoint of each of its edges.

    The linear mesh's nodes keep their numbers; the new ones follow, one per edge in the order of the edges'
    sorted corner pairs (the same mesh always gets the same numbering). The edges are straight: on a convex
    block the midpoint of a boundary edge lies on the block's face.

    Parameters
    ----------
    mesh : TetraMesh, linear ((t, 4) tetrahedra, (b, 3) boundary)

    Returns
    -------
    TetraMesh with (t, 10) tetrahedra and (b, 6) boundary triangles, node order as in the module's docstring
    """
    if is_quadratic(mesh):
        raise ValueError("quadratic_mesh takes a linear mesh; this one already has 10-node tetrahedra")
    n = len(mesh.nodes)
    pairs = np.sort(mesh.tetrahedra[:, EDGES], axis=2)                     # (t, 6, 2) corners of each edge
    keys = pairs[..., 0] * n + pairs[..., 1]                                # (t, 6) one integer per edge
    edge_keys, edge_of = np.unique(keys, return_inverse=True)               # sorted edges, (t, 6) their index
    ends = np.column_stack([edge_keys // n, edge_keys % n])                 # (e, 2)
    nodes = np.vstack([mesh.nodes, 0.5 * (mesh.nodes[ends[:, 0]] + mesh.nodes[ends[:, 1]])])
    tetrahedra = np.hstack([mesh.tetrahedra, n + edge_of.reshape(keys.shape)])
    face_pairs = np.sort(mesh.boundary[:, TRIANGLE_EDGES], axis=2)        # (b, 3, 2)
    face_edges = np.searchsorted(edge_keys, face_pairs[..., 0] * n + face_pairs[..., 1])
    boundary = np.hstack([mesh.boundary, n + face_edges])
    return TetraMesh(nodes, tetrahedra, boundary)


def _boundary_order(mesh, face_index):
    """Whether the boundary triangles have 6 nodes; ``face_index`` checked against their count."""
    per_face = mesh.boundary.shape[1]
    if per_face not in (LINEAR_FACE_NODES, QUADRATIC_FACE_NODES):
        raise ValueError(f"mesh.boundary has {per_face} nodes per triangle; "
                         f"{LINEAR_FACE_NODES} (linear) or {QUADRATIC_FACE_NODES} (quadratic) expected")
    index = np.asarray(face_index)
    if np.any((index < -len(mesh.boundary)) | (index >= len(mesh.boundary))):
        raise IndexError(f"face_index {face_index!r} out of range for the mesh's {len(mesh.boundary)} "
                         "boundary triangles")
    return per_face == QUADRATIC_FACE_NODES


def boundary_shape_weights(mesh, face_index, barycentric):
    """(..., 3) or (..., 6) weights of the nodes ``mesh.boundary[face_index]`` at a point of that triangle.

    A displacement at the point is sum_a w_a u_a, and a force f at it is w_a f on node a (a contact point on a
    block face, node-to-face). Linear: the barycentric coordinates themselves; quadratic: the 6-node triangle's
    shape functions (`triangle_shape_functions`), which are the 10-node tetrahedron's restricted to the face.

    Parameters
    ----------
    mesh : TetraMesh
    face_index : int, or (...,) int array of boundary triangles
    barycentric : (..., 3) array_like, the point's barycentric coordinates on the triangle's corners
    """
    lam = np.asarray(barycentric, float)
    return triangle_shape_functions(lam) if _boundary_order(mesh, face_index) else lam


def boundary_barycentric(mesh, face_index, point):
    """(..., 3) barycentric coordinates of a point's projection onto the plane of a boundary triangle's corners.

    L_k = ((c_{k+1} - p) x (c_{k+2} - p)) . n / |n|^2 with n = (c_1 - c_0) x (c_2 - c_0), the signed area of the
    sub-triangle opposite corner k over the triangle's: they sum to one, all lie in [0, 1] when the projection
    falls inside the triangle, and sum_k L_k c_k is the projection.

    Parameters
    ----------
    mesh : TetraMesh
    face_index : int, or (...,) int array of boundary triangles
    point : (3,) or (..., 3) array_like, m
    """
    _boundary_order(mesh, face_index)
    corners = mesh.nodes[mesh.boundary[face_index, :3]]                   # (..., 3, 3)
    normal = np.cross(corners[..., 1, :] - corners[..., 0, :], corners[..., 2, :] - corners[..., 0, :])
    relative = corners - np.asarray(point, float)[..., None, :]             # c_k - p
    opposite = np.cross(np.roll(relative, -1, axis=-2), np.roll(relative, -2, axis=-2))
    return np.einsum("...kj,...j->...k", opposite, normal) / np.einsum("...j,...j->...", normal, normal)[..., None]
