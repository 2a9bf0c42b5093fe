"""Cost of the energy impact law (engine/contact/impact_energy.py): time per step with and without it.

Two scenes at h = 1 ms, each stepped through engine.pipeline.step with the law on (the dynamic
analysis's default for plastic impacts) and off (the steps before issue 18): the free rocking of a
0.25 x 0.5 x 1.0 m block from theta_0 = 0.5 alpha for 4 s (a few impact steps), and a 10-voussoir arch
at 0.9 of its minimum thickness collapsing for 0.6 s (many). An impact step solves its problem a
second time without loads (engine.pipeline.plastic_energy_ratio). The table is printed and written
to benchmarks/results/impact_law.txt; the first run of each scene compiles and is not timed.

    .venv/bin/python benchmarks/impact_law.py [--repeat 2]
"""
import argparse
import datetime
import math
import platform
import time
from pathlib import Path

import numpy as np

from extrados import Model, generators
from extrados.engine.pipeline import SolverSettings, StepSettings, step
from extrados.engine.state import State

RESULTS = Path(__file__).resolve().parent / "results" / "impact_law.txt"
TIME_STEP = 1e-3


def rocking_block():
    """The 0.25 x 0.5 x 1.0 m block leaning on its edge x = +0.125 m by theta_0 = 0.5 alpha."""
    doc = generators.generate("rocking_block", width=0.25, height=1.0, depth=0.5, friction=0.8)
    block = next(b for b in doc["blocks"] if b["id"] == "block")
    tilt = 0.5 * math.atan(0.25 / 1.0)
    c, s = math.cos(tilt), math.sin(tilt)
    pivot = np.array([0.125, 0.0, 0.0])
    about_y = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    block["vertices"] = ((np.asarray(block["vertices"]) - pivot) @ about_y.T + pivot).tolist()
    return Model.from_dict(doc)


def collapsing_arch():
    """A 10-voussoir arch at 0.9 of its minimum thickness (tests/test_dynamics.py's energy test)."""
    return Model.from_dict(generators.generate("arch", thickness=0.9 * 0.10746, voussoirs=10, friction=0.8))


SCENES = {"free rocking, 4 s": (rocking_block, 4.0), "collapsing arch, 0.6 s": (collapsing_arch, 0.6)}


def run(model, duration, energy_impacts):
    """Seconds per step and impact steps of ``duration`` s of ``model`` stepped at TIME_STEP."""
    mech = model.mechanics
    state = State.initial(mech)
    settings = StepSettings(time_step=TIME_STEP, wrench=mech.dead_wrench + mech.live_wrench,
                            solver=SolverSettings.of(model.settings, "dynamic"), energy_impacts=energy_impacts)
    steps = int(round(duration / TIME_STEP))
    impacts = 0
    start = time.perf_counter()
    for _ in range(steps):
        outcome = step(model, state, settings)
        impacts += outcome.impact_fraction is not None and bool((outcome.impact_fraction < 1.0).any())
    return (time.perf_counter() - start) / steps, impacts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="timed runs of each scene and setting; the best is kept")
    args = parser.parse_args()
    lines = [f"# {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
             f"h = {TIME_STEP:g} s, best of {args.repeat}",
             f"{'scene':<26}{'law off ms/step':>17}{'law on ms/step':>16}{'impact steps':>14}{'ratio':>8}"]
    for name, (build, duration) in SCENES.items():
        model = build()
        run(model, min(duration, 0.05), True)               # compiles
        off = min(run(model, duration, False)[0] for _ in range(args.repeat))
        timed = [run(model, duration, True) for _ in range(args.repeat)]
        on, impacts = min(seconds for seconds, _ in timed), timed[0][1]
        lines.append(f"{name:<26}{1e3 * off:17.3f}{1e3 * on:16.3f}{impacts:14d}{on / off:8.2f}")
    text = "\n".join(lines)
    print(text)
    RESULTS.write_text(text + "\n")


if __name__ == "__main__":
    main()
