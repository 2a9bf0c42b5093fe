"""Statistics of a sample of responses (issue 17): its empirical CDF with a Dvoretzky-Kiefer-Wolfowitz
confidence band, the binomial confidence interval of a fraction, the Kolmogorov-Smirnov distance between two
samples, and response statistics per parameter value; each with a strict-JSON document.

Inputs are plain numpy arrays (one value per case of a batch), so that a batch runner can call these on
the columns of its table.
"""
from typing import NamedTuple

import numpy as np
from scipy import stats

from extrados.engine.errors import ModelError
from extrados.engine.result import finite_or_null

#: Percentiles (%) that `response_statistics` reports unless asked for others: the median and the
#: 16/84 % and 5/95 % fractiles (one and two standard deviations of a lognormal response).
RESPONSE_PERCENTILES = (5.0, 16.0, 50.0, 84.0, 95.0)
#: Binomial interval methods and their names in scipy.stats.BinomTestResult.proportion_ci.
BINOMIAL_METHODS = {"clopper-pearson": "exact", "wilson": "wilson"}


class EmpiricalCdf(NamedTuple):
    """The empirical CDF of a sample and its DKW band, as a step function rising at each sorted value."""

    values: np.ndarray  # (n,) float64, the sample sorted ascending (unit of the sample)
    probability: np.ndarray  # (n,) float64, F_n at and right of values[i]: (i + 1) / n
    lower: np.ndarray  # (n,) float64, max(F_n - eps, 0)
    upper: np.ndarray  # (n,) float64, min(F_n + eps, 1)
    confidence: float  # 1 - alpha of the band


def finite_sample(values, name):
    """``values`` as a (n,) float64 array of at least one finite number.

    Raises
    ------
    ModelError
        At ``name`` when the values are not a non-empty one-dimensional array of finite numbers.
    """
    try:
        sample = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise ModelError(f"expected numbers: {error}", path=name) from error
    if sample.ndim != 1 or sample.size == 0:
        raise ModelError(f"expected a non-empty list of numbers, got shape {sample.shape}", path=name)
    bad = np.flatnonzero(~np.isfinite(sample))
    if bad.size:
        raise ModelError(f"value {sample[bad[0]]} at index {bad[0]} is not a finite number", path=name)
    return sample


def checked_confidence(confidence):
    """``confidence`` as a float strictly between 0 and 1 (ModelError at ``confidence`` otherwise)."""
    if not 0.0 < confidence < 1.0:
        raise ModelError(f"a confidence level is between 0 and 1 (e.g. 0.95), got {confidence}",
                         path="confidence")
    return float(confidence)


def dkw_epsilon(n, confidence):
    """Half-width of the Dvoretzky-Kiefer-Wolfowitz band of an empirical CDF of ``n`` values.

    P(sup_x |F_n(x) - F(x)| > eps) <= 2 exp(-2 n eps^2) (Massart's constant), so the band F_n +- eps
    holds the true CDF everywhere with probability at least 1 - alpha when
    eps = sqrt(ln(2 / alpha) / (2 n)), alpha = 1 - confidence.

    Parameters
    ----------
    n : int
        Sample size.
    confidence : float
        1 - alpha, e.g. 0.90 or 0.95.

    Returns
    -------
    float
        eps, a probability.
    """
    alpha = 1.0 - checked_confidence(confidence)
    return float(np.sqrt(np.log(2.0 / alpha) / (2.0 * n)))


def empirical_cdf(sample, confidence=0.95):
    """The empirical CDF of ``sample`` with its DKW confidence band (`dkw_epsilon`).

    Parameters
    ----------
    sample : (n,) array_like of float
        The responses, e.g. theta_max / alpha of each record.
    confidence : float
        1 - alpha of the band.

    Returns
    -------
    EmpiricalCdf
    """
    values = np.sort(finite_sample(sample, "sample"))
    probability = np.arange(1, values.size + 1) / values.size
    eps = dkw_epsilon(values.size, confidence)
    return EmpiricalCdf(values, probability, np.clip(probability - eps, 0.0, 1.0),
                        np.clip(probability + eps, 0.0, 1.0), float(confidence))


