"""Read accelerogram files: PEER NGA `.AT2`, two-column time/acceleration text, and CSV.

PEER NGA `.AT2` (the PEER ground motion database, NGA-West2 and earlier): four header lines (the
database, the event/station/component, "ACCELERATION TIME SERIES IN UNITS OF G", then the count and
step, "NPTS=  2600, DT=   .0100 SEC" or in older files "2600   .0100   NPTS, DT"), then the NPTS
accelerations in g, several to a line. Text: one "t a" pair a line, '#' starting a comment. CSV:
"t,a" a line, with an optional header line of names. Text and CSV times must be evenly spaced; a
reader that asks for them may also take three components a line ("t ax ay az", x y z axes).
"""
import csv
import re
from pathlib import Path

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.tolerance import TOL

#: m/s^2 per g, the standard gravity in which PEER writes its records.
STANDARD_GRAVITY = 9.80665
#: The unit factors (to m/s^2) a text or CSV record may be written in.
ACCELERATION_UNITS = {"m/s^2": 1.0, "g": STANDARD_GRAVITY}
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
#: Words of a text or CSV line holding one or three acceleration components (after the time).
_COLUMN_WORDS = {1: ("two", "t, a"), 3: ("four", "t, ax, ay, az")}
_AT2_STEP_LINES = (re.compile(rf"NPTS\s*=\s*(\d+)\s*,\s*DT\s*=\s*({_NUMBER})", re.IGNORECASE),
                   re.compile(rf"^\s*(\d+)\s+({_NUMBER})\s+NPTS", re.IGNORECASE))


def read_record_file(path, unit="m/s^2", field=None, components=(1,)):
    """Time step and accelerations of a record file, chosen by its suffix (.at2, .csv, else text).

    Parameters
    ----------
    path : str or Path
        The file.
    unit : {"m/s^2", "g"}
        Unit of a text or CSV file's accelerations; an `.AT2` file is always in g.
    field : str, optional
        Field path reported with an error (e.g. the batch spec's entry that names the file).
    components : tuple of {1, 3}
        The acceleration components a text or CSV line may hold: 1 (t, a), 3 (t, ax, ay, az), or
        either (the file's first line decides, every line follows it). An `.AT2` file holds one.

    Returns
    -------
    dt : float
        Time between samples, s.
    accelerations : ndarray, shape (n,) or (n, 3)
        Ground acceleration, m/s^2, the first sample at t = 0: shape (n,) for one component a
        line, (n, 3) along x, y, z for three.

    Raises
    ------
    ModelError
        The file cannot be read, or a line of it is not what its format expects (file and line named).
    """
    path = Path(path)
    if unit not in ACCELERATION_UNITS:
        raise ModelError(f"unit {unit!r} is not one of {sorted(ACCELERATION_UNITS)}", path=field)
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise ModelError(f"cannot read record file {path}: {exc.strerror}", path=field) from exc
    if path.suffix.lower() == ".at2":
        return _read_at2(path, lines, field)
    rows = _csv_rows(path, lines, field) if path.suffix.lower() == ".csv" else _text_rows(path, lines, field)
    return _evenly_sampled(path, rows, field, ACCELERATION_UNITS[unit], components)


def _read_at2(path, lines, field):
    """dt (s) and accelerations (m/s^2) of the lines of a PEER `.AT2` file."""
    if len(lines) < 4:
        raise ModelError(f"{path}: a PEER .AT2 file has four header lines, this one has {len(lines)} lines",
                         path=field)
    if "UNITS OF G" not in lines[2].upper():
        raise ModelError(f"{path}, line 3: expected 'ACCELERATION TIME SERIES IN UNITS OF G', "
                         f"found {lines[2].strip()!r}", path=field)
    match = next((m for m in (pattern.search(lines[3]) for pattern in _AT2_STEP_LINES) if m), None)
    if match is None:
        raise ModelError(f"{path}, line 4: expected 'NPTS= <count>, DT= <step> SEC', found {lines[3].strip()!r}",
                         path=field)
    count, dt = int(match.group(1)), float(match.group(2))
    if not dt > 0.0:
        raise ModelError(f"{path}, line 4: DT must be positive, found {dt}", path=field)
    values = []
    for number, line in enumerate(lines[4:], start=5):
        values.extend(_numbers(path, number, line.split(), field))
    if len(values) != count:
        raise ModelError(f"{path}, line 4: NPTS is {count} but the file holds {len(values)} values", path=field)
    return _checked(path, dt, np.array(values) * STANDARD_GRAVITY, field)


def _text_rows(path, lines, field):
    """[(line number, [t, a])] of a whitespace-separated text record, comments and blank lines skipped."""
    rows = []
    for number, line in enumerate(lines, start=1):
        words = line.split("#", 1)[0].split()
        if words:
            rows.append((number, _numbers(path, number, words, field)))
    return rows


def _csv_rows(path, lines, field):
    """[(line number, [t, a])] of a CSV record; a first line that is not numbers is a header."""
    rows = []
    for number, cells in enumerate(csv.reader(lines), start=1):
        cells = [cell.strip() for cell in cells]
        if not any(cells):
            continue
        if not rows and number == 1 and not re.fullmatch(_NUMBER, cells[0]):
            continue
        rows.append((number, _numbers(path, number, cells, field)))
    return rows


def _numbers(path, number, words, field):
    """The floats of one line's words, or a ModelError naming the file, the line and the word."""
    try:
        values = [float(word) for word in words]
    except ValueError:
        bad = next(word for word in words if not re.fullmatch(_NUMBER, word))
        raise ModelError(f"{path}, line {number}: {bad!r} is not a number", path=field) from None
    if not np.all(np.isfinite(values)):
        raise ModelError(f"{path}, line {number}: values must be finite", path=field)
    return values


def _evenly_sampled(path, rows, field, factor, components):
    """dt (s) and accelerations (m/s^2, times `factor`) of (line, [t, a...]) rows whose times step as the first two.

    One component a row gives accelerations of shape (n,), three give (n, 3).
    """
    allowed = [count for count in components if rows and len(rows[0][1]) == count + 1] or components
    for number, values in rows:
        if len(values) - 1 not in allowed:
            counts = " or ".join(_COLUMN_WORDS[count][0] for count in allowed)
            layouts = " or ".join(_COLUMN_WORDS[count][1] for count in allowed)
            raise ModelError(f"{path}, line {number}: expected {counts} columns ({layouts}), found {len(values)}",
                             path=field)
    if len(rows) < 2:
        raise ModelError(f"{path}: a record needs at least two samples, found {len(rows)}", path=field)
    table = np.array([values for _, values in rows])
    steps = np.diff(table[:, 0])
    dt = steps[0]
    uneven = np.flatnonzero(~(np.abs(steps - dt) <= TOL.record_step_relative * abs(dt)) | (steps <= 0.0))
    if uneven.size:
        number = rows[uneven[0] + 1][0]
        raise ModelError(f"{path}, line {number}: times must increase evenly by {dt:g} s, "
                         f"this step is {steps[uneven[0]]:g} s", path=field)
    accelerations = table[:, 1] if table.shape[1] == 2 else table[:, 1:]
    return float(steps.mean()), accelerations * factor


def _checked(path, dt, accelerations, field):
    """(dt, accelerations) once the record has the two samples a duration needs."""
    if len(accelerations) < 2:
        raise ModelError(f"{path}: a record needs at least two samples, found {len(accelerations)}", path=field)
    return dt, accelerations
