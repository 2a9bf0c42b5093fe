"""The impacts and amplitudes of a free-rocking response, and their distance from Housner's closed form
(seed 003 eq. 3, 7-8).

A block released at rest from theta_0 rocks through theta = 0 at each impact; theta_n is the largest
|theta| between impacts n and n + 1 (theta_0 the release angle) and T_n / 2 the time between them, with
T_0 / 2 twice the time to the first impact (seed 003 after eq. 3). Housner's theory gives both in
closed form (eq. 3) for a coefficient of restitution r; eq. 7-8 measure a response's distance from it.
"""
import math

import numpy as np

#: Seed 003 sec. 3.2: N counts the impacts until the amplitude falls below this fraction of theta_0.
SIGNIFICANT_FRACTION = 0.05


def housner_eq3(theta0, r, p, impacts):
    """Seed 003 eq. 3: theta_n / alpha and T_n / 2 (s) for n = 0 .. impacts - 1.

    theta_n = 1 - sqrt(1 - r^n [1 - (1 - theta_0)^2]),  T_n/2 = 2/p artanh sqrt(r^n [1 - (1 - theta_0)^2]).

    Parameters
    ----------
    theta0 : float
        theta_0 / alpha of the release.
    r : float
        Coefficient of restitution (eq. 2), the ratio of kinetic energies after and before an impact.
    p : float
        Frequency parameter, 1/s.
    impacts : int
        How many terms.

    Returns
    -------
    amplitudes, half_periods : ndarray
        (impacts,) float64 each, theta_n / alpha and T_n / 2 (s).
    """
    energy = r ** np.arange(impacts) * (1.0 - (1.0 - theta0) ** 2)
    return 1.0 - np.sqrt(1.0 - energy), 2.0 / p * np.arctanh(np.sqrt(energy))


def half_periods(impacts):
    """T_n / 2 (s) from the impact times (s): T_0/2 is twice the time to the first impact (seed 003 after eq. 3)."""
    return np.diff(np.concatenate([[-impacts[0]], impacts]))


def rocking_cycles(t, theta):
    """Impact times (where theta changes sign, interpolated linearly) and the amplitude of each half cycle
    that one ends.

    Parameters
    ----------
    t : ndarray
        (n,) float64, s.
    theta : ndarray
        (n,) float64, rad, the rocking angle from the release at t[0].

    Returns
    -------
    impacts : ndarray
        (K,) float64, s, the K impacts found.
    amplitudes : ndarray
        (K,) float64, rad: theta_0 .. theta_{K-1}, the largest |theta| before each impact.
    """
    crossing = np.flatnonzero(np.signbit(theta[1:]) != np.signbit(theta[:-1]))   # a sampled theta = 0 counts once
    impacts = t[crossing] - theta[crossing] * (t[crossing + 1] - t[crossing]) / (theta[crossing + 1] -
                                                                                theta[crossing])
    bounds = np.concatenate([[0], crossing + 1])
    amplitudes = np.array([np.abs(theta[a:b]).max() for a, b in zip(bounds[:-1], bounds[1:])])
    return impacts, amplitudes


def significant_impacts(amplitude_ratio):
    """N of seed 003 sec. 3.2: the first n whose amplitude falls below SIGNIFICANT_FRACTION theta_0
    (the last n when none does)."""
    below = np.flatnonzero(amplitude_ratio < SIGNIFICANT_FRACTION * amplitude_ratio[0])
    return int(below[0]) if len(below) else len(amplitude_ratio) - 1


def error_measures(amplitude, half_period, reference_amplitude, reference_half_period, n):
    """Seed 003 eq. 7-8 over n = 0 .. N (N = n >= 1): e_theta, e_T, e_G, each relative to the reference's n = 0.

    e_theta = 1/theta_0 sqrt(1/N sum_{n=0}^{N} |theta_ref_n - theta_n|^2), e_T alike with T_n/2,
    e_G = sqrt(e_theta^2 + e_T^2). As in the paper the sum of N + 1 terms is divided by N.

    Returns
    -------
    dict
        N, e_theta, e_T, e_G (fractions, not per cent).
    """
    k = slice(0, n + 1)
    e_theta = math.sqrt(np.sum((reference_amplitude[k] - amplitude[k]) ** 2) / n) / reference_amplitude[0]
    e_t = math.sqrt(np.sum((reference_half_period[k] - half_period[k]) ** 2) / n) / reference_half_period[0]
    return {"N": n, "e_theta": e_theta, "e_T": e_t, "e_G": math.hypot(e_theta, e_t)}
