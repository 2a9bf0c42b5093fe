"""The job table: one SQLite row per job, its request and result as files beside it.

Layout under the data directory::

    jobs.sqlite3            the table (WAL mode: worker processes write progress while the
                            service reads it)
    jobs/<id>/request.json  the analysis request as submitted
    jobs/<id>/result.json   the result document, written whole then renamed into place
    jobs/<id>/result.npz    its frames and histories, when the request asked for them as npz (engine.io.sidecar)
    jobs/<id>/job.json      the job's row as it was when the job was created and when it finished:
                            what `server.jobs.recovery` restores a finished job from when the
                            table lost it (a damaged write-ahead log, a table moved aside)
    jobs/<id>/keys.json     a batch job's case keys in its spec's order (`server.routes.batches`)
    jobs/<id>/counts.json   its cases, and those done and failed so far (`server.jobs.batch_worker`)
    jobs/<id>/batch/        its results table, the folder extrados.batch.run fills

A job moves queued → running → done | failed | cancelled. Rows outlive a restart: at start-up a
job left ``running`` by a stopped service is marked failed with the reason, queued ones run.

Storage failures (a full disk, a directory that became unwritable, a damaged table) are raised as
`StoreError`, which names the file and what to do and carries the HTTP status (507 full, 503
otherwise); the routes answer it as JSON (`server.errors`).
"""
import errno
import json
import os
import shutil
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager

STATES = ("queued", "running", "done", "failed", "cancelled")
FINISHED = ("done", "failed", "cancelled")
#: The ``analysis`` of a batch job (`server.routes.batches`), beside the analysis types.
BATCH = "batch"
INTERRUPTED_REASON = "interrupted: the service stopped while this job was running; submit it again"

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    analysis TEXT NOT NULL,
    n_blocks INTEGER NOT NULL,
    state TEXT NOT NULL,
    progress REAL NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    error TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    result_bytes INTEGER NOT NULL DEFAULT 0,
    expired INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs (state, created);
"""
COLUMNS = ("id", "analysis", "n_blocks", "state", "progress", "created", "started", "finished", "error",
           "cancel_requested", "result_bytes", "expired")


#: SQLite pages the write-ahead log may hold before it is copied into the table, and bytes it is cut
#: back to after: a small log needs little free space to go on recording jobs on a nearly full disk.
WAL_AUTOCHECKPOINT_PAGES = 100
WAL_SIZE_LIMIT_BYTES = 1024 * 1024


class StoreError(Exception):
    """The data directory cannot hold the jobs: the message names the file and what to do.

    Parameters
    ----------
    message : str
    status : int
        The HTTP status a request that needed the store gets: 507 when the disk is full, 503 otherwise.
    """

    def __init__(self, message, status=503):
        super().__init__(message)
        self.status = status


def disk_full(error):
    """True when an OSError or SQLite error says the disk (or the file size limit) is full."""
    if isinstance(error, OSError):
        return error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    return "full" in str(error)


def store_error(error, path, doing):
    """`StoreError` for an OSError or SQLite error met while ``doing`` something with ``path``."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    if disk_full(error):
        return StoreError(f"the disk holding {path} is full ({reason}) while {doing}: free space there, or start "
                          "the service with another --data-dir", status=507)
    return StoreError(f"cannot use {path} while {doing} ({reason}): check that the service may write there, or "
                      "start it with another --data-dir")


def shrink_log(db):
    """After a write failed on a full disk: copy the write-ahead log into the table and cut it back,
    so that the next try needs less space. Best effort: on a disk that is full to the last byte the
    copy may fail too, and the caller's retry tells."""
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        return False
    return True


def write_atomically(path, data):
    """Write ``data`` (text, written as UTF-8, or bytes) to ``path`` whole or not at all (a partial
    file is removed); returns its size in bytes."""
    partial = path + ".partial"
    try:
        with open(partial, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(partial, path)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise
    return os.path.getsize(path)


def iso_time(seconds):
    """UTC time as ISO 8601 text, or None."""
    if seconds is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int(seconds % 1 * 1000):03d}Z"


