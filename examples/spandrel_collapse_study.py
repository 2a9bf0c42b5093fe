"""Why the spandrel wall of seed 000 figs. 11-12 collapses at 0.2 g there and not here: a sweep.

Seed 000 sec. 4 shakes its spandrel wall (130 blocks, mu = 0.4) along its plane with
d_g = A sin(2 pi f t), f = 1 Hz, PGA 0.2 g, and finds a progressive collapse: the key stone drops; shaken
through its thickness the wall collapses too (fig. 12).
With our defaults the wall settles by millimetres and stands for 6 s; the key stone drops by
centimetres from about 0.3 g (docs/validation.md). The seed does not give its contact compliance,
penetration recovery, solver tolerance or iteration cap; this script changes one of those (or the
ground motion's start, the time step, the impact law, the flow rule) at a time and reruns the wall at
each PGA asked for, reporting the key stone's largest drop, its drop at the end and the collapse
event (a block displaced beyond the collapse threshold relative to the ground), so that every
candidate explanation is a measured row of one table.

Variants (each changes the baseline in one respect):

    baseline            the seed's displacement law (the ground starts at 2 pi f A = 0.31 m/s), h = 1 ms,
                        solver auto to the dynamic tolerance 1e-5, compliance default, associated flow rule
    from_rest           the ground starts from rest: d_g = A (1 - cos 2 pi f t)
    non_associated      Coulomb friction (flow_rule non_associated, engine.solvers.coulomb): sliding joints
                        do not open
    soft_joints         compliance 1e-9 m/N a contact point (10 x the default 1e-10)
    stiff_joints        compliance 1e-12 m/N
    loose_solver        tolerance 1e-3 (100 x the default)
    capped_solver       apgd alone, at most 30 iterations a step (a fixed-iteration solver, as in game engines)
    time_step_2ms       h = 2 ms
    time_step_0.5ms     h = 0.5 ms
    plastic_impacts     the energy impact law off (restitution 1e-12: plain plastic impacts of eq. 28-30)

    rounded_10mm        corners rounded (seed 000's sphere-swept margins, figs. 4-5, whose radius it does not
    rounded_25mm        give): every movable block's edges along the wall's normal, those it rocks on in plane,
                        filleted with a radius of 10 or 25 mm (`rounded_block`)

Layout variants: the seed gives the wall's outline (16.2 x 5.0 x 0.8 m, R = 3.8 m) but not its blocks, so
these change the generator's layout parameters, one at a time, keeping the outline:

    voussoirs_9         9 voussoirs (the baseline has 15)
    voussoirs_25        25 voussoirs
    thin_ring           a ring 0.4 m deep (baseline 0.6 m)
    deep_ring           a ring 0.8 m deep
    small_blocks        blocks 0.5 m long in courses 0.25 m high (baseline 1.0 x 0.5 m): four times the joints
    long_blocks         blocks 1.6 m long
    two_leaves          every block split through the thickness into two leaves of 0.4 m: a wall of two leaves
                        with a continuous collar joint and no headers (`split_into_leaves`)

``--layouts`` runs the baseline and these instead of the settings' variants. ``--direction out_of_plane``
shakes the wall through its thickness (y) instead of along it (seed 000 fig. 12).

Not a variant: penetration recovery, a constant of the kernels (engine.contact.assemble.PENETRATION_RECOVERY, 0.05 of
Phi/h a step): a contact at rest carries F = PENETRATION_RECOVERY Phi / c, so at rest the recovery acts
as the compliance c / PENETRATION_RECOVERY, which soft_joints and stiff_joints sweep.

Writes <out>/study.json (every run, with the key stone's and the ground's displacements at every frame),
<out>/study.md (the table) and <out>/keystone.png (seed 000 figs. 11(b)-12(b): the key stone against the ground
for the baseline and every run that collapsed), and prints the table.

    .venv/bin/python examples/spandrel_collapse_study.py [--pga 0.2 0.3] [--variants baseline from_rest ...]
        [--layouts] [--direction in_plane|out_of_plane] [--duration 6] [--jobs 2]
        [--out out/validation/spandrel_collapse_study]
"""
import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np
from scipy.spatial import ConvexHull, HalfspaceIntersection

