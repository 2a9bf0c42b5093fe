"""examples/spandrel_collapse_study.py at a tenth of a second: its table and JSON, and the first physical fact
of the sweep: the seed's displacement law starts the ground at 0.31 m/s, a jump that makes the wall slide and
settle at once, which a ground starting from rest does not."""
import json
import subprocess
import sys
from pathlib import Path

STUDY = Path(__file__).resolve().parents[1] / "examples" / "spandrel_collapse_study.py"


def test_the_study_tabulates_each_variant_and_the_ground_s_jump_settles_the_wall(tmp_path):
    done = subprocess.run([sys.executable, str(STUDY), "--duration", "0.1", "--pga", "0.2", "--variants", "baseline",
                           "from_rest", "--jobs", "1", "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    rows = {row["variant"]: row for row in json.loads((tmp_path / "study.json").read_text())}
    assert sorted(rows) == ["baseline", "from_rest"]
    table = (tmp_path / "study.md").read_text()
    for row in rows.values():
        assert f"| {row['variant']} | 0.2 | {1e3 * row['largest_drop_m']:.1f} |" in table
        assert row["unconverged_steps"] == 0 and row["collapse_s"] is None
    assert rows["baseline"]["largest_drop_m"] > 2e-3          # measured 4.2 mm at 0.1 s
    assert rows["from_rest"]["largest_drop_m"] < 0.25 * rows["baseline"]["largest_drop_m"]  # measured 0.4 mm
