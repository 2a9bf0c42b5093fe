"""The results table of a batch: one row per case, kept as it fills, consolidated to Parquet, CSV and JSON.

Each finished case writes ``parts/<key>.parquet`` (one row, written to a temporary name then renamed,
so a killed batch leaves whole parts only, and a rerun removes the temporaries a kill left). A row's
``status`` says what a rerun does with it (``keys_to_skip``): a case ``done`` is skipped; a case
``failed`` with its own error (a ModelError, a solver exception) is deterministic, so it is skipped
too unless failures are retried; a case whose task ``did_not_run`` (its worker died, Dask gave up
on it as a KilledWorker, its future was cancelled) is computed again on every rerun, its new row
replacing the old part. ``consolidate`` gathers the parts into ``cases.parquet`` with ``cases.csv``
and ``cases.json`` beside it. A full result document goes to ``results/<key>.json``.
"""
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.csv
import pyarrow.parquet as pq

from extrados.engine.io import strict_json

#: The table's first columns, before the case's inputs and outputs.
KEY_COLUMNS = ("key",)
#: Its last columns: the row's status (DONE, FAILED, DID_NOT_RUN), what went wrong, the case's time
#: on its worker (s), the run that computed it (the batch's start, ISO 8601 UTC) and when the case
#: finished (ISO 8601 UTC).
RECORD_COLUMNS = ("status", "error", "seconds", "run", "finished_at")
#: A row's status: computed without error, computed with its own error, or never computed by a worker.
DONE, FAILED, DID_NOT_RUN = "done", "failed", "did_not_run"


def keys_to_skip(out_dir, retry_failed=False):
    """The keys of the cases a rerun skips: those done, and those failed unless ``retry_failed``.

    A case whose task did not run is never skipped. Temporaries that a killed batch left in
    ``parts/`` and ``results/`` are removed first.

    Parameters
    ----------
    out_dir : str or Path
        The batch's folder.
    retry_failed : bool
        Leave the cases that failed with their own error out of the skipped ones.

    Returns
    -------
    set of str
        The case keys.
    """
    out_dir = Path(out_dir)
    for temporary in [*out_dir.glob("parts/.*.partial"), *out_dir.glob("results/.*.partial")]:
        temporary.unlink(missing_ok=True)
    skipped = {DONE} if retry_failed else {DONE, FAILED}
    return {row["key"] for row in part_rows(out_dir) if row["status"] in skipped}


def write_part(out_dir, row):
    """Write one finished case's ``row`` (a dict with its ``key``) as ``parts/<key>.parquet``, atomically."""
    parts = Path(out_dir) / "parts"
    parts.mkdir(parents=True, exist_ok=True)
    temporary = parts / f".{row['key']}.parquet.partial"
    pq.write_table(_table([row]), temporary)
    os.replace(temporary, parts / f"{row['key']}.parquet")


def write_document(out_dir, key, document):
    """Write a case's result document (strict JSON bytes) as ``results/<key>.json``, atomically."""
    results = Path(out_dir) / "results"
    results.mkdir(parents=True, exist_ok=True)
    temporary = results / f".{key}.json.partial"
    temporary.write_bytes(document)
    os.replace(temporary, results / f"{key}.json")


def consolidate(out_dir, order):
    """Gather the parts into ``cases.parquet``, ``cases.csv`` and ``cases.json``; return the rows.

    Parameters
    ----------
    out_dir : str or Path
        The batch's folder.
    order : list of str
        Case keys in the spec's order; rows follow it, rows of other keys (an earlier spec's) come last.

    Returns
    -------
    list of dict
        The rows, as written.
    """
    out_dir = Path(out_dir)
    table = gathered(out_dir, order)
    pq.write_table(table, out_dir / "cases.parquet")
    pyarrow.csv.write_csv(_csv_table(table), out_dir / "cases.csv")
    (out_dir / "cases.json").write_bytes(strict_json.dumps(table.to_pylist()))
    return table.to_pylist()


def part_rows(out_dir):
    """The rows of the parts in ``out_dir/parts``, one per finished case, in the order of their keys."""
    parts = sorted((Path(out_dir) / "parts").glob("*.parquet"))
    return [row for path in parts for row in pq.read_table(path).to_pylist()]


def read_rows(out_dir):
    """The rows of a batch folder, finished or partial: its parts (a running or killed batch's too), or its
    ``cases.parquet`` where it has no parts (a table copied alone); [] where it has neither."""
    rows = part_rows(out_dir)
    cases = Path(out_dir) / "cases.parquet"
    if not rows and cases.is_file():
        rows = pq.read_table(cases).to_pylist()
    return rows


def gathered(out_dir, order):
    """The table of the parts in ``out_dir/parts`` so far, rows in ``order`` (case keys; others last).

    Each part is a whole file (`write_part`), so a batch still running can be read: its rows so far.

    Returns
    -------
    pyarrow.Table
    """
    rows = part_rows(out_dir)
    rank = {key: i for i, key in enumerate(order)}
    rows.sort(key=lambda row: (rank.get(row["key"], len(rank)), row["key"]))
    return _table(rows)


def _csv_table(table):
    """``table`` with its list columns (outputs.free_rocking's) as JSON text, which CSV can hold."""
    for index, field in enumerate(table.schema):
        if pa.types.is_list(field.type):
            text = [None if value is None else strict_json.dumps(value).decode() for value in table[index].to_pylist()]
            table = table.set_column(index, field.name, pa.array(text, pa.string()))
    return table


def _table(rows):
    """A pyarrow Table of ``rows``: the key, then the other columns in order of appearance, the record last."""
    seen = dict.fromkeys(column for row in rows for column in row)
    middle = [column for column in seen if column not in KEY_COLUMNS + RECORD_COLUMNS]
    columns = [*KEY_COLUMNS, *middle, *(column for column in RECORD_COLUMNS if column in seen)]
    return pa.table({column: pa.array([row.get(column) for row in rows]) for column in columns})
