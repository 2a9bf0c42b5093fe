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

Beside each run the equivalent static analysis (seed 000 sec. 4: self-weight plus a
horizontal body force of density x PGA along the same direction) is reported: the seed
finds it safe in plane and the wall flipping over at its base out of plane.

``--pga-sweep PGA [PGA ...]`` (in g) reruns the seed's in-plane motion at other peak
accelerations (spandrel_x_<pga>g*, with snapshots of the collapse) and plots the key
stone's drop against time for all of them (spandrel_x_sweep.png; "pga_sweep" in the summary).

``--housner PGA [PGA ...]`` (in g) reads the out-of-plane response against Housner's
rocking of the whole wall taken as one rigid body (`engine.dynamics.rocking`, its mass,
centre of mass and inertia about a base edge summed from the blocks). The seed's sine
displacement starts the ground at 0.31 m/s, a jump that makes the wall slide before it
rocks; these runs start the ground from rest instead, with a_g(t) = -PGA sin(2 pi f t)
given as a record, so that the wall and the equation see the same acceleration. Each PGA
writes spandrel_rocking_<pga>g.png (the wall's rotation about its length against the
equation's) and spandrel_rocking_<pga>g_snapshots.png; the figures go into
spandrel_summary.json under "housner".

    .venv/bin/python examples/spandrel_wall_ground_motion.py [--duration 6] [--time-step 0.001]
        [--direction x|y|both|none] [--steps-study] [--pga-sweep 0.3 0.45] [--housner 0.2 0.3]
        [--out out/spandrel]
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

from extrados import Model, analyze, generators  # noqa: E402
from extrados.engine.dynamics.rocking import RockingBody, rocking_response  # noqa: E402
from extrados.engine.generators.spandrel import keystone_id  # noqa: E402
from extrados.engine.geometry.quaternion import quat_to_matrices  # noqa: E402

G = 9.81
FREQUENCY = 1.0                                              # Hz
PEAK_GROUND_ACCELERATION = 0.2 * G                           # m/s^2
DIRECTIONS = {"x": [1.0, 0.0, 0.0], "y": [0.0, 1.0, 0.0]}
OUTPUT_INTERVAL = 0.02                                       # s between frames
STUDY_STEPS = (0.005, 0.02)                                  # s, extra time steps of --steps-study
#: Key stone drops (m) whose first times the summary reports.
KEYSTONE_DROPS = (0.01, 0.1)
SNAPSHOTS = 6
#: s, the seed's time step
DEFAULT_TIME_STEP = 0.001
#: s, sample interval of the from-rest ground acceleration records of --housner.
RECORD_DT = 1e-3


def default_keystone():
    """Id of the key stone of the default spandrel wall (white dot of seed 000 fig. 11a)."""
    return keystone_id(generators.GENERATORS["spandrel_wall"].parameter("voussoirs").default)


def sine_amplitude(peak_acceleration):
    """The seed's A = PGA / (4 pi^2 f^2), m."""
    return peak_acceleration / (4.0 * math.pi ** 2 * FREQUENCY ** 2)


def spandrel_model(direction, peak_acceleration=PEAK_GROUND_ACCELERATION):
    """The default spandrel wall (seed 000) with the sine ground motion along direction "x" or "y"."""
    document = generators.generate("spandrel_wall")
    document["support_motion"] = {"kind": "sine", "direction": DIRECTIONS[direction],
                                  "frequency": FREQUENCY, "amplitude": sine_amplitude(peak_acceleration)}
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


def ground_displacement(t, direction, peak_acceleration):
    """(n, 3) d_g(t) = A sin(2 pi f t) along the direction, m."""
    phase = np.sin(2.0 * math.pi * FREQUENCY * np.asarray(t))[:, None]
    return sine_amplitude(peak_acceleration) * phase * np.asarray(DIRECTIONS[direction])


def keystone_history(result, keystone):
    """Times (n,) s and the key stone's displacement from its initial position (n, 3), m."""
    frames = result.frames
    position = frames.position[:, result.blocks.ids.index(keystone)]
    return frames.t, position - position[0]


def first_time(t, condition):
    """The first time at which condition (n,) bool holds, or None."""
    hits = np.flatnonzero(condition)
    return float(t[hits[0]]) if len(hits) else None


def summary(result, seconds, duration, time_step, direction, keystone, peak_acceleration):
    """The JSON summary of one run."""
    document = result.to_dict()
    t, displacement = keystone_history(result, keystone)
    relative = displacement - ground_displacement(t, direction, peak_acceleration)
    steps = document["steps"]
    return {
        "direction": direction,
        "duration_s": duration,
        "time_step_s": time_step,
        "steps": steps,
        "ground_motion": {"frequency_hz": FREQUENCY, "amplitude_m": sine_amplitude(peak_acceleration),
                          "peak_acceleration_m_s2": peak_acceleration},
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
        "solver_steps": document["solver_steps"],
        "keystone_history": {"t": t.tolist(), "displacement": displacement.tolist()},
    }


def plot_keystone(report, path):
    """d_g and the key stone's displacement components against time (seed figs. 11b, 12b)."""
    t = np.asarray(report["keystone_history"]["t"])
    displacement = np.asarray(report["keystone_history"]["displacement"])
    direction = report["direction"]
    peak_acceleration = report["ground_motion"]["peak_acceleration_m_s2"]
    ground = ground_displacement(t, direction, peak_acceleration)[:, "xy".index(direction)]
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
    frames = result.to_dict()["frames"]
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
        # limits set below; autoscaling from faces of mixed vertex counts reads uninitialised
        # padding in matplotlib 3.11 ("Axis limits cannot be NaN or Inf", matplotlib issue 32272)
        ax.add_collection3d(Poly3DCollection(faces, facecolors=colours, edgecolors="0.35", linewidths=0.2),
                            autolim=False)
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


def run_direction(direction, duration, time_step, out, figures=True, peak_acceleration=PEAK_GROUND_ACCELERATION):
    """One run: analysis, summary JSON and figures; returns the summary."""
    model = spandrel_model(direction, peak_acceleration)
    keystone = default_keystone()
    label = f"ground along {direction}, PGA {peak_acceleration / G:g} g, h = {time_step:g} s"
    result, seconds = run(model, duration, time_step, label)
    report = summary(result, seconds, duration, time_step, direction, keystone, peak_acceleration)
    stem = (f"spandrel_{direction}" + ("" if time_step == DEFAULT_TIME_STEP else f"_h{time_step:g}")
            + ("" if peak_acceleration == PEAK_GROUND_ACCELERATION else f"_{peak_acceleration / G:g}g"))
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


def pga_sweep(peaks_g, duration, time_step, out, seed_run=None):
    """In-plane runs at several PGAs (g), beside the seed's run if given: events and key stone drop,
    and one figure of the drops."""
    reports = ([seed_run] if seed_run else []) + [
        run_direction("x", duration, time_step, out, peak_acceleration=pga * G) for pga in peaks_g]
    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=120)
    for report in reports:
        t = np.asarray(report["keystone_history"]["t"])
        drop = -np.asarray(report["keystone_history"]["displacement"])[:, 2]
        pga = report["ground_motion"]["peak_acceleration_m_s2"] / G
        collapse = report["events"]["collapse"]
        ax.plot(t, drop, linewidth=1.2, label=f"PGA {pga:g} g" + (f", collapse event {collapse:.2f} s" if collapse
                                                                  else ""))
    ax.set_xlabel("t (s)")
    ax.set_ylabel("key stone drop (m)")
    ax.set_title("Spandrel wall, in-plane sine ground motion of 1 Hz (seed 000): key stone drop")
    ax.grid(True, linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "spandrel_x_sweep.png")
    plt.close(fig)
    return [{"pga_g": report["ground_motion"]["peak_acceleration_m_s2"] / G, "events": report["events"],
             "keystone_largest_drop_m": report["keystone_largest_drop_m"],
             "keystone_drop_times_s": report["keystone_drop_times_s"]} for report in reports]


