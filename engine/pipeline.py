"""One step of the engine: detect -> assemble -> solve -> integrate (seed 000 sec. 2.4, eq. 28-30).

Each stage is a function of (model, state, settings); `step` reads as the table of contents.
What a step keeps of its contacts for the next is engine.contact.history's.
"""
from dataclasses import dataclass

import numpy as np
from numba import njit

from extrados.engine.collision.detect import detect_contacts
from extrados.engine.contact.assemble import assemble_problem
from extrados.engine.contact.bonds import BOND_GAP, BONDED, BROKEN, NORMAL, SLIP, Bonds, gathered_bonds, updated_rows
from extrados.engine.contact.cohesive import COHESIVE, COULOMB
from extrados.engine.contact.history import contact_history, remember_contacts
from extrados.engine.contact.laws import contact_laws, contact_parameters, tributary_area
from extrados.engine.dynamics.integrate import integrate_positions
from extrados.engine.solvers import solve
from extrados.engine.solvers.problem import Problem
from extrados.engine.tolerance import TOL

#: Most solves of a run's first step with bonded contacts, each with the normal forces of the one
#: before in the bonds' friction (engine.contact.bonds.Bonds.strengths).
FRICTION_PASSES = 6


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
    bonds: object = None      # engine.contact.bonds.Bonds at the end of the step


def detect(model, state):
    """Stage 1: contacts with gap below the envelope (seed 000 sec. 2.2, 2.5), reusing and
    updating what the state's last detection kept; none with a block the state marks inactive."""
    mech = model.mechanics
    return detect_contacts(mech.polyhedra, state.position, state.orientation, mech.is_support,
                           model.settings["envelope"], state.detection_cache, state.active)


@njit(cache=True)
def tangential_stretch(frame, impulse, compliance, h):
    """(n_c, 3) world-frame elastic tangential stretch of each contact's spring after a step.

    The tangential compliance is a spring K = 1/c (seed 000 eq. 43, E = c/h^2): the force
    gamma_t/h stretches it by s = -c gamma_t / h. Feeding s/h back into the next step's
    right-hand side (as Phi/h does for the normal, eq. 27) holds a sticking contact still
    instead of letting it creep at c F_t / h; sliding contacts carry the stretch of the
    friction force they transmit, so it never grows beyond c mu N.

    Parameters
    ----------
    frame : (n_c, 3, 3) float64, rows n, u, v
    impulse : (n_c, 3) float64, N s
    compliance : (n_c, 3) float64, m/N
    h : float, s
    """
    stretch = np.empty((frame.shape[0], 3))
    for i in range(frame.shape[0]):
        along_u = compliance[i, 1] * impulse[i, 1]
        along_v = compliance[i, 2] * impulse[i, 2]
        for k in range(3):
            stretch[i, k] = -(along_u * frame[i, 1, k] + along_v * frame[i, 2, k]) / h
    return stretch


def integrate(state, velocity, h):
    """Stage 4: Euler-Cromer positions and exponential-map rotations (eq. 30)."""
    state.velocity = velocity[:, :3].copy()
    state.angular_velocity = velocity[:, 3:].copy()
    state.position, state.orientation = integrate_positions(state.position, state.orientation,
                                                            np.ascontiguousarray(velocity), h)
    state.time += h


