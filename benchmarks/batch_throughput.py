"""Batch throughput with 1 and 2 workers, and the batch's overhead per task, on an embedded LocalCluster.

The cases are a 4-block column shaken by a stochastic record, one seed each, sized so that a case
takes about --case-seconds on a worker: one case is timed in this process first (after the kernels
are loaded), and the simulated duration is scaled to the target. The same cases run twice, on a
LocalCluster of 1 worker process then of 2 (one thread each, as ``extrados batch``), each into a
fresh folder, through ``extrados.batch.run(..., scheduler=...)``; the cluster's start and the
workers' kernel loading happen before the clock starts and are reported apart. For each run:

* throughput = cases / batch wall time, in cases per minute (target: 2 workers >= 1.7 x 1 worker);
* overhead per task = (batch wall time x workers - sum of the cases' own ``seconds``) / cases, as a
  percentage of the mean case time (target < 5 %): what the batch adds to each case (Dask's
  dispatch, the table's writes, the idle tail of the last cases).

    .venv/bin/python benchmarks/batch_throughput.py [--case-seconds 10] [--cases 8] [--out FILE]

Run it on a quiet machine with at least 2 cores. The table is printed and written to
benchmarks/results/batch_throughput.txt (or --out).
"""
import argparse
import datetime
import os
import platform
import tempfile
import time
from pathlib import Path

from extrados.batch import expand, load_spec, run
from extrados.batch.runner import WORKER_ENVIRONMENT
from extrados.batch.task import run_case

RESULTS = Path(__file__).resolve().parent / "results" / "batch_throughput.txt"
#: Simulated seconds of the case timed to size the others.
PROBE_DURATION_S = 0.2
#: Peak ground acceleration of every record, m/s^2: the column rocks and stands.
TARGET_PGA = 1.0


def batch_spec(duration, seeds):
    """The batch of one case per seed: the column shaken for ``duration`` s by a record of that seed."""
    return {
        "generator": {"name": "column", "parameters": {"blocks": 4}},
        "analysis": {"type": "dynamic", "duration": duration},
        "ground_motions": {"stochastic": {"seeds": list(seeds),
                                          "parameters": {"duration": duration, "dt": 0.01, "t_rise": duration / 5,
                                                         "t_strong": duration / 2, "decay": 1.0}},
                           "target_pga": [TARGET_PGA]},
        "outputs": {"names": ["stable", "solver_iterations"]},
    }


def sized_duration(case_seconds):
    """The simulated duration (s) that makes a case last about ``case_seconds`` on one core."""
    spec, folder = load_spec(batch_spec(PROBE_DURATION_S, [0]))
    case = expand(spec, folder)[0]
    run_case(case.model, case.analysis, spec["outputs"])  # loads (or compiles) the kernels
    row, _ = run_case(case.model, case.analysis, spec["outputs"])
    return PROBE_DURATION_S * case_seconds / row["seconds"]


def load_kernels():
    """On a worker: load the engine's kernels, so that the first case does not pay for it."""
    from extrados.engine.analysis.warm_up import compile_kernels

    compile_kernels()


def timed_batch(spec, workers, folder):
    """Run ``spec`` on a fresh LocalCluster of ``workers`` processes; return its figures."""
    from distributed import Client, LocalCluster

    started = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      env=WORKER_ENVIRONMENT) as cluster, Client(cluster) as client:
        client.run(load_kernels)
        start_s = time.perf_counter() - started
        started = time.perf_counter()
        summary = run(spec, folder, scheduler=cluster.scheduler_address, progress=False)
        wall_s = time.perf_counter() - started
    if summary.failed:
        raise SystemExit(f"{summary.failed} cases failed: {[row['error'] for row in summary.rows if row['error']]}")
    case_s = sum(row["seconds"] for row in summary.rows)
    overhead_s = (wall_s * workers - case_s) / summary.cases
    return {"workers": workers, "cases": summary.cases, "start_s": start_s, "wall_s": wall_s,
            "mean_case_s": case_s / summary.cases, "per_minute": 60.0 * summary.cases / wall_s,
            "overhead_s": overhead_s, "overhead_pct": 100.0 * overhead_s / (case_s / summary.cases)}


def report(figures, case_seconds, duration):
    """The table of the runs, the speed-up and the targets, as text."""
    one, two = figures
    speedup = two["per_minute"] / one["per_minute"]
    lines = [f"# batch throughput, {datetime.date.today()}, {platform.machine()}, {os.cpu_count()} cores, "
             f"python {platform.python_version()}",
             f"# cases of {duration:.3g} s simulated (target {case_seconds:g} s each), embedded LocalCluster",
             "workers  cases  cluster start (s)  batch wall (s)  mean case (s)  cases/min  overhead/task (s)  (%)"]
    for run_figures in figures:
        lines.append("{workers:7d} {cases:6d} {start_s:18.2f} {wall_s:15.2f} {mean_case_s:14.2f} {per_minute:10.2f} "
                     "{overhead_s:18.3f} {overhead_pct:5.1f}".format(**run_figures))
    lines.append(f"speed-up with 2 workers: {speedup:.2f}x (target >= 1.7x); overhead per task "
                 f"{max(one['overhead_pct'], two['overhead_pct']):.1f} % at most (target < 5 %)")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case-seconds", type=float, default=10.0, help="wall time of one case on a worker (s)")
    parser.add_argument("--cases", type=int, default=8, help="cases in each run")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the table is written")
    args = parser.parse_args()
    duration = sized_duration(args.case_seconds)
    spec = batch_spec(duration, range(args.cases))
    with tempfile.TemporaryDirectory() as folder:
        figures = [timed_batch(spec, workers, Path(folder) / f"workers-{workers}") for workers in (1, 2)]
    text = report(figures, args.case_seconds, duration)
    print(text, end="")
    args.out.write_text(text)


if __name__ == "__main__":
    main()
