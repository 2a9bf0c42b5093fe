"""What seed 001's strain indicator ratio (fig. 14: kappa 12.50 shaking / 7.50 settlement = 1.67) depends on.

Seed 001 sec. 4.2 gives the shaking of its wall as "a sinusoidal velocity of amplitude 1 m/s and a
frequency of 2 Hz during 2 s" and the critical cells of kappa (eq. 59) as those whose cumulated dilation
and shear exceed "a threshold"; it gives neither the shaking's direction nor the thresholds.
examples/seed001_strain_maps.py assumes shaking along the wall and thresholds of 1e-3 and finds a ratio of
13.8. This study runs the settlement once and the shaking along each direction asked for (x along the
wall, y through its thickness, z vertical; optionally at a lower peak velocity), then recomputes kappa
from the recorded centroids at each threshold (the same for dilation and shear: engine.post.strain's
cumulated_strain, on the cells drawn from the first frame), so that every candidate reading of the
paper is a measured row.

Writes OUT/seed001_kappa_study.json (kappa of every case at every threshold, the ratios, the steps and
seconds) and OUT/seed001_kappa_study.md (the table), and prints the table.

    .venv/bin/python examples/seed001_kappa_study.py [--out out] [--cases settlement x y z x@0.25]
        [--thresholds 1e-3 3e-3 1e-2 3e-2] [--output-interval 0.01] [--jobs 2] [--quick]

A case is ``settlement`` or a direction (x, y, z) with an optional ``@`` peak velocity in m/s (default
1 m/s, the paper's).
"""
import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np

from extrados import analyze
from extrados.engine.post.strain import (
    StrainCells, cell_areas, centroid_triangles, critical_fraction, cumulated_strain, signed_areas, wall_plane,
)
from seed001_strain_maps import (  # noqa: E402
    PAPER_KAPPA, PEAK_VELOCITY, QUICK_WALL, SETTLEMENT, SETTLING_S, SHAKING_S, shaken_wall, strain_wall,
)

#: the shaking's direction: along the wall, through its thickness, vertical
DIRECTIONS = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}
#: critical cumulated dilation = shear (eq. 59); engine.post.strain's default is the first
THRESHOLDS = (1e-3, 3e-3, 1e-2, 3e-2)
PAPER_RATIO = PAPER_KAPPA["shaking"] / PAPER_KAPPA["settlement"]


def parse_case(case):
    """``settlement`` or ``<direction>[@<peak velocity, m/s>]``: (name, direction or None, peak velocity)."""
    if case == "settlement":
        return case, None, None
    direction, _, velocity = case.partition("@")
    if direction not in DIRECTIONS:
        raise argparse.ArgumentTypeError(f"case {case!r}: 'settlement' or one of {sorted(DIRECTIONS)}[@m/s]")
    try:
        peak = float(velocity) if velocity else PEAK_VELOCITY
    except ValueError:
        raise argparse.ArgumentTypeError(f"case {case!r}: the peak velocity after @ must be a number (m/s)")
    if not peak > 0.0:
        raise argparse.ArgumentTypeError(f"case {case!r}: the peak velocity must be positive")
    return case, direction, peak


def case_document(case, wall):
    """The model document and duration (s) of one case."""
    _, direction, peak = parse_case(case)
    if direction is None:
        return strain_wall(*wall, SETTLEMENT), SETTLING_S
    return shaken_wall(*wall, SHAKING_S, DIRECTIONS[direction], peak), SHAKING_S


def movable_history(result):
    """(t, centroids of the movable blocks at every frame, in the strain report's order) of a Result, at full
    precision (the result document rounds positions to 1e-6 m)."""
    ids = list(result.blocks.ids)
    movable = [ids.index(block_id) for block_id in result.extra["strain"]["blocks"]]
    return result.frames.t, result.frames.position[:, movable]


def cells_as_drawn(position0):
    """The strain cells (engine.post.strain) of the centroids at the first frame, as the engine draws them."""
    plane = wall_plane(position0)
    points = plane.coordinates(position0)
    triangles = centroid_triangles(points)
    area = signed_areas(points, triangles)
    return StrainCells(plane, np.arange(len(position0)), triangles, area, cell_areas(triangles, area, len(points)))


