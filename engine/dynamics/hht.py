"""HHT-alpha time stepping of rigid blocks on compliant interfaces, on the rotation group (seed 003 eq. 4-5).

Seed 003 integrates M u'' + (1 + a) K u_{i+1} - a K u_i = F_{i+1} (eq. 4) with Newmark's updates

    u_{i+1} = u_i + h u'_i + h^2 [(1/2 - b) u''_i + b u''_{i+1}]
    u'_{i+1} = u'_i + h [(1 - g) u''_i + g u''_{i+1}]

and a = 1 - sqrt(2), b = 1/2, g = sqrt(2) - 1/2 (eq. 5, after Czekanski et al.), whose numerical
dissipation, ruled by the step h alone, stands in for the energy a rocking block loses at impacts.
Here the internal force K u is minus the interfaces' wrench W_c (engine.contact.winkler and
interface_friction) and each block has six coordinates: its centre x (world) and its orientation A
in SO(3), advanced on the group as in the Lie-group generalized-alpha method (Bruls & Cardona 2010)
with body-frame angular velocity Omega and acceleration Omega':

    x_{i+1} = x_i + D_x,       A_{i+1} = A_i exp([D_psi]x),
    D = h V_i + h^2 [(1/2 - b) V'_i + b V'_{i+1}],      V = [v, Omega],

so that for each movable block the equations of motion at i+1 read

    m v'_{i+1} - (1 + a) F_c(q_{i+1}) + a F_c(q_i) - F_ext = 0
    J Omega'_{i+1} + Omega_{i+1} x J Omega_{i+1} - A_{i+1}^T [(1 + a) T_c(q_{i+1}) - a T_c(q_i) + T_ext] = 0

(F_c, T_c world force and torque about the centre of mass; the term of step i is kept from that
step, eq. 4's "- a K u_i"). Newton's method solves them for the increments D of the movable
blocks, with the interfaces' tangent; it has converged when every block's residual is below
TOL.hht_residual of its weight scale m g (force) and m g R (moment, R its bounding radius).
A step that has not converged after TOL.hht_iterations iterations is retried as two halves,
down to 2^-TOL.hht_halvings of the step (seed 003 sec. 3.2); each step reports its iterations
and halvings. The joints come from a contact detection with a wide envelope (``hht_envelope``), made
again only once a block has moved half of it: the Winkler forces are exact at any gap.
"""
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from extrados.engine.collision.coherence import DetectionCache
from extrados.engine.collision.detect import detect_contacts
from extrados.engine.collision.feature_id import LINE_BITS
from extrados.engine.contact.frames import tangent_basis
from extrados.engine.contact.laws import pair_laws
from extrados.engine.contact.winkler import pair_faces
from extrados.engine.dynamics.hht_newton import Bodies, Joints, Settings, StepStart, evaluate, solve_step
from extrados.engine.errors import ModelError
from extrados.engine.geometry.quaternion import quat_to_matrices, quat_to_matrix
from extrados.engine.io.schema import analysis_schema, property_defaults
from extrados.engine.tolerance import TOL

#: m/s^2, the acceleration that sets a block's residual scale m g (a scale, not the model's gravity).
RESIDUAL_ACCELERATION = 9.81


@dataclass(frozen=True)
class HHTParameters:
    """alpha, beta, gamma of eq. 4."""

    alpha: float
    beta: float
    gamma: float

    @classmethod
    def eq5(cls):
        """Eq. 5's parameters, alpha = 1 - sqrt(2), beta = 1/2, gamma = sqrt(2) - 1/2: the defaults of a
        dynamic request's ``hht`` in the analysis schema, which owns them."""
        schema = analysis_schema()
        return cls(**property_defaults(schema["$defs"]["dynamic"]["properties"]["hht"], schema))


