"""Newton's iterations of one HHT-alpha step, in numba (the equations are in engine.dynamics.hht).

The unknowns are the increments D = [D_x, D_psi] (n_movable, 6) of the movable blocks over the
step; for given D, ``evaluate`` poses the blocks, integrates the Winkler pressure of every pair
(engine.contact.winkler), adds the friction springs (engine.contact.interface_friction) and forms
the residual of the equations of motion and its Jacobian; ``newton_iterations`` corrects D until
the residual passes the convergence test of engine.dynamics.hht. The pairs and their faces are
those of one detection: they stay fixed during the iterations.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from extrados.engine.collision.feature_id import KIND_REFERENCE_ON_A
from extrados.engine.collision.narrow_phase import Geometry
from extrados.engine.contact.interface_friction import friction_forces
from extrados.engine.contact.winkler import winkler_kernel
from extrados.engine.geometry.packed import world_face_planes, world_vertices
from extrados.engine.geometry.quaternion import quat_exp, quat_multiply, quat_to_matrix

#: What stays the same from step to step: the blocks.
Bodies = namedtuple("Bodies", [
    "mass",               # (n_blocks,) float64, kg
    "inertia",            # (n_blocks, 3, 3) float64, kg m^2, body axes
    "movable",            # (n_movable,) int64, the blocks with unknowns
    "scale",              # (n_blocks,) float64, N, m g: a block's residual scale
    "vertex_local",       # PackedPolyhedra's arrays (engine.geometry.packed)
    "vertex_start",
    "face_normal_local",
    "face_offset_local",
    "face_start",
    "face_vertex",
    "face_vertex_start",
    "edge_vertex",
    "edge_face",
    "edge_start",
    "radius",             # (n_blocks,) float64, m, bounding radius
])

#: Where the step starts.
StepStart = namedtuple("StepStart", [
    "position",       # (n_blocks, 3) float64, m, centres of mass; supports already at the end of the step
    "orientation",    # (n_blocks, 4) float64, [w, x, y, z]
    "previous_position",     # (n_blocks, 3) float64, m, every block at the start of the step
    "velocity",       # (n_blocks, 6) float64, [v world, Omega body]; supports: their prescribed velocity
    "acceleration",   # (n_blocks, 6) float64, [v' world, Omega' body]
    "history",        # (n_blocks, 6) float64, the interfaces' wrench of the last step, W_c(q_i), world
    "wrench",         # (n_blocks, 6) float64, applied loads, world, moments about the centres of mass
])

#: The step's joints, pair by pair in the order of one detection.
Joints = namedtuple("Joints", [
    "faces",             # PairFaces (engine.contact.winkler)
    "normal_stiffness",  # (n_p,) float64, N/m^3
    "shear_stiffness",   # (n_p,) float64, N/m^3
    "friction",          # (n_p,) float64
    "stretch",           # (n_p, 3) float64, m, friction springs at the start of the step
])

#: The numbers of the method and of its convergence test.
Settings = namedtuple("Settings", [
    "alpha", "beta", "gamma",  # eq. 4-5
    "h",                       # s
    "residual",                # TOL.hht_residual
    "iterations",              # TOL.hht_iterations
    "increment",               # TOL.hht_increment
    "stagnant_residual",       # TOL.hht_stagnant_residual
    "parallel_sine_squared",   # edges closer to parallel are parallel (engine.contact.winkler)
    "backtracks",              # TOL.hht_backtracks
])

#: Everything an iterate D gives.
Evaluation = namedtuple("Evaluation", [
    "position", "orientation",  # (n_blocks, 3), (n_blocks, 4)
    "velocity", "acceleration",  # (n_blocks, 6) each, [world, body]
    "patches",                  # WinklerPatches
    "tangential",               # (n_p, 3) float64, N, friction on B
    "stretch",                  # (n_p, 3) float64, m
    "sliding",                  # (n_p,) bool
    "wrench",                   # (n_blocks, 6) float64, W_c(q_{i+1}), world
    "opening",                  # (n_p,) float64, m, the largest height of a joint's incident corners over its
                                # reference plane (how far the joint has opened; the spring's gap at an edge pair)
    "residual",                 # (n_movable, 6) float64
    "jacobian",                 # (6 n_movable, 6 n_movable) float64
])


@njit(cache=True)
def times(matrix, vector):
    """matrix (3, 3) @ vector (3,), written out (numba's @ calls BLAS, slow at this size)."""
    out = np.empty(3)
    for i in range(3):
        out[i] = matrix[i, 0] * vector[0] + matrix[i, 1] * vector[1] + matrix[i, 2] * vector[2]
    return out


@njit(cache=True)
def times_transposed(matrix, vector):
    """matrix.T (3, 3) @ vector (3,), written out."""
    out = np.empty(3)
    for i in range(3):
        out[i] = matrix[0, i] * vector[0] + matrix[1, i] * vector[1] + matrix[2, i] * vector[2]
    return out


@njit(cache=True)
def skew(v):
    out = np.zeros((3, 3))
    out[0, 1], out[0, 2] = -v[2], v[1]
    out[1, 0], out[1, 2] = v[2], -v[0]
    out[2, 0], out[2, 1] = -v[1], v[0]
    return out


@njit(cache=True)
def skew_times(v, matrix):
    """[v]x @ matrix (3, 3): each column is v x that column."""
    out = np.empty((3, 3))
    for j in range(3):
        out[0, j] = v[1] * matrix[2, j] - v[2] * matrix[1, j]
        out[1, j] = v[2] * matrix[0, j] - v[0] * matrix[2, j]
        out[2, j] = v[0] * matrix[1, j] - v[1] * matrix[0, j]
    return out


@njit(cache=True)
def pose(bodies, start, increment):
    """Centres and orientations of the blocks for increments D: x_i + D_x, A_i exp([D_psi]x)."""
    position = start.position.copy()
    orientation = start.orientation.copy()
    for k in range(bodies.movable.shape[0]):
        i = bodies.movable[k]
        for j in range(3):
            position[i, j] = start.previous_position[i, j] + increment[k, j]
        q = quat_multiply(start.orientation[i], quat_exp(increment[k, 3:].copy()))
        orientation[i] = q / np.sqrt(np.dot(q, q))
    return position, orientation


@njit(cache=True)
def newmark(bodies, start, settings, increment):
    """Velocities and accelerations at the end of the step for increments D (Newmark, eq. 4)."""
    h, beta, gamma = settings.h, settings.beta, settings.gamma
    velocity = start.velocity.copy()
    acceleration = start.acceleration.copy()
    for k in range(bodies.movable.shape[0]):
        i = bodies.movable[k]
        for j in range(6):
            a = (increment[k, j] - h * start.velocity[i, j]
                 - h * h * (0.5 - beta) * start.acceleration[i, j]) / (beta * h * h)
            acceleration[i, j] = a
            velocity[i, j] = start.velocity[i, j] + h * ((1.0 - gamma) * start.acceleration[i, j] + gamma * a)
    return velocity, acceleration


@njit(cache=True)
def moved_point(point, position, rotation, previous_position, previous_rotation):
    """How far the material point of a body now at ``point`` moved over the step (m)."""
    body_point = times_transposed(rotation, point - position)
    return point - previous_position - times(previous_rotation, body_point)


@njit(cache=True)
def evaluate(bodies, start, joints, settings, increment):
    """The Evaluation of increments D (module docstring)."""
    n_blocks = bodies.mass.shape[0]
    alpha, beta, gamma, h = settings.alpha, settings.beta, settings.gamma, settings.h
    position, orientation = pose(bodies, start, increment)
    velocity, acceleration = newmark(bodies, start, settings, increment)
    vertex = world_vertices(bodies.vertex_local, bodies.vertex_start, position, orientation)
    normal, offset = world_face_planes(bodies.face_normal_local, bodies.face_offset_local, bodies.face_start,
                                       position, orientation)
    geometry = Geometry(vertex, bodies.vertex_start, normal, offset, bodies.face_start, bodies.face_vertex,
                        bodies.face_vertex_start, bodies.edge_vertex, bodies.edge_face, bodies.edge_start, position,
                        orientation, bodies.radius)
    patches = winkler_kernel(geometry, joints.faces, joints.normal_stiffness, settings.parallel_sine_squared)
    rotation = np.empty((n_blocks, 3, 3))
    previous_rotation = np.empty((n_blocks, 3, 3))
    for i in range(n_blocks):
        rotation[i] = quat_to_matrix(orientation[i])
        previous_rotation[i] = quat_to_matrix(start.orientation[i])
    n_p = joints.faces.body_a.shape[0]
    moved_a = np.empty((n_p, 3))
    moved_b = np.empty((n_p, 3))
    centre_a = np.empty((n_p, 3))
    centre_b = np.empty((n_p, 3))
    for p in range(n_p):
        a, b = joints.faces.body_a[p], joints.faces.body_b[p]
        c = patches.pressure_centre[p]
        moved_a[p] = moved_point(c, position[a], rotation[a], start.previous_position[a], previous_rotation[a])
        moved_b[p] = moved_point(c, position[b], rotation[b], start.previous_position[b], previous_rotation[b])
        centre_a[p] = position[a]
        centre_b[p] = position[b]
    # N = -n . F_A: its tangent is minus the normal's row of A's force tangent
    normal_force_tangent = np.zeros((n_p, 12))
    for p in range(n_p):
        for col in range(12):
            for j in range(3):
                normal_force_tangent[p, col] -= patches.normal[p, j] * patches.stiffness[p, j, col]
    tangential, stretch, sliding, friction_stiffness = friction_forces(
        patches.pressure_centre, patches.normal, patches.normal_force, patches.area, joints.shear_stiffness,
        joints.friction, joints.stretch, moved_a, moved_b, centre_a, centre_b, normal_force_tangent)
    wrench = np.zeros((n_blocks, 6))
    for p in range(n_p):
        a, b = joints.faces.body_a[p], joints.faces.body_b[p]
        c = patches.pressure_centre[p]
        torque_a = np.cross(c - position[a], tangential[p])
        torque_b = np.cross(c - position[b], tangential[p])
        for j in range(3):
            wrench[a, j] += patches.force_a[p, j] - tangential[p, j]
            wrench[a, 3 + j] += patches.torque_a[p, j] - torque_a[j]
            wrench[b, j] += tangential[p, j] - patches.force_a[p, j]
            wrench[b, 3 + j] += patches.torque_b[p, j] + torque_b[j]
    acting = start.wrench + (1.0 + alpha) * wrench - alpha * start.history
    n = bodies.movable.shape[0]
    index = np.full(n_blocks, -1, np.int64)
    residual = np.empty((n, 6))
    jacobian = np.zeros((6 * n, 6 * n))
    for k in range(n):
        i = bodies.movable[k]
        index[i] = k
        inertia = bodies.inertia[i]
        omega = velocity[i, 3:].copy()
        spin = times(inertia, omega)
        torque = times_transposed(rotation[i], acting[i, 3:])
        for j in range(3):
            residual[k, j] = bodies.mass[i] * acceleration[i, j] - acting[i, j]
        residual[k, 3:] = times(inertia, acceleration[i, 3:]) + np.cross(omega, spin) - torque
        for j in range(3):
            jacobian[6 * k + j, 6 * k + j] = bodies.mass[i] / (beta * h * h)
        jacobian[6 * k + 3:6 * k + 6, 6 * k + 3:6 * k + 6] = (
            inertia / (beta * h * h) + gamma / (beta * h) * (skew_times(omega, inertia) - skew(spin)) - skew(torque))
    # the interfaces: rows [F; A^T T], columns [dx; A dpsi] of each movable block of a pair
    for p in range(n_p):
        tangent = patches.stiffness[p] + friction_stiffness[p]
        for r in range(2):
            row_body = joints.faces.body_a[p] if r == 0 else joints.faces.body_b[p]
            if index[row_body] < 0:
                continue
            for c in range(2):
                col_body = joints.faces.body_a[p] if c == 0 else joints.faces.body_b[p]
                if index[col_body] < 0:
                    continue
                add_rotated_block(jacobian, 6 * index[row_body], 6 * index[col_body], tangent, 6 * r, 6 * c,
                                  rotation[row_body], rotation[col_body], -(1.0 + alpha))
    return Evaluation(position, orientation, velocity, acceleration, patches, tangential, stretch, sliding, wrench,
                      joint_opening(geometry, joints.faces, patches), residual, jacobian)


@njit(cache=True)
def add_rotated_block(jacobian, rows, cols, tangent, row0, col0, rotation_row, rotation_col, scale):
    """jacobian[rows:+6, cols:+6] += scale [I 0; 0 A_r^T] tangent[row0:+6, col0:+6] [I 0; 0 A_c]: a pair's
    tangent in world increments turned into force and body-frame moment rows, translation and body-frame
    rotation columns (written out: numba's small matrix products each call BLAS)."""
    part = np.empty((6, 6))
    for i in range(6):
        for j in range(3):
            part[i, j] = tangent[row0 + i, col0 + j]
        for j in range(3):
            part[i, 3 + j] = (tangent[row0 + i, col0 + 3] * rotation_col[0, j]
                              + tangent[row0 + i, col0 + 4] * rotation_col[1, j]
                              + tangent[row0 + i, col0 + 5] * rotation_col[2, j])
    for j in range(6):
        for i in range(3):
            jacobian[rows + i, cols + j] += scale * part[i, j]
            jacobian[rows + 3 + i, cols + j] += scale * (rotation_row[0, i] * part[3, j] + rotation_row[1, i] * part[4, j]
                                                         + rotation_row[2, i] * part[5, j])


@njit(cache=True)
def joint_opening(geometry, faces, patches):
    """(n_p,) m: for a face pair the largest height of the incident face's corners over the reference plane,
    for an edge pair minus the spring's penetration."""
    n_p = faces.kind.shape[0]
    opening = np.empty(n_p)
    for p in range(n_p):
        if faces.reference_face[p] < 0:
            opening[p] = -patches.penetration_max[p]
            continue
        incident = faces.body_b[p] if faces.kind[p] == KIND_REFERENCE_ON_A else faces.body_a[p]
        normal = geometry.face_normal[faces.reference_face[p]]
        offset = geometry.face_offset[faces.reference_face[p]]
        face = faces.incident_face[p]
        largest = -np.inf
        for k in range(geometry.face_vertex_start[face], geometry.face_vertex_start[face + 1]):
            corner = geometry.vertex[geometry.vertex_start[incident] + geometry.face_vertex[k]]
            largest = max(largest, np.dot(normal, corner) - offset)
        opening[p] = largest
    return opening


@njit(cache=True)
def relative_residual(bodies, residual):
    """Largest residual of a block over its scale: force / (m g), moment / (m g R)."""
    largest = 0.0
    for k in range(bodies.movable.shape[0]):
        i = bodies.movable[k]
        for j in range(6):
            scale = bodies.scale[i] if j < 3 else bodies.scale[i] * bodies.radius[i]
            largest = max(largest, abs(residual[k, j]) / scale)
    return largest


@njit(cache=True)
def moved_from(bodies, position, orientation, reference_position, reference_orientation):
    """How far (m) any point of a movable block lies from where the reference pose put it: |dx| + |dpsi| R."""
    largest = 0.0
    for k in range(bodies.movable.shape[0]):
        i = bodies.movable[k]
        shift = np.sqrt(np.sum((position[i] - reference_position[i]) ** 2))
        cosine = min(abs(np.dot(orientation[i], reference_orientation[i])), 1.0)
        largest = max(largest, shift + 2.0 * np.arccos(cosine) * bodies.radius[i])
    return largest


@njit(cache=True)
def newton_iterations(bodies, start, joints, settings, increment):
    """Correct the increments D (n_movable, 6), starting from ``increment``, until the convergence test.

    Returns
    -------
    evaluation : Evaluation of the last iterate
    iterations : int
    residual : float, its relative residual
    converged : bool
    """
    increment = increment.copy()
    evaluation = evaluate(bodies, start, joints, settings, increment)
    norm = relative_residual(bodies, evaluation.residual)
    iterations = 0
    while norm > settings.residual and iterations < settings.iterations:
        correction = np.linalg.solve(evaluation.jacobian, -evaluation.residual.ravel()).reshape(-1, 6)
        iterations += 1
        # backtracking: a correction that raises the residual (a joint switching between stick and slip,
        # or opening) is halved, up to settings.backtracks times
        for _ in range(settings.backtracks + 1):
            trial = evaluate(bodies, start, joints, settings, increment + correction)
            trial_norm = relative_residual(bodies, trial.residual)
            if trial_norm < norm:
                break
            correction *= 0.5
        increment += correction
        evaluation, norm = trial, trial_norm
        largest_move, largest_turn = 0.0, 0.0
        for k in range(correction.shape[0]):
            for j in range(3):
                largest_move = max(largest_move, abs(correction[k, j]) / bodies.radius[bodies.movable[k]])
                largest_turn = max(largest_turn, abs(correction[k, 3 + j]))
        if max(largest_move, largest_turn) <= settings.increment:
            # the corrections reached round-off: the residual cannot fall further
            return evaluation, increment, iterations, norm, norm <= settings.stagnant_residual
    return evaluation, increment, iterations, norm, norm <= settings.residual


@njit(cache=True)
def predictor(bodies, start, h):
    """The increments of the step with the accelerations of the last: D = h V_i + h^2 / 2 V'_i."""
    increment = np.empty((bodies.movable.shape[0], 6))
    for k in range(bodies.movable.shape[0]):
        i = bodies.movable[k]
        for j in range(6):
            increment[k, j] = h * start.velocity[i, j] + 0.5 * h * h * start.acceleration[i, j]
    return increment


@njit(cache=True)
def solve_step(bodies, start, joints, settings, increment, reference_position, reference_orientation):
    """``newton_iterations`` from ``increment`` (None: the predictor), with what a step keeps of its last
    Evaluation as plain arrays (numba returns them to Python much faster than nested named tuples).

    Returns
    -------
    position, orientation, velocity, acceleration, wrench : the blocks at the end of the step
    world_angular_velocity : (n_blocks, 3) float64, rad/s, A Omega
    centre, normal, normal_force, tangential, stretch, sliding, penetration, opening, energy : the joints
    increment : (n_movable, 6) float64, the converged D
    moved : float, m, how far the end lies from the reference pose (`moved_from`)
    iterations : int; residual : float; converged : bool
    """
    if increment is None:
        increment = predictor(bodies, start, settings.h)
    evaluation, increment, iterations, norm, converged = newton_iterations(bodies, start, joints, settings,
                                                                           increment)
    patches = evaluation.patches
    omega = np.zeros((bodies.mass.shape[0], 3))
    for i in range(bodies.mass.shape[0]):
        omega[i] = times(quat_to_matrix(evaluation.orientation[i]), evaluation.velocity[i, 3:])
    moved = moved_from(bodies, evaluation.position, evaluation.orientation, reference_position,
                       reference_orientation)
    return (evaluation.position, evaluation.orientation, evaluation.velocity, evaluation.acceleration,
            evaluation.wrench, omega, patches.pressure_centre, patches.normal, patches.normal_force,
            evaluation.tangential, evaluation.stretch, evaluation.sliding, patches.penetration_max,
            evaluation.opening, joint_energy(patches, joints, evaluation.stretch), increment, moved, iterations,
            norm, converged)


@njit(cache=True)
def joint_energy(patches, joints, stretch):
    """(n_p,) J, the strain energy each joint holds: its Winkler layer's, k_n/2 int d^2 dA, and its friction
    spring's, K_t |s|^2 / 2 with K_t = k_t A (engine.contact.interface_friction)."""
    energy = patches.energy.copy()
    for p in range(energy.shape[0]):
        energy[p] += 0.5 * joints.shear_stiffness[p] * patches.area[p] * np.dot(stretch[p], stretch[p])
    return energy
