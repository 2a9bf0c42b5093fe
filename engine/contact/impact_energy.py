"""The energy impact law of an NSCD step: each impact keeps r of the impacting blocks' kinetic energy.

Housner's coefficient of restitution r (seed 003 eq. 2) is the ratio of kinetic energies after and
before a rocking impact. It is the request's rocking_restitution where one is given, and otherwise the
ratio the plastic impact of the start velocities keeps (engine.pipeline.plastic_energy_ratio), which
for a rigid block rocking on its edges is Housner's own. Without this law a plastic impact step
dissipated more than that ratio, by O(h): free rocking of a 0.25 x 0.5 x 1.0 m block kept 0.807-0.814
of the energy per impact at h = 1 ms and 0.781-0.814 at 2 ms against Housner's 0.831, from two first-order
errors of the step: (1) Euler-Cromer conserves T + V + h/2 P between impacts, not T + V (0.12 J of
28 J lower at the impact than at the peak, h = 1 ms), and the term h/2 P changes sign with P at the
impact, so an impact that keeps r of T keeps less of the amplitude; (2) Phi/h closed the impacting
contact in two steps, a step early, with the gravity work of that step taken out by the second impulse.
Measured on the first impact at 1 and 2 ms, the theta-method (theta = 0.5, seed 001 eq. 9-10, with
the gap term of its predicted gap) keeps 0.825 and 0.806, the impact instant alone 0.814 and 0.814,
both together 0.825 and 0.806: none reaches 0.831 at both steps; this law keeps 0.832 at both.

A step whose contacts close is an impact step (``closing_contacts``): those
contacts take a velocity-level plastic impact, u_n+ >= 0 (b = 0 instead of Phi/h, engine.contact.assemble),
so the impact ends within the step, and each impacting block moves with its start velocity up to its
impact instant tau = Phi / |u_n-| and with its end velocity after it (``impact_fraction``,
engine.dynamics.integrate), so the contact closes at the end of the step instead of a step early.
The law then scales the end velocities of the impacting blocks by one factor s so that

    T~(s v+) - (h - tau) P(s v+) = r T~_impact,   T~ = T + h/2 P,   T~_impact = T~(v-) + tau P(v-),

with T the kinetic energy and P the power of the applied loads (gravity) of the impacting blocks,
summed over them (tau per block). T~ is the kinetic part of the energy that Euler-Cromer keeps
between impacts (its modified energy, T + V + h/2 P to first order in h): scaling it, not T,
keeps the amplitude after the impact r times the amplitude before it at any h, where scaling T
loses a further h/2 |P| / T per impact. A scale keeps every velocity-level constraint u_n >= 0 and
the friction cones satisfied, and the velocity's direction is that of the plastic impact; a requested
r above the plastic impact's own gives s > 1, an impact that gives back energy as a restitution does.

A contact that the step's loads close but its start velocity alone leaves open (gap + h u_n- > 0)
is not an impact step for the law: it takes a partial impulse at Phi/h and completes its impact in
the next step, as before the law. Once in the runs measured (0.25 x 0.25 x 1.0 m block at h = 1 ms,
fifth impact) that kept 0.813 of the energy instead of 0.832. Detecting it by the free velocity as
well (D^T v_free) was tried and is worse: the impact instant and the plastic ratio then need the
step's acceleration, and a slender block (0.2 x 1.6 m) at 2 ms kept 0.947 instead of 0.954.

Several blocks impacting in one step (a pair striking each other, a row falling onto a base) share
one s: the law keeps r of their kinetic energy together, not of each block's. When every support
follows one ground motion, energies are taken in the frame that translates with the ground
(``GroundFrame``: relative twists, the loads less m a_g), where Housner's r holds; otherwise in the
fixed frame.
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.post.energy import kinetic_energy_kernel
from extrados.engine.tolerance import TOL

#: The law leaves alone an impact that stops the impacting blocks, T(v+) below this fraction of T(v-):
#: a block dropped flat has no direction of motion left to scale, and T~ would rest on round-off.
STOPPED_FRACTION = 1e-3


def closing_contacts(was_open, gap, approach, h):
    """(n_c,) bool: the contacts open at the step start that close within the step h (s) at an approach
    speed above TOL.impact_speed.

    Parameters
    ----------
    was_open : (n_c,) bool, the contact carried no normal impulse in the last step: a contact that
        has just taken an impact still sinks at the compliance's E gamma, and is not struck again
    gap : (n_c,) float64, m, > 0 when open
    approach : (n_c,) float64, m/s, normal velocity u_n- at the step start, negative when closing
    """
    return was_open & (gap > 0.0) & (gap + h * approach < 0.0) & (approach < -TOL.impact_speed)


def impact_fraction(n_blocks, body_a, body_b, is_support, gap, approach, closing, h):
    """(n_blocks,) fraction tau / h of the step before each movable block's first impact; 1 without one.

    tau = Phi / |u_n-| is the instant the contact's gap closes at its approach speed; a block with
    several closing contacts takes the earliest.
    """
    fraction = np.ones(n_blocks)
    closes_at = gap[closing] / (-approach[closing] * h)      # (n_closing,) tau / h, in [0, 1)
    for side in (body_a, body_b):
        np.minimum.at(fraction, np.asarray(side)[closing], closes_at)
    fraction[is_support] = 1.0
    return fraction


def impacting_kinetic_energy(mechanics, rotations, velocity, fraction):
    """Kinetic energy (J) of the impacting blocks (``fraction`` < 1) with twists ``velocity`` (n_blocks, 6)."""
    return kinetic_energy_kernel(mechanics.mass, mechanics.inertia_body, fraction >= 1.0, rotations,
                                 np.ascontiguousarray(velocity, dtype=np.float64))


def law_applies(restitution, support_velocity, ground_frame):
    """Whether a step's impacts take this law: plastic impacts (``restitution`` 0) with the supports at
    rest (``support_velocity`` None) or all following one ground motion (``ground_frame``). Where only
    some supports move (a loading shoe, a settling part of a foundation) the law has no frame to measure
    energies in, and impacts stay plastic."""
    return restitution == 0.0 and (support_velocity is None or ground_frame is not None)


@dataclass(frozen=True)
class GroundFrame:
    """The frame that translates with supports that all follow one ground motion, over one step."""

    velocity_start: np.ndarray  # (3,) float64, m/s, ground velocity at the start of the step
    velocity_end: np.ndarray    # (3,) float64, m/s, at its end (the step's support velocity)

    def relative(self, velocity, at_end):
        """(n_blocks, 6) twists ``velocity`` relative to the ground at the step's start or end."""
        shifted = np.array(velocity, dtype=np.float64)
        shifted[:, :3] -= self.velocity_end if at_end else self.velocity_start
        return shifted

    def loads(self, mechanics, wrench, h):
        """(n_blocks, 6) loads in the frame: ``wrench`` less the inertial force m a_g, a_g over the step h."""
        acceleration = (self.velocity_end - self.velocity_start) / h
        loads = np.array(wrench, dtype=np.float64)
        loads[:, :3] -= mechanics.mass[:, None] * acceleration
        return loads


