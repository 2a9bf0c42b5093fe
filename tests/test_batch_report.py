"""The report of a batch (issue 17): its numbers are engine.post's functions applied to the table's columns,
failed cases are left out and counted, the CLI writes report.json and real PNGs and exits 2 on a bad column.

Two tables: one written with pyarrow from collapses drawn from a known lognormal (the fit recovers it, failed
rows are skipped), and one a real batch fills: a 2-block column shaken for 0.05 s by two stochastic records
at two PGA levels, collapse marked at 0.5 mm of displacement so that one case of the strong level collapses
and none of the weak one.
"""
import json
import subprocess
import sys

import matplotlib.image
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from extrados import ModelError
from extrados.batch import report
from extrados.engine.post.fragility import (bootstrap_fragility, collapse_counts, collapse_fractions,
                                            fit_fragility)
from extrados.engine.post.statistics import dkw_epsilon, empirical_cdf, response_statistics

#: Seed of the synthetic collapses. A 95 % interval misses the truth for some draws: over seeds 0-5 and 17
#: the report's median interval holds 4 m/s^2 for all seven, its dispersion interval holds 0.4 for five
#: (seeds 1 and 17 miss, with upper bounds 0.380 and 0.375: the MLE of beta runs low on 8 levels of 40).
SEED = 0
#: The known fragility of the synthetic table: median 4 m/s^2, dispersion 0.4; 8 levels of 40 records.
TRUE_MEDIAN, TRUE_DISPERSION = 4.0, 0.4
LEVELS = np.linspace(1.0, 8.0, 8)
RECORDS_PER_LEVEL = 40
#: Rows of the synthetic table whose case failed (error set, outputs null).
FAILED_ROWS = 3
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

TINY_SPEC = {
    "generator": {"name": "column", "parameters": {"blocks": 2}},
    "analysis": {"type": "dynamic", "duration": 0.05, "collapse_displacement": 5e-4},
    "ground_motions": {"stochastic": {"seeds": [3, 4], "parameters": {"duration": 0.1, "dt": 0.01, "t_rise": 0.02,
                                                                         "t_strong": 0.05, "decay": 1.0}},
                       "target_pga": [0.5, 20.0]},
    "outputs": {"names": ["collapse", "theta_max_over_alpha", "max_displacement"], "blocks": ["b1"]},
}


def synthetic_rows(seed):
    """Rows of a batch table: each record collapses when its level exceeds its lognormal capacity
    (P(collapse | x) = Phi(ln(x / median) / dispersion)); its response is the level over the capacity."""
    rng = np.random.default_rng(seed)
    intensity = np.repeat(LEVELS, RECORDS_PER_LEVEL)
    capacity = TRUE_MEDIAN * np.exp(TRUE_DISPERSION * rng.standard_normal(intensity.size))
    rows = [{"key": f"k{i:04d}", "motion": f"stochastic:{i}", "target_pga": float(x), "collapse": bool(x >= c),
             "theta_max_over_alpha[b1]": float(x / c), "error": None, "seconds": 1.0}
            for i, (x, c) in enumerate(zip(intensity, capacity))]
    rows += [{"key": f"failed{i}", "motion": "stochastic:x", "target_pga": float(LEVELS[i]), "collapse": None,
              "theta_max_over_alpha[b1]": None, "error": "ValueError: broke", "seconds": 0.1}
             for i in range(FAILED_ROWS)]
    return rows


@pytest.fixture(scope="module")
def synthetic_folder(tmp_path_factory):
    """A batch folder holding only cases.parquet (a table copied alone) of `synthetic_rows(SEED)`."""
    folder = tmp_path_factory.mktemp("synthetic")
    rows = synthetic_rows(SEED)
    pq.write_table(pa.Table.from_pylist(rows), folder / "cases.parquet")
    return folder, rows[:-FAILED_ROWS]


def test_report_equals_the_engine_functions_on_the_columns(synthetic_folder):
    folder, good = synthetic_folder
    result, written = report(folder)
    assert result.columns._asdict() == {"intensity": "target_pga", "collapse": "collapse",
                                        "response": "theta_max_over_alpha[b1]", "by": "target_pga"}
    document = json.loads((folder / "report.json").read_text())
    assert [path.name for path in written] == ["report.json", "report_fragility.png", "report_cdf.png"]
    assert document["cases"] == {"total": len(good) + FAILED_ROWS, "used": len(good), "failed": FAILED_ROWS,
                                 "failed_keys": [f"failed{i}" for i in range(FAILED_ROWS)]}
    intensity = np.array([row["target_pga"] for row in good])
    collapsed = np.array([row["collapse"] for row in good])
    response = np.array([row["theta_max_over_alpha[b1]"] for row in good])
    counts = collapse_counts(intensity, collapsed)
    fit, bootstrap = fit_fragility(counts), bootstrap_fragility(counts, 200, 0)
    fragility = document["fragility"]
    assert fragility["levels"]["records"] == [RECORDS_PER_LEVEL] * LEVELS.size  # failed rows left out
    assert fragility["levels"]["collapses"] == counts.collapses.tolist()
    assert fragility["levels"]["fraction_interval"]["upper"] == collapse_fractions(counts)[2].tolist()
    assert (fragility["fit"]["median"], fragility["fit"]["dispersion"]) == (fit.median, fit.dispersion)
    assert fragility["bootstrap"]["median_interval"] == list(bootstrap.median_interval)
    assert fragility["bootstrap"]["dispersion_interval"] == list(bootstrap.dispersion_interval)
    for band, confidence in zip(document["cdf"]["bands"], (0.90, 0.95)):
        cdf = empirical_cdf(response, confidence)
        assert band["values"] == cdf.values.tolist() and band["lower"] == cdf.lower.tolist()
        assert band["dkw_epsilon"] == dkw_epsilon(response.size, confidence)
    statistics = response_statistics(intensity, response)
    assert document["response_statistics"]["parameter"] == LEVELS.tolist()
    assert document["response_statistics"]["values"] == statistics.values.tolist()