from extrados import Model, analyze, generators
from extrados.engine.generators.spandrel import keystone_id

G = 9.81
FREQUENCY = 1.0  # Hz
TIME_STEP = 1e-3  # s, the seed's
OUTPUT_INTERVAL = 0.02  # s

#: name: (model settings, support motion fields, request fields, wall layout parameters) that differ from the
#: baseline
VARIANTS = {
    "baseline": ({}, {}, {}, {}),
    "from_rest": ({}, {"start": "from_rest"}, {}, {}),
    "non_associated": ({"flow_rule": "non_associated"}, {}, {}, {}),
    "soft_joints": ({"compliance": 1e-9}, {}, {}, {}),
    "stiff_joints": ({"compliance": 1e-12}, {}, {}, {}),
    "loose_solver": ({"tolerance": 1e-3}, {}, {}, {}),
    "capped_solver": ({"solver": "apgd", "max_iterations": 30}, {}, {}, {}),
    "time_step_2ms": ({}, {}, {"time_step": 2e-3}, {}),
    "time_step_0.5ms": ({}, {}, {"time_step": 5e-4}, {}),
    "plastic_impacts": ({}, {}, {"restitution": 1e-12}, {}),
    "rounded_10mm": ({}, {}, {}, {}),
    "rounded_25mm": ({}, {}, {}, {}),
    "voussoirs_9": ({}, {}, {}, {"voussoirs": 9}),
    "voussoirs_25": ({}, {}, {}, {"voussoirs": 25}),
    "thin_ring": ({}, {}, {}, {"ring_thickness": 0.4}),
    "deep_ring": ({}, {}, {}, {"ring_thickness": 0.8}),
    "small_blocks": ({}, {}, {}, {"block_length": 0.5, "course_height": 0.25}),
    "long_blocks": ({}, {}, {}, {"block_length": 1.6}),
    "two_leaves": ({}, {}, {}, {"leaves": 2}),
}
#: the layout variants (those that change the generator's parameters), and the others
LAYOUTS = [name for name, variant in VARIANTS.items() if variant[3]]
SETTINGS = [name for name in VARIANTS if name not in LAYOUTS]
#: the ground motion's direction: along the wall (fig. 11) or through its thickness (fig. 12)
DIRECTIONS = {"in_plane": [1.0, 0.0, 0.0], "out_of_plane": [0.0, 1.0, 0.0]}
#: m, the fillet radius of the rounded variants
FILLETS = {"rounded_10mm": 0.010, "rounded_25mm": 0.025}
#: Sides of the polygonal disc a fillet is swept with (besides the block's own face directions).
FILLET_SIDES = 16


def rounded_block(block, radius):
    """The block entry with its edges along y (the wall's normal) rounded to ``radius`` (m), as given points.

    The block is shrunk in x-z (every face plane moved in by radius |n_xz|) and Minkowski-summed with a
    polygonal disc of that radius in x-z, whose points include the directions of the block's own faces:
    every face stays in its plane and each edge along y becomes a fillet of FILLET_SIDES-gon facets.
    """
    vertices = np.asarray(block["vertices"], float)
    equations = ConvexHull(vertices).equations                      # n . x + d <= 0 inside
    in_plane = np.linalg.norm(equations[:, [0, 2]], axis=1)
    shrunk = HalfspaceIntersection(np.column_stack([equations[:, :3], equations[:, 3] + radius * in_plane]),
                                   vertices.mean(axis=0)).intersections
    angles = [math.atan2(n[2], n[0]) for n, size in zip(equations, in_plane) if size > 1e-9]
    angles += [2.0 * math.pi * k / FILLET_SIDES for k in range(FILLET_SIDES)]
    disc = radius * np.array([[math.cos(a), 0.0, math.sin(a)] for a in angles])
    points = np.unique(np.round((shrunk[:, None, :] + disc[None, :, :]).reshape(-1, 3), 12), axis=0)
    entry = {key: value for key, value in block.items() if key not in ("vertices", "faces")}
    return dict(entry, points=points.tolist())


