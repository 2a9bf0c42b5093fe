"""Diagonal compression of a mortared masonry panel (ASTM E519; seed 004 sec. 5.2, fig. 24b, Table 4).

The `panel` generator's 840 x 840 x 100 mm running-bond panel of 210 x 60 x 100 mm blocks
stands on its lower corner in a fixed shoe; the loading shoe on its upper corner (the support
blocks engine.generators.panel.ACTUATOR_IDS) moves down the vertical diagonal at a constant
speed, displacement controlled as in the paper. After each step the diagonal force is the sum
of the z components of the forces the loading shoe applies to the panel (compression positive)
and the diagonal displacement is the shoe's travel. A run stops once the force has fallen
below ``--stop-fraction`` of its peak, or at ``--max-displacement``. The peak is the first one: the
largest force before the force first falls below PEAK_DROP of the largest so far (rigid blocks
can wedge and the force rise again after the panel has failed; that later rise is no peak).

By default the blocks are rigid: every deformation lies in the joints' finite penalty stiffness K0
(engine.generators.panel), where the paper's blocks are deformable (E = 8.26 GPa), so the
initial stiffness differs and the peak is expected near, not equal to, the paper's ~260 kN.
With rigid blocks the peak depends on K0: the default penalty 1e12 Pa/m softens every joint
from the first micrometres (its elastic slip is 1.6 um) and peaks near 650 kN; K0 = 1.4e11 Pa/m,
the blocks' E = 8.26 GPa over the 60 mm course height lumped into the joints, gives a linear
branch and a peak near 350 kN (``--joint-stiffness``).

Why the peak is 2.5 times the paper's: with mu = 0.8 a bed joint's capacity sigma_II + mu sigma
(seed 004 fig. 11) grows almost as fast as its shear, so the force at which the centre's bed
joints reach it hangs on the tension across the loaded diagonal. In an elastic continuum (Frocht's
centre stresses, 0.5 and -1.62 P / A_n, as ASTM E519 reads the test) tau / sigma = 1.89 on the bed
joints and they peak at P = 224 kN, near the paper's 260 kN; with no tension across, tau = sigma
and P = 845 kN (`centre_joint_force`). The run prints the centre's bed joints at the peak: with
rigid blocks tau / sigma is about 1.04, the lattice of rigid blocks carries almost no tension
across the diagonal, and they peak between the two, at 634-662 kN.

With ``--block-modulus 8.26e9`` the blocks are deformable as the paper's (Table 4: E = 8.26 GPa, nu = 0.2;
10-node tetrahedra, about 50 a block, engine.deformable): the peaks are 233.6 kN (set 1) and 229.9 kN (set 2),
0.90 and 0.88 of the paper's 260 kN, at 0.95 and 0.92 mm, after a linear branch, then a brittle drop; the centre's
bed joints carry tau / sigma = 1.77 at the peak (elastic blocks carry the tension across the diagonal that rigid
ones cannot), and the damaged bonds gather along the loaded diagonal. 2-3 minutes a set on 2 cores (about 500
steps of 1 ms, 0 unconverged; the steps' solver is APGD, engine.solvers.operator_apgd; with SPG, before, the same
peaks in 4-10 minutes). Measured with SPG: mesh and element, set 1: the default mesh (3,171 10-node tetrahedra)
233.6 kN, a mesh of 0.05 m (9,422) 232.3 kN at 0.952 mm (0.6 % apart: converged); linear tetrahedra at the
default mesh, too stiff in bending, 273.6 kN at 1.148 mm (18 min, 24 min for the finer mesh, both runs side by
side on 2 cores).
``--contact-spacing`` cuts the joints into contact points that far apart (engine.deformable.joint_points), as
seed 004's mesh-size study refines them with the mesh; its cost is in benchmarks/deformable_joint_points.py
(about three times a step at 0.08 m, fifty times at 0.035 m). Set 1 at 0.08 m, about the default mesh size
(1,290 contact points instead of 648): a linear branch to 218.4 kN at 0.896 mm (0.84 of the paper's 260 kN;
the joints' corners alone 233.6 kN), tau / sigma 2.01 at the centre's bed joints, a brittle drop to 75 kN by
1.0 mm, the first broken points at the centre on the loaded diagonal by 1.5 mm (750 steps, 60 min beside the
test suite on 2 cores). Seed 004's study over finer meshes and contact spacings, the laws' levels and half bricks
(figs. 17-23) runs on a smaller, thin panel: examples/seed004_mesh_study.py.

Writes OUT/force_displacement.png (force against displacement, both sets),
OUT/broken_contacts.png (the mortar contact points of each set at its peak and at the end of the
run, coloured by bond state) and OUT/diagonal_compression.json (peaks, displacements at peak, the
centre's bed-joint stresses at the peak, steps, runtime, the quasi-static check and the curves).

    .venv/bin/python examples/diagonal_compression.py [--sets 1 2] [--speed 2e-3] [--time-step 1e-3]
        [--max-displacement 1.5e-3] [--stop-fraction 0.3] [--joint-stiffness 1e12] [--shoe-length 0.15]
        [--block-modulus 8.26e9] [--element tet10] [--mesh-size M] [--contact-spacing S]
        [--out out/diagonal_compression]
"""
import argparse
import inspect
import json
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Polygon  # noqa: E402
from scipy.spatial import ConvexHull  # noqa: E402

