"""Fragility curves of the seed 000 spandrel wall, in plane and out of plane, under stochastic records (issue 17).

The wall of seed 000 fig. 8 (the `spandrel_wall` generator's defaults: 16.2 x 5.0 x 0.8 m, 130 blocks,
mu = 0.4) is shaken by Kanai-Tajimi records under a Jennings envelope (engine.ground_motion, firm soil), each
scaled to every PGA level, once along x (in plane) and once along y (through its thickness). Each direction
is one batch (extrados.batch.run, on Dask: ``--workers`` local processes or ``--scheduler`` a cluster); its
report (extrados.batch.report) fits the lognormal fragility of the collapse flag by maximum likelihood
(Baker 2015) with bootstrap intervals, and the two fits are drawn on one figure with their bootstrap bands
and each level's collapsed fraction with its Wilson interval.

A case collapses when a block moves farther than the collapse threshold from its place relative to the
ground (engine.dynamics.events; by default a quarter of the median block diagonal, 0.34 m here).
The envelope rises over the first 15 % of the record and holds to half of it, then decays, whatever
``--duration``.

Written to ``--out``: ``in_plane/`` and ``out_of_plane/`` (each a batch folder: cases.parquet, report.json,
report_fragility.png, report_cdf.png of the key stone's largest displacement), ``fragility_spandrel.png``
(both curves) and ``fragility_spandrel.json`` (the fits, intervals, counts and the wall-clock time).
Rerunning resumes: finished cases are not run again.

    .venv/bin/python examples/fragility_spandrel.py [--records 10] [--pga 0.1 0.2 0.3 0.4 0.5 0.6]
        [--duration 6] [--time-step 0.001] [--workers 2] [--scheduler tcp://host:8786] [--out out/fragility_spandrel]
"""
import argparse
import json
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from extrados.batch import report, run  # noqa: E402
from extrados.engine.generators import GENERATORS  # noqa: E402
from extrados.engine.generators.spandrel import keystone_id  # noqa: E402
from extrados.engine.post.statistics_plot import fragility_figure  # noqa: E402

#: Standard gravity, m/s^2: the PGA levels are given in g.
G = 9.80665
#: The two batches: ground acceleration along x (in the wall's plane) and along y (through its thickness).
DIRECTIONS = {"in plane": ("in_plane", [1.0, 0.0, 0.0]), "out of plane": ("out_of_plane", [0.0, 1.0, 0.0])}
#: Fractions of the record's duration at which its Jennings envelope stops rising and starts decaying.
RISE_FRACTION, STRONG_FRACTION = 0.15, 0.5
#: 1/s, decay rate of the envelope after its strong phase.
DECAY = 0.5
#: s, time between the record's samples.
RECORD_DT = 0.01
#: s, time between output frames (the key stone's largest displacement is read from them).
OUTPUT_INTERVAL = 0.05


def keystone():
    """Id of the default spandrel wall's key stone (seed 000 fig. 11a's white dot)."""
    return keystone_id(GENERATORS["spandrel_wall"].parameter("voussoirs").default)


def batch_spec(direction, args):
    """The batch spec of one direction: every record at every PGA level (target_pga in m/s^2)."""
    analysis = {"type": "dynamic", "duration": args.duration, "time_step": args.time_step,
                "output_interval": max(OUTPUT_INTERVAL, args.time_step)}
    if args.collapse_displacement is not None:
        analysis["collapse_displacement"] = args.collapse_displacement
    record = {"duration": args.duration, "dt": RECORD_DT, "t_rise": RISE_FRACTION * args.duration,
              "t_strong": STRONG_FRACTION * args.duration, "decay": DECAY}
    return {"generator": {"name": "spandrel_wall"}, "analysis": analysis,
            "ground_motions": {"stochastic": {"count": args.records, "parameters": record}, "direction": direction,
                               "target_pga": [G * pga for pga in args.pga]},
            "outputs": {"names": ["collapse", "collapse_time", "max_displacement"], "blocks": [keystone()]}}


def direction_summary(result):
    """The report's fit, intervals and counts of one direction, in g, as a JSON-ready dict."""
    counts = result.counts
    summary = {"pga_g": (counts.intensity / G).tolist(), "records": counts.records.tolist(),
               "collapses": counts.collapses.tolist(), "failed": len(result.failed)}
    if result.fit is None:
        return {**summary, "fit": None, "why": result.fit_error}
    _, fit, bootstrap = in_g(result)
    return {**summary, "median_g": fit.median, "dispersion": fit.dispersion, "separated": fit.separated,
            "median_interval_g": list(bootstrap.median_interval),
            "dispersion_interval": list(bootstrap.dispersion_interval)}


def in_g(result):
    """The report's (counts, fit, bootstrap) with intensities in g rather than m/s^2 (for the figure)."""
    bootstrap = result.bootstrap
    counts, fit = result.counts, result.fit
    return (counts._replace(intensity=counts.intensity / G), fit._replace(median=fit.median / G),
            bootstrap._replace(medians=bootstrap.medians / G,
                               median_interval=tuple(bound / G for bound in bootstrap.median_interval)))


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=10, help="stochastic records per PGA level (seeds 0 to N-1)")
    parser.add_argument("--pga", type=float, nargs="+", default=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
                        help="PGA levels, g")
    parser.add_argument("--duration", type=float, default=6.0, help="s, of each record and each analysis")
    parser.add_argument("--time-step", type=float, default=0.001, help="s (seed 000's)")
    parser.add_argument("--collapse-displacement", type=float,
                        help="m, a block moved farther than this relative to the ground marks collapse "
                             "(default: a quarter of the median block diagonal)")
    parser.add_argument("--workers", type=int, help="local Dask worker processes (default: one per core)")
    parser.add_argument("--scheduler", help="address of an existing Dask scheduler instead")
    parser.add_argument("--out", default="out/fragility_spandrel", help="output folder")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    out = Path(args.out)
    start = time.perf_counter()
    fits, summary = {}, {"records_per_level": args.records, "duration_s": args.duration,
                         "time_step_s": args.time_step, "keystone": keystone()}
    for label, (folder, direction) in DIRECTIONS.items():
        batch = run(batch_spec(direction, args), out / folder, scheduler=args.scheduler, workers=args.workers)
        print(f"{label}: {batch.cases} cases, {batch.done} done, {batch.failed} failed, {batch.skipped} before")
        result, _ = report(out / folder, response=f"max_displacement[{keystone()}]")
        summary[folder] = direction_summary(result)
        if result.fit is not None:
            fits[label] = in_g(result)
        print(f"{label}: {json.dumps(summary[folder])}")
    summary["wall_clock_s"] = time.perf_counter() - start
    if fits:
        fig = fragility_figure(fits, f"spandrel wall (seed 000), {args.records} records per level", "PGA (g)")
        fig.savefig(out / "fragility_spandrel.png", dpi=150, bbox_inches="tight")
        plt.close(fig)
    (out / "fragility_spandrel.json").write_text(json.dumps(summary, indent=1))
    print(f"{summary['wall_clock_s']:.0f} s; written to {out}")


if __name__ == "__main__":
    main()
