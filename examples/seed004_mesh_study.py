"""Seed 004 sec. 5.2.1-5.2.2 on a small panel: the mesh size (fig. 17), the cohesive laws' levels (figs. 18-21)
and half bricks (figs. 22-23) in diagonal compression.

The paper runs its 2-D panel in LMGC90 with deformable blocks meshed 1 / l_c elements a block side and two contact
points on every element edge of a joint. With 3-D tetrahedra on 2 cores the specimen here is smaller and thin:

* a 420 x 420 mm running-bond panel of the paper's 210 x 60 mm blocks (2 a course, 7 courses: 17 blocks) laid by
  the `panel` generator between its loading shoes (75 mm each, the paper's 150 mm scaled with the panel); half
  bricks are 105 x 60 mm (4 a course: 31 blocks), or 105 x 30 mm with ``--block-height 0.03`` (63 blocks);
* 10 mm thick, or as thin as the joints' contact spacing where that is finer (`study_thickness`: 5.25 mm at
  l_c = 0.05, 3.15 mm at 0.03), so that every joint holds two rows of contact points through the thickness at
  each l_c, as the 2-D model's joint is a line: the fields are plane stress and each force is in proportion to
  the thickness (the JSON gives the thin panel's kN and those per 100 mm, the paper's thickness; l_c = 0.05 at
  10 mm, three rows, and at 5.25 mm, two, gave the same plateau and secant, 11.75 kN and 168 kN/mm);
* l_c: the element size is l_c times the block's length (the paper's 1 / l_c elements a side) and the joints are
  cut into contact points half as far apart (engine.deformable.joint_points; two an element edge);
* joints: seed 004 Table 1 (mode I) and Table 2 (mode II), friction 0.7 (sec. 4.2.2), the "medium" laws; "low"
  and "high" scale each mode's strength and energy by 0.5 and 1.5 and keep its stiffness K0 and its ultimate
  opening (fig. 18); blocks E = 8.26 GPa, nu = 0.2 (Table 4), 10-node tetrahedra.

Studies (``--study``): ``mesh`` runs the medium laws at each ``--lc`` (fig. 17: the paper's curves converge for
l_c <= 0.1); ``laws`` runs the nine combinations of ``--mode-i`` and ``--mode-ii`` levels at the first ``--lc``
(fig. 19: the plateau's load and length grow with the mode II level, the mode I level barely matters); ``half``
the same on half bricks (fig. 22: a longer plateau at a lower load). Each run drives the loading shoe as
examples/diagonal_compression.py does (displacement control, steps of ``--time-step`` at ``--speed``) until the
force falls below ``--stop-fraction`` of its peak or the shoe has travelled ``--max-displacement``. The steps are
0.1 ms at 20 mm/s (2 um a step, as the example's 1 ms at 2 mm/s): the joints' stiffness K0 against the blocks'
small masses makes the contact problem's condition grow as h^2 K0 A / m, and at 1 ms SPG (the solver of the
first runs) did not reach its tolerance in 20,000 iterations on this panel where at 0.1 ms it needed a few
hundred; the loading stays slow next
to the panel's wave transit (0.6 m at sqrt(E / rho) = 2.6 km/s: 0.23 ms) and the JSON gives the kinetic energy
over the work done.

Past about 0.3 mm the split small panel wedges between its shoes and friction carries a rising force, where the
paper's panel fails: the plateau's load is read as the largest force up to COHESIVE_WINDOW.

Results (docs/seed004_study_mesh.png, _laws.png, _laws_bonds.png, _half.png, _half_bonds.png, _840mm.png; per
100 mm; 2 cores; 250 steps a run, 500 on the 840 mm panel):
mesh, medium laws: plateau 16.93 / 13.34 / 12.40 / 11.75 / 11.67 kN and elastic secant 190 / 175 / 171 / 168 / 167
kN/mm at the paper's five l_c = 0.5 / 0.2 / 0.1 / 0.05 / 0.03 (217 / 995 / 3,951 / 11,362 / 30,663 tetrahedra):
converged (steps of -21, -7, -5, -0.7 %), the 0.05 curve within 1.9 % of the 0.03 one's peak up to 0.3 mm, the
0.1 curve within 6 % up to 0.2 mm (13 % to 0.3 mm), as fig. 17's converge for l_c <= 0.1. The runs took 16 s,
49 s, 148 s, 10 and 70 minutes beside another run (alone: 19 s, 23 s, 71 s; benchmarks/seed004_panel_steps.py
gives the steps of 0.05 and 0.03 alone).
Laws at l_c = 0.2: one elastic branch (174.2-174.7 kN/mm), plateau 8.70-9.41 (mode II low), 11.73-14.16
(medium), 14.75-17.25 kN (high): mode II governs (+70-84 %), mode I less (+8-21 %, where the paper finds it
barely matters). At the end of the plateau (figs. 21 and 23 draw it: here the step before the force falls below
0.85 of its peak, 0.14-0.27 mm) nearly every joint is damaged and 0 or 8 points are broken, one head joint at the
centre on the loaded diagonal, with no trend in mode I (the paper: more broken contacts for the low mode I law);
the mode II low runs never fall (their largest force at 0.5 mm, wedged). Half bricks at l_c = 0.4 (the same 42 mm
elements): 5.49-6.54 / 8.79-10.25 / 12.23-13.86 kN, lower as in fig. 22, but the force falls at 0.09-0.15 mm,
sooner than whole bricks, where the paper's half-brick plateau is longer; none broken at the plateau's end (14-52
by the run's end). Neither the mesh nor the panel's size makes it longer: at l_c = 0.2 (21 mm elements) the
medium laws peak at 9.52 kN at 0.092 mm (9.67 kN at 0.092 mm at 0.4); on the paper's 840 mm panel
(``--panel-side 0.84``, medium laws) whole bricks (l_c = 0.2) peak at 15.60 kN at 0.118 mm and carry 9.3-15.6 kN
to 1 mm, half bricks (l_c = 0.4) peak at 15.35 kN at 0.126 mm and fall to 30 % of it by 0.42 mm. Read "blocks
twice as small" as halved both ways (105 x 30 mm, ``--block-height 0.03``, l_c = 0.2, medium laws), the panel
behaves as fig. 22 says: on the 840 mm panel it peaks lower, 14.15 kN at 0.144 mm (-9 %), and then carries
6.3-13.1 kN to 1 mm instead of failing (softer too: 82 against 115 kN/mm); on the small panel it peaks at 8.39
kN at 0.120 mm and carries 5.9-8.9 kN to 0.5 mm. Whole bricks also carry load to 1 mm here, so whether that
plateau is longer than theirs the runs cannot say.

Writes OUT/STUDY.json (per run: the plateau's load, the elastic secant at ELASTIC_DISPLACEMENT, the first peak and
where the force first falls below 0.85 of it, bonds at the peak, at the end of the plateau (the step before that
fall) and at the end of the run, cost, curve), OUT/STUDY_force.png (force per 100 mm against displacement) and
OUT/STUDY_bonds.png (each run's mortar contact points at the end of its plateau, as figs. 21 and 23 draw them
"just before panel failure", or at its peak where the force never fell: intact, damaged, broken).

    .venv/bin/python examples/seed004_mesh_study.py [--study mesh|laws|half] [--lc 0.5 0.2 0.1]
        [--mode-i low medium high] [--mode-ii low medium high] [--thickness 0.01] [--panel-side 0.42]
        [--block-height 0.06]
        [--speed 2e-2] [--time-step 1e-4] [--max-displacement 5e-4] [--stop-fraction 0.3]
        [--out out/seed004_mesh_study]
"""
import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from extrados import Model, ModelError  # noqa: E402
from extrados.engine.generators import generate  # noqa: E402
from extrados.engine.generators.panel import MORTAR_JOINT, TABLE_1_MODE_I, TABLE_2_MODE_II  # noqa: E402

