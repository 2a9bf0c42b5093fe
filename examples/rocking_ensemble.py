"""A rocking block under an ensemble of stochastic records against Housner's ODE (issue 17; seed 003 sec. 4).

Seed 003's block, 0.25 x 0.5 x 1.0 m (width along the motion, depth, height; alpha = atan(0.125 / 0.5)),
stands on a rigid slab with friction too high to slide and is shaken along x by Kanai-Tajimi records
(engine.ground_motion.stochastic, seeds 0 .. count - 1) scaled to one PGA. The engine computes every
case as a Dask task through extrados.batch.run; Housner's ODE (extrados.batch.housner) is integrated
under the very record each case saw, on the same cluster. Seed 003 compares the cumulative
distributions of theta_max / alpha; here with their 95 % DKW bands, the two-sample Kolmogorov-Smirnov
distance, and the collapse fractions with their binomial 95 % intervals.

Writes to --out: the batch's table (cases.parquet, .csv, .json), housner.json (the reference of each
case), rocking_ensemble.png (the two ECDFs with their bands) and rocking_ensemble.json (the summary).

    .venv/bin/python examples/rocking_ensemble.py [--count 100] [--pga 4.0] [--time-step 2.5e-4]
                                                  [--workers 2] [--out out/rocking_ensemble]
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from distributed import LocalCluster
from extrados.engine.generators import generate
from extrados.engine.post.statistics import cdf_document, empirical_cdf
from extrados.engine.post.statistics_plot import cdf_figure

from extrados.batch.ensemble import run_with_housner
from extrados.batch.housner import COLLAPSE_ANGLE, cannot_return, ensemble_comparison, rocking_body
from extrados.batch.runner import WORKER_ENVIRONMENT

BLOCK = "block"
#: Seed 003's block (m); friction high enough that it rocks without sliding (Housner's hypothesis).
GENERATOR = {"name": "rocking_block", "parameters": {"width": 0.25, "depth": 0.5, "height": 1.0, "friction": 1.5}}
#: The records: a firm-to-medium soil filter (w_g 8 rad/s, zeta_g 0.6) under a 3 s envelope.
RECORD = {"duration": 3.0, "dt": 0.01, "ground_frequency": 8.0, "ground_damping": 0.6, "t_rise": 0.5,
          "t_strong": 1.5, "decay": 2.0}
#: s after the record, so that a block that started to fall near its end lands within the run.
TAIL = 1.0
#: s between the engine's output frames, on which theta_max is read.
OUTPUT_INTERVAL = 5e-3


def ensemble_spec(count, pga, time_step):
    """The batch spec: the block under stochastic records 0 .. count - 1 scaled to ``pga`` (m/s^2) along x.

    No frames or histories in the result documents ("none"): the outputs read the typed result's frames,
    and the batch keeps no documents.
    """
    return {"generator": GENERATOR,
            "analysis": {"type": "dynamic", "duration": RECORD["duration"] + TAIL, "time_step": time_step,
                         "output_interval": OUTPUT_INTERVAL, "frames": "none", "histories": "none"},
            "ground_motions": {"stochastic": {"count": count, "parameters": RECORD}, "direction": [1, 0, 0],
                               "target_pga": [pga]},
            "outputs": {"names": ["collapse", "theta_max_over_alpha", "first_sliding"], "blocks": [BLOCK]}}


def run_ensemble(spec, out_dir, scheduler):
    """The engine's rows and Housner's reference (eq. 2's r) of each case, computed on ``scheduler``
    (extrados.batch.ensemble.run_with_housner)."""
    return run_with_housner(spec, out_dir, scheduler, BLOCK)


def compare(spec, rows, references):
    """``ensemble_comparison`` of the rows against their references, with the block, the check that a block
    past COLLAPSE_ANGLE must fall (``cannot_return``) and how many cases slid without collapsing (Housner's
    block never slides; a falling block may slide as it lands)."""
    body = rocking_body(generate(GENERATOR["name"], **GENERATOR["parameters"]), BLOCK)  # along x, as the records
    errors = [row["error"] for row in rows if row["error"] is not None]
    if errors:
        raise RuntimeError(f"{len(errors)} cases failed, the first: {errors[0]}")
    nscd = [row[f"theta_max_over_alpha[{BLOCK}]"] for row in rows]
    housner = [reference["theta_max_over_alpha"] for reference in references]
    comparison = ensemble_comparison(nscd, housner, COLLAPSE_ANGLE / body.alpha)
    pga = spec["ground_motions"]["target_pga"][0]
    return {**comparison, "alpha": body.alpha, "p": body.p, "restitution": body.restitution,
            "collapse_angle": COLLAPSE_ANGLE, "collapse_is_final": cannot_return(body, pga),
            "slid_without_collapse": sum(row["first_sliding"] is not None and value < comparison["collapse_ratio"]
                                         for row, value in zip(rows, nscd))}


def write_outputs(out_dir, spec, rows, references, summary):
    """housner.json, rocking_ensemble.json and rocking_ensemble.png in ``out_dir``.

    The CDFs are of theta_max / alpha censored at the collapse ratio, as the KS distance compares them
    (extrados.batch.housner.ensemble_comparison): a collapsed case sits at COLLAPSE_ANGLE / alpha.
    """
    out_dir = Path(out_dir)
    (out_dir / "housner.json").write_text(json.dumps(
        [{"key": row["key"], "motion": row["motion"], **reference} for row, reference in zip(rows, references)],
        indent=1))
    ratio = summary["collapse_ratio"]
    cdfs = {"NSCD": empirical_cdf(np.minimum([row[f"theta_max_over_alpha[{BLOCK}]"] for row in rows], ratio)),
            "Housner ODE": empirical_cdf(np.minimum([ref["theta_max_over_alpha"] for ref in references], ratio))}
    document = {"spec": spec, **summary, "cdfs": {name: cdf_document(cdf) for name, cdf in cdfs.items()}}
    (out_dir / "rocking_ensemble.json").write_text(json.dumps(document, indent=1))
    pga = spec["ground_motions"]["target_pga"][0]
    figure = cdf_figure(cdfs, f"{len(rows)} records at PGA {pga:g} m/s^2: KS distance {summary['ks_distance']:.3f}",
                        f"theta_max / alpha (collapsed: pi/4 / alpha = {ratio:.2f})")
    figure.savefig(out_dir / "rocking_ensemble.png", dpi=120)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100, help="records (seeds 0 .. count - 1)")
    parser.add_argument("--pga", type=float, default=4.0, help="peak ground acceleration, m/s^2")
    parser.add_argument("--time-step", type=float, default=2.5e-4, help="the engine's time step h, s")
    parser.add_argument("--workers", type=int, default=2, help="Dask worker processes")
    parser.add_argument("--out", type=Path, default=Path("out/rocking_ensemble"))
    args = parser.parse_args(argv)
    spec = ensemble_spec(args.count, args.pga, args.time_step)
    start = time.perf_counter()
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                      env=WORKER_ENVIRONMENT) as cluster:
        rows, references = run_ensemble(spec, args.out, cluster.scheduler_address)
    summary = {**compare(spec, rows, references), "seconds": time.perf_counter() - start}
    write_outputs(args.out, spec, rows, references, summary)
    print(f"{len(rows)} records, PGA {args.pga} m/s^2, h = {args.time_step} s: KS distance "
          f"{summary['ks_distance']:.3f}; collapsed NSCD {summary['nscd']['collapsed']}, Housner "
          f"{summary['housner']['collapsed']}; {summary['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
