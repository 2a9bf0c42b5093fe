"""Prescribed motion of the supports (DESIGN sec. 4 `support_motion`; seed 000 sec. 4).

Supports move kinematically: their velocity enters the contact right-hand side through
r = D^T v_free (eq. 34), where v_free of a support is its prescribed velocity. No fictitious
inertial force is applied to the other blocks, so partial supports and settlement of part
of the foundation work the same way as whole-ground shaking.

Kinds
-----
sine
    Ground displacement d(t) = D sin(2 pi f t) along `direction` (seed 000 sec. 4: f = 1 Hz,
    D = 0.2 g / (4 pi^2 f^2)). Give `amplitude` D (m) or `peak_acceleration` A (m/s^2),
    D = A / (2 pi f)^2. Note the ground starts with velocity D 2 pi f, as in the seed.
    `duration` (s) stops the motion after that time (the ground then stays where it is).
record
    An accelerogram: `dt` (s) and `accelerations` [[ax, ay, az], ...] (m/s^2) from rest;
    velocity and displacement by the trapezoidal rule, linear acceleration between samples.
velocity
    A constant velocity [vx, vy, vz] (m/s) from the start, for `duration` (s) when given, then
    rest: displacement control, as in a shear or a diagonal compression test (seed 004 sec. 4-5).
All accept `blocks`: the ids of the supports that move (default: all supports).
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.errors import ModelError


@dataclass(frozen=True)
class SineMotion:
    direction: np.ndarray   # (3,) unit
    frequency: float        # Hz
    amplitude: float        # m
    duration: float         # s, inf when not given

    def displacement(self, t):
        t = min(t, self.duration)
        return self.amplitude * np.sin(2.0 * np.pi * self.frequency * t) * self.direction

    def velocity(self, t):
        if t > self.duration:
            return np.zeros(3)
        omega = 2.0 * np.pi * self.frequency
        return self.amplitude * omega * np.cos(omega * t) * self.direction

    def acceleration(self, t):
        if t > self.duration:
            return np.zeros(3)
        omega = 2.0 * np.pi * self.frequency
        return -self.amplitude * omega * omega * np.sin(omega * t) * self.direction


@dataclass(frozen=True)
class RecordMotion:
    times: np.ndarray          # (n,) s
    accelerations: np.ndarray  # (n, 3) m/s^2
    velocities: np.ndarray     # (n, 3) m/s, integrated from rest
    displacements: np.ndarray  # (n, 3) m

    @classmethod
    def from_samples(cls, dt, accelerations):
        acc = np.asarray(accelerations, float).reshape(-1, 3)
        times = dt * np.arange(len(acc))
        # trapezoid for velocity; displacement exact for piecewise-linear acceleration
        vel = np.zeros_like(acc)
        disp = np.zeros_like(acc)
        for k in range(1, len(acc)):
            vel[k] = vel[k - 1] + 0.5 * dt * (acc[k - 1] + acc[k])
            disp[k] = disp[k - 1] + dt * vel[k - 1] + dt * dt * (acc[k - 1] / 3.0 + acc[k] / 6.0)
        return cls(times, acc, vel, disp)

    def _locate(self, t):
        """Index k and local time s with t in [t_k, t_k+1); past the end the ground keeps its last state."""
        dt = self.times[1] - self.times[0] if len(self.times) > 1 else 1.0
        k = int(np.clip(np.floor(t / dt), 0, max(len(self.times) - 2, 0)))
        return k, t - self.times[k], dt

    def acceleration(self, t):
        if len(self.times) < 2 or t > self.times[-1]:
            return np.zeros(3)
        k, s, dt = self._locate(t)
        return self.accelerations[k] + (self.accelerations[k + 1] - self.accelerations[k]) * s / dt

    def velocity(self, t):
        if len(self.times) < 2:
            return np.zeros(3)
        if t >= self.times[-1]:
            return self.velocities[-1]
        k, s, dt = self._locate(t)
        slope = (self.accelerations[k + 1] - self.accelerations[k]) / dt
        return self.velocities[k] + self.accelerations[k] * s + 0.5 * slope * s * s

    def displacement(self, t):
        if len(self.times) < 2:
            return np.zeros(3)
        if t >= self.times[-1]:
            return self.displacements[-1] + self.velocities[-1] * (t - self.times[-1])
        k, s, dt = self._locate(t)
        slope = (self.accelerations[k + 1] - self.accelerations[k]) / dt
        return self.displacements[k] + self.velocities[k] * s + 0.5 * self.accelerations[k] * s * s + slope * s ** 3 / 6.0


@dataclass(frozen=True)
class ConstantVelocity:
    velocity_vector: np.ndarray  # (3,) m/s
    duration: float              # s, inf when not given

    def displacement(self, t):
        return self.velocity_vector * min(t, self.duration)

    def velocity(self, t):
        return self.velocity_vector.copy() if t <= self.duration else np.zeros(3)

    def acceleration(self, t):
        return np.zeros(3)


@dataclass(frozen=True)
class SupportMotion:
    """A ground motion and the support blocks it moves."""

    motion: object             # SineMotion, RecordMotion or ConstantVelocity
    moving: np.ndarray         # (n_blocks,) bool, the supports that follow the motion

    def velocity(self, t, n_blocks):
        """(n_blocks, 6) prescribed twists: the motion's velocity on moving supports, zero elsewhere."""
        out = np.zeros((n_blocks, 6))
        out[self.moving, :3] = self.motion.velocity(t)
        return out

    def displacement(self, t):
        return self.motion.displacement(t)


def support_motion_from_document(spec, block_ids, is_support):
    """Build a SupportMotion from the model document's `support_motion` (or None)."""
    if spec is None:
        return None
    moving = np.array(is_support, dtype=bool)
    if "blocks" in spec:
        index = {bid: i for i, bid in enumerate(block_ids)}
        moving = np.zeros(len(block_ids), dtype=bool)
        for k, bid in enumerate(spec["blocks"]):
            if bid not in index:
                raise ModelError(f"unknown block id '{bid}'", path=f"support_motion.blocks[{k}]")
            if not is_support[index[bid]]:
                raise ModelError(f"block '{bid}' is not a support; only supports can be moved",
                                 path=f"support_motion.blocks[{k}]")
            moving[index[bid]] = True
    if spec["kind"] == "sine":
        direction = np.asarray(spec["direction"], float)
        norm = np.linalg.norm(direction)
        if norm == 0.0:
            raise ModelError("direction must not be zero", path="support_motion.direction")
        omega = 2.0 * np.pi * spec["frequency"]
        if ("amplitude" in spec) == ("peak_acceleration" in spec):
            raise ModelError("give exactly one of amplitude and peak_acceleration", path="support_motion")
        amplitude = spec["amplitude"] if "amplitude" in spec else spec["peak_acceleration"] / omega ** 2
        motion = SineMotion(direction / norm, spec["frequency"], amplitude, spec.get("duration", np.inf))
    elif spec["kind"] == "velocity":
        motion = ConstantVelocity(np.asarray(spec["velocity"], float), spec.get("duration", np.inf))
    else:   # at least two samples (the schema's minItems)
        motion = RecordMotion.from_samples(spec["dt"], spec["accelerations"])
    return SupportMotion(motion, moving)