from diagonal_compression import PAPER_BLOCK_POISSON, PEAK_DROP, block_outlines, draw_bonds, run_panel  # noqa: E402

#: Friction of the failed joint (sec. 4.2.2, fig. 11).
FRICTION = 0.7
#: Fig. 18: strength and cohesive energy scaled by these factors, K0 kept.
LEVELS = {"low": 0.5, "medium": 1.0, "high": 1.5}
#: Table 4's blocks.
BLOCK_MODULUS = 8.26e9
#: m: the small specimen (module docstring).
PANEL_SIDE = 0.42
BLOCK_LENGTH = {"mesh": 0.21, "laws": 0.21, "half": 0.105}
BLOCK_HEIGHT = 0.06
SHOE_LENGTH = 0.075
#: m: the elastic branch's secant stiffness is read at this displacement of the shoe (every run is elastic there).
ELASTIC_DISPLACEMENT = 0.02e-3
#: m: the cohesive plateau ends by this displacement on the small panel; past it the split panel wedges between its
#: shoes and friction carries a rising force (module docstring), so the plateau's load is the largest force up to it.
COHESIVE_WINDOW = 0.3e-3
#: Steps between two progress lines.
PROGRESS_STEPS = 100
#: m, the paper's panel thickness, to which forces are scaled for comparison.
PAPER_THICKNESS = 0.1