def solve_step(model, state, settings, contacts=None, impulse_guess=None):
    """Stages 1-3: detect (unless contacts are given), assemble, solve; the blocks do not move.

    The solver starts from the state's impulses of the last step (engine.contact.history), or from
    ``impulse_guess`` ((n_c, 3) float64, N s, in the order of ``contacts``) when one is given;
    a guess comes with no tangential stretch, so the step's result depends on it only within
    the solver's tolerance.
    """
    mech = model.mechanics
    h = settings.time_step
    if contacts is None:
        contacts = detect(model, state)
    law = contact_laws(model, contacts)
    friction, compliance = contact_parameters(model, contacts, law)
    history = contact_history(mech, state.contact_memory, contacts, impulse_guess)
    gamma0, stretch = history.impulse, history.stretch
    bonds = contact_bonds(model, state, contacts, history.source, law)
    cohesion, bond_gap, cone_friction = None, None, friction
    if bonds.mortar.any():
        compliance, stretch, cone_friction, cohesion, bond_gap = bonded_inputs(model, bonds, friction, compliance,
                                                                               stretch)
    problem, frame, v_free = assemble_problem(mech, state, contacts, cone_friction, compliance, settings.wrench, h,
                                              settings.support_velocity, settings.restitution, stretch,
                                              cohesion, bond_gap)
    if cohesion is None:
        report = solve(problem, settings.solver, gamma0=gamma0,
                       tolerance=settings.tolerance, max_iterations=settings.max_iterations)
    else:
        # the first step of a run (a static solve) or of a construction stage has no normal forces of a step
        # before for its new bonds' friction
        passes = 1 if state.bonds_made else FRICTION_PASSES
        problem, report, cohesion = solve_bonded(model, bonds, friction, problem, cohesion, settings, gamma0, passes)
    velocity = v_free + problem.velocity(report.gamma)
    if state.active is not None:
        # unbuilt blocks (construction, seed 001 sec. 4.3.1) have no contacts; holding their
        # velocity at zero keeps them where they were drawn, free of gravity
        velocity[~state.active] = 0.0
    contact_velocity = problem.contact_velocity(velocity)
    if cohesion is not None:
        bonds = Bonds(bonds.law, bonds.code, bond_rows_after(model, bonds, contacts, frame, contact_velocity,
                                                             report.gamma, cohesion * h, h),
                      bonds.area)
    state.contact_memory = remember_contacts(history, contacts, report.gamma,
                                             tangential_stretch(frame, report.gamma, compliance, h), bonds.rows)
    state.bonds_made = True
    return StepOutcome(contacts, frame, report.gamma, friction, report, velocity, contact_velocity, bonds)


def bonded_inputs(model, bonds, friction, compliance, stretch):
    """What a step with mortar bonds assembles: the bonds' compliance and stretch, the cone friction (zero for
    bonded contacts, whose friction is in their shear capacity: their set is a cylinder), their
    capacities [C, T] (N) with the normal forces of the step before, and their bond gaps (nan when none)."""
    return (compliance_of_bonds(model, bonds, compliance), stretch_of_bonds(model, bonds, stretch),
            np.where(bonds.cylinder, 0.0, friction), bonds.strengths(model, friction, bonds.rows[:, NORMAL]),
            np.where(bonds.holding, bonds.rows[:, BOND_GAP], np.nan))


def solve_bonded(model, bonds, friction, problem, cohesion, settings, gamma0, passes):
    """Solve a step with mortar bonds, up to ``passes`` times: each pass puts the normal forces of the one
    before into the bonds' friction, until their capacities change by less than TOL.bond_friction_relative.

    Returns
    -------
    problem : Problem, the last one solved
    report : SolverResult
    cohesion : (n_c, 2) N, the capacities it was solved with
    """
    h = settings.time_step
    for attempt in range(passes):
        report = solve(problem, settings.solver, gamma0=gamma0,
                       tolerance=settings.tolerance, max_iterations=settings.max_iterations)
        if attempt + 1 == passes:
            break
        updated = bonds.strengths(model, friction, report.gamma[:, 0] / h)
        if np.abs(updated - cohesion).max(initial=0.0) <= TOL.bond_friction_relative * np.abs(updated).max(initial=0.0):
            break
        cohesion, gamma0 = updated, report.gamma
        problem = with_cohesion(problem, cohesion * h)
    return problem, report, cohesion


