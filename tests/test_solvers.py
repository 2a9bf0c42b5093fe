"""Cone complementarity solvers: the cone projection by hand, the matrix-free operator against a dense
assembly, closed-form physics (box at rest, stacked column, block sliding on a slope), agreement of
every solver with the conic reference, the CCP conditions, and uniqueness under regularization.
"""
import numba
import numpy as np
import pytest
from scipy.optimize import minimize

import problems
from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers import SOLVERS, Problem, solve
from extrados.engine.solvers import problem as problem_module
from extrados.engine.solvers.cone import cone_projection_jacobian, project_cone_point, project_cones
from extrados.engine.solvers.reference import MAX_CONTACTS, delassus_matrix
from extrados.engine.solvers.result import finish
from extrados.engine.solvers.threads import MAX_TRIAL_INTERVAL, ThreadGovernor
from extrados.engine.tolerance import TOL

ITERATIVE = ["apgd", "spg", "pgs", "jacobi"]
#: Every solver compared with the reference: the iterative ones, the interior-point and Newton ones, the default.
COMPARED = ITERATIVE + ["interior", "newton", "auto"]
#: The solver a result names: ``auto`` reports the one that ran (APGD unless it retried).
RAN = {"auto": "apgd"}
#: Residual the solvers are asked for in the comparisons.
SOLVE_TOLERANCE = 1e-8
#: Enough iterations for projected Gauss-Seidel to get through the stall of over-constrained joints.
MAX_ITERATIONS = 200_000
#: Impulses agree with the reference within this fraction of the largest impulse.
AGREEMENT = 1e-4
#: CCP conditions hold within this fraction of the impulse and velocity scales.
CCP_TOLERANCE = 1e-6
#: Closed-form impulses and velocities are met within this relative error.
CLOSED_FORM = 1e-6
#: Self-equilibrated (tangential) impulses of an over-constrained joint are pinned only by the compliance E:
#: a velocity error of SOLVE_TOLERANCE g h leaves up to SOLVE_TOLERANCE g h / E of them, i.e. a fraction
#: SOLVE_TOLERANCE / (m E) of the weight m g h (1e-5 here); a factor 10 of margin.
SELF_EQUILIBRATED = 10 * SOLVE_TOLERANCE / (1000.0 * problems.JOINT_COMPLIANCE)


def solved(problem, name, tolerance=SOLVE_TOLERANCE, **options):
    """Solve and require convergence."""
    result = solve(problem, name, tolerance=tolerance, max_iterations=MAX_ITERATIONS, **options)
    assert result.converged, f"{name}: residual {result.residual:.2e} after {result.iterations} iterations"
    assert result.residual <= tolerance
    return result


def assert_ccp(problem, gamma, tolerance=CCP_TOLERANCE):
    """gamma in Upsilon, u = N gamma + r in Upsilon^*, gamma_i . u_i = 0 (eq. 38), to ``tolerance``."""
    u = problem.gradient(gamma)
    impulse_scale = np.abs(gamma).max()
    velocity_scale = problem.rhs_scale
    mu = problem.friction
    primal = mu * gamma[:, 0] - np.linalg.norm(gamma[:, 1:], axis=1)
    dual = u[:, 0] - mu * np.linalg.norm(u[:, 1:], axis=1)
    complementarity = np.abs(np.sum(gamma * u, axis=1))
    assert primal.min() >= -tolerance * impulse_scale, "primal infeasible"
    assert dual.min() >= -tolerance * velocity_scale, "dual infeasible"
    assert complementarity.max() <= tolerance * impulse_scale * velocity_scale, "not complementary"


# ---------------------------------------------------------------- projection onto one cone

def project(point, mu):
    return np.array(project_cone_point(point[0], point[1], point[2], mu))


