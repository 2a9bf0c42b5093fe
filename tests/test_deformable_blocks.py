"""Deformable blocks in the engine (issue 23): closed forms of elasticity reached through contacts, the static
verdict and load factor with elastic blocks, the co-rotational frame, and the 1-D wave theory of an impact.

Every load reaches a deformable block through its contacts with rigid blocks (engine.deformable.coupling), so
each test checks the contact coupling as much as the elasticity.
"""
import numpy as np
import pytest

from extrados import Model, ModelError, analyze, generators
from extrados.engine.analysis.static import solve_static
from extrados.engine.deformable.body import Flexibility
from extrados.engine.deformable.coupling import (BlockContacts, mapped_impulse, mapped_velocity, signed_frames,
                                                turned_flexibility)
from extrados.engine.deformable.elasticity import element_stresses
from extrados.engine.geometry.quaternion import quat_to_matrices
from extrados.engine.pipeline import SolverSettings, StepSettings, solve_step, step
from extrados.engine.solvers.flexible_problem import FlexibleProblem, solve_flexible
from extrados.engine.solvers.operator_apgd import solve_operator_apgd
from extrados.engine.solvers.spg import solve_spg
from extrados.engine.state import State

G = 9.81
RHO = 2000.0
FACES = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]]


def box(lo, hi):
    """Vertices and faces of the box between corners ``lo`` and ``hi``."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    return {"vertices": [[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0],
                         [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]], "faces": FACES}


def wedge(x, z_base, z_edge, depth, width):
    """A prism whose edge along y at (x, z_edge) is a knife edge, its base of ``width`` at z_base."""
    return {"vertices": [[x - width / 2, 0, z_base], [x + width / 2, 0, z_base], [x, 0, z_edge],
                         [x - width / 2, depth, z_base], [x + width / 2, depth, z_base], [x, depth, z_edge]],
            "faces": [[0, 1, 2], [3, 5, 4], [0, 3, 4, 1], [1, 4, 5, 2], [2, 5, 3, 0]]}


def document(blocks, elastic, loads=(), gravity=(0.0, 0.0, -G), friction=0.0):
    """A model of ``blocks`` (id, shape dict, material, support), the material "elastic" deformable as given."""
    return {"format": "extrados.model/1", "gravity": list(gravity),
            "materials": {"stone": {"density": RHO}, "elastic": {"density": RHO, "deformable": elastic}},
            "joints": {"joint": {"law": "coulomb", "friction": friction}}, "default_joint": "joint",
            "blocks": [{"id": name, **shape, "material": material, "support": support}
                       for name, shape, material, support in blocks],
            "loads": list(loads)}


# --- uniform compression --------------------------------------------------------------------------------------
E, NU = 1e9, 0.2
CAP_LOAD = 1e6        # N on the rigid cap
CUBE = 1.0            # m


@pytest.fixture(scope="module")
def compressed():
    """A deformable 1 m cube between the rigid ground and a rigid cap loaded with 1 MN, frictionless joints."""
    doc = document([("ground", box((0, 0, -0.1), (1, 1, 0)), "stone", True),
                    ("cube", box((0, 0, 0), (1, 1, CUBE)), "elastic", False),
                    ("cap", box((0, 0, CUBE), (1, 1, CUBE + 0.1)), "stone", False)],
                   {"E": E, "nu": NU, "element": "tet10", "mesh_size": 0.5},
                   [{"kind": "point", "block": "cap", "point": [0.5, 0.5, 1.1], "force": [0, 0, -CAP_LOAD]}],
                   gravity=(0.0, 0.0, 0.0))
    model = Model.from_dict(doc)
    return model, solve_static(model)


def cube_shortening(model, solution):
    """The cube's (block 1) shortening, m: its bottom face's mean z displacement less its top face's, and its
    nodes' displacements (n, 3) m."""
    displacement = solution.outcome.elastic.displacement[1].reshape(-1, 3)
    nodes = model.elastic_bodies[1].mesh.nodes
    top, bottom = np.isclose(nodes[:, 2], CUBE / 2), np.isclose(nodes[:, 2], -CUBE / 2)
    return displacement[bottom, 2].mean() - displacement[top, 2].mean(), displacement


