"""Corbelled dome in a partially supported masonry cylinder (seed 000 sec. 3.2, fig. 10).

A solid cylinder of concentric rings of voussoir-like blocks (`cylinder` generator) rests
on slabs that leave a central regular octagon unsupported: seed 000's cylinder has the
height and span of the wall of fig. 9 (5.0 m, 16.2 m), mu = 0.4, and an octagon whose
circumscribed diameter is that wall's unsupported span (7.6 m). A dynamic NSCD run under
self-weight lets the unsupported blocks fall; a block whose centre dropped by more than a
course height has fallen. The blocks that remain, in their original places, are then
analysed statically: the resultants of the contact forces on their horizontal joints
(fig. 10c) run from the axis toward the supports.

Seed 000's cylinder holds about 1900 blocks: its 3 s take about 40 minutes on two cores (about 1 s a
step, printed by tenth of the run), and in ours nothing falls (docs/validation.md: its rings hold gaps up
to 5.6 m), so the default is a smaller cylinder with the same blocks (0.8 m rings, 0.5 m courses) and a gap
as wide against its height as makes the centre fall (``--radius``, ``--height``,
``--courses``, ``--gap-radius`` give seed 000's: 8.1, 5.0, 10, 3.8). ``--quick`` runs 1 s
only, a check of the set-up: the centre first creeps down (about 4 cm in the first 0.8 s) and
falls later, so no block has fallen by then. The intact cylinder stands by the static
analysis; the fall in the full run starts from that slow creep (see docs/validation.md).

Writes OUT/seed000_cylinder_dome.png (a: the remaining blocks from below with one quarter
hidden, b: side view of the remaining blocks cut on a vertical plane through the axis,
c: resultants on the horizontal joints, plan and section) and OUT/seed000_cylinder_dome.json (with
the seconds per step of each tenth of the run). ``--static-only`` prints the static verdict of the intact
cylinder instead (the sweep of gaps, friction and rings in docs/validation.md).

    .venv/bin/python examples/seed000_cylinder_dome.py [--radius 4] [--height 2] [--courses 4]
        [--gap-radius 3.2] [--friction 0.4] [--ring-width 0.8] [--blocks-per-ring 8]
        [--duration 3.0] [--time-step 0.002] [--quick] [--static-only] [--out out]
"""
import argparse
import json
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402
from tqdm import tqdm  # noqa: E402

from extrados import analyze, generators  # noqa: E402
from seed000_figures import BLOCK_COLOUR, LINE_COLOUR  # noqa: E402

CYLINDER = generators.GENERATORS["cylinder"]
CYLINDER_DEFAULTS = {p.name: p.default for p in CYLINDER.parameters}
#: A joint is horizontal when its unit normal's z component exceeds this (cos 25 deg).
HORIZONTAL_NORMAL = 0.9
OUTPUT_INTERVAL = 0.05   # s between frames
QUICK_DURATION = 1.0     # s
#: How a static verdict was reached (the result's verdict_by), in words.
VERDICT_BY = {"static": "the static CCP", "settle run": "a settle run"}


def timed_dynamic_run(document, duration, time_step):
    """The dynamic run with a progress bar on standard error; its result document, the wall-clock seconds, and
    the seconds per step of each tenth of the run (the cost per step changes as the blocks fall)."""
    request = {"type": "dynamic", "duration": duration, "time_step": time_step, "output_interval": OUTPUT_INTERVAL}
    stamps = [(0.0, time.perf_counter())]
    with tqdm(total=1000, desc="dynamic run", bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}",
              file=sys.stderr) as bar:
        def progress(fraction):
            bar.update(int(round(1000 * fraction)) - bar.n)
            if fraction >= stamps[-1][0] + 0.1 - 1e-9 or fraction >= 1.0:
                stamps.append((fraction, time.perf_counter()))

        result = analyze(document, request, progress=progress).to_dict()
    seconds = time.perf_counter() - stamps[0][1]
    steps = result["steps"]
    per_step = [(b[1] - a[1]) / ((b[0] - a[0]) * steps) for a, b in zip(stamps, stamps[1:]) if b[0] > a[0]]
    return result, seconds, per_step


def print_static_verdict(document, params):
    """``--static-only``: whether the intact cylinder stands (static analysis), printed on one line."""
    start = time.perf_counter()
    result = analyze(document, {"type": "static"}).to_dict()
    movable = sum(not block["support"] for block in document["blocks"])
    decided_by = VERDICT_BY.get(result["verdict_by"], result["verdict_by"])
    names = ("radius", "height", "courses", "gap_radius", "friction", "ring_width", "blocks_per_ring")
    print(", ".join(f"{name} {params[name]:g}" for name in names) + f": {movable} blocks "
          f"{'stand' if result['stable'] else 'do not stand'} (decided by {decided_by}; "
          f"largest point speed after the static step {result['max_point_speed']:.3g} m/s) in "
          f"{time.perf_counter() - start:.0f} s")


