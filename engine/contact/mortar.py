"""Mortar joints through one step (seed 004 sec. 3): what their bonds (engine.contact.bonds) make of it.

A step takes its contacts' bond rows over from the last one (``contact_bonds``), gives holding
bonds their compliance, stretch and capacities (``mortar_inputs``), solves with the friction of
the capacities settled (``solve_with_bonds``), and ends with the rows its motion leaves
(``bonds_after``). A step without mortar contacts passes through each of these unchanged.
"""
import dataclasses
from typing import NamedTuple

import numpy as np

from extrados.engine.contact.bonds import BOND_GAP, BONDED, BROKEN, NORMAL, SLIP, Bonds, gathered_bonds, updated_rows
from extrados.engine.contact.cohesive import COHESIVE, COULOMB
from extrados.engine.contact.laws import tributary_area
from extrados.engine.solvers.flexible_problem import FlexibleProblem
from extrados.engine.tolerance import TOL

#: Most solves of a run's first step with bonded contacts, each with the normal forces of the one
#: before in the bonds' friction (engine.contact.bonds.Bonds.strengths).
FRICTION_PASSES = 6


class JointInputs(NamedTuple):
    """What a step's contacts assemble with, once their bonds are in."""

    compliance: np.ndarray  # (n_c, 3) float64, m/N, frames (n, u, v)
    stretch: np.ndarray     # (n_c, 3) float64, m, world, tangential stretch of the step before
    friction: np.ndarray    # (n_c,) float64, of the cone: zero for bonded contacts (a cylinder)
    cohesion: np.ndarray    # (n_c, 2) float64, N, [C, T] of each contact; None without mortar contacts
    bond_gap: np.ndarray    # (n_c,) float64, m, the gap each holding bond was bonded at, nan elsewhere; or None


def contact_bonds(model, contacts, law, previous_rows, source, bonding):
    """Bonds of the current contacts, whose joint laws are ``law`` (n_c,): their rows taken over from the
    previous step's ``previous_rows`` (ContactMemory.bond_rows) by ``source`` (n_c,), or fresh ones, bonded
    when ``bonding`` (the first step of a run, or of a construction stage)."""
    code = model.joint_table["law_code"][law]
    rows = gathered_bonds(previous_rows, source, np.asarray(contacts.gap, float), bonding)
    area = tributary_area(contacts) if (code != COULOMB).any() else np.zeros(len(law))
    # a pair touching along an edge or at a corner has no joint area to bond: dry (a hinge)
    rows[area <= 0.0, BONDED] = 0.0
    rows[area <= 0.0, BROKEN] = 1.0
    return Bonds(law, code, rows, area)


def mortar_inputs(model, bonds, friction, compliance, stretch):
    """What a step assembles (JointInputs): with mortar bonds, the bonds' compliance and stretch, the cone
    friction (zero for bonded contacts, whose friction is in their shear capacity: their set is a cylinder),
    their capacities [C, T] (N) with the normal forces of the step before, and their bond gaps (nan when
    none); without, the laws' ``friction`` (n_c,), ``compliance`` (n_c, 3) m/N and ``stretch`` (n_c, 3) m."""
    if not bonds.mortar.any():
        return JointInputs(compliance, stretch, friction, None, None)
    return JointInputs(compliance_of_bonds(model, bonds, compliance), stretch_of_bonds(bonds, stretch),
                       np.where(bonds.cylinder, 0.0, friction), bonds.strengths(model, friction, bonds.rows[:, NORMAL]),
                       np.where(bonds.holding, bonds.rows[:, BOND_GAP], np.nan))