def test_uniform_compression_matches_elasticity(compressed):
    """Shortening P L / (E A), sigma_zz = -P / A and sigma_xx = sigma_yy = 0 (frictionless joints): the joint
    mortar loads the cube's faces with the uniform pressure (measured: shortening 6e-5 off, stresses 1.3e-6 P)."""
    model, solution = compressed
    assert solution.stable and solution.verdict_by == "static"
    body = model.elastic_bodies[1]
    shortening, displacement = cube_shortening(model, solution)
    assert shortening == pytest.approx(CAP_LOAD * CUBE / E, rel=1e-4)
    stress = element_stresses(body.mesh, displacement, E, NU)
    assert np.abs(stress[:, 2, 2] + CAP_LOAD).max() < 1e-4 * CAP_LOAD
    assert np.abs(stress[:, :2, :2]).max() < 1e-4 * CAP_LOAD


@pytest.mark.parametrize("scale, tolerance", [(0.01, 1e-4), (10.0, 1e-3), (100.0, 3e-2)])
def test_scaled_compression_keeps_its_verdict_and_stress(scale, tolerance):
    """The compressed cube drawn smaller or larger, its load scaled with its area: it stands, and every element
    carries the same sigma_zz = -P / A, its shortening scaled with its size. The static CCP holds the blocks'
    settlement with a force of order M delta / h^2 (h = 1 s), a relative error of (T / h)^2 with T = L sqrt(rho
    / E) the block's elastic time: 2e-6 for the 1 m cube, 2e-4 at 10 m and 2e-2 at 100 m (measured: 1.2e-2)."""
    def scaled(lo, hi):
        return box(tuple(scale * v for v in lo), tuple(scale * v for v in hi))
    load = CAP_LOAD * scale ** 2
    doc = document([("ground", scaled((0, 0, -0.1), (1, 1, 0)), "stone", True),
                    ("cube", scaled((0, 0, 0), (1, 1, CUBE)), "elastic", False),
                    ("cap", scaled((0, 0, CUBE), (1, 1, CUBE + 0.1)), "stone", False)],
                   {"E": E, "nu": NU, "element": "tet10", "mesh_size": 0.5 * scale},
                   [{"kind": "point", "block": "cap", "point": [0.5 * scale, 0.5 * scale, 1.1 * scale],
                     "force": [0, 0, -load]}], gravity=(0.0, 0.0, 0.0))
    model = Model.from_dict(doc)
    solution = solve_static(model)
    assert solution.stable
    body = model.elastic_bodies[1]
    displacement = solution.outcome.elastic.displacement[1].reshape(-1, 3)
    stress = element_stresses(body.mesh, displacement, E, NU)
    assert np.abs(stress[:, 2, 2] + CAP_LOAD).max() < tolerance * CAP_LOAD
    nodes = body.mesh.nodes
    top, bottom = np.isclose(nodes[:, 2], scale * CUBE / 2), np.isclose(nodes[:, 2], -scale * CUBE / 2)
    shortening = displacement[bottom, 2].mean() - displacement[top, 2].mean()
    assert shortening == pytest.approx(scale * CAP_LOAD * CUBE / E, rel=tolerance)


def test_result_carries_the_deformed_mesh_and_its_stress(compressed):
    """The result's "deformable" fields: nodes moved by the displacement, sigma_zz = -P in every element, and the
    volume average of the element stresses equal to the block's contact-force tensor (seed 001 eq. 35)."""
    model, _ = compressed
    doc = analyze(model, "static").to_dict()
    (field,) = doc["deformable"]
    assert field["block"] == "cube" and field["element"] == "tet10"
    body = model.elastic_bodies[1]
    assert np.allclose(np.array(field["nodes"]) - np.array(field["displacement"]),
                       body.mesh.nodes + model.mechanics.position0[1], atol=1e-12)
    assert np.allclose(np.array(field["stress"])[:, 2], -CAP_LOAD, rtol=1e-4)
    block_stress = np.array(doc["blocks"][1]["stress"])
    assert np.allclose(field["mean_stress"], block_stress, atol=1e-4 * CAP_LOAD)