from extrados import Model  # noqa: E402
from extrados.engine.generators import generate  # noqa: E402
from extrados.engine.dynamics.support_motion import support_motion_from_document  # noqa: E402
from extrados.engine.generators.panel import ACTUATOR_IDS, TABLE_4, diagonal_panel  # noqa: E402
from extrados.engine.pipeline import SolverSettings, StepSettings, step  # noqa: E402
from extrados.engine.post.energy import kinetic_energy  # noqa: E402
from extrados.engine.state import State  # noqa: E402

#: kN, the peak of both sets in seed 004 fig. 24b.
PAPER_PEAK_KN = 260.0
#: The paper's deformable blocks (Table 4: E = 8.26 GPa, nu = 0.2).
PAPER_BLOCK_MODULUS_GPA = 8.26
PAPER_BLOCK_POISSON = 0.2
#: Relative CCP residual and iteration cap of each step.
SOLVER_TOLERANCE = 1e-6
SOLVER_ITERATIONS = 20000
#: The peak is the largest force before the force first falls below this fraction of it.
PEAK_DROP = 0.85
#: Frocht's elastic solution for the centre of a square under diagonal compression, as ASTM E519 reads it:
#: principal stresses 0.5 P / A_n across the loaded diagonal (tension) and -1.62 P / A_n along it,
#: A_n = (W + H) t / 2.
FROCHT_TENSION, FROCHT_COMPRESSION = 0.5, 1.62
#: m, the radius about the panel's centre within which `centre_bed_joint_stresses` averages.
CENTRE_RADIUS = 0.15
STATE_COLOURS = {"intact": "#9bbf85", "damaged": "#e08a1e", "broken": "black"}


def actuator_velocity(model):
    """(n_blocks, 6) prescribed twists: the document's support motion, the loading shoe moving down (-z) at the
    generator's ``loading_speed``, the rest still."""
    mech = model.mechanics
    return support_motion_from_document(model.support_motion, mech.block_ids, mech.is_support).velocity(0.0,
                                                                                                      mech.n_blocks)


def diagonal_force(outcome, actuator, h):
    """N, the compression the loading shoe applies along the diagonal: minus the z sum of its forces on the panel.

    A contact's world force on body_b from body_a is frame^T impulse / h.
    """
    force_z = np.einsum("nk,nk->n", outcome.frame[:, :, 2], outcome.impulse) / h     # (n_c,) z of the force on b
    on_panel = np.where(actuator[outcome.contacts.body_a], force_z, 0.0)
    on_panel -= np.where(actuator[outcome.contacts.body_b], force_z, 0.0)
    return -float(on_panel.sum())


def bond_snapshot(model, outcome, k, force, displacement):
    """The step's index, force (N), displacement (m), and its mortar contact points (m, 3) with their bond states."""
    mortar = outcome.bonds.mortar
    return {"step": k, "force": force, "displacement": displacement,
            "points": outcome.contacts.point[mortar].copy(), "states": outcome.bonds.states(model)[mortar]}


