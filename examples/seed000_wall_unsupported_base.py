"""Natural arch in a wall whose base is unsupported over a central span (seed 000 sec. 3.2, fig. 9).

The wall of seed 000 (16.2 x 5.0 x 0.8 m, the running bond of the spandrels: courses of
0.5 m, blocks of 1.0 m, mu = 0.4, 1800 kg/m^3) rests on two slabs that leave the span of
the arch opening (7.6 m) unsupported (`wall_over_gap` generator). A dynamic NSCD run under
self-weight alone lets the unsupported part fall (fig. 9b); the blocks whose centre has
dropped by more than a course height at the end have fallen. A static analysis of the
blocks that remain, in their original places, then gives the resultants of the contact
forces on the horizontal joints (fig. 9c, segments of length proportional to the force):
the natural arch that carries the wall above the fallen triangle.

Beside the run, the triangle of corbelling: with the joints of each course half a block
from those below, a course can reach half a block further over the gap than the one
below, so a block whose whole length lies over the gap within

    |x| <= gap / 2 - z_bottom (block_length / 2) / course_height

has nothing under it in any course below and may fall; blocks beyond that line rest, at
least in part, on corbels. The table compares the fallen blocks of each course with it.

Writes OUT/seed000_wall_unsupported_base.png (a: layout, b: after the run, c: resultants
on the horizontal joints of the remaining wall) and OUT/seed000_wall_unsupported_base.json.

    .venv/bin/python examples/seed000_wall_unsupported_base.py [--duration 3] [--time-step 0.002]
        [--quick] [--out out]
"""
import argparse
import json
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.spatial.transform import Rotation  # noqa: E402

from extrados import analyze, generators  # noqa: E402
from seed000_figures import block_outlines, draw_blocks, draw_resultants, finish, posed_outline  # noqa: E402

WALL = generators.GENERATORS["wall_over_gap"]
#: The --quick wall: small enough to run in seconds, wide enough a gap to drop a triangle.
QUICK_WALL = {"length": 9.0, "height": 2.5, "gap": 5.0}
#: A joint is horizontal when its unit normal's z component exceeds this (cos 25 deg).
HORIZONTAL_NORMAL = 0.9
OUTPUT_INTERVAL = 0.05   # s between frames


def parameters(quick):
    """All parameters of the wall: the generator's defaults (seed 000), or the --quick wall."""
    defaults = {p.name: p.default for p in WALL.parameters}
    return {**defaults, **(QUICK_WALL if quick else {})}


def block_bottoms_and_extents(document):
    """{id: (z_bottom, x_min, x_max)} of the movable blocks, m."""
    extents = {}
    for block in document["blocks"]:
        if not block["support"]:
            vertices = np.asarray(block["vertices"], float)
            extents[block["id"]] = (vertices[:, 2].min(), vertices[:, 0].min(), vertices[:, 0].max())
    return extents


def in_corbel_triangle(z_bottom, x_min, x_max, params):
    """Whether a block lies wholly within the corbelling triangle over the gap (module docstring)."""
    reach = params["gap"] / 2.0 - z_bottom * (params["block_length"] / 2.0) / params["course_height"]
    return -reach <= x_min and x_max <= reach


def fallen_blocks(result, ids, course_height):
    """Ids of the movable blocks whose centre dropped by more than a course height from the first frame to the last."""
    first = np.asarray(result["frames"][0]["positions"], float)
    last = np.asarray(result["frames"][-1]["positions"], float)
    movable = {block["id"] for block in result["blocks"] if not block.get("support")}
    drop = first[:, 2] - last[:, 2]
    return [ids[i] for i in np.flatnonzero(drop > course_height) if ids[i] in movable]


def per_course(document, fallen, params):
    """Rows per course: fallen blocks and those the corbelling triangle predicts, bottom up."""
    extents = block_bottoms_and_extents(document)
    courses = {}
    for block_id, (z, x_min, x_max) in extents.items():
        course = int(block_id[1:].split("b")[0])
        row = courses.setdefault(course, {"course": course, "fallen": [], "triangle": []})
        if block_id in fallen:
            row["fallen"].append(block_id)
        if in_corbel_triangle(z, x_min, x_max, params):
            row["triangle"].append(block_id)
    return [courses[c] for c in sorted(courses)]


def remaining_document(document, fallen):
    """The wall without the fallen blocks, in its original places."""
    remaining = dict(document)
    remaining["blocks"] = [block for block in document["blocks"] if block["id"] not in set(fallen)]
    return remaining


def horizontal_joints(result):
    """The interfaces of a result document whose normal is within 25 deg of vertical and that carry load."""
    return [joint for joint in result["interfaces"]
            if abs(joint["normal"][2]) > HORIZONTAL_NORMAL and joint["normal_force"] > 0.0]


def final_outlines(document, result):
    """{id: outline} of the movable blocks in the last frame of a dynamic result."""
    ids = [block["id"] for block in document["blocks"]]
    first, last = result["frames"][0], result["frames"][-1]
    outlines = {}
    for i, block in enumerate(document["blocks"]):
        if block["support"]:
            continue
        w, x, y, z = last["orientations"][i]
        outlines[ids[i]] = posed_outline(block["vertices"], np.asarray(first["positions"][i]),
                                         np.asarray(last["positions"][i]), Rotation.from_quat([x, y, z, w]))
    return outlines


