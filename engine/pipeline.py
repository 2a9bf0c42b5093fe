"""One step of the engine (seed 000 sec. 2.4, eq. 28-30), as the table of contents of its stages.

    detect -> laws -> history -> bonds -> assemble -> solve -> remember, then integrate

Each stage is a function of the model, the state and what its caller hands it down; the bookkeeping
lives with its concept: warm starting in engine.contact.history, mortar bonds in engine.contact.mortar.
"""
from dataclasses import dataclass, field

import numpy as np

from extrados.engine.collision.detect import detect_contacts
from extrados.engine.contact.assemble import assemble_problem, start_velocity
from extrados.engine.contact.history import contact_history, remember_contacts
from extrados.engine.contact.laws import contact_laws, contact_parameters, tangential_stretch
from extrados.engine.contact.mortar import bonds_after, contact_bonds, mortar_inputs, solve_with_bonds
from extrados.engine.contact.impact_energy import (closing_contacts, impact_fraction, impacting_kinetic_energy,
                                                    scale_in_frame)
from extrados.engine.deformable.coupling import ElasticState, elastic_step
from extrados.engine.deformable.joint_points import cut_joints
from extrados.engine.dynamics.integrate import integrate
from extrados.engine.solvers import solve
from extrados.engine.solvers.auto import RunPlan
from extrados.engine.solvers.coulomb import solve_coulomb
from extrados.engine.solvers.flexible_problem import FlexibleProblem, solve_flexible
from extrados.engine.tolerance import SOLVER_DEFAULTS


#: Analyses whose CCP is one static solve, which ``auto`` may give the Newton solver and retries with a
#: stronger solver when unconverged (engine.solvers.auto).
RETRIED_ANALYSES = ("static", "load_factor")


@dataclass(frozen=True)
class SolverSettings:
    """Which solver a step's problem is solved with, and how precisely (engine.solvers)."""

    name: str = SOLVER_DEFAULTS.solver                  # a key of engine.solvers.SOLVERS
    tolerance: float = SOLVER_DEFAULTS.static_tolerance  # relative CCP residual
    max_iterations: int = SOLVER_DEFAULTS.max_iterations
    retry: bool = False                                 # a static CCP (auto: Newton first, retry; engine.solvers.auto)
    moving: float = None                                # a load factor's probe: no retry of a clear mechanism (auto)
    plan: RunPlan = None                                # auto over the steps of a run (dynamic, settle run)
    flow_rule: str = "associated"                       # or "non_associated": Coulomb (engine.solvers.coulomb)

    @classmethod
    def of(cls, model_settings, analysis):
        """The solver a model's settings (`Model.settings`) name for an ``analysis`` type, to their tolerance
        or, where they set none, to that type's default (engine.tolerance.SOLVER_DEFAULTS); ``auto`` treats
        the CCPs of static and load factor analyses as static and the steps of a dynamic run (and of a
        settle run) as one run's, with a `RunPlan` (engine.solvers.auto)."""
        name = model_settings["solver"]
        plan = RunPlan() if name == "auto" and analysis == "dynamic" else None
        return cls(name, model_settings.get("tolerance", SOLVER_DEFAULTS.tolerance(analysis)),
                   model_settings["max_iterations"], retry=analysis in RETRIED_ANALYSES, plan=plan,
                   flow_rule=model_settings.get("flow_rule", "associated"))

    def solve(self, problem, gamma0):
        """SolverResult of ``problem`` from the impulses ``gamma0`` (n_c, 3) N s: the CCP of seed 000 eq. 38, or
        with the non-associated flow rule Coulomb's law by the fixed point of engine.solvers.coulomb."""
        if self.flow_rule == "non_associated":
            return solve_coulomb(problem, self.solve_ccp, gamma0, self.tolerance)
        return self.solve_ccp(problem, gamma0)

    def solve_ccp(self, problem, gamma0):
        """SolverResult of the CCP ``problem`` (eq. 38) from the impulses ``gamma0`` (n_c, 3) N s; one with deformable
        blocks by APGD through its methods (engine.solvers.flexible_problem)."""
        if isinstance(problem, FlexibleProblem):
            return solve_flexible(problem, gamma0, self.tolerance, self.max_iterations)
        if self.plan is not None:
            return self.plan.solve(problem, gamma0, self.tolerance, self.max_iterations)
        options = {"retry": self.retry, "moving": self.moving} if self.name == "auto" else {}
        return solve(problem, self.name, gamma0=gamma0, tolerance=self.tolerance, max_iterations=self.max_iterations,
                     **options)