def scale_in_frame(mechanics, rotations, wrench, v_start, v_end, fraction, h, r, frame):
    """``scale_to_energy_ratio`` in the ground ``frame`` (GroundFrame, or None: the fixed frame)."""
    if frame is None:
        return scale_to_energy_ratio(mechanics, rotations, wrench, v_start, v_end, fraction, h, r)
    scaled = scale_to_energy_ratio(mechanics, rotations, frame.loads(mechanics, wrench, h),
                                   frame.relative(v_start, False), frame.relative(v_end, True), fraction, h, r)
    scaled[:, :3] += frame.velocity_end
    return np.where((fraction < 1.0)[:, None], scaled, v_end)


def scale_to_energy_ratio(mechanics, rotations, wrench, v_start, v_end, fraction, h, r):
    """End velocities (n_blocks, 6) with those of the impacting blocks scaled so the impact keeps r (module docstring).

    A step whose impact stops the impacting blocks (T(v+) below STOPPED_FRACTION T(v-)) keeps its velocities.

    Parameters
    ----------
    rotations : (n_blocks, 3, 3) float64, at the step start
    wrench : (n_blocks, 6) float64, N and N m, applied loads
    v_start, v_end : (n_blocks, 6) float64, twists [m/s, rad/s] at the start and end of the step
    fraction : (n_blocks,) float64, ``impact_fraction`` (1: not impacting)
    h : float, s
    r : float, Housner's energy ratio (seed 003 eq. 2)
    """
    hit = fraction < 1.0                                      # (n_blocks,) bool, the impacting blocks
    tau = h * np.where(hit, fraction, 0.0)                    # (n_blocks,) s, impact instant of each
    power_start = np.where(hit, np.einsum("ij,ij->i", wrench, v_start), 0.0)   # (n_blocks,) W
    power_end = np.where(hit, np.einsum("ij,ij->i", wrench, v_end), 0.0)
    kinetic_start = impacting_kinetic_energy(mechanics, rotations, v_start, fraction)
    kinetic_end = impacting_kinetic_energy(mechanics, rotations, v_end, fraction)
    if kinetic_end <= STOPPED_FRACTION * kinetic_start:
        return v_end
    target = r * (kinetic_start + np.sum((0.5 * h + tau) * power_start))     # r T~_impact, J
    # T~(s v+) - (h - tau) P(s v+) = s^2 T(v+) - s beta with beta = sum (h/2 - tau) P(v+): the positive root
    beta = np.sum((0.5 * h - tau) * power_end)
    scale = (beta + np.sqrt(beta ** 2 + 4.0 * kinetic_end * max(target, 0.0))) / (2.0 * kinetic_end)
    scaled = v_end.copy()
    scaled[hit] *= scale
    return scaled
