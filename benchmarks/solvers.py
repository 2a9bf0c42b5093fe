"""Every CCP solver on the hard cases of issue 20, side by side: iterations, seconds and one residual.

Each case is the cone complementarity problem of one step (seed 000 eq. 38), exactly as the
pipeline hands it to its solver (``engine.pipeline.solve_step``, caught at ``SolverSettings.solve``):

    arch20, arch40  static arch of 20 / 40 voussoirs, the 'arch' generator's defaults (t/R = 0.1075, the
                    limit thickness of DESIGN sec. 7's semicircular arch; mu = 0.8)
    dome            hemispherical dome of 24 meridians x 12 rings (289 blocks with the ground), an
                    oculus of 10 deg, mu = 0.4, at 1.05 t_min (``DOME_MINIMUM_THICKNESS``, found by
                    ``--bisect-dome``)
    wall1k, wall5k  static running-bond walls of 30 courses x 34 bricks and 50 x 100 (benchmarks/static_walls.py)
    cylinder        a step of the cylinder of seed 000 fig. 10 while it collapses, at the size of
                    examples/seed000_cylinder_dome.py (R = 4 m, H = 2 m, 4 courses), after 30 steps of 2 ms
    cylinder_seed   the same at the seed's size (R = 8.1 m, H = 5 m, 10 courses, octagon of circumradius
                    3.8 m: 1,858 blocks, about 44,600 contacts); only when named in --cases: its 30 steps
                    of motion take minutes
    wall_gap        a step of the wall over a gap (seed 000 fig. 9a, 'wall_over_gap' defaults) after 30
                    steps of 2 ms
    spandrel        a step of h = 0.02 s of the spandrel wall (benchmarks/spandrel_wall.py, ground motion
                    along x) after 20 steps of motion

Static problems have h = STATIC_STEP and the dead and live loads; dynamic ones the NSCD integrator's
settings of a dynamic run. Every solver of ``engine.solvers.SOLVERS`` solves each problem from zero, to
the static default tolerance (engine.tolerance.SOLVER_DEFAULTS) within the iteration cap; ``residual``
is ``Problem.residual`` of its answer (the natural map of eq. 38 over ||r||_inf, what every
SolverResult reports), and ``max |v|`` the largest point speed (m/s, engine.analysis.static.point_speed)
of the end velocity v_free + Problem.velocity(gamma), so answers can be compared (impact laws that
rescale velocities after the solve are left out). ``auto`` solves a static case as the pipeline does
(APGD, retried by ``interior`` when it stops above the tolerance: engine.solvers.auto) and a dynamic one
as the first step of a run (engine.solvers.auto.RunPlan: APGD, retried the same way). The table, the
machine and the date are printed and written to ``--out``.

``--export DIR`` writes each problem as DIR/<case>.npz for peers (e.g. Siconos' fc3d solvers, Debian
python3-siconos): the sparse Delassus matrix W = D^T M^-1 D + E (eq. 33, 43) in CSR (W_data, W_indices,
W_indptr, W_shape; 1/kg: m/s per N s), unknowns ordered (n, u, v) per contact, q = r (3 n_c,) m/s, mu (n_c,),
cohesion (n_c, 2) [C h, T h] in N s. Note fc3d states the Coulomb problem with de Saxce's modified velocity;
eq. 38 is its convex relaxation (the CCP), so a peer's answer is compared by ``Problem.residual``.

    .venv/bin/python benchmarks/solvers.py [--cases arch20 dome] [--solvers apgd reference]
        [--max-iterations 5000 spandrel=20000] [--quick] [--out benchmarks/results/solvers.txt] [--export DIR]
    .venv/bin/python benchmarks/solvers.py --bisect-dome     # t_min of the dome, then stop (5 min)
"""
import argparse
import datetime
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from extrados import Model, analyze, generators
from extrados.engine.analysis.dynamic import DynamicRequest, run_dynamic
from extrados.engine.analysis.integrators import NSCDIntegrator
from extrados.engine.analysis.static import STATIC_STEP, point_speed
from extrados.engine.contact.assemble import free_velocity, start_velocity
from extrados.engine.contact.impact_energy import GroundFrame
from extrados.engine.dynamics.support_motion import support_motion_from_document
from extrados.engine.generators import MATERIAL, ground_slab, model_document
from extrados.engine.pipeline import SolverSettings, StepSettings, solve_step
from extrados.engine.solvers import SOLVERS, interior_point, newton, reference, solve
from extrados.engine.solvers.auto import RunPlan
from extrados.engine.solvers.reference import delassus_matrix
from extrados.engine.state import State
from extrados.engine.tolerance import SOLVER_DEFAULTS
from spandrel_wall import spandrel_model   # benchmarks/spandrel_wall.py: the script's folder is on sys.path