def scaled_mode(mode, level):
    """A cohesive mode with its strength and energy scaled by LEVELS[level], its K0 and ultimate opening kept."""
    factor = LEVELS[level]
    return dict(mode, strength=mode["strength"] * factor, energy=mode["energy"] * factor)


def study_joint(mode_i="medium", mode_ii="medium"):
    """The cohesive joint of Tables 1-2 at the given levels of mode I and mode II (fig. 18)."""
    return {"law": "cohesive", "friction": FRICTION, "mode_I": scaled_mode(TABLE_1_MODE_I, mode_i),
            "mode_II": scaled_mode(TABLE_2_MODE_II, mode_ii)}


def deformable_field(lc, block_length):
    """The blocks' ``deformable`` field at l_c: elements l_c block lengths, contact points half as far apart."""
    size = lc * block_length
    return {"E": BLOCK_MODULUS, "nu": PAPER_BLOCK_POISSON, "element": "tet10", "mesh_size": size,
            "contact_spacing": size / 2.0}


def study_thickness(lc, block_length, thickness):
    """m: the panel's thickness at ``lc``, ``thickness`` or the joints' contact spacing (`deformable_field`) where
    that is thinner, so that every joint keeps two rows of contact points through the thickness, the 3-D
    counterpart of the 2-D model's joint line. Plane stress: every force, mass and mortar area is in proportion
    to the thickness, and the study reports forces per 100 mm."""
    return min(thickness, deformable_field(lc, block_length)["contact_spacing"])


def study_model(lc, block_length, thickness, speed, mode_i="medium", mode_ii="medium", side=PANEL_SIDE,
                block_height=BLOCK_HEIGHT):
    """The Model of `study_document`."""
    return Model.from_dict(study_document(lc, block_length, thickness, speed, mode_i, mode_ii, side, block_height))


def study_document(lc, block_length, thickness, speed, mode_i="medium", mode_ii="medium", side=PANEL_SIDE,
                   block_height=BLOCK_HEIGHT):
    """The small panel (module docstring), or a square one of ``side`` m with shoes scaled with it (the paper's 840 mm
    panel has 150 mm shoes), of blocks ``block_length`` x ``block_height`` m, with the joints of `study_joint` and
    deformable blocks at ``lc``."""
    document = generate("panel", width=side, height=side, thickness=thickness,
                        block_length=block_length, block_height=block_height,
                        shoe_length=SHOE_LENGTH * side / PANEL_SIDE, friction=FRICTION, loading_speed=speed)
    document["joints"][MORTAR_JOINT] = study_joint(mode_i, mode_ii)
    for material in document["materials"].values():
        material["deformable"] = deformable_field(lc, block_length)
    return document


def softening_start(displacement, force, peak_force):
    """m, the first displacement past the peak at which the force falls below PEAK_DROP of it (None: never)."""
    at_peak = int(np.argmax(force >= peak_force))
    below = np.nonzero(force[at_peak:] < PEAK_DROP * peak_force)[0]
    return float(displacement[at_peak + below[0]]) if len(below) else None


def curve_figures(displacement, force, window=COHESIVE_WINDOW):
    """N and N/m: the largest force up to ``window`` (m; the plateau's load) and the secant stiffness at
    ELASTIC_DISPLACEMENT, from a run's displacement (m) and force (N) curves."""
    plateau = float(force[displacement <= window * (1 + 1e-9)].max())
    return plateau, float(np.interp(ELASTIC_DISPLACEMENT, displacement, force) / ELASTIC_DISPLACEMENT)