@pytest.mark.parametrize("point, mu", [
    ((1.0, 0.3, 0.4), 0.6),        # strictly inside: ||t|| = 0.5 < 0.6
    ((2.0, 0.0, 0.0), 0.5),        # on the axis
    ((1.0, 0.36, 0.48), 0.6),      # on the surface: ||t|| = 0.6 = mu n
    ((0.0, 0.0, 0.0), 0.5),        # the apex
    ((3.0, 0.0, 0.0), 0.0),        # frictionless: the half-line
])
def test_projection_keeps_points_of_the_cone(point, mu):
    assert np.array_equal(project(point, mu), np.array(point))


@pytest.mark.parametrize("point, mu", [
    ((-1.0, 0.3, 0.4), 0.5),       # mu ||t|| = 0.25 <= 1
    ((-1.0, 0.0, 0.0), 0.5),       # the negative axis
    ((-0.5, 0.6, 0.8), 0.5),       # on the polar surface: mu ||t|| = 0.5 = -n
    ((-2.0, 1.0, 1.0), 0.0),       # frictionless, n < 0
])
def test_projection_sends_the_polar_cone_to_the_apex(point, mu):
    assert np.array_equal(project(point, mu), np.zeros(3))


def test_projection_general_case_closed_form():
    # (n, t) = (1, (3, 4)), mu = 1/2: tau = 5, n' = (1 + 2.5) / 1.25 = 2.8, t' = mu n' t / tau = (0.84, 1.12)
    projected = project((1.0, 3.0, 4.0), 0.5)
    assert projected == pytest.approx([2.8, 0.84, 1.12], rel=1e-15)
    # frictionless: the tangential part is dropped
    assert np.array_equal(project((2.0, 1.0, -1.0), 0.0), np.array([2.0, 0.0, 0.0]))


def test_projection_is_the_moreau_decomposition():
    rng = np.random.default_rng(7)
    points = rng.normal(size=(500, 3)) * 3.0
    mu = rng.uniform(0.0, 1.5, 500)
    mu[:50] = 0.0
    projected = np.empty_like(points)
    project_cones(points, mu, projected)
    rest = points - projected
    # projected in Upsilon, rest in the polar cone -Upsilon^* = {mu ||t|| <= -n}, and orthogonal
    assert np.all(mu * projected[:, 0] - np.linalg.norm(projected[:, 1:], axis=1) >= -1e-12)
    assert np.all(-rest[:, 0] - mu * np.linalg.norm(rest[:, 1:], axis=1) >= -1e-12)
    assert np.abs(np.sum(projected * rest, axis=1)).max() <= 1e-12


@pytest.mark.parametrize("seed", range(6))
def test_projection_matches_brute_force_minimisation(seed):
    rng = np.random.default_rng(seed)
    point = rng.normal(size=3) * 2.0
    point[0] = rng.uniform(-1.0, 1.0) * np.linalg.norm(point[1:])  # mostly outside, mostly case (P3)
    mu = rng.uniform(0.2, 1.2)

    # nearest point of the cone surface (s, mu s cos phi, mu s sin phi), s >= 0: a fine grid, then Nelder-Mead
    def surface(s, phi):
        return np.stack(np.broadcast_arrays(s, mu * s * np.cos(phi), mu * s * np.sin(phi)), axis=-1)

    s_grid, phi_grid = np.meshgrid(np.linspace(0.0, 4.0, 801), np.linspace(0.0, 2.0 * np.pi, 361))
    distances = np.sum((surface(s_grid, phi_grid) - point) ** 2, axis=-1)
    nearest = np.unravel_index(np.argmin(distances), distances.shape)
    start = np.array([s_grid[nearest], phi_grid[nearest]])
    best = minimize(lambda x: np.sum((surface(abs(x[0]), x[1]) - point) ** 2), start, method="Nelder-Mead",
                    options={"xatol": 1e-10, "fatol": 1e-20, "maxiter": 1000})
    brute = surface(abs(best.x[0]), best.x[1])
    inside = np.linalg.norm(point[1:]) <= mu * point[0]
    expected = point if inside else brute
    assert project(point, mu) == pytest.approx(expected, abs=1e-6)