def split_into_leaves(block, leaves):
    """The block entry (a prism along y, its vertices on its two end faces) as ``leaves`` blocks of equal thickness
    side by side along y; the first keeps the block's id, leaf k > 0 is "<id>_leaf<k>"."""
    vertices = np.asarray(block["vertices"], float)
    y_min, y_max = vertices[:, 1].min(), vertices[:, 1].max()
    if not np.all(np.isclose(vertices[:, 1], y_min) | np.isclose(vertices[:, 1], y_max)):
        raise ValueError(f"block {block['id']}: not a prism along y")
    cuts = np.linspace(y_min, y_max, leaves + 1)
    parts = []
    for k in range(leaves):
        leaf = vertices.copy()
        leaf[:, 1] = np.where(np.isclose(vertices[:, 1], y_min), cuts[k], cuts[k + 1])
        parts.append(dict(block, id=block["id"] if k == 0 else f"{block['id']}_leaf{k}", vertices=leaf.tolist()))
    return parts


def wall_document(pga, settings, motion, fillet=0.0, layout=None, direction="in_plane"):
    """The seed's spandrel wall (its layout parameters changed by ``layout``, split into ``layout["leaves"]``
    leaves when given) under the sine of peak acceleration ``pga`` (g) along ``direction``, its movable blocks'
    edges along y rounded to ``fillet`` (m) when positive."""
    parameters = dict(layout or {})
    leaves = parameters.pop("leaves", 1)
    document = generators.generate("spandrel_wall", **parameters)
    if leaves > 1:
        document["blocks"] = [part for block in document["blocks"]
                              for part in ([block] if block.get("support") else split_into_leaves(block, leaves))]
    if fillet > 0.0:
        document["blocks"] = [block if block.get("support") else rounded_block(block, fillet)
                              for block in document["blocks"]]
    document["support_motion"] = {"kind": "sine", "direction": DIRECTIONS[direction], "frequency": FREQUENCY,
                                  "amplitude": pga * G / (2.0 * math.pi * FREQUENCY) ** 2, **motion}
    document.setdefault("settings", {}).update(settings)
    return document


def run(variant, pga, duration, direction="in_plane"):
    """One run: the key stone's largest and final drop (m), its largest displacement relative to the ground along
    the shaking (m), the events, the solver's tally, seconds."""
    settings, motion, request, layout = VARIANTS[variant]
    model = Model.from_dict(wall_document(pga, settings, motion, FILLETS.get(variant, 0.0), layout, direction))
    started = time.perf_counter()
    result = analyze(model, {"type": "dynamic", "duration": duration, "time_step": TIME_STEP,
                             "output_interval": OUTPUT_INTERVAL, **request})
    seconds = time.perf_counter() - started
    voussoirs = layout.get("voussoirs", generators.GENERATORS["spandrel_wall"].parameter("voussoirs").default)
    key = result.blocks.ids.index(keystone_id(voussoirs))
    drop = -(result.frames.position[:, key, 2] - result.frames.position[0, key, 2])
    ground = result.blocks.ids.index("ground")
    relative = result.frames.position[:, key] - result.frames.position[:, ground]
    sway = (relative - relative[0]) @ np.asarray(DIRECTIONS[direction])
    ground_displacement = (result.frames.position[:, ground] - result.frames.position[0, ground]) @ np.asarray(
        DIRECTIONS[direction])
    document = result.to_dict()
    return {"variant": variant, "direction": direction, "pga_g": pga, "duration_s": duration,
            "blocks": sum(not block.get("support") for block in document["blocks"]),
            "largest_drop_m": float(drop.max()), "final_drop_m": float(drop[-1]),
            "largest_sway_m": float(np.abs(sway).max()), "collapse_s": document["events"]["collapse"],
            "first_sliding_s": document["events"]["first_sliding"], "seconds": seconds,
            "unconverged_steps": document["solver_steps"]["unconverged_steps"],
            "mean_iterations": document["solver_steps"]["mean_iterations"],
            "history": {"t": np.round(result.frames.t, 6).tolist(),
                        "ground_m": np.round(ground_displacement, 6).tolist(),
                        "keystone_m": np.round(result.frames.position[:, key] - result.frames.position[0, key],
                                               6).tolist()}}


