"""Cohesive contacts: the Coulomb cone shifted by a cohesion C and cut off at a tensile cap T (cone.py, C1).

The projection against two independent nearest-point computations (an exact one in the plane of the
axis and the point, and SLSQP in three dimensions), its Jacobian against finite differences, every
solver against the conic reference on random problems with cohesion (with the optimality conditions
checked from the inequalities of the set, not through the projection), and a block pulled off its
base below and above the tensile cap.
"""
import numpy as np
import pytest
from scipy.optimize import minimize

import problems
from extrados.engine.solvers import SOLVERS, Problem, solve
from extrados.engine.solvers import problem as problem_module
from extrados.engine.solvers.cone import (cohesive_projection_jacobian, cone_projection_jacobian, project_cohesive_point,
                                 project_cone_point)

ITERATIVE = ["apgd", "spg", "pgs", "jacobi"]
#: Residual the solvers are asked for.
SOLVE_TOLERANCE = 1e-8
#: Enough iterations for projected Gauss-Seidel on the random problems.
MAX_ITERATIONS = 200_000
#: Impulses agree with the reference within this fraction of the largest impulse.
AGREEMENT = 1e-4
#: Optimality conditions hold within this fraction of the impulse and velocity scales.
OPTIMALITY_TOLERANCE = 1e-6
#: The projection matches the exact planar nearest point within this fraction of the point's size.
EXACT = 1e-12
#: ... and SLSQP's nearest point within this fraction: with ftol = 1e-16 on the squared distance SLSQP
#: stops 1e-9..2e-8 of the point's size away from the optimum (the distance is flat to second order there).
SLSQP_AGREEMENT = 1e-7
#: Finite-difference step and agreement of the Jacobian (central differences: error ~ step^2).
DIFFERENCE_STEP = 1e-6
DIFFERENCE_AGREEMENT = 1e-6


def cohesive(point, mu, strength, tension):
    return np.array(project_cohesive_point(point[0], point[1], point[2], mu, strength, tension))


def effective_tension(mu, strength, tension):
    """T_eff = min(T, C / mu): below the apex -C/mu the cut-off does nothing."""
    return tension if mu == 0.0 else min(tension, strength / mu)


def violation(point, mu, strength, tension):
    """Largest violation of the inequalities n >= -T, ||t|| <= C + mu n (N s); <= 0 inside S."""
    return max(-tension - point[0], np.hypot(point[1], point[2]) - strength - mu * point[0])


def nearest_in_plane(point, mu, strength, tension):
    """Exact nearest point of S, by reduction to the plane of the axis and the point.

    Turning the tangential part of any point of S onto the direction of t keeps it in S and brings it
    closer, so the nearest point is (n, s t / ||t||) with (n, s) the nearest point of the planar region
    P = {n >= -T_eff, 0 <= s <= C + mu n} to (n_z, ||t_z||): the point itself when inside, else the best
    of its feet on the edges of P (two rays and a segment) and the vertices.
    """
    floor = -effective_tension(mu, strength, tension)
    top = strength + mu * floor  # radius of the cut-off disk
    normal, tau = point[0], np.hypot(point[1], point[2])
    candidates = [(floor, 0.0), (floor, top)]
    # the axis s = 0, n >= floor
    candidates.append((max(normal, floor), 0.0))
    # the segment n = floor, 0 <= s <= top
    candidates.append((floor, min(tau, top)))
    # the ray (floor, top) + lambda (1, mu), lambda >= 0
    direction = np.array([1.0, mu]) / np.hypot(1.0, mu)
    along = max(0.0, (normal - floor) * direction[0] + (tau - top) * direction[1])
    candidates.append((floor + along * direction[0], top + along * direction[1]))
    if normal >= floor and tau <= strength + mu * normal:
        candidates.append((normal, tau))
    best = min(candidates, key=lambda c: (c[0] - normal) ** 2 + (c[1] - tau) ** 2)
    scale = best[1] / tau if tau > 0.0 else 0.0
    return np.array([best[0], scale * point[1], scale * point[2]])


