"""Solvers on the warm-started steps of dynamic runs: what a step costs where a run spends its time.

benchmarks/solvers.py solves one step's CCP from zero; a run solves each step from the last step's
impulses (engine.contact.history), and that warm start, not the cold solve, sets a run's cost. Here a
dynamic run goes on as usual (its own solver, ``auto``), and every ``--every``-th CCP it solves (the
steps' own, and with the energy impact law of engine.contact.impact_energy the unloaded solves of its
impact steps) is solved again, from the start the run gave it, by each solver named, to the run's
tolerance (the dynamic default, engine.tolerance.SOLVER_DEFAULTS). The interior-point solver starts
cold (it takes no start). Prints per case and solver the mean iterations, the mean and largest
milliseconds, and how many solves converged; the table is written to ``--out``.

    spandrel   the spandrel wall (130 blocks) under the sine ground motion along x of
               benchmarks/spandrel_wall.py, h = 1 ms (the seed's step; issue 20: 6 s in under 30 s)
    cylinder   the cylinder of seed 000 fig. 10 at the size of examples/seed000_cylinder_dome.py
               (196 blocks), h = 2 ms, as its centre starts to fall
    wall_gap   the wall over a gap (seed 000 fig. 9a, 'wall_over_gap' defaults), h = 2 ms

    .venv/bin/python benchmarks/warm_steps.py [--cases spandrel cylinder wall_gap] [--solvers apgd newton]
        [--duration 0.3] [--every 10] [--out benchmarks/results/warm_steps.txt]
"""
import argparse
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from extrados import Model, analyze, generators
from extrados.engine.analysis import integrators
from extrados.engine.pipeline import SolverSettings
from extrados.engine.solvers import solve
from solvers import machine, warm_up        # benchmarks/solvers.py (the script's folder is on sys.path)
from spandrel_wall import spandrel_model

RESULTS = Path(__file__).resolve().parent / "results" / "warm_steps.txt"
#: Each case: the model and its time step (s).
CASES = {
    "spandrel": (lambda: spandrel_model([1.0, 0.0, 0.0]), 0.001),
    "cylinder": (lambda: Model.from_dict(generators.generate("cylinder", radius=4.0, thickness=4.0, height=2.0,
                                                             courses=4, gap_radius=3.2)), 0.002),
    "wall_gap": (lambda: Model.from_dict(generators.generate("wall_over_gap")), 0.002),
}
#: Solvers that take the run's start (gamma0); the others start from zero.
WARM_STARTED = ("apgd", "newton", "auto")


@dataclass(frozen=True)
class SamplingSolver(SolverSettings):
    """The run's own solver settings; every ``every``-th CCP is also solved by each of ``others`` from the same
    start, their SolverResults appended to ``samples`` (solver name -> list)."""

    every: int = 10
    others: tuple = ()
    samples: dict = field(default_factory=dict)
    calls: list = field(default_factory=lambda: [0])

    def solve_ccp(self, problem, gamma0):
        report = super().solve_ccp(problem, gamma0)
        self.calls[0] += 1
        if self.calls[0] % self.every == 0:
            for name in self.others:
                start = gamma0 if name in WARM_STARTED else None
                again = solve(problem, name, gamma0=start, tolerance=self.tolerance,
                              max_iterations=self.max_iterations)
                self.samples.setdefault(name, []).append(again)
        return report


def sampled_run(model, time_step, duration, every, others):
    """Run ``model`` for ``duration`` s at ``time_step`` with a SamplingSolver; {solver: [SolverResult]}."""
    samples = {}
    base = integrators.INTEGRATORS["nscd"]

    class SamplingIntegrator(base):
        def __init__(self, model, request):
            super().__init__(model, request)
            fields = {name: getattr(self.solver, name) for name in self.solver.__dataclass_fields__}
            self.solver = SamplingSolver(**fields, every=every, others=tuple(others), samples=samples)

    integrators.INTEGRATORS["nscd"] = SamplingIntegrator
    try:
        analyze(model, {"type": "dynamic", "duration": duration, "time_step": time_step})
    finally:
        integrators.INTEGRATORS["nscd"] = base
    return samples


def rows(case, samples):
    """Table lines of one case."""
    lines = []
    for name, reports in samples.items():
        milliseconds = [1e3 * report.seconds for report in reports]
        converged = sum(bool(report.converged) for report in reports)
        lines.append(f"{case:<9} {name:<9} {len(reports):>6} {statistics.mean(r.iterations for r in reports):>8.1f} "
                     f"{statistics.mean(milliseconds):>8.1f} {max(milliseconds):>8.1f} {converged:>5}/{len(reports)}")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    parser.add_argument("--solvers", nargs="+", default=["apgd", "newton", "interior"])
    parser.add_argument("--duration", type=float, default=0.3, help="simulated seconds of each run")
    parser.add_argument("--every", type=int, default=10, help="sample every this many CCP solves")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    started = time.perf_counter()
    analyze(CASES["spandrel"][0](), {"type": "dynamic", "duration": 0.004, "time_step": 0.001})   # compile
    warm_up(args.solvers)
    lines = [f"Solvers on warm-started steps of dynamic runs, {machine()}",
             f"{args.duration:g} s of each run, every {args.every}th CCP solved again by each solver from the run's "
             "start (interior: from zero), to the run's tolerance; warm-up "
             f"{time.perf_counter() - started:.1f} s, not in the table",
             f"{'case':<9} {'solver':<9} {'solves':>6} {'iters':>8} {'mean ms':>8} {'max ms':>8} {'conv':>7}"]
    print("\n".join(lines), flush=True)
    for case in args.cases:
        build, time_step = CASES[case]
        for line in rows(case, sampled_run(build(), time_step, args.duration, args.every, args.solvers)):
            lines.append(line)
            print(line, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