@dataclass(frozen=True)
class StepSettings:
    """What one step needs besides the model and the state."""

    time_step: float          # h, s
    wrench: np.ndarray        # (n_blocks, 6) float64, applied loads at this step
    solver: SolverSettings = field(default_factory=SolverSettings)
    support_velocity: np.ndarray = None  # (n_blocks, 6) float64, prescribed support velocity or None
    restitution: float = 0.0  # Newton coefficient; 0 gives plastic impacts
    energy_impacts: bool = False  # the energy impact law of engine.contact.impact_energy (plastic impacts only)
    rocking_restitution: float = None  # the law's r, Housner's energy ratio; None: that of the plastic impact
    ground_frame: object = None  # impact_energy.GroundFrame where every support follows the ground; None: fixed
    static: bool = False      # the static CCP (engine.analysis.static): deformable blocks take their elastic compliance


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
    impact_fraction: np.ndarray = None  # (n_blocks,) float64, engine.contact.impact_energy; None: law off
    elastic: object = None    # engine.deformable.coupling.ElasticState at the end of the step; None: all blocks rigid


def detect(model, state):
    """Contacts with gap below the envelope (seed 000 sec. 2.2, 2.5), reusing and updating what the
    state's last detection kept; none with a block the state marks inactive. The joints of deformable blocks
    with a contact spacing have their edges cut into contact points (engine.deformable.joint_points)."""
    mech = model.mechanics
    contacts = detect_contacts(mech.polyhedra, state.position, state.orientation, mech.is_support,
                               model.settings["envelope"], state.detection_cache, state.active)
    spacing = model.contact_spacing
    return contacts if spacing is None else cut_joints(contacts, spacing)


def assemble(model, state, settings, contacts, joints, was_open):
    """The Problem of the step (eq. 38), its contact frames and free velocity (engine.contact.assemble),
    with the contacts' JointInputs (engine.contact.mortar) and, for the energy impact law, the
    contacts open in the last step (None: the law is off)."""
    return assemble_problem(model.mechanics, state, contacts, joints.friction, joints.compliance, settings.wrench,
                            settings.time_step, settings.support_velocity, settings.restitution, joints.stretch,
                            joints.cohesion, joints.bond_gap, was_open)


def hold_unbuilt(state, velocity):
    """``velocity`` (n_blocks, 6) with the blocks the state has not built yet held still.

    Unbuilt blocks (construction, seed 001 sec. 4.3.1) have no contacts; holding their velocity at
    zero keeps them where they were drawn, free of gravity.
    """
    if state.active is not None:
        velocity[~state.active] = 0.0
    return velocity


def solve_step(model, state, settings, contacts=None, impulse_guess=None):
    """The stages of a step from detect (unless contacts are given) to remember; the blocks do not move.

    The solver starts from the state's impulses of the last step (engine.contact.history), or from
    ``impulse_guess`` ((n_c, 3) float64, N s, in the order of ``contacts``) when one is given;
    a guess comes with no tangential stretch, so the step's result depends on it only within
    the solver's tolerance.
    """
    h, memory, bonding = settings.time_step, state.contact_memory, not state.bonds_made
    if contacts is None:
        contacts = detect(model, state)
    elastic = deformable_step(model, state, settings, contacts)
    if elastic is not None:
        contacts = elastic.elastic_gap(contacts, state, state.elastic)
    law = contact_laws(model, contacts)
    friction, compliance = contact_parameters(model, contacts, law)
    history = contact_history(model.mechanics, memory, contacts, impulse_guess, model.contact_spacing)
    bonds = contact_bonds(model, contacts, law, memory.bond_rows, history.source, bonding)
    joints = mortar_inputs(model, bonds, friction, compliance, history.stretch)
    # deformable blocks bounce by their elasticity: the energy impact law is for rigid ones
    energy_impacts = settings.energy_impacts and elastic is None
    was_open = open_unbonded(history, joints) if energy_impacts else None
    problem, frame, v_free = assemble(model, state, settings, contacts, joints, was_open)
    if elastic is not None:
        problem = elastic.problem(problem, frame, state, state.elastic)
    problem, report, cohesion = solve_with_bonds(model, bonds, friction, problem, joints.cohesion, settings.solver,
                                                 history.impulse, h, bonding)
    velocity = hold_unbuilt(state, v_free + problem.velocity(report.gamma))
    fraction = None
    if energy_impacts:
        velocity, fraction = energy_impact_law(model, state, settings, contacts, joints, was_open, problem,
                                               report.gamma, velocity)
    contact_velocity = problem.contact_velocity(velocity)
    elastic_end = None
    if elastic is not None:
        contact_velocity += elastic.contact_velocity(problem, report.gamma)
        elastic_end = elastic.finish(report.gamma, state.elastic)
    bonds = bonds_after(model, bonds, contacts, frame, contact_velocity, report.gamma, cohesion, h)
    state.contact_memory = remember_contacts(history, contacts, report.gamma,
                                             tangential_stretch(frame, report.gamma, joints.compliance, h), bonds.rows)
    state.bonds_made = True
    return StepOutcome(contacts, frame, report.gamma, friction, report, velocity, contact_velocity, bonds, fraction,
                       elastic_end)


