"""Batches on a real cluster that loses machines: workers killed mid-batch, Dask giving up on a task,
and the driver killed; every case ends in the table exactly once, and a rerun resumes.

Each test starts its own ``dask scheduler`` and ``dask worker`` processes on loopback
(tests/dask_harness.py) and kills them with SIGKILL, as a machine that dies. The cases are a
2-block column shaken for 0.3 s by stochastic records, about a second each, so that a batch of
ten runs long enough on two workers to be cut in the middle.
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pyarrow.parquet as pq

from extrados.batch import expand, load_spec, run
from tests.dask_harness import dask_cluster

#: Ten cases of about a second each (a stochastic record per seed, 0.3 s of a shaken column).
SLOW_SPEC = {
    "generator": {"name": "column", "parameters": {"blocks": 2}},
    "analysis": {"type": "dynamic", "duration": 0.3},
    "ground_motions": {"stochastic": {"seeds": list(range(10)),
                                      "parameters": {"duration": 0.3, "dt": 0.01, "t_rise": 0.05, "t_strong": 0.1,
                                                     "decay": 1.0}},
                       "target_pga": [1.0]},
    "outputs": {"names": ["stable", "max_rotation"], "blocks": ["b1"]},
}
#: Seconds a test waits for the batch to reach a state it watches for (rows written, exit).
WAIT_S = 300


def keys_of(spec):
    return sorted(case.key for case in expand(*load_spec(spec)))


def wait_for_rows(out_dir, count, process=None):
    """Wait until ``count`` parts are written in ``out_dir`` (a batch running elsewhere); return their keys."""
    deadline = time.monotonic() + WAIT_S
    while True:
        parts = sorted(path.stem for path in (out_dir / "parts").glob("*.parquet")) \
            if (out_dir / "parts").is_dir() else []
        if len(parts) >= count:
            return parts
        assert process is None or process.poll() is None, "the batch ended before writing the rows awaited"
        assert time.monotonic() < deadline, f"{len(parts)} rows after {WAIT_S} s, awaiting {count}"
        time.sleep(0.05)


def batch_command(spec_path, out_dir, address, *options):
    return [sys.executable, "-m", "extrados", "batch", str(spec_path), "--out", str(out_dir), "--scheduler", address,
            "--quiet", *options]


def test_killed_workers_lose_no_case_and_duplicate_none(tmp_path):
    """SIGKILL one of two workers after two rows, then the survivor too and start a fresh worker:
    Dask runs the lost tasks again (default allowed-failures 3), the tasks wait for a worker while
    none is left, and the table holds each case once, all done."""
    spec_path, out_dir = tmp_path / "spec.json", tmp_path / "out"
    spec_path.write_text(json.dumps(SLOW_SPEC))
    with dask_cluster(tmp_path) as cluster:
        batch = subprocess.Popen(batch_command(spec_path, out_dir, cluster.address), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        first, second = cluster.workers
        wait_for_rows(out_dir, 2, batch)
        cluster.kill_worker(first)
        wait_for_rows(out_dir, 5, batch)
        cluster.kill_worker(second)
        cluster.add_worker()
        stdout, stderr = batch.communicate(timeout=WAIT_S)
    assert batch.returncode == 0, stderr
    assert "10 cases: 10 done, 0 failed, 0 finished before" in stdout
    rows = pq.read_table(out_dir / "cases.parquet").to_pylist()
    assert sorted(row["key"] for row in rows) == keys_of(SLOW_SPEC)  # once each: none lost, none twice
    assert {(row["status"], row["error"]) for row in rows} == {("done", None)}


def test_a_task_dask_gives_up_on_is_a_row_that_the_next_run_computes(tmp_path):
    """With allowed-failures 0, the tasks running on a killed worker fail as KilledWorker: their rows
    say the task did not run, the other cases finish on the survivor, and a rerun computes those
    rows again (and only those), each case still once in the table."""
    out_dir = tmp_path / "out"
    with dask_cluster(tmp_path, environment={"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}) as cluster:
        killer = _kill_after_rows(cluster, out_dir, 2)
        first = run(SLOW_SPEC, out_dir, scheduler=cluster.address, progress=False)
        killer.join()
        lost = [row for row in first.rows if row["status"] == "did_not_run"]
        assert lost, "the killed worker was running a case"
        for row in lost:
            assert row["error"].startswith("the task did not run: KilledWorker") and row["seconds"] is None
        assert {row["status"] for row in first.rows} == {"done", "did_not_run"}
        assert (first.done, first.failed) == (10 - len(lost), len(lost))
        again = run(SLOW_SPEC, out_dir, scheduler=cluster.address, progress=False)
    assert (again.skipped, again.done, again.failed) == (10 - len(lost), len(lost), 0)
    assert sorted(row["key"] for row in again.rows) == keys_of(SLOW_SPEC)
    assert {row["status"] for row in again.rows} == {"done"}
    runs = {row["key"]: row["run"] for row in again.rows}
    assert all(runs[row["key"]] > row["run"] for row in lost)


def _kill_after_rows(cluster, out_dir, count):
    """A started thread that SIGKILLs the cluster's first worker once ``count`` rows are written."""
    def kill():
        wait_for_rows(out_dir, count)
        cluster.kill_worker(cluster.workers[0])

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


