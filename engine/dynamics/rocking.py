"""Housner's rocking of one rigid body on a rigid base: the reference a rocking wall is read against.

A body with a symmetric base rocks about one of its two base edges (seed 003 sec. 2.1, eq. 1):

    I_O theta'' = -m g R sin(alpha s - theta) - m a_g R cos(alpha s - theta),   s = sgn(theta),

with R the distance from a pivot edge to the centre of mass, alpha the angle of that line from
the vertical, I_O the moment of inertia about the pivot, a_g(t) the ground acceleration along
the rocking direction (theta > 0 leans toward +a_g). Dividing by I_O, p^2 = m g R / I_O. The
body starts to rock once |a_g| > g tan alpha. At an impact (theta = 0) the angular momentum
about the new pivot is conserved, which scales theta' by (Housner 1963; seed 003 eq. 2)

    e = 1 - (2 m R^2 / I_O) sin^2 alpha,      r = e^2 (the ratio of kinetic energies).

For a rectangle I_O = 4/3 m R^2, p = sqrt(3 g / (4 R)) and e = 1 - 1.5 sin^2 alpha. The body
has overturned once |theta| reaches pi/2 (a rectangle then lies on its side).
"""
import math
from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

#: Relative and absolute tolerances of the integration of eq. 1 (rad, rad/s).
ODE_RTOL, ODE_ATOL = 1e-10, 1e-12
#: s, largest integration step, so that no ground pulse is stepped over.
MAX_STEP = 1e-3
#: s, spacing of the samples searched for the ground acceleration that starts a rest body rocking.
ONSET_SAMPLE = 1e-4
#: An impact leaving |theta'| below this fraction of p alpha ends the rocking (the body settles).
SETTLE_FRACTION = 1e-6


@dataclass(frozen=True)
class RockingBody:
    """The four numbers of eq. 1-2 for a body rocking in one plane."""

    alpha: float        # rad, slenderness: angle of the line pivot -> centre of mass from the vertical
    radius: float       # m, R, pivot -> centre of mass
    p: float            # 1/s, frequency parameter sqrt(m g R / I_O)
    restitution: float  # e, ratio of angular velocities after and before an impact

    @classmethod
    def rectangle(cls, width, height, g=9.81):
        """A rectangular block of base `width` and `height` (m)."""
        return cls.from_mass_properties(1.0, 0.5 * height, 0.5 * width, (width ** 2 + height ** 2) / 3.0, g)

    @classmethod
    def from_mass_properties(cls, mass, centre_height, half_base, pivot_inertia, g=9.81):
        """A body of `mass` (kg) whose centre of mass is `centre_height` (m) above its base and
        midway between two pivot edges `half_base` (m) away, with `pivot_inertia` I_O (kg m^2)."""
        radius = math.hypot(half_base, centre_height)
        alpha = math.atan2(half_base, centre_height)
        ratio = mass * radius ** 2 / pivot_inertia
        return cls(alpha=alpha, radius=radius, p=math.sqrt(g * ratio / radius),
                   restitution=1.0 - 2.0 * ratio * math.sin(alpha) ** 2)


def _onset(body, ground_acceleration, start, duration, g):
    """First time >= start when |a_g| > g tan alpha, or None before `duration`."""
    threshold = g * math.tan(body.alpha)

    def excess(t):
        return abs(ground_acceleration(t)) - threshold

    times = np.arange(start, duration + ONSET_SAMPLE, ONSET_SAMPLE)
    values = np.array([excess(t) for t in times])
    above = np.flatnonzero(values > 0.0)
    if not len(above):
        return None
    k = above[0]
    return start if k == 0 else brentq(excess, times[k - 1], times[k], xtol=1e-12)


def rocking_response(body, ground_acceleration, duration, theta0=0.0, theta_dot0=0.0, g=9.81, samples=2000):
    """theta(t) of eq. 1 with impacts by eq. 2, from rest or from (theta0, theta_dot0).

    Parameters
    ----------
    body : RockingBody
    ground_acceleration : callable t -> float
        a_g(t) (m/s^2) along the rocking direction; theta > 0 leans toward +a_g.
    duration : float
        s.
    theta0, theta_dot0 : float
        Initial rotation (rad) and angular velocity (rad/s).
    samples : int
        Samples per second of the returned trace.

    Returns
    -------
    dict
        t (n,) s, theta (n,) rad, theta_dot (n,) rad/s; impacts (s); amplitudes (rad), the
        largest |theta| of each rocking half cycle; overturned (s or None); largest (rad).
    """
    pieces, impacts, amplitudes = [], [], []
    t, theta, theta_dot, overturned = 0.0, float(theta0), float(theta_dot0), None
    settle = SETTLE_FRACTION * body.p * body.alpha
    while t < duration and overturned is None:
        if theta == 0.0 and abs(theta_dot) <= settle:
            onset = _onset(body, ground_acceleration, t, duration, g)
            if onset is None:                       # at rest to the end: |a_g| never exceeds g tan alpha again
                pieces.append(np.array([[t, duration], [0.0, 0.0], [0.0, 0.0]]))
                break
            pieces.append(np.array([[t, onset], [0.0, 0.0], [0.0, 0.0]]))
            t, theta_dot = onset, 0.0
            side = -math.copysign(1.0, ground_acceleration(onset))
        else:
            side = math.copysign(1.0, theta if theta != 0.0 else theta_dot)
        sol = _half_cycle(body, ground_acceleration, side, t, duration, theta, theta_dot, g)
        grid = np.append(np.arange(t, sol.t[-1], 1.0 / samples), sol.t[-1])
        pieces.append(np.vstack([grid, sol.sol(grid)]))
        turning = sol.y_events[2][:, 0] if len(sol.t_events[2]) else np.zeros(0)
        amplitudes.append(float(np.abs(np.concatenate([sol.y[0], turning])).max()))
        t, (theta, theta_dot) = sol.t[-1], sol.y[:, -1]
        if sol.status != 1:
            break
        if len(sol.t_events[1]):
            overturned = t
            break
        impacts.append(t)
        theta, theta_dot = 0.0, body.restitution * theta_dot
    trace = np.hstack(pieces)
    return {"t": trace[0], "theta": trace[1], "theta_dot": trace[2], "impacts": np.array(impacts),
            "amplitudes": np.array(amplitudes), "overturned": overturned,
            "largest": float(np.abs(trace[1]).max())}


def _half_cycle(body, ground_acceleration, side, t0, duration, theta, theta_dot, g):
    """Integrate eq. 1 on pivot side `side` until the impact (theta = 0), overturning or the end;
    the events are (impact, overturned, theta' = 0), the last giving the exact amplitudes."""
    p2 = body.p ** 2

    def motion(t, y):
        lever = body.alpha * side - y[0]
        return [y[1], -p2 * (math.sin(lever) + ground_acceleration(t) / g * math.cos(lever))]

    def impact(_, y):
        return side * y[0]

    def fallen(_, y):
        return abs(y[0]) - 0.5 * math.pi

    def turning(_, y):
        return y[1]

    impact.terminal, impact.direction = True, -1
    fallen.terminal, fallen.direction = True, 1
    return solve_ivp(motion, (t0, duration), [theta, theta_dot], events=(impact, fallen, turning), dense_output=True,
                     rtol=ODE_RTOL, atol=ODE_ATOL, max_step=MAX_STEP)
