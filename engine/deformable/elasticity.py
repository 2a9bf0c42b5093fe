"""Linear elasticity of a meshed block, in linear (4-node) or quadratic (10-node) tetrahedra (issue 23).

A tetrahedron's displacement is u(x) = sum_a N_a(x) u_a, its strain epsilon = B u_e with B (6 x 3k) built from
the shape functions' gradients (Voigt order xx, yy, zz, yz, xz, xy, shear strains as engineering strains
2 epsilon_ij). A linear tetrahedron's strain is constant and its stiffness K_e = V B^T D B; a quadratic one's
strain is linear and K_e = sum_q w_q |J| B_q^T D B_q over the 4-point rule of `quadratic` (exact), D the
isotropic elasticity of Young's modulus E and Poisson's ratio nu. A block's stiffness is their sum over its
tetrahedra (the finite element discretisation of seed 001 eq. 1 for a deformable body), its mass the lumped
one: rho V / 4 at each corner of a linear tetrahedron, the HRZ shares of `quadratic` for a quadratic one.
The order is the mesh's (`quadratic.is_quadratic`); the stresses of a quadratic tetrahedron are its centroid's.
"""
import numpy as np
from scipy import sparse

from extrados.engine.deformable.quadratic import (CENTROID, GAUSS_POINTS, GAUSS_WEIGHTS, HRZ_MASS_FRACTIONS,
                                                  is_quadratic, shape_gradients_at)

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
    """(t, 4, 3) gradients of the four linear shape functions (the barycentric coordinates) of each tetrahedron's
    corners, and (t,) their volumes."""
    corners = nodes[tetrahedra[:, :4]]                                   # (t, 4, 3)
    augmented = np.concatenate([np.ones(corners.shape[:2] + (1,)), corners], axis=2)   # rows [1, x, y, z]
    inverse = np.linalg.inv(augmented)                                   # column a: coefficients of N_a
    volumes = np.abs(np.linalg.det(augmented)) / 6.0
    return np.transpose(inverse[:, 1:, :], (0, 2, 1)), volumes


def centroid_gradients(mesh):
    """(t, k, 3) gradients of each tetrahedron's k shape functions at its centroid: a linear one's constant
    gradients (k = 4), a quadratic one's at the centroid (k = 10)."""
    gradients, _ = shape_gradients(mesh.nodes, mesh.tetrahedra)
    return shape_gradients_at(gradients, CENTROID) if is_quadratic(mesh) else gradients


def strain_matrices(gradients):
    """(..., 6, 3k) B of each tetrahedron (and point): strain (Voigt, engineering shear) of its 3k nodal
    displacements, from its k shape functions' gradients (..., k, 3)."""
    nodes_per_element = gradients.shape[-2]
    b = np.zeros(gradients.shape[:-2] + (6, 3 * nodes_per_element))
    for a in range(nodes_per_element):
        gx, gy, gz = gradients[..., a, 0], gradients[..., a, 1], gradients[..., a, 2]
        col = 3 * a
        b[..., 0, col] = gx
        b[..., 1, col + 1] = gy
        b[..., 2, col + 2] = gz
        b[..., 3, col + 1], b[..., 3, col + 2] = gz, gy
        b[..., 4, col], b[..., 4, col + 2] = gz, gx
        b[..., 5, col], b[..., 5, col + 1] = gy, gx
    return b


def element_dofs(tetrahedra):
    """(t, 3k) global degrees of freedom of each tetrahedron's k nodes, 3 per node (x, y, z)."""
    return (3 * tetrahedra[:, :, None] + np.arange(3)).reshape(len(tetrahedra), -1)


def element_stiffnesses(mesh, young, poisson):
    """(t, 3k, 3k) stiffness of each tetrahedron, N/m: V B^T D B (linear), sum_q w_q |J| B_q^T D B_q (quadratic).

    A quadratic tetrahedron's Jacobian is constant, |J| = 6 V, and the reference weights of the 4-point rule sum to
    1/6: w_q |J| = V GAUSS_WEIGHTS[q].
    """
    gradients, volumes = shape_gradients(mesh.nodes, mesh.tetrahedra)
    d = elasticity_matrix(young, poisson)
    if not is_quadratic(mesh):
        b = strain_matrices(gradients)
        return np.einsum("t,tki,kl,tlj->tij", volumes, b, d, b)
    b = strain_matrices(shape_gradients_at(gradients, GAUSS_POINTS))        # (t, q, 6, 30)
    weighted = np.einsum("t,q,kl,tqlj->tqkj", volumes, GAUSS_WEIGHTS, d, b)  # w_q |J| D B_q
    t, dofs = len(b), b.shape[-1]
    return np.matmul(np.swapaxes(b.reshape(t, -1, dofs), 1, 2), weighted.reshape(t, -1, dofs))


def stiffness(mesh, young, poisson):
    """The block's stiffness K (3n x 3n, sparse CSR, N/m): the sum of its tetrahedra's (`element_stiffnesses`)."""
    local = element_stiffnesses(mesh, young, poisson)
    dofs = element_dofs(mesh.tetrahedra)
    rows = np.repeat(dofs, dofs.shape[1], axis=1).ravel()
    cols = np.tile(dofs, (1, dofs.shape[1])).ravel()
    n = 3 * len(mesh.nodes)
    return sparse.coo_matrix((local.ravel(), (rows, cols)), shape=(n, n)).tocsr()


def lumped_mass(mesh, density):
    """(3n,) the lumped mass of each degree of freedom, kg.

    Linear: rho V / 4 at each corner of each tetrahedron. Quadratic: HRZ lumping (`quadratic.HRZ_MASS_FRACTIONS`),
    rho V / 36 at each corner and 4 rho V / 27 at each mid-edge node, all positive. Both are exact in the total
    mass and its first moment (sum_a m_a x_a = rho V times the centroid, element by element).
    """
    shares = HRZ_MASS_FRACTIONS if is_quadratic(mesh) else np.full(4, 0.25)
    per_node = np.zeros(len(mesh.nodes))
    np.add.at(per_node, mesh.tetrahedra.ravel(), (density * mesh.volumes[:, None] * shares).ravel())
    return np.repeat(per_node, 3)


def element_stresses(mesh, displacement, young, poisson):
    """(t, 3, 3) Cauchy stress of each tetrahedron (Pa) under nodal displacements (n, 3), small strain.

    A linear tetrahedron's stress is constant; a quadratic one's is linear, and taken at its centroid (its mean).
    """
    b = strain_matrices(centroid_gradients(mesh))
    u = np.asarray(displacement, float).reshape(-1)[element_dofs(mesh.tetrahedra)]      # (t, 3k)
    voigt = np.einsum("kl,tlj,tj->tk", elasticity_matrix(young, poisson), b, u)
    tensor = np.empty((len(voigt), 3, 3))
    for k, (i, j) in enumerate(VOIGT):
        tensor[:, i, j] = tensor[:, j, i] = voigt[:, k]
    return tensor


def deformation_gradients(mesh, positions):
    """(t, 3, 3) deformation gradient F = dx/dX of each tetrahedron, from its nodes' current positions (n, 3): a
    linear tetrahedron's constant one, a quadratic one's at its centroid."""
    gradients = centroid_gradients(mesh)                                  # dN_a/dX
    corners = np.asarray(positions, float)[mesh.tetrahedra]               # (t, k, 3) x_a
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
    large its rotation, strains nothing; small motions give the small-strain stress (`element_stresses`). A
    quadratic tetrahedron's F, R and strain are its centroid's.
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
