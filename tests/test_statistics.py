"""Batch statistics (issue 17): empirical CDFs with DKW bands, binomial intervals, Kolmogorov-Smirnov distances,
response statistics per parameter value, lognormal fragility fitted by maximum likelihood (Baker 2015) with
bootstrap intervals, their strict-JSON documents and their figures (read back from the figure objects)."""
import json

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer
from scipy import stats

from extrados import ModelError
from extrados.engine.tolerance import TOL
from extrados.engine.post.fragility import (bootstrap_fragility, collapse_counts, collapse_fractions,
                                            collapse_probability, fit_fragility, fragility_document, log_likelihood)
from extrados.engine.post.statistics import (binomial_interval, cdf_document, dkw_epsilon, empirical_cdf,
                                             ks_distance, response_document, response_statistics)
from extrados.engine.post.statistics_plot import cdf_figure, fragility_figure

SEED = 17
#: The known fragility the synthetic collapses are drawn from: median 0.4 g, dispersion 0.4.
TRUE_MEDIAN, TRUE_DISPERSION = 0.4, 0.4
#: Ten levels of PGA 0.1 to 1.0 g, 40 records each, as a multiple stripe analysis.
LEVELS = np.linspace(0.1, 1.0, 10)
RECORDS_PER_LEVEL = 40
RESAMPLES = 200


def synthetic_collapses(seed, median=TRUE_MEDIAN, dispersion=TRUE_DISPERSION):
    """(400,) intensities and collapse flags: each record collapses when its level exceeds its own lognormal
    capacity ln C ~ N(ln median, dispersion^2), so that P(collapse | x) = Phi(ln(x / median) / dispersion)."""
    rng = np.random.default_rng(seed)
    intensity = np.repeat(LEVELS, RECORDS_PER_LEVEL)
    capacity = median * np.exp(dispersion * rng.standard_normal(intensity.size))
    return intensity, intensity >= capacity


@pytest.fixture(scope="module")
def fragility():
    """The counts of `synthetic_collapses(SEED)`, their fit and 200 bootstrap resamples (seed 17)."""
    counts = collapse_counts(*synthetic_collapses(SEED))
    return counts, fit_fragility(counts), bootstrap_fragility(counts, RESAMPLES, SEED)


def test_fragility_fit_recovers_the_lognormal_within_its_bootstrap_interval(fragility):
    counts, fit, bootstrap = fragility
    assert counts.records.tolist() == [RECORDS_PER_LEVEL] * LEVELS.size
    assert not fit.separated
    assert bootstrap.median_interval[0] <= TRUE_MEDIAN <= bootstrap.median_interval[1]
    assert bootstrap.dispersion_interval[0] <= TRUE_DISPERSION <= bootstrap.dispersion_interval[1]
    assert bootstrap.median_interval[0] <= fit.median <= bootstrap.median_interval[1]
    assert bootstrap.dispersion_interval[0] <= fit.dispersion <= bootstrap.dispersion_interval[1]
    # 400 records pin the median to about 12 % (interval 0.385-0.432 g): the check has teeth
    assert bootstrap.median_interval[1] - bootstrap.median_interval[0] < 0.15 * TRUE_MEDIAN


def test_fragility_fit_maximises_the_likelihood(fragility):
    counts, fit, _ = fragility
    for factor_median, factor_dispersion in [(1.01, 1.0), (0.99, 1.0), (1.0, 1.02), (1.0, 0.98)]:
        assert log_likelihood(counts, fit.median * factor_median, fit.dispersion * factor_dispersion) \
            < fit.log_likelihood


def test_bootstrap_is_reproducible_from_its_seed(fragility):
    counts = fragility[0]
    first = bootstrap_fragility(counts, 20, SEED)
    assert bootstrap_fragility(counts, 20, SEED).median_interval == first.median_interval
    assert bootstrap_fragility(counts, 20, SEED + 1).median_interval != first.median_interval


def test_collapse_probability_is_baker_eq_1():
    assert collapse_probability(0.4, 0.4, 0.3) == pytest.approx(0.5)
    assert collapse_probability(0.4 * np.exp(0.3), 0.4, 0.3) == pytest.approx(stats.norm.cdf(1.0), abs=1e-12)


@pytest.mark.parametrize("collapsed, median", [([0, 0, 0, 0, 1, 1], np.sqrt(0.2 * 0.3)),
                                               ([0, 0, 0, 1, 1, 1], 0.2)])