def centre_bed_joint_stresses(outcome, h, centre, radius=CENTRE_RADIUS):
    """(sigma, tau) in Pa: the mean normal stress (compression positive) and shear stress of the mortar contacts
    of bed joints within ``radius`` of the panel's ``centre`` (world, m): their forces over their tributary areas.

    Bed joints are normal to the panel's w axis, (-1, 0, 1) / sqrt(2) in the world (engine.generators.panel);
    the shear is taken along u, (1, 0, 1) / sqrt(2), signed as the block on the side of +w sees it.
    """
    across, along = np.array([-1.0, 0.0, 1.0]) / np.sqrt(2.0), np.array([1.0, 0.0, 1.0]) / np.sqrt(2.0)
    frame, impulse = outcome.frame, outcome.impulse
    side = np.sign(frame[:, 0] @ across)
    near = np.linalg.norm(outcome.contacts.point - centre, axis=1) <= radius
    mine = outcome.bonds.mortar & near & (np.abs(side) > 0.0) & (np.abs(frame[:, 0] @ across) > 0.99)
    area = outcome.bonds.area[mine].sum()
    tangential = np.einsum("nk,nki->ni", impulse[:, 1:], frame[:, 1:])[mine] @ along * side[mine]
    return float(impulse[mine, 0].sum() / h / area), float(abs(tangential.sum()) / h / area)


def centre_joint_force(cohesion, friction, transverse, net_area):
    """N, the diagonal force at which the bed joints at the centre reach their peak shear tau = sigma_II + mu sigma
    (seed 004 fig. 11) when the centre's principal stresses are transverse P / A_n and -FROCHT_COMPRESSION P / A_n.

    The bed joints lie at 45 degrees to the principal directions, so tau = (t + c) / 2 P / A_n and
    sigma = (c - t) / 2 P / A_n in compression: P = sigma_II A_n / ((t + c) / 2 - mu (c - t) / 2).
    """
    shear = (transverse + FROCHT_COMPRESSION) / 2.0
    normal = (FROCHT_COMPRESSION - transverse) / 2.0
    return cohesion * net_area / (shear - friction * normal)


def panel_model(mortar_set, speed, panel, deformable=None):
    """The Model of the `panel` generator's panel with Table 4 set ``mortar_set``, its loading shoe at ``speed``
    (m/s), further generator parameters ``panel`` (dict) and its blocks' ``deformable`` field (None: rigid)."""
    document = generate("panel", mortar=mortar_set, loading_speed=speed, **panel)
    if deformable is not None:
        for material in document["materials"].values():
            material["deformable"] = deformable
    return Model.from_dict(document)


def loading_settings(model, h):
    """The StepSettings of the loading: steps of ``h`` s under gravity, the shoe moved, solved to SOLVER_TOLERANCE."""
    return StepSettings(time_step=h, wrench=model.mechanics.dead_wrench,
                        solver=SolverSettings(tolerance=SOLVER_TOLERANCE, max_iterations=SOLVER_ITERATIONS),
                        support_velocity=actuator_velocity(model))


def run_set(mortar_set, speed, h, max_displacement, stop_fraction, panel, deformable=None):
    """Drive the loading shoe of the panel with Table 4 set ``mortar_set``; the curve, the peak and its bonds.

    Parameters
    ----------
    mortar_set : int, 1 or 2
    speed : float, m/s
    h : float, s
    max_displacement : float, m
    stop_fraction : float, the run stops once the force is below this fraction of its (first) peak
    panel : dict, further parameters of the `panel` generator
    deformable : dict, optional
        The blocks' ``deformable`` field (engine.deformable: E, nu, element, mesh_size); None: rigid blocks

    Returns
    -------
    dict
        `run_panel`'s figures.
    """
    return run_panel(panel_model(mortar_set, speed, panel, deformable), speed, h, max_displacement, stop_fraction)


class PeakWatch:
    """Follows a force curve step by step for its peak, the largest force before the force first falls below
    PEAK_DROP of the largest so far, and the end of the peak's plateau, the last step before that fall (seed 004
    figs. 21 and 23 map the broken contacts there, "just before panel failure"); each kept with the snapshot
    of its step."""

    def __init__(self):
        self.peak = None            # the snapshot of the peak's step
        self.plateau_end = None     # the snapshot of the last step before the fall; None until it falls
        self.passed = False         # whether the force has fallen past the peak
        self._latest = None         # the snapshot of the latest step before the fall

    def update(self, force, snapshot):
        """Take a step's ``force``; ``snapshot()`` builds its record and is called only while it may be kept."""
        if self.passed:
            return
        if self.peak is not None and force < PEAK_DROP * self.peak["force"]:
            self.passed, self.plateau_end = True, self._latest
            return
        self._latest = snapshot()
        if self.peak is None or force >= self.peak["force"]:
            self.peak = self._latest


