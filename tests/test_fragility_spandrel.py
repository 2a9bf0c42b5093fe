"""examples/fragility_spandrel.py cut to a test: the seed 000 spandrel wall under one stochastic record at two
PGA levels for 0.1 s, in plane and out of plane, on a Dask cluster of two workers (``--scheduler``).

So short a shake moves no block by the default collapse threshold (0.34 m); the test marks collapse at
0.5 mm so that the strong level collapses and the weak one does not, and checks the pipeline: both batches,
their reports, the figure of both curves and the summary in g.
"""
import json
from pathlib import Path

import matplotlib.image
import pytest

from extrados.engine.post.fragility import collapse_counts, fit_fragility
from tests.scripts import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "fragility_spandrel.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
G = 9.80665


def load_example():
    return load_script(SCRIPT)


@pytest.fixture(scope="module")
def scheduler():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_example_writes_both_fragility_curves(tmp_path, scheduler):
    example = load_example()
    example.main(["--records", "1", "--pga", "0.05", "2.0", "--duration", "0.1", "--collapse-displacement", "5e-4",
                  "--scheduler", scheduler, "--out", str(tmp_path)])
    summary = json.loads((tmp_path / "fragility_spandrel.json").read_text())
    assert summary["keystone"] == "v7" and summary["records_per_level"] == 1
    for folder in ("in_plane", "out_of_plane"):
        rows = json.loads((tmp_path / folder / "cases.json").read_text())
        assert [row["error"] for row in rows] == [None, None]
        assert [row["target_pga"] for row in rows] == pytest.approx([0.05 * G, 2.0 * G])
        assert rows[0]["collapse"] is False and rows[1]["collapse"] is True
        counts = collapse_counts([row["target_pga"] for row in rows], [row["collapse"] for row in rows])
        direction = summary[folder]
        assert direction["pga_g"] == pytest.approx([0.05, 2.0]) and direction["collapses"] == [0, 1]
        assert direction["median_g"] == pytest.approx(fit_fragility(counts).median / G, rel=1e-12)
        report = json.loads((tmp_path / folder / "report.json").read_text())
        assert report["columns"]["response"] == "max_displacement[v7]"
    picture = tmp_path / "fragility_spandrel.png"
    assert picture.read_bytes()[:8] == PNG_SIGNATURE and matplotlib.image.imread(picture).shape[1] > 400