class JobStore:
    """The job table of one data directory; safe to share between threads and processes.

    Each thread gets its own SQLite connection; writes are short transactions.
    """

    def __init__(self, data_dir):
        self.data_dir = os.path.abspath(data_dir)
        self.path = os.path.join(self.data_dir, "jobs.sqlite3")
        self._local = threading.local()
        with self.guarded("opening the job table"):
            self.connection().executescript(SCHEMA)

    # --- connections ----------------------------------------------------------------------
    def connection(self):
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
            db.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT_BYTES}")
            self._local.db = db
        return db

    @contextmanager
    def guarded(self, doing):
        """Turn an OSError or SQLite error met while ``doing`` something into a `StoreError`."""
        try:
            yield
        except (OSError, sqlite3.Error) as error:
            raise store_error(error, self.path if isinstance(error, sqlite3.Error) else self.data_dir,
                              doing) from error

    @contextmanager
    def transaction(self):
        db = self.connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if disk_full(error):
                shrink_log(db)
            raise

    # --- files ----------------------------------------------------------------------------
    def job_dir(self, job_id):
        return os.path.join(self.data_dir, "jobs", job_id)

    def request_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "request.json")

    def result_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "result.json")

    def record_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "job.json")

    def sidecar_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "result.npz")

    def keys_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "keys.json")

    def counts_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "counts.json")

    def batch_dir(self, job_id):
        return os.path.join(self.job_dir(job_id), "batch")

    def write_result(self, job_id, text, sidecar=None):
        """Write the result document (UTF-8 JSON bytes) and its npz sidecar (bytes, if any), each
        atomically, the sidecar first; returns their size in bytes (OSError when the disk is full)."""
        size = write_atomically(self.sidecar_path(job_id), sidecar) if sidecar is not None else 0
        return size + write_atomically(self.result_path(job_id), text)

    def write_record(self, job_id):
        """Copy the job's row into its folder (``job.json``). Best effort: the table holds the job
        anyway, and a disk too full for the record is reported by the next write that needs space."""
        row = self.get(job_id)
        if row is None or not os.path.isdir(self.job_dir(job_id)):
            return
        try:
            write_atomically(self.record_path(job_id), json.dumps(row))
        except OSError:
            return

    # --- rows -----------------------------------------------------------------------------
    def create(self, request, analysis, n_blocks, max_active, companions=None):
        """Queue a job; None when ``max_active`` jobs are already queued or running. ``companions``
        ({file name: JSON value}) are written beside the request before the job is queued.

        Raises
        ------
        StoreError
            507 when the disk is full, 503 when the data directory cannot be written; nothing is left behind.
        """
        job_id = uuid.uuid4().hex
        try:
            with self.guarded("queueing a job"):
                queued = self.insert_job(job_id, request, analysis, n_blocks, max_active, companions or {})
        except StoreError:
            self.remove_files(job_id)
            raise
        if not queued:
            self.remove_files(job_id)
            return None
        self.write_record(job_id)
        return job_id

    def insert_job(self, job_id, request, analysis, n_blocks, max_active, companions):
        """Write the job's request and companions, insert its row unless ``max_active`` jobs are active;
        True if inserted."""
        os.makedirs(self.job_dir(job_id))
        write_atomically(self.request_path(job_id), json.dumps(request))
        for name, value in companions.items():
            write_atomically(os.path.join(self.job_dir(job_id), name), json.dumps(value))
        with self.transaction() as db:
            active = db.execute("SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')").fetchone()[0]
            if active >= max_active:
                return False
            db.execute("INSERT INTO jobs (id, analysis, n_blocks, state, created) VALUES (?, ?, ?, 'queued', ?)",
                       (job_id, analysis, n_blocks, time.time()))
        return True

    def get(self, job_id):
        """The job's row as a dict, or None."""
        row = self.connection().execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return dict(row) if row is not None else None

    def set_state(self, job_id, state, **values):
        """Move a job to ``state``; ``values`` are other columns (error as a dict)."""
        if "error" in values and values["error"] is not None:
            values["error"] = json.dumps(values["error"])
        columns = ", ".join(f"{name} = ?" for name in values)
        with self.transaction() as db:
            db.execute(f"UPDATE jobs SET state = ?{', ' + columns if columns else ''} WHERE id = ?",
                       (state, *values.values(), job_id))
        if state in FINISHED:
            self.write_record(job_id)

    def claim(self, job_id):
        """Mark a queued job running; False when it is no longer queued (cancelled meanwhile)."""
        with self.transaction() as db:
            cursor = db.execute("UPDATE jobs SET state = 'running', started = ? WHERE id = ? AND state = 'queued'",
                                (time.time(), job_id))
            return cursor.rowcount == 1

    def finish_if_running(self, job_id, state, error):
        """Finish a job still marked running (the worker may have finished it first); True if it was."""
        with self.transaction() as db:
            cursor = db.execute("UPDATE jobs SET state = ?, finished = ?, error = ? WHERE id = ? AND state = 'running'",
                                (state, time.time(), json.dumps(error) if error else None, job_id))
            finished = cursor.rowcount == 1
        if finished:
            self.write_record(job_id)
        return finished

    def set_progress(self, job_id, fraction):
        with self.transaction() as db:
            db.execute("UPDATE jobs SET progress = ? WHERE id = ?", (float(fraction), job_id))

    def request_cancel(self, job_id):
        """Flag a job for cancelling, and cancel it at once if it is still queued (one transaction, so a
        dispatcher claiming it meanwhile finds it flagged)."""
        with self.transaction() as db:
            db.execute("UPDATE jobs SET cancel_requested = 1 WHERE id = ?", (job_id,))
            cursor = db.execute("UPDATE jobs SET state = 'cancelled', finished = ? WHERE id = ? AND state = 'queued'",
                                (time.time(), job_id))
            cancelled = cursor.rowcount == 1
        if cancelled:
            self.write_record(job_id)

    def cancel_requested(self, job_id):
        row = self.connection().execute("SELECT cancel_requested FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return bool(row and row[0])

    def latest(self, state=None, limit=100):
        """Rows of the newest jobs (of one state, when given), newest first."""
        query = "SELECT * FROM jobs" + (" WHERE state = ?" if state else "") + " ORDER BY created DESC LIMIT ?"
        rows = self.connection().execute(query, ((state,) if state else ()) + (limit,)).fetchall()
        return [dict(row) for row in rows]

    def ids_in_state(self, state):
        """Ids of the jobs in ``state``, oldest first."""
        rows = self.connection().execute("SELECT id FROM jobs WHERE state = ? ORDER BY created", (state,)).fetchall()
        return [row[0] for row in rows]

    def queued(self):
        """Ids of queued jobs, oldest first."""
        return self.ids_in_state("queued")

    def mark_interrupted(self):
        """At start-up: jobs left running by a stopped service fail with the reason. Returns how many."""
        error = {"message": INTERRUPTED_REASON, "code": "interrupted"}
        return sum(self.finish_if_running(job_id, "failed", error) for job_id in self.ids_in_state("running"))

    def restore(self, row):
        """Put back a job's row as its record (``job.json``) has it (`server.jobs.recovery`)."""
        columns = [name for name in row if name in COLUMNS]
        with self.transaction() as db:
            db.execute(f"INSERT OR REPLACE INTO jobs ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                       [row[name] for name in columns])

    # --- expiry ---------------------------------------------------------------------------
    def expire(self, max_age_s, max_bytes, now=None):
        """Expire finished jobs older than ``max_age_s``, then the oldest finished ones until the
        result files total at most ``max_bytes``. Rows stay (the job says it expired); files go.
        Returns the ids expired."""
        now = time.time() if now is None else now
        db = self.connection()
        finished = db.execute("SELECT id, finished, result_bytes FROM jobs WHERE state IN ('done', 'failed', "
                              "'cancelled') AND expired = 0 ORDER BY finished").fetchall()
        total = sum(row["result_bytes"] for row in finished)
        expired = []
        for row in finished:
            if now - row["finished"] > max_age_s or total > max_bytes:
                expired.append(row["id"])
                total -= row["result_bytes"]
        for job_id in expired:
            with self.transaction() as db:
                db.execute("UPDATE jobs SET expired = 1 WHERE id = ?", (job_id,))
            self.remove_files(job_id, keep_record=True)
            self.write_record(job_id)
        return expired

    def remove_files(self, job_id, keep_record=False):
        """Remove the job's request and result (a batch's keys and table), and its record and a batch's
        counts unless ``keep_record`` (an expired job's record, a few hundred bytes, keeps saying what it
        was); then its folder if empty."""
        paths = [self.request_path(job_id), self.result_path(job_id), self.sidecar_path(job_id),
                 self.keys_path(job_id)]
        if not keep_record:
            paths += [self.record_path(job_id), self.counts_path(job_id)]
        for path in paths:
            if os.path.exists(path):
                os.remove(path)
        if os.path.isdir(self.batch_dir(job_id)):
            shutil.rmtree(self.batch_dir(job_id))
        if os.path.isdir(self.job_dir(job_id)) and not os.listdir(self.job_dir(job_id)):
            os.rmdir(self.job_dir(job_id))


def job_document(row):
    """The job as the API shows it (DESIGN sec. 6); a row that cannot be read (a damaged table, a row
    written by hand) is shown as a failed job that says so, never as an error of the whole list."""
    try:
        return readable_job_document(row)
    except (TypeError, ValueError, KeyError, OverflowError) as error:
        return damaged_job_document(row, error)


def readable_job_document(row):
    """`job_document` of a row whose columns hold what the table's schema says."""
    if row["state"] not in STATES:
        raise ValueError(f"unknown state {row['state']!r}")
    doc = {"id": row["id"], "state": row["state"], "analysis": str(row["analysis"]), "blocks": int(row["n_blocks"]),
           "progress": 1.0 if row["state"] == "done" else float(row["progress"]),
           "created": iso_time(row["created"]), "started": iso_time(row["started"]),
           "finished": iso_time(row["finished"]), "url": f"/v1/jobs/{row['id']}",
           "result_url": result_url(row),
           "expired": bool(row["expired"])}
    if row["started"] is not None:
        end = row["finished"] if row["finished"] is not None else time.time()
        doc["seconds"] = round(end - row["started"], 3)
    if row["error"]:
        error = json.loads(row["error"])
        if not isinstance(error, dict):
            raise ValueError("the error column is not a JSON object")
        doc["error"] = error
    if row["cancel_requested"] and row["state"] in ("queued", "running"):
        doc["cancel_requested"] = True
    return doc


def result_url(row):
    """Where a job's result is: a batch's table (read while it runs), a finished analysis's document."""
    if row["analysis"] == BATCH:
        return f"/v1/batches/{row['id']}/table"
    return f"/v1/jobs/{row['id']}/result" if row["state"] in ("done", "cancelled") else None


def damaged_job_document(row, error):
    return {"id": str(row["id"]), "state": "failed", "progress": 0.0, "created": None, "started": None, "finished": None, "url": f"/v1/jobs/{row['id']}", "result_url": None,
            "expired": False,
            "error": {"message": f"this job's row in the job table is damaged ({error}); submit the job again",
                      "code": "damaged_row"}}