def kappa_by_threshold(result, thresholds):
    """kappa at the end of the run (eq. 59) for each threshold, the same for dilation and shear, of a Result,
    and the largest cumulated dilation and shear of a cell at its end."""
    t, position = movable_history(result)
    cells = cells_as_drawn(position[0])
    history = cumulated_strain(cells, t, position)
    kappa = {threshold: float(sum(critical_fraction(dilation, shear, cells.cell_area, threshold, threshold)
                                  for dilation, shear in zip(history.dilation[1:], history.shear[1:])))
             for threshold in thresholds}
    return kappa, float(history.dilation[-1].max()), float(history.shear[-1].max())


def run_case(case, wall, output_interval, thresholds):
    """One dynamic run: kappa at every threshold (and the engine's own at its default), the largest cumulated
    strains, the steps, the unconverged steps and the seconds."""
    document, duration = case_document(case, wall)
    started = time.perf_counter()
    result = analyze(document, {"type": "dynamic", "duration": duration, "output_interval": output_interval})
    seconds = time.perf_counter() - started
    kappa, max_dilation, max_shear = kappa_by_threshold(result, thresholds)
    summary = result.to_dict()
    return {"case": case, "duration_s": duration, "kappa": {f"{k:g}": v for k, v in kappa.items()},
            "max_dilation": max_dilation, "max_shear": max_shear,
            "engine_kappa": summary["strain"]["history"]["indicator"][-1], "steps": summary["steps"],
            "seconds": seconds, "unconverged_steps": summary["solver_steps"]["unconverged_steps"]}


def table(rows, thresholds):
    """Markdown: a row per threshold, kappa of each case and each shaking's ratio to the settlement."""
    by_case = {row["case"]: row for row in rows}
    shaking = [case for case in by_case if case != "settlement"]
    header = ["threshold"] + [f"kappa {case}" for case in by_case] + [f"ratio {case}" for case in shaking]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    for threshold in thresholds:
        key = f"{threshold:g}"
        cells = [key] + [f"{by_case[case]['kappa'][key]:.2f}" for case in by_case]
        settled = by_case.get("settlement", {}).get("kappa", {}).get(key)
        for case in shaking:
            cells.append("—" if not settled else f"{by_case[case]['kappa'][key] / settled:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out", help="output folder")
    parser.add_argument("--cases", nargs="+", default=["settlement", "x", "y", "z"],
                        help="settlement, or a shaking direction x, y, z with an optional @peak velocity (m/s)")
    parser.add_argument("--thresholds", type=float, nargs="+", default=list(THRESHOLDS),
                        help="critical cumulated dilation = shear (eq. 59)")
    parser.add_argument("--output-interval", type=float, default=0.01, help="s between recorded frames")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once (processes)")
    parser.add_argument("--quick", action="store_true", help=f"a wall of {QUICK_WALL} courses x blocks")
    args = parser.parse_args()
    try:
        for case in args.cases:
            parse_case(case)
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))
    if not all(threshold > 0.0 for threshold in args.thresholds):
        parser.error("--thresholds must be positive")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    wall = QUICK_WALL if args.quick else (16, 15)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_case, case, wall, args.output_interval, args.thresholds): case
                   for case in args.cases}
        for future in as_completed(futures):
            row = future.result()
            print(f"{row['case']}: kappa {row['kappa']}, {row['steps']} steps, {row['seconds']:.0f} s", flush=True)
    rows = [future.result() for future in futures]
    text = table(rows, args.thresholds)
    document = {"wall": {"courses": wall[0], "blocks_per_course": wall[1]}, "output_interval": args.output_interval,
                "thresholds": args.thresholds, "paper": {"kappa": PAPER_KAPPA, "ratio": PAPER_RATIO}, "cases": rows}
    (out / "seed001_kappa_study.json").write_text(json.dumps(document, indent=1))
    (out / "seed001_kappa_study.md").write_text(text + "\n")
    print(text)
    print(f"paper: ratio {PAPER_RATIO:.2f}")
    print(f"wrote {out / 'seed001_kappa_study.json'} and {out / 'seed001_kappa_study.md'}")


if __name__ == "__main__":
    main()