def bond_counts(states):
    """{state: count} of a snapshot's mortar contact points ('' for points that never bonded)."""
    names, counts = np.unique(states, return_counts=True)
    return dict(zip(names.tolist(), counts.tolist()))


def summary(run, model, thickness, window=COHESIVE_WINDOW):
    """The JSON entry of one run, its plateau read up to ``window`` (m)."""
    peak = run["peak"]
    per_paper = PAPER_THICKNESS / thickness
    end = softening_start(run["displacement"], run["force"], peak["force"])
    plateau, stiffness = curve_figures(run["displacement"], run["force"], window)
    kilo_per_paper = 1e-3 * per_paper                 # one factor for every force, so the plateau is a curve value
    return {"plateau_force_per_100mm_kN": plateau * kilo_per_paper,
            "initial_stiffness_per_100mm_kN_per_mm": 1e-6 * stiffness * per_paper,
            "peak_force_kN": 1e-3 * peak["force"], "peak_force_per_100mm_kN": peak["force"] * kilo_per_paper,
            "displacement_at_peak_mm": 1e3 * peak["displacement"], "peak_passed": run["peak_passed"],
            "force_below_0.85_peak_at_mm": None if end is None else 1e3 * end,
            "bonds_at_peak": bond_counts(peak["states"]),
            "plateau_end_mm": None if run["plateau_end"] is None else 1e3 * run["plateau_end"]["displacement"],
            "bonds_at_plateau_end": None if run["plateau_end"] is None else bond_counts(run["plateau_end"]["states"]),
            "bonds_at_end": bond_counts(run["last"]["states"]),
            "blocks": int((~model.mechanics.is_support).sum()),
            "tetrahedra": sum(len(body.mesh.tetrahedra) for body in model.elastic_bodies.values()),
            "steps": int(len(run["force"])), "runtime_s": run["runtime"], "stopped_by": run["stopped_by"],
            "unconverged_steps": run["unconverged_steps"], "largest_residual": run["largest_residual"],
            "max_kinetic_over_work": run["kinetic_over_work"],
            "displacement_mm": (1e3 * run["displacement"]).tolist(),
            "force_per_100mm_kN": (run["force"] * kilo_per_paper).tolist()}


def progress(label, k, displacement, force):
    """Print a run's force every PROGRESS_STEPS steps."""
    if (k + 1) % PROGRESS_STEPS == 0:
        print(f"  {label}: step {k + 1}, {1e3 * displacement:.3f} mm, {1e-3 * force:.3f} kN", flush=True)


def study_runs(args):
    """(label, lc, mode I level, mode II level) of every run the study asks for."""
    if args.study == "mesh":
        return [(f"l_c = {lc:g}", lc, "medium", "medium") for lc in args.lc]
    return [(f"mode I {one}, mode II {two}", args.lc[0], one, two) for one in args.mode_i for two in args.mode_ii]