def with_cohesion(problem, cohesion_impulse):
    """The Problem with its contacts' [C h, T h] replaced by ``cohesion_impulse`` (n_c, 2) N s."""
    return Problem(problem.body_a, problem.body_b, problem.jacobian_a, problem.jacobian_b, problem.inverse_mass,
                   problem.inverse_inertia, problem.compliance, problem.friction, problem.rhs,
                   cohesion=cohesion_impulse)


def stretch_of_bonds(model, bonds, stretch):
    """The tangential stretch with open cohesive bonds' set to their whole slip since bonding (world): their
    secant spring d K0 (``compliance_of_bonds``) then carries d K0 times the slip at the end of the step,
    the damage law's traction (seed 004 sec. 3.1). Other contacts keep the elastic stretch of the step
    before (tangential_stretch)."""
    secant = (bonds.code == COHESIVE) & bonds.holding & (bonds.rows[:, NORMAL] <= 0.0)
    if not secant.any():
        return stretch
    stretch = np.array(stretch, dtype=np.float64)
    stretch[secant] = bonds.rows[secant, SLIP]
    return stretch


def contact_bonds(model, state, contacts, source, law):
    """Bonds of the current contacts, whose joint laws are ``law`` (n_c,): their rows taken over from the
    previous step (``source``), or fresh ones, bonded when the state has not bonded any yet (the first step
    of a run, or of a construction stage)."""
    code = model.joint_table["law_code"][law]
    rows = gathered_bonds(state.contact_memory.bond_rows, source, np.asarray(contacts.gap, float), not state.bonds_made)
    area = tributary_area(contacts) if (code != COULOMB).any() else np.zeros(len(law))
    # a pair touching along an edge or at a corner has no joint area to bond: dry (a hinge)
    rows[area <= 0.0, BONDED] = 0.0
    rows[area <= 0.0, BROKEN] = 1.0
    return Bonds(law, code, rows, area)


def compliance_of_bonds(model, bonds, compliance):
    """The compliance of the contacts of cohesive joints whose bond holds: 1 / (d K0), damaged, when it was
    not in compression at the step before, so that it unloads along its secant to the origin. Contacts
    whose bond is lost keep the rigid compliance `contact_parameters` gives (a broken mortar joint is a
    dry Coulomb joint, seed 004 sec. 3.1).

    A bond in compression keeps K0: compression does not damage (eq. 10), and its shear capacity holds
    friction besides the cohesion (Bonds.strengths), which a secant through the cohesive curve alone
    could not reach; it unloads along K0 as a plastic slip would.
    """
    holding = (bonds.code == COHESIVE) & bonds.holding
    if not holding.any():
        return compliance
    compliance = compliance.copy()
    table = model.joint_table
    factor = np.where(bonds.rows[:, NORMAL] <= 0.0, bonds.secant_factor(model), 1.0)[holding]
    # a bond is a spring both ways with its full opening as bias (engine.contact.assemble.bond_bias)
    stiffness = table["bond_stiffness"][bonds.law[holding]] * (factor * bonds.area[holding])[:, None]  # N/m
    compliance[holding, 0] = 1.0 / stiffness[:, 0]
    compliance[holding, 1:] = 1.0 / stiffness[:, 1:]
    return compliance


def bond_rows_after(model, bonds, contacts, frame, contact_velocity, impulse, cohesion_impulse, h):
    """The bond rows at the end of a step (engine.contact.bonds.updated_rows): the gap grows by
    h u_n and the slip by h u_t (world) over the step."""
    gap_after = np.asarray(contacts.gap, float) + h * contact_velocity[:, 0]
    slip_step = h * (contact_velocity[:, 1:2] * frame[:, 1] + contact_velocity[:, 2:3] * frame[:, 2])
    return updated_rows(model, bonds, gap_after, slip_step, impulse, cohesion_impulse, h)


def step(model, state, settings):
    """Advance the state by one time step: detect -> assemble -> solve -> integrate."""
    outcome = solve_step(model, state, settings)
    integrate(state, outcome.velocity, settings.time_step)
    return outcome