RESULTS = Path(__file__).resolve().parent / "results" / "solvers.txt"
#: Most contacts each solver takes, where it has a limit (its factorizations grow too fast beyond).
CONTACT_LIMITS = {"reference": reference.MAX_CONTACTS, "interior": interior_point.MAX_CONTACTS,
                  "newton": newton.MAX_CONTACTS}

#: The dome: meridians x rings of voussoirs on a ground slab, from elevation 0 to 90 deg minus the oculus.
DOME_MERIDIANS, DOME_RINGS = 24, 12
DOME_RADIUS = 5.0                 # m, mid-surface radius
DOME_OCULUS_DEG = 10.0            # half-angle of the opening at the crown
DOME_FRICTION = 0.4               # seed 000's (its cylinder and wall); at 0.8 the dome stands down to t = 0.5 mm
DOME_DENSITY = 2000.0             # kg/m^3
#: Thickness (m) below which the dome above does not stand (t/R = 0.0119): the static verdict's
#: bisection of ``dome_minimum_thickness`` (``--bisect-dome``, 2026-11-27: stands at 0.05967 m, fails
#: at 0.05962 m; 5 min on 2 shared cores), rounded to 0.1 mm.
DOME_MINIMUM_THICKNESS = 0.0597
#: The dome case's thickness over t_min (issue 20: "289-block dome at 1.05 t_min").
DOME_THICKNESS_RATIO = 1.05
#: Bisection interval of ``dome_minimum_thickness`` as fractions of the radius, and its resolution (m).
DOME_BISECTION_BOUNDS = (0.005, 0.10)
DOME_BISECTION_RESOLUTION = 1e-4


class Case(NamedTuple):
    """One benchmark problem: the step's CCP and what turns its impulses into block speeds."""

    name: str
    problem: object           # engine.solvers.Problem
    mechanics: object         # Mechanics of the model, for point_speed
    free_velocity: np.ndarray  # (n_blocks, 6) float64, m/s and rad/s, v_free = M^-1 k~ (eq. 29, 31)
    static: bool = False       # a static CCP: ``auto`` retries it as the pipeline does (engine.solvers.auto)


class Captured(Exception):
    """Raised by ``CapturingSolver`` with the problem the pipeline handed it, to stop the step there."""

    def __init__(self, problem):
        super().__init__("captured")
        self.problem = problem


@dataclass(frozen=True)
class CapturingSolver(SolverSettings):
    """Solver settings that take the step's problem instead of solving it (raise ``Captured``)."""

    def solve(self, problem, gamma0):
        raise Captured(problem)


def step_case(name, model, state, wrench, time_step, support_velocity, take_step, static=False):
    """The Case of the step that ``take_step()`` starts from ``state`` with a ``CapturingSolver``.

    Parameters
    ----------
    name : str
    model : Model
    state : State at the start of the step
    wrench : (n_blocks, 6) float64, N and N m, the step's loads
    time_step : float, s
    support_velocity : (n_blocks, 6) float64 or None, m/s and rad/s, prescribed support twists
    take_step : callable() that runs the pipeline's step with a ``CapturingSolver``
    static : bool, a static CCP (``Case.static``)
    """
    try:
        take_step()
    except Captured as caught:
        problem = caught.problem
    else:
        raise RuntimeError(f"{name}: the step solved no problem")
    mech = model.mechanics
    v_free = free_velocity(mech, start_velocity(mech, state, support_velocity), state.rotation_matrices(), wrench,
                           problem.inverse_mass, problem.inverse_inertia, time_step, support_velocity is not None)
    return Case(name, problem, mech, v_free, static)


