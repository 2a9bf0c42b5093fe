"""Spandrel wall under sinusoidal ground motion (seed 000 sec. 4, figs. 11-12).

The wall of seed 000 fig. 8 (16.2 x 5.0 x 0.8 m, opening radius 3.8 m,
rho = 1800 kg/m^3, mu = 0.4) stands on a ground that moves as
d_g(t) = A sin(2 pi f t), f = 1 Hz, A = 0.2 g / (4 pi^2 f^2) (peak ground
acceleration 0.2 g), once along x (in plane) and once along y (out of plane).
The seed's axes differ: its y is our z (vertical) and its z our y (through
the thickness).

For each direction the script runs `engine.analyze` (dynamic, h = 0.001 s by
default) and writes to the output folder:

    spandrel_<dir>.json            events (first sliding, first uplift, collapse), key stone
                                   displacement at the end, wall-clock time, seconds per step,
                                   real-time factor, the key stone's history
    spandrel_<dir>_keystone.png    d_g and the key stone's displacement components against time
    spandrel_<dir>_snapshots.png   the wall at six instants (x-z projection in plane, 3-D out of plane)
    spandrel_summary.json          all runs together

``--steps-study`` reruns each direction at h = 0.005 and 0.02 s and reports how
the key stone's final displacement and the collapse time change with h.

    .venv/bin/python examples/spandrel_wall_ground_motion.py [--duration 6] [--time-step 0.001]
        [--direction x|y|both] [--steps-study] [--out out/spandrel]
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
from matplotlib.patches import Polygon  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402
from scipy.spatial import ConvexHull  # noqa: E402
from tqdm import tqdm  # noqa: E402

from engine import Model, analyze, generators  # noqa: E402
from engine.generators.spandrel import keystone_id  # noqa: E402
from engine.geometry.quaternion import quat_to_matrices  # noqa: E402

G = 9.81
FREQUENCY = 1.0                                              # Hz
PEAK_GROUND_ACCELERATION = 0.2 * G                           # m/s^2
AMPLITUDE = PEAK_GROUND_ACCELERATION / (4.0 * math.pi ** 2 * FREQUENCY ** 2)   # m, seed's A
DIRECTIONS = {"x": [1.0, 0.0, 0.0], "y": [0.0, 1.0, 0.0]}
OUTPUT_INTERVAL = 0.02                                       # s between frames
STUDY_STEPS = (0.005, 0.02)                                  # s, extra time steps of --steps-study
#: Key stone drops (m) whose first times the summary reports.
KEYSTONE_DROPS = (0.01, 0.1)
SNAPSHOTS = 6


def spandrel_model(direction):
    """The default spandrel wall (seed 000) with the sine ground motion along direction "x" or "y"."""
    document = generators.generate("spandrel_wall")
    document["support_motion"] = {"kind": "sine", "direction": DIRECTIONS[direction],
                                  "frequency": FREQUENCY, "amplitude": AMPLITUDE}
    return Model.from_dict(document)


def run(model, duration, time_step, label):
    """A dynamic analysis with a tqdm progress bar; returns the Result and the wall-clock seconds."""
    request = {"type": "dynamic", "duration": duration, "time_step": time_step,
               "output_interval": max(OUTPUT_INTERVAL, time_step)}
    bar_format = "{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}"
    with tqdm(total=1000, desc=label, bar_format=bar_format) as bar:
        def progress(fraction):
            bar.update(int(round(1000 * fraction)) - bar.n)

        start = time.perf_counter()
        result = analyze(model, request, progress=progress)
        seconds = time.perf_counter() - start
    return result, seconds


def ground_displacement(t, direction):
    """(n, 3) d_g(t) = A sin(2 pi f t) along the direction, m."""
    return AMPLITUDE * np.sin(2.0 * math.pi * FREQUENCY * np.asarray(t))[:, None] * np.asarray(DIRECTIONS[direction])


def keystone_history(result, keystone):
    """Times (n,) s and the key stone's displacement from its initial position (n, 3), m."""
    histories = result.histories
    t = np.asarray(histories["t"])
    position = np.asarray(histories["blocks"][keystone]["position"])
    return t, position - position[0]


def first_time(t, condition):
    """The first time at which condition (n,) bool holds, or None."""
    hits = np.flatnonzero(condition)
    return float(t[hits[0]]) if len(hits) else None


