"""Events of a dynamic run: first sliding, first uplift, collapse (DESIGN sec. 5, issue 3).

sliding     a contact on its friction cone whose tangential relative speed exceeds TOL.event_speed
uplift      a contact of a joint present at the start opens by more than TOL.event_gap
joint lost  a joint present at the start opens beyond the envelope (its blocks part)
collapse    a movable block displaced (relative to the ground motion) beyond the collapse threshold
"""
from dataclasses import dataclass, field

import numpy as np

from engine.tolerance import TOL


def pair_keys(contacts, n_blocks):
    """(n_c,) int64 key of the block pair of every contact."""
    low = np.minimum(contacts.body_a, contacts.body_b).astype(np.int64)
    high = np.maximum(contacts.body_a, contacts.body_b).astype(np.int64)
    return low * n_blocks + high


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

    def observe(self, t, contacts, impulse, friction, tangential_speed, displacement, is_support, block_ids):
        """Update the event times after a step ending at t."""
        normal = impulse[:, 0]
        tangential = np.linalg.norm(impulse[:, 1:], axis=1)
        on_cone = (normal > 0) & (tangential >= (1.0 - TOL.slip_relative) * friction * normal)
        if np.any(on_cone & (tangential_speed > TOL.event_speed)):
            self._mark("first_sliding", t)
        keys = pair_keys(contacts, self.n_blocks)
        original = np.isin(keys, self.initial_pairs)
        if np.any(original & (contacts.gap > TOL.event_gap)):
            self._mark("first_uplift", t)
        if self.times["first_joint_lost"] is None:
            lost = np.setdiff1d(self.initial_pairs, keys)
            if len(lost):
                a, b = divmod(int(lost[0]), self.n_blocks)
                self.joint_lost = f"{block_ids[a]}/{block_ids[b]}"
                self._mark("first_joint_lost", t)
        if self.times["collapse"] is None:
            moved = np.linalg.norm(displacement, axis=1)
            moved[is_support] = 0.0
            if moved.max(initial=0.0) > self.collapse_displacement:
                worst = int(np.argmax(moved))
                self.collapse_reason = f"block '{block_ids[worst]}' moved {moved[worst]:.3g} m"
                self._mark("collapse", t)

    def to_dict(self):
        return {**self.times, "collapsed": self.times["collapse"] is not None, "collapse_reason": self.collapse_reason,
                "joint_lost": self.joint_lost}
