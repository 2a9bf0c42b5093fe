"""HHT free rocking of one block: seconds for 30 s of simulated time at a 10 ms step (issue 18: under 1 s
after compilation), and the steps per second at 1 ms.

    .venv/bin/python benchmarks/hht_rocking.py [--repeat 3] [--out benchmarks/results/hht_rocking.txt]
"""
import argparse
import os
import platform
import time
from pathlib import Path

from extrados import analyze, generators

#: Seed 003's proof-of-concept block (sec. 2.3) on k_n = 5e8 N/m^3, released at theta_0 = 0.5 alpha.
BLOCK = {"width": 0.6, "height": 4.2, "depth": 0.6, "density": 2600.0, "tilt": 0.5, "normal_stiffness": 5e8}


def seconds_for(duration, h, model):
    request = {"type": "dynamic", "integrator": "hht", "duration": duration, "time_step": h, "frames": "none",
               "histories": "none"}
    began = time.perf_counter()
    result = analyze(model, request)
    return time.perf_counter() - began, result.to_dict()["integrator"]["newton"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "hht_rocking.txt"))
    args = parser.parse_args()
    model = generators.generate("rocking_block", friction=0.8, **BLOCK)
    seconds_for(0.05, 0.01, model)  # compile (or load the numba cache)
    lines = [f"HHT free rocking, {platform.processor() or platform.machine()}, {os.cpu_count()} cores"]
    for h in (0.01, 0.001):
        best, newton = min(seconds_for(args.duration, h, model) for _ in range(args.repeat))
        steps = newton["steps"]
        lines.append(f"{args.duration:g} s at h = {h * 1e3:g} ms: {best:.3f} s ({steps / best:,.0f} steps/s, "
                     f"{newton['mean_iterations']:.2f} Newton iterations per step)")
    print("\n".join(lines))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
