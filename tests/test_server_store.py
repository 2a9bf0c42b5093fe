"""The job store under trouble, with real files and processes: a full disk (a small tmpfs, filled
for real), a data directory that cannot be written, garbage written into the table and into its
write-ahead log, a malformed row, a worker stopped by SIGSTOP. Each must end in a clear state — a
failed job with the reason, a 503/507 JSON answer, a start-up error naming the file and the fix —
with no finished job lost."""
import errno
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager

import pytest

from extrados.engine.generators import generate
from extrados.server import create_app
from extrados.server.jobs.store import StoreError
from tests.server_harness import Client, running_service, start_service_process

ARCH = generate("arch", voussoirs=10)
SHORT_DYNAMIC = {"type": "dynamic", "duration": 0.05, "time_step": 0.001, "output_interval": 0.01}
#: A run of several seconds with a result of about 1 MB.
FRAMED_DYNAMIC = {"type": "dynamic", "duration": 2.0, "time_step": 0.001, "output_interval": 0.01}
LONG_DYNAMIC = {"type": "dynamic", "duration": 60.0, "time_step": 0.001, "output_interval": 0.5}


@contextmanager
def small_disk(path, size):
    """A tmpfs of ``size`` mounted at ``path`` (root only; the test is skipped elsewhere)."""
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def fill(folder):
    """Write a file into ``folder`` until its disk is full; returns the file's path."""
    path = os.path.join(folder, "filler")
    with open(path, "wb", buffering=0) as handle:
        for chunk in (1 << 20, 4096, 1):
            try:
                while True:
                    handle.write(b"\0" * chunk)
            except OSError as error:
                assert error.errno == errno.ENOSPC
    return path


def wait_for_worker_end(client, job_id, timeout=300.0):
    """Wait until the worker process of a job has ended."""
    processes = client.app.extensions["extrados"].runner.processes
    deadline = time.monotonic() + timeout
    while job_id in processes:
        assert time.monotonic() < deadline, "the worker did not end"
        time.sleep(0.1)


def submit(client, analysis):
    status, body, _ = client.post("/v1/analyses", {"model": ARCH, "analysis": analysis})
    assert status == 202, body
    return body["url"]


# --- a full disk ------------------------------------------------------------------------------------------

def test_a_full_disk_fails_the_job_with_the_reason_and_refuses_new_jobs_with_507(tmp_path):
    with small_disk(tmp_path / "disk", "16m") as disk, running_service(data_dir=str(disk)) as client:
        url = submit(client, FRAMED_DYNAMIC)
        client.wait_for_job(url, states=("running",), condition=lambda job: job["progress"] > 0)
        filler = fill(disk)
        status, body, _ = client.post("/v1/analyses", {"model": ARCH, "analysis": SHORT_DYNAMIC})
        assert status == 507 and body["error"]["code"] == "storage_full", body
        assert "full" in body["error"]["message"] and "--data-dir" in body["error"]["message"]
        assert client.get("/v1/jobs")[0] == 200
        wait_for_worker_end(client, url.rsplit("/", 1)[1])  # its result could not be written
        os.remove(filler)
        job = client.wait_for_job(url, timeout=300)
        assert job["state"] == "failed" and job["error"]["code"] in ("storage_full", "storage_failed"), job
        assert "full" in job["error"]["message"]
        assert not os.path.exists(os.path.join(disk, "jobs", job["id"], "result.json.partial"))
        # the job's place in the queue is free again, and the next job runs to its end
        assert client.wait_for_job(submit(client, SHORT_DYNAMIC))["state"] == "done"


# --- a data directory that cannot be written, a damaged table ---------------------------------------------

def serve(data_dir):
    """``python -m extrados.server`` on ``data_dir``, expected to refuse to start."""
    return subprocess.run([sys.executable, "-m", "extrados.server", "--port", "0", "--no-warm-up", "--data-dir",
                           str(data_dir)], capture_output=True, text=True, timeout=60)


def test_an_unwritable_data_directory_is_a_clear_start_up_error(tmp_path):
    (tmp_path / "a-file").write_text("not a directory")
    data_dir = tmp_path / "a-file" / "data"
    with pytest.raises(StoreError, match="cannot be written"):
        create_app({"data_dir": str(data_dir)}, start_jobs=False)
    run = serve(data_dir)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert str(data_dir) in run.stderr and "--data-dir" in run.stderr


def test_a_read_only_disk_is_a_clear_start_up_error(tmp_path):
    with small_disk(tmp_path / "disk", "1m") as disk:
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        run = serve(disk)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "cannot be written" in run.stderr and "--data-dir" in run.stderr


