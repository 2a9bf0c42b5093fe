"""Ground velocity and displacement of a sampled accelerogram, and its baseline correction.

A record is linear between its samples (the support motion of kind `record` reads it so), so for
samples a_k every dt, from rest,

    v_k = v_{k-1} + dt (a_{k-1} + a_k) / 2,                                    (1)
    d_k = d_{k-1} + dt v_{k-1} + dt^2 (a_{k-1} / 3 + a_k / 6),                 (2)

exact for the piecewise-linear acceleration. A small offset of the accelerometer's zero (a tilt,
a drift of the instrument, a record cut before the ground came to rest) integrates to a velocity
that does not return to zero and a displacement that grows without bound: a ground that keeps
moving after the record ends.

The correction subtracts the polynomial baseline of lowest degree that brings the ground to rest
at the end, T = (n - 1) dt: an acceleration c(t) = c0 + c1 t (a quadratic baseline of the velocity,
a cubic one of the displacement). Being linear in t it is integrated exactly by (1)-(2), and

    c0 T + c1 T^2 / 2 = v(T),      c0 T^2 / 2 + c1 T^3 / 6 = d(T)              (3)

give v(T) = d(T) = 0 after the correction, to round-off. A constant offset a0 is removed exactly
(c0 = a0, c1 = 0).
"""
import numpy as np


def integrate_record(dt, accelerations):
    """Ground velocity and displacement of a piecewise-linear accelerogram starting from rest.

    Parameters
    ----------
    dt : float
        Time between samples, s.
    accelerations : array_like, shape (n,) or (n, 3)
        Ground acceleration samples, m/s^2, the first at t = 0.

    Returns
    -------
    velocities, displacements : ndarray, the shape of `accelerations`
        Ground velocity (m/s) and displacement (m) at the samples, eqs. (1)-(2).
    """
    acc = np.asarray(accelerations, float)
    vel = np.zeros_like(acc)
    disp = np.zeros_like(acc)
    # running sums of eq. (1)-(2)'s increments (np.cumsum adds in order, as the recursion does)
    np.cumsum(0.5 * dt * (acc[:-1] + acc[1:]), axis=0, out=vel[1:])
    np.cumsum(dt * vel[:-1] + dt * dt * (acc[:-1] / 3.0 + acc[1:] / 6.0), axis=0, out=disp[1:])
    return vel, disp


def baseline_corrected(dt, accelerations):
    """The record less the linear acceleration baseline that brings the ground to rest at its end.

    Parameters
    ----------
    dt : float
        Time between samples, s.
    accelerations : array_like, shape (n,) or (n, 3), n >= 2
        Ground acceleration samples, m/s^2, the first at t = 0.

    Returns
    -------
    ndarray, the shape of `accelerations`
        Corrected accelerations a_k - c0 - c1 t_k (m/s^2) whose velocity and displacement by
        eqs. (1)-(2) are zero at the last sample, eq. (3).
    """
    acc = np.asarray(accelerations, float)
    end = (len(acc) - 1) * dt
    vel, disp = integrate_record(dt, acc)
    system = np.array([[end, end ** 2 / 2.0], [end ** 2 / 2.0, end ** 3 / 6.0]])
    c0, c1 = np.linalg.solve(system, np.stack([vel[-1], disp[-1]]))
    times = dt * np.arange(len(acc)).reshape((-1,) + (1,) * (acc.ndim - 1))
    return acc - c0 - c1 * times
