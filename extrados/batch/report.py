"""The report of a batch: statistics and fragility over its results table, as ``report.json`` and figures.

Over the rows of a batch folder (finished or partial, table.read_rows), leaving out the failed cases
(``error`` not null) and counting them:

- the lognormal fragility fitted by maximum likelihood to the collapse flag per intensity level
  (Baker 2015 eq. 11-12, engine.post.fragility) with percentile bootstrap intervals of its median and
  dispersion, and the collapse fraction per level with its binomial (Wilson) interval;
- the empirical CDF of a response with its Dvoretzky-Kiefer-Wolfowitz bands at 90 and 95 %
  (engine.post.statistics);
- the response's percentiles per value of a ``by`` column.

Columns are named as in the table (``target_pga``, ``collapse``, ``theta_max_over_alpha[b1]``); those not
given are chosen from the columns present (`default_columns`). Intensities keep the table's unit:
``target_pga`` in m/s^2, ``scale_factor`` dimensionless.
"""
from pathlib import Path
from typing import NamedTuple

import numpy as np

from extrados.batch.table import read_rows
from extrados.engine.errors import ModelError
from extrados.engine.io import strict_json
from extrados.engine.post.fragility import (bootstrap_fragility, collapse_counts, fit_fragility,
                                            fragility_document, levels_document)
from extrados.engine.post.statistics import cdf_document, empirical_cdf, response_document, response_statistics

#: Intensity columns a batch writes, in the order a report prefers them when none is named.
INTENSITY_COLUMNS = ("target_pga", "scale_factor")
#: The collapse flag a batch writes (outputs.names "collapse").
COLLAPSE_COLUMN = "collapse"
#: Prefixes of the response columns, in the order a report prefers them when none is named.
RESPONSE_PREFIXES = ("theta_max_over_alpha[", "max_rotation[", "max_displacement[")
#: Confidence levels of the DKW bands of the response's empirical CDF.
CDF_CONFIDENCES = (0.90, 0.95)
#: Bootstrap of the fragility fit: resamples, seed of its Generator and two-sided confidence level.
RESAMPLES, SEED, CONFIDENCE = 200, 0, 0.95


class Columns(NamedTuple):
    """The table columns a report reads; None where it has none of that role."""

    intensity: str   # the intensity measure of each case (fragility abscissa)
    collapse: str    # the collapse flag (booleans)
    response: str    # the response whose CDF is drawn (numbers)
    by: str          # the parameter the response statistics are grouped by (numbers)


class BatchReport(NamedTuple):
    """The statistics of a batch's table, typed (arrays and engine.post tuples)."""

    columns: Columns
    cases: int                # rows in the table
    failed: list              # keys of the rows with an error, left out
    counts: object            # CollapseCounts, or None without intensity and collapse columns
    fit: object               # FragilityFit, or None without counts or when the counts have no maximum
    bootstrap: object         # FragilityBootstrap, or None with ``fit``
    fit_error: str            # why there is no fit though there are counts (no collapse ...), else None
    cdfs: tuple               # EmpiricalCdf at each of CDF_CONFIDENCES, or () without a response column
    missing_responses: int    # cases without a finite response (left out of the CDF)
    statistics: object        # ResponseStatistics, or None without response and by columns


def default_columns(names, intensity=None, response=None, collapse=None, by=None):
    """The columns a report reads: those named (checked to be in ``names``), the others chosen from ``names``.

    Parameters
    ----------
    names : list of str
        The table's columns.
    intensity, response, collapse, by : str, optional
        Columns named by the user. Otherwise: the first of INTENSITY_COLUMNS present; COLLAPSE_COLUMN
        when present; the first column of the first of RESPONSE_PREFIXES present; the intensity column.

    Returns
    -------
    Columns

    Raises
    ------
    ModelError
        At the role (``intensity`` ...) of a named column the table does not have.
    """
    for role, column in (("intensity", intensity), ("response", response), ("collapse", collapse), ("by", by)):
        if column is not None and column not in names:
            raise ModelError(f"the table has no column {column!r}; its columns: {', '.join(names)}", path=role)
    intensity = intensity or next((name for name in INTENSITY_COLUMNS if name in names), None)
    collapse = collapse or (COLLAPSE_COLUMN if COLLAPSE_COLUMN in names else None)
    response = response or next((name for prefix in RESPONSE_PREFIXES for name in names if name.startswith(prefix)),
                                None)
    return Columns(intensity, collapse, response, by or intensity)