def equivalent_static(direction):
    """The seed's equivalent static analysis: self-weight plus PGA x mass along the direction (live)."""
    document = generators.generate("spandrel_wall")
    acceleration = (PEAK_GROUND_ACCELERATION * np.asarray(DIRECTIONS[direction])).tolist()
    document.setdefault("loads", []).append({"kind": "body_acceleration", "blocks": "all",
                                             "acceleration": acceleration, "live": True})
    result = analyze(Model.from_dict(document), {"type": "static"}).to_dict()
    print(f"equivalent static, {PEAK_GROUND_ACCELERATION / G:g} g along {direction}: "
          f"{'stands' if result['stable'] else 'collapses'}")
    return {"stable": result["stable"], "solver": result["solver"]}


# --- out of plane: the wall against Housner's rigid-body rocking --------------------------------------------
def rest_start_document(peak_acceleration, duration):
    """The spandrel wall with a_g(t) = -peak sin(2 pi f t) through its thickness (y), ground from rest.

    Returns the model document and a_g as a function of t (the record, linear between samples).
    """
    t = RECORD_DT * np.arange(int(math.ceil(duration / RECORD_DT)) + 2)
    acceleration = -peak_acceleration * np.sin(2.0 * math.pi * FREQUENCY * t)
    document = generators.generate("spandrel_wall")
    document["support_motion"] = {"kind": "record", "dt": RECORD_DT,
                                  "accelerations": [[0.0, a, 0.0] for a in acceleration]}
    return document, lambda s: float(np.interp(s, t, acceleration))


