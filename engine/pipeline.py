"""One step of the engine: detect -> assemble -> solve -> integrate (seed 000 sec. 2.4, eq. 28-30).

Each stage is a function of (model, state, settings); `step` reads as the table of contents.
"""
from dataclasses import dataclass

import numpy as np

from engine.collision.detect import detect_contacts
from engine.contact.assemble import assemble_problem
from engine.contact.laws import contact_parameters
from engine.dynamics.integrate import integrate_positions
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
    restitution: float = 0.0  # Newton coefficient; 0 gives plastic impacts


@dataclass(frozen=True)
class StepOutcome:
    """What a step found: its contacts, frames, impulses and solver report."""

    contacts: object          # Contacts
    frame: np.ndarray         # (n_c, 3, 3) float64
    impulse: np.ndarray       # (n_c, 3) float64, N s in the contact frame (n, u, v)
    friction: np.ndarray      # (n_c,) float64
    solver: object            # SolverResult
    velocity: np.ndarray      # (n_blocks, 6) float64, velocity at the end of the step
    contact_velocity: np.ndarray  # (n_c, 3) float64, relative velocity D^T v (n, u, v) at the end of the step


def detect(model, state):
    """Stage 1: contacts with gap below the envelope (seed 000 sec. 2.2, 2.5)."""
    mech = model.mechanics
    return detect_contacts(mech.polyhedra, state.position, state.orientation, mech.is_support,
                           model.settings["envelope"])


def contact_keys(contacts, n_blocks):
    """(n_c,) int64 persistent keys of (block pair, feature id) used to warm start impulses.

    The pair index and the 57-bit feature id are mixed by the splitmix64 finalizer, so keys
    of different contacts collide with probability about n_c^2 / 2^64.
    """
    pair = contacts.body_a.astype(np.uint64) * np.uint64(n_blocks) + contacts.body_b.astype(np.uint64)
    with np.errstate(over="ignore"):
        z = contacts.feature_id.astype(np.uint64) ^ (pair * np.uint64(0x9E3779B97F4A7C15))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z.view(np.int64)


def contact_history(state, keys):
    """Impulses (n_c, 3) and tangential stretches (n_c, 3) of the previous step for contacts
    with the same key; zero for new contacts."""
    gamma0 = np.zeros((len(keys), 3))
    stretch = np.zeros((len(keys), 3))
    if len(state.warm_keys):
        where = np.searchsorted(state.warm_keys, keys)
        where = np.minimum(where, len(state.warm_keys) - 1)
        found = state.warm_keys[where] == keys
        gamma0[found] = state.warm_impulses[where[found]]
        stretch[found] = state.warm_stretch[where[found]]
    return gamma0, stretch


def tangential_stretch(frame, impulse, compliance, h):
    """(n_c, 3) world-frame elastic tangential stretch of each contact's spring after a step.

    The tangential compliance is a spring K = 1/c (seed 000 eq. 43, E = c/h^2): the force
    gamma_t/h stretches it by s = -c gamma_t / h. Feeding s/h back into the next step's
    right-hand side (as Phi/h does for the normal, eq. 27) holds a sticking contact still
    instead of letting it creep at c F_t / h; sliding contacts carry the stretch of the
    friction force they transmit, so it never grows beyond c mu N.
    """
    return -(compliance[:, 1, None] * impulse[:, 1, None] * frame[:, 1]
             + compliance[:, 2, None] * impulse[:, 2, None] * frame[:, 2]) / h


def remember_contacts(state, keys, impulse, stretch):
    """Store impulses and stretches sorted by key for the next step."""
    order = np.argsort(keys, kind="stable")
    state.warm_keys = keys[order]
    state.warm_impulses = impulse[order]
    state.warm_stretch = stretch[order]


def integrate(state, velocity, h):
    """Stage 4: Euler-Cromer positions and exponential-map rotations (eq. 30)."""
    state.velocity = velocity[:, :3].copy()
    state.angular_velocity = velocity[:, 3:].copy()
    state.position, state.orientation = integrate_positions(state.position, state.orientation,
                                                            np.ascontiguousarray(velocity), h)
    state.time += h


def solve_step(model, state, settings, contacts=None):
    """Stages 1-3: detect (unless contacts are given), assemble, solve; the blocks do not move."""
    mech = model.mechanics
    if contacts is None:
        contacts = detect(model, state)
    friction, compliance = contact_parameters(model, contacts)
    keys = contact_keys(contacts, mech.n_blocks)
    gamma0, stretch = contact_history(state, keys)
    problem, frame, v_free = assemble_problem(mech, state, contacts, friction, compliance, settings.wrench,
                                              settings.time_step, settings.support_velocity,
                                              settings.restitution, stretch)
    report = solve(problem, settings.solver, gamma0=gamma0,
                   tolerance=settings.tolerance, max_iterations=settings.max_iterations)
    remember_contacts(state, keys, report.gamma,
                      tangential_stretch(frame, report.gamma, compliance, settings.time_step))
    velocity = v_free + problem.velocity(report.gamma)
    return StepOutcome(contacts, frame, report.gamma, friction, report, velocity, problem.contact_velocity(velocity))


def step(model, state, settings):
    """Advance the state by one time step: detect -> assemble -> solve -> integrate."""
    outcome = solve_step(model, state, settings)
    integrate(state, outcome.velocity, settings.time_step)
    return outcome