def test_a_killed_driver_resumes_and_failures_rerun_only_when_asked(tmp_path):
    """SIGKILL ``extrados batch`` after three rows (and leave a half-written part, as a kill inside a
    write would): the same command computes only the missing cases, the first run's rows keep their
    run id, the temporary is gone; a case that failed with its own error is skipped by a rerun and
    computed again with --retry-failed."""
    spec = json.loads(json.dumps(SLOW_SPEC))
    spec["vary"] = [{"pointer": "/joints/dry/friction", "list": [0.6, -1.0]}]  # -1: the case's own error
    failing = {case.key for case in expand(*load_spec(spec)) if case.inputs["/joints/dry/friction"] < 0}
    spec_path, out_dir = tmp_path / "spec.json", tmp_path / "out"
    spec_path.write_text(json.dumps(spec))
    with dask_cluster(tmp_path) as cluster:
        command = batch_command(spec_path, out_dir, cluster.address)
        driver = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_rows(out_dir, 3, driver)
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait(timeout=60)
        first_rows = [row for path in (out_dir / "parts").glob("*.parquet") for row in pq.read_table(path).to_pylist()]
        assert 3 <= len(first_rows) < 20, "the driver was killed before the batch ended"
        (out_dir / "parts" / f".{min(failing)}.parquet.partial").write_bytes(b"PAR1 cut short")
        resumed = subprocess.run(command, capture_output=True, text=True, timeout=WAIT_S)
        assert resumed.returncode == 0, resumed.stderr
        rows = pq.read_table(out_dir / "cases.parquet").to_pylist()
        retried = subprocess.run(command + ["--retry-failed"], capture_output=True, text=True, timeout=WAIT_S)
    kept = {row["key"]: row["run"] for row in first_rows}
    computed_failing = len(failing - set(kept))
    assert (f"20 cases: {20 - len(kept) - computed_failing} done, {computed_failing} failed, "
            f"{len(kept)} finished before") in resumed.stdout
    assert sorted(row["key"] for row in rows) == keys_of(spec)
    assert list((out_dir / "parts").glob(".*.partial")) == []
    for row in rows:
        assert row["run"] == kept.get(row["key"], row["run"]) and (row["key"] in kept) == (row["run"] in kept.values())
        assert row["status"] == ("failed" if row["key"] in failing else "done")
    assert retried.returncode == 0, retried.stderr
    assert "20 cases: 0 done, 10 failed, 10 finished before" in retried.stdout
    again = {row["key"]: row["run"] for row in pq.read_table(out_dir / "cases.parquet").to_pylist()}
    assert len(again) == 20 and all(again[key] > run for key, run in {r["key"]: r["run"] for r in rows}.items()
                                     if key in failing)


def test_ctrl_c_stops_a_batch_with_a_message_and_no_traceback(tmp_path):
    """Ctrl-C in a terminal (SIGINT to the whole process group: the driver and its embedded cluster's
    workers) ends ``extrados batch`` with exit 130 and a line saying that the finished cases are kept,
    without a Python traceback; the rows written before it stay."""
    spec_path, out_dir = tmp_path / "spec.json", tmp_path / "out"
    spec_path.write_text(json.dumps(SLOW_SPEC))
    command = [sys.executable, "-m", "extrados", "batch", str(spec_path), "--out", str(out_dir), "--workers", "2"]
    # a terminal's foreground command takes SIGINT, even where this test runs with it ignored (a background
    # job of a shell without job control)
    batch = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    kept = wait_for_rows(out_dir, 2, batch)
    os.killpg(batch.pid, signal.SIGINT)
    _, stderr = batch.communicate(timeout=WAIT_S)
    assert batch.returncode == 130, stderr
    assert "extrados: interrupted; the finished cases are kept" in stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    assert set(kept) <= {path.stem for path in (out_dir / "parts").glob("*.parquet")}


def test_the_embedded_workers_drop_only_the_heartbeat_cut_short_by_the_closing_scheduler():
    import logging

    from extrados.batch.quiet_workers import not_a_heartbeat_failure

    def record(message):
        return logging.LogRecord("distributed.worker", logging.ERROR, __file__, 1, message, None, None)

    assert not not_a_heartbeat_failure(record("Failed to communicate with scheduler during heartbeat."))
    assert not_a_heartbeat_failure(record("Compute Failed"))