def equivalent_rocking_body(model):
    """The movable blocks as one rigid body rocking about a base edge along x (Housner's eq. 1).

    Mass, centre of mass and the moment of inertia about the edge y = thickness/2, z = 0 are
    summed from the blocks (their body axes are the world axes at t = 0).
    """
    mech = model.mechanics
    movable = ~mech.is_support
    mass = mech.mass[movable]
    centre = mech.position0[movable]
    total = mass.sum()
    centre_of_mass = (mass[:, None] * centre).sum(axis=0) / total
    half_thickness = generators.GENERATORS["spandrel_wall"].parameter("thickness").default / 2.0
    offset = centre[:, 1:] - [half_thickness, 0.0]          # (n, 2) from the pivot edge in the y-z plane
    pivot_inertia = float(mech.inertia_body[movable, 0, 0].sum() + (mass * (offset ** 2).sum(axis=1)).sum())
    return RockingBody.from_mass_properties(total, centre_of_mass[2], half_thickness, pivot_inertia), {
        "mass_kg": float(total), "centre_of_mass_m": centre_of_mass.tolist(), "pivot_inertia_kg_m2": pivot_inertia}


def wall_rotation(model, result):
    """(n,) times and the median rotation (rad) of the movable blocks about x, + leaning toward +y."""
    movable = ~model.mechanics.is_support
    t = result.frames.t
    q = result.frames.orientation[:, movable]   # (n, m, 4)
    about_x = 2.0 * np.arctan2(q[:, :, 1], q[:, :, 0])     # turning +z toward -y is positive about x
    return t, -np.median(about_x, axis=1)


