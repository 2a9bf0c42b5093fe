"""Housner's verification of a batch (issue 17): one rigid block under 30 stochastic records rocks as
Housner's ODE predicts under the very same records, computed on real Dask.

The block is seed 003's, 0.25 x 0.5 x 1.0 m (alpha = 0.2450 rad), on a rigid slab with friction 1.5,
shaken along x by Kanai-Tajimi records 0-29 scaled to PGA 4 m/s^2 (examples/rocking_ensemble.py, which
runs it with 100 records). Each case runs through extrados.batch.run on a LocalCluster of two worker
processes; Housner's ODE (extrados.batch.housner) reads each case's own model document, so its record
is the batch's, baseline correction included, and its alpha, R and p come from the block's mass
properties. A case has collapsed once |theta| reaches pi/4 (extrados.batch.housner.COLLAPSE_ANGLE): at
PGA 4 m/s^2 < g tan(pi/4 - alpha) = 5.89 m/s^2 a block past it can only fall, and the engine's block,
whose theta keeps growing as it falls, passes it whenever it falls.

Time step (measured 2026-11-27, same records, Housner's reference unchanged). Before the energy impact
law (issue 18, engine/contact/impact_energy.py) NSCD dissipated more per impact than Housner's r at
coarse steps, so its small rocking amplitudes came out low and the CDF shifted left: at h = 1 ms KS
distance 0.167 (5/30: failed), collapsed 4/30 against Housner's 5/30; at 0.5 ms 0.100 (failed, not
below 0.1); at 0.25 ms 0.067 (passed). With the law, each impact keeps Housner's r at any step:

- h = 1 ms: KS distance 0.067 (2/30, p = 1.0), collapsed 5/30 and 5/30 (intervals 0.073-0.336):
  passes. The test uses this step, four times coarser than before.

At every step the engine's block slides only as it lands after overturning (friction 1.5). Before the
law the largest single differences did not shrink with h (record 7: 0.031 alpha against Housner's 0.181; record 26:
0.034 against 0.014): a pulse barely above g tan alpha lifts the block by an amount very sensitive to
the contact's compliance, where Housner's block is perfectly rigid.
Cost: the ensemble took 690 s at 0.25 ms and 370 s at 1 ms before the law; this file took 483 s at 1 ms
with it (its four tests, compilation included) on the 2 cores shared with other runs, far over the
issue's 60-90 s budget; no timing here is a benchmark.
"""
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from extrados.engine.dynamics.rocking import RockingBody
from extrados.engine.generators import generate
from extrados.engine.ground_motion import baseline_corrected

from extrados.batch import expand, load_spec
from extrados.batch.housner import ground_acceleration, rocking_body
from extrados.batch.runner import WORKER_ENVIRONMENT
from tests.scripts import load_script

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "rocking_ensemble.py"
#: Records and their PGA (m/s^2): the block rocks under every one and overturns under some.
RECORDS, PGA = 30, 4.0
#: s, the engine's time step: 1 ms passes since the energy impact law (module docstring).
TIME_STEP = 1e-3
#: Issue 17: the NSCD and Housner CDFs of theta_max / alpha within this Kolmogorov-Smirnov distance.
KS_LIMIT = 0.1
#: Mass properties computed from the block's vertices against the rectangle's closed form (relative).
ROUNDOFF = 1e-12


def load_example():
    """examples/rocking_ensemble.py as a module: its spec, its run on a cluster and its comparison."""
    return load_script(EXAMPLE)


def test_the_block_is_housners_rectangle():
    model = generate("rocking_block", width=0.25, depth=0.5, height=1.0)
    body, rectangle = rocking_body(model, "block"), RockingBody.rectangle(0.25, 1.0)
    for name in ("alpha", "radius", "p", "restitution"):
        assert getattr(body, name) == pytest.approx(getattr(rectangle, name), rel=ROUNDOFF)


def test_the_reference_reads_the_record_the_case_saw():
    example = load_example()
    case = expand(*load_spec(example.ensemble_spec(1, PGA, TIME_STEP)))[0]
    motion = case.model["support_motion"]
    corrected = baseline_corrected(motion["dt"], np.asarray(motion["accelerations"]))[:, 0]
    acceleration = ground_acceleration(case.model)
    samples = [acceleration(k * motion["dt"]) for k in range(len(corrected))]
    np.testing.assert_allclose(samples, corrected, rtol=0, atol=ROUNDOFF * PGA)
    assert max(abs(value) for value in corrected) == pytest.approx(PGA, rel=1e-3)  # scaled, then corrected


def test_nscd_rocks_as_housner_under_the_same_records(tmp_path):
    from distributed import LocalCluster

    example = load_example()
    spec = example.ensemble_spec(RECORDS, PGA, TIME_STEP)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      env=WORKER_ENVIRONMENT) as cluster:
        rows, references = example.run_ensemble(spec, tmp_path, cluster.scheduler_address)
    summary = example.compare(spec, rows, references)
    print(json.dumps(summary))
    assert len(rows) == RECORDS and summary["collapse_is_final"] and summary["slid_without_collapse"] == 0
    nscd, housner = summary["nscd"], summary["housner"]
    assert 0 < housner["collapsed"] < RECORDS                           # it rocks, and sometimes overturns
    assert summary["ks_distance"] < KS_LIMIT
    assert housner["interval"][0] <= nscd["fraction"] <= housner["interval"][1]
    assert nscd["interval"][0] <= housner["fraction"] <= nscd["interval"][1]


def test_the_example_runs_end_to_end(tmp_path):
    done = subprocess.run([sys.executable, str(EXAMPLE), "--count", "2", "--time-step", "1e-3", "--workers", "1",
                           "--out", str(tmp_path)], check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "rocking_ensemble.json").read_text())
    assert summary["nscd"]["cases"] == summary["housner"]["cases"] == 2
    assert summary["collapse_ratio"] == pytest.approx(math.pi / 4 / summary["alpha"])
    assert len(pq.read_table(tmp_path / "cases.parquet")) == 2
    assert len(json.loads((tmp_path / "housner.json").read_text())) == 2
    assert (tmp_path / "rocking_ensemble.png").stat().st_size > 0
