"""benchmarks/solvers.py runs its table at a small size: every solver asked for has a row with its residual,
and the interior-point reference and APGD, both converged on the 20-voussoir arch, give the same end speed.

The speeds are compared to the static verdict's threshold TOL.static_velocity_relative g h: two
solvers within it tell the same verdict (the threshold is ten times the velocity noise of a solve at
the static tolerance, engine/tolerance.py)."""
import subprocess
import sys
from pathlib import Path

from extrados.engine.analysis.static import STATIC_STEP
from extrados.engine.generators import STANDARD_GRAVITY
from extrados.engine.tolerance import SOLVER_DEFAULTS, TOL

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "solvers.py"
SOLVERS = ("apgd", "reference")


def table_rows(lines):
    """{solver: the row's fields} of the table's lines that follow its header."""
    start = next(k for k, line in enumerate(lines) if line.startswith("case "))
    return {fields[3]: fields for fields in (line.split() for line in lines[start + 1:])}


def test_the_solver_benchmark_prints_every_solver_and_apgd_agrees_with_the_reference(tmp_path):
    out = tmp_path / "solvers.txt"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--quick", "--cases", "arch20", "--solvers", *SOLVERS,
                           "--out", str(out)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert lines == done.stdout.splitlines()[:-1]            # the file holds the table printed, then "wrote ..."
    assert lines[2] == f"iteration caps: arch20 {SOLVER_DEFAULTS.max_iterations}"
    assert "warm-up (numba compilation or cache load)" in lines[3]
    rows = table_rows(lines)
    assert sorted(rows) == sorted(SOLVERS)
    for fields in rows.values():
        case, contacts, blocks, _, iterations, seconds, converged, residual, speed = fields
        assert case == "arch20" and int(blocks) == 21 and int(contacts) > 0 and int(iterations) > 0
        assert float(seconds) > 0.0 and converged == "True"
        assert float(residual) <= SOLVER_DEFAULTS.static_tolerance
    speeds = [float(rows[name][-1]) for name in SOLVERS]
    assert abs(speeds[0] - speeds[1]) <= TOL.static_velocity_relative * STANDARD_GRAVITY * STATIC_STEP