def numbers(rows, column, role):
    """(n,) float64 of a numeric column, nan where null.

    Raises
    ------
    ModelError
        At ``role`` when a value is not a number (text, a flag).
    """
    values = [row.get(column) for row in rows]
    wrong = next((value for value in values if value is not None
                  and (isinstance(value, (bool, str)) or not isinstance(value, (int, float)))), None)
    if wrong is not None:
        raise ModelError(f"column {column!r} holds {wrong!r}; expected numbers", path=role)
    return np.array([np.nan if value is None else value for value in values], dtype=float)


def flags(rows, column, role):
    """(n,) bool of a true/false column.

    Raises
    ------
    ModelError
        At ``role`` when a case has no true/false value there (a static case's null collapse, a number).
    """
    wrong = next((row for row in rows if not isinstance(row.get(column), bool)), None)
    if wrong is not None:
        raise ModelError(f"column {column!r} holds {wrong.get(column)!r} in case {wrong['key']}; expected true or "
                         "false (collapse needs a dynamic analysis)", path=role)
    return np.array([row.get(column) for row in rows], dtype=bool)


def fragility_of(rows, columns, resamples=RESAMPLES, seed=SEED, confidence=CONFIDENCE):
    """(counts, fit, bootstrap, fit_error) of the collapse flags per intensity level (engine.post.fragility).

    ``fit`` and ``bootstrap`` are None and ``fit_error`` says why when the counts have no maximum of the
    likelihood (no collapse, or every case collapsed); all four are None without both columns.
    """
    if columns.intensity is None or columns.collapse is None:
        return None, None, None, None
    intensity, collapsed = numbers(rows, columns.intensity, "intensity"), flags(rows, columns.collapse, "collapse")
    try:
        counts = collapse_counts(intensity, collapsed)
    except ModelError as exc:
        raise ModelError(f"column {columns.intensity!r}: {exc.message}", path="intensity") from exc
    try:
        return counts, fit_fragility(counts), bootstrap_fragility(counts, resamples, seed, confidence), None
    except ModelError as exc:
        return counts, None, None, exc.message


def analyse(out_dir, intensity=None, response=None, collapse=None, by=None, resamples=RESAMPLES, seed=SEED):
    """The statistics of the results table of the batch folder ``out_dir`` (module docstring).

    Parameters
    ----------
    out_dir : str or Path
        A batch folder (extrados.batch.run): its ``parts/`` or its ``cases.parquet``.
    intensity, response, collapse, by : str, optional
        Table columns (`default_columns`).
    resamples, seed : int
        Bootstrap resamples of the fragility fit and the seed of their Generator.

    Returns
    -------
    BatchReport

    Raises
    ------
    ModelError
        A folder without a table or without a successful case, a column the table does not have or of
        the wrong kind (at its role), or columns that give nothing to report.
    """
    rows = read_rows(out_dir)
    if not rows:
        raise ModelError(f"{out_dir} has no results table (parts/ or cases.parquet): run extrados batch first")
    failed = [row["key"] for row in rows if row.get("error") is not None]
    good = [row for row in rows if row.get("error") is None]
    if not good:
        raise ModelError(f"all {len(rows)} cases of {out_dir} failed; the first: {rows[0]['error']}")
    names = list(dict.fromkeys(name for row in rows for name in row))  # a failed row has no output columns
    columns = default_columns(names, intensity, response, collapse, by)
    if columns.response is None and (columns.intensity is None or columns.collapse is None):
        raise ModelError("nothing to report: the table has no response column (theta_max_over_alpha[...], "
                         "max_rotation[...], max_displacement[...]) and no intensity with collapse; name them",
                         path="response")
    counts, fit, bootstrap, fit_error = fragility_of(good, columns, resamples, seed)
    cdfs, missing, statistics = (), 0, None
    if columns.response is not None:
        values = numbers(good, columns.response, "response")
        finite = values[np.isfinite(values)]
        missing = int(values.size - finite.size)
        if finite.size:
            cdfs = tuple(empirical_cdf(finite, confidence) for confidence in CDF_CONFIDENCES)
        if columns.by is not None:
            statistics = response_statistics(by_values(good, columns.by), values)
    return BatchReport(columns, len(rows), failed, counts, fit, bootstrap, fit_error, cdfs, missing, statistics)