def test_projection_jacobian_matches_finite_differences():
    rng = np.random.default_rng(3)
    points = rng.normal(size=(200, 3))
    mu = rng.uniform(0.0, 1.2, 200)
    analytic = cone_projection_jacobian(points, mu)
    step = 1e-6
    for i in range(200):
        numeric = np.empty((3, 3))
        for k in range(3):
            plus, minus = points[i].copy(), points[i].copy()
            plus[k] += step
            minus[k] -= step
            numeric[:, k] = (project(plus, mu[i]) - project(minus, mu[i])) / (2 * step)
        assert analytic[i] == pytest.approx(numeric, abs=1e-6)


# ---------------------------------------------------------------- the operator

def test_operators_match_a_dense_assembly():
    problem = problems.random_problem(4)
    n_c, n_b = problem.n_contacts, problem.n_bodies
    dense = delassus_matrix(problem).toarray()
    # dense D (6 n_b, 3 n_c) and M^-1 (6 n_b, 6 n_b), built independently of the kernels
    jacobian = np.zeros((6 * n_b, 3 * n_c))
    inverse_mass = np.zeros((6 * n_b, 6 * n_b))
    for i in range(n_c):
        jacobian[6 * problem.body_a[i]:6 * problem.body_a[i] + 6, 3 * i:3 * i + 3] += problem.jacobian_a[i].T
        jacobian[6 * problem.body_b[i]:6 * problem.body_b[i] + 6, 3 * i:3 * i + 3] += problem.jacobian_b[i].T
    for b in range(n_b):
        inverse_mass[6 * b:6 * b + 3, 6 * b:6 * b + 3] = problem.inverse_mass[b] * np.eye(3)
        inverse_mass[6 * b + 3:6 * b + 6, 6 * b + 3:6 * b + 6] = problem.inverse_inertia[b]
    expected = jacobian.T @ inverse_mass @ jacobian + np.diag(problem.compliance.ravel())
    assert dense == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert np.linalg.eigvalsh(expected).min() > 0.0

    gamma = np.random.default_rng(5).normal(size=(n_c, 3))
    assert problem.apply(gamma).ravel() == pytest.approx(expected @ gamma.ravel(), rel=1e-12, abs=1e-12)
    assert problem.velocity(gamma).ravel() == pytest.approx(inverse_mass @ jacobian @ gamma.ravel(), abs=1e-12)
    assert problem.objective(gamma) == pytest.approx(
        0.5 * gamma.ravel() @ expected @ gamma.ravel() + gamma.ravel() @ problem.rhs.ravel(), rel=1e-12)
    blocks, scale = problem.diagonal_blocks()
    for i in range(n_c):
        assert blocks[i] == pytest.approx(expected[3 * i:3 * i + 3, 3 * i:3 * i + 3], rel=1e-12, abs=1e-12)
    assert scale == pytest.approx(np.trace(blocks, axis1=1, axis2=2) / 3.0)


def test_residual_is_dimensionless_and_vanishes_only_at_the_solution():
    problem = problems.random_problem(5)
    gamma = solved(problem, "reference").gamma
    assert problem.residual(gamma) <= 1e-12
    assert problem.residual(np.zeros_like(gamma)) > 1e-2
    # scaling r by c scales the solution by c: the residual of c gamma is unchanged
    scaled = Problem(problem.body_a, problem.body_b, problem.jacobian_a, problem.jacobian_b, problem.inverse_mass,
                     problem.inverse_inertia, problem.compliance, problem.friction, 1e3 * problem.rhs)
    trial = gamma + 0.01
    assert scaled.residual(1e3 * trial) == pytest.approx(problem.residual(trial), rel=1e-10)


