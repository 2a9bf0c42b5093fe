"""benchmarks/load_factor_solvers.py runs at a small size: a row per arch, load place and solver, each NSCD
load factor within the tolerance of issue 4 of the limit-analysis LP's (tests/test_load_factor.py)."""
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "load_factor_solvers.py"
SOLVERS = ("apgd", "auto")
#: NSCD bisection vs our LP (issue 4, tests/test_load_factor.py).
NSCD_VS_LP_TOLERANCE = 0.05


def test_the_load_factor_benchmark_prints_a_row_per_case_and_solver(tmp_path):
    out = tmp_path / "load_factor_solvers.txt"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--voussoirs", "12", "--solvers", *SOLVERS,
                           "--out", str(out)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert lines == done.stdout.splitlines()[:-1]
    rows = [line.split() for line in lines[lines.index(next(x for x in lines if x.startswith("case "))) + 1:]]
    assert [(fields[0], fields[1], fields[2]) for fields in rows] == [
        ("arch12", place, solver) for place in ("crown", "quarter") for solver in SOLVERS]
    for case, place, solver, ran, solves, seconds, nscd, lp, gap in rows:
        assert ran == ("newton" if solver == "auto" else "apgd")
        assert int(solves) > 0 and float(seconds) > 0.0
        assert abs(float(nscd) - float(lp)) <= NSCD_VS_LP_TOLERANCE * float(lp)