def test_turned_configuration_gives_the_turned_solution(compressed):
    """Co-rotational frame: the whole model turned by a large rotation (positions, orientations, loads) gives
    the same elastic displacement in the block's frame, hence the turned stress R sigma R^T."""
    model, solution = compressed
    mech = model.mechanics
    angle, axis = 1.1, np.array([1.0, 2.0, 0.5]) / np.linalg.norm([1.0, 2.0, 0.5])
    quaternion = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
    rotation = quat_to_matrices(quaternion[None])[0]
    state = State.initial(mech)
    state.position = mech.position0 @ rotation.T
    state.orientation = np.tile(quaternion, (mech.n_blocks, 1))
    wrench = mech.dead_wrench + mech.live_wrench
    turned = np.hstack([wrench[:, :3] @ rotation.T, wrench[:, 3:] @ rotation.T])
    settings = StepSettings(time_step=1.0, wrench=turned, solver=SolverSettings.of(model.settings, "static"),
                            static=True)
    outcome = solve_step(model, state, settings)
    assert np.allclose(outcome.elastic.displacement[1], solution.outcome.elastic.displacement[1],
                       atol=1e-6 * np.abs(solution.outcome.elastic.displacement[1]).max())


# --- bending by contact forces ------------------------------------------------------------------------------
SPAN_LOAD = 1e4       # N on each of the two load wedges
BEAM = (1.2, 0.1, 0.2)   # length, depth (y), height (z), m
SUPPORTS, LOADS = (0.1, 1.1), (0.4, 0.8)


def four_point_bent(element, size):
    """A deformable beam on two rigid knife edges, pressed by two rigid knife edges at the third points: its
    static solution and the measured stress slope and curvature between the loads over beam theory's M / I and
    M / (E I), M = P a, a = 0.3 m."""
    length, depth, height = BEAM
    blocks = [(f"s{k}", wedge(x, -0.05, 0.0, depth, 0.05), "stone", True) for k, x in enumerate(SUPPORTS)]
    blocks.append(("beam", box((0, 0, 0), (length, depth, height)), "elastic", False))
    blocks += [(f"l{k}", wedge(x, height + 0.05, height, depth, 0.05), "stone", False) for k, x in enumerate(LOADS)]
    loads = [{"kind": "point", "block": f"l{k}", "point": [x, depth / 2, height + 0.05], "force": [0, 0, -SPAN_LOAD]}
             for k, x in enumerate(LOADS)]
    model = Model.from_dict(document(blocks, {"E": E, "nu": NU, "element": element, "mesh_size": size}, loads,
                                     gravity=(0.0, 0.0, 0.0)))
    solution = solve_static(model)
    body = model.elastic_bodies[2]
    displacement = solution.outcome.elastic.displacement[2].reshape(-1, 3)
    inertia = depth * height ** 3 / 12
    moment = SPAN_LOAD * (LOADS[0] - SUPPORTS[0])
    nodes = body.mesh.nodes                                                      # about the beam's centre
    centroid = nodes[body.mesh.tetrahedra[:, :4]].mean(axis=1)
    middle = np.abs(centroid[:, 0]) < 0.1
    stress = element_stresses(body.mesh, displacement, E, NU)
    slope = np.polyfit(centroid[middle, 2], stress[middle, 0, 0], 1)[0]
    # the top face between the loads, clear of them: u_z = kappa (x^2 + nu (z^2 - y^2)) / 2 + a rigid motion
    top = (np.abs(nodes[:, 0]) < 0.1) & np.isclose(nodes[:, 2], height / 2)
    x, y = nodes[top, 0], nodes[top, 1]
    fit = np.linalg.lstsq(np.column_stack([x * x, y * y, x, y, np.ones_like(x)]), displacement[top, 2], rcond=None)[0]
    return solution, -slope / (moment / inertia), 2 * fit[0] / (moment / (E * inertia))


def test_bending_by_contact_forces_matches_beam_theory():
    """Between the loads sigma_xx = M z / I and the beam bends at kappa = M / (E I). Measured at a mesh of
    0.1 m (516 10-node tetrahedra): stress 0.06 %, curvature 0.7 % off; at 0.05 m: 0.03 % and 1.1 % (the
    curvature is read off the top face, 0.1 m from the knife edges); the issue's tolerance is 2 %."""
    solution, stress, curvature = four_point_bent("tet10", 0.1)
    assert solution.stable
    assert stress == pytest.approx(1.0, rel=0.02) and curvature == pytest.approx(1.0, rel=0.02)


def test_bending_converges_under_refinement_of_linear_tetrahedra():
    """Linear tetrahedra lock in bending and converge as the mesh is refined: the stress reaches 64 % of beam
    theory's at 0.1 m and 81 % at 0.05 m (measured), the error shrinking by about half."""
    errors = [1.0 - four_point_bent("tet4", size)[1] for size in (0.1, 0.05)]
    assert 0.0 < errors[1] < 0.7 * errors[0]