def nearest_by_slsqp(point, mu, strength, tension):
    """Nearest point of S by SLSQP on ||x - z||^2 with the inequalities of S, from a point inside S.

    ||t|| <= C + mu n is squared, (C + mu n)^2 >= ||t||^2 with C + mu n >= 0, to be smooth at t = 0; where
    S has no interior (mu = C = 0) its definition t = 0 is stated as equalities.
    """
    constraints = [{"type": "ineq", "fun": lambda x: x[0] + tension},
                   {"type": "ineq", "fun": lambda x: strength + mu * x[0]}]
    if mu == 0.0 and strength == 0.0:
        constraints.append({"type": "eq", "fun": lambda x: x[1:]})
    else:
        constraints.append({"type": "ineq", "fun": lambda x: (strength + mu * x[0]) ** 2 - x[1] ** 2 - x[2] ** 2})
    tau = np.hypot(point[1], point[2])
    direction = point[1:] / tau if tau > 0.0 else np.zeros(2)
    start = np.concatenate([[1.0], 0.5 * (strength + mu) * direction])  # inside S: n = 1, ||t|| = (C + mu) / 2
    result = minimize(lambda x: np.sum((x - point) ** 2), start, jac=lambda x: 2.0 * (x - point),
                      method="SLSQP", constraints=constraints, options={"ftol": 1e-16, "maxiter": 1000})
    return result.x


def random_sets(rng, count):
    """``count`` random (mu, C, T), with mu = 0, C = 0, T = 0 and the inactive cut-off T > C/mu all present."""
    sets = []
    for k in range(count):
        mu = [0.0, 0.3, 0.8, 2.0][k % 4]
        strength = 0.0 if k % 5 == 0 else rng.uniform(0.0, 2.0)
        tension = 0.0 if k % 7 == 0 else rng.uniform(0.0, 2.0)
        if k % 6 == 1 and mu > 0.0:
            tension = strength / mu + rng.uniform(0.0, 1.0)  # cut-off inactive
        sets.append((mu, strength, tension))
    return sets


# ---------------------------------------------------------------- the projection

def test_projection_is_the_nearest_point_of_the_set():
    rng = np.random.default_rng(0)
    for mu, strength, tension in random_sets(rng, 400):
        point = rng.normal(size=3) * rng.choice([0.3, 1.0, 4.0])
        projected = cohesive(point, mu, strength, tension)
        exact = nearest_in_plane(point, mu, strength, tension)
        size = max(1.0, np.abs(point).max())
        assert np.abs(projected - exact).max() <= EXACT * size, (point, mu, strength, tension)


def test_projection_matches_slsqp():
    # SLSQP is a second, three-dimensional witness. Now and then (2 points in 300) it stops short of the
    # optimum, where the answer is the apex or on the axis (the squared constraint has no gradient
    # there); so: never farther than its (feasible) point, and equal to it within SLSQP_AGREEMENT for all
    # but a few points.
    rng = np.random.default_rng(1)
    close = 0
    sets = random_sets(rng, 120)
    for mu, strength, tension in sets:
        point = rng.normal(size=3) * 2.0
        projected = cohesive(point, mu, strength, tension)
        witness = nearest_by_slsqp(point, mu, strength, tension)
        size = max(1.0, np.abs(point).max())
        if violation(witness, mu, strength, tension) <= SLSQP_AGREEMENT * size:
            assert np.linalg.norm(point - projected) <= np.linalg.norm(point - witness) + SLSQP_AGREEMENT * size
        close += np.abs(projected - witness).max() <= SLSQP_AGREEMENT * size
    assert close >= 0.95 * len(sets)


def test_projection_lands_in_the_set_and_is_idempotent():
    rng = np.random.default_rng(2)
    for mu, strength, tension in random_sets(rng, 400):
        point = rng.normal(size=3) * 3.0
        projected = cohesive(point, mu, strength, tension)
        assert violation(projected, mu, strength, tension) <= 1e-14 * max(1.0, np.abs(point).max())
        again = cohesive(projected, mu, strength, tension)
        assert np.abs(again - projected).max() <= 1e-14 * max(1.0, np.abs(point).max())
        # first-order condition of the nearest point: (z - p) . (y - p) <= 0 for every y of S
        for _ in range(20):
            candidate = rng.normal(size=3) * 3.0
            member = cohesive(candidate, mu, strength, tension)
            assert np.dot(point - projected, member - projected) <= 1e-12 * max(1.0, np.abs(point).max()) ** 2