def summary(result, seconds, duration, time_step, direction, keystone):
    """The JSON summary of one run."""
    document = result.to_dict()
    t, displacement = keystone_history(result, keystone)
    relative = displacement - ground_displacement(t, direction)
    steps = document["steps"]
    return {
        "direction": direction,
        "duration_s": duration,
        "time_step_s": time_step,
        "steps": steps,
        "ground_motion": {"frequency_hz": FREQUENCY, "amplitude_m": AMPLITUDE,
                          "peak_acceleration_m_s2": PEAK_GROUND_ACCELERATION},
        "events": document["events"],
        "collapsed": document["events"]["collapsed"],
        "keystone": keystone,
        "keystone_displacement_end_m": displacement[-1].tolist(),
        "keystone_displacement_relative_to_ground_end_m": relative[-1].tolist(),
        "keystone_largest_drop_m": float(-displacement[:, 2].min()),
        "keystone_drop_times_s": {f"{drop:g}": first_time(t, displacement[:, 2] < -drop) for drop in KEYSTONE_DROPS},
        "wall_clock_s": seconds,
        "seconds_per_step": seconds / max(steps, 1),
        "real_time_factor": duration / seconds,
        "solver_at_end": document["solver"],
        "keystone_history": {"t": t.tolist(), "displacement": displacement.tolist()},
    }