@dataclass(frozen=True)
class JointCache:
    """The joints of a detection, kept while no block moves farther than TOL.hht_redetect_fraction of the
    detection envelope (``hht_envelope``) from where the detection was made: every corner that can come
    within reach was within the envelope there, and the Winkler forces are recomputed from the pose at
    every iterate."""

    contacts: object            # Contacts of the detection
    joints: Joints              # its pairs' faces and laws (stretch left zero)
    keys: np.ndarray            # (n_p,) int64, pair_keys of its pairs
    position: np.ndarray        # (n_blocks, 3) float64, m, the pose it was made at
    orientation: np.ndarray     # (n_blocks, 4) float64


@dataclass
class HHTMemory:
    """What a step hands the next besides the State: accelerations, the interfaces' wrench and stretches."""

    acceleration: np.ndarray    # (n_blocks, 6) float64, [v' world m/s^2, Omega' body rad/s^2]
    contact_wrench: np.ndarray  # (n_blocks, 6) float64, W_c(q_i), world
    keys: np.ndarray            # (n_p,) int64, the pairs of the last step
    stretch: np.ndarray         # (n_p, 3) float64, m, their friction springs (zero where they carried nothing)

    def stretch_of(self, keys):
        """(len(keys), 3) the stretch of pairs ``keys`` (zero for a pair the last step did not have)."""
        if keys is self.keys or np.array_equal(keys, self.keys):
            return self.stretch
        where = {int(key): k for k, key in enumerate(self.keys)}
        out = np.zeros((len(keys), 3))
        for k, key in enumerate(keys):
            if int(key) in where:
                out[k] = self.stretch[where[int(key)]]
        return out


@dataclass(frozen=True)
class NewtonReport:
    """How a step's Newton iterations went (the fields SolverTally reads, and the halvings)."""

    iterations: int
    residual: float      # largest relative residual of the last iterate
    converged: bool
    halvings: int = 0    # how many times the step was halved somewhere inside it
    seconds: float = 0.0  # wall time of the step
    name: str = "newton"
    first_attempt: dict = None  # never: a step is not retried by another solver


@dataclass(frozen=True)
class Trial:
    """A step attempt: the end configuration, velocities, accelerations and interface forces."""

    position: np.ndarray
    orientation: np.ndarray
    velocity: np.ndarray        # (n_blocks, 6) float64, [v world, Omega body]
    acceleration: np.ndarray    # (n_blocks, 6) float64, [v' world, Omega' body]
    angular_velocity: np.ndarray  # (n_blocks, 3) float64, rad/s, world
    forces: object              # InterfaceForces at the end configuration
    report: NewtonReport


@dataclass(frozen=True)
class InterfaceForces:
    """What the interfaces exert at the end of a step, one entry per joint (touching pair) of its JointCache."""

    n_candidate_pairs: int      # pairs its detection's broad phase passed on
    body_a: np.ndarray          # (n_p,) int64
    body_b: np.ndarray          # (n_p,) int64
    centre: np.ndarray          # (n_p, 3) float64, m, pressure centre
    normal: np.ndarray          # (n_p, 3) float64, unit, from A to B
    normal_force: np.ndarray    # (n_p,) float64, N, pushing A and B apart
    tangential: np.ndarray      # (n_p, 3) float64, N, friction force on B (A gets the opposite)
    stretch: np.ndarray         # (n_p, 3) float64, m, friction spring stretch
    sliding: np.ndarray         # (n_p,) bool
    penetration: np.ndarray     # (n_p,) float64, m, deepest penetration of the patch (0 when apart)
    opening: np.ndarray         # (n_p,) float64, m, how far the joint has opened (hht_newton.joint_opening)
    energy: np.ndarray          # (n_p,) float64, J, strain energy of its layer and friction spring
    friction: np.ndarray        # (n_p,) float64, mu
    wrench: np.ndarray          # (n_blocks, 6) float64, [N, N m], world, torque about each centre of mass
    keys: np.ndarray            # (n_p,) int64, pair_keys