# --- load factor ----------------------------------------------------------------------------------------------
def test_deformable_wall_topples_near_the_rigid_factor():
    """Ferris & Tin-Loi's wall with mu = 100 topples as one body at lambda = L / H = 1.905 (rigid LP); stone
    blocks of E = 1 GPa make it a little more flexible, not stronger (measured: 1.881 against 1.890 rigid)."""
    doc = generators.generate("wall", lateral_acceleration=G, friction=100.0)
    doc["materials"]["stone"]["deformable"] = {"E": 1e9, "nu": 0.2, "element": "tet4"}
    report = analyze(Model.from_dict(doc), {"type": "load_factor"}).to_dict()["load_factor_report"]
    assert report["status"] == "collapse"
    assert report["nscd"] == pytest.approx(2.0 / 1.05, rel=0.03)
    assert report["nscd"] <= report["limit_analysis"]


# --- dynamics: free motion and impact ---------------------------------------------------------------------------
def test_free_fall_and_spin_strain_nothing():
    """A deformable block falling and spinning at 20 rad/s for 200 steps: no elastic displacement (its rigid
    frame carries the whole motion), and the same trajectory as the same block rigid."""
    blocks = [("ground", box((-5, -5, -10.1), (5, 5, -10)), "stone", True),
              ("block", box((0, 0, 0), (0.4, 0.2, 0.1)), "elastic", False)]
    trajectories = []
    for elastic in ({"E": 1e9, "nu": 0.2, "element": "tet4"}, None):
        doc = document(blocks, elastic or {"E": 1e9, "nu": 0.2})
        if elastic is None:
            del doc["materials"]["elastic"]["deformable"]
        model = Model.from_dict(doc)
        state = State.initial(model.mechanics)
        state.angular_velocity[1] = [20.0, 5.0, -3.0]
        settings = StepSettings(time_step=1e-3, wrench=model.mechanics.dead_wrench)
        for _ in range(200):
            step(model, state, settings)
        if elastic is not None:
            assert not np.any(state.elastic.displacement[1]) and not np.any(state.elastic.velocity[1])
        trajectories.append((state.position[1].copy(), state.orientation[1].copy()))
    assert np.allclose(trajectories[0][0], trajectories[1][0], atol=1e-12)
    assert np.allclose(trajectories[0][1], trajectories[1][1], atol=1e-12)


def test_bar_dropped_on_its_end_rebounds_as_one_dimensional_wave_theory():
    """A 1 m bar (E = 1 GPa, nu = 0, c = 707 m/s) hitting a rigid base at 1 m/s: contact for 2 L / c, then the
    bar leaves at v0, an impulse of 2 m v0 (1-D wave theory; theta = 0.5 keeps the elastic energy). Measured
    at a mesh of 0.1 m and h = 20 us: impulse 0.97, duration 1.03 of theory, rebound 0.94 v0 (the plastic
    impact of the end nodes' lumped mass takes the rest)."""
    length, speed = 1.0, 1.0
    blocks = [("ground", box((-0.1, -0.1, -0.1), (0.2, 0.2, 0.0)), "stone", True),
              ("bar", box((0, 0, 1e-6), (0.1, 0.1, length + 1e-6)), "elastic", False)]
    model = Model.from_dict(document(blocks, {"E": 1e9, "nu": 0.0, "element": "tet4", "mesh_size": 0.1,
                                              "theta": 0.5}, gravity=(0.0, 0.0, 0.0)))
    wave_time = 2 * length / np.sqrt(1e9 / RHO)
    h = 2e-5
    state = State.initial(model.mechanics)
    state.velocity[1] = [0.0, 0.0, -speed]
    settings = StepSettings(time_step=h, wrench=np.zeros((2, 6)), solver=SolverSettings(tolerance=1e-8,
                                                                                          max_iterations=5000))
    impulse, touching = 0.0, []
    for k in range(int(1.5 * wave_time / h)):
        normal = step(model, state, settings).impulse[:, 0].sum()
        impulse += normal
        if normal > 0.0:
            touching.append(k)
    mass = model.mechanics.mass[1]
    assert impulse == pytest.approx(2 * mass * speed, rel=0.05)
    assert (touching[-1] - touching[0] + 1) * h == pytest.approx(wave_time, rel=0.05)
    assert 0.9 * speed < state.velocity[1, 2] <= 1.0 * speed


