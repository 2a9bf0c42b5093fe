"""Lognormal fragility curves fitted by maximum likelihood to collapse counts per intensity level (Baker 2015,
"Efficient analytical fragility function fitting using dynamic structural analysis", Earthquake Spectra 31(1),
multiple stripe analysis), with bootstrap confidence intervals and the collapse fraction per level.

Inputs are plain arrays, one entry per case of a batch: the intensity measure of its record (e.g. PGA in g)
and whether it collapsed.
"""
from typing import NamedTuple

import numpy as np
from scipy import optimize, special, stats

from extrados.engine.errors import ModelError
from extrados.engine.post.statistics import binomial_interval, checked_confidence, finite_sample
from extrados.engine.result import finite_or_null
from extrados.engine.tolerance import TOL


class CollapseCounts(NamedTuple):
    """Collapse counts per intensity level (Baker 2015's n_j and z_j)."""

    intensity: np.ndarray  # (m,) float64, the distinct intensity levels x_j, ascending (IM unit, > 0)
    records: np.ndarray  # (m,) int64, records analysed at each level, n_j
    collapses: np.ndarray  # (m,) int64, records that collapsed at each level, z_j


class FragilityFit(NamedTuple):
    """The maximum-likelihood lognormal fragility function."""

    median: float  # theta, the intensity with P(collapse) = 0.5 (IM unit)
    dispersion: float  # beta, the standard deviation of ln IM at collapse
    log_likelihood: float  # the maximised sum of Baker 2015 eq. 12, binomial coefficients included
    separated: bool  # the levels separate survival from collapse: no finite maximum (see `separated_fit`)


class FragilityBootstrap(NamedTuple):
    """Fits to the counts of records resampled with replacement within each level."""

    medians: np.ndarray  # (n_resamples,) float64, theta of each resample (IM unit)
    dispersions: np.ndarray  # (n_resamples,) float64, beta of each resample
    median_interval: tuple  # (lower, upper) percentile interval of theta
    dispersion_interval: tuple  # (lower, upper) percentile interval of beta
    confidence: float  # two-sided confidence level of the intervals
    seed: int  # of the numpy Generator that drew the resamples


def collapse_counts(intensity, collapsed):
    """Count the records and collapses at each distinct intensity level.

    Parameters
    ----------
    intensity : (n,) array_like of float
        Intensity measure of each case (e.g. PGA in g, or Sa(T1)); positive.
    collapsed : (n,) array_like of bool
        Whether each case collapsed.

    Returns
    -------
    CollapseCounts
    """
    levels_of_cases = finite_sample(intensity, "intensity")
    if np.any(levels_of_cases <= 0.0):
        raise ModelError("intensity levels are positive (the fragility is lognormal in them)", path="intensity")
    flags = np.asarray(collapsed)
    if flags.shape != levels_of_cases.shape or flags.dtype != bool:
        raise ModelError(f"expected one true/false per case ({levels_of_cases.size}), got shape {flags.shape} "
                         f"of {flags.dtype}", path="collapsed")
    levels, index = np.unique(levels_of_cases, return_inverse=True)
    records = np.bincount(index, minlength=levels.size).astype(np.int64)
    collapses = np.bincount(index, weights=flags, minlength=levels.size).astype(np.int64)
    return CollapseCounts(levels, records, collapses)


def collapse_probability(intensity, median, dispersion):
    """P(C | IM = x) = Phi(ln(x / theta) / beta), Baker 2015 eq. 1.

    Parameters
    ----------
    intensity : array_like of float
        x, in the unit of ``median``; positive.
    median, dispersion : float
        theta and beta.

    Returns
    -------
    ndarray of float
        Probability of collapse, the shape of ``intensity``.
    """
    return stats.norm.cdf(np.log(np.asarray(intensity, dtype=float) / median) / dispersion)


def log_likelihood(counts, median, dispersion):
    """ln L(theta, beta) of the counts: Baker 2015 eq. 11-12,
    sum_j [ ln C(n_j, z_j) + z_j ln Phi(ln(x_j/theta)/beta) + (n_j - z_j) ln(1 - Phi(ln(x_j/theta)/beta)) ].

    Parameters
    ----------
    counts : CollapseCounts
    median, dispersion : float
        theta (IM unit) and beta.

    Returns
    -------
    float
    """
    u = np.log(counts.intensity / median) / dispersion
    survivals = counts.records - counts.collapses
    log_binomial = (special.gammaln(counts.records + 1) - special.gammaln(counts.collapses + 1)
                    - special.gammaln(survivals + 1))
    return float(np.sum(log_binomial + counts.collapses * special.log_ndtr(u) + survivals * special.log_ndtr(-u)))


