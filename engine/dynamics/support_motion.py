"""Prescribed motion of the supports (DESIGN sec. 4 `support_motion`; seed 000 sec. 4).

Supports move kinematically: their velocity enters the contact right-hand side through
r = D^T v_free (eq. 34), where v_free of a support is its prescribed velocity. No fictitious
inertial force is applied to the other blocks, so partial supports and settlement of part
of the foundation work the same way as whole-ground shaking.

Kinds
-----
sine
    Ground displacement along `direction` (seed 000 sec. 4: f = 1 Hz, D = 0.2 g / (4 pi^2 f^2)).
    Give `amplitude` D (m) or `peak_acceleration` A (m/s^2), D = A / (2 pi f)^2. `start`
    "at_speed" (the schema's default) is the seed's d(t) = D sin(2 pi f t): the ground starts
    with velocity D 2 pi f, a jump at t = 0. "from_rest" is d(t) = D (1 - cos(2 pi f t)):
    velocity 0 at t = 0, the same peak acceleration, a displacement
    between 0 and 2 D with no drift. `duration` (s) stops the motion after that time (the
    ground then stays where it is).
record
    An accelerogram: `dt` (s) and `accelerations` [[ax, ay, az], ...] (m/s^2) from rest;
    velocity and displacement by the trapezoidal rule, linear acceleration between samples
    (engine.ground_motion.baseline eqs. 1-2). After the last sample the ground stops
    accelerating and keeps its last velocity; `baseline` "end_at_rest" first subtracts the
    linear acceleration baseline that brings that velocity and the displacement to zero, so
    the ground stops at the end of the record.
velocity
    A constant velocity [vx, vy, vz] (m/s) from the start, for `duration` (s) when given, then
    rest: displacement control, as in a shear or a diagonal compression test (seed 004 sec. 4-5).
All accept `blocks`: the ids of the supports that move (default: all supports).
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.ground_motion.baseline import baseline_corrected, integrate_record
from extrados.engine.io.schema import model_schema, property_defaults


def _defaults_by_kind():
    """{kind: {field: default}} of the `support_motion` kinds, as the model schema gives them."""
    schema = model_schema()
    branches = schema["properties"]["support_motion"]["allOf"]
    return {branch["if"]["properties"]["kind"]["const"]: property_defaults(branch["then"], schema)
            for branch in branches}


MOTION_DEFAULTS = _defaults_by_kind()


@dataclass(frozen=True)
class SineMotion:
    direction: np.ndarray   # (3,) unit
    frequency: float        # Hz
    amplitude: float        # m
    duration: float         # s, inf when not given
    from_rest: bool         # d = D (1 - cos(omega t)) rather than D sin(omega t)

    def _shape(self, t):
        """(d, v, a) at t over (D, D omega, D omega^2): sin, cos, -sin at speed; 1 - cos, sin, cos from rest."""
        phase = 2.0 * np.pi * self.frequency * t
        if self.from_rest:
            return 1.0 - np.cos(phase), np.sin(phase), np.cos(phase)
        return np.sin(phase), np.cos(phase), -np.sin(phase)

    def displacement(self, t):
        return self.amplitude * self._shape(min(t, self.duration))[0] * self.direction

    def velocity(self, t):
        if t > self.duration:
            return np.zeros(3)
        omega = 2.0 * np.pi * self.frequency
        return self.amplitude * omega * self._shape(t)[1] * self.direction

    def acceleration(self, t):
        if t > self.duration:
            return np.zeros(3)
        omega = 2.0 * np.pi * self.frequency
        return self.amplitude * omega * omega * self._shape(t)[2] * self.direction


@dataclass(frozen=True)
class RecordMotion:
    times: np.ndarray          # (n,) s
    accelerations: np.ndarray  # (n, 3) m/s^2
    velocities: np.ndarray     # (n, 3) m/s, integrated from rest
    displacements: np.ndarray  # (n, 3) m

    @classmethod
    def from_samples(cls, dt, accelerations):
        acc = np.asarray(accelerations, float).reshape(-1, 3)
        vel, disp = integrate_record(dt, acc)
        return cls(dt * np.arange(len(acc)), acc, vel, disp)

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
        start = spec.get("start", MOTION_DEFAULTS["sine"]["start"])
        motion = SineMotion(direction / norm, spec["frequency"], amplitude, spec.get("duration", np.inf),
                            start == "from_rest")
    elif spec["kind"] == "velocity":
        motion = ConstantVelocity(np.asarray(spec["velocity"], float), spec.get("duration", np.inf))
    else:   # at least two samples (the schema's minItems)
        accelerations = np.asarray(spec["accelerations"], float)
        if spec.get("baseline", MOTION_DEFAULTS["record"]["baseline"]) == "end_at_rest":
            accelerations = baseline_corrected(spec["dt"], accelerations)
        motion = RecordMotion.from_samples(spec["dt"], accelerations)
    return SupportMotion(motion, moving)
