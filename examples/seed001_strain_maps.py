"""Strain maps and the macroscopic strain indicator of a wall: settlement vs base shaking (seed 001 sec. 4.2).

Seed 001 sec. 4.2 drives a wall of rigid stone blocks (1820 kg/m^3, mu = 0.80) two ways and maps, on
the cells of the block centroids (sec. 3.1, fig. 5), the cumulated dilation and shear of the strain
rate (eq. 18-19, figs. 10-13), and sums the critical fraction of the cells' area into the indicator
kappa (eq. 59, fig. 14): a 4 cm settlement of the right part of the foundation (quasi-static, kappa =
7.50 at the end) and a foundation moving with a sinusoidal velocity of 1 m/s at 2 Hz for 2 s (dynamic,
kappa = 12.50).

What the paper does not give, and we assume: the wall is that of its sec. 4.3 as
examples/construction_wall.py builds it (248 blocks, 0.40 x 0.22 m, 0.30 m deep, on two slabs split
under the fourth block of the first course from the right); the settlement lowers the right slab by
4 cm in 1 s (accelerating for 0.5 s, braking for 0.5 s) and the run goes on for 0.5 s at rest; the
shaking is horizontal, in the wall's plane, both slabs together, velocity 1 m/s sin(2 pi 2 t) from
rest (displacement between 0 and 16 cm); the thresholds of eq. 59 are engine.post.strain's (a
cumulated dilation and shear of 1e-3). Kappa adds the critical fraction once per recorded interval
(--output-interval), as the paper's adds it once per time step, whose length it does not give: its
value scales with the number of intervals, so what carries over is the ratio of the two cases (the
paper's 12.50 / 7.50 = 1.67) and the maps.

Writes OUT/seed001_strain_maps.png (the maps of both cases and kappa against time) and
OUT/seed001_strain_maps.json (per case: kappa, the critical fraction and the mean strains at the end,
the steps and seconds).

    .venv/bin/python examples/seed001_strain_maps.py [--out out] [--output-interval 0.01] [--quick]
"""
import argparse
import json
import math
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.tri import Triangulation  # noqa: E402

from construction_wall import wall_document  # noqa: E402
from extrados import analyze  # noqa: E402

FRICTION = 0.80             # seed 001 sec. 4.2
SETTLEMENT = 0.04           # m
SETTLING_S = 1.5            # s: 1 s of settlement, 0.5 s at rest
PEAK_VELOCITY = 1.0         # m/s
FREQUENCY = 2.0             # Hz
SHAKING_S = 2.0             # s
#: Seed 001 fig. 14: kappa at the end of each case.
PAPER_KAPPA = {"settlement": 7.50, "shaking": 12.50}
QUICK_WALL = (6, 6)         # courses, blocks per course


def strain_wall(courses, blocks_per_course, settlement=0.0):
    """The wall of examples/construction_wall.py with seed 001 sec. 4.2's friction."""
    document = wall_document(courses, blocks_per_course, settlement)
    for joint in document["joints"].values():
        joint["friction"] = FRICTION
    return document


def shaken_wall(courses, blocks_per_course, duration, direction=(1.0, 0.0, 0.0), peak_velocity=PEAK_VELOCITY):
    """The wall on both slabs moving along ``direction`` (default x, along the wall) with velocity
    ``peak_velocity`` sin(2 pi f t), from rest."""
    document = strain_wall(courses, blocks_per_course)
    document["support_motion"] = {"kind": "sine", "direction": list(direction), "frequency": FREQUENCY,
                                  "amplitude": peak_velocity / (2.0 * math.pi * FREQUENCY), "start": "from_rest",
                                  "duration": duration, "blocks": ["ground_left", "ground_right"]}
    return document


def run_case(document, duration, output_interval):
    """A dynamic run of ``duration`` s: (result document, seconds)."""
    started = time.perf_counter()
    result = analyze(document, {"type": "dynamic", "duration": duration,
                                "output_interval": output_interval}).to_dict()
    return result, time.perf_counter() - started


def case_summary(result, seconds):
    """What the JSON keeps of one case."""
    strain = result["strain"]
    history = strain["history"]
    return {"kappa": history["indicator"][-1], "t": history["t"], "indicator": history["indicator"],
            "mean_dilation": history["mean_dilation"][-1], "mean_shear": history["mean_shear"][-1],
            "critical_cells": int(sum(d > strain["thresholds"]["dilation"] and s > strain["thresholds"]["shear"]
                                      for d, s in zip(strain["dilation"], strain["shear"]))),
            "cells": len(strain["blocks"]), "max_dilation": max(strain["dilation"]), "max_shear": max(strain["shear"]),
            "steps": result["steps"], "seconds": seconds, "stable": result["stable"]}