def plot_keystone(report, path):
    """d_g and the key stone's displacement components against time (seed figs. 11b, 12b)."""
    t = np.asarray(report["keystone_history"]["t"])
    displacement = np.asarray(report["keystone_history"]["displacement"])
    direction = report["direction"]
    ground = ground_displacement(t, direction)[:, "xy".index(direction)]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=120)
    ax.plot(t, ground, "k-", linewidth=1.2, label=f"$d_g$ (ground, along {direction})")
    names = {0: "x (in plane)", 1: "y (out of plane)", 2: "z (vertical)"}
    for axis, colour in zip(range(3), ("#c0392b", "#1f5fbf", "#27ae60")):
        ax.plot(t, displacement[:, axis], "-", color=colour, linewidth=1.2, label=f"$d_b$ {names[axis]}")
    collapse = report["events"]["collapse"]
    if collapse is not None:
        ax.axvline(collapse, color="0.5", linestyle=":", label=f"collapse event, t = {collapse:.2f} s")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("displacement (m)")
    ax.set_title(f"Spandrel wall, ground motion along {direction}: key stone {report['keystone']}, "
                 f"h = {report['time_step_s']:g} s")
    ax.grid(True, linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def posed_vertices(model, frame):
    """World vertices of each block in a frame: position + A(q) v_local, a list of (n_v, 3) arrays."""
    polyhedra = model.mechanics.polyhedra
    rotations = quat_to_matrices(np.asarray(frame["orientations"], float))
    positions = np.asarray(frame["positions"], float)
    start = polyhedra.vertex_start
    return [positions[i] + polyhedra.vertex_local[start[i]:start[i + 1]] @ rotations[i].T
            for i in range(len(positions))]


def snapshot_frames(result):
    """SNAPSHOTS frames evenly spread over the run."""
    frames = result.frames
    picks = np.unique(np.linspace(0, len(frames) - 1, SNAPSHOTS).round().astype(int))
    return [frames[k] for k in picks]


def plot_snapshots_in_plane(model, result, keystone, path):
    """The wall at several instants projected on the x-z plane (seed fig. 11a)."""
    frames = snapshot_frames(result)
    is_support = model.mechanics.is_support
    key = model.block_ids.index(keystone)
    fig, axes = plt.subplots(len(frames), 1, figsize=(9, 2.6 * len(frames)), dpi=110)
    for ax, frame in zip(np.atleast_1d(axes), frames):
        for i, vertices in enumerate(posed_vertices(model, frame)):
            points = vertices[:, [0, 2]]
            hull = points[ConvexHull(points).vertices]
            colour = "0.75" if is_support[i] else ("#b5651d" if i == key else "#e9dcc4")
            ax.add_patch(Polygon(hull, closed=True, facecolor=colour, edgecolor="0.3", linewidth=0.4))
        ax.set_xlim(-10.0, 10.0)
        ax.set_ylim(-0.6, 5.6)
        ax.set_aspect("equal")
        ax.set_title(f"t = {frame['t']:.2f} s", fontsize=9)
        ax.tick_params(labelsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_snapshots_3d(model, result, keystone, path):
    """The wall at several instants in 3-D, for motion through its thickness (seed fig. 12a)."""
    frames = snapshot_frames(result)
    document = model.to_dict()
    polyhedra = model.mechanics.polyhedra
    key = model.block_ids.index(keystone)
    columns = 3
    rows = math.ceil(len(frames) / columns)
    fig = plt.figure(figsize=(5 * columns, 4 * rows), dpi=110)
    for n, frame in enumerate(frames):
        ax = fig.add_subplot(rows, columns, n + 1, projection="3d")
        faces, colours = [], []
        for i, vertices in enumerate(posed_vertices(model, frame)):
            if document["blocks"][i].get("support"):
                continue
            for f in range(polyhedra.face_start[i], polyhedra.face_start[i + 1]):
                loop = polyhedra.face_vertex[polyhedra.face_vertex_start[f]:polyhedra.face_vertex_start[f + 1]]
                faces.append(vertices[loop])
                colours.append("#b5651d" if i == key else "#e9dcc4")
        ax.add_collection3d(Poly3DCollection(faces, facecolors=colours, edgecolors="0.35", linewidths=0.2))
        ax.set_xlim(-8.5, 8.5)
        ax.set_ylim(-6.0, 6.0)
        ax.set_zlim(0.0, 6.0)
        ax.set_box_aspect((17.0, 12.0, 6.0))
        ax.view_init(elev=18, azim=-60)
        ax.set_title(f"t = {frame['t']:.2f} s", fontsize=9)
        ax.tick_params(labelsize=6)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def run_direction(direction, duration, time_step, out, figures=True):
    """One run: analysis, summary JSON and figures; returns the summary."""
    model = spandrel_model(direction)
    keystone = keystone_id(generators.GENERATORS["spandrel_wall"].parameter("voussoirs").default)
    label = f"ground along {direction}, h = {time_step:g} s"
    result, seconds = run(model, duration, time_step, label)
    report = summary(result, seconds, duration, time_step, direction, keystone)
    stem = f"spandrel_{direction}" + ("" if figures else f"_h{time_step:g}")
    (out / f"{stem}.json").write_text(json.dumps(report, indent=1))
    if figures:
        plot_keystone(report, out / f"{stem}_keystone.png")
        plot = plot_snapshots_in_plane if direction == "x" else plot_snapshots_3d
        plot(model, result, keystone, out / f"{stem}_snapshots.png")
    events = report["events"]
    print(f"{label}: {report['steps']} steps in {seconds:.1f} s ({1e3 * report['seconds_per_step']:.1f} ms/step, "
          f"real-time factor {report['real_time_factor']:.3f}); first sliding {events['first_sliding']}, "
          f"first uplift {events['first_uplift']}, collapse {events['collapse']} ({events['collapse_reason']}); "
          f"key stone displacement at the end {np.round(report['keystone_displacement_end_m'], 4).tolist()} m")
    return report


def brief(report):
    """The summary of a run without its history."""
    return {key: value for key, value in report.items() if key != "keystone_history"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=6.0, help="simulated time, s")
    parser.add_argument("--time-step", type=float, default=0.001, help="h, s")
    parser.add_argument("--direction", choices=("x", "y", "both"), default="both", help="ground motion direction")
    parser.add_argument("--steps-study", action="store_true",
                        help=f"also run h = {', '.join(f'{h:g}' for h in STUDY_STEPS)} s and compare")
    parser.add_argument("--out", default="out/spandrel", help="output folder")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    directions = ("x", "y") if args.direction == "both" else (args.direction,)
    runs = {}
    for direction in directions:
        runs[direction] = brief(run_direction(direction, args.duration, args.time_step, out))
    if args.steps_study:
        for direction in directions:
            study = {f"{args.time_step:g}": runs[direction]}
            for time_step in STUDY_STEPS:
                study[f"{time_step:g}"] = brief(run_direction(direction, args.duration, time_step, out, figures=False))
            runs[direction]["steps_study"] = {
                h: {"collapse_s": r["events"]["collapse"], "first_sliding_s": r["events"]["first_sliding"],
                    "first_uplift_s": r["events"]["first_uplift"],
                    "keystone_displacement_end_m": r["keystone_displacement_end_m"],
                    "keystone_largest_drop_m": r["keystone_largest_drop_m"],
                    "seconds_per_step": r["seconds_per_step"], "real_time_factor": r["real_time_factor"]}
                for h, r in study.items()}
            for h, r in runs[direction]["steps_study"].items():
                print(f"ground along {direction}, h = {h} s: collapse {r['collapse_s']}, key stone at the end "
                      f"{np.round(r['keystone_displacement_end_m'], 4).tolist()} m, "
                      f"largest drop {r['keystone_largest_drop_m']:.4f} m")
    (out / "spandrel_summary.json").write_text(json.dumps(runs, indent=1))
    print(f"wrote {out}/")


if __name__ == "__main__":
    main()