def pair_keys(body_a, body_b):
    """(n_p,) int64 key of each unordered pair of blocks."""
    low, high = np.minimum(body_a, body_b).astype(np.int64), np.maximum(body_a, body_b).astype(np.int64)
    return low << 32 | high


def joints_of(model, contacts):
    """The Joints of a detection (engine.dynamics.hht_newton), their friction springs unstretched."""
    faces = pair_faces(contacts, model.mechanics.polyhedra)
    normal, shear, friction = pair_laws(model, contacts)
    return Joints(faces, normal, shear, friction, np.zeros((len(faces.kind), 3)))


def body_velocity(state):
    """(n_blocks, 6) [v world, Omega body] of a State (whose angular velocities are world)."""
    return body_twists(state.orientation, state.velocity, state.angular_velocity)


@njit(cache=True)
def body_twists(orientation, velocity, angular_velocity):
    """(n, 6) [v, A^T w] of world velocities (n, 3) and angular velocities (n, 3)."""
    out = np.empty((orientation.shape[0], 6))
    for i in range(orientation.shape[0]):
        rotation = quat_to_matrix(orientation[i])
        for j in range(3):
            out[i, j] = velocity[i, j]
            out[i, 3 + j] = (rotation[0, j] * angular_velocity[i, 0] + rotation[1, j] * angular_velocity[i, 1]
                             + rotation[2, j] * angular_velocity[i, 2])
    return out


def hht_envelope(model):
    """m, the detection envelope of the HHT step: the model's, or TOL.hht_envelope_radius_fraction of the
    median movable block radius when larger. It sets how often the joints are detected, not the forces,
    which are exact at any gap."""
    mech = model.mechanics
    radius = np.asarray(mech.polyhedra.radius, float)[~mech.is_support]
    envelope = model.settings["envelope"]
    if len(radius) == 0:
        return envelope
    return max(envelope, TOL.hht_envelope_radius_fraction * float(np.median(radius)))


