"""benchmarks/dome_load_factor.py runs at a small size: compas_dem's dome with aligned hoops (8 x 4) collapses
sideways at the limit-analysis LP's factor, or above it by no more than the LP's inscribed friction pyramid
allows (1 / cos(pi / 8), engine.analysis.limit). Until diagonal neighbours stopped making line contacts
(engine.collision.face_contacts.faces_only_abut), their arbitrary normals let the LP prestress the hoops and
stand at max_factor."""
import math
import subprocess
import sys
from pathlib import Path

import compas_dem  # noqa: F401  (a test extra: pip install -e '.[test]'; a missing one fails here, never skips)

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "dome_load_factor.py"
MAX_FACTOR = 10.0   # the load factor request's default


def test_the_dome_benchmark_prints_its_factors_solves_and_settle_runs(tmp_path):
    out = tmp_path / "dome_load_factor.txt"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--domes", "8x4", "--out", str(out)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert lines == done.stdout.splitlines()[:-1]
    dome, blocks, contacts, lp, nscd, solves, settle, settle_seconds, total = lines[-1].split()
    assert dome == "8x4" and int(blocks) == 32 and int(contacts) > 0
    assert 0.5 < float(lp) < 1.0                      # measured 0.8091
    assert float(lp) <= float(nscd) <= float(lp) / math.cos(math.pi / 8)   # measured 0.8419
    assert 0 < int(settle) <= int(solves)              # near the collapse factor the verdicts need settle runs
    assert 0.0 < float(settle_seconds) < float(total)