def solve_with_bonds(model, bonds, friction, problem, cohesion, solver, gamma0, h, bonding):
    """Solve a step, with mortar bonds up to FRICTION_PASSES times when ``bonding``: each pass puts the normal
    forces of the one before into the bonds' friction, until their capacities change by less than
    TOL.bond_friction_relative. The first step of a run (a static solve) or of a construction stage has no
    normal forces of a step before for its new bonds' friction; a step without bonds solves once.

    Parameters
    ----------
    model : Model
    bonds : Bonds of the step's contacts
    friction : (n_c,) float64, the laws' friction coefficients
    problem : Problem, assembled with ``cohesion``
    cohesion : (n_c, 2) float64, N, [C, T] of each contact; None without mortar contacts
    solver : SolverSettings (engine.pipeline)
    gamma0 : (n_c, 3) float64, N s, impulses to start from
    h : float, s
    bonding : bool, the step bonds its contacts (``contact_bonds``)

    Returns
    -------
    problem : Problem, the last one solved
    report : SolverResult of the last pass, with the iterations and seconds of all passes
    cohesion : (n_c, 2) N, the capacities it was solved with; None without mortar contacts
    """
    passes = FRICTION_PASSES if bonding and cohesion is not None else 1
    iterations, seconds = 0, 0.0
    for attempt in range(passes):
        report = solver.solve(problem, gamma0)
        iterations, seconds = iterations + report.iterations, seconds + report.seconds
        if attempt + 1 == passes:
            break
        updated = bonds.strengths(model, friction, report.gamma[:, 0] / h)
        if np.abs(updated - cohesion).max(initial=0.0) <= TOL.bond_friction_relative * np.abs(updated).max(initial=0.0):
            break
        cohesion, gamma0 = updated, report.gamma
        problem = with_cohesion(problem, cohesion * h)
    return problem, dataclasses.replace(report, iterations=iterations, seconds=seconds), cohesion


def with_cohesion(problem, cohesion_impulse):
    """The Problem with its contacts' [C h, T h] replaced by ``cohesion_impulse`` (n_c, 2) N s."""
    extra = {"flexibility": problem.flexibility} if isinstance(problem, FlexibleProblem) else {}
    return type(problem)(problem.body_a, problem.body_b, problem.jacobian_a, problem.jacobian_b, problem.inverse_mass,
                         problem.inverse_inertia, problem.compliance, problem.friction, problem.rhs,
                         cohesion=cohesion_impulse, free_velocity=problem.free_velocity, **extra)


def stretch_of_bonds(bonds, stretch):
    """The tangential stretch with open cohesive bonds' set to their whole slip since bonding (world): their
    secant spring d K0 (``compliance_of_bonds``) then carries d K0 times the slip at the end of the step,
    the damage law's traction (seed 004 sec. 3.1). Other contacts keep the elastic stretch of the step
    before (engine.contact.laws.tangential_stretch)."""
    secant = (bonds.code == COHESIVE) & bonds.holding & (bonds.rows[:, NORMAL] <= 0.0)
    if not secant.any():
        return stretch
    stretch = np.array(stretch, dtype=np.float64)
    stretch[secant] = bonds.rows[secant, SLIP]
    return stretch


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


def bonds_after(model, bonds, contacts, frame, contact_velocity, impulse, cohesion, h):
    """The Bonds at the end of a step (engine.contact.bonds.updated_rows): the gap grows by h u_n and the slip
    by h u_t (world) over the step; ``bonds`` themselves when the step had no mortar contacts.

    Parameters
    ----------
    model : Model
    bonds : Bonds at the start of the step
    contacts : Contacts
    frame : (n_c, 3, 3) float64, rows n, u, v
    contact_velocity : (n_c, 3) float64, m/s, relative velocity (n, u, v) at the end of the step
    impulse : (n_c, 3) float64, N s
    cohesion : (n_c, 2) float64, N, [C, T] the step was solved with; None without mortar contacts
    h : float, s
    """
    if cohesion is None:
        return bonds
    gap_after = np.asarray(contacts.gap, float) + h * contact_velocity[:, 0]
    slip_step = h * (contact_velocity[:, 1:2] * frame[:, 1] + contact_velocity[:, 2:3] * frame[:, 2])
    return Bonds(bonds.law, bonds.code, updated_rows(model, bonds, gap_after, slip_step, impulse, cohesion * h, h),
                 bonds.area)