def test_report_fit_recovers_the_lognormal_of_the_table(synthetic_folder):
    folder, _ = synthetic_folder
    result, _ = report(folder, png=str(folder / "again"))
    low, high = result.bootstrap.median_interval
    assert low <= TRUE_MEDIAN <= high and high - low < 0.2 * TRUE_MEDIAN  # 320 records: an interval with teeth
    low, high = result.bootstrap.dispersion_interval
    assert low <= TRUE_DISPERSION <= high


@pytest.mark.parametrize("columns, path, words", [
    ({"intensity": "pga"}, "intensity", "no column 'pga'"),
    ({"response": "motion"}, "response", "expected numbers"),
    ({"collapse": "target_pga"}, "collapse", "expected true or false"),
    ({"by": "motion"}, "by", "expected numbers"),
])
def test_a_wrong_column_is_refused_at_its_role(synthetic_folder, columns, path, words):
    with pytest.raises(ModelError) as error:
        report(synthetic_folder[0], **columns)
    assert error.value.path == path and words in error.value.message


def test_an_empty_folder_has_nothing_to_report(tmp_path):
    with pytest.raises(ModelError, match="no results table"):
        report(tmp_path)


def extrados(*arguments):
    return subprocess.run([sys.executable, "-m", "extrados", *map(str, arguments)], capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def tiny_batch(tmp_path_factory):
    """The folder of TINY_SPEC run by ``extrados batch`` (its parts, as a running batch leaves them)."""
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "spec.json").write_text(json.dumps(TINY_SPEC))
    done = extrados("batch", folder / "spec.json", "--out", folder / "out", "--workers", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    return folder / "out"


def test_cli_reports_a_real_batch(tiny_batch, tmp_path):
    (tiny_batch / "cases.parquet").unlink()  # the report reads the parts, as of a batch still running
    done = extrados("report", tiny_batch, "--png", tmp_path / "tiny")
    assert done.returncode == 0, done.stderr
    assert "4 cases, 0 failed (left out)" in done.stdout
    rows = json.loads((tiny_batch / "cases.json").read_text())
    document = json.loads((tiny_batch / "report.json").read_text())
    counts = collapse_counts([row["target_pga"] for row in rows], np.array([row["collapse"] for row in rows]))
    # At 0.5 m/s^2 b1 moves less than 0.13 mm; at 20 m/s^2 record 4 moves it 5.6 mm (a collapse), record 3 0.28 mm
    assert counts.collapses.tolist() == [0, 1]
    assert document["fragility"]["levels"]["collapses"] == [0, 1]
    assert document["fragility"]["levels"]["fraction_interval"]["lower"] == collapse_fractions(counts)[1].tolist()
    assert document["fragility"]["fit"]["separated"] is True  # no survival above a collapse: no finite maximum
    assert document["fragility"]["fit"]["median"] == pytest.approx(fit_fragility(counts).median, rel=1e-12)
    response = [row["theta_max_over_alpha[b1]"] for row in rows]
    assert document["cdf"]["bands"][1]["values"] == sorted(response)
    assert document["response_statistics"]["count"] == [2, 2]
    for name in ("tiny_fragility.png", "tiny_cdf.png"):
        picture = tmp_path / name
        assert picture.read_bytes()[:8] == PNG_SIGNATURE
        height, width, _ = matplotlib.image.imread(picture).shape
        assert height > 300 and width > 400


def test_cli_refuses_an_unknown_column_and_an_empty_folder(tiny_batch, tmp_path):
    refused = extrados("report", tiny_batch, "--response", "height")
    assert refused.returncode == 2
    assert "response: the table has no column 'height'" in refused.stderr and "Traceback" not in refused.stderr
    for folder in (tmp_path, tmp_path / "absent"):
        empty = extrados("report", folder)
        assert empty.returncode == 2 and "no results table" in empty.stderr and "Traceback" not in empty.stderr
