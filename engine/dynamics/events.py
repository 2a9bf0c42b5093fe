"""Events of a dynamic run: first sliding, first uplift, collapse (DESIGN sec. 5, issue 3).

sliding     a contact on its friction cone whose tangential relative speed exceeds TOL.event_speed
uplift      a contact of a joint present at the start opens by more than TOL.event_gap
joint lost  a joint present at the start opens beyond the envelope (its blocks part)
collapse    a movable block displaced (relative to the ground motion) beyond the collapse threshold

The per-contact and per-block tests run in numba kernels, once per step.
"""
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from extrados.engine.tolerance import TOL


def pair_keys(contacts, n_blocks):
    """(n_c,) int64 key of the block pair of every contact."""
    low = np.minimum(contacts.body_a, contacts.body_b).astype(np.int64)
    high = np.maximum(contacts.body_a, contacts.body_b).astype(np.int64)
    return low * n_blocks + high


@njit(cache=True)
def any_sliding(impulse, friction, contact_velocity, slip_relative, event_speed):
    """True when a contact on its friction cone slides faster than ``event_speed``.

    Parameters
    ----------
    impulse : (n_c, 3) float64, N s, (n, u, v)
    friction : (n_c,) float64
    contact_velocity : (n_c, 3) float64, m/s, (n, u, v)
    slip_relative : float, |gamma_t| >= (1 - slip_relative) mu gamma_n is on the cone
    event_speed : float, m/s
    """
    for i in range(impulse.shape[0]):
        normal = impulse[i, 0]
        tangential = np.sqrt(impulse[i, 1] * impulse[i, 1] + impulse[i, 2] * impulse[i, 2])
        on_cone = normal > 0 and tangential >= (1.0 - slip_relative) * friction[i] * normal
        speed = np.sqrt(contact_velocity[i, 1] * contact_velocity[i, 1]
                        + contact_velocity[i, 2] * contact_velocity[i, 2])
        if on_cone and speed > event_speed:
            return True
    return False


@njit(cache=True)
def initial_pair_check(body_a, body_b, gap, n_blocks, initial_pairs, event_gap):
    """Which joints present at the start are still touching, and whether one of them opened.

    Parameters
    ----------
    body_a, body_b : (n_c,) int64
    gap : (n_c,) float64, m
    n_blocks : int
    initial_pairs : (n_pairs0,) int64, sorted unique keys min(a, b) * n_blocks + max(a, b)
    event_gap : float, m

    Returns
    -------
    uplift : bool
        A contact of an initial joint has a gap above ``event_gap``.
    first_lost : int
        Index into initial_pairs of the smallest key no contact has any more; -1 when none.
    """
    present = np.zeros(initial_pairs.shape[0], np.bool_)
    uplift = False
    key = -1
    initial = -1  # index into initial_pairs of the current contact's pair, -1 when it is new
    for i in range(body_a.shape[0]):
        pair_key = min(body_a[i], body_b[i]) * n_blocks + max(body_a[i], body_b[i])
        if pair_key != key:  # the contacts of a pair are contiguous: one search per pair
            key = pair_key
            j = np.searchsorted(initial_pairs, key)
            initial = j if j < initial_pairs.shape[0] and initial_pairs[j] == key else -1
        if initial >= 0:
            present[initial] = True
            uplift = uplift or gap[i] > event_gap
    for j in range(initial_pairs.shape[0]):
        if not present[j]:
            return uplift, j
    return uplift, -1


@njit(cache=True)
def farthest_block(displacement, is_support):
    """The movable block displaced farthest and its displacement.

    Parameters
    ----------
    displacement : (n_blocks, 3) float64, m
    is_support : (n_blocks,) bool

    Returns
    -------
    block : int, the first block of the largest |displacement|; -1 when every block is a support
    moved : float, m, its |displacement| (0.0 when none)
    """
    block = -1
    largest = 0.0
    for i in range(displacement.shape[0]):
        if is_support[i]:
            continue
        moved = np.sqrt(displacement[i, 0] * displacement[i, 0] + displacement[i, 1] * displacement[i, 1]
                        + displacement[i, 2] * displacement[i, 2])
        if block < 0 or moved > largest:
            block = i
            largest = moved
    return block, largest


@dataclass
class EventWatch:
    """Watches a run step by step and keeps the time of the first occurrence of each event."""

    n_blocks: int
    initial_pairs: np.ndarray          # (n_pairs0,) int64 sorted keys of the joints at t = 0
    collapse_displacement: float       # m
    times: dict = field(default_factory=lambda: {"first_sliding": None, "first_uplift": None,
                                                 "first_joint_lost": None, "collapse": None})
    collapse_reason: str = None
    joint_lost: str = None

    @classmethod
    def start(cls, contacts, n_blocks, collapse_displacement):
        return cls(n_blocks, np.unique(pair_keys(contacts, n_blocks)), collapse_displacement)

    def _mark(self, name, t):
        if self.times[name] is None:
            self.times[name] = t

    def observe(self, t, contacts, impulse, friction, contact_velocity, displacement, is_support, block_ids):
        """Update the event times after a step ending at t.

        Parameters
        ----------
        t : float, s
        contacts : Contacts of the step
        impulse : (n_c, 3) float64, N s; friction : (n_c,) float64
        contact_velocity : (n_c, 3) float64, m/s, relative velocity (n, u, v) at the end of the step
        displacement : (n_blocks, 3) float64, m, relative to the ground motion
        is_support : (n_blocks,) bool; block_ids : sequence of str
        """
        if any_sliding(impulse, friction, contact_velocity, TOL.slip_relative, TOL.event_speed):
            self._mark("first_sliding", t)
        uplift, lost = initial_pair_check(np.asarray(contacts.body_a, np.int64), np.asarray(contacts.body_b, np.int64),
                                          contacts.gap, self.n_blocks, self.initial_pairs, TOL.event_gap)
        if uplift:
            self._mark("first_uplift", t)
        if self.times["first_joint_lost"] is None and lost >= 0:
            a, b = divmod(int(self.initial_pairs[lost]), self.n_blocks)
            self.joint_lost = f"{block_ids[a]}/{block_ids[b]}"
            self._mark("first_joint_lost", t)
        if self.times["collapse"] is None:
            worst, moved = farthest_block(displacement, is_support)
            if moved > self.collapse_displacement:
                self.collapse_reason = f"block '{block_ids[worst]}' moved {moved:.3g} m"
                self._mark("collapse", t)

    def to_dict(self):
        return {**self.times, "collapsed": self.times["collapse"] is not None, "collapse_reason": self.collapse_reason,
                "joint_lost": self.joint_lost}
