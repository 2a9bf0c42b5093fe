"""The quadratic (10-node) tetrahedron of a deformable block (issue 23, engine/deformable/quadratic.py): its mesh,
mass and stiffness against closed forms, the linear and quadratic fields it reproduces exactly (patch test,
uniaxial compression, the exact 3D field of pure bending), and the beam in pure bending that linear tetrahedra
lock on (tests/test_deformable_fe.py)."""
import numpy as np
import pytest
from scipy.sparse.linalg import spsolve

from extrados.engine.deformable.elasticity import corotational_stresses, element_stresses, lumped_mass, stiffness
from extrados.engine.deformable.quadratic import (EDGES, HRZ_MASS_FRACTIONS, TRIANGLE_EDGES, boundary_barycentric,
                                                  boundary_shape_weights, is_quadratic, quadratic_mesh)
from extrados.engine.deformable.tetra_mesh import TetraMesh, mesh_block
from extrados.engine.generators import box
from tests.test_deformable_fe import DENSITY, EXACT, POISSON, YOUNG, column, rotation_about, supported_beam_sag

#: Relative round-off of sums over a mesh (volumes, masses, moments) and of K applied to a rigid motion.
ROUND_OFF = 1e-12
RIGID_RESIDUAL = 1e-10
#: The issue's bending accuracy: the finite element sag within 2 % of the closed form.
BENDING = 0.02

#: Consistent nodal loads of a linear traction t = sum_k L_k t_k on a boundary triangle of area A: node a carries
#: A sum_k SHARES[a, k] t_k, SHARES[a, k] = int N_a L_k dA / A by int L1^p L2^q L3^r dA = 2 A p! q! r! / (p+q+r+2)!.
#: Linear triangle: (1 + delta_ak) / 12. 6-node triangle: a corner carries (3 delta_ak - 1) / 60, i.e.
#: 1/30 of its own corner's traction and -1/60 of the others'; the mid-edge node of (i, j) 2/15 of t_i and t_j and
#: 1/15 of the third (a uniform traction: nothing on the corners, A / 3 on each mid-edge node).
SHARES = {3: (np.ones((3, 3)) + np.eye(3)) / 12.0,
          6: np.vstack([3.0 * np.eye(3) - 1.0, 8.0 - 4.0 * np.eye(3)[[2, 0, 1]]]) / 60.0}


def quadratic_column(size):
    """The 10-node tetrahedra of `column` (0.2 x 0.2 x 0.4 m) at mesh size ``size`` (m)."""
    return quadratic_mesh(column(size))


def face_loads(mesh, faces, corner_tractions):
    """(n, 3) consistent nodal forces (N) of tractions linear over boundary triangles ``faces`` (indices into
    mesh.boundary), given at their corners (f, 3, 3) in Pa."""
    triangles = mesh.boundary[faces]
    corners = mesh.nodes[triangles[:, :3]]
    areas = 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
    loads = np.einsum("ak,fkj,f->faj", SHARES[triangles.shape[1]], corner_tractions, areas)
    force = np.zeros((len(mesh.nodes), 3))
    np.add.at(force, triangles.ravel(), loads.reshape(-1, 3))
    return force


def faces_on_plane(mesh, axis, value):
    """Indices of the boundary triangles whose corners all lie on the plane x[axis] = value."""
    return np.flatnonzero(np.all(np.isclose(mesh.nodes[mesh.boundary[:, :3]][:, :, axis], value), axis=1))


def solve_with_boundary_displacement(mesh, exact):
    """(n, 3) displacement: the boundary nodes' prescribed as ``exact`` (n, 3), the interior ones' solved with no
    load; and the number of interior nodes."""
    fixed = np.zeros(len(mesh.nodes), bool)
    fixed[np.unique(mesh.boundary)] = True
    free = np.repeat(~fixed, 3)
    k = stiffness(mesh, YOUNG, POISSON)
    u = exact.reshape(-1).copy()
    u[free] = spsolve(k[free][:, free].tocsc(), -k[free][:, ~free] @ u[~free])
    return u.reshape(-1, 3), int((~fixed).sum())


def isotropic_stress(strain):
    """sigma = lambda tr(epsilon) I + 2 mu epsilon (3 x 3) of YOUNG and POISSON."""
    lame = YOUNG * POISSON / ((1 + POISSON) * (1 - 2 * POISSON))
    shear = YOUNG / (2 * (1 + POISSON))
    return lame * np.trace(strain) * np.eye(3) + 2 * shear * strain