def draw_triangle(ax, params):
    """The corbelling triangle's sides from the gap's edges."""
    half, slope = params["gap"] / 2.0, params["course_height"] / (params["block_length"] / 2.0)
    apex = half * slope
    ax.plot([-half, 0.0, half], [0.0, apex, 0.0], ":", color="#1f5fbf", linewidth=1.2,
            label="corbelling triangle (half a block per course)")


def plot_wall(params, document, dynamic, remaining, static, fallen, path):
    """Panels (a) layout, (b) after the dynamic run, (c) resultants on the horizontal joints (seed fig. 9)."""
    length, height = params["length"], params["height"]
    x_range, z_range = (-length / 2 - 0.3, length / 2 + 0.3), (-0.8, height + 0.5)
    fig, axes = plt.subplots(3, 1, figsize=(9, 9.5), dpi=80)
    supports = block_outlines(document, supports=True)
    for ax in axes:
        draw_blocks(ax, supports, colour="0.75")
    draw_blocks(axes[0], block_outlines(document))
    draw_triangle(axes[0], params)
    finish(axes[0], f"(a) layout: {length:g} x {height:g} m, base unsupported over {params['gap']:g} m, "
                    f"mu = {params['friction']}", x_range, z_range)
    draw_blocks(axes[1], block_outlines(document), colour="none", linewidth=0.3)
    draw_blocks(axes[1], final_outlines(document, dynamic), highlight=fallen)
    draw_triangle(axes[1], params)
    finish(axes[1], f"(b) after {dynamic['frames'][-1]['t']:.2f} s of NSCD dynamics: {len(fallen)} blocks fell",
           x_range, z_range)
    draw_blocks(axes[2], block_outlines(remaining))
    joints = horizontal_joints(static)
    largest = max(joint["normal_force"] for joint in joints)
    draw_resultants(axes[2], joints, 0.9 * params["course_height"] / largest, linewidth=1.8)
    verdict = "stands" if static["stable"] else "does not stand"
    finish(axes[2], f"(c) the remaining wall {verdict}: resultants on the horizontal joints (length ~ force)",
           x_range, z_range, legend=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=3.0, help="simulated time, s")
    parser.add_argument("--time-step", type=float, default=0.002, help="h, s")
    parser.add_argument("--quick", action="store_true",
                        help=f"a smaller wall {QUICK_WALL} for 1 s instead of seed 000's")
    parser.add_argument("--out", default="out", help="output folder")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    params = parameters(args.quick)
    duration = 1.0 if args.quick else args.duration

    document = generators.generate("wall_over_gap", **params)
    ids = [block["id"] for block in document["blocks"]]
    start = time.perf_counter()
    dynamic = analyze(document, {"type": "dynamic", "duration": duration, "time_step": args.time_step,
                                 "output_interval": OUTPUT_INTERVAL}).to_dict()
    dynamic_seconds = time.perf_counter() - start
    fallen = fallen_blocks(dynamic, ids, params["course_height"])
    remaining = remaining_document(document, fallen)
    start = time.perf_counter()
    static = analyze(remaining, {"type": "static"}).to_dict()
    static_seconds = time.perf_counter() - start
    rows = per_course(document, fallen, params)
    springings = [joint for joint in horizontal_joints(static) if any(b.startswith("ground") for b in joint["blocks"])]
    summary = {"parameters": params, "duration_s": duration, "time_step_s": args.time_step,
               "blocks": len(ids) - 2, "fallen": sorted(fallen), "courses": rows,
               "remaining_stands": static["stable"], "static_verdict_by": static["verdict_by"],
               "largest_support_joint_force_n": max(joint["normal_force"] for joint in springings),
               "dynamic_seconds": dynamic_seconds, "static_seconds": static_seconds,
               "solver_steps": dynamic["solver_steps"]}
    plot_wall(params, document, dynamic, remaining, static, fallen, out / "seed000_wall_unsupported_base.png")
    (out / "seed000_wall_unsupported_base.json").write_text(json.dumps(
        {**summary, "remaining_result": static}, indent=1))

    print(f"wall {params['length']} x {params['height']} m, gap {params['gap']} m, {summary['blocks']} blocks, "
          f"{duration} s at h = {args.time_step} s: {dynamic_seconds:.0f} s; static of the rest {static_seconds:.0f} s")
    print(f"{'course':>6} {'fallen':>6} {'triangle':>8}  fallen outside the triangle")
    for row in rows:
        outside = sorted(set(row["fallen"]) - set(row["triangle"]))
        print(f"{row['course']:6d} {len(row['fallen']):6d} {len(row['triangle']):8d}  {' '.join(outside)}")
    print(f"{len(fallen)} blocks fell; the remaining wall {'stands' if static['stable'] else 'DOES NOT STAND'} "
          f"({static['verdict_by']}); largest resultant on a support "
          f"{summary['largest_support_joint_force_n'] / 1e3:.1f} kN")
    print(f"wrote {out / 'seed000_wall_unsupported_base.png'} and {out / 'seed000_wall_unsupported_base.json'}")


if __name__ == "__main__":
    main()
