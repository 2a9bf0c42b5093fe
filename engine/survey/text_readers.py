"""Survey points and stone tables written as text: CSV files and JSON lists of rows.

Both forms hold the same rows. A points row has the columns ``stone, x, y, z`` (m) and, for the
corners of a measured outline (seed 002 sec. 4.3, "visible blocks vertex measurement"), ``corner``,
the corner's rank along the outline (empty for a plain point). A stone table row has ``stone``, the
entity fields of `stones.ENTITY_FIELDS`, ``depth`` (m, optional), ``survey`` (``face`` or
``all_round``, optional), ``reference_volume`` (m^3, optional), ``station_x, station_y, station_z``
(m, optional: where the stone's face was seen from, the survey station of its stereo pair); any other
column is a free attribute of the stone's entity (mason mark, phase, condition).

A CSV starts with its header row; a row is named by its line in the file (the header is row 1).
A JSON file holds a list of objects, named by their index (``item 0``).
"""
import csv
import json
import math
from pathlib import Path

import numpy as np

from extrados.engine.survey.stones import ENTITY_FIELDS, SURVEY_KINDS, StoneInfo, SurveyError, grouped_points

POINT_COLUMNS = ("stone", "x", "y", "z")
#: Columns of a stone table that are not entity attributes.
STATION_COLUMNS = ("station_x", "station_y", "station_z")
TABLE_COLUMNS = ("stone", "depth", "survey", "reference_volume") + STATION_COLUMNS


def read_rows(path):
    """The rows of a CSV or JSON file as (name, dict) pairs, ``name`` saying where the row is.

    Raises
    ------
    SurveyError
        The file cannot be read, is malformed, or a CSV row has more or fewer fields than its header.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise SurveyError(f"unknown file type '{suffix}': give a .csv or .json file", path=path.name)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SurveyError(f"cannot read the file: {exc}", path=path.name) from None
    return csv_rows(text, path.name) if suffix == ".csv" else json_rows(text, path.name)


def csv_rows(text, name):
    """(where, row dict) of each non-empty line after the header of a CSV text."""
    lines = csv.reader(text.splitlines())
    header = next(lines, None)
    if not header:
        raise SurveyError("the file is empty: it needs a header row", path=name)
    header = [column.strip().lower() for column in header]
    rows = []
    for line_number, fields in enumerate(lines, start=2):
        if not any(field.strip() for field in fields):
            continue
        where = f"{name}, row {line_number}"
        if len(fields) != len(header):
            raise SurveyError(f"{len(fields)} fields, but the header has {len(header)}", path=where)
        rows.append((where, {column: field.strip() for column, field in zip(header, fields)}))
    return rows


def json_rows(text, name):
    """(where, row dict) of each item of a JSON list of objects."""
    try:
        items = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise SurveyError(f"malformed JSON: {exc}", path=name) from None
    return list_rows(items, name)


def list_rows(items, name):
    """(where, row dict) of each item of a list of objects (parsed JSON), ``where`` naming ``name`` and the item."""
    if not isinstance(items, list):
        raise SurveyError(f"the file must hold a list of rows (objects), not {type(items).__name__}", path=name)
    rows = []
    for index, item in enumerate(items):
        where = f"{name}, item {index}"
        if not isinstance(item, dict):
            raise SurveyError(f"a row must be an object, not {type(item).__name__}", path=where)
        rows.append((where, item))
    return rows


def required_columns(rows, columns, name):
    """Raise SurveyError naming the first row that lacks one of ``columns``."""
    for where, row in rows:
        missing = [column for column in columns if column not in row]
        if missing:
            raise SurveyError(f"no column '{missing[0]}' (a row needs {', '.join(columns)})", path=where)


def number(row, column, where):
    """The finite number in ``row[column]`` (a number or its text)."""
    value = row[column]
    if isinstance(value, bool):
        raise SurveyError(f"{column} is {value!r}, not a number", path=where)
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise SurveyError(f"{column} is {value!r}, not a number", path=where) from None
    if not math.isfinite(result):
        raise SurveyError(f"{column} is {value!r}, not a finite number", path=where)
    return result


def label(row, column, where):
    """The non-empty text of ``row[column]`` (an integer is written as text)."""
    value = row[column]
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value:
        raise SurveyError(f"{column} must be a non-empty text, not {value!r}", path=where)
    return value


def is_blank(row, column):
    """True when ``row`` has no value in ``column`` (absent, empty text or null)."""
    return row.get(column) in (None, "")


def read_points(path):
    """The measured points of a CSV or JSON survey file, grouped by stone.

    Returns
    -------
    list of StonePoints
        In the order the stones first appear.

    Raises
    ------
    SurveyError
        Naming the file and row: a missing column, a coordinate that is not a finite number, an
        empty stone id, two corners of one stone with the same rank.
    """
    return points_from_rows(read_rows(path), Path(path).name)


def points_from_rows(rows, name):
    """`read_points` of rows already read ((where, row dict) pairs of a source called ``name``)."""
    if not rows:
        raise SurveyError("the survey holds no points", path=name)
    required_columns(rows, POINT_COLUMNS, name)
    labels = [label(row, "stone", where) for where, row in rows]
    points = np.array([[number(row, axis, where) for axis in "xyz"] for where, row in rows])
    corner_order = np.array([math.nan if is_blank(row, "corner") else number(row, "corner", where)
                             for where, row in rows])
    return grouped_points(labels, points, corner_order, lambda k: rows[k][0])


def stone_info(row, where):
    """StoneInfo of one row of a stone table."""
    stone = label(row, "stone", where)
    entity = {field: label(row, field, where) for field in ENTITY_FIELDS if not is_blank(row, field)}
    attributes = {column: value for column, value in row.items()
                  if column not in ENTITY_FIELDS + TABLE_COLUMNS and not is_blank(row, column)}
    if attributes:
        entity["attributes"] = attributes
    depth = None if is_blank(row, "depth") else number(row, "depth", where)
    if depth is not None and not depth > 0.0:
        raise SurveyError(f"depth must be positive, not {depth:g} m", path=where)
    survey = "face" if is_blank(row, "survey") else row["survey"]
    if survey not in SURVEY_KINDS:
        raise SurveyError(f"survey is {survey!r}; it must be one of {', '.join(SURVEY_KINDS)}", path=where)
    volume = None if is_blank(row, "reference_volume") else number(row, "reference_volume", where)
    given = [not is_blank(row, column) for column in STATION_COLUMNS]
    if any(given) and not all(given):
        raise SurveyError(f"give all of {', '.join(STATION_COLUMNS)} or none", path=where)
    station = tuple(number(row, column, where) for column in STATION_COLUMNS) if all(given) else None
    return stone, StoneInfo(entity, depth, survey, volume, station)


def read_stone_table(path):
    """The stone table of a CSV or JSON file: {stone id: StoneInfo}.

    Raises
    ------
    SurveyError
        Naming the file and row: no ``stone`` column, a stone given twice, a depth that is not a
        positive number, an unknown survey kind.
    """
    return stone_table_from_rows(read_rows(path), Path(path).name)


def stone_table_from_rows(rows, name):
    """`read_stone_table` of rows already read ((where, row dict) pairs of a source called ``name``)."""
    table = {}
    required_columns(rows, ("stone",), name)
    for where, row in rows:
        stone, info = stone_info(row, where)
        if stone in table:
            raise SurveyError(f"stone '{stone}' is given twice", path=where)
        table[stone] = info
    return table