@pytest.mark.parametrize("field, value, message", [
    ("jacobian_a", np.zeros((12, 3, 5)), "Problem.jacobian_a: expected shape (12, 3, 6)"),
    ("compliance", np.zeros((12, 3)), "Problem.compliance[0]: entries must be > 0"),
    ("friction", -np.ones(12), "Problem.friction[0]: must be >= 0"),
    ("body_b", np.full(12, 99), "Problem.body_b[0]: body index 99 outside 0..9"),
    ("rhs", np.full((12, 3), np.nan), "Problem.rhs: contains non-finite values"),
])
def test_problem_validation_names_the_field(field, value, message):
    problem = problems.random_problem(0)
    fields = {name: getattr(problem, name) for name in ("body_a", "body_b", "jacobian_a", "jacobian_b", "inverse_mass",
                                                        "inverse_inertia", "compliance", "friction", "rhs")}
    fields[field] = value
    with pytest.raises(ValueError) as error:
        Problem(**fields)
    assert message in str(error.value)


def test_problem_rejects_a_contact_of_a_body_with_itself():
    problem = problems.random_problem(0)
    with pytest.raises(ValueError, match=r"Problem.body_b\[0\]: contact joins body"):
        Problem(problem.body_a, problem.body_a, problem.jacobian_a, problem.jacobian_b, problem.inverse_mass,
                problem.inverse_inertia, problem.compliance, problem.friction, problem.rhs)


def split_into_runs(monkeypatch, problem, contacts_per_run=8):
    """A copy of ``problem`` whose operators run as parallel kernels on runs of a few contacts."""
    assert not problem.parallel  # its partition is now cached, with the real PART_CONTACTS
    monkeypatch.setattr(problem_module, "PART_CONTACTS", contacts_per_run)
    fields = {name: getattr(problem, name) for name in ("body_a", "body_b", "jacobian_a", "jacobian_b", "inverse_mass",
                                                        "inverse_inertia", "compliance", "friction", "rhs")}
    split = Problem(**fields)
    assert split.parallel
    return split


def test_parallel_operators_match_the_serial_ones(monkeypatch):
    problem = problems.random_problem(4, n_bodies=12, n_supports=2, n_contacts=40)
    split = split_into_runs(monkeypatch, problem)
    assert split.partition[0].shape[0] - 1 == problem_module.MAX_PARTS
    rng = np.random.default_rng(8)
    gamma = rng.normal(size=(problem.n_contacts, 3))
    assert split.apply(gamma) == pytest.approx(problem.apply(gamma), rel=1e-12, abs=1e-12)
    assert split.velocity(gamma) == pytest.approx(problem.velocity(gamma), rel=1e-12, abs=1e-12)
    assert np.array_equal(split.project(gamma), problem.project(gamma))
    gradient = problem.gradient(gamma)
    assert split.residual(gamma, gradient) == problem.residual(gamma, gradient)
    gamma[7, 1] = np.nan
    assert np.isnan(split.residual(gamma, gradient)) and np.isnan(problem.residual(gamma, gradient))