def static_case(name, document):
    """The static CCP of a model document: one step of h = STATIC_STEP from rest under its dead and live loads."""
    model = Model.from_dict(document)
    mech = model.mechanics
    state, wrench = State.initial(mech), mech.dead_wrench + mech.live_wrench
    settings = StepSettings(time_step=STATIC_STEP, wrench=wrench, solver=CapturingSolver())
    return step_case(name, model, state, wrench, STATIC_STEP, None, lambda: solve_step(model, state, settings),
                     static=True)


def moving_case(name, document, time_step, steps):
    """The CCP of step ``steps + 1`` of a dynamic run at ``time_step`` (s): the NSCD integrator's settings
    (engine.analysis.integrators), the state and contact memory after ``steps`` steps of the run."""
    model = Model.from_dict(document)
    mech = model.mechanics
    request = DynamicRequest.from_dict({"duration": steps * time_step, "time_step": time_step}, model)
    state, wrench = run_dynamic(model, request).state, mech.dead_wrench + mech.live_wrench
    t = (steps + 1) * time_step
    motion = support_motion_from_document(model.support_motion, mech.block_ids, mech.is_support)
    support_velocity = motion.velocity(t, mech.n_blocks) if motion else None
    whole_ground = motion is not None and motion.moving[mech.is_support].all()
    ground = GroundFrame(motion.motion.velocity(t - time_step), motion.motion.velocity(t)) if whole_ground else None
    integrator = NSCDIntegrator(model, request)
    integrator.solver = CapturingSolver()
    return step_case(name, model, state, wrench, time_step, support_velocity,
                     lambda: integrator.step(state, time_step, wrench, support_velocity, ground))


# --- the cases ----------------------------------------------------------------------------------

def arch_case(voussoirs):
    """The static semicircular arch of the 'arch' generator's defaults with ``voussoirs`` voussoirs."""
    return static_case(f"arch{voussoirs}", generators.generate("arch", voussoirs=voussoirs))


def dome_voussoir(radius, thickness, azimuths, elevations):
    """The 8 corners (m) of a dome's voussoir between two azimuths and two elevations (rad)."""
    return [[r * np.cos(e) * np.cos(a), r * np.cos(e) * np.sin(a), r * np.sin(e)]
            for r in (radius - thickness / 2.0, radius + thickness / 2.0) for a in azimuths for e in elevations]


def dome_document(thickness, meridians=DOME_MERIDIANS, rings=DOME_RINGS):
    """A hemispherical dome of ``meridians`` x ``rings`` voussoirs (given by their corners) of ``thickness``
    (m) on a ground slab, open at the crown by the oculus, under its own weight."""
    azimuths = np.linspace(0.0, 2.0 * np.pi, meridians + 1)
    elevations = np.radians(np.linspace(0.0, 90.0 - DOME_OCULUS_DEG, rings + 1))
    reach = DOME_RADIUS + thickness
    blocks = [ground_slab((-reach, reach), (-reach, reach), thickness)]
    blocks += [{"id": f"r{ring}m{k}", "material": MATERIAL,
                "points": dome_voussoir(DOME_RADIUS, thickness, azimuths[k:k + 2], elevations[ring:ring + 2])}
               for ring in range(rings) for k in range(meridians)]
    return model_document(blocks, DOME_FRICTION, DOME_DENSITY)


def dome_stands(thickness):
    """The static verdict (``Result.stable``) of the dome of ``thickness`` (m)."""
    return analyze(dome_document(thickness), {"type": "static"}).stable


def dome_minimum_thickness():
    """t_min (m) of the dome: bisection of the static verdict over DOME_BISECTION_BOUNDS x DOME_RADIUS,
    to DOME_BISECTION_RESOLUTION; the verdict's own solver tolerance limits how sharp it is."""
    thin, thick = (fraction * DOME_RADIUS for fraction in DOME_BISECTION_BOUNDS)
    if dome_stands(thin) or not dome_stands(thick):
        raise RuntimeError(f"dome: the verdict does not change between t = {thin:g} m and {thick:g} m")
    while thick - thin > DOME_BISECTION_RESOLUTION:
        middle = 0.5 * (thin + thick)
        stands = dome_stands(middle)
        print(f"  t = {middle:.5f} m: {'stands' if stands else 'fails'}", flush=True)
        thin, thick = (thin, middle) if stands else (middle, thick)
    return thick