def deformable_step(model, state, settings, contacts):
    """The ElasticStep of the model's deformable blocks at ``contacts`` (engine.deformable.coupling), their
    elastic state at rest when the state has none yet; None for a model of rigid blocks."""
    bodies = model.elastic_bodies
    if not bodies:
        return None
    if state.elastic is None:
        state.elastic = ElasticState.at_rest(bodies)
    tolerance = model.settings["envelope"] + 1e-6 * model.mechanics.size
    return elastic_step(bodies, contacts, state, settings.time_step, settings.static, tolerance)


def open_unbonded(history, joints):
    """(n_c,) bool: the contacts that carried no normal impulse in the last step and hold no mortar bond
    (a bond's normal term is its own, engine.contact.assemble.bond_bias): those the impact law may strike."""
    unbonded = True if joints.bond_gap is None else np.isnan(joints.bond_gap)
    return (history.impulse[:, 0] <= 0.0) & unbonded


def energy_impact_law(model, state, settings, contacts, joints, was_open, problem, impulse, velocity):
    """End velocities (n_blocks, 6) that keep r of the impacting blocks' kinetic energy, and the fraction of
    the step before each block's impact (engine.contact.impact_energy): r is the settings'
    rocking_restitution, or without one the energy ratio of the plastic impact itself (``plastic_energy_ratio``)."""
    mech, h = model.mechanics, settings.time_step
    v_start = start_velocity(mech, state, settings.support_velocity)
    approach = problem.contact_velocity(v_start)[:, 0]
    closing = closing_contacts(was_open, contacts.gap, approach, h)
    fraction = impact_fraction(mech.n_blocks, contacts.body_a, contacts.body_b, mech.is_support, contacts.gap,
                               approach, closing, h)
    if not closing.any():
        return velocity, fraction
    rotations = state.rotation_matrices()
    ratio = settings.rocking_restitution
    if ratio is None:
        ratio = plastic_energy_ratio(model, state, settings, contacts, joints, was_open, impulse, fraction, rotations)
    return scale_in_frame(mech, rotations, settings.wrench, v_start, velocity, fraction, h, ratio,
                          settings.ground_frame), fraction


def plastic_energy_ratio(model, state, settings, contacts, joints, was_open, impulse, fraction, rotations):
    """T(v_impact) / T(v-) of the impacting blocks: the kinetic energy the plastic impact of the start
    velocities keeps, the step's problem solved again without the loads (v- = its free velocity, the start
    velocity but for the gyroscopic term; from ``impulse`` (n_c, 3) N s),
    the supports at the ground's start velocity, energies in the settings' ground frame.

    At most 1: a plastic impact of rigid blocks dissipates (Kelvin), so a ratio above 1 is numerical (the
    unloaded solve's gap and compliance terms acting on blocks that barely approach). Unbounded, it wrecked a wall on a
    table shaken vertically at 1.28 g: a course resting on the rising table had T(v-) = 1e-30 J and the law
    scaled it by 1.7e25 (tests/test_impact_energy.py)."""
    mech, frame, supports = model.mechanics, settings.ground_frame, settings.support_velocity
    if frame is not None:                      # every support at the ground's start velocity
        supports = np.zeros_like(supports)
        supports[mech.is_support, :3] = frame.velocity_start
    unloaded, _, v_free = assemble_problem(mech, state, contacts, joints.friction, joints.compliance,
                                            np.zeros_like(settings.wrench), settings.time_step, supports,
                                            settings.restitution, joints.stretch, joints.cohesion, joints.bond_gap,
                                            was_open)
    report = settings.solver.solve(unloaded, impulse)
    v_impact = hold_unbuilt(state, v_free + unloaded.velocity(report.gamma))
    if frame is not None:
        v_impact, v_free = frame.relative(v_impact, False), frame.relative(v_free, False)
    kept = impacting_kinetic_energy(mech, rotations, v_impact, fraction)
    before = impacting_kinetic_energy(mech, rotations, v_free, fraction)
    return min(1.0, kept / max(before, np.finfo(float).tiny))


def step(model, state, settings):
    """Advance the state by one time step: ``solve_step``, then integrate the positions (eq. 30)."""
    outcome = solve_step(model, state, settings)
    integrate(state, outcome.velocity, settings.time_step, outcome.impact_fraction)
    if outcome.elastic is not None:
        state.elastic = outcome.elastic
    return outcome