def binomial_interval(successes, trials, confidence=0.95, method="wilson"):
    """Confidence interval of the fraction ``successes / trials`` (scipy.stats.binomtest).

    Parameters
    ----------
    successes, trials : int
        E.g. collapsed records and records at one intensity level; 0 <= successes <= trials, trials >= 1.
    confidence : float
        Two-sided confidence level.
    method : {"wilson", "clopper-pearson"}
        Wilson's score interval, or the exact Clopper-Pearson interval (beta quantiles, conservative).

    Returns
    -------
    (float, float)
        Lower and upper bounds of the fraction.
    """
    if method not in BINOMIAL_METHODS:
        raise ModelError(f"unknown method {method!r}; one of {sorted(BINOMIAL_METHODS)}", path="method")
    if not (int(trials) >= 1 and 0 <= int(successes) <= int(trials)):
        raise ModelError(f"{successes} successes of {trials} trials: expected 0 <= successes <= trials, "
                         "trials >= 1", path="successes")
    interval = stats.binomtest(int(successes), int(trials)).proportion_ci(
        confidence_level=checked_confidence(confidence), method=BINOMIAL_METHODS[method])
    return float(interval.low), float(interval.high)


def ks_distance(sample_a, sample_b):
    """Two-sample Kolmogorov-Smirnov distance sup_x |F_a(x) - F_b(x)| and its p-value (scipy.stats.ks_2samp).

    Parameters
    ----------
    sample_a, sample_b : (n_a,), (n_b,) array_like of float
        E.g. theta_max / alpha of the NSCD runs and of the Housner ODE under the same records.

    Returns
    -------
    (float, float)
        The distance (a probability, 0 to 1) and the two-sided p-value of equal distributions.
    """
    result = stats.ks_2samp(finite_sample(sample_a, "sample_a"), finite_sample(sample_b, "sample_b"))
    return float(result.statistic), float(result.pvalue)


class ResponseStatistics(NamedTuple):
    """Statistics of a response per distinct value of a parameter."""

    parameter: np.ndarray  # (m,) float64, the distinct parameter values, ascending
    count: np.ndarray  # (m,) int64, finite responses per value
    missing: np.ndarray  # (m,) int64, non-finite responses (failed cases) per value, left out
    percentiles: np.ndarray  # (k,) float64, the percentiles reported (%)
    values: np.ndarray  # (m, k) float64, the response percentiles per value; nan where count is 0

    def median(self):
        """(m,) float64: the median response per parameter value (nan where none)."""
        return self.values[:, int(np.flatnonzero(self.percentiles == 50.0)[0])]


def response_statistics(parameter, response, percentiles=RESPONSE_PERCENTILES):
    """Percentiles of a response for each distinct value of a parameter (one pair per case).

    Parameters
    ----------
    parameter : (n,) array_like of float
        The parameter of each case, e.g. the friction coefficient or the wall thickness (m).
    response : (n,) array_like of float
        The response of each case, e.g. theta_max / alpha; nan for a failed case (counted in ``missing``).
    percentiles : sequence of float
        Percentiles (0-100) to report; 50 is added when missing.

    Returns
    -------
    ResponseStatistics
    """
    keys = finite_sample(parameter, "parameter")
    response = np.asarray(response, dtype=float)
    if response.shape != keys.shape:
        raise ModelError(f"expected one response per parameter value ({keys.size}), got shape {response.shape}",
                         path="response")
    levels = np.unique(keys)
    wanted = np.unique(np.append(np.asarray(percentiles, dtype=float), 50.0))
    count = np.zeros(levels.size, dtype=np.int64)
    table = np.full((levels.size, wanted.size), np.nan)
    for i, level in enumerate(levels):
        finite = response[(keys == level) & np.isfinite(response)]
        count[i] = finite.size
        if finite.size:
            table[i] = np.percentile(finite, wanted)
    missing = np.array([np.count_nonzero(keys == level) for level in levels]) - count
    return ResponseStatistics(levels, count, missing, wanted, table)


def cdf_document(cdf):
    """An `EmpiricalCdf` as a strict-JSON dict (lists of numbers, no NaN)."""
    return {"values": finite_or_null(cdf.values), "probability": finite_or_null(cdf.probability),
            "lower": finite_or_null(cdf.lower), "upper": finite_or_null(cdf.upper),
            "confidence": cdf.confidence, "dkw_epsilon": dkw_epsilon(cdf.values.size, cdf.confidence)}


def response_document(statistics):
    """`ResponseStatistics` as a strict-JSON dict; a percentile of a value with no finite response is null."""
    return {"parameter": finite_or_null(statistics.parameter), "count": statistics.count.tolist(),
            "missing": statistics.missing.tolist(), "percentiles": finite_or_null(statistics.percentiles),
            "values": finite_or_null(statistics.values)}