class HHTStep:
    """Advances a model's State by one HHT step on compliant interfaces (module docstring)."""

    def __init__(self, model, parameters=None):
        mech = model.mechanics
        packed = mech.polyhedra
        self.model = model
        self.parameters = parameters or HHTParameters.eq5()
        self.movable = np.flatnonzero(~mech.is_support)
        self.cache = DetectionCache()
        self.bodies = Bodies(mech.mass, np.ascontiguousarray(mech.inertia_body), self.movable.astype(np.int64),
                             mech.mass * RESIDUAL_ACCELERATION, packed.vertex_local, packed.vertex_start,
                             packed.face_normal_local, packed.face_offset_local, packed.face_start, packed.face_vertex,
                             packed.face_vertex_start, packed.edge_vertex, packed.edge_face, packed.edge_start,
                             np.asarray(packed.radius, float))
        self.envelope = hht_envelope(model)
        self.memory = None
        self.joint_cache = None

    def settings(self, h):
        p = self.parameters
        return Settings(p.alpha, p.beta, p.gamma, h, TOL.hht_residual, TOL.hht_iterations, TOL.hht_increment,
                        TOL.hht_stagnant_residual, 1.0 - TOL.parallel_cosine ** 2, TOL.hht_backtracks)

    def start(self, state, wrench):
        """The initial accelerations M^-1 (F(0) - K u_0) (seed 003 after eq. 4) of a state at rest or moving;
        returns the strain energy (J) the joints hold there."""
        n_blocks = self.model.mechanics.n_blocks
        velocity = body_velocity(state)
        zero = np.zeros((n_blocks, 6))
        self.joint_cache = None
        cache = self.joints_at(state.position, state.orientation)
        start = StepStart(state.position, state.orientation, state.position, velocity, zero, zero, wrench)
        evaluation = evaluate(self.bodies, start, cache.joints, self.settings(1.0), np.zeros((len(self.movable), 6)))
        self.memory = HHTMemory(self._balance(state, velocity, wrench + evaluation.wrench), evaluation.wrench,
                                cache.keys, np.zeros((len(cache.keys), 3)))
        return float(evaluation.patches.energy.sum())

    def joints_at(self, position, orientation):
        """The JointCache of a detection at a pose (its faces and laws those of the last cache when it touches
        the same pairs with the same features)."""
        cache = self.joint_cache
        mech = self.model.mechanics
        contacts = detect_contacts(mech.polyhedra, position, orientation, mech.is_support,
                                   self.envelope, self.cache)
        if cache is not None and same_pairs(contacts, cache.contacts):
            joints, keys = cache.joints, cache.keys
        else:
            joints = joints_of(self.model, contacts)
            keys = pair_keys(joints.faces.body_a, joints.faces.body_b)
        self.joint_cache = JointCache(contacts, joints, keys, position, orientation)
        return self.joint_cache

    def _balance(self, state, velocity, world_wrench):
        """Accelerations [v', Omega'] that balance ``world_wrench`` (n_blocks, 6), supports at rest."""
        mech = self.model.mechanics
        rotation = quat_to_matrices(state.orientation)
        acceleration = np.zeros((mech.n_blocks, 6))
        for i in self.movable:
            acceleration[i, :3] = world_wrench[i, :3] / mech.mass[i]
            omega = velocity[i, 3:]
            inertia = mech.inertia_body[i]
            torque = rotation[i].T @ world_wrench[i, 3:] - np.cross(omega, inertia @ omega)
            acceleration[i, 3:] = np.linalg.solve(inertia, torque)
        return acceleration

    def advance(self, state, h, wrench, support_velocity=None):
        """One step of h (s) under the applied ``wrench`` (n_blocks, 6), halving it where Newton fails.

        Returns the Trial that ends the step; the state and memory are updated to its end.
        """
        return self._advance(state, h, wrench, support_velocity, depth=0)

    def _advance(self, state, h, wrench, support_velocity, depth):
        try:
            trial = self.attempt(state, h, wrench, support_velocity)
        except np.linalg.LinAlgError:
            if depth >= TOL.hht_halvings:
                raise ModelError(f"the HHT step at t = {state.time:.6g} s has a singular Newton matrix even "
                                 f"when halved {depth} times (a block with no stiffness or mass against the "
                                 "motion; check the hht parameters and the joints' stiffness)",
                                 path="analysis.hht") from None
            trial = None
        if trial is not None and (trial.report.converged or depth >= TOL.hht_halvings):
            self.commit(state, trial, h)
            return trial
        first = self._advance(state, 0.5 * h, wrench, support_velocity, depth + 1)
        second = self._advance(state, 0.5 * h, wrench, support_velocity, depth + 1)
        report = NewtonReport(first.report.iterations + second.report.iterations,
                              max(first.report.residual, second.report.residual),
                              first.report.converged and second.report.converged,
                              1 + first.report.halvings + second.report.halvings,
                              first.report.seconds + second.report.seconds)
        return Trial(second.position, second.orientation, second.velocity, second.acceleration,
                     second.angular_velocity, second.forces, report)

    def commit(self, state, trial, h):
        """Move the state and the memory to the end of ``trial``."""
        velocity = trial.velocity
        state.position = trial.position
        state.orientation = trial.orientation
        state.velocity = velocity[:, :3].copy()
        state.angular_velocity = trial.angular_velocity
        state.time += h
        forces = trial.forces
        stretch = np.where(forces.normal_force[:, None] > 0.0, forces.stretch, 0.0)
        self.memory = HHTMemory(trial.acceleration, forces.wrench, forces.keys, stretch)

    def attempt(self, state, h, wrench, support_velocity):
        """Newton iterations of one step of h from ``state`` (not modified); a Trial, converged or not.

        The joints are those of the JointCache; when the converged end left the cache's reach, the blocks
        are detected there, and if they touch other pairs the iterations go on with those joints (at most
        TOL.hht_detections times).
        """
        began = time.perf_counter()
        mech = self.model.mechanics
        velocity = body_velocity(state)
        position = state.position
        if support_velocity is not None:
            position = position.copy()
            position[mech.is_support] += h * support_velocity[mech.is_support, :3]
            velocity[mech.is_support] = support_velocity[mech.is_support]
        start = StepStart(position, state.orientation, state.position, velocity, self.memory.acceleration,
                          self.memory.contact_wrench, wrench)
        settings = self.settings(h)
        reach = TOL.hht_redetect_fraction * self.envelope
        cache, increment, total = self.joint_cache, None, 0
        for _ in range(TOL.hht_detections):
            used = cache
            joints = used.joints._replace(stretch=self.memory.stretch_of(used.keys))
            end = solve_step(self.bodies, start, joints, settings, increment, cache.position, cache.orientation)
            increment, moved, iterations, residual, converged = end[-5:]
            total += iterations
            if moved <= reach:
                break
            reached = self.joints_at(end[0], end[1])
            if reached.joints is cache.joints:
                break
            cache = reached
        report = NewtonReport(total, float(residual), bool(converged), seconds=time.perf_counter() - began)
        forces = InterfaceForces(used.contacts.n_candidate_pairs, joints.faces.body_a, joints.faces.body_b,
                                 *end[6:15], joints.friction, end[4], used.keys)
        return Trial(end[0], end[1], end[2], end[3], end[5], forces, report)


