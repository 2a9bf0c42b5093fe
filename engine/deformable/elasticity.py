"""Linear elasticity of a meshed block: the constant-strain tetrahedron (issue 23).

A linear tetrahedron's displacement is linear, u(x) = sum_a N_a(x) u_a, so its strain is constant:
epsilon = B u_e with B (6 x 12) built from the shape functions' gradients (Voigt order xx, yy, zz, yz, xz, xy,
shear strains as engineering strains 2 epsilon_ij). Its stiffness is K_e = V B^T D B, D the isotropic
elasticity of Young's modulus E and Poisson's ratio nu; a block's stiffness is their sum over its
tetrahedra (the finite element discretisation of seed 001 eq. 1 for a deformable body), its mass the
lumped one, rho V / 4 at each corner of each tetrahedron.
"""
import numpy as np
from scipy import sparse

#: Voigt order of the strain and stress components: (i, j) of each row.
VOIGT = ((0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1))


def elasticity_matrix(young, poisson):
    """D (6 x 6) of an isotropic material, Voigt order, engineering shear strains."""
    if not young > 0.0:
        raise ValueError(f"Young's modulus must be positive, not {young!r}")
    if not -1.0 < poisson < 0.5:
        raise ValueError(f"Poisson's ratio must lie in (-1, 0.5), not {poisson!r}")
    lame = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson))
    shear = young / (2.0 * (1.0 + poisson))
    d = np.zeros((6, 6))
    d[:3, :3] = lame
    d[np.arange(3), np.arange(3)] += 2.0 * shear
    d[np.arange(3, 6), np.arange(3, 6)] = shear
    return d


def shape_gradients(nodes, tetrahedra):
    """(t, 4, 3) gradients of the four linear shape functions of each tetrahedron, and (t,) their volumes."""
    corners = nodes[tetrahedra]                                          # (t, 4, 3)
    augmented = np.concatenate([np.ones(corners.shape[:2] + (1,)), corners], axis=2)   # rows [1, x, y, z]
    inverse = np.linalg.inv(augmented)                                   # column a: coefficients of N_a
    volumes = np.abs(np.linalg.det(augmented)) / 6.0
    return np.transpose(inverse[:, 1:, :], (0, 2, 1)), volumes


def strain_matrices(gradients):
    """(t, 6, 12) B of each tetrahedron: strain (Voigt, engineering shear) of its 12 nodal displacements."""
    t = gradients.shape[0]
    b = np.zeros((t, 6, 12))
    for a in range(4):
        gx, gy, gz = gradients[:, a, 0], gradients[:, a, 1], gradients[:, a, 2]
        col = 3 * a
        b[:, 0, col] = gx
        b[:, 1, col + 1] = gy
        b[:, 2, col + 2] = gz
        b[:, 3, col + 1], b[:, 3, col + 2] = gz, gy
        b[:, 4, col], b[:, 4, col + 2] = gz, gx
        b[:, 5, col], b[:, 5, col + 1] = gy, gx
    return b


def element_dofs(tetrahedra):
    """(t, 12) global degrees of freedom of each tetrahedron's nodes, 3 per node (x, y, z)."""
    return (3 * tetrahedra[:, :, None] + np.arange(3)).reshape(len(tetrahedra), 12)


def stiffness(mesh, young, poisson):
    """The block's stiffness K (3n x 3n, sparse CSR, N/m): sum over its tetrahedra of V B^T D B."""
    gradients, volumes = shape_gradients(mesh.nodes, mesh.tetrahedra)
    b = strain_matrices(gradients)
    local = np.einsum("t,tki,kl,tlj->tij", volumes, b, elasticity_matrix(young, poisson), b)
    dofs = element_dofs(mesh.tetrahedra)
    rows = np.repeat(dofs, 12, axis=1).ravel()
    cols = np.tile(dofs, (1, 12)).ravel()
    n = 3 * len(mesh.nodes)
    return sparse.coo_matrix((local.ravel(), (rows, cols)), shape=(n, n)).tocsr()


def lumped_mass(mesh, density):
    """(3n,) the lumped mass of each degree of freedom, kg: rho V / 4 at each corner of each tetrahedron."""
    per_node = np.zeros(len(mesh.nodes))
    np.add.at(per_node, mesh.tetrahedra.ravel(), np.repeat(density * mesh.volumes / 4.0, 4))
    return np.repeat(per_node, 3)


def element_stresses(mesh, displacement, young, poisson):
    """(t, 3, 3) Cauchy stress of each tetrahedron (Pa) under nodal displacements (n, 3), small strain."""
    gradients, _ = shape_gradients(mesh.nodes, mesh.tetrahedra)
    b = strain_matrices(gradients)
    u = np.asarray(displacement, float).reshape(-1)[element_dofs(mesh.tetrahedra)]      # (t, 12)
    voigt = np.einsum("kl,tlj,tj->tk", elasticity_matrix(young, poisson), b, u)
    tensor = np.empty((len(voigt), 3, 3))
    for k, (i, j) in enumerate(VOIGT):
        tensor[:, i, j] = tensor[:, j, i] = voigt[:, k]
    return tensor


def deformation_gradients(mesh, positions):
    """(t, 3, 3) deformation gradient F = dx/dX of each tetrahedron, from its nodes' current positions (n, 3)."""
    gradients, _ = shape_gradients(mesh.nodes, mesh.tetrahedra)          # dN_a/dX
    corners = np.asarray(positions, float)[mesh.tetrahedra]               # (t, 4, 3) x_a
    return np.einsum("tai,taj->tij", corners, gradients)


def rotations(gradients_f):
    """(t, 3, 3) the rotation R of the polar decomposition F = R U of each deformation gradient (U symmetric)."""
    left, _, right = np.linalg.svd(gradients_f)
    reflect = np.linalg.det(left @ right) < 0.0                           # keep det R = +1
    left[reflect, :, 2] *= -1.0
    return left @ right


def corotational_stresses(mesh, positions, young, poisson):
    """(t, 3, 3) Cauchy stress of each tetrahedron at current node positions (n, 3), in a co-rotational frame.

    Each tetrahedron's rigid rotation R (the polar decomposition of F) is taken out before the strain is measured:
    epsilon = sym(R^T F) - I in the element's rotated frame, sigma = R (D epsilon) R^T. A rigid motion, however
    large its rotation, strains nothing; small motions give the small-strain stress (`element_stresses`).
    """
    f = deformation_gradients(mesh, positions)
    r = rotations(f)
    stretch = np.einsum("tji,tjk->tik", r, f)                             # R^T F, symmetric up to round-off
    strain = 0.5 * (stretch + np.transpose(stretch, (0, 2, 1))) - np.eye(3)
    voigt_strain = np.stack([strain[:, i, j] * (1.0 if i == j else 2.0) for i, j in VOIGT], axis=1)
    voigt = voigt_strain @ elasticity_matrix(young, poisson).T
    local = np.empty_like(strain)
    for k, (i, j) in enumerate(VOIGT):
        local[:, i, j] = local[:, j, i] = voigt[:, k]
    return np.einsum("tij,tjk,tlk->til", r, local, r)