def cell_map(axis, result, field, title):
    """The cumulated ``field`` of each cell on the triangles of the centroids, in the wall's plane."""
    strain = result["strain"]
    index = {block_id: k for k, block_id in enumerate(strain["blocks"])}
    origin, axes = np.asarray(strain["plane"]["origin"]), np.asarray(strain["plane"]["axes"])
    row = {b["id"]: k for k, b in enumerate(result["blocks"])}
    start = np.asarray(result["frames"][0]["positions"])[[row[block_id] for block_id in strain["blocks"]]]
    xy = (start - origin) @ axes.T           # the centroids where the cells were drawn, at the first frame
    triangles = [[index[block_id] for block_id in triangle] for triangle in strain["triangles"]]
    mesh = Triangulation(xy[:, 0], xy[:, 1], triangles)
    shading = axis.tripcolor(mesh, np.asarray(strain[field]), shading="gouraud", cmap="magma_r")
    axis.set_aspect("equal")
    axis.set_title(title, fontsize=9)
    axis.set_xlabel("along the wall, from the centroids' mean (m)")
    axis.set_ylabel("up the wall, from the centroids' mean (m)")
    plt.colorbar(shading, ax=axis, shrink=0.7, label=f"cumulated {field}")


def plot(results, summaries, path):
    figure, axes = plt.subplots(2, 3, figsize=(17, 8))
    for row, name in enumerate(("settlement", "shaking")):
        label = "4 cm settlement of the right slab" if name == "settlement" else "1 m/s, 2 Hz base velocity, 2 s"
        cell_map(axes[row, 0], results[name], "dilation", f"{label}: cumulated dilation (eq. 18)")
        cell_map(axes[row, 1], results[name], "shear", f"{label}: cumulated shear (eq. 19)")
    for name, summary in summaries.items():
        axes[0, 2].plot(summary["t"], summary["indicator"], label=f"{name}: kappa {summary['kappa']:.2f}")
    axes[0, 2].set_xlabel("t (s)")
    axes[0, 2].set_ylabel("kappa (eq. 59), per recorded interval")
    axes[0, 2].set_title("strain indicator (seed 001 fig. 14: 7.50 and 12.50)", fontsize=9)
    axes[0, 2].legend(fontsize=8)
    axes[0, 2].grid(True, alpha=0.3)
    axes[1, 2].axis("off")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out", help="output folder")
    parser.add_argument("--output-interval", type=float, default=0.01, help="s between recorded frames")
    parser.add_argument("--quick", action="store_true", help=f"a wall of {QUICK_WALL} courses x blocks")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    courses, per_course = QUICK_WALL if args.quick else (16, 15)

    cases = {"settlement": (strain_wall(courses, per_course, SETTLEMENT), SETTLING_S),
             "shaking": (shaken_wall(courses, per_course, SHAKING_S), SHAKING_S)}
    results, summaries = {}, {}
    for name, (document, duration) in cases.items():
        results[name], seconds = run_case(document, duration, args.output_interval)
        summaries[name] = case_summary(results[name], seconds)
        summary = summaries[name]
        print(f"{name}: kappa {summary['kappa']:.2f} (paper {PAPER_KAPPA[name]:.2f}), critical cells "
              f"{summary['critical_cells']} of {summary['cells']}, mean dilation {summary['mean_dilation']:.2e}, "
              f"mean shear {summary['mean_shear']:.2e}, {summary['steps']} steps, {seconds:.0f} s", flush=True)
    ratio = summaries["shaking"]["kappa"] / summaries["settlement"]["kappa"]
    paper_ratio = PAPER_KAPPA["shaking"] / PAPER_KAPPA["settlement"]
    print(f"kappa shaking / settlement: {ratio:.2f} (paper {paper_ratio:.2f})")
    plot(results, summaries, out / "seed001_strain_maps.png")
    document = {"assumptions": {"courses": courses, "blocks_per_course": per_course, "friction": FRICTION,
                                "settlement": SETTLEMENT, "settling_s": SETTLING_S, "peak_velocity": PEAK_VELOCITY,
                                "frequency": FREQUENCY, "shaking_s": SHAKING_S,
                                "output_interval": args.output_interval},
                "paper": {"kappa": PAPER_KAPPA, "ratio": paper_ratio}, "cases": summaries, "ratio": ratio}
    (out / "seed001_strain_maps.json").write_text(json.dumps(document, indent=1))
    print(f"wrote {out / 'seed001_strain_maps.png'} and {out / 'seed001_strain_maps.json'}")


if __name__ == "__main__":
    main()
