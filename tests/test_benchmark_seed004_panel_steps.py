"""benchmarks/seed004_panel_steps.py on a short run: the study panel's steps at one l_c, their cost split into the
solve and the rest, printed and written alike."""
import re
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "seed004_panel_steps.py"
LINE = re.compile(r"l_c +0\.5: +217 tetrahedra, +(\d+) contact points, first step +([\d.]+) s, then +([\d.]+) s a "
                  r"step, +([\d.]+) s of it solving \( *(\d+) solver iterations\)")


def test_the_panel_step_benchmark_prints_and_writes_each_l_c(tmp_path):
    out = tmp_path / "steps.txt"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--lc", "0.5", "--steps", "3", "--out", str(out)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = out.read_text().splitlines()
    assert lines[1:] == done.stdout.splitlines()
    contacts, _, per_step, solving, iterations = LINE.fullmatch(lines[1]).groups()
    assert int(contacts) > 100 and int(iterations) > 0 and 0.0 < float(solving) <= float(per_step)


def test_the_panel_step_benchmark_refuses_no_steps(tmp_path):
    done = subprocess.run([sys.executable, str(BENCHMARK), "--steps", "0", "--out", str(tmp_path / "x.txt")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "--steps must be at least 1" in done.stderr