def test_the_quadratic_mesh_adds_one_node_per_edge_at_its_midpoint():
    """Node count n + edges, and edges = n + t + b / 2 - 1 by Euler's formula for a tetrahedralised ball
    (n - e + f - t = 1, 4 t = 2 f - b); the volume is the block's; every mid-edge node is its edge's midpoint and
    lies on the block's surface when its edge does."""
    linear = column(0.1)
    mesh = quadratic_mesh(linear)
    n, t, b = len(linear.nodes), len(linear.tetrahedra), len(linear.boundary)
    assert is_quadratic(mesh) and not is_quadratic(linear)
    assert mesh.tetrahedra.shape == (t, 10) and mesh.boundary.shape == (b, 6)
    assert len(mesh.nodes) == 2 * n + t + b // 2 - 1
    assert mesh.volumes.sum() == pytest.approx(0.2 * 0.2 * 0.4, rel=ROUND_OFF)
    np.testing.assert_array_equal(mesh.nodes[:n], linear.nodes)
    np.testing.assert_array_equal(mesh.tetrahedra[:, :4], linear.tetrahedra)
    assert EDGES == ((0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3)) and TRIANGLE_EDGES == ((0, 1), (1, 2), (2, 0))
    for k, (i, j) in enumerate(EDGES):
        np.testing.assert_array_equal(mesh.nodes[mesh.tetrahedra[:, 4 + k]],
                                      0.5 * (mesh.nodes[mesh.tetrahedra[:, i]] + mesh.nodes[mesh.tetrahedra[:, j]]))
    for k, (i, j) in enumerate(TRIANGLE_EDGES):
        np.testing.assert_array_equal(mesh.nodes[mesh.boundary[:, 3 + k]],
                                      0.5 * (mesh.nodes[mesh.boundary[:, i]] + mesh.nodes[mesh.boundary[:, j]]))
    surface = mesh.nodes[np.unique(mesh.boundary)]
    on_a_face = np.isclose(surface, 0.0) | np.isclose(surface, [0.2, 0.2, 0.4])
    assert np.all(on_a_face.any(axis=1))
    element_nodes = [set(tet) for tet in mesh.tetrahedra.tolist()]
    faces_in_an_element = sum(any(set(face) <= nodes for nodes in element_nodes) for face in mesh.boundary.tolist())
    assert faces_in_an_element == b


def test_the_quadratic_mesh_is_deterministic_and_only_made_from_a_linear_one():
    first, second = quadratic_column(0.1), quadratic_column(0.1)
    np.testing.assert_array_equal(first.nodes, second.nodes)
    np.testing.assert_array_equal(first.tetrahedra, second.tetrahedra)
    with pytest.raises(ValueError, match="linear mesh"):
        quadratic_mesh(first)
    with pytest.raises(ValueError, match="5 nodes per tetrahedron"):
        stiffness(TetraMesh(first.nodes, first.tetrahedra[:, :5], first.boundary), YOUNG, POISSON)


def test_hrz_lumped_mass_is_positive_and_exact_in_total_and_first_moment():
    """HRZ shares rho V / 36 at a corner and 4 rho V / 27 at a mid-edge node (the consistent diagonal 1/70 and
    8/105 scaled to one); the total rho V and first moment rho V c of the block exact to round-off."""
    np.testing.assert_allclose(HRZ_MASS_FRACTIONS, [1 / 36] * 4 + [4 / 27] * 6, rtol=ROUND_OFF)
    mesh = quadratic_column(0.1)
    mass = lumped_mass(mesh, DENSITY).reshape(-1, 3)
    assert mass.min() > 0.0
    total = DENSITY * 0.016
    assert mass.sum(axis=0) == pytest.approx([total] * 3, rel=ROUND_OFF)
    np.testing.assert_allclose(mass[:, 0] @ mesh.nodes, total * np.array([0.1, 0.1, 0.2]), rtol=ROUND_OFF)


def test_the_stiffness_is_symmetric_and_annihilates_the_six_rigid_modes():
    mesh = quadratic_column(0.1)
    k = stiffness(mesh, YOUNG, POISSON)
    scale = abs(k).max()
    assert abs(k - k.T).max() < ROUND_OFF * scale
    centred = mesh.nodes - [0.1, 0.1, 0.2]
    for direction in np.eye(3):
        for mode in (np.broadcast_to(direction, centred.shape), np.cross(direction, centred)):
            assert np.abs(k @ mode.reshape(-1)).max() < RIGID_RESIDUAL * scale * np.abs(mode).max()


