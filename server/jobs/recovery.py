"""Opening a data directory as the service starts: what is wrong with it is said once, with the
file and the fix, and what a damaged table lost of the finished jobs is restored.

- A directory the service cannot write (a read-only disk, a path through a file, no permission)
  stops the start with the directory named (`StoreError`; ``extrados serve`` exits 2).
- A table SQLite cannot read (``jobs.sqlite3`` overwritten, truncated) stops the start with the
  file named and the fix: move it aside; the next start rebuilds the finished jobs from their
  folders.
- A write-ahead log whose header is not SQLite's (``jobs.sqlite3-wal`` overwritten) would be
  dropped by SQLite without a word, and with it every job that finished since its last copy into
  the table. It is moved aside with a warning in the log.
- Each job's folder holds its row as of its end (``job.json``, `JobStore.write_record`): a finished
  job the table does not have, or has as queued or running, is put back as it ended.
"""
import json
import logging
import os
import sqlite3
import tempfile

from extrados.server.jobs.store import FINISHED, JobStore, StoreError

LOG = logging.getLogger("extrados.jobs")
#: The first four bytes of a write-ahead log SQLite wrote (big- or little-endian checksums),
#: https://www.sqlite.org/fileformat2.html#walformat
WAL_MAGIC = (bytes.fromhex("377f0682"), bytes.fromhex("377f0683"))


def open_store(data_dir):
    """The job table of ``data_dir``, checked, with the finished jobs its folders say it lost put back.

    Raises
    ------
    StoreError
        When the directory cannot be written or the table cannot be read; the message names the
        file and what to do.
    """
    data_dir = os.path.abspath(data_dir)
    check_writable(data_dir)
    table = os.path.join(data_dir, "jobs.sqlite3")
    set_aside_damaged_log(table)
    try:
        store = JobStore(data_dir)
        check_integrity(store)
    except StoreError as error:
        cause = error.__cause__
        if isinstance(cause, sqlite3.DatabaseError) and not isinstance(cause, sqlite3.OperationalError):
            raise damaged_table(table, cause) from cause
        raise
    restored = restore_finished(store)
    if restored:
        LOG.warning("%d finished job(s) missing from %s restored from their folders", restored, table)
    return store


def check_writable(data_dir):
    """StoreError unless the service can create files under ``data_dir``."""
    try:
        os.makedirs(os.path.join(data_dir, "jobs"), exist_ok=True)
        with tempfile.TemporaryFile(dir=data_dir):
            pass
    except OSError as error:
        raise StoreError(f"the data directory {data_dir} cannot be written ({error.strerror or error}): start the "
                         "service with a --data-dir it may write (default ~/.extrados)") from error


def damaged_table(table, cause):
    return StoreError(f"the job table {table} is damaged ({cause}): stop the service, move the file aside (e.g. "
                      f"mv {table} {table}.damaged) and start again; the finished jobs are restored from their "
                      f"folders under {os.path.join(os.path.dirname(table), 'jobs')}")


def check_integrity(store):
    """StoreError (from a DatabaseError) when SQLite's quick check finds the table damaged."""
    with store.guarded("checking the job table"):
        verdict = store.connection().execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(verdict)


def set_aside_damaged_log(table):
    """Move ``table``'s write-ahead log aside (with a warning) when its header is not one SQLite wrote."""
    log = table + "-wal"
    try:
        with open(log, "rb") as handle:
            magic = handle.read(4)
    except FileNotFoundError:
        return
    if not magic or magic in WAL_MAGIC:
        return
    os.replace(log, log + ".damaged")
    if os.path.exists(table + "-shm"):
        os.remove(table + "-shm")  # the index of the log set aside
    LOG.warning("the write-ahead log %s is not SQLite's (damaged); moved aside to %s.damaged: jobs that finished "
                "since its last copy into the table are restored from their folders", log, log)


def restore_finished(store):
    """Put back the finished jobs whose row is missing or not finished; returns how many."""
    restored = 0
    jobs = os.path.join(store.data_dir, "jobs")
    for job_id in sorted(os.listdir(jobs)):
        record = read_record(store, job_id)
        if record is None or record.get("state") not in FINISHED:
            continue
        row = store.get(job_id)
        if row is None or row["state"] not in FINISHED:
            with store.guarded("restoring a finished job"):
                store.restore(record)
            restored += 1
    return restored


def read_record(store, job_id):
    """The job's record (``job.json``) as a dict, or None when it is missing or unreadable (logged)."""
    path = store.record_path(job_id)
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        LOG.warning("cannot read the job record %s (%s); skipped", path, error)
        return None
    if not isinstance(record, dict) or record.get("id") != job_id:
        LOG.warning("the job record %s is not this job's; skipped", path)
        return None
    return record
