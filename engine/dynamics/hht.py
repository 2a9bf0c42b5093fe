"""HHT-alpha time stepping of rigid blocks on compliant interfaces, on the rotation group (seed 003 eq. 4-5).

Seed 003 integrates M u'' + (1 + a) K u_{i+1} - a K u_i = F_{i+1} (eq. 4) with Newmark's updates

    u_{i+1} = u_i + h u'_i + h^2 [(1/2 - b) u''_i + b u''_{i+1}]
    u'_{i+1} = u'_i + h [(1 - g) u''_i + g u''_{i+1}]

and a = 1 - sqrt(2), b = 1/2, g = sqrt(2) - 1/2 (eq. 5, after Czekanski et al.), whose numerical
dissipation, ruled by the step h alone, stands in for the energy a rocking block loses at impacts.
Here the internal force K u is minus the interfaces' wrench W_c (engine.contact.compliant) and
each block has six coordinates: its centre x (world) and its orientation A in SO(3), advanced on
the group as in the Lie-group generalized-alpha method (Bruls & Cardona 2010) with body-frame
angular velocity Omega and acceleration Omega':

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
and halvings.
"""
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from extrados.engine.collision.coherence import DetectionCache
from extrados.engine.collision.detect import detect_contacts
from extrados.engine.collision.feature_id import LINE_BITS
from extrados.engine.contact.frames import tangent_basis
from extrados.engine.contact.laws import pair_laws
from extrados.engine.contact.winkler import pair_faces
from extrados.engine.dynamics.hht_newton import Bodies, Joints, Settings, StepStart, evaluate, newton_iterations, pose
from extrados.engine.geometry.quaternion import quat_multiply, quat_to_matrices
from extrados.engine.tolerance import TOL

#: m/s^2, the acceleration that sets a block's residual scale m g (a scale, not the model's gravity).
RESIDUAL_ACCELERATION = 9.81


@dataclass(frozen=True)
class HHTParameters:
    """alpha, beta, gamma of eq. 4; the defaults are eq. 5."""

    alpha: float = 1.0 - np.sqrt(2.0)
    beta: float = 0.5
    gamma: float = np.sqrt(2.0) - 0.5


@dataclass
class HHTMemory:
    """What a step hands the next besides the State: accelerations, the interfaces' wrench and stretches."""

    acceleration: np.ndarray    # (n_blocks, 6) float64, [v' world m/s^2, Omega' body rad/s^2]
    contact_wrench: np.ndarray  # (n_blocks, 6) float64, W_c(q_i), world
    stretch: dict = field(default_factory=dict)  # pair key -> (3,) float64, m, friction spring stretch

    def stretch_of(self, keys):
        out = np.zeros((len(keys), 3))
        for k, key in enumerate(keys):
            if key in self.stretch:
                out[k] = self.stretch[key]
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


@dataclass(frozen=True)
class Trial:
    """A step attempt: the end configuration, velocities, accelerations and interface forces."""

    position: np.ndarray
    orientation: np.ndarray
    velocity: np.ndarray        # (n_blocks, 6) float64, [v world, Omega body]
    acceleration: np.ndarray    # (n_blocks, 6) float64, [v' world, Omega' body]
    forces: object              # InterfaceForces at the end configuration
    report: NewtonReport


@dataclass(frozen=True)
class InterfaceForces:
    """What the interfaces exert at the end of a step, one entry per touching pair of its detection."""

    contacts: object            # Contacts of the detection
    body_a: np.ndarray          # (n_p,) int64
    body_b: np.ndarray          # (n_p,) int64
    centre: np.ndarray          # (n_p, 3) float64, m, pressure centre
    normal: np.ndarray          # (n_p, 3) float64, unit, from A to B
    normal_force: np.ndarray    # (n_p,) float64, N, pushing A and B apart
    tangential: np.ndarray      # (n_p, 3) float64, N, friction force on B (A gets the opposite)
    penetration: np.ndarray     # (n_p,) float64, m, deepest penetration of the patch (0 when apart)
    opening: np.ndarray         # (n_p,) float64, m, largest gap of the pair's detected corners
    friction: np.ndarray        # (n_p,) float64, mu
    stretch: np.ndarray         # (n_p, 3) float64, m, friction spring stretch
    sliding: np.ndarray         # (n_p,) bool
    wrench: np.ndarray          # (n_blocks, 6) float64, [N, N m], world, torque about each centre of mass

    @property
    def keys(self):
        return pair_keys(self.body_a, self.body_b)


def pair_keys(body_a, body_b):
    """(n_p,) int64 key of each unordered pair of blocks."""
    low, high = np.minimum(body_a, body_b).astype(np.int64), np.maximum(body_a, body_b).astype(np.int64)
    return low << 32 | high