def by_values(rows, column):
    """(n,) float64 of the ``by`` column, every case with a value (ModelError at ``by`` otherwise)."""
    values = numbers(rows, column, "by")
    absent = np.flatnonzero(~np.isfinite(values))
    if absent.size:
        raise ModelError(f"column {column!r} has no value in case {rows[absent[0]]['key']}", path="by")
    return values


def report_document(report):
    """A `BatchReport` as a strict-JSON dict: columns, cases, fragility, cdf and response_statistics."""
    document = {"format": "extrados.batch_report/1", "columns": report.columns._asdict(),
                "cases": {"total": report.cases, "used": report.cases - len(report.failed),
                          "failed": len(report.failed), "failed_keys": report.failed}}
    if report.counts is not None:
        document["fragility"] = ({"levels": levels_document(report.counts, CONFIDENCE), "fit": None,
                                  "bootstrap": None, "fit_error": report.fit_error} if report.fit is None
                                 else fragility_document(report.counts, report.fit, report.bootstrap))
    if report.columns.response is not None:
        document["cdf"] = {"bands": [cdf_document(cdf) for cdf in report.cdfs], "missing": report.missing_responses}
    if report.statistics is not None:
        document["response_statistics"] = response_document(report.statistics)
    return document


def report_figures(report, prefix):
    """Write ``PREFIX_fragility.png`` (with a fit) and ``PREFIX_cdf.png`` (with a response); their paths."""
    import matplotlib.pyplot as plt

    from extrados.engine.post.statistics_plot import cdf_figure, fragility_figure

    written = []
    if report.fit is not None:
        fig = fragility_figure({report.columns.collapse: (report.counts, report.fit, report.bootstrap)},
                               f"fragility over {int(report.counts.records.sum())} cases", report.columns.intensity)
        written.append(save_figure(fig, Path(f"{prefix}_fragility.png")))
        plt.close(fig)
    if report.cdfs:
        fig = cdf_figure({f"{cdf.confidence:.0%}": cdf for cdf in reversed(report.cdfs)},
                         f"{report.columns.response} over {report.cdfs[0].values.size} cases",
                         report.columns.response)
        written.append(save_figure(fig, Path(f"{prefix}_cdf.png")))
        plt.close(fig)
    return written


def save_figure(fig, path):
    """Save ``fig`` at ``path`` (150 dpi) and return the path."""
    fig.savefig(path, dpi=150, bbox_inches="tight")
    return path


def report(out_dir, intensity=None, response=None, collapse=None, by=None, png=None, resamples=RESAMPLES,
           seed=SEED):
    """Write the report of a batch folder: ``report.json`` and its figures (module docstring).

    Parameters
    ----------
    out_dir : str or Path
        The batch folder; ``report.json`` is written there.
    intensity, response, collapse, by : str, optional
        Table columns (`default_columns`).
    png : str, optional
        Prefix of the figures' paths (``PREFIX_fragility.png``, ``PREFIX_cdf.png``); default ``out_dir/report``.
    resamples, seed : int
        Bootstrap resamples of the fragility fit and their seed.

    Returns
    -------
    report : BatchReport
    written : list of Path
        ``report.json`` and the figures.
    """
    out_dir = Path(out_dir)
    result = analyse(out_dir, intensity, response, collapse, by, resamples, seed)
    document = out_dir / "report.json"
    document.write_bytes(strict_json.dumps(report_document(result)))
    return result, [document, *report_figures(result, png or str(out_dir / "report"))]
