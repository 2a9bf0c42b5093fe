"""Dynamic analysis speed and at-rest accuracy on running-bond walls, beside MuJoCo and pybullet.

The scenes are those of ../shared/bench/peers.py: a running-bond brick wall settling under
gravity, bricks 0.4 x 0.2 x 0.2 m, 2000 kg/m^3, mu = 0.6, zero initial gaps, h = 1e-3 s, 1 s.
Our wall generator gives the same blocks in the same order (checked at run time against
peers.wall_blocks, up to a shift of the wall along x); its ground slab is replaced by the
peers' ground box. The peers run in the same session through peers.py in a subprocess with an
interpreter that can import mujoco and pybullet (--peers-python; see ../shared/bench/README.md);
without one, the stored figures of ../shared/bench/peers-2026-11-25.jsonl are shown, labelled.
The table is printed and written to benchmarks/results/dynamic_walls.txt.

    .venv/bin/python benchmarks/dynamic_walls.py [--sizes 10x10 20x25 30x34:0.1] [--duration 1.0]
                                                 [--no-peers] [--peers-python /tmp/peers-venv/bin/python]

A size NxM is N courses of M bricks; NxM:T runs that size for T seconds instead of --duration.
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from extrados import Model, analyze, generators

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
PEERS_SCRIPT = BENCH / "peers.py"
STORED_PEERS = BENCH / "peers-2026-11-25.jsonl"
RESULTS = Path(__file__).resolve().parent / "results" / "dynamic_walls.txt"
#: The peer variants of the bench README's table: MuJoCo Newton (pyramidal and elliptic cones),
#: pybullet in maximal coordinates (default and 100 solver iterations).
PEER_VARIANTS = [("mujoco", "newton_pyr"), ("mujoco", "newton_ell"), ("pybullet", "it_default_maxc"),
                 ("pybullet", "it100_maxc")]
#: s; one peer run may take this long before it is abandoned (pybullet at 1,035 blocks takes ~150 s).
PEER_TIMEOUT = 1800
#: s, the duration of peers.py's runs (1000 steps of 1e-3 s).
PEERS_DURATION = 1.0
#: Steps at the start (after the warm-up) and at the end of a run whose medians show a trend in step time.
TREND_STEPS = 100
#: Agreement (m) of our block centres and half extents with peers.wall_blocks; 1 nm.
LAYOUT_TOLERANCE = 1e-9


def load_peers():
    """The shared peer script as a module: scene constants, wall_blocks, ground_box, displacement_stats."""
    spec = importlib.util.spec_from_file_location("peers", PEERS_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the scene ------------------------------------------------------------------------------------------
def wall_document(peers, courses, bricks):
    """Our running-bond wall with the peers' bricks and friction, standing on the peers' ground box.

    Our generator centres the wall on x = 0 where the peers start it at x = 0, so the peers' ground
    box is shifted by -L/2; it is 2 m longer than the wall, 2 m wide and 0.2 m thick, top at z = 0.
    """
    doc = generators.generate("wall", courses=courses, blocks_per_course=bricks, block_length=peers.BL,
                              block_height=peers.BH, depth=peers.BT, friction=peers.MU, density=peers.RHO)
    centre, half = peers.ground_box(bricks)
    centre = np.asarray(centre) - [peers.BL * bricks / 2.0, 0.0, 0.0]
    ground = next(b for b in doc["blocks"] if b.get("support"))
    corners = np.sign(np.asarray(ground["vertices"]) - np.mean(ground["vertices"], axis=0))   # (8, 3) of +-1
    ground["vertices"] = (centre + corners * half).tolist()
    return doc


def layout_differences(peers, doc, courses, bricks):
    """Where our blocks differ from peers.wall_blocks (same order; x shifted by -L/2); empty when identical."""
    ours = [np.asarray(b["vertices"]) for b in doc["blocks"] if not b.get("support")]
    theirs = peers.wall_blocks(courses, bricks)
    if len(ours) != len(theirs):
        return [f"{len(ours)} blocks here, {len(theirs)} in peers.py"]
    shift = np.array([peers.BL * bricks / 2.0, 0.0, 0.0])
    differences = []
    for index, (vertices, (centre, half)) in enumerate(zip(ours, theirs)):
        centre_error = np.abs(vertices.mean(axis=0) + shift - centre).max()
        half_error = np.abs(np.ptp(vertices, axis=0) / 2.0 - half).max()
        if max(centre_error, half_error) > LAYOUT_TOLERANCE:
            differences.append(f"block {index}: centre off by {centre_error:.3g} m, size by {half_error:.3g} m")
    return differences


# --- our engine -----------------------------------------------------------------------------------------
def warm_up():
    """Seconds to compile (or load from cache) the numba kernels on walls of 2 x 2 and 20 x 20 for 5 steps each
    (a run's first step goes to Newton: banded on the small wall, block Cholesky on the larger)."""
    start = time.perf_counter()
    for courses, bricks in ((2, 2), (20, 20)):
        doc = generators.generate("wall", courses=courses, blocks_per_course=bricks, block_length=0.4,
                                  block_height=0.2, depth=0.2, friction=0.6)
        analyze(Model.from_dict(doc), {"type": "dynamic", "duration": 5e-3, "time_step": 1e-3})
    return time.perf_counter() - start


def run_ours(peers, doc, duration, courses, bricks):
    """Time our dynamic analysis step by step and measure how the wall moved; a dict like peers.py's.

    The cancel check runs once after every step, so its timestamps split the run into steps (the
    first one also holds the run's setup and first contact detection). Like peers.py, the median
    and mean skip the first peers.WARMUP steps (all but the last in a shorter run) and the total sums
    all steps.
    """
    start = time.perf_counter()
    model = Model.from_dict(doc)
    mech = model.mechanics
    build_s = time.perf_counter() - start
    stamps = []

    def after_step():
        stamps.append(time.perf_counter())
        return False

    shown = set()

    def progress(fraction):
        decile = int(10 * fraction)
        if decile not in shown:
            shown.add(decile)
            print(f"\r  Extrados {courses}x{bricks}: {10 * decile:3d} %", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    result = analyze(model, {"type": "dynamic", "duration": duration, "time_step": peers.H,
                             "output_interval": duration}, progress=progress, cancel=after_step)
    print(file=sys.stderr)
    steps = np.diff(np.concatenate([[start], stamps]))
    timed = steps[min(peers.WARMUP, len(steps) - 1):]
    out = result.to_dict()
    movable = ~mech.is_support
    blocks = [b for b, keep in zip(out["blocks"], movable) if keep]
    final_position = np.array([b["position"] for b in blocks])
    final_orientation = np.array([b["orientation"] for b in blocks])
    final_velocity = np.array([b["velocity"] for b in blocks])
    identity = np.tile([1.0, 0.0, 0.0, 0.0], (len(blocks), 1))
    figures = {"engine": "extrados", "variant": f"NSCD {out['solver']['name']}", "nblocks": len(blocks),
               "nsteps": len(steps), "build_s": build_s, "ncon_end": len(out["contacts"]),
               "solver_end": out["solver"], "collapsed": out["events"]["collapsed"],
               "step_median_ms": 1e3 * statistics.median(timed),
               "step_mean_ms": 1e3 * statistics.fmean(timed), "total_s": float(steps.sum()),
               "step_p90_ms": 1e3 * float(np.percentile(timed, 90)),
               "step_p95_ms": 1e3 * float(np.percentile(timed, 95)),
               "first_100_median_ms": 1e3 * statistics.median(timed[:TREND_STEPS]),
               "last_100_median_ms": 1e3 * statistics.median(steps[-TREND_STEPS:])}
    figures.update(peers.displacement_stats(mech.position0[movable], final_position, identity, final_orientation,
                                            final_velocity))
    return figures


# --- the peers ------------------------------------------------------------------------------------------
def peers_importable(python):
    """None when `python` imports mujoco and pybullet, else why not."""
    try:
        run = subprocess.run([python, "-c", "import mujoco, pybullet"], capture_output=True, text=True, timeout=120)
    except OSError as error:
        return str(error)
    return None if run.returncode == 0 else (run.stderr.strip().splitlines() or ["failed"])[-1]


def run_peer(python, engine, variant, courses, bricks, steps):
    """One `peers.py one --test wall` run in a subprocess; its RESULT dict, or {"error": ...}."""
    command = [python, str(PEERS_SCRIPT), "one", "--test", "wall", "--engine", engine, "--variant", variant,
               "--courses", str(courses), "--bricks", str(bricks), "--steps", str(steps)]
    print(f"  {engine} {variant} {courses}x{bricks} ...", file=sys.stderr, flush=True)
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=PEER_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"engine": engine, "variant": variant, "error": f"timed out after {PEER_TIMEOUT} s"}
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    if not lines:
        why = (run.stderr or run.stdout or f"exit code {run.returncode}").strip().splitlines()[-1]
        return {"engine": engine, "variant": variant, "error": why}
    return json.loads(lines[-1][len("RESULT "):])


def stored_peers(courses, bricks):
    """The stored 2026-11-25 peer runs of this wall for PEER_VARIANTS (2 cores, mujoco 4.0.0, pybullet 3.2.7)."""
    runs = [json.loads(line) for line in STORED_PEERS.read_text().splitlines() if line.strip()]
    wanted = {(e, v): None for e, v in PEER_VARIANTS}
    for run in runs:
        key = (run.get("engine"), run.get("variant"))
        if run.get("test") == "wall" and (run["courses"], run["bricks"]) == (courses, bricks) and key in wanted:
            wanted[key] = run
    return [run for run in wanted.values() if run is not None]


# --- the table ------------------------------------------------------------------------------------------
#: The columns: per step after the warm-up the median, mean and 90th percentile (what peers.py records
#: for every engine), the total of all steps with the warm-up (what a user waits for), and the headline
#: ratio, our total over this run's.
HEADER = (f"{'engine / variant':<26}{'source':>10}{'blocks':>7}{'steps':>6}{'med ms':>9}{'mean ms':>9}"
          f"{'p90 ms':>9}{'total s':>9}{'contacts':>9}{'drift mm':>9}{'xy mm':>8}{'z drop':>8}{'rot deg':>8}"
          f"{'v end mm/s':>11}{'stands':>7}{'total ours/this':>16}")


def table_row(run, source, ours_total):
    name = f"{run['engine']} {run['variant']}"
    if "error" in run:
        return f"{name:<26}{source:>10}  ERROR: {run['error'][:200]}"
    ratio = ours_total / run["total_s"]
    return (f"{name:<26}{source:>10}{run['nblocks']:>7}{run['nsteps']:>6}{run['step_median_ms']:>9.2f}"
            f"{run['step_mean_ms']:>9.2f}{run.get('step_p90_ms', float('nan')):>9.2f}{run['total_s']:>9.2f}"
            f"{run['ncon_end']:>9}{run['max_disp_mm']:>9.3f}"
            f"{run['max_disp_xy_mm']:>8.3f}{run['max_drop_z_mm']:>8.3f}{run['max_rot_deg']:>8.3f}"
            f"{run['max_speed_end_mm_s']:>11.3f}{'yes' if run['standing'] else 'NO':>7}{ratio:>16.2f}")


def size_block(courses, bricks, duration, ours, peer_runs, source, layout):
    """The lines of the table for one wall size."""
    steps = ours["nsteps"]
    lines = ["", f"wall {courses} courses x {bricks} bricks = {ours['nblocks']} blocks, h = 1e-3 s, "
                  f"{steps} steps ({duration:g} s){'' if duration == PEERS_DURATION else '  <- NOT the peers.py 1 s'}",
             f"  layout vs peers.wall_blocks: {layout}", HEADER]
    lines.append(table_row(ours, "same run", ours["total_s"]))
    lines += [table_row(run, source, ours["total_s"]) for run in peer_runs]
    timed = [run for run in peer_runs if "error" not in run]
    solver = ours["solver_end"]
    lines += [f"  ours at the last step: {solver['name']} {solver['iterations']} iterations, residual "
              f"{solver['residual']:.1e}, converged {solver['converged']}; collapsed: {ours['collapsed']}",
              f"  ours, median ms per step over the first {TREND_STEPS} steps after the warm-up: "
              f"{ours['first_100_median_ms']:.2f}, over the last {TREND_STEPS}: {ours['last_100_median_ms']:.2f}; "
              f"95th percentile {ours['step_p95_ms']:.2f}"]
    if timed:
        fastest = min(timed, key=lambda run: run["total_s"])
        note = "" if source == "same run" else f" (against {source} figures: other machine and load)"
        lines.append(f"  HEADLINE, total time of the run, ours / fastest peer "
                     f"({fastest['engine']} {fastest['variant']}): "
                     f"{ours['total_s'] / fastest['total_s']:.2f} x ({ours['total_s']:.2f} s against "
                     f"{fastest['total_s']:.2f} s){note}; per step (median): "
                     f"{ours['step_median_ms'] / min(run['step_median_ms'] for run in timed):.2f} x")
        if any(run["nsteps"] != steps for run in timed):
            lines.append("  stored peer runs cover another duration: their drift is not comparable with ours")
    stored = stored_peers(courses, bricks) if source == "same run" and duration != PEERS_DURATION else []
    if stored:
        medians = ", ".join(f"{run['engine']} {run['variant']} {run['step_median_ms']:.1f} ms" for run in stored)
        fastest_ms = min(run["step_median_ms"] for run in stored)
        lines.append(f"  a {duration:g} s run times only the peers' settling transient; their stored "
                     f"{PEERS_DURATION:g} s medians ({STORED_PEERS.name}, other load): {medians}; "
                     f"ours / fastest stored: {ours['step_median_ms'] / fastest_ms:.2f} x")
    return lines


def parse_size(text, duration):
    size, _, seconds = text.partition(":")
    courses, bricks = (int(x) for x in size.lower().split("x"))
    return courses, bricks, float(seconds) if seconds else duration


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["10x10", "20x25", "30x34"],
                        help="courses x bricks per course, optionally :seconds (e.g. 30x34:0.1)")
    parser.add_argument("--duration", type=float, default=PEERS_DURATION, help="simulated seconds per wall")
    parser.add_argument("--no-peers", action="store_true", help="do not run MuJoCo / pybullet")
    parser.add_argument("--peers-python", default=sys.executable,
                        help="interpreter that imports mujoco and pybullet (default: this one)")
    args = parser.parse_args()
    peers = load_peers()
    sizes = [parse_size(text, args.duration) for text in args.sizes]

    if args.no_peers:
        peer_problem = "not run (--no-peers)"
    else:
        why = peers_importable(args.peers_python)
        peer_problem = None if why is None else (
            f"{args.peers_python} cannot import mujoco and pybullet ({why}); make a venv outside the repo, "
            f"e.g. python3 -m venv /tmp/peers-venv && /tmp/peers-venv/bin/pip install mujoco pybullet numpy, "
            f"and pass --peers-python /tmp/peers-venv/bin/python")
    if peer_problem:
        print(f"PEERS NOT RUN: {peer_problem}", file=sys.stderr)

    lines = []

    def emit(*new_lines):
        print("\n".join(new_lines), flush=True)
        lines.extend(new_lines)

    compile_s = warm_up()
    emit(f"Dynamic walls, {datetime.datetime.now().isoformat(timespec='seconds')}, "
         f"{platform.platform()}, {os.cpu_count()} cpus, python {platform.python_version()}",
         f"scene of {PEERS_SCRIPT.relative_to(BENCH.parent.parent)}: bricks {peers.BL} x {peers.BH} x {peers.BT} m, "
         f"{peers.RHO:g} kg/m^3, mu = {peers.MU}, zero gaps, ground box of peers.ground_box, h = {peers.H} s",
         f"numba compilation / cache load: {compile_s:.1f} s (not counted)",
         "ms per step: median and mean over the steps after the first "
         f"{peers.WARMUP}; ours include the run's event and energy bookkeeping",
         "drift = max |displacement| of a block centre; stands = peers.py's test (xy < 20 mm, rotation < 2 deg)")
    if peer_problem:
        emit(f"PEERS NOT RUN in this session: {peer_problem}",
             f"peer rows below are STORED figures from {STORED_PEERS.name} (2026-11-25, 2 cores), "
             f"not measured in this run")
    versions = None
    for courses, bricks, duration in sizes:
        doc = wall_document(peers, courses, bricks)
        differences = layout_differences(peers, doc, courses, bricks)
        layout = ("identical (same blocks, order and sizes; our wall is shifted by -L/2 in x; "
                  "ground = peers' box)" if not differences else "; ".join(differences[:5]))
        ours = run_ours(peers, doc, duration, courses, bricks)
        if peer_problem:
            peer_runs, source = stored_peers(courses, bricks), "stored"
        else:
            peer_runs = [run_peer(args.peers_python, engine, variant, courses, bricks, ours["nsteps"])
                         for engine, variant in PEER_VARIANTS]
            source = "same run"
            versions = versions or next((run["versions"] for run in peer_runs if "versions" in run), None)
        emit(*size_block(courses, bricks, duration, ours, peer_runs, source, layout))
    if versions:
        emit(f"peer versions: mujoco {versions.get('mujoco')}, pybullet {versions.get('pybullet')}, "
             f"numpy {versions.get('numpy')}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines) + "\n")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()