def run_panel(model, speed, h, max_displacement, stop_fraction, report=None):
    """Drive the loading shoe of a `panel` generator's ``model`` at ``speed`` (m/s, its document's support motion)
    in steps of ``h`` s up to ``max_displacement`` (m), stopping once the force is below ``stop_fraction`` of its
    (first) peak; ``report(k, displacement, force)`` after every step when given.

    Returns
    -------
    dict
        displacement (n,) m, force (n,) N, kinetic (n,) J, work (n,) J, bond snapshots (`bond_snapshot`)
        at the peak, at the end of its plateau (`PeakWatch`; None while the force has not fallen) and at the
        last step, the solver's unconverged steps and largest residual, the
        largest kinetic energy over the work done, what stopped the run and its runtime in s.
    """
    mech = model.mechanics
    state = State.initial(mech)
    actuator = np.isin(np.array(model.block_ids), ACTUATOR_IDS)
    centre = mech.position0[~mech.is_support].mean(axis=0)
    settings = loading_settings(model, h)
    steps = max(1, round(max_displacement / (speed * h)))
    displacement, force = np.zeros(steps), np.zeros(steps)
    kinetic, work = np.zeros(steps), np.zeros(steps)
    watch, unconverged, residual, stopped_by = PeakWatch(), 0, 0.0, "max displacement"
    started = time.perf_counter()
    for k in range(steps):
        outcome = step(model, state, settings)
        unconverged += not outcome.solver.converged
        residual = max(residual, outcome.solver.residual)
        displacement[k] = speed * h * (k + 1)
        force[k] = diagonal_force(outcome, actuator, h)
        kinetic[k] = kinetic_energy(mech, state.rotation_matrices(), outcome.velocity)
        work[k] = (work[k - 1] if k else 0.0) + force[k] * speed * h
        if report is not None:
            report(k, displacement[k], force[k])
        watch.update(force[k], lambda: dict(bond_snapshot(model, outcome, k, force[k], displacement[k]),
                                            centre=centre_bed_joint_stresses(outcome, h, centre)))
        if force[k] < stop_fraction * watch.peak["force"]:
            stopped_by, steps = f"force below {stop_fraction:g} of the peak", k + 1
            break
    done = slice(0, steps)
    return {"displacement": displacement[done], "force": force[done], "kinetic": kinetic[done], "work": work[done],
            "peak": watch.peak, "plateau_end": watch.plateau_end,
            "last": bond_snapshot(model, outcome, steps - 1, force[steps - 1], displacement[steps - 1]),
            "peak_passed": watch.passed, "unconverged_steps": int(unconverged), "largest_residual": float(residual),
            "stopped_by": stopped_by,
            "kinetic_over_work": float(kinetic[done].max() / max(work[done][-1], np.finfo(float).tiny)),
            "runtime": time.perf_counter() - started}


def plot_curves(runs, path, blocks="rigid blocks"):
    """Force (kN) against diagonal displacement (mm), one line per set, the paper's peak dashed."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for mortar_set, run in runs.items():
        line, = ax.plot(1e3 * run["displacement"], 1e-3 * run["force"], label=f"Table 4 set {mortar_set}")
        ax.plot(1e3 * run["peak"]["displacement"], 1e-3 * run["peak"]["force"], "o", color=line.get_color())
    ax.axhline(PAPER_PEAK_KN, color="0.4", linestyle="--", linewidth=1, label=f"seed 004 peak ~{PAPER_PEAK_KN:g} kN")
    ax.set_xlabel("diagonal displacement of the loading shoe (mm)")
    ax.set_ylabel("diagonal force (kN)")
    ax.set_title(f"Diagonal compression, cohesive joints: {blocks}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def block_outlines(document):
    """[(id, (n, 2) outline in x-z, support)] of a model document's blocks as drawn."""
    outlines = []
    for block in document["blocks"]:
        points = np.asarray(block["vertices"], float)[:, [0, 2]]
        outlines.append((block["id"], points[ConvexHull(points).vertices], block["support"]))
    return outlines


