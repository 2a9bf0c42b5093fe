"""benchmarks/batch_throughput.py runs, at a tiny size, so that it cannot rot: its figures are the
lead's to measure on a quiet machine, this only checks that the script ends with its table."""
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "batch_throughput.py"


def test_batch_throughput_runs_at_a_tiny_size(tmp_path):
    out = tmp_path / "batch_throughput.txt"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--case-seconds", "0.2", "--cases", "2", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert lines == done.stdout.splitlines()
    assert [line.split()[:2] for line in lines[3:5]] == [["1", "2"], ["2", "2"]]  # workers, cases
    assert lines[5].startswith("speed-up with 2 workers: ") and "overhead per task" in lines[5]