def joints_of(model, contacts, stretch_of):
    """The Joints of a detection (engine.dynamics.hht_newton), with each pair's friction spring from
    ``stretch_of(keys)`` ((n_p, 3) m)."""
    faces = pair_faces(contacts, model.mechanics.polyhedra)
    normal, shear, friction = pair_laws(model, contacts)
    return Joints(faces, normal, shear, friction, stretch_of(pair_keys(faces.body_a, faces.body_b)))


def interface_record(contacts, joints, evaluation):
    """The InterfaceForces of an Evaluation."""
    faces, patches = joints.faces, evaluation.patches
    counts = np.diff(contacts.pair_start)
    opening = np.maximum.reduceat(contacts.gap, contacts.pair_start[:-1]) if len(counts) else np.zeros(0)
    return InterfaceForces(contacts, faces.body_a, faces.body_b, patches.pressure_centre, patches.normal,
                           patches.normal_force, evaluation.tangential, patches.penetration_max, opening,
                           joints.friction, evaluation.stretch, evaluation.sliding, evaluation.wrench)


def body_velocity(state):
    """(n_blocks, 6) [v world, Omega body] of a State (whose angular velocities are world)."""
    rotation = quat_to_matrices(state.orientation)
    omega_body = np.einsum("nji,nj->ni", rotation, state.angular_velocity)
    return np.hstack([state.velocity, omega_body])


class HHTStep:
    """Advances a model's State by one HHT step on compliant interfaces (module docstring)."""

    def __init__(self, model, parameters=HHTParameters()):
        mech = model.mechanics
        packed = mech.polyhedra
        self.model = model
        self.parameters = parameters
        self.movable = np.flatnonzero(~mech.is_support)
        self.cache = DetectionCache()
        self.bodies = Bodies(mech.mass, np.ascontiguousarray(mech.inertia_body), self.movable.astype(np.int64),
                             mech.mass * RESIDUAL_ACCELERATION, packed.vertex_local, packed.vertex_start,
                             packed.face_normal_local, packed.face_offset_local, packed.face_start, packed.face_vertex,
                             packed.face_vertex_start, packed.edge_vertex, packed.edge_face, packed.edge_start,
                             np.asarray(packed.radius, float))
        self.memory = None

    def settings(self, h):
        p = self.parameters
        return Settings(p.alpha, p.beta, p.gamma, h, TOL.hht_residual, TOL.hht_iterations, TOL.hht_increment,
                        TOL.hht_stagnant_residual, 1.0 - TOL.parallel_cosine ** 2)

    def start(self, state, wrench):
        """The initial accelerations M^-1 (F(0) - K u_0) (seed 003 after eq. 4) of a state at rest or moving."""
        n_blocks = self.model.mechanics.n_blocks
        velocity = body_velocity(state)
        zero = np.zeros((n_blocks, 6))
        contacts = self.detect(state.position, state.orientation)
        start = StepStart(state.position, state.orientation, state.position, velocity, zero, zero, wrench)
        joints = joints_of(self.model, contacts, lambda keys: np.zeros((len(keys), 3)))
        evaluation = evaluate(self.bodies, start, joints, self.settings(1.0), np.zeros((len(self.movable), 6)))
        self.memory = HHTMemory(self._balance(state, velocity, wrench + evaluation.wrench), evaluation.wrench)

    def detect(self, position, orientation):
        mech = self.model.mechanics
        return detect_contacts(mech.polyhedra, position, orientation, mech.is_support, self.model.settings["envelope"],
                               self.cache)

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
        trial = self.attempt(state, h, wrench, support_velocity)
        if trial.report.converged or depth >= TOL.hht_halvings:
            self.commit(state, trial, h)
            return trial
        first = self._advance(state, 0.5 * h, wrench, support_velocity, depth + 1)
        second = self._advance(state, 0.5 * h, wrench, support_velocity, depth + 1)
        report = NewtonReport(first.report.iterations + second.report.iterations,
                              max(first.report.residual, second.report.residual),
                              first.report.converged and second.report.converged,
                              1 + first.report.halvings + second.report.halvings,
                              trial.report.seconds + first.report.seconds + second.report.seconds)
        return Trial(second.position, second.orientation, second.velocity, second.acceleration, second.forces, report)

    def commit(self, state, trial, h):
        """Move the state and the memory to the end of ``trial``."""
        rotation = quat_to_matrices(trial.orientation)
        state.position = trial.position
        state.orientation = trial.orientation
        state.velocity = trial.velocity[:, :3].copy()
        state.angular_velocity = np.einsum("nij,nj->ni", rotation, trial.velocity[:, 3:])
        state.time += h
        forces = trial.forces
        self.memory = HHTMemory(trial.acceleration, forces.wrench,
                                {int(key): forces.stretch[k] for k, key in enumerate(forces.keys)
                                 if forces.normal_force[k] > 0.0})

    def moved(self, predicted, evaluation):
        """How far (m) any point of a movable block lies from where the prediction put it: |dx| + |dpsi| R."""
        movable = self.movable
        shift = np.linalg.norm(evaluation.position[movable] - predicted[0][movable], axis=1)
        dot = np.abs(np.einsum("ij,ij->i", evaluation.orientation[movable], predicted[1][movable]))
        turn = 2.0 * np.arccos(np.minimum(dot, 1.0))
        return float(np.max(shift + turn * self.bodies.radius[movable], initial=0.0))

    def attempt(self, state, h, wrench, support_velocity):
        """Newton iterations of one step of h from ``state`` (not modified); a Trial, converged or not.

        The joints are those of a detection at the predicted end of the step; when the converged end lies
        farther from the prediction than TOL.hht_redetect_fraction of the envelope and touches other pairs
        there, the iterations go on with the joints detected there (at most TOL.hht_detections detections).
        """
        began = time.perf_counter()
        mech = self.model.mechanics
        movable = self.movable
        velocity = body_velocity(state)
        acceleration = self.memory.acceleration
        position = state.position.copy()
        if support_velocity is not None:
            position[mech.is_support] += h * support_velocity[mech.is_support, :3]
            velocity[mech.is_support] = support_velocity[mech.is_support]
        start = StepStart(position, state.orientation, state.position, velocity, acceleration,
                          self.memory.contact_wrench, np.ascontiguousarray(wrench, dtype=np.float64))
        # predictor: the step's increments with the accelerations of the last step
        increment = h * velocity[movable] + 0.5 * h * h * acceleration[movable]
        predicted = pose(self.bodies, start, increment)
        contacts = self.detect(*predicted)
        total = 0
        for _ in range(TOL.hht_detections):
            joints = joints_of(self.model, contacts, self.memory.stretch_of)
            evaluation, iterations, residual, converged = newton_iterations(self.bodies, start, joints,
                                                                            self.settings(h), increment)
            total += iterations
            if self.moved(predicted, evaluation) <= TOL.hht_redetect_fraction * self.model.settings["envelope"]:
                break
            found = self.detect(evaluation.position, evaluation.orientation)
            if same_pairs(found, contacts):
                break
            contacts, predicted = found, (evaluation.position, evaluation.orientation)
            increment = increment_of(evaluation, state, movable)
        report = NewtonReport(total, float(residual), bool(converged), seconds=time.perf_counter() - began)
        forces = interface_record(contacts, joints, evaluation)
        return Trial(evaluation.position, evaluation.orientation, evaluation.velocity, evaluation.acceleration,
                     forces, report)