def fallen_blocks(result, ids, supports, drop_limit):
    """Ids of the movable blocks whose centre dropped by more than drop_limit (m) from the first frame to the last."""
    first = np.asarray(result["frames"][0]["positions"], float)
    last = np.asarray(result["frames"][-1]["positions"], float)
    drop = first[:, 2] - last[:, 2]
    return [ids[i] for i in np.flatnonzero(drop > drop_limit) if ids[i] not in supports]


def horizontal_joints(result):
    """Loaded interfaces of a result document whose normal is within 25 deg of vertical."""
    return [joint for joint in result["interfaces"]
            if abs(joint["normal"][2]) > HORIZONTAL_NORMAL and joint["normal_force"] > 0.0]


def block_faces(block):
    """The polygons (list of (m, 3) arrays) of a block's faces."""
    vertices = np.asarray(block["vertices"], float)
    return [vertices[face] for face in block["faces"]]


def draw_blocks_3d(ax, blocks, fallen_ids=()):
    """The blocks as shaded polyhedra; fallen ones are left out."""
    faces = [face for block in blocks if block["id"] not in fallen_ids for face in block_faces(block)]
    # the callers set the limits; autoscaling from faces of mixed vertex counts reads uninitialised
    # padding in matplotlib 3.11 (matplotlib issue 32272)
    ax.add_collection3d(Poly3DCollection(faces, facecolors=BLOCK_COLOUR, edgecolors="0.35", linewidths=0.2),
                        autolim=False)


def hidden_quarter(block):
    """Whether a block's centre lies in the quarter x > 0, y < 0 (hidden, as in seed 000 fig. 10)."""
    centre = np.asarray(block["vertices"], float).mean(axis=0)
    return centre[0] > 0.0 and centre[1] < 0.0