@pytest.mark.parametrize("case, point, mu, strength, tension, expected", [
    ("inside, in tension", (-0.5, 0.3, 0.0), 0.5, 1.0, 1.0, (-0.5, 0.3, 0.0)),
    ("beyond the cap, onto the disk", (-3.0, 0.1, 0.0), 0.5, 1.0, 1.0, (-1.0, 0.1, 0.0)),
    ("beyond the cap, disk rim", (-3.0, 2.0, 0.0), 0.5, 1.0, 1.0, (-1.0, 0.5, 0.0)),
    ("cap above the apex: the apex", (-5.0, 0.0, 0.0), 0.5, 1.0, 3.0, (-2.0, 0.0, 0.0)),
    ("frictionless cylinder", (-3.0, 3.0, 4.0), 0.0, 1.0, 2.0, (-2.0, 0.6, 0.8)),
    ("no cohesion: no tension even with a cap", (-1.0, 0.0, 0.0), 0.5, 0.0, 1.0, (0.0, 0.0, 0.0)),
])
def test_projection_closed_form_cases(case, point, mu, strength, tension, expected):
    assert cohesive(point, mu, strength, tension) == pytest.approx(expected, abs=1e-15)


def test_without_cohesion_the_projection_is_the_cone_bit_for_bit():
    rng = np.random.default_rng(3)
    for k in range(2000):
        mu = [0.0, 0.2, 0.6, 1.5][k % 4]
        point = rng.normal(size=3) * 2.0
        if k % 10 == 0:
            point[1:] = 0.0  # on the axis, where mu = 0 used to keep a negative normal impulse
        cone = project_cone_point(point[0], point[1], point[2], mu)
        assert cohesive(point, mu, 0.0, 0.0).tobytes() == np.array(cone).tobytes()
        assert cone[0] >= 0.0


def test_projection_jacobian_matches_finite_differences():
    rng = np.random.default_rng(4)
    counts = {"inside": 0, "apex": 0, "cone": 0, "cut-off": 0}
    for mu, strength, tension in random_sets(rng, 600):
        point = rng.normal(size=3) * 2.0
        jacobian = cohesive_projection_jacobian(point[None, :], np.array([mu]), np.array([[strength, tension]]))[0]
        numeric = np.empty((3, 3))
        for k in range(3):
            step = np.zeros(3)
            step[k] = DIFFERENCE_STEP
            numeric[:, k] = (cohesive(point + step, mu, strength, tension)
                             - cohesive(point - step, mu, strength, tension)) / (2.0 * DIFFERENCE_STEP)
        assert jacobian == pytest.approx(numeric, abs=DIFFERENCE_AGREEMENT), (point, mu, strength, tension)
        assert np.allclose(jacobian, jacobian.T)
        if np.array_equal(jacobian, np.eye(3)):
            counts["inside"] += 1
        elif not jacobian.any():
            counts["apex"] += 1
        elif jacobian[0, 0] == 0.0 or (mu == 0.0 and jacobian[0, 0] == 1.0):
            counts["cut-off"] += 1
        else:
            counts["cone"] += 1
    assert min(counts.values()) >= 10, counts


def test_jacobian_without_cohesion_is_the_cone_jacobian():
    rng = np.random.default_rng(5)
    points = rng.normal(size=(200, 3))
    friction = rng.choice([0.2, 0.6, 1.5], 200)
    assert np.array_equal(cohesive_projection_jacobian(points, friction, np.zeros((200, 2))),
                          cone_projection_jacobian(points, friction))


# ---------------------------------------------------------------- the Problem

def fields_of(problem):
    return {name: getattr(problem, name) for name in ("body_a", "body_b", "jacobian_a", "jacobian_b", "inverse_mass",
                                                      "inverse_inertia", "compliance", "friction", "rhs")}