def same_pairs(found, contacts):
    """Whether two detections touch the same pairs with the same features."""
    first_found, first = found.pair_start[:-1], contacts.pair_start[:-1]
    return (len(first_found) == len(first) and np.array_equal(found.body_a[first_found], contacts.body_a[first])
            and np.array_equal(found.body_b[first_found], contacts.body_b[first])
            and np.array_equal(found.feature_id[first_found] >> 2 * LINE_BITS,
                                                           contacts.feature_id[first] >> 2 * LINE_BITS))


@njit(cache=True)
def joint_kinematics(normal, tangential, normal_force, centre, body_a, body_b, velocity, position, h):
    """Contact frames (n_p, 3, 3) (rows n, u, v; engine.contact.frames.tangent_basis), impulses h [N, F_t . u,
    F_t . v] on B and relative velocities (n, u, v) of B to A at the pressure centres, (n_p, 3) each."""
    n_p = normal.shape[0]
    frame = np.empty((n_p, 3, 3))
    impulse = np.empty((n_p, 3))
    relative = np.empty((n_p, 3))
    for p in range(n_p):
        a, b = body_a[p], body_b[p]
        n = normal[p].copy()
        if np.dot(n, n) < 0.25:
            # a pair apart without a plane of its own (crossing edges that no longer cross): the line of centres
            n = position[b] - position[a]
            n /= np.sqrt(np.dot(n, n))
        u0, u1, u2, v0, v1, v2 = tangent_basis(n[0], n[1], n[2])
        frame[p, 0] = n
        frame[p, 1, 0], frame[p, 1, 1], frame[p, 1, 2] = u0, u1, u2
        frame[p, 2, 0], frame[p, 2, 1], frame[p, 2, 2] = v0, v1, v2
        speed = (velocity[b, :3] + np.cross(velocity[b, 3:], centre[p] - position[b])
                 - velocity[a, :3] - np.cross(velocity[a, 3:], centre[p] - position[a]))
        impulse[p, 0] = h * normal_force[p]
        for k in range(3):
            relative[p, k] = np.dot(frame[p, k], speed)
        impulse[p, 1] = h * np.dot(frame[p, 1], tangential[p])
        impulse[p, 2] = h * np.dot(frame[p, 2], tangential[p])
    return frame, impulse, relative