def negative_log_likelihood(log_parameters, counts):
    """-ln L (`log_likelihood`) at (ln theta, ln beta) and its gradient (2,).

    With u_j = (ln x_j - ln theta) / beta, d ln L / d u_j = z_j phi/Phi(u_j) - (n_j - z_j) phi/Phi(-u_j),
    du_j / d ln theta = -1 / beta and du_j / d ln beta = -u_j.
    """
    median, dispersion = np.exp(log_parameters)
    u = np.log(counts.intensity / median) / dispersion
    log_pdf = stats.norm.logpdf(u)
    slope = (counts.collapses * np.exp(log_pdf - special.log_ndtr(u))
             - (counts.records - counts.collapses) * np.exp(log_pdf - special.log_ndtr(-u)))
    gradient = np.array([-np.sum(slope) / dispersion, -np.sum(slope * u)])
    return -log_likelihood(counts, median, dispersion), -gradient


def fit_bounds(counts):
    """Bounds of (ln theta, ln beta) searched by `fit_fragility` (TOL.fragility_*)."""
    reach = np.log(TOL.fragility_median_reach)
    return [(np.log(counts.intensity[0]) - reach, np.log(counts.intensity[-1]) + reach),
            (np.log(TOL.fragility_dispersion_low), np.log(TOL.fragility_dispersion_high))]


def fit_fragility(counts):
    """The lognormal fragility that maximises the likelihood of the counts (Baker 2015 eq. 12).

    Maximised over (ln theta, ln beta) by bounded truncated Newton (scipy TNC) with the gradient of
    `negative_log_likelihood`, from theta = the geometric mean of the levels and beta = 0.5, within
    `fit_bounds`; levels that separate survival from collapse have no maximum and get `separated_fit`.

    Parameters
    ----------
    counts : CollapseCounts

    Returns
    -------
    FragilityFit

    Raises
    ------
    ModelError
        When no record collapsed, or every record did: the likelihood then has no maximum at all; and
        when the records are at one intensity level, whose collapse fraction any median matches with
        some dispersion (a ridge of maxima, not one).
    """
    total = int(counts.collapses.sum())
    if total == 0 or total == int(counts.records.sum()):
        what = "no record collapsed" if total == 0 else "every record collapsed"
        raise ModelError(f"{what}: a fragility curve needs both collapses and survivals", path="collapsed")
    if counts.intensity.size < 2:
        raise ModelError(f"every record is at one intensity level ({counts.intensity[0]:g}): its collapse fraction "
                         "cannot fix both a median and a dispersion; run two levels or more", path="intensity")
    return maximum_likelihood(counts, fit_bounds(counts))


def separated_fit(counts):
    """The fit of counts whose levels separate survival from collapse, or None when they do not.

    When every level below some level j survived entirely and every level above it collapsed entirely
    (level j itself may be mixed), the likelihood grows without bound as beta -> 0 with theta at the
    transition: there is no maximum. The fit then takes theta as the geometric mean of the highest level
    that did not entirely collapse and the lowest one with a collapse (beyond the levels by
    TOL.fragility_median_reach when there is none) and beta = TOL.fragility_dispersion_low.
    """
    collapsing = np.flatnonzero(counts.collapses > 0)
    surviving = np.flatnonzero(counts.collapses < counts.records)
    if collapsing.size and surviving.size and collapsing[0] < surviving[-1]:
        return None
    first = counts.intensity[collapsing[0]] if collapsing.size else counts.intensity[-1] * TOL.fragility_median_reach
    last = counts.intensity[surviving[-1]] if surviving.size else counts.intensity[0] / TOL.fragility_median_reach
    median, dispersion = float(np.sqrt(first * last)), TOL.fragility_dispersion_low
    return FragilityFit(median, dispersion, log_likelihood(counts, median, dispersion), True)