# --- the model field and its checks ---------------------------------------------------------------------------
def test_material_deformable_applies_to_movable_blocks_only():
    doc = document([("ground", box((0, 0, -0.1), (1, 1, 0)), "elastic", True),
                    ("cube", box((0, 0, 0), (1, 1, 1)), "elastic", False)], {"E": 1e9, "nu": 0.2})
    bodies = Model.from_dict(doc).elastic_bodies
    assert list(bodies) == [1]
    assert bodies[1].mesh.tetrahedra.shape[1] == 10 and bodies[1].theta == 0.6      # the defaults
    assert 30 <= len(bodies[1].mesh.tetrahedra) <= 70                                # "about 50" by default


@pytest.mark.parametrize("change, path, words", [
    (lambda d: d["blocks"][0].update(deformable={"E": 1e9, "nu": 0.2}), "blocks[0].deformable", "support is rigid"),
    (lambda d: d["blocks"][1].update(deformable={"E": 1e9, "nu": 0.2, "mesh_size": 0.01}),
     "blocks[1].deformable.mesh_size", "more than 20000"),
    (lambda d: d["materials"]["elastic"]["deformable"].update(mesh_size=0.02),
     "materials.elastic.deformable.mesh_size", "more than 20000"),
    (lambda d: d["materials"]["elastic"]["deformable"].update(nu=0.5), "materials.elastic.deformable.nu", ""),
    (lambda d: d["materials"]["elastic"]["deformable"].update(element="hex8"),
     "materials.elastic.deformable.element", ""),
    (lambda d: d["materials"]["elastic"]["deformable"].pop("E"), "materials.elastic.deformable", "E"),
])
def test_bad_deformable_fields_name_their_path(change, path, words):
    doc = document([("ground", box((0, 0, -0.1), (1, 1, 0)), "stone", True),
                    ("cube", box((0, 0, 0), (1, 1, 1)), "elastic", False)], {"E": 1e9, "nu": 0.2})
    change(doc)
    with pytest.raises(ModelError) as error:
        Model.from_dict(doc)
    assert error.value.path == path and words in str(error.value)


# --- the operator ---------------------------------------------------------------------------------------------
def test_flexible_problem_adds_its_blocks_to_every_operator():
    """N gamma, the diagonal blocks and the row-sum bounds of a FlexibleProblem against the dense matrix."""
    rng = np.random.default_rng(3)
    n_c, n_b = 5, 3
    jacobian = rng.normal(size=(2, n_c, 3, 6))
    flexibility = []
    for rows in (np.array([0, 2, 4]), np.array([1, 2])):
        factor = rng.normal(size=(3 * len(rows), 3 * len(rows)))
        flexibility.append((rows, factor @ factor.T))
    problem = FlexibleProblem(np.array([0, 0, 1, 1, 2]), np.array([1, 2, 2, 0, 1]), jacobian[0], jacobian[1],
                              np.array([1.0, 0.5, 2.0]), np.tile(np.eye(3), (n_b, 1, 1)),
                              np.full((n_c, 3), 1e-3), np.full(n_c, 0.5), rng.normal(size=(n_c, 3)),
                              flexibility=flexibility)
    dense = np.column_stack([super(FlexibleProblem, problem).apply(unit.reshape(n_c, 3)).ravel()
                             for unit in np.eye(3 * n_c)])
    for rows, matrix in flexibility:
        index = (3 * rows[:, None] + np.arange(3)).ravel()
        dense[np.ix_(index, index)] += matrix
    gamma = rng.normal(size=(n_c, 3))
    assert np.allclose(problem.apply(gamma).ravel(), dense @ gamma.ravel())
    blocks, scale = problem.diagonal_blocks()
    for i in range(n_c):
        assert np.allclose(blocks[i], dense[3 * i:3 * i + 3, 3 * i:3 * i + 3])
        assert scale[i] == pytest.approx(np.trace(blocks[i]) / 3)
    assert np.all(problem.row_sums().ravel() >= np.abs(dense).sum(axis=1) * (1 - 1e-12))