def test_separated_levels_have_no_maximum_and_say_so(collapsed, median):
    """Survivals below a level and collapses above it (that level mixed or not): the likelihood grows as beta
    -> 0, so the fit takes the smallest dispersion and the median at the transition."""
    counts = collapse_counts([0.1, 0.1, 0.2, 0.2, 0.3, 0.3], np.array(collapsed, dtype=bool))
    fit = fit_fragility(counts)
    assert fit.separated and fit.median == pytest.approx(median, rel=1e-12)
    assert fit.dispersion == TOL.fragility_dispersion_low
    assert fit.log_likelihood > log_likelihood(counts, fit.median, 2.0 * fit.dispersion) - 1e-12


@pytest.mark.parametrize("collapsed, message", [([False, False], "no record collapsed"),
                                                ([True, True], "every record collapsed")])
def test_a_fit_without_collapses_or_survivals_is_refused(collapsed, message):
    with pytest.raises(ModelError, match=message) as error:
        fit_fragility(collapse_counts([0.1, 0.2], np.array(collapsed)))
    assert error.value.path == "collapsed"


def test_a_fit_at_one_intensity_level_is_refused():
    """3 collapses of 10 at one level: Phi(ln(x / theta) / beta) = 0.3 holds along a whole ridge of
    (theta, beta), so there is no fit to give (before: theta = x and the smallest dispersion)."""
    counts = collapse_counts([0.2] * 10, np.arange(10) < 3)
    with pytest.raises(ModelError, match="one intensity level") as error:
        fit_fragility(counts)
    assert error.value.path == "intensity"


def test_bad_collapse_inputs_say_where():
    with pytest.raises(ModelError) as error:
        collapse_counts([0.1, -0.2], np.array([True, False]))
    assert error.value.path == "intensity"
    with pytest.raises(ModelError) as error:
        collapse_counts([0.1, 0.2], [1, 0])
    assert error.value.path == "collapsed"


def test_dkw_epsilon_closed_form():
    assert dkw_epsilon(100, 0.95) == pytest.approx(np.sqrt(np.log(40.0) / 200.0), rel=1e-12)
    assert dkw_epsilon(100, 0.90) == pytest.approx(np.sqrt(np.log(20.0) / 200.0), rel=1e-12)


@pytest.mark.parametrize("confidence", [0.90, 0.95])
def test_dkw_band_covers_the_true_cdf(confidence):
    """400 seeded samples (seed 17) of 40 standard normal values: the band holds Phi everywhere in a fraction
    of them at least the confidence less two standard errors of 400 repetitions (DKW guarantees >= confidence;
    measured 0.9075 at 90 % and 0.960 at 95 %)."""
    rng = np.random.default_rng(SEED)
    covered = 0
    for _ in range(400):
        cdf = empirical_cdf(rng.standard_normal(40), confidence)
        true = stats.norm.cdf(cdf.values)
        # F_n is constant between sorted values: the band holds F when F(x_i) >= lower_i and F(x_i) <= upper_{i-1}
        below = np.concatenate([[dkw_epsilon(40, confidence)], cdf.upper[:-1]])
        covered += bool(np.all(true >= cdf.lower) and np.all(true <= below))
    assert covered / 400 >= confidence - 2.0 * np.sqrt(confidence * (1.0 - confidence) / 400)


def test_empirical_cdf_steps():
    cdf = empirical_cdf([3.0, 1.0, 2.0, 4.0], 0.95)
    assert cdf.values.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert cdf.probability.tolist() == [0.25, 0.5, 0.75, 1.0]
    eps = dkw_epsilon(4, 0.95)
    assert cdf.lower.tolist() == pytest.approx(np.clip(cdf.probability - eps, 0.0, 1.0).tolist())
    assert cdf.upper[-1] == 1.0


def test_clopper_pearson_against_closed_forms():
    """0 of n: upper = 1 - (alpha/2)^(1/n); n of n: lower = (alpha/2)^(1/n); otherwise beta quantiles."""
    assert binomial_interval(0, 10, 0.95, "clopper-pearson") == pytest.approx((0.0, 1.0 - 0.025 ** 0.1), abs=1e-9)
    assert binomial_interval(10, 10, 0.95, "clopper-pearson") == pytest.approx((0.025 ** 0.1, 1.0), abs=1e-9)
    assert binomial_interval(5, 10, 0.95, "clopper-pearson") == pytest.approx(
        (stats.beta.ppf(0.025, 5, 6), stats.beta.ppf(0.975, 6, 5)), abs=1e-9)
    assert binomial_interval(5, 10, 0.95, "clopper-pearson") == pytest.approx((0.187086, 0.812914), abs=1e-6)


def test_wilson_against_its_formula():
    k, n, z = 3, 20, stats.norm.ppf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert binomial_interval(k, n, 0.95) == pytest.approx((centre - half, centre + half), abs=1e-12)