def run_housner(pga, duration, time_step, out):
    """One out-of-plane run from rest at pga (g) beside Housner's equation; figure and figures."""
    document, ground_acceleration = rest_start_document(pga * G, duration)
    model = Model.from_dict(document)
    body, mass_properties = equivalent_rocking_body(model)
    result, seconds = run(model, duration, time_step, f"out of plane from rest, PGA {pga:g} g")
    t, theta = wall_rotation(model, result)
    reference = rocking_response(body, ground_acceleration, duration)
    events = result.to_dict()["events"]
    beyond = first_time(t, np.abs(theta) > body.alpha)
    beyond_reference = first_time(reference["t"], np.abs(reference["theta"]) > body.alpha)
    report = {"pga_g": pga, "equivalent_body": {"alpha_rad": body.alpha, "radius_m": body.radius, "p_1_s": body.p,
                                                "restitution": body.restitution, **mass_properties},
              "uplift_acceleration_g": math.tan(body.alpha),
              "housner": {"largest_rad": reference["largest"], "beyond_alpha_s": beyond_reference,
                          "overturned_s": reference["overturned"], "impacts_s": reference["impacts"].tolist()},
              "extrados": {"largest_rad": float(np.abs(theta).max()), "beyond_alpha_s": beyond,
                           "collapse_s": events["collapse"],
                           "collapse_reason": events["collapse_reason"], "first_uplift_s": events["first_uplift"],
                           "seconds": seconds}}
    plot_rocking(t, theta, reference, body, pga, out / f"spandrel_rocking_{pga:g}g.png")
    keystone = default_keystone()
    plot_snapshots_3d(model, result, keystone, out / f"spandrel_rocking_{pga:g}g_snapshots.png")
    print(f"PGA {pga:g} g from rest: largest rotation {report['extrados']['largest_rad']:.4f} rad "
          f"(Housner {reference['largest']:.4f}); |theta| > alpha from {beyond} s (Housner {beyond_reference} s); "
          f"collapse event {events['collapse']} s, Housner's body lies on its side at {reference['overturned']} s")
    return report


def plot_rocking(t, theta, reference, body, pga, path):
    """The wall's rotation about its length against Housner's rigid body, both over alpha."""
    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=120)
    ax.plot(reference["t"], reference["theta"] / body.alpha, "k-", linewidth=1.2,
            label="Housner, the wall as one rigid body")
    ax.plot(t, theta / body.alpha, "--", color="#c0392b", linewidth=1.2, label="Extrados, median block rotation")
    ax.set_ylim(-1.5, 1.5)
    ax.set_xlabel("t (s)")
    ax.set_ylabel(r"$\theta / \alpha$")
    ax.set_title(f"Spandrel wall rocking out of plane, PGA {pga:g} g from rest ($\\alpha$ = {body.alpha:.3f} rad)")
    ax.grid(True, linewidth=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def brief(report):
    """The summary of a run without its history."""
    return {key: value for key, value in report.items() if key != "keystone_history"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=6.0, help="simulated time, s")
    parser.add_argument("--time-step", type=float, default=DEFAULT_TIME_STEP, help="h, s")
    parser.add_argument("--direction", choices=("x", "y", "both", "none"), default="both",
                        help="direction of the seed's ground motion (none: only --housner)")
    parser.add_argument("--steps-study", action="store_true",
                        help=f"also run h = {', '.join(f'{h:g}' for h in STUDY_STEPS)} s and compare")
    parser.add_argument("--pga-sweep", type=float, nargs="*", default=[], metavar="PGA",
                        help="in-plane runs of the seed's motion at these peak ground accelerations (g)")
    parser.add_argument("--housner", type=float, nargs="*", default=[], metavar="PGA",
                        help="out-of-plane runs from rest at these peak ground accelerations (g) against Housner")
    parser.add_argument("--out", default="out/spandrel", help="output folder")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    directions = {"both": ("x", "y"), "none": ()}.get(args.direction, (args.direction,))
    runs, full = {}, {}
    for direction in directions:
        full[direction] = run_direction(direction, args.duration, args.time_step, out)
        runs[direction] = brief(full[direction])
        runs[direction]["equivalent_static"] = equivalent_static(direction)
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
    if args.pga_sweep:
        runs["pga_sweep"] = pga_sweep(args.pga_sweep, args.duration, args.time_step, out, full.get("x"))
    if args.housner:
        runs["housner"] = [run_housner(pga, args.duration, args.time_step, out) for pga in args.housner]
    (out / "spandrel_summary.json").write_text(json.dumps(runs, indent=1))
    print(f"wrote {out}/")


if __name__ == "__main__":
    main()
