"""Time per step and real-time factor of the spandrel wall of seed 000 sec. 4 under its ground motion.

The wall of `engine.generators` 'spandrel_wall' (130 blocks) on a ground moving as
d_g = A sin(2 pi f t), f = 1 Hz, A = 0.2 g / (2 pi f)^2, along x (in plane) and along y (through
the thickness), 6 s at h = 1 ms as in the seed and at h = 0.02 s (issue 20: a large step should cost
less per simulated second). Prints, per direction and step, the wall-clock time, the median and mean
milliseconds per step, the real-time factor (simulated / wall-clock seconds), the solver's iterations
per step, the steps each solver gave (solver auto: APGD, or the interior-point solver where APGD stops
unconverged, engine.solvers.auto.RunPlan), the contacts at the end and the events; the table is also
written to benchmarks/results/spandrel_wall.txt.

    .venv/bin/python benchmarks/spandrel_wall.py [--duration 6] [--time-steps 0.001 0.02]
"""
import argparse
import datetime
import math
import os
import platform
import statistics
import time
from pathlib import Path

from extrados import Model, analyze, generators

G = 9.81
FREQUENCY = 1.0                       # Hz
PEAK_GROUND_ACCELERATION = 0.2 * G    # m/s^2
DIRECTIONS = {"x (in plane)": [1.0, 0.0, 0.0], "y (out of plane)": [0.0, 1.0, 0.0]}
RESULTS = Path(__file__).resolve().parent / "results" / "spandrel_wall.txt"


def spandrel_model(direction):
    """The seed's spandrel wall with the sine ground motion along `direction` (3,)."""
    document = generators.generate("spandrel_wall")
    document["support_motion"] = {"kind": "sine", "direction": direction, "frequency": FREQUENCY,
                                  "amplitude": PEAK_GROUND_ACCELERATION / (2.0 * math.pi * FREQUENCY) ** 2}
    return Model.from_dict(document)


def timed_run(model, duration, time_step):
    """One dynamic run; wall-clock seconds of every step (from the progress callback's clock) and the result."""
    stamps = []
    request = {"type": "dynamic", "duration": duration, "time_step": time_step, "output_interval": 0.1}
    started = time.perf_counter()
    result = analyze(model, request, progress=lambda fraction: stamps.append((fraction, time.perf_counter())))
    seconds = time.perf_counter() - started
    return result, seconds, stamps


def row(name, result, seconds, stamps, duration):
    """One line of the table for a run."""
    document = result.to_dict()
    steps = document["steps"]
    # the progress callback fires about every 1 % of the steps: per-step times of those slices
    slices = [(b[1] - a[1]) / ((b[0] - a[0]) * steps) for a, b in zip(stamps, stamps[1:]) if b[0] > a[0]]
    events = document["events"]
    tally = document["solver_steps"]
    solvers = " ".join(f"{solver} {count}" for solver, count in tally["solvers"].items())
    return (f"{name:<18} {document['time_step']:>6g} {len(document['blocks']):>6} {steps:>6} {seconds:>8.1f} "
            f"{1e3 * statistics.median(slices):>8.2f} {1e3 * seconds / steps:>8.2f} {duration / seconds:>7.3f} "
            f"{tally['mean_iterations']:>7.1f} {tally['unconverged_steps']:>5} {len(document['contacts']):>8}  "
            f"{solvers}; collapse {events['collapse']}, first uplift {events['first_uplift']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=6.0, help="simulated seconds")
    parser.add_argument("--time-steps", type=float, nargs="+", default=[1e-3, 0.02], help="h, s: one run each")
    args = parser.parse_args()
    lines = [f"Spandrel wall (seed 000 sec. 4), {datetime.datetime.now().isoformat(timespec='seconds')}, "
             f"{platform.platform()}, {os.cpu_count()} cpus",
             f"sine ground motion 1 Hz, PGA 0.2 g, {args.duration:g} s at each h; "
             "med ms: median over 1 % slices of the run; RTF: simulated / wall-clock seconds",
             f"{'direction':<18} {'h s':>6} {'blocks':>6} {'steps':>6} {'total s':>8} {'med ms':>8} {'mean ms':>8} "
             f"{'RTF':>7} {'its':>7} {'unconv':>5} {'contacts':>8}  solvers (steps)"]
    print("\n".join(lines), flush=True)
    analyze(spandrel_model([1.0, 0.0, 0.0]), {"type": "dynamic", "duration": 0.005, "time_step": 1e-3})  # compile
    for time_step in args.time_steps:
        for name, direction in DIRECTIONS.items():
            result, seconds, stamps = timed_run(spandrel_model(direction), args.duration, time_step)
            lines.append(row(name, result, seconds, stamps, args.duration))
            print(lines[-1], flush=True)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text("\n".join(lines) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