@pytest.fixture(scope="module")
def finished_data_dir(tmp_path_factory):
    """A data directory with one finished job whose end is still in the write-ahead log: the service
    that ran it was killed (SIGKILL, no clean-up). Returns (folder, job id, result)."""
    data_dir = tmp_path_factory.mktemp("finished")
    process, base = start_service_process(data_dir, "--no-warm-up")
    try:
        client = Client(base)
        job = client.wait_for_job(submit(client, SHORT_DYNAMIC))
        assert job["state"] == "done"
        result = client.get(job["url"] + "/result")[1]
        # the worker process ends a moment after its job; were it the last to close the table, it
        # would copy the log into it and remove it
        time.sleep(3.0)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    return data_dir, job["id"], result


def copy_of(data_dir, tmp_path):
    copy = tmp_path / "data"
    shutil.copytree(data_dir, copy)
    return copy


def overwrite_with_garbage(path):
    size = max(os.path.getsize(path), 4096)
    with open(path, "wb") as handle:
        handle.write(os.urandom(size))


def test_a_damaged_table_names_the_file_and_the_fix_and_loses_no_finished_job(finished_data_dir, tmp_path):
    source, job_id, result = finished_data_dir
    data_dir = copy_of(source, tmp_path)
    table = data_dir / "jobs.sqlite3"
    for log in data_dir.glob("jobs.sqlite3-*"):  # as a clean stop leaves it: the log copied into the table
        log.unlink()
    overwrite_with_garbage(table)
    run = serve(data_dir)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert str(table) in run.stderr and "move the file aside" in run.stderr
    for path in data_dir.glob("jobs.sqlite3*"):  # what the message says to do
        path.rename(path.with_name(path.name + ".damaged"))
    with running_service(data_dir=str(data_dir), warm_up=False) as client:
        job = client.get(f"/v1/jobs/{job_id}")[1]
        assert job["state"] == "done"
        assert client.get(f"/v1/jobs/{job_id}/result")[1] == result


def test_a_garbage_write_ahead_log_loses_no_finished_job(finished_data_dir, tmp_path, caplog):
    source, job_id, result = finished_data_dir
    data_dir = copy_of(source, tmp_path)
    log = data_dir / "jobs.sqlite3-wal"
    overwrite_with_garbage(log)
    with running_service(data_dir=str(data_dir), warm_up=False) as client:
        job = client.get(f"/v1/jobs/{job_id}")[1]
        assert job["state"] == "done", job
        assert client.get(f"/v1/jobs/{job_id}/result")[1] == result
    assert "moved aside" in caplog.text and (data_dir / "jobs.sqlite3-wal.damaged").exists()


# --- a malformed row, a stopped worker ---------------------------------------------------------------------

def test_a_malformed_row_is_shown_as_damaged_and_the_list_still_answers(tmp_path):
    with running_service(data_dir=str(tmp_path), warm_up=False) as client:
        good = client.wait_for_job(submit(client, SHORT_DYNAMIC))
        bad_id = uuid.uuid4().hex
        with sqlite3.connect(tmp_path / "jobs.sqlite3") as db:
            db.execute("INSERT INTO jobs (id, analysis, n_blocks, state, progress, created, error) "
                       "VALUES (?, 'dynamic', 'many', 'weird', 'half', 'yesterday', 'not json')", (bad_id,))
        status, body, _ = client.get("/v1/jobs")
        assert status == 200, body
        shown = {job["id"]: job for job in body["jobs"]}
        assert shown[good["id"]]["state"] == "done"
        assert shown[bad_id]["state"] == "failed" and shown[bad_id]["error"]["code"] == "damaged_row"
        status, body, _ = client.get(f"/v1/jobs/{bad_id}")
        assert status == 200 and body["error"]["code"] == "damaged_row"
        assert client.get(f"/v1/jobs/{bad_id}/result")[0] == 409


def test_a_stopped_worker_that_is_cancelled_is_ended_and_frees_its_place(tmp_path):
    with running_service(data_dir=str(tmp_path), workers=1) as client:
        url = submit(client, LONG_DYNAMIC)
        job = client.wait_for_job(url, states=("running",), condition=lambda job: job["progress"] > 0)
        process = client.app.extensions["extrados"].runner.processes[job["id"]][0]
        os.kill(process.pid, signal.SIGSTOP)
        assert client.call("DELETE", url)[0] == 202
        assert client.wait_for_job(url, timeout=30)["state"] == "cancelled"
        process.join(timeout=10)
        assert process.exitcode is not None, "the stopped worker was left behind"
        assert client.wait_for_job(submit(client, SHORT_DYNAMIC))["state"] == "done"