def dome_case(quick):
    """The dome at DOME_THICKNESS_RATIO t_min (static); ``quick``: 8 x 4 voussoirs."""
    size = (8, 4) if quick else (DOME_MERIDIANS, DOME_RINGS)
    return static_case("dome", dome_document(DOME_THICKNESS_RATIO * DOME_MINIMUM_THICKNESS, *size))


def wall_case(name, courses, per_course):
    """The static running-bond wall of benchmarks/static_walls.py: bricks 0.4 x 0.2 x 0.2 m, mu = 0.6."""
    return static_case(name, generators.generate("wall", courses=courses, blocks_per_course=per_course,
                                                 block_length=0.4, block_height=0.2, depth=0.2, friction=0.6))


#: The collapse cases' time step (s, as examples/seed000_cylinder_dome.py) and steps of motion before the case.
COLLAPSE_STEP, COLLAPSE_STEPS = 0.002, 30
#: The spandrel case's time step (s, issue 20's large step) and steps of ground motion before it.
SPANDREL_STEP, SPANDREL_STEPS = 0.02, 20
#: Steps of motion before a dynamic case of ``--quick``.
QUICK_STEPS = 3


def cylinder_case(quick):
    """A step of the collapsing cylinder of seed 000 fig. 10 at the example's size; ``quick``: one course."""
    size = {"radius": 4.0, "thickness": 4.0, "height": 2.0, "courses": 1 if quick else 4, "gap_radius": 3.2}
    return moving_case("cylinder", generators.generate("cylinder", **size), COLLAPSE_STEP,
                       QUICK_STEPS if quick else COLLAPSE_STEPS)


def seed_cylinder_case(quick):
    """A step of the collapsing cylinder of seed 000 fig. 10 at the seed's size; ``quick``: the example's."""
    if quick:
        return cylinder_case(quick)
    size = {"radius": 8.1, "thickness": 8.1, "height": 5.0, "courses": 10, "gap_radius": 3.8}
    return moving_case("cylinder_seed", generators.generate("cylinder", **size), COLLAPSE_STEP, COLLAPSE_STEPS)


def wall_gap_case(quick):
    """A step of the wall over a gap (seed 000 fig. 9a) as it starts to fall; ``quick``: 2 m high."""
    document = generators.generate("wall_over_gap", **({"height": 2.0} if quick else {}))
    return moving_case("wall_gap", document, COLLAPSE_STEP, QUICK_STEPS if quick else COLLAPSE_STEPS)


def spandrel_case(quick):
    """A step of h = SPANDREL_STEP of the spandrel wall under the sine ground motion along x of
    benchmarks/spandrel_wall.py."""
    return moving_case("spandrel", spandrel_model([1.0, 0.0, 0.0]).to_dict(), SPANDREL_STEP,
                       QUICK_STEPS if quick else SPANDREL_STEPS)


#: Each case's builder, called with ``quick`` (small sizes for a smoke run).
CASES = {
    "arch20": lambda quick: arch_case(20),
    "arch40": lambda quick: arch_case(10 if quick else 40),
    "dome": dome_case,
    "wall1k": lambda quick: wall_case("wall1k", *((6, 8) if quick else (30, 34))),
    "wall5k": lambda quick: wall_case("wall5k", *((10, 10) if quick else (50, 100))),
    "cylinder": cylinder_case,
    "cylinder_seed": seed_cylinder_case,
    "wall_gap": wall_gap_case,
    "spandrel": spandrel_case,
}


#: Cases run only when --cases names them.
NAMED_ONLY = ("cylinder_seed",)


# --- solving and reporting -----------------------------------------------------------------------

HEADER = (f"{'case':<9} {'contacts':>8} {'blocks':>6} {'solver':<10} {'iters':>6} {'seconds':>8} {'conv':>5} "
          f"{'residual':>9} {'max |v| m/s':>12}")