def plot_bonds(runs, document, path):
    """The panel (as drawn) with its mortar contact points coloured intact / damaged / broken: at the peak
    force (top row) and at the end of the run (bottom row), one column per set."""
    fig, axes = plt.subplots(2, len(runs), figsize=(5.2 * len(runs), 11.0), squeeze=False)
    outlines = block_outlines(document)
    for column, (mortar_set, run) in enumerate(runs.items()):
        for ax, (when, snapshot) in zip(axes[:, column], (("at the peak", run["peak"]), ("at the end", run["last"]))):
            draw_bonds(ax, outlines, snapshot)
            ax.set_title(f"set {mortar_set}: bonds {when}, {1e-3 * snapshot['force']:.0f} kN, "
                         f"{1e3 * snapshot['displacement']:.3f} mm", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def draw_bonds(ax, outlines, snapshot):
    """Block outlines and a snapshot's mortar contact points, by bond state, on ``ax`` (x-z, m)."""
    for _, outline, support in outlines:
        ax.add_patch(Polygon(outline, closed=True, facecolor="#7f8c9a" if support else "#f1e8d8",
                             edgecolor="0.5", linewidth=0.5))
    points, states = snapshot["points"], snapshot["states"]
    for name, colour in STATE_COLOURS.items():
        mine = states == name
        ax.plot(points[mine, 0], points[mine, 2], "o", markersize=3.0 if name == "intact" else 4.0,
                color=colour, linestyle="none", label=f"{name} ({int(mine.sum())})")
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.set_xlabel("x (m)")
    ax.set_ylabel("z (m)")
    ax.legend(loc="upper right", fontsize=8)


def summary(mortar_set, run):
    """The JSON entry of one set."""
    peak = run["peak"]
    states, counts = np.unique(peak["states"], return_counts=True)
    return {"peak_force_kN": 1e-3 * peak["force"], "displacement_at_peak_mm": 1e3 * peak["displacement"],
            "peak_passed": run["peak_passed"], "largest_force_kN": 1e-3 * float(run["force"].max()),
            "steps": int(len(run["force"])), "runtime_s": run["runtime"], "stopped_by": run["stopped_by"],
            "unconverged_steps": run["unconverged_steps"], "largest_residual": run["largest_residual"],
            "max_kinetic_over_work": run["kinetic_over_work"],
            "bonds_at_peak": dict(zip(states.tolist(), counts.tolist())),
            "centre_bed_joints_at_peak": {"normal_stress_MPa": 1e-6 * peak["centre"][0],
                                          "shear_stress_MPa": 1e-6 * peak["centre"][1]},
            "displacement_mm": (1e3 * run["displacement"]).tolist(), "force_kN": (1e-3 * run["force"]).tolist()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, nargs="+", default=[1, 2], choices=[1, 2], help="Table 4 sets to run")
    parser.add_argument("--speed", type=float, default=2e-3, help="speed of the loading shoe (m/s)")
    parser.add_argument("--time-step", type=float, default=1e-3, help="time step h (s)")
    parser.add_argument("--max-displacement", type=float, default=1.5e-3, help="largest diagonal displacement (m)")
    parser.add_argument("--stop-fraction", type=float, default=0.3,
                        help="stop once the force falls below this fraction of its peak")
    parser.add_argument("--joint-stiffness", type=float, default=1e12, help="K0 of both cohesive modes (Pa/m)")
    parser.add_argument("--shoe-length", type=float, default=0.15, help="bearing length of each shoe piece (m)")
    parser.add_argument("--block-modulus", type=float, default=None,
                        help="deformable blocks of this Young's modulus (Pa; the paper's 8.26e9); rigid when omitted")
    parser.add_argument("--element", default="tet10", choices=["tet4", "tet10"], help="deformable blocks' element")
    parser.add_argument("--mesh-size", type=float, default=None, help="deformable blocks' mesh size (m)")
    parser.add_argument("--contact-spacing", type=float, default=None,
                        help="deformable blocks' joints cut into contact points this far apart (m); corners only "
                             "when omitted")
    parser.add_argument("--out", default="out/diagonal_compression", help="output folder")
    args = parser.parse_args()
    deformable = None
    if args.block_modulus is not None:
        deformable = {"E": args.block_modulus, "nu": PAPER_BLOCK_POISSON, "element": args.element}
        if args.mesh_size is not None:
            deformable["mesh_size"] = args.mesh_size
        if args.contact_spacing is not None:
            deformable["contact_spacing"] = args.contact_spacing
    panel = {"joint_stiffness": args.joint_stiffness, "shoe_length": args.shoe_length}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    runs = {}
    for mortar_set in args.sets:
        runs[mortar_set] = run_set(mortar_set, args.speed, args.time_step, args.max_displacement, args.stop_fraction,
                                   panel, deformable)
        run = runs[mortar_set]
        kind = "peak" if run["peak_passed"] else "largest force (the force never fell past a peak)"
        print(f"set {mortar_set}: {kind} {1e-3 * run['peak']['force']:.1f} kN at "
              f"{1e3 * run['peak']['displacement']:.3f} mm; {len(run['force'])} steps in {run['runtime']:.0f} s "
              f"({run['stopped_by']}); "
              f"{run['unconverged_steps']} steps unconverged; kinetic energy at most "
              f"{run['kinetic_over_work']:.1e} of the work")
    plot_curves(runs, out / "force_displacement.png",
                "rigid blocks" if deformable is None else f"deformable blocks (E = {deformable['E'] / 1e9:g} GPa)")
    plot_bonds(runs, generate("panel", **panel), out / "broken_contacts.png")
    geometry = panel_geometry(panel)
    document = {"paper_peak_kN": PAPER_PEAK_KN, "speed_m_per_s": args.speed, "time_step_s": args.time_step,
                "panel": panel, "panel_geometry": geometry, "deformable_blocks": deformable,
                "closed_form_peaks_kN": closed_form_peaks(TABLE_4[args.sets[0]]["mode_II"]["strength"], geometry),
                "solver_tolerance": SOLVER_TOLERANCE, "solver_max_iterations": SOLVER_ITERATIONS,
                "sets": {str(mortar_set): summary(mortar_set, run) for mortar_set, run in runs.items()}}
    (out / "diagonal_compression.json").write_text(json.dumps(document, indent=1))

    peaks = ", ".join(f"set {s} {1e-3 * run['peak']['force']:.0f} kN ({1e-3 * run['peak']['force'] / PAPER_PEAK_KN:.2f}"
                      f" of it)" for s, run in runs.items())
    print(f"seed 004 fig. 24b: about {PAPER_PEAK_KN:g} kN for both sets; here {peaks}.")
    if deformable is None:
        print(f"These blocks are rigid: all deformation is in the joints' penalty stiffness K0, where the paper's "
              f"blocks are deformable (E = {PAPER_BLOCK_MODULUS_GPA} GPa; --block-modulus 8.26e9). The initial "
              f"stiffness therefore differs and the peak is expected near the paper's, not equal to it.")
    else:
        print(f"These blocks are deformable as the paper's: E = {deformable['E'] / 1e9:g} GPa, "
              f"nu = {deformable['nu']:g}, {deformable['element']} elements.")
    explain_peak(runs, geometry, document["closed_form_peaks_kN"])


def panel_geometry(panel):
    """Width, height, thickness (m) and friction of the generated panel (the `panel` generator's values)."""
    defaults = {name: parameter.default for name, parameter in
                inspect.signature(diagonal_panel).parameters.items()}
    values = dict(defaults, **panel)
    return {name: values[name] for name in ("width", "height", "thickness", "friction")}


def closed_form_peaks(cohesion, geometry):
    """kN, `centre_joint_force` with an elastic continuum's centre stresses and with no tension across."""
    net_area = (geometry["width"] + geometry["height"]) / 2.0 * geometry["thickness"]
    return {"elastic_continuum": 1e-3 * centre_joint_force(cohesion, geometry["friction"], FROCHT_TENSION, net_area),
            "no_tension_across": 1e-3 * centre_joint_force(cohesion, geometry["friction"], 0.0, net_area)}


def explain_peak(runs, geometry, closed_form):
    """Print the centre's bed joints at each peak beside the closed-form forces at which they would peak."""
    friction = geometry["friction"]
    print(f"With mu = {friction:g} the bed joints' capacity sigma_II + mu sigma grows almost as fast as their shear, "
          f"so the peak hangs on the tension across the loaded diagonal. Closed form, centre bed joints at peak "
          f"shear: {closed_form['elastic_continuum']:.0f} kN with an elastic continuum's centre stresses (Frocht: "
          f"{FROCHT_TENSION:g} and -{FROCHT_COMPRESSION:g} P / A_n), {closed_form['no_tension_across']:.0f} kN with "
          f"no tension across.")
    for mortar_set, run in runs.items():
        cohesion = TABLE_4[mortar_set]["mode_II"]["strength"]
        sigma, tau = run["peak"]["centre"]
        print(f"set {mortar_set} at its peak, bed joints within {CENTRE_RADIUS:g} m of the centre: sigma "
              f"{1e-6 * sigma:.2f} MPa, tau {1e-6 * tau:.2f} MPa (sigma_II + mu sigma = "
              f"{1e-6 * (cohesion + friction * sigma):.2f} MPa); tau / sigma = {tau / sigma:.2f} against "
              f"{(FROCHT_TENSION + FROCHT_COMPRESSION) / (FROCHT_COMPRESSION - FROCHT_TENSION):.2f} in the elastic "
              f"continuum and 1 with no tension across.")


if __name__ == "__main__":
    main()