def plot_dome(params, document, remaining, static, fallen, path):
    """Panels (a) view from below, (b) side view, (c) resultants on horizontal joints (seed 000 fig. 10)."""
    radius, height = params["radius"], params["height"]
    movable = [block for block in remaining["blocks"] if not block["support"]]
    shown = [block for block in movable if not hidden_quarter(block)]
    fig = plt.figure(figsize=(14, 4.8), dpi=80)
    for n, (elevation, title) in enumerate(((-35, "(a) remaining blocks from below, one quarter hidden"),
                                            (12, "(b) side view, one quarter hidden"))):
        ax = fig.add_subplot(1, 3, n + 1, projection="3d")
        draw_blocks_3d(ax, shown)
        ax.set_xlim(-radius, radius)
        ax.set_ylim(-radius, radius)
        ax.set_zlim(0.0, height)
        ax.set_box_aspect((2 * radius, 2 * radius, height))
        ax.view_init(elev=elevation, azim=-60)
        ax.set_title(title, fontsize=9)
        ax.tick_params(labelsize=6)
    ax = fig.add_subplot(1, 3, 3, projection="3d")
    joints = horizontal_joints(static)
    largest = max(joint["normal_force"] for joint in joints)
    scale = 0.8 * height / params["courses"] / largest
    for joint in joints:
        centre = np.asarray(joint["centre"], float)
        if centre[0] > 0.0 and centre[1] < 0.0:
            continue
        half = 0.5 * scale * np.asarray(joint["force"], float)
        segment = np.array([centre - half, centre + half])
        ax.plot(segment[:, 0], segment[:, 1], segment[:, 2], "-", color=LINE_COLOUR, linewidth=1.0)
    ax.set_xlim(-radius, radius)
    ax.set_ylim(-radius, radius)
    ax.set_zlim(-0.2 * height, height)
    ax.set_box_aspect((2 * radius, 2 * radius, 1.2 * height))
    ax.view_init(elev=12, azim=-60)
    verdict = "stand" if static["stable"] else "do not stand"
    ax.set_title(f"(c) the remaining blocks {verdict}: resultants on horizontal joints", fontsize=9)
    ax.tick_params(labelsize=6)
    fig.suptitle(f"cylinder R = {radius:g} m, H = {height:g} m, octagonal gap of circumradius "
                 f"{params['gap_radius']:g} m, mu = {params['friction']}: {len(fallen)} blocks fell", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def dome_profile(document, fallen, course_height):
    """Per course: fallen blocks and the largest radius (m) a fallen block's centre reached, bottom up."""
    rows = {}
    for block in document["blocks"]:
        if block["support"]:
            continue
        course = int(block["id"][1:].split("r")[0])
        row = rows.setdefault(course, {"course": course, "blocks": 0, "fallen": 0, "open_radius_m": 0.0})
        row["blocks"] += 1
        if block["id"] in fallen:
            centre = np.asarray(block["vertices"], float).mean(axis=0)
            row["fallen"] += 1
            row["open_radius_m"] = max(row["open_radius_m"], float(np.hypot(centre[0], centre[1])))
    return [rows[c] for c in sorted(rows)]


def outward_fraction(joints):
    """Share (by horizontal force) of the horizontal-joint resultants that carry the weight outward.

    Each resultant is taken with the sign that points down (the thrust passed on to the
    block below); it carries the weight from the axis toward the supports when its
    horizontal part has a positive dot product with its centre's distance from the axis.
    """
    outward = total = 0.0
    for joint in joints:
        centre = np.asarray(joint["centre"], float)[:2]
        horizontal = np.asarray(joint["force"], float)[:2]
        size = np.linalg.norm(horizontal)
        if size == 0.0 or np.linalg.norm(centre) == 0.0:
            continue
        down = np.asarray(joint["force"], float) * (-1.0 if joint["force"][2] > 0.0 else 1.0)
        outward += size * (np.dot(down[:2], centre) > 0.0)
        total += size
    return outward / total if total else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--radius", type=float, default=4.0, help="outer radius, m (seed 000: 8.1)")
    parser.add_argument("--height", type=float, default=2.0, help="height, m (seed 000: 5.0)")
    parser.add_argument("--courses", type=int, default=4, help="courses (seed 000: 10)")
    parser.add_argument("--gap-radius", type=float, default=3.2, help="circumradius of the octagon, m (seed 000: 3.8)")
    parser.add_argument("--friction", type=float, default=CYLINDER_DEFAULTS["friction"], help="mu (seed 000: 0.4)")
    parser.add_argument("--ring-width", type=float, default=CYLINDER_DEFAULTS["ring_width"], help="m, radial")
    parser.add_argument("--blocks-per-ring", type=int, default=CYLINDER_DEFAULTS["blocks_per_ring"],
                        help="blocks of the innermost ring (doubling outward)")
    parser.add_argument("--static-only", action="store_true",
                        help="only the static verdict of the intact cylinder (seconds at the seed's size)")
    parser.add_argument("--duration", type=float, default=3.0, help="simulated time, s")
    parser.add_argument("--time-step", type=float, default=0.002, help="h, s")
    parser.add_argument("--quick", action="store_true",
                        help=f"simulate {QUICK_DURATION} s only (a set-up check: nothing has fallen yet)")
    parser.add_argument("--out", default="out", help="output folder")
    args = parser.parse_args()
    params = dict(CYLINDER_DEFAULTS, radius=args.radius, thickness=args.radius, height=args.height,
                  courses=args.courses, gap_radius=args.gap_radius, friction=args.friction, ring_width=args.ring_width,
                  blocks_per_ring=args.blocks_per_ring)
    duration = QUICK_DURATION if args.quick else args.duration

    document = generators.generate("cylinder", **params)
    if args.static_only:
        print_static_verdict(document, params)
        return
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ids = [block["id"] for block in document["blocks"]]
    supports = {block["id"] for block in document["blocks"] if block["support"]}
    course_height = params["height"] / params["courses"]
    dynamic, dynamic_seconds, seconds_per_step = timed_dynamic_run(document, duration, args.time_step)
    fallen = fallen_blocks(dynamic, ids, supports, course_height)
    remaining = dict(document, blocks=[block for block in document["blocks"] if block["id"] not in set(fallen)])
    start = time.perf_counter()
    static = analyze(remaining, {"type": "static"}).to_dict()
    static_seconds = time.perf_counter() - start
    joints = horizontal_joints(static)
    rows = dome_profile(document, set(fallen), course_height)
    summary = {"parameters": params, "duration_s": duration, "time_step_s": args.time_step,
               "blocks": len(ids) - len(supports), "fallen": sorted(fallen), "courses": rows,
               "remaining_stands": static["stable"], "static_verdict_by": static["verdict_by"],
               "outward_fraction": outward_fraction(joints), "dynamic_seconds": dynamic_seconds,
               "static_seconds": static_seconds, "seconds_per_step_by_tenth": seconds_per_step,
               "solver_steps": dynamic["solver_steps"]}
    plot_dome(params, document, remaining, static, fallen, out / "seed000_cylinder_dome.png")
    (out / "seed000_cylinder_dome.json").write_text(json.dumps({**summary, "remaining_result": static}, indent=1))

    print(f"cylinder R = {params['radius']} m, H = {params['height']} m, {params['courses']} courses, octagonal gap "
          f"of circumradius {params['gap_radius']} m: {summary['blocks']} blocks; {duration} s at h = "
          f"{args.time_step} s took {dynamic_seconds:.0f} s, the static analysis of the rest {static_seconds:.0f} s")
    tally = dynamic["solver_steps"]
    print(f"seconds per step, by tenth of the run: {' '.join(f'{s:.2f}' for s in seconds_per_step)}; "
          f"{tally['mean_iterations']:.0f} solver iterations a step on average, {tally['unconverged_steps']} "
          "steps unconverged")
    print(f"{'course':>6} {'blocks':>6} {'fallen':>6} {'open to r (m)':>13}")
    for row in rows:
        print(f"{row['course']:6d} {row['blocks']:6d} {row['fallen']:6d} {row['open_radius_m']:13.2f}")
    print(f"{len(fallen)} blocks fell; the rest {'stands' if static['stable'] else 'DOES NOT STAND'} "
          f"({static['verdict_by']}); {100 * (summary['outward_fraction'] or 0):.0f}% of the horizontal-joint "
          "thrust points from the axis toward the supports")
    print(f"wrote {out / 'seed000_cylinder_dome.png'} and {out / 'seed000_cylinder_dome.json'}")


if __name__ == "__main__":
    main()