def test_patch_test_a_linear_field_on_the_boundary_is_linear_inside_with_uniform_stress():
    """Boundary nodes displaced by u = A x: every interior node (corners and mid-edge nodes) follows u = A x, and
    every tetrahedron's centroid stress is D applied to sym(A)."""
    mesh = quadratic_column(0.07)
    a = np.array([[1.0, 0.3, -0.2], [0.1, -0.5, 0.4], [0.2, 0.0, 0.7]]) * 1e-4
    exact = mesh.nodes @ a.T
    u, interior = solve_with_boundary_displacement(mesh, exact)
    assert interior > 100
    np.testing.assert_allclose(u, exact, atol=EXACT * np.abs(exact).max())
    expected = isotropic_stress(0.5 * (a + a.T))
    stresses = element_stresses(mesh, u, YOUNG, POISSON)
    np.testing.assert_allclose(stresses, np.broadcast_to(expected, stresses.shape), atol=EXACT * np.abs(expected).max())


def test_uniaxial_compression_shortens_by_p_h_over_e_and_widens_by_nu():
    """Pressure p on the top face as consistent loads of the 6-node triangles (none on their corners, A / 3 on each
    mid-edge node), the base held vertically: u = (nu p x, nu p y, -p z) / E at every node, sigma_zz = -p."""
    mesh = quadratic_column(0.1)
    pressure = 2.0e6
    nodes = mesh.nodes
    top = faces_on_plane(mesh, 2, 0.4)
    force = face_loads(mesh, top, np.broadcast_to([0.0, 0.0, -pressure], (len(top), 3, 3)))
    assert force[:, 2].sum() == pytest.approx(-pressure * 0.04, rel=ROUND_OFF)
    assert np.all(force[mesh.boundary[top, :3]] == 0.0)
    fixed = np.zeros((len(nodes), 3), bool)
    fixed[np.isclose(nodes[:, 2], 0.0), 2] = True
    fixed[np.flatnonzero(np.all(np.isclose(nodes, 0.0), axis=1))[0]] = True
    fixed[np.flatnonzero(np.all(np.isclose(nodes, [0.2, 0.0, 0.0]), axis=1))[0], 1] = True
    free = ~fixed.reshape(-1)
    u = np.zeros(3 * len(nodes))
    u[free] = spsolve(stiffness(mesh, YOUNG, POISSON)[free][:, free].tocsc(), force.reshape(-1)[free])
    exact = np.column_stack([POISSON * nodes[:, 0], POISSON * nodes[:, 1], -nodes[:, 2]]) * pressure / YOUNG
    np.testing.assert_allclose(u.reshape(-1, 3), exact, atol=EXACT * np.abs(exact).max())
    stresses = element_stresses(mesh, u, YOUNG, POISSON)
    np.testing.assert_allclose(stresses[:, 2, 2], -pressure, rtol=EXACT)
    assert np.abs(stresses[:, :2, :2]).max() < EXACT * pressure


def pure_bending_field(points, curvature, poisson=POISSON):
    """(p, 3) the exact 3D displacement of pure bending about y (Timoshenko & Goodier, pure bending of prismatic
    bars): sigma_xx = E kappa z, all other stresses zero, so epsilon_xx = kappa z, epsilon_yy = epsilon_zz =
    -nu kappa z, no shear; integrated, u_x = kappa x z, u_y = -nu kappa y z, u_z = -kappa (x^2 + nu (z^2 - y^2)) / 2
    (gamma_xz = kappa x - kappa x = 0, gamma_yz = -nu kappa y + nu kappa y = 0). Quadratic: a 10-node
    tetrahedron holds it exactly; it is in equilibrium with no body force and free of traction on y and z faces."""
    x, y, z = np.asarray(points, float).T
    return curvature * np.column_stack([x * z, -poisson * y * z, -(x ** 2 + poisson * (z ** 2 - y ** 2)) / 2])


