"""benchmarks/warm_steps.py on a short run: each solver named re-solves the same sampled CCPs of the run, from the
run's start, and every one of them reaches the run's tolerance (the conv column), with its iterations and times."""
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "warm_steps.py"
SOLVERS = ("apgd", "newton")


def test_the_warm_step_benchmark_solves_the_same_steps_with_every_solver(tmp_path):
    out = tmp_path / "warm_steps.txt"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--cases", "wall_gap", "--solvers", *SOLVERS,
                           "--duration", "0.02", "--every", "2", "--out", str(out)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = out.read_text().splitlines()
    assert lines == done.stdout.splitlines()[:-1]            # the file holds the table printed, then "wrote ..."
    start = next(k for k, line in enumerate(lines) if line.startswith("case "))
    rows = {fields[1]: fields for fields in (line.split() for line in lines[start + 1:])}
    assert sorted(rows) == sorted(SOLVERS)
    counts = set()
    for case, _, solves, iterations, mean_ms, max_ms, converged in rows.values():
        assert case == "wall_gap" and float(iterations) > 0.0 and 0.0 < float(mean_ms) <= float(max_ms)
        assert converged == f"{solves}/{solves}"
        counts.add(int(solves))
    assert len(counts) == 1 and counts.pop() >= 5           # 10 steps, every second CCP sampled