def maximum_likelihood(counts, bounds):
    """`fit_fragility` without the check of the counts (a resample may have no collapse: see `separated_fit`)."""
    separated = separated_fit(counts)
    if separated is not None:
        return separated
    start = np.array([np.mean(np.log(counts.intensity)), np.log(0.5)])
    found = optimize.minimize(negative_log_likelihood, start, args=(counts,), jac=True, method="TNC",
                              bounds=bounds)
    return FragilityFit(float(np.exp(found.x[0])), float(np.exp(found.x[1])), float(-found.fun), False)


def percentile_tails(confidence):
    """(2,) percentiles (0-100) that bound a two-sided percentile interval at ``confidence``."""
    return 100.0 * np.array([(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0])


def bootstrap_fragility(counts, n_resamples=200, seed=0, confidence=0.95):
    """Percentile bootstrap intervals of theta and beta.

    Each resample draws, at each level j, n_j records with replacement from its n_j records; its number of
    collapses is then Binomial(n_j, z_j / n_j), which is how it is drawn. Each resample is fitted as in
    `fit_fragility` (a resample without collapse or survival gets `separated_fit`).

    Parameters
    ----------
    counts : CollapseCounts
    n_resamples : int
        Number of resamples.
    seed : int
        Seed of the numpy Generator (the intervals are reproducible).
    confidence : float
        Two-sided confidence level of the intervals.

    Returns
    -------
    FragilityBootstrap
    """
    fit_fragility(counts)  # refuses counts without collapses or survivals
    confidence = checked_confidence(confidence)
    if int(n_resamples) < 1:
        raise ModelError(f"at least one resample, got {n_resamples}", path="n_resamples")
    rng = np.random.default_rng(seed)
    bounds = fit_bounds(counts)
    drawn = rng.binomial(counts.records, counts.collapses / counts.records,
                         size=(int(n_resamples), counts.records.size))
    fits = [maximum_likelihood(CollapseCounts(counts.intensity, counts.records, z), bounds) for z in drawn]
    medians = np.array([fit.median for fit in fits])
    dispersions = np.array([fit.dispersion for fit in fits])
    tails = percentile_tails(confidence)
    return FragilityBootstrap(medians, dispersions, tuple(np.percentile(medians, tails).tolist()),
                              tuple(np.percentile(dispersions, tails).tolist()), confidence, int(seed))


def bootstrap_band(bootstrap, intensity):
    """(2, k) lower and upper percentile bounds of P(C | IM = x) over the bootstrap fits, at ``intensity`` (k,)."""
    curves = collapse_probability(np.asarray(intensity, dtype=float)[None, :], bootstrap.medians[:, None],
                                  bootstrap.dispersions[:, None])
    return np.percentile(curves, percentile_tails(bootstrap.confidence), axis=0)


def collapse_fractions(counts, confidence=0.95, method="wilson"):
    """(3, m) collapse fraction z_j / n_j per level and the lower and upper bounds of its binomial interval."""
    intervals = [binomial_interval(z, n, confidence, method) for z, n in zip(counts.collapses, counts.records)]
    return np.vstack([counts.collapses / counts.records, np.array(intervals).T])


def levels_document(counts, confidence=0.95, method="wilson"):
    """The counts and per-level collapse fractions with their binomial intervals as a strict-JSON dict."""
    fraction, lower, upper = collapse_fractions(counts, confidence, method)
    return {"intensity": finite_or_null(counts.intensity), "records": counts.records.tolist(),
            "collapses": counts.collapses.tolist(), "fraction": finite_or_null(fraction),
            "fraction_interval": {"lower": finite_or_null(lower), "upper": finite_or_null(upper), "method": method,
                                  "confidence": float(confidence)}}


def fragility_document(counts, fit, bootstrap, method="wilson"):
    """The counts, fit, bootstrap intervals and per-level fractions as a strict-JSON dict (no NaN)."""
    return {
        "levels": levels_document(counts, bootstrap.confidence, method),
        "fit": {"median": fit.median, "dispersion": fit.dispersion, "log_likelihood": fit.log_likelihood,
                "separated": fit.separated},
        "bootstrap": {"median_interval": list(bootstrap.median_interval),
                      "dispersion_interval": list(bootstrap.dispersion_interval),
                      "confidence": bootstrap.confidence, "resamples": int(bootstrap.medians.size),
                      "seed": bootstrap.seed},
    }