def test_binomial_interval_refuses_impossible_counts():
    with pytest.raises(ModelError, match="11 successes of 10 trials"):
        binomial_interval(11, 10)
    with pytest.raises(ModelError) as error:
        binomial_interval(1, 10, confidence=95)
    assert error.value.path == "confidence"


def test_ks_distance():
    assert ks_distance([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])[0] == 0.0
    assert ks_distance([1.0, 2.0], [3.0, 4.0])[0] == 1.0
    # between 2 and 2.5, F_a = 2/3 and F_b = 0
    assert ks_distance([1.0, 2.0, 3.0], [2.5])[0] == pytest.approx(2.0 / 3.0)


def test_a_bad_sample_says_what_and_where():
    with pytest.raises(ModelError, match="index 1") as error:
        ks_distance([1.0, np.nan], [1.0])
    assert error.value.path == "sample_a"
    with pytest.raises(ModelError) as error:
        empirical_cdf([])
    assert error.value.path == "sample"
    with pytest.raises(ModelError, match="could not convert string") as error:
        response_statistics(["record A", "record B"], [1.0, 2.0])
    assert error.value.path == "parameter"


def test_response_statistics_per_parameter_value():
    friction = [0.6, 0.6, 0.6, 0.7, 0.7, 0.8]
    rotation = [1.0, 3.0, 2.0, 10.0, np.nan, np.nan]
    table = response_statistics(friction, rotation, percentiles=(16.0, 84.0))
    assert table.parameter.tolist() == [0.6, 0.7, 0.8]
    assert table.count.tolist() == [3, 1, 0] and table.missing.tolist() == [0, 1, 1]
    assert table.percentiles.tolist() == [16.0, 50.0, 84.0]
    assert table.median()[:2].tolist() == [2.0, 10.0] and np.isnan(table.median()[2])
    assert table.values[0].tolist() == pytest.approx(np.percentile([1.0, 2.0, 3.0], [16.0, 50.0, 84.0]).tolist())
    document = json.loads(json.dumps(response_document(table), allow_nan=False))
    assert document["values"][2] == [None, None, None]


def test_documents_are_strict_json(fragility):
    counts, fit, bootstrap = fragility
    document = json.loads(json.dumps(fragility_document(counts, fit, bootstrap), allow_nan=False))
    assert document["fit"]["median"] == fit.median
    assert document["bootstrap"]["seed"] == SEED and document["bootstrap"]["resamples"] == RESAMPLES
    assert document["levels"]["collapses"] == counts.collapses.tolist()
    fraction, lower, upper = collapse_fractions(counts)
    assert document["levels"]["fraction_interval"]["lower"] == lower.tolist()
    assert np.all((lower <= fraction) & (fraction <= upper))
    cdf = json.loads(json.dumps(cdf_document(empirical_cdf([1.0, 2.0])), allow_nan=False))
    assert cdf["probability"] == [0.5, 1.0] and cdf["dkw_epsilon"] == dkw_epsilon(2, 0.95)


def test_cdf_figure_reads_back():
    rng = np.random.default_rng(SEED)
    x = np.linspace(-3.0, 3.0, 50)
    fig = cdf_figure({"NSCD": empirical_cdf(rng.standard_normal(30)),
                      "Housner ODE": empirical_cdf(rng.standard_normal(30), 0.90)},
                     "theta_max / alpha over 30 records", "theta_max / alpha",
                     reference=("normal", x, stats.norm.cdf(x)))
    ax = fig.axes[0]
    assert ax.get_title() == "theta_max / alpha over 30 records"
    assert len(ax.lines) == 3 and len(ax.collections) == 2
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert "Housner ODE: 90% DKW band" in labels and "normal" in labels
    plt.close(fig)


def test_fragility_figure_reads_back(fragility):
    counts, fit, bootstrap = fragility
    fig = fragility_figure({"in plane": fragility}, "spandrel wall", "PGA (g)")
    ax = fig.axes[0]
    assert ax.get_title() == "spandrel wall" and ax.get_xlabel() == "PGA (g)"
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 1 and len(ax.collections) == 2  # the bootstrap band and the error bars
    points = bars[0].lines[0]
    assert points.get_xdata().tolist() == counts.intensity.tolist()
    assert points.get_ydata().tolist() == (counts.collapses / counts.records).tolist()
    curve = ax.lines[0]
    assert curve.get_label() == f"in plane: theta = {fit.median:.3g}, beta = {fit.dispersion:.2f}"
    assert np.interp(fit.median, curve.get_xdata(), curve.get_ydata()) == pytest.approx(0.5, abs=0.01)
    plt.close(fig)
