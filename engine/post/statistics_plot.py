"""Pictures of batch statistics (issue 17): empirical CDFs with their DKW confidence bands, and fragility
curves with their bootstrap bands over the collapse fraction of each intensity level and its binomial interval.
Each function returns the matplotlib Figure; the caller saves it.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from extrados.engine.post.fragility import bootstrap_band, collapse_fractions, collapse_probability  # noqa: E402

#: Points on which a fragility curve and its band are drawn.
CURVE_POINTS = 200
#: Opacity of a confidence band under its line.
BAND_ALPHA = 0.25


def label_probability_axes(ax, title, xlabel, ylabel):
    """Title and labels of axes whose y is a probability (0 to 1), and their legend."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0.0, 1.0)
    ax.legend(loc="lower right")


def cdf_figure(cdfs, title, xlabel, reference=None):
    """Empirical CDFs as steps over their DKW bands, and an optional reference curve.

    Parameters
    ----------
    cdfs : dict of str to engine.post.statistics.EmpiricalCdf
        One labelled CDF each, e.g. {"NSCD": ..., "Housner ODE": ...}.
    title, xlabel : str
        The axes title and x label (e.g. "theta_max / alpha").
    reference : (str, (k,) array, (k,) array), optional
        A label, x values and CDF values drawn as a dashed line (e.g. a closed-form distribution).

    Returns
    -------
    matplotlib.figure.Figure
        One solid step line per CDF (and a dashed one for the reference); one filled band per CDF.
    """
    fig, ax = plt.subplots(figsize=(6.0, 4.5))
    for label, cdf in cdfs.items():
        (line,) = ax.step(cdf.values, cdf.probability, where="post", label=label)
        ax.fill_between(cdf.values, cdf.lower, cdf.upper, step="post", color=line.get_color(), alpha=BAND_ALPHA,
                        label=f"{label}: {cdf.confidence:.0%} DKW band")
    if reference is not None:
        label, x, probability = reference
        ax.plot(x, probability, "k--", label=label)
    label_probability_axes(ax, title, xlabel, "cumulative probability")
    return fig


def fragility_figure(curves, title, xlabel, method="wilson"):
    """Fragility curves over their bootstrap bands, with each level's collapse fraction and its interval.

    Parameters
    ----------
    curves : dict of str to (CollapseCounts, FragilityFit, FragilityBootstrap)
        One labelled fit each (engine.post.fragility), e.g. {"in plane": ..., "out of plane": ...}.
    title, xlabel : str
        The axes title and x label (e.g. "PGA (g)").
    method : {"wilson", "clopper-pearson"}
        Binomial interval of the per-level fractions, at the bootstrap's confidence level.

    Returns
    -------
    matplotlib.figure.Figure
        Per curve: one line of Phi(ln(x / theta) / beta), one filled band, one errorbar series of fractions.
    """
    fig, ax = plt.subplots(figsize=(6.0, 4.5))
    for label, (counts, fit, bootstrap) in curves.items():
        x = np.linspace(0.0, counts.intensity[-1] * 1.2, CURVE_POINTS)[1:]
        (line,) = ax.plot(x, collapse_probability(x, fit.median, fit.dispersion),
                          label=f"{label}: theta = {fit.median:.3g}, beta = {fit.dispersion:.2f}")
        lower, upper = bootstrap_band(bootstrap, x)
        ax.fill_between(x, lower, upper, color=line.get_color(), alpha=BAND_ALPHA)
        fraction, low, high = collapse_fractions(counts, bootstrap.confidence, method)
        ax.errorbar(counts.intensity, fraction, yerr=[fraction - low, high - fraction], fmt="o",
                    color=line.get_color(), capsize=3, label=f"{label}: collapsed fraction")
    label_probability_axes(ax, title, xlabel, "P(collapse)")
    return fig