def increment_of(evaluation, state, movable):
    """The increments D (n_movable, 6) that lead from ``state`` to the evaluation's pose."""
    increment = np.empty((len(movable), 6))
    increment[:, :3] = evaluation.position[movable] - state.position[movable]
    for k, i in enumerate(movable):
        relative = quat_multiply(quat_conjugate(state.orientation[i]), evaluation.orientation[i])
        increment[k, 3:] = rotation_vector(relative)
    return increment


def quat_conjugate(q):
    return np.array([q[0], -q[1], -q[2], -q[3]])


def rotation_vector(q):
    """The rotation vector (rad) of a unit quaternion, the inverse of quat_exp."""
    q = q if q[0] >= 0.0 else -q
    sine = np.linalg.norm(q[1:])
    if sine < 1e-12:
        return 2.0 * q[1:]
    return 2.0 * np.arctan2(sine, q[0]) * q[1:] / sine


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
        n = normal[p]
        u0, u1, u2, v0, v1, v2 = tangent_basis(n[0], n[1], n[2])
        frame[p, 0] = n
        frame[p, 1, 0], frame[p, 1, 1], frame[p, 1, 2] = u0, u1, u2
        frame[p, 2, 0], frame[p, 2, 1], frame[p, 2, 2] = v0, v1, v2
        a, b = body_a[p], body_b[p]
        speed = (velocity[b, :3] + np.cross(velocity[b, 3:], centre[p] - position[b])
                 - velocity[a, :3] - np.cross(velocity[a, 3:], centre[p] - position[a]))
        impulse[p, 0] = h * normal_force[p]
        for k in range(3):
            relative[p, k] = np.dot(frame[p, k], speed)
        impulse[p, 1] = h * np.dot(frame[p, 1], tangential[p])
        impulse[p, 2] = h * np.dot(frame[p, 2], tangential[p])
    return frame, impulse, relative