def plot(entries, path, title):
    """Force per 100 mm against displacement, one line per run."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for label, entry in entries.items():
        ax.plot(entry["displacement_mm"], entry["force_per_100mm_kN"], label=label)
    ax.set_xlabel("diagonal displacement of the loading shoe (mm)")
    ax.set_ylabel("diagonal force per 100 mm of thickness (kN)")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def failure_snapshot(run):
    """(what, snapshot): a run's bonds at the end of its plateau, the last step before the force fell below
    PEAK_DROP of its peak (figs. 21 and 23: "just before panel failure"), or at its peak if it never fell."""
    if run["plateau_end"] is not None:
        return "end of the plateau", run["plateau_end"]
    return "at the peak", run["peak"]


def plot_bonds(snapshots, outlines, path):
    """The panel with its mortar contact points by bond state, each run's (what, snapshot) of `failure_snapshot`
    (figs. 21 and 23)."""
    columns = min(3, len(snapshots))
    rows = -(-len(snapshots) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 4.4 * rows), squeeze=False)
    for ax, (label, (what, snapshot)) in zip(axes.ravel(), snapshots.items()):
        draw_bonds(ax, outlines, snapshot)
        ax.set_title(f"{label}: {what}, {1e3 * snapshot['displacement']:.3f} mm", fontsize=8)
    for ax in axes.ravel()[len(snapshots):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def positive(text):
    """argparse type: a finite float above zero."""
    value = float(text)
    if not np.isfinite(value) or value <= 0.0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", default="mesh", choices=sorted(BLOCK_LENGTH), help="which study to run")
    parser.add_argument("--lc", type=positive, nargs="+", default=[0.5, 0.2, 0.1],
                        help="l_c values (elements a block side = 1 / l_c); laws and half use the first")
    parser.add_argument("--mode-i", nargs="+", default=list(LEVELS), choices=list(LEVELS), help="mode I levels")
    parser.add_argument("--mode-ii", nargs="+", default=list(LEVELS), choices=list(LEVELS), help="mode II levels")
    parser.add_argument("--thickness", type=positive, default=0.01,
                        help="panel thickness (m), or the contact spacing where that is thinner (study_thickness)")
    parser.add_argument("--panel-side", type=positive, default=PANEL_SIDE,
                        help="panel side (m); the shoes and the plateau's window scale with it (0.84: the paper's)")
    parser.add_argument("--block-height", type=positive, default=BLOCK_HEIGHT,
                        help="block height (m); 0.03 with --study half: blocks half the size both ways")
    parser.add_argument("--speed", type=positive, default=2e-2, help="speed of the loading shoe (m/s)")
    parser.add_argument("--time-step", type=positive, default=1e-4, help="time step h (s)")
    parser.add_argument("--max-displacement", type=positive, default=5e-4, help="largest diagonal displacement (m)")
    parser.add_argument("--stop-fraction", type=float, default=0.3,
                        help="stop once the force falls below this fraction of its peak")
    parser.add_argument("--out", default="out/seed004_mesh_study", help="output folder")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    block_length = BLOCK_LENGTH[args.study]
    entries, snapshots = {}, {}
    for label, lc, mode_i, mode_ii in study_runs(args):
        try:
            thickness = study_thickness(lc, block_length, args.thickness)
            document = study_document(lc, block_length, thickness, args.speed, mode_i, mode_ii, args.panel_side,
                                      args.block_height)
            model = Model.from_dict(document)
        except (ModelError, ValueError) as error:
            parser.error(f"{label}: {error}")
        run = run_panel(model, args.speed, args.time_step, args.max_displacement, args.stop_fraction,
                        lambda k, displacement, force: progress(label, k, displacement, force))
        entries[label] = dict(summary(run, model, thickness, COHESIVE_WINDOW * args.panel_side / PANEL_SIDE),
                              lc=lc, mode_I=mode_i, mode_II=mode_ii, thickness_m=thickness)
        entry, snapshots[label] = entries[label], failure_snapshot(run)
        print(f"{label}: {entry['tetrahedra']} tetrahedra; per 100 mm: plateau "
              f"{entry['plateau_force_per_100mm_kN']:.2f} kN, initial stiffness "
              f"{entry['initial_stiffness_per_100mm_kN_per_mm']:.0f} kN/mm, first peak "
              f"{entry['peak_force_per_100mm_kN']:.2f} kN at {entry['displacement_at_peak_mm']:.3f} mm; "
              f"{entry['steps']} steps in {entry['runtime_s']:.0f} s "
              f"({entry['stopped_by']}); {entry['unconverged_steps']} unconverged", flush=True)
        record = {"study": args.study, "panel_side_m": args.panel_side, "block_length_m": block_length,
                  "block_height_m": args.block_height, "thickness_cap_m": args.thickness, "speed_m_per_s": args.speed,
                  "time_step_s": args.time_step, "runs": entries}
        (out / f"{args.study}.json").write_text(json.dumps(record, indent=1))
    plot(entries, out / f"{args.study}_force.png",
         f"seed 004 {'fig. 17' if args.study == 'mesh' else 'fig. 19' if args.study == 'laws' else 'fig. 22'}: "
         f"{args.panel_side * 1e3:g} mm panel of {block_length * 1e3:g} x {args.block_height * 1e3:g} mm blocks")
    plot_bonds(snapshots, block_outlines(document), out / f"{args.study}_bonds.png")


if __name__ == "__main__":
    main()