def cohesive_problem(seed, n_bodies=10, n_supports=2, n_contacts=12, equal_tangents=False):
    """``problems.random_problem`` with half its contacts pulled apart, some frictionless, and cohesion.

    C and T are drawn on the scale of the impulses (about 1 N s), with zeros, a cut-off above the
    apex (T > C/mu) and contacts without cohesion among them.
    """
    base = problems.random_problem(seed, n_bodies, n_supports, n_contacts, equal_tangents)
    rng = np.random.default_rng(1000 + seed)
    fields = fields_of(base)
    friction = base.friction.copy()
    friction[rng.random(n_contacts) < 0.2] = 0.0
    rhs = base.rhs.copy()
    rhs[:, 0] += 2.0 * (rng.random(n_contacts) < 0.5)  # these contacts would separate without cohesion
    cohesion = rng.uniform(0.0, 1.0, (n_contacts, 2))
    cohesion[rng.random(n_contacts) < 0.15, 0] = 0.0
    cohesion[rng.random(n_contacts) < 0.15, 1] = 0.0
    cohesion[rng.random(n_contacts) < 0.1] = 0.0
    fields.update(friction=friction, rhs=rhs)
    return Problem(**fields, cohesion=cohesion)


def assert_optimal(problem, gamma, tolerance=OPTIMALITY_TOLERANCE):
    """gamma in S and u = N gamma + r in the normal cone condition u . (y - gamma) >= 0 for all y in S.

    Checked from the inequalities of S, not through the projection: turning y's tangential part against
    u_t, min over S of u . y is a linear program over the planar region {n >= -T_eff, 0 <= s <= C + mu n}
    in (n, s) with cost u_n n - ||u_t|| s. It is bounded exactly when u_n >= mu ||u_t|| (the dual cone)
    and is then attained at a vertex, (-T_eff, 0) or (-T_eff, C - mu T_eff).
    """
    u = problem.gradient(gamma)
    impulse_scale = max(np.abs(gamma).max(), np.abs(problem.cohesion).max())
    velocity_scale = problem.rhs_scale
    mu = problem.friction
    strength, tension = problem.cohesion[:, 0], problem.cohesion[:, 1]
    floor = -np.where(mu > 0.0, np.minimum(tension, strength / np.where(mu > 0.0, mu, 1.0)), tension)
    tangential = np.linalg.norm(u[:, 1:], axis=1)
    primal = np.minimum(gamma[:, 0] - floor, strength + mu * gamma[:, 0] - np.linalg.norm(gamma[:, 1:], axis=1))
    dual = u[:, 0] - mu * tangential
    lowest = np.minimum(u[:, 0] * floor, u[:, 0] * floor - tangential * (strength + mu * floor))
    gap = np.sum(u * gamma, axis=1) - lowest
    assert primal.min() >= -tolerance * impulse_scale, "primal infeasible"
    assert dual.min() >= -tolerance * velocity_scale, "dual infeasible"
    assert np.abs(gap).max() <= tolerance * impulse_scale * velocity_scale, "not optimal"


def test_problem_defaults_to_no_cohesion():
    problem = problems.random_problem(0)
    assert problem.cohesion.shape == (problem.n_contacts, 2)
    assert not problem.cohesion.any() and not problem.cohesion.flags.writeable


@pytest.mark.parametrize("value, message", [
    (np.zeros((12, 3)), r"Problem.cohesion: expected shape \(12, 2\)"),
    (np.zeros(12), r"Problem.cohesion: expected shape \(12, 2\)"),
    (np.full((12, 2), np.nan), "Problem.cohesion: contains non-finite values"),
    (np.vstack([np.ones((3, 2)), [[1.0, -1e-3]], np.ones((8, 2))]), r"Problem.cohesion\[3\]: .* must be >= 0"),
])
def test_problem_validates_cohesion(value, message):
    with pytest.raises(ValueError, match=message):
        Problem(**fields_of(problems.random_problem(0)), cohesion=value)


