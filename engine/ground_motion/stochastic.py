"""Stochastic ground motions from a seed: Kanai-Tajimi filtered white noise under a time envelope.

The stationary part is the absolute acceleration of the Kanai-Tajimi soil filter (Kanai 1957,
Tajimi 1960), a linear oscillator of ground frequency w_g (rad/s) and damping zeta_g on bedrock
that shakes with white noise w(t):

    x'' + 2 zeta_g w_g x' + w_g^2 x = -w(t),      s(t) = -(2 zeta_g w_g x' + w_g^2 x),   (1)

whose power spectral density, relative to the noise's, is

    S(w) = (1 + 4 zeta_g^2 (w/w_g)^2) / ((1 - (w/w_g)^2)^2 + 4 zeta_g^2 (w/w_g)^2).      (2)

Non-stationarity comes from the envelope of Jennings, Housner and Tsai (1968, "Simulated earthquake
motions", EERL report, eq. 3): e(t) = (t/t_rise)^2 while rising, 1 until t_strong, then
exp(-decay (t - t_strong)). The record is a(t) = c e(t) s(t), baseline-corrected so that the ground
ends at rest (engine.ground_motion.baseline), and c sets its peak to the target PGA. The white noise
is held over each step (zero-order hold) and (1) is stepped exactly by its matrix exponential, so
the filter is exact at any dt; the samples come from numpy's default Generator seeded by `seed`, the
same numbers on every machine for one numpy.
"""
import numpy as np
from scipy.linalg import expm

from extrados.engine.errors import ModelError
from extrados.engine.ground_motion.baseline import baseline_corrected


def kanai_tajimi_density(omega, ground_frequency, ground_damping):
    """Kanai-Tajimi power spectral density at omega relative to the bedrock's white noise, eq. (2).

    Parameters
    ----------
    omega : float or ndarray
        Circular frequency, rad/s.
    ground_frequency : float
        w_g, rad/s.
    ground_damping : float
        zeta_g, damping ratio of the soil filter.

    Returns
    -------
    float or ndarray, the shape of `omega`
        S(omega), dimensionless (1 at omega = 0).
    """
    ratio2 = (omega / ground_frequency) ** 2
    damping2 = 4.0 * ground_damping ** 2 * ratio2
    return (1.0 + damping2) / ((1.0 - ratio2) ** 2 + damping2)


def jennings_envelope(t, t_rise, t_strong, decay):
    """Jennings-Housner-Tsai envelope e(t) in [0, 1] (1968, eq. 3).

    Parameters
    ----------
    t : float or ndarray
        Time, s.
    t_rise : float
        End of the quadratic rise, s.
    t_strong : float
        End of the strong phase (e = 1), s; at least `t_rise`.
    decay : float
        Rate of the exponential decay after `t_strong`, 1/s.

    Returns
    -------
    float or ndarray, the shape of `t`
    """
    t = np.asarray(t, float)
    rising = np.minimum(t / t_rise, 1.0) ** 2
    return np.where(t <= t_strong, rising, np.exp(-decay * (t - t_strong)))


def kanai_tajimi_record(seed, peak_acceleration, duration, dt, ground_frequency, ground_damping,
                        t_rise, t_strong, decay):
    """A stochastic accelerogram from a seed: enveloped Kanai-Tajimi noise, at rest at its end.

    Parameters
    ----------
    seed : int
        Seed of numpy's default Generator; one seed gives one record.
    peak_acceleration : float
        Target PGA, m/s^2: the largest |a| of the record.
    duration : float
        s; the record has round(duration / dt) + 1 samples from t = 0.
    dt : float
        Time between samples, s.
    ground_frequency, ground_damping : float
        w_g (rad/s) and zeta_g of the soil filter, eqs. (1)-(2) (firm soil: 15.6 rad/s, 0.6).
    t_rise, t_strong, decay : float
        The envelope's rise end (s), strong-phase end (s) and decay rate (1/s), `jennings_envelope`.

    Returns
    -------
    dt : float
        s, as given.
    accelerations : ndarray, shape (n,)
        m/s^2, max |a| = `peak_acceleration`, ground velocity and displacement zero at the end.

    Raises
    ------
    ModelError
        `dt` exceeds `duration`, or `t_rise` exceeds `t_strong` (path: the field to change).
    """
    _check_times(duration, dt, t_rise, t_strong)
    count = int(round(duration / dt)) + 1
    noise = np.random.default_rng(seed).standard_normal(count)
    times = dt * np.arange(count)
    shaped = jennings_envelope(times, t_rise, t_strong, decay) * _soil_filtered(noise, dt, ground_frequency,
                                                                                ground_damping)
    corrected = baseline_corrected(dt, shaped)
    return dt, corrected * (peak_acceleration / np.max(np.abs(corrected)))


def _check_times(duration, dt, t_rise, t_strong):
    """Raise ModelError unless the record spans at least one step and the envelope rises before it holds.

    The ranges of each parameter (positive, a bounded number of samples) belong to the schema of the
    document that carries them; these are the checks that span two of them.
    """
    if not dt <= duration:
        raise ModelError(f"dt ({dt} s) must not exceed duration ({duration} s)", path="dt")
    if not t_rise <= t_strong:
        raise ModelError(f"t_rise ({t_rise} s) must not exceed t_strong ({t_strong} s)", path="t_rise")


def _soil_filtered(noise, dt, ground_frequency, ground_damping):
    """(n,) absolute acceleration s_k of the soil filter, eq. (1), under noise held over each step."""
    stiffness, damping = ground_frequency ** 2, 2.0 * ground_damping * ground_frequency
    system = np.array([[0.0, 1.0], [-stiffness, -damping]])   # d/dt [x, x'] = system [x, x'] - [0, w]
    step = expm(system * dt)
    # zero-order hold: the state's response to a unit input held over dt, A^-1 (e^(A dt) - I) B
    held = np.linalg.solve(system, (step - np.eye(2)) @ np.array([0.0, -1.0]))
    state = np.zeros(2)
    out = np.empty_like(noise)
    for k, value in enumerate(noise):
        out[k] = -(stiffness * state[0] + damping * state[1])
        state = step @ state + held * value
    return out