@pytest.mark.parametrize("static, name", [(False, "apgd"), (True, "spg")])
def test_flexible_problem_is_solved_by_apgd_in_a_run_and_spg_when_static(static, name):
    """solve_flexible: APGD through the problem's methods for a step of a run, SPG for a static CCP; both reach
    the unique minimiser of 1/2 g^T N g + g^T r over the cones (N positive definite: compliance on every row),
    checked against the other solver at a tight tolerance."""
    rng = np.random.default_rng(11)
    n_c, n_b = 6, 3
    jacobian = rng.normal(size=(2, n_c, 3, 6))
    factor = rng.normal(size=(9, 9))
    flexibility = [(np.array([0, 2, 4]), factor @ factor.T * 0.1)]
    arguments = (np.array([0, 0, 1, 1, 2, 2]), np.array([1, 2, 2, 0, 1, 0]), jacobian[0], jacobian[1],
                 np.array([1.0, 0.5, 2.0]), np.tile(np.eye(3), (n_b, 1, 1)), np.full((n_c, 3), 1e-2),
                 np.full(n_c, 0.5), rng.normal(size=(n_c, 3)))
    problem = FlexibleProblem(*arguments, flexibility=flexibility, static=static)
    found = solve_flexible(problem, tolerance=1e-10, max_iterations=20000)
    other = (solve_spg if name == "apgd" else solve_operator_apgd)(problem, tolerance=1e-10, max_iterations=20000)
    assert found.name == name and found.converged and other.converged
    assert np.abs(found.gamma).max() > 0.1                                   # some contacts carry load
    assert np.allclose(found.gamma, other.gamma, atol=1e-6 * np.abs(found.gamma).max())

