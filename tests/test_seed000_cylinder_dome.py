"""examples/seed000_cylinder_dome.py (seed 000 fig. 10) as a user runs it, on one course for 10 steps: it reports
the seconds per step of each tenth of the run and the solver's iterations, and within 0.02 s no block has
fallen a course height, which free fall takes sqrt(2 * 0.5 m / g) = 0.32 s to do."""
import json
import math
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
COURSE_HEIGHT = 0.5          # m: the example's default cylinder, 2 m in 4 courses, one kept here
DURATION = 0.02              # s
TIME_STEP = 0.002            # s


def test_the_example_reports_its_time_per_step_and_nothing_falls_before_free_fall_could(tmp_path):
    assert math.sqrt(2.0 * COURSE_HEIGHT / 9.81) > 10 * DURATION
    run = subprocess.run([sys.executable, "seed000_cylinder_dome.py", "--courses", "1", "--height", str(COURSE_HEIGHT),
                          "--duration", str(DURATION), "--time-step", str(TIME_STEP), "--out", str(tmp_path)],
                         cwd=EXAMPLES, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads((tmp_path / "seed000_cylinder_dome.json").read_text())
    assert summary["fallen"] == [] and summary["duration_s"] == DURATION
    per_step = summary["seconds_per_step_by_tenth"]
    assert len(per_step) == 10 and all(seconds > 0.0 for seconds in per_step)
    tally = summary["solver_steps"]
    assert tally["steps"] == round(DURATION / TIME_STEP) and tally["unconverged_steps"] == 0
    assert "seconds per step, by tenth of the run:" in run.stdout
    assert (tmp_path / "seed000_cylinder_dome.png").stat().st_size > 10_000


def test_static_only_prints_the_verdict_of_the_intact_cylinder():
    """One course of voussoirs with vertical joints over the default octagon (circumradius 3.2 m): nothing
    below the blocks over the gap, no rise for a dome to form in 0.5 m, so they fall at once, as in free fall
    (the static step's speed is g h, h = 1 s, for a block with nothing under it)."""
    run = subprocess.run([sys.executable, "seed000_cylinder_dome.py", "--static-only", "--courses", "1",
                          "--height", str(COURSE_HEIGHT)], cwd=EXAMPLES, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    line = run.stdout.strip()
    assert line.startswith("radius 4, height 0.5, courses 1, gap_radius 3.2, friction 0.4, ring_width 0.8, "
                           "blocks_per_ring 8: 41 blocks do not stand (decided by the static CCP;")
    speed = float(line.split("after the static step ")[1].split(" m/s")[0])
    assert 0.5 * 9.81 < speed < 1.5 * 9.81
