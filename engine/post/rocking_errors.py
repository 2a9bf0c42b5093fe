"""Free rocking read against Housner's closed form: impacts, amplitudes, half periods and the error measures.

Seed 003 sec. 2.1 and 3.2. A rocking angle theta(t) (rad) changes sign at every impact; the n-th half
cycle (n = 0 from the release) has the amplitude theta_n and lasts T_n / 2, T_0 / 2 being twice the
time to the first impact. Housner's theory gives both in closed form (eq. 3); the distance of a
numerical free rocking from it is measured by e_theta, e_T and e_G (eq. 7-8). The energy left
after n impacts is proportional to 1 - (1 - theta_n / alpha)^2 (eq. 3), so the ratio of two
consecutive such terms is the coefficient of restitution r an impact realised.
"""
import math

import numpy as np

#: Seed 003 sec. 3.2: N counts the impacts until the amplitude falls below 5 % of theta_0.
SIGNIFICANT_FRACTION = 0.05


def housner_eq3(theta0, r, p, impacts):
    """Seed 003 eq. 3: theta_n / alpha and T_n / 2 (s) for n = 0 .. impacts - 1.

    theta_n = 1 - sqrt(1 - r^n [1 - (1 - theta_0)^2]),  T_n/2 = 2/p artanh sqrt(r^n [1 - (1 - theta_0)^2]).

    Parameters
    ----------
    theta0 : float
        theta_0 / alpha.
    r : float
        Coefficient of restitution, a ratio of kinetic energies (eq. 2).
    p : float
        1/s, frequency parameter of eq. 1.
    impacts : int
        How many amplitudes to give.

    Returns
    -------
    amplitudes : (impacts,) ndarray
        theta_n / alpha.
    half_periods : (impacts,) ndarray
        T_n / 2, s.
    """
    energy = r ** np.arange(impacts) * (1.0 - (1.0 - theta0) ** 2)
    return 1.0 - np.sqrt(1.0 - energy), 2.0 / p * np.arctanh(np.sqrt(energy))


def eq3_half_period(amplitude, p):
    """T / 2 (s) of a free-rocking half cycle of amplitude theta / alpha (seed 003 eq. 3 read per cycle).

    Eliminating r^n from eq. 3: T_n / 2 = 2/p artanh sqrt(1 - (1 - theta_n / alpha)^2); the curve of
    seed 003 fig. 4c on which every (theta_n, T_n / 2) of a free rocking lies, whatever r.

    Parameters
    ----------
    amplitude : array_like of float
        theta_n / alpha, each in (0, 1).
    p : float
        1/s.

    Returns
    -------
    ndarray
        T_n / 2, s, the shape of ``amplitude``.
    """
    a = np.asarray(amplitude, dtype=float)
    return 2.0 / p * np.arctanh(np.sqrt(1.0 - (1.0 - a) ** 2))


def half_periods(impacts):
    """T_n / 2 (s) from impact times (s): T_0/2 is twice the time to the first impact (seed 003 after eq. 3)."""
    return np.diff(np.concatenate([[-impacts[0]], impacts]))


def rocking_cycles(t, theta):
    """Impact times (zero crossings, interpolated linearly) and the amplitude of each half cycle before one.

    Parameters
    ----------
    t, theta : (n,) ndarray
        Times (s) and rocking angle (rad).

    Returns
    -------
    impacts : (K,) ndarray
        s, the K impacts found.
    amplitudes : (K,) ndarray
        theta_0 .. theta_{K-1} (rad): the largest |theta| of each half cycle that ends in an impact.
    """
    crossing = np.flatnonzero(np.signbit(theta[1:]) != np.signbit(theta[:-1]))   # a sampled theta = 0 counts once
    impacts = t[crossing] - theta[crossing] * (t[crossing + 1] - t[crossing]) / (theta[crossing + 1] -
                                                                                theta[crossing])
    bounds = np.concatenate([[0], crossing + 1])
    amplitudes = np.array([np.abs(theta[a:b]).max() for a, b in zip(bounds[:-1], bounds[1:])])
    return impacts, amplitudes


def significant_impacts(amplitude_ratio):
    """N of seed 003 sec. 3.2: the first n whose amplitude falls below SIGNIFICANT_FRACTION theta_0
    (the last index when none does)."""
    below = np.flatnonzero(amplitude_ratio < SIGNIFICANT_FRACTION * amplitude_ratio[0])
    return int(below[0]) if len(below) else len(amplitude_ratio) - 1


def error_measures(amplitude, half_period, reference_amplitude, reference_half_period, n):
    """Seed 003 eq. 7-8 over n = 0 .. N (N = n): e_theta, e_T, e_G, each relative to the reference's n = 0.

    e_theta = 1/theta_0 sqrt(1/N sum_{n=0}^{N} |theta_ref_n - theta_n|^2), e_T alike with T_n/2,
    e_G = sqrt(e_theta^2 + e_T^2). As in the paper the sum of N + 1 terms is divided by N.

    Returns
    -------
    dict
        N, e_theta, e_T, e_G (dimensionless).
    """
    k = slice(0, n + 1)
    e_theta = math.sqrt(np.sum((reference_amplitude[k] - amplitude[k]) ** 2) / n) / reference_amplitude[0]
    e_t = math.sqrt(np.sum((reference_half_period[k] - half_period[k]) ** 2) / n) / reference_half_period[0]
    return {"N": n, "e_theta": e_theta, "e_T": e_t, "e_G": math.hypot(e_theta, e_t)}


def impact_energy_ratios(amplitudes):
    """The energy ratio r_n each impact realised, from consecutive amplitudes theta_n / alpha (eq. 3).

    r_n = [1 - (1 - theta_n)^2] / [1 - (1 - theta_{n-1})^2], n = 1 .. K - 1; Housner's r for every n.

    Parameters
    ----------
    amplitudes : (K,) array_like of float
        theta_0 / alpha .. theta_{K-1} / alpha.

    Returns
    -------
    (K - 1,) ndarray
    """
    energy = 1.0 - (1.0 - np.asarray(amplitudes, dtype=float)) ** 2
    return energy[1:] / energy[:-1]