def plot_histories(rows, path):
    """Seed 000 figs. 11(b)-12(b): the ground's displacement along the shaking and the key stone's (x, y, z) against
    time, for the baseline and every run that reached the collapse threshold (at most four panels)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = list(VARIANTS)
    chosen = [row for row in sorted(rows, key=lambda r: (order.index(r["variant"]), r["pga_g"]))
              if row["variant"] == "baseline" or row["collapse_s"] is not None][:4]
    if not chosen:
        return None
    figure, axes = plt.subplots(1, len(chosen), figsize=(5.5 * len(chosen), 3.8), squeeze=False)
    for axis, row in zip(axes[0], chosen):
        history = row["history"]
        keystone = np.asarray(history["keystone_m"])
        axis.plot(history["t"], history["ground_m"], color="0.6", lw=2, label="ground, along the shaking")
        for k, (label, colour) in enumerate((("x, along the wall", "tab:blue"), ("y, through it", "tab:green"),
                                             ("z, vertical", "tab:red"))):
            axis.plot(history["t"], keystone[:, k], color=colour, lw=1.2, label=f"key stone {label}")
        collapse = "stands" if row["collapse_s"] is None else f"collapse at {row['collapse_s']:.2f} s"
        axis.set_title(f"{row['variant']}, {row['direction'].replace('_', ' ')}, {row['pga_g']:g} g: {collapse}",
                       fontsize=9)
        axis.set_xlabel("t (s)")
        axis.set_ylabel("displacement (m)")
        axis.grid(True, alpha=0.3)
    axes[0, 0].legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def table(rows):
    """The markdown table of the runs, variants in the order of VARIANTS, PGAs ascending."""
    order = list(VARIANTS)
    lines = ["| variant | PGA (g) | key stone drop, largest (mm) | at the end (mm) | collapse (s) | "
             "unconverged steps | wall-clock (s) |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for row in sorted(rows, key=lambda r: (order.index(r["variant"]), r["pga_g"])):
        collapse = "—" if row["collapse_s"] is None else f"{row['collapse_s']:.2f}"
        lines.append(f"| {row['variant']} | {row['pga_g']:g} | {1e3 * row['largest_drop_m']:.1f} | "
                     f"{1e3 * row['final_drop_m']:.1f} | {collapse} | {row['unconverged_steps']} | "
                     f"{row['seconds']:.0f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pga", type=float, nargs="+", default=[0.2, 0.3], help="peak ground accelerations, g")
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=SETTINGS,
                        help="the variants to run (default: the baseline and every setting, no layout)")
    parser.add_argument("--layouts", action="store_true",
                        help="run the baseline and every layout variant instead (overrides --variants)")
    parser.add_argument("--direction", choices=list(DIRECTIONS), default="in_plane",
                        help="along the wall (seed 000 fig. 11) or through its thickness (fig. 12)")
    parser.add_argument("--duration", type=float, default=6.0, help="simulated seconds")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once (processes)")
    parser.add_argument("--out", default="out/validation/spandrel_collapse_study")
    args = parser.parse_args()
    variants = ["baseline", *LAYOUTS] if args.layouts else args.variants
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run, variant, pga, args.duration, args.direction)
                   for variant in variants for pga in args.pga]
        for future in as_completed(futures):
            rows.append(future.result())
            row = rows[-1]
            print(f"{row['variant']} at {row['pga_g']:g} g: key stone drop {1e3 * row['largest_drop_m']:.1f} mm, "
                  f"collapse {row['collapse_s']}, {row['seconds']:.0f} s", flush=True)
    rows.sort(key=lambda r: (list(VARIANTS).index(r["variant"]), r["pga_g"]))
    (out / "study.json").write_text(json.dumps(rows, indent=1))
    text = table(rows)
    (out / "study.md").write_text(text + "\n")
    figure = plot_histories(rows, out / "keystone.png")
    print(text)
    print(f"wrote {out / 'study.json'}, {out / 'study.md'}" + (f" and {figure}" if figure else ""))


if __name__ == "__main__":
    main()