def solver_row(case, name, max_iterations):
    """One line of the table: ``name`` solving the case's problem from zero at the static default tolerance."""
    problem = case.problem
    lead = f"{case.name:<9} {problem.n_contacts:>8} {case.mechanics.n_blocks:>6} {name:<10}"
    limit = CONTACT_LIMITS.get(name)
    if limit is not None and problem.n_contacts > limit:
        return f"{lead} skipped: more contacts than its limit of {limit}"
    tolerance = SOLVER_DEFAULTS.static_tolerance
    if name == "auto" and not case.static:
        report = RunPlan().solve(problem, None, tolerance, max_iterations)
    else:
        options = {"retry": True} if name == "auto" else {}
        report = solve(problem, name, tolerance=tolerance, max_iterations=max_iterations, **options)
    speed = point_speed(case.mechanics, case.free_velocity + problem.velocity(report.gamma)).max()
    return (f"{lead} {report.iterations:>6} {report.seconds:>8.3f} {str(report.converged):>5} "
            f"{report.residual:>9.2e} {speed:>12.5e}")


def export_problem(case, folder):
    """Write the case's problem as folder/<case>.npz: W (CSR parts), q, mu, cohesion (module docstring)."""
    problem = case.problem
    delassus = delassus_matrix(problem).tocsr()
    np.savez_compressed(Path(folder) / f"{case.name}.npz", W_data=delassus.data, W_indices=delassus.indices,
                        W_indptr=delassus.indptr, W_shape=np.array(delassus.shape), q=problem.rhs.ravel(),
                        mu=problem.friction, cohesion=problem.cohesion)


def warm_up(solvers):
    """Seconds to compile (or load from numba's cache) every solver's kernels on a 4-voussoir arch."""
    started = time.perf_counter()
    case = arch_case(4)
    for name in solvers:
        solve(case.problem, name, max_iterations=50)
    return time.perf_counter() - started


def iteration_caps(items):
    """{case: iteration cap} of ``--max-iterations``: N caps every case, CASE=N one case (later items win)."""
    caps = dict.fromkeys(CASES, SOLVER_DEFAULTS.max_iterations)
    for item in items:
        case, _, cap = item.rpartition("=")
        if case and case not in CASES:
            raise SystemExit(f"--max-iterations {item}: unknown case {case!r}; expected one of {list(CASES)}")
        caps.update({case: int(cap)} if case else dict.fromkeys(CASES, int(cap)))
    return caps


def machine():
    """One line naming the machine and the date."""
    return (f"{datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}, {platform.platform()}, "
            f"{platform.processor() or platform.machine()}, {os.cpu_count()} cpus, numpy {np.__version__}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=[case for case in CASES if case not in NAMED_ONLY],
                        choices=list(CASES))
    parser.add_argument("--solvers", nargs="+", default=list(SOLVERS), choices=list(SOLVERS))
    parser.add_argument("--max-iterations", nargs="+", default=[], metavar="[CASE=]N",
                        help="iteration caps: N for every case, CASE=N for one (default: the engine's)")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the table is written too")
    parser.add_argument("--export", type=Path, metavar="DIR", help="write each problem as DIR/<case>.npz")
    parser.add_argument("--bisect-dome", action="store_true",
                        help="find the dome's t_min by bisection of the static verdict and stop")
    args = parser.parse_args()
    caps = iteration_caps(args.max_iterations)
    if args.bisect_dome:
        print(f"dome t_min = {dome_minimum_thickness():.5f} m")
        return
    lines = [f"Solvers on the hard cases of issue 20{' (--quick sizes)' if args.quick else ''}, {machine()}",
             f"each solve from zero to the static tolerance {SOLVER_DEFAULTS.static_tolerance:g}; residual: "
             "Problem.residual; max |v|: largest point speed after the step",
             "iteration caps: " + ", ".join(f"{name} {caps[name]}" for name in args.cases),
             f"warm-up (numba compilation or cache load) of the pipeline and {', '.join(args.solvers)} on a "
             f"4-voussoir arch: {warm_up(args.solvers):.1f} s, not in the table", HEADER]
    print("\n".join(lines), flush=True)
    if args.export:
        args.export.mkdir(parents=True, exist_ok=True)
    for name in args.cases:
        case = CASES[name](args.quick)
        if args.export:
            export_problem(case, args.export)
        for solver in args.solvers:
            lines.append(solver_row(case, solver, caps[name]))
            print(lines[-1], flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
