"""One step of the engine: detect -> assemble -> solve -> integrate (seed 000 sec. 2.4, eq. 28-30).

Each stage is a function of (model, state, settings); `step` reads as the table of contents.
"""
from dataclasses import dataclass

import numpy as np

from engine.collision.detect import detect_contacts
from engine.contact.assemble import assemble_problem
from engine.contact.laws import contact_parameters
from engine.geometry.quaternion import rotate_world_rotation
from engine.solvers import solve


@dataclass(frozen=True)
class StepSettings:
    """What one step needs besides the model and the state."""

    time_step: float          # h, s
    wrench: np.ndarray        # (n_blocks, 6) float64, applied loads at this step
    solver: str = "apgd"
    tolerance: float = 1e-7
    max_iterations: int = 5000
    support_velocity: np.ndarray = None  # (n_blocks, 6) float64, prescribed support velocity or None


@dataclass(frozen=True)
class StepOutcome:
    """What a step found: its contacts, frames, impulses and solver report."""

    contacts: object          # Contacts
    frame: np.ndarray         # (n_c, 3, 3) float64
    impulse: np.ndarray       # (n_c, 3) float64, N s in the contact frame (n, u, v)
    friction: np.ndarray      # (n_c,) float64
    solver: object            # SolverResult
    velocity: np.ndarray      # (n_blocks, 6) float64, velocity at the end of the step


def detect(model, state):
    """Stage 1: contacts with gap below the envelope (seed 000 sec. 2.2, 2.5)."""
    mech = model.mechanics
    return detect_contacts(mech.polyhedra, state.position, state.orientation, mech.is_support,
                           model.settings["envelope"])


def contact_keys(contacts, n_blocks):
    """(n_c,) int64 persistent keys (pair, feature) used to warm start impulses."""
    pair = contacts.body_a.astype(np.int64) * n_blocks + contacts.body_b.astype(np.int64)
    return (pair << np.int64(24)) ^ (contacts.feature_id.astype(np.int64) & np.int64((1 << 24) - 1))


def warm_start(state, keys):
    """Impulses of the previous step for contacts with the same key, zero for new ones."""
    gamma0 = np.zeros((len(keys), 3))
    if len(state.warm_keys):
        where = np.searchsorted(state.warm_keys, keys)
        where = np.minimum(where, len(state.warm_keys) - 1)
        found = state.warm_keys[where] == keys
        gamma0[found] = state.warm_impulses[where[found]]
    return gamma0


def remember_impulses(state, keys, impulse):
    """Store impulses sorted by key for the next warm start."""
    order = np.argsort(keys, kind="stable")
    state.warm_keys = keys[order]
    state.warm_impulses = impulse[order]


def integrate(state, velocity, h):
    """Stage 4: Euler-Cromer positions and exponential-map rotations (eq. 30)."""
    state.velocity = velocity[:, :3].copy()
    state.angular_velocity = velocity[:, 3:].copy()
    state.position = state.position + h * state.velocity
    for i in range(len(state.orientation)):
        if velocity[i, 3:].any():
            state.orientation[i] = rotate_world_rotation(state.orientation[i], h * velocity[i, 3:])
    state.time += h


def solve_step(model, state, settings, contacts=None):
    """Stages 1-3: detect (unless contacts are given), assemble, solve; the blocks do not move."""
    mech = model.mechanics
    if contacts is None:
        contacts = detect(model, state)
    friction, compliance = contact_parameters(model, contacts)
    problem, frame, v_free = assemble_problem(mech, state, contacts, friction, compliance, settings.wrench,
                                              settings.time_step, settings.support_velocity)
    keys = contact_keys(contacts, mech.n_blocks)
    report = solve(problem, settings.solver, gamma0=warm_start(state, keys),
                   tolerance=settings.tolerance, max_iterations=settings.max_iterations)
    remember_impulses(state, keys, report.gamma)
    velocity = v_free + problem.velocity(report.gamma)
    return StepOutcome(contacts, frame, report.gamma, friction, report, velocity)


def step(model, state, settings):
    """Advance the state by one time step: detect -> assemble -> solve -> integrate."""
    outcome = solve_step(model, state, settings)
    integrate(state, outcome.velocity, settings.time_step)
    return outcome