def test_the_exact_pure_bending_field_is_reproduced_by_quadratic_but_not_linear_tetrahedra():
    """Boundary nodes displaced by pure bending's exact field: a quadratic mesh's interior nodes follow it to
    round-off, with the centroid stress sigma_xx = E kappa z_c; a linear mesh's do not (its interior error measured
    1 % of the field's largest value)."""
    curvature = 1e-3
    mesh = quadratic_column(0.1)
    exact = pure_bending_field(mesh.nodes, curvature)
    u, _ = solve_with_boundary_displacement(mesh, exact)
    np.testing.assert_allclose(u, exact, atol=EXACT * np.abs(exact).max())
    stresses = element_stresses(mesh, u, YOUNG, POISSON)
    centroid_z = mesh.nodes[mesh.tetrahedra[:, :4], 2].mean(axis=1)
    expected = np.zeros_like(stresses)
    expected[:, 0, 0] = YOUNG * curvature * centroid_z
    np.testing.assert_allclose(stresses, expected, atol=EXACT * YOUNG * curvature * 0.4)
    linear = column(0.1)
    exact_linear = pure_bending_field(linear.nodes, curvature)
    u_linear, interior = solve_with_boundary_displacement(linear, exact_linear)
    assert interior > 0 and np.abs(u_linear - exact_linear).max() > 1e-3 * np.abs(exact_linear).max()


def rigid_fit_residual(points, displacement):
    """The largest residual of the rigid motion c + omega x (points - mean) fitted to ``displacement`` (p, 3)."""
    centred = points - points.mean(axis=0)
    columns = []
    for direction in np.eye(3):
        columns.append(np.broadcast_to(direction, centred.shape).reshape(-1))
        columns.append(np.cross(direction, centred).reshape(-1))
    basis = np.column_stack(columns)
    fit, *_ = np.linalg.lstsq(basis, displacement.reshape(-1), rcond=None)
    return np.abs(basis @ fit - displacement.reshape(-1)).max()


def quadratic_bending(size, young=1e10, length=1.0, depth=0.1, stress=1e6):
    """(finite element sag, exact sag, largest departure from the exact field up to a rigid motion, relative) of
    the 1 x 0.1 x 0.1 m beam of test_deformable_fe.pure_bending_deflection in 10-node tetrahedra: sigma_xx =
    -stress z / (depth / 2) on both end faces as consistent loads of the linear traction on the 6-node triangles,
    the same supports and the same measured sag (mid-span nodes near the axis against the ends'); exact: curvature
    2 stress / (E depth), sag kappa L^2 / 8."""
    vertices, faces = box((0.0, length), (0.0, depth), (-depth / 2, depth / 2))
    mesh = quadratic_mesh(mesh_block(vertices, faces, size))
    nodes = mesh.nodes
    force = np.zeros((len(nodes), 3))
    for x_end, sign in ((0.0, -1.0), (length, 1.0)):
        ends = faces_on_plane(mesh, 0, x_end)
        tractions = np.zeros((len(ends), 3, 3))
        tractions[:, :, 0] = -sign * stress * nodes[mesh.boundary[ends, :3], 2] / (depth / 2)
        force += face_loads(mesh, ends, tractions)
    u, sag, exact_sag = supported_beam_sag(mesh, force, young, POISSON, length, depth, size, stress)
    exact = pure_bending_field(nodes, -stress / (young * depth / 2))
    departure = rigid_fit_residual(nodes, u - exact) / np.abs(exact).max()
    return sag, exact_sag, departure


def test_pure_bending_of_a_beam_in_quadratic_tetrahedra_is_exact():
    """Where linear tetrahedra lock (41 % and 58 % of the sag at 1 and 2 elements through the depth), quadratic
    ones hold pure bending's exact field: the displacement is the closed form's up to a rigid motion to round-off
    (departure 1e-13 and 7e-13, measured), whatever the mesh, so there is no error left to converge. The measured
    sag, 99.59 % and 99.92 % of kappa L^2 / 8, is within the issue's 2 % and differs from it only by the
    anticlastic term nu kappa (z^2 - y^2) / 2 over the nodes averaged (99.985 % and 99.990 % at 4 and 6 elements
    through the depth, measured once; left out here: 3 s and 37 s)."""
    for size in (0.1, 0.05):
        fe, exact, departure = quadratic_bending(size)
        assert departure < EXACT, (size, departure)
        assert fe / exact == pytest.approx(1.0, abs=BENDING), (size, fe / exact)