@pytest.mark.parametrize("name", ["apgd", "spg", "jacobi"])
def test_parallel_solvers_ignore_the_thread_count(monkeypatch, name):
    # the runs, not the threads, fix the rounding: one thread and all threads give the same bits
    problem = split_into_runs(monkeypatch, problems.random_problem(2, n_bodies=40, n_supports=4, n_contacts=50))
    threads = numba.get_num_threads()
    many = solve(problem, name, tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    numba.set_num_threads(1)
    try:
        one = solve(problem, name, tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    finally:
        numba.set_num_threads(threads)
    assert many.converged and np.array_equal(many.gamma, one.gamma)


def test_thread_governor_tries_both_thread_counts_and_restores_the_setting():
    governor = ThreadGovernor()
    threads = numba.get_num_threads()
    seen = [governor.run("count", numba.get_num_threads) for _ in range(MAX_TRIAL_INTERVAL + 3)]
    assert seen[:3] == [1, 1, threads]  # one thread first (the safe choice), then all
    assert set(seen[3:]) == {1, threads}  # the faster one, and a trial of the other
    assert numba.get_num_threads() == threads


def test_row_sums_bound_the_delassus_rows():
    problem = problems.random_problem(3, n_bodies=8, n_supports=2, n_contacts=30)
    dense = delassus_matrix(problem).toarray()
    bound = problem.row_sums().ravel()
    assert np.all(np.abs(dense).sum(axis=1) <= bound * (1.0 + 1e-12))
    # Gershgorin: the preconditioner of APGD, 1 / (largest bound of each contact), keeps P N below 1
    precondition = np.repeat(1.0 / problem.row_sums().max(axis=1), 3)
    root = np.sqrt(precondition)
    assert np.linalg.eigvalsh(root[:, None] * dense * root[None, :]).max() <= 1.0 + 1e-12


def test_apgd_confirms_its_stop_from_scratch(monkeypatch):
    # APGD carries body velocities along with its iterates; spoil the first one so that the carried
    # velocities stay wrong: the stop it then believes in must be caught and the solve finished properly
    problem = problems.stack().problem
    calls = []
    exact_velocity = Problem.velocity

    def spoiled_velocity(self, gamma):
        velocity = exact_velocity(self, gamma)
        if not calls:
            velocity[1:] += 1e-3 * problems.GRAVITY
        calls.append(1)
        return velocity

    monkeypatch.setattr(Problem, "velocity", spoiled_velocity)
    result = solved(problem, "apgd")
    assert len(calls) > 1, "the carried velocities were never recomputed"
    assert problem.residual(result.gamma) <= SOLVE_TOLERANCE


# ---------------------------------------------------------------- closed-form physics

def chain_joint_impulses(n_boxes, mass, compliance, step=1.0):
    """Joint totals G_j of a centred column on 4-point joints with normal compliance E (exact).

    Box j: m v_j = G_j - G_{j+1} - m g h (G_{n+1} = 0); sticking joint j: v_j - v_{j-1} + E G_j / 4 = 0 (v_0 = 0).
    """
    n = n_boxes
    system = np.zeros((2 * n, 2 * n))  # unknowns [G_1..G_n, v_1..v_n]
    right = np.zeros(2 * n)
    for j in range(n):
        system[j, j] = 1.0
        if j + 1 < n:
            system[j, j + 1] = -1.0
        system[j, n + j] = -mass
        right[j] = mass * problems.GRAVITY * step
        system[n + j, n + j] = 1.0
        if j > 0:
            system[n + j, n + j - 1] = -1.0
        system[n + j, j] = compliance / 4.0
    solution = np.linalg.solve(system, right)
    return solution[:n], solution[n:]


@pytest.mark.parametrize("name", SOLVERS)
def test_box_at_rest_carries_its_weight(name):
    scene = problems.box_on_ground()
    gamma = solved(scene.problem, name).gamma
    weight_impulse = scene.mass * problems.GRAVITY * scene.step
    total, fall = chain_joint_impulses(1, scene.mass, problems.JOINT_COMPLIANCE)
    # sum gamma_n = m g h / (1 + m E / 4): the weight, less the momentum of the compliant settling
    assert gamma[:, 0].sum() == pytest.approx(total[0], rel=CLOSED_FORM)
    assert gamma[:, 0].sum() == pytest.approx(weight_impulse, rel=scene.mass * problems.JOINT_COMPLIANCE)
    assert np.abs(gamma[:, 1:]).max() <= SELF_EQUILIBRATED * weight_impulse
    # after the step the box only creeps down by E gamma_n (compliance), it neither slides nor turns
    velocity = scene.free_velocity + scene.problem.velocity(gamma)
    assert velocity[1] == pytest.approx([0, 0, fall[0], 0, 0, 0], abs=CLOSED_FORM * problems.GRAVITY * scene.step)


@pytest.mark.parametrize("name", SOLVERS)
def test_stack_joints_carry_the_weight_above(name):
    n_boxes = 5
    scene = problems.stack(n_boxes)
    gamma = solved(scene.problem, name).gamma
    joints = gamma[:, 0].reshape(n_boxes, 4)  # joint k from the bottom, 4 corners each
    expected, _ = chain_joint_impulses(n_boxes, scene.mass, problems.JOINT_COMPLIANCE)
    weight_above = scene.mass * problems.GRAVITY * np.arange(n_boxes, 0, -1)
    assert joints.sum(axis=1) == pytest.approx(expected, rel=CLOSED_FORM)
    assert joints.sum(axis=1) == pytest.approx(weight_above, rel=n_boxes * scene.mass * problems.JOINT_COMPLIANCE)
    # centred load: the four corners share each joint equally, nothing is tangential
    assert joints == pytest.approx(np.repeat(expected[:, None] / 4, 4, axis=1), rel=SELF_EQUILIBRATED)
    assert np.abs(gamma[:, 1:]).max() <= SELF_EQUILIBRATED * weight_above[0]


@pytest.mark.parametrize("name", SOLVERS)
def test_block_on_a_slope_slides_on_the_cone_surface(name):
    friction, slope_deg = 0.3, 30.0
    assert friction < np.tan(np.radians(slope_deg))
    scene, load = problems.box_on_slope(slope_deg=slope_deg, push_ratio=0.5, friction=friction)
    gamma = solved(scene.problem, name).gamma
    # every contact slides: mu gamma_n = ||gamma_t||
    assert np.all(gamma[:, 0] > 0.0)
    tangential = np.linalg.norm(gamma[:, 1:], axis=1)
    assert friction * gamma[:, 0] == pytest.approx(tangential, rel=TOL.slip_relative)
    # friction on the box opposes its sliding velocity
    velocity = scene.free_velocity + scene.problem.velocity(gamma)
    frame = scene.problem.jacobian_b[:, :, :3]  # rows n, u, v of each contact (world)
    friction_force = np.einsum("ck,ckj->j", gamma[:, 1:], frame[:, 1:, :])
    sliding = velocity[1, :2]
    cosine = friction_force[:2] @ sliding / (np.linalg.norm(friction_force[:2]) * np.linalg.norm(sliding))
    assert cosine == pytest.approx(-1.0, abs=1e-6)
    # rigid associated-flow slide (seed 000 sec. 2.4): v_t = h (|f_t| - mu g cos theta) / (1 + mu^2) along f_t,
    # with the dilatancy v_n = mu v_t of the convexified friction law; compliance shifts it by ~m E
    driving = np.hypot(load[0], load[1])
    speed = scene.step * (driving + friction * load[2]) / (1.0 + friction ** 2)
    assert sliding == pytest.approx(speed * load[:2] / driving, rel=1e-3)
    assert velocity[1, 2] == pytest.approx(friction * speed, rel=1e-2)


# ---------------------------------------------------------------- agreement and the CCP

SCENES = {
    "box": lambda: problems.box_on_ground().problem,
    "stack": lambda: problems.stack().problem,
    "slope": lambda: problems.box_on_slope()[0].problem,
    "random0": lambda: problems.random_problem(0),
    "random1": lambda: problems.random_problem(1),
    "random2": lambda: problems.random_problem(2, n_bodies=40, n_supports=4, n_contacts=50),
    "random3_equal_tangents": lambda: problems.random_problem(3, n_bodies=40, n_supports=4, n_contacts=50,
                                                              equal_tangents=True),
}
#: Scenes whose contacts have two different tangential compliances, which the Newton solver refuses.
UNEQUAL_TANGENTS = ("random0", "random1", "random2")


@pytest.fixture(scope="module")
def references():
    cache = {}

    def get(scene):
        if scene not in cache:
            problem = SCENES[scene]()
            cache[scene] = problem, solved(problem, "reference", tolerance=1e-12)
        return cache[scene]
    return get


@pytest.mark.parametrize("scene", SCENES)
def test_reference_satisfies_the_ccp(references, scene):
    problem, reference = references(scene)
    assert reference.residual <= 1e-12
    assert_ccp(problem, reference.gamma, tolerance=1e-10)


@pytest.mark.parametrize("name", COMPARED)
@pytest.mark.parametrize("scene", SCENES)
def test_solvers_agree_with_the_reference(references, scene, name):
    problem, reference = references(scene)
    if name == "newton" and scene in UNEQUAL_TANGENTS:
        with pytest.raises(ValueError, match="unequal tangential compliances"):
            solve(problem, name)
        return
    result = solved(problem, name)
    scale = np.abs(reference.gamma).max()
    assert np.abs(result.gamma - reference.gamma).max() <= AGREEMENT * scale
    assert_ccp(problem, result.gamma)


@pytest.mark.parametrize("name", ["apgd", "spg", "pgs"])
def test_regularized_solution_is_unique(name):
    # the over-constrained joints of a column leave tangential impulses free but for the compliance E:
    # starts far apart must still land on the same impulses (jacobi, with its global safe step, needs
    # far more than MAX_ITERATIONS to undo a start this far off along those weak directions)
    problem = problems.stack().problem
    rng = np.random.default_rng(11)
    far = rng.normal(size=(problem.n_contacts, 3)) * 5e4 + np.array([5e4, 0.0, 0.0])
    from_zero = solved(problem, name).gamma
    from_far = solved(problem, name, gamma0=far).gamma
    assert np.abs(from_zero - from_far).max() <= AGREEMENT * np.abs(from_zero).max()


# ---------------------------------------------------------------- reports and edge cases

@pytest.mark.parametrize("name", SOLVERS)
def test_solver_reports(name):
    problem = problems.stack().problem
    result = solve(problem, name, tolerance=1e-6, max_iterations=MAX_ITERATIONS, record_history=True)
    assert result.name == RAN.get(name, name)
    assert result.converged and result.residual <= 1e-6
    assert result.seconds >= 0.0 and result.iterations > 0
    if name not in ("reference", "interior"):
        assert len(result.history) == result.iterations
        assert min(result.history) == pytest.approx(result.residual, rel=1e-6)
    # deterministic: the same problem and options give the same impulses bit for bit (with the same options:
    # a history makes APGD evaluate its residual at every iterate instead of every RESIDUAL_INTERVAL-th)
    again = solve(problem, name, tolerance=1e-6, max_iterations=MAX_ITERATIONS, record_history=True)
    assert np.array_equal(again.gamma, result.gamma)


@pytest.mark.parametrize("name", ITERATIVE)
def test_iteration_cap_reports_not_converged(name):
    result = solve(problems.stack().problem, name, tolerance=1e-12, max_iterations=3)
    assert not result.converged
    assert result.iterations == 3
    assert np.isfinite(result.residual) and np.all(np.isfinite(result.gamma))


@pytest.mark.parametrize("name", ITERATIVE)
def test_warm_start_is_projected_first(name):
    problem = problems.box_on_ground().problem
    outside = np.tile([1.0, 5.0, 0.0], (problem.n_contacts, 1))
    result = solve(problem, name, gamma0=outside, max_iterations=0)
    assert result.gamma == pytest.approx(problem.project(outside))


@pytest.mark.parametrize("name", SOLVERS)
def test_no_contacts(name):
    empty = Problem(np.zeros(0), np.zeros(0), np.zeros((0, 3, 6)), np.zeros((0, 3, 6)), np.ones(2),
                    np.tile(np.eye(3), (2, 1, 1)), np.zeros((0, 3)), np.zeros(0), np.zeros((0, 3)))
    result = solve(empty, name)
    assert result.converged and result.gamma.shape == (0, 3)


def test_non_finite_iterates_are_never_returned():
    problem = problems.box_on_ground().problem
    result = finish(problem, "apgd", np.full((problem.n_contacts, 3), np.nan), 7, 1e-6, Stopwatch(), None)
    assert not result.converged
    assert np.all(np.isfinite(result.gamma))


def test_reference_refuses_large_problems():
    problem = problems.random_problem(0, n_bodies=10, n_contacts=MAX_CONTACTS + 1)
    with pytest.raises(ValueError, match="exceed the limit"):
        solve(problem, "reference")


def test_unknown_solver_name():
    with pytest.raises(ValueError, match="unknown name 'nope'"):
        solve(problems.box_on_ground().problem, "nope")