@pytest.mark.parametrize("static", [False, True])
def test_condensed_flexibility_solves_each_column_once_and_matches_the_direct_product(compressed, static):
    """(w x I_3) G (w x I_3)^T from G's kept columns equals the product with G solved at once, as contacts move
    from nodes to nodes; columns are solved only for nodes not touched before."""
    model, _ = compressed
    body = model.elastic_bodies[1]
    flexibility = Flexibility(body.flexibility(1e-3, static=static).solve, body.boundary_dofs, 3 * body.n_nodes)
    rng = np.random.default_rng(5)
    b = len(body.boundary_nodes)
    dense = flexibility.solve(np.eye(body.n_nodes * 3)[:, body.boundary_dofs])[body.boundary_dofs]   # G (3b, 3b)
    solved = []
    original = flexibility.solve
    flexibility.solve = lambda impulse: solved.append(impulse.shape[1]) or original(impulse)
    for nodes in (np.arange(0, b // 2), np.arange(b // 4, 3 * b // 4), np.arange(0, b // 2)):
        weights = np.zeros((12, b))
        weights[:, nodes] = rng.random(size=(12, len(nodes)))
        spread = np.kron(weights, np.eye(3))
        direct = spread @ dense @ spread.T
        assert np.allclose(flexibility.condensed(weights), direct, rtol=1e-9, atol=1e-12 * np.abs(direct).max())
    assert solved == [3 * (b // 2), 3 * (3 * b // 4 - b // 2)]


def test_turned_flexibility_is_the_map_through_the_contacts_frames():
    """H G H^T with H = T (w x I_3) (the contacts' signed frames T) equals T W_xyz T^T, and the velocity and
    impulse maps are H and H^T."""
    rng = np.random.default_rng(7)
    k, b = 4, 6
    found = BlockContacts(np.arange(k), np.array([1.0, -1.0, 1.0, -1.0]), rng.random((k, b)))
    frames = np.linalg.qr(rng.normal(size=(k, 3, 3)))[0]                      # orthonormal world rows
    rotation = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    turned = signed_frames(frames, rotation, found)
    h_map = np.einsum("r,rj,rab->rajb", found.sign, found.weights, frames @ rotation).reshape(3 * k, 3 * b)
    factor = rng.normal(size=(3 * b, 3 * b))
    g = factor @ factor.T
    local = np.kron(found.weights, np.eye(3)) @ g @ np.kron(found.weights, np.eye(3)).T
    assert np.allclose(turned_flexibility(local, turned), h_map @ g @ h_map.T)
    velocity, gamma = rng.normal(size=(b, 3)), rng.normal(size=(k, 3))
    assert np.allclose(mapped_velocity(found, turned, velocity).ravel(), h_map @ velocity.ravel())
    assert np.allclose(mapped_impulse(found, turned, gamma).ravel(), h_map.T @ gamma.ravel())


# --- where contacts sit on the mesh ---------------------------------------------------------------------------
@pytest.mark.parametrize("element", ["tet4", "tet10"])
@pytest.mark.parametrize("corners", [
    [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]],                  # the whole face
    [[-0.3, -0.45], [0.41, -0.2], [0.35, 0.37], [-0.1, 0.44], [-0.42, 0.1]],  # a pentagon within it
    [[-0.2, -0.3], [0.45, 0.1], [-0.35, 0.4]],                             # a triangle
])
def test_joint_mortar_loads_the_face_with_the_corner_forces_resultant(element, corners):
    """Corner forces F_k spread by the mortar weights (engine.deformable.surface_map) give the face's nodes the
    same resultant force and moment as the corners (1e-12), and a rigid motion of the face moves each corner
    with it: the elastic block sees the joint's force and moment exactly as the rigid analysis has them."""
    from extrados.engine.deformable.blocks import block_mesh
    from extrados.engine.deformable.surface_map import polygon_weights
    cube = box((-0.5, -0.5, -0.5), (0.5, 0.5, 0.5))
    mesh = block_mesh(cube, np.zeros(3), 0.3, element, "blocks[0].deformable")
    points = np.array([[x, y, -0.5] for x, y in corners])
    weights = polygon_weights(mesh, points, np.array([0.0, 0.0, -1.0]), 1e-9)
    forces = np.random.default_rng(7).uniform(0.5, 2.0, len(points))
    nodal = forces @ weights                                                     # (n,) normal force per node
    assert nodal.sum() == pytest.approx(forces.sum(), rel=1e-12)
    assert np.allclose(nodal @ mesh.nodes[:, :2], forces @ points[:, :2], rtol=0, atol=1e-12 * forces.sum())
    turn = np.array([[0.0, -0.3, 0.2], [0.3, 0.0, -0.1], [-0.2, 0.1, 0.0]])     # a small rotation, w x
    motion = np.array([0.1, -0.2, 0.3]) + mesh.nodes @ turn.T
    assert np.allclose(weights @ motion, np.array([0.1, -0.2, 0.3]) + points @ turn.T, atol=1e-12)


# --- mortar joints --------------------------------------------------------------------------------------------
def test_mortared_cantilever_of_deformable_blocks_carries_its_arm_as_the_rigid_one():
    """Seed 004's cohesive joints on deformable blocks: the arm mortared to the side of a pier hangs from its
    intact joint, whose resultant is the rigid model's (statically determinate: the arm's weight, 1e-3), and
    the arm's stress averages to its contact-force tensor (seed 001 eq. 35)."""
    from tests.test_mortar import MORTAR, cantilever
    rigid = analyze(Model.from_dict(cantilever(MORTAR)), "static").to_dict()
    doc = cantilever(MORTAR)
    doc["materials"]["stone"]["deformable"] = {"E": 1e9, "nu": 0.2, "element": "tet10"}
    elastic = analyze(Model.from_dict(doc), "static").to_dict()
    assert rigid["stable"] and elastic["stable"]

    def arm_joint(result):
        return next(j for j in result["interfaces"] if set(j["blocks"]) == {"pier", "arm"})
    assert arm_joint(elastic)["bond"] == "intact"
    weight = 2000.0 * G * 0.2 * 0.2 * 0.2
    assert np.allclose(arm_joint(elastic)["force"], arm_joint(rigid)["force"], atol=1e-3 * weight)
    arm = next(f for f in elastic["deformable"] if f["block"] == "arm")
    arm_stress = next(b["stress"] for b in elastic["blocks"] if b["id"] == "arm")
    assert np.allclose(arm["mean_stress"], arm_stress, atol=1e-5 * np.abs(arm_stress).max())   # measured 1.2e-7


@pytest.mark.parametrize("request_fields, path", [
    ({"integrator": "hht"}, "analysis.integrator"),
    ({"rocking_restitution": 0.8}, "analysis.rocking_restitution"),
])
def test_rigid_block_laws_refuse_deformable_blocks_by_name(request_fields, path):
    doc = document([("ground", box((0, 0, -0.1), (1, 1, 0)), "stone", True),
                    ("cube", box((0, 0, 0), (1, 1, 1)), "elastic", False)], {"E": 1e9, "nu": 0.2, "element": "tet4"})
    for joint in doc["joints"].values():
        joint["normal_stiffness"] = 1e9
    with pytest.raises(ModelError) as error:
        analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 0.01, "time_step": 1e-3, **request_fields})
    assert error.value.path == path
