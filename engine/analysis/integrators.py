"""The two time integrators of a dynamic run, behind one interface: start, step, work, to_dict.

nscd  non-smooth contact dynamics, rigid or stiff contacts, impacts by the contact law (seed 000 eq. 28-30)
hht   HHT-alpha on compliant Winkler interfaces, impacts dissipated by the time step (seed 003 eq. 4-5)
"""
import numpy as np

from extrados.engine.collision.detect import Contacts
from extrados.engine.contact.impact_energy import law_applies
from extrados.engine.dynamics.hht import HHTParameters, HHTStep, joint_kinematics
from extrados.engine.pipeline import SolverSettings, StepOutcome, StepSettings, step
from extrados.engine.post.energy import load_power


class NSCDIntegrator:
    """Seed 000's time stepping (engine.pipeline.step)."""

    def __init__(self, model, request):
        self.model = model
        self.solver = SolverSettings.of(model.settings, "dynamic")
        self.restitution = request.restitution
        self.rocking_restitution = request.rocking_restitution

    def start(self, state, wrench):
        """Nothing to prepare: a step starts from the state alone; the joints hold no strain energy (J)."""
        return 0.0

    def elastic_energy(self):
        """J, the strain energy the joints hold: none, contacts are rigid (or regularized, seed 000 eq. 43)."""
        return 0.0

    def step(self, state, h, wrench, support_velocity, ground_frame=None):
        """Advance ``state`` by h (s); the step's StepOutcome. Plastic impacts keep their energy ratio, or
        the request's rocking_restitution (engine.contact.impact_energy): with supports at rest, or in the
        ground's frame when every support follows one ground motion (``ground_frame``); where only some
        supports move the impacts stay plastic."""
        energy_impacts = law_applies(self.restitution, support_velocity, ground_frame)
        settings = StepSettings(time_step=h, wrench=wrench, solver=self.solver, support_velocity=support_velocity,
                                restitution=self.restitution, energy_impacts=energy_impacts,
                                rocking_restitution=self.rocking_restitution, ground_frame=ground_frame)
        return step(self.model, state, settings)

    def work(self, wrench, outcome, h, moved):
        """Work (J) of the applied ``wrench`` over the step: h times its power at the end velocity (the
        velocity the positions moved with, eq. 30)."""
        return h * load_power(self.model.mechanics, wrench, outcome.velocity)

    def to_dict(self):
        return {"name": "nscd"}


class HHTIntegrator:
    """Seed 003's HHT-alpha (engine.dynamics.hht), with the record of its Newton iterations."""

    def __init__(self, model, request):
        self.model = model
        self.stepper = HHTStep(model, HHTParameters(**request.hht))
        self.movable = np.flatnonzero(~model.mechanics.is_support)
        self.law = request.time_step_law
        self.steps = 0
        self.iterations = 0
        self.most_iterations = 0
        self.unconverged = 0
        self.halved = {"t": [], "halvings": [], "iterations": [], "residual": []}

    def start(self, state, wrench):
        """The initial accelerations (seed 003 after eq. 4); the strain energy (J) the joints hold."""
        self.elastic = self.stepper.start(state, wrench)
        return self.elastic

    def elastic_energy(self):
        """J, the strain energy the joints held at the end of the last step (layers and friction springs)."""
        return self.elastic

    def step(self, state, h, wrench, support_velocity, ground_frame=None):
        """Advance ``state`` by h (s), halving where Newton does not converge; the step's StepOutcome (the
        time step sets the dissipation: no impact law, ``ground_frame`` unused)."""
        trial = self.stepper.advance(state, h, wrench, support_velocity)
        self.elastic = float(trial.forces.energy.sum())
        report = trial.report
        self.steps += 1
        self.iterations += report.iterations
        self.most_iterations = max(self.most_iterations, report.iterations)
        self.unconverged += not report.converged
        if report.halvings or not report.converged:
            for key, value in (("t", state.time), ("halvings", report.halvings), ("iterations", report.iterations),
                               ("residual", report.residual)):
                self.halved[key].append(value)
        velocity = np.hstack([state.velocity, state.angular_velocity])
        return step_outcome(trial, h, velocity, state.position)

    def work(self, wrench, outcome, h, moved):
        """Work (J) of the applied forces over the step, F . (x_{i+1} - x_i) for each movable block: exact for
        gravity, whose moment about the centre of mass is zero; a moment M adds M . w h."""
        movable = self.movable
        return float(np.vdot(wrench[movable, :3], moved[movable])
                     + h * np.vdot(wrench[movable, 3:], outcome.velocity[movable, 3:]))

    def to_dict(self):
        parameters = self.stepper.parameters
        return {"name": "hht", "alpha": parameters.alpha, "beta": parameters.beta, "gamma": parameters.gamma,
                "time_step_law": self.law,
                "newton": {"steps": self.steps, "mean_iterations": self.iterations / max(self.steps, 1),
                           "most_iterations": self.most_iterations, "unconverged_steps": self.unconverged,
                           "halved_steps": len(self.halved["t"]), "halved": self.halved}}


def step_outcome(trial, h, world_velocity, position):
    """The StepOutcome of a Trial, one contact per joint at its pressure centre, for what reads a step
    (events, energy, networks, the result): its impulse h [N, F_t . u, F_t . v] on B, and its gap the
    joint's opening (the largest gap of its corners), so that an uplifted joint reads as opened."""
    forces = trial.forces
    n_p = len(forces.body_a)
    contacts = Contacts(body_a=forces.body_a, body_b=forces.body_b, point=forces.centre, normal=forces.normal,
                        gap=forces.opening, feature_id=np.zeros(n_p, np.int64), pair=np.arange(n_p),
                        pair_start=np.arange(n_p + 1), n_candidate_pairs=forces.n_candidate_pairs)
    frame, impulse, contact_velocity = joint_kinematics(
        forces.normal, forces.tangential, forces.normal_force, forces.centre, forces.body_a, forces.body_b,
        world_velocity, position, h)
    return StepOutcome(contacts, frame, impulse, forces.friction, trial.report, world_velocity, contact_velocity)


INTEGRATORS = {"nscd": NSCDIntegrator, "hht": HHTIntegrator}