@pytest.mark.parametrize("name", SOLVERS)
def test_zero_cohesion_changes_no_bit(name):
    plain = problems.random_problem(1, equal_tangents=True)  # the form every solver takes (newton: e_u = e_v)
    zero = Problem(**fields_of(plain), cohesion=np.zeros((plain.n_contacts, 2)))
    options = dict(tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    first, second = solve(plain, name, **options), solve(zero, name, **options)
    assert np.array_equal(first.gamma, second.gamma) and first.iterations == second.iterations


def split_into_runs(monkeypatch, problem, contacts_per_run=8):
    """A copy of ``problem`` whose operators run as parallel kernels on runs of a few contacts."""
    assert not problem.parallel
    monkeypatch.setattr(problem_module, "PART_CONTACTS", contacts_per_run)
    split = Problem(**fields_of(problem), cohesion=problem.cohesion)
    assert split.parallel
    return split


def test_parallel_operators_match_the_serial_ones_with_cohesion(monkeypatch):
    problem = cohesive_problem(4, n_bodies=12, n_supports=2, n_contacts=40)
    split = split_into_runs(monkeypatch, problem)
    gamma = np.random.default_rng(8).normal(size=(problem.n_contacts, 3))
    assert np.array_equal(split.project(gamma), problem.project(gamma))
    gradient = problem.gradient(gamma)
    assert split.residual(gamma, gradient) == problem.residual(gamma, gradient)
    assert split.residual(gamma, gradient) > 0.0


@pytest.mark.parametrize("name", ["apgd", "spg", "jacobi"])
def test_parallel_solvers_agree_with_the_serial_ones_with_cohesion(monkeypatch, name):
    problem = cohesive_problem(5, n_bodies=40, n_supports=4, n_contacts=50)
    serial = solve(problem, name, tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    parallel = solve(split_into_runs(monkeypatch, problem), name, tolerance=SOLVE_TOLERANCE,
                     max_iterations=MAX_ITERATIONS)
    assert serial.converged and parallel.converged
    assert np.abs(parallel.gamma - serial.gamma).max() <= AGREEMENT * np.abs(serial.gamma).max()


# ---------------------------------------------------------------- solvers against the reference

#: Random problems: (seed, bodies, supports, contacts).
SEEDS = [(0, 10, 2, 12), (1, 10, 2, 12), (2, 10, 2, 12), (3, 10, 2, 12), (6, 40, 4, 50)]


@pytest.fixture(scope="module")
def references():
    cache = {}

    def get(seed):
        if seed not in cache:
            problem = cohesive_problem(*seed)
            result = solve(problem, "reference", tolerance=1e-12, max_iterations=MAX_ITERATIONS)
            assert result.converged, f"reference: residual {result.residual:.2e}"
            cache[seed] = problem, result
        return cache[seed]
    return get


@pytest.mark.parametrize("seed", SEEDS, ids=str)
def test_reference_is_optimal_with_cohesion(references, seed):
    problem, reference = references(seed)
    assert_optimal(problem, reference.gamma, tolerance=1e-9)
    # the problems exercise the cohesion: contacts in tension at the cap
    mu, (strength, tension) = problem.friction, problem.cohesion.T
    floor = -np.where(mu > 0.0, np.minimum(tension, strength / np.where(mu > 0.0, mu, 1.0)), tension)
    at_cap = np.isclose(reference.gamma[:, 0], floor, rtol=0.0, atol=1e-9) & (floor < 0.0)
    assert at_cap.any()


@pytest.mark.parametrize("name", ITERATIVE)
@pytest.mark.parametrize("seed", SEEDS, ids=str)
def test_solvers_agree_with_the_reference_with_cohesion(references, seed, name):
    problem, reference = references(seed)
    result = solve(problem, name, tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    assert result.converged, f"{name}: residual {result.residual:.2e} after {result.iterations} iterations"
    scale = np.abs(reference.gamma).max()
    assert np.abs(result.gamma - reference.gamma).max() <= AGREEMENT * scale
    assert_optimal(problem, result.gamma)


@pytest.mark.parametrize("seed", SEEDS, ids=str)
def test_newton_agrees_with_the_reference_with_cohesion(seed):
    """The Newton solver needs equal tangential compliances (engine.solvers.newton): the same problems so."""
    problem = cohesive_problem(*seed, equal_tangents=True)
    reference = solve(problem, "reference", tolerance=1e-12)
    result = solve(problem, "newton", tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    assert reference.converged and result.converged, f"newton: residual {result.residual:.2e}"
    scale = np.abs(reference.gamma).max()
    assert np.abs(result.gamma - reference.gamma).max() <= AGREEMENT * scale
    assert_optimal(problem, result.gamma)


# ---------------------------------------------------------------- a block pulled off its base

#: The block: mass (kg), time step (s), friction, and the joint's tensile strength (N) and cohesion (N)
#: shared by its four corner contacts.
MASS, STEP, FRICTION = 1000.0, 0.01, 0.6
TENSILE_STRENGTH, COHESIVE_STRENGTH = 2.0e4, 4.0e4
#: A solve to SOLVE_TOLERANCE leaves contact velocity errors up to about SOLVE_TOLERANCE r (r the free
#: velocity, the residual's scale): a factor 10 of margin on the body velocity.
VELOCITY_NOISE = 10 * SOLVE_TOLERANCE
#: Impulses the joint leaves free but for the compliance E (the four corners' tangential impulses
#: pointing outwards, say) are pinned to velocity error / E: VELOCITY_NOISE r / E.
SELF_EQUILIBRATED = VELOCITY_NOISE / problems.JOINT_COMPLIANCE


def pulled_block(pull, strength=COHESIVE_STRENGTH, tensile=TENSILE_STRENGTH):
    """A unit box on a fixed base pulled up at its centre by ``pull`` (N), weightless; forces times h per corner."""
    builder = problems.SceneBuilder()
    base = builder.add_support()
    box = builder.add_box((0.0, 0.0, 0.5), MASS, force=(0.0, 0.0, pull / MASS))
    builder.add_face_contacts(base, box, 0.0, 0.5, FRICTION)
    scene = builder.build(MASS, step=STEP)
    per_corner = np.tile([strength * STEP / 4.0, tensile * STEP / 4.0], (scene.problem.n_contacts, 1))
    return Problem(**fields_of(scene.problem), cohesion=per_corner), scene.free_velocity


@pytest.mark.parametrize("name", SOLVERS)
def test_block_below_the_tensile_cap_stays(name):
    # the joint holds: each corner carries -F h / 4, up to the compliance E; with u_n = v + E gamma_n = 0 at
    # the four corners and m v = F h + sum gamma_n, the block creeps at v = F h / (m + 4 / E), 1e-4 of F h / m
    pull = 0.5 * TENSILE_STRENGTH
    problem, free = pulled_block(pull)
    result = solve(problem, name, tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    assert result.converged
    free_speed = pull * STEP / MASS
    velocity = free[1] + problem.velocity(result.gamma)[1]
    creep = pull * STEP / (MASS + 4.0 / problems.JOINT_COMPLIANCE)
    assert velocity[2] == pytest.approx(creep, abs=VELOCITY_NOISE * free_speed)
    assert np.abs(velocity[2]) <= 1e-3 * free_speed
    assert np.abs(velocity[[0, 1, 3, 4, 5]]).max() <= VELOCITY_NOISE * free_speed
    # tension, below the cap, carried by every corner
    assert result.gamma[:, 0].sum() == pytest.approx(-pull * STEP, rel=1e-3)
    assert np.all(result.gamma[:, 0] < 0.0) and np.all(result.gamma[:, 0] > -problem.cohesion[:, 1])


@pytest.mark.parametrize("name", SOLVERS)
def test_block_above_the_tensile_cap_accelerates_with_the_excess(name):
    pull = 1.5 * TENSILE_STRENGTH
    problem, free = pulled_block(pull)
    result = solve(problem, name, tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    assert result.converged
    # projections put the impulses on the cap exactly; an interior point stays inside it, within its
    # relative gap tolerance (engine.solvers.interior_point.INTERIOR_POINT_TOLERANCE, 1e-10)
    on_cap = 1e-9 if name == "interior" else 1e-12
    assert result.gamma[:, 0] == pytest.approx(-problem.cohesion[:, 1], rel=on_cap)
    assert np.abs(result.gamma[:, 1:]).max() <= SELF_EQUILIBRATED * problem.rhs_scale
    velocity = free[1] + problem.velocity(result.gamma)[1]
    assert velocity[2] / STEP == pytest.approx((pull - TENSILE_STRENGTH) / MASS, rel=1e-9)


@pytest.mark.parametrize("name", SOLVERS)
def test_tensile_cap_without_cohesion_holds_nothing(name):
    # T_eff = min(T, C / mu) = 0: a joint without cohesion takes no tension whatever its cap
    pull = 0.5 * TENSILE_STRENGTH
    problem, free = pulled_block(pull, strength=0.0)
    result = solve(problem, name, tolerance=SOLVE_TOLERANCE, max_iterations=MAX_ITERATIONS)
    assert result.converged
    assert np.abs(result.gamma).max() <= 1e-9 * pull * STEP
    velocity = free[1] + problem.velocity(result.gamma)[1]
    assert velocity[2] / STEP == pytest.approx(pull / MASS, rel=1e-9)