def test_a_rigid_motion_strains_nothing_in_the_corotational_frame():
    """A quadratic mesh turned by 90 degrees and moved 3 m: no stress at any centroid in the co-rotational frame,
    where the small-strain measure gives stresses of the order of E."""
    mesh = quadratic_column(0.1)
    turn = rotation_about([1.0, 2.0, 0.5], np.pi / 2)
    moved = mesh.nodes @ turn.T + [3.0, -1.0, 2.0]
    assert np.abs(corotational_stresses(mesh, moved, YOUNG, POISSON)).max() < ROUND_OFF * YOUNG
    assert np.abs(element_stresses(mesh, moved - mesh.nodes, YOUNG, POISSON)).max() > 0.1 * YOUNG


def test_a_turned_compressed_block_carries_the_turned_stress():
    """Uniaxial compression then a rigid rotation R: the co-rotational centroid stress is R sigma R^T; a small
    motion's is the small-strain stress up to O(strain^2)."""
    mesh = quadratic_column(0.1)
    strain = 1e-4
    squeezed = mesh.nodes * [1.0 + POISSON * strain, 1.0 + POISSON * strain, 1.0 - strain]
    turn = rotation_about([0.0, 1.0, 0.0], 0.7)
    stresses = corotational_stresses(mesh, squeezed @ turn.T, YOUNG, POISSON)
    expected = turn @ np.diag([0.0, 0.0, -YOUNG * strain]) @ turn.T
    np.testing.assert_allclose(stresses, np.broadcast_to(expected, stresses.shape), atol=EXACT * YOUNG * strain)
    small = corotational_stresses(mesh, squeezed, YOUNG, POISSON)
    linear = element_stresses(mesh, squeezed - mesh.nodes, YOUNG, POISSON)
    np.testing.assert_allclose(small, linear, atol=1e-3 * YOUNG * strain)


@pytest.mark.parametrize("order", ["linear", "quadratic"])
def test_boundary_barycentric_coordinates_place_a_point_on_its_face(order):
    """A point c . lambda + h n off a boundary triangle: its barycentric coordinates are lambda (the projection),
    for one face or many at once."""
    mesh = column(0.1) if order == "linear" else quadratic_column(0.1)
    rng = np.random.default_rng(7)
    faces = np.arange(len(mesh.boundary))
    lam = rng.dirichlet(np.ones(3), len(faces))
    corners = mesh.nodes[mesh.boundary[:, :3]]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    points = np.einsum("fk,fkj->fj", lam, corners) + rng.uniform(-0.01, 0.01, (len(faces), 1)) * normals
    np.testing.assert_allclose(boundary_barycentric(mesh, faces, points), lam, atol=ROUND_OFF)
    np.testing.assert_allclose(boundary_barycentric(mesh, 5, points[5]), lam[5], atol=ROUND_OFF)
    with pytest.raises(IndexError, match="face_index"):
        boundary_barycentric(mesh, len(faces), points[0])


def test_boundary_shape_weights_interpolate_the_face_s_nodes():
    """Linear faces: the weights are the barycentric coordinates. 6-node faces: one at its own node and zero at
    the others, summing to one, and interpolating any quadratic function of position exactly (a contact point's
    displacement from the face's nodes is the element's own)."""
    linear, mesh = column(0.1), quadratic_column(0.1)
    lam = np.array([0.2, 0.5, 0.3])
    np.testing.assert_array_equal(boundary_shape_weights(linear, 3, lam), lam)
    at_nodes = np.vstack([np.eye(3), 0.5 * (np.eye(3) + np.eye(3)[[1, 2, 0]])])
    np.testing.assert_allclose(boundary_shape_weights(mesh, 3, at_nodes), np.eye(6), atol=ROUND_OFF)
    rng = np.random.default_rng(11)
    faces = rng.integers(0, len(mesh.boundary), 50)
    lam = rng.dirichlet(np.ones(3), 50)
    weights = boundary_shape_weights(mesh, faces, lam)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=ROUND_OFF)
    points = np.einsum("fk,fkj->fj", lam, mesh.nodes[mesh.boundary[faces, :3]])
    quadratic = lambda x: pure_bending_field(x, 1.0) + (x ** 2 @ [1.0, -2.0, 0.5])[:, None]   # noqa: E731
    interpolated = np.einsum("fa,faj->fj", weights, quadratic(mesh.nodes)[mesh.boundary[faces]])
    np.testing.assert_allclose(interpolated, quadratic(points), atol=ROUND_OFF)
