"""The job table: one SQLite row per job, its request and result as files beside it.

Layout under the data directory::

    jobs.sqlite3            the table (WAL mode: worker processes write progress while the
                            service reads it)
    jobs/<id>/request.json  the analysis request as submitted
    jobs/<id>/result.json   the result document, written whole then renamed into place
    jobs/<id>/result.npz    its frames and histories, when the request asked for them as npz (engine.io.sidecar)

A job moves queued → running → done | failed | cancelled. Rows outlive a restart: at start-up a
job left ``running`` by a stopped service is marked failed with the reason, queued ones run.
"""
import json
import os
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager

STATES = ("queued", "running", "done", "failed", "cancelled")
FINISHED = ("done", "failed", "cancelled")
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
        os.makedirs(os.path.join(self.data_dir, "jobs"), exist_ok=True)
        self.path = os.path.join(self.data_dir, "jobs.sqlite3")
        self._local = threading.local()
        self.connection().executescript(SCHEMA)

    # --- connections ----------------------------------------------------------------------
    def connection(self):
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    @contextmanager
    def transaction(self):
        db = self.connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # --- files ----------------------------------------------------------------------------
    def job_dir(self, job_id):
        return os.path.join(self.data_dir, "jobs", job_id)

    def request_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "request.json")

    def result_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "result.json")

    def sidecar_path(self, job_id):
        return os.path.join(self.job_dir(job_id), "result.npz")

    def write_result(self, job_id, text, sidecar=None):
        """Write the result document (UTF-8 JSON bytes) and its npz sidecar (bytes, if any) atomically, the
        sidecar first; returns their size in bytes."""
        written = [(self.sidecar_path(job_id), sidecar)] if sidecar is not None else []
        for path, data in [*written, (self.result_path(job_id), text)]:
            partial = path + ".partial"
            with open(partial, "wb") as handle:
                handle.write(data)
            os.replace(partial, path)
        return sum(os.path.getsize(path) for path, _ in written) + os.path.getsize(self.result_path(job_id))

    # --- rows -----------------------------------------------------------------------------
    def create(self, request, analysis, n_blocks, max_active):
        """Queue a job; None when ``max_active`` jobs are already queued or running."""
        job_id = uuid.uuid4().hex
        os.makedirs(self.job_dir(job_id))
        with open(self.request_path(job_id), "w", encoding="utf-8") as handle:
            json.dump(request, handle)
        with self.transaction() as db:
            active = db.execute("SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')").fetchone()[0]
            if active >= max_active:
                queued = False
            else:
                db.execute("INSERT INTO jobs (id, analysis, n_blocks, state, created) VALUES (?, ?, ?, 'queued', ?)",
                           (job_id, analysis, n_blocks, time.time()))
                queued = True
        if not queued:
            self.remove_files(job_id)
            return None
        return job_id

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
            return cursor.rowcount == 1

    def set_progress(self, job_id, fraction):
        with self.transaction() as db:
            db.execute("UPDATE jobs SET progress = ? WHERE id = ?", (float(fraction), job_id))

    def request_cancel(self, job_id):
        """Flag a job for cancelling, and cancel it at once if it is still queued (one transaction, so a
        dispatcher claiming it meanwhile finds it flagged)."""
        with self.transaction() as db:
            db.execute("UPDATE jobs SET cancel_requested = 1 WHERE id = ?", (job_id,))
            db.execute("UPDATE jobs SET state = 'cancelled', finished = ? WHERE id = ? AND state = 'queued'",
                       (time.time(), job_id))

    def cancel_requested(self, job_id):
        row = self.connection().execute("SELECT cancel_requested FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return bool(row and row[0])

    def latest(self, state=None, limit=100):
        """Rows of the newest jobs (of one state, when given), newest first."""
        query = "SELECT * FROM jobs" + (" WHERE state = ?" if state else "") + " ORDER BY created DESC LIMIT ?"
        rows = self.connection().execute(query, ((state,) if state else ()) + (limit,)).fetchall()
        return [dict(row) for row in rows]

    def queued(self):
        """Ids of queued jobs, oldest first."""
        rows = self.connection().execute("SELECT id FROM jobs WHERE state = 'queued' ORDER BY created").fetchall()
        return [row[0] for row in rows]

    def mark_interrupted(self):
        """At start-up: jobs left running by a stopped service fail with the reason. Returns how many."""
        error = json.dumps({"message": INTERRUPTED_REASON, "code": "interrupted"})
        with self.transaction() as db:
            cursor = db.execute("UPDATE jobs SET state = 'failed', error = ?, finished = ? WHERE state = 'running'",
                                (error, time.time()))
            return cursor.rowcount

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
            self.remove_files(job_id)
        return expired

    def remove_files(self, job_id):
        for path in (self.request_path(job_id), self.result_path(job_id), self.sidecar_path(job_id)):
            if os.path.exists(path):
                os.remove(path)
        if os.path.isdir(self.job_dir(job_id)) and not os.listdir(self.job_dir(job_id)):
            os.rmdir(self.job_dir(job_id))


def job_document(row):
    """The job as the API shows it (DESIGN sec. 6)."""
    doc = {"id": row["id"], "state": row["state"], "analysis": row["analysis"], "blocks": row["n_blocks"],
           "progress": 1.0 if row["state"] == "done" else row["progress"],
           "created": iso_time(row["created"]), "started": iso_time(row["started"]),
           "finished": iso_time(row["finished"]), "url": f"/v1/jobs/{row['id']}",
           "result_url": f"/v1/jobs/{row['id']}/result" if row["state"] in ("done", "cancelled") else None,
           "expired": bool(row["expired"])}
    if row["started"] is not None:
        end = row["finished"] if row["finished"] is not None else time.time()
        doc["seconds"] = round(end - row["started"], 3)
    if row["error"]:
        doc["error"] = json.loads(row["error"])
    if row["cancel_requested"] and row["state"] in ("queued", "running"):
        doc["cancel_requested"] = True
    return doc
