"""Seed 003's free-rocking campaign (sec. 3.1, Table 1) on our HHT integrator, as one batch.

Ten blocks (2H x 2B of Table 1; the seed prints 2.8 for the fourth block's 2H, a typo: H/B = 4
and R = 3.71 give 7.2 x 1.8), each on a Winkler joint of k_n = 2.5, 5, 10, 25 x 1e8 N/m^3, at the
time steps 0.001, 0.002, ... 0.040 s: 1,600 free-rocking runs released at rest from theta_0 = 0.5
alpha, density 2600 kg/m^3, friction 0.8 (Housner's hypothesis of no sliding; the fit reports the
largest horizontal drift of a block's centre at rest over the runs, free_rocking_drift). The
blocks are DEPTH deep, not 2B: one batch spec cannot tie a generator's depth to its width, and the
in-plane rocking does not depend on the depth, since the mass, the moment of inertia about the
rocking axis and the Winkler layer's force and moment all scale with it (tests/test_time_step_law.py
checks the amplitudes of two depths agree); DEPTH is the largest width, so that every block rocks
about its long base edges.

Each run lasts DURATION = 30 s, the seed's campaign's minimum; we do not run longer (the seed goes on
"if needed to reach 0.05 theta_0") nor stop earlier: a kinematic stop would fire at a turning point
of the rocking, where the block is momentarily at rest, and the steps of a decayed run are few
anyway. The fit (benchmarks/rocking_campaign_fit.py) caps each comparison at the impacts a run
recorded. Every step is a frame (output_interval = the smallest step), of which the batch keeps
only the block's cycles (extrados/batch/outputs.py, outputs.free_rocking). The set ``validation``
is sec. 3.3's post-validation: blocks between the trained ones (VALIDATION_BLOCKS) on k_n = 4, 7,
12 x 1e8 N/m^3.

    NUMBA_CACHE_DIR=... .venv/bin/python benchmarks/rocking_campaign.py [--set campaign|validation]
        [--quick] [--blocks HB4_R0.62 ...] [--workers 2] [--out out/rocking_campaign]

The batch is resumable: a rerun with the same --out computes only the cases still missing.
"""
import argparse
import math
import os
import time
from pathlib import Path

from extrados.batch import run

#: Table 1 of seed 003: (2H, 2B) in m, H/B = 4, 7, 10; in an order that spreads R and H/B over the first
#: blocks, so that a campaign stopped part way (the batch runs block by block) still spans the table.
TABLE_1 = ((1.2, 0.3), (4.2, 0.6), (12.0, 1.2), (2.4, 0.6), (8.4, 1.2), (3.0, 0.3),
           (7.2, 1.8), (2.1, 0.3), (6.0, 0.6), (4.8, 1.2))
#: N/m^3, k2.5, k5, k10, k25 (sec. 3.1).
CAMPAIGN_STIFFNESSES = (2.5e8, 5e8, 10e8, 25e8)
#: Sec. 3.3's post-validation: H/B = 5.5 and 8.5, between the trained 4, 7 and 10, at widths 0.45 and
#: 0.9 m between the trained 0.3, 0.6 and 1.2 m (R = 2.52 and 1.93 m, inside the trained 0.62 .. 6.03 m).
VALIDATION_BLOCKS = ((4.95, 0.9), (3.825, 0.45))
#: N/m^3, k4, k7, k12 (sec. 3.3), between the trained stiffnesses.
VALIDATION_STIFFNESSES = (4e8, 7e8, 12e8)
#: s, 0.001 .. 0.040 (sec. 3.1).
TIME_STEPS = tuple(round(0.001 * k, 3) for k in range(1, 41))
THETA0 = 0.5            # theta_0 / alpha
DENSITY = 2600.0        # kg/m^3
FRICTION = 0.8
DEPTH = 1.8             # m, module docstring
DURATION = 30.0         # s
SETS = {"campaign": (TABLE_1, CAMPAIGN_STIFFNESSES), "validation": (VALIDATION_BLOCKS, VALIDATION_STIFFNESSES)}
#: --quick: the first block and stiffness, two steps, QUICK_DURATION s (a check that the campaign runs).
QUICK_STEPS, QUICK_DURATION = (0.01, 0.02), 2.0


def block_name(height, width):
    """'HB4_R0.62': the block's aspect ratio H/B and semi-diagonal R (m), as seed 003 names them."""
    return f"HB{height / width:g}_R{0.5 * math.hypot(height, width):.2f}"


def campaign_spec(blocks, stiffnesses, time_steps, duration):
    """The batch spec (extrados/batch/batch_schema.json) of free-rocking runs of ``blocks`` ((2H, 2B) m)
    on each of ``stiffnesses`` (N/m^3) at each of ``time_steps`` (s), ``duration`` s each."""
    return {
        "generator": {"name": "rocking_block",
                      "parameters": {"depth": DEPTH, "density": DENSITY, "friction": FRICTION, "tilt": THETA0}},
        "analysis": {"type": "dynamic", "integrator": "hht", "duration": duration, "time_step": time_steps[0],
                     "output_interval": min(time_steps), "frames": "none", "histories": "none"},
        "vary": [{"parameters": ["height", "width"], "rows": [list(block) for block in blocks]},
                 {"parameter": "normal_stiffness", "list": list(stiffnesses)},
                 {"request": "/time_step", "list": list(time_steps)}],
        "outputs": {"names": ["solver_converged"], "free_rocking": {"block": "block", "axis": [0, 1, 0]}},
    }


def chosen_blocks(blocks, names):
    """The blocks among ``blocks`` named in ``names`` (block_name), all of them for None."""
    if not names:
        return blocks
    known = {block_name(*block): block for block in blocks}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(f"unknown block {unknown[0]!r}; the set's blocks are {', '.join(known)}")
    return tuple(known[name] for name in names)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="campaign")
    parser.add_argument("--quick", action="store_true", help="one block and stiffness, two steps, 2 s each")
    parser.add_argument("--blocks", nargs="+", help="block names (HB4_R0.62 ...); default all of the set's")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("--out", default=None, help="the batch folder (default out/rocking_<set>)")
    args = parser.parse_args(argv)
    blocks, stiffnesses = SETS[args.set]
    blocks = chosen_blocks(blocks, args.blocks)
    steps, duration = TIME_STEPS, DURATION
    if args.quick:
        blocks, stiffnesses, steps, duration = blocks[:1], stiffnesses[:1], QUICK_STEPS, QUICK_DURATION
    out = Path(args.out or f"out/rocking_{args.set}")
    spec = campaign_spec(blocks, stiffnesses, steps, duration)
    started = time.perf_counter()
    summary = run(spec, out, workers=args.workers, progress=not args.quick)
    minutes = (time.perf_counter() - started) / 60.0
    rate = summary.done / minutes if minutes > 0 else float("nan")
    print(f"{summary.cases} cases: {summary.skipped} done before, {summary.done} now in {minutes:.1f} min "
          f"({rate:.1f} cases per minute on {args.workers or os.cpu_count()} workers), {summary.failed} failed; "
          f"table {out / 'cases.parquet'}")
    return summary


if __name__ == "__main__":
    main()
