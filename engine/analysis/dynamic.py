"""Dynamic analysis: NSCD time stepping with ground motion (seed 000 eq. 28-30, sec. 4).

Each step runs the same pipeline as statics (detect -> assemble -> solve -> integrate)
with warm starting from persistent contact ids; supports move with the prescribed
velocity, which the contact right-hand side sees (DESIGN sec. 3). At each output frame the
run records positions, velocities, energy and the contact states and networks of the step
(seed 001 figs. 25-27); it keeps the start of the last step for the stress of eq. 55.
"""
from dataclasses import dataclass, field

import numpy as np

from extrados.engine.analysis.integrators import INTEGRATORS
from extrados.engine.analysis.request import AnalysisRequest, check_step_count
from extrados.engine.analysis.static import check_no_overflow, point_speed
from extrados.engine.dynamics.events import EventWatch
from extrados.engine.contact.impact_energy import GroundFrame
from extrados.engine.dynamics.support_motion import support_motion_from_document
from extrados.engine.dynamics.time_step_law import REQUEST_LAW, model_time_step
from extrados.engine.errors import ModelError
from extrados.engine.io.schema import request_default
from extrados.engine.pipeline import detect
from extrados.engine.post.energy import EnergyAccount, kinetic_energy, support_power
from extrados.engine.post.networks import contact_network, step_contact_states
from extrados.engine.result import Frames
from extrados.engine.state import State

#: Default collapse threshold as a fraction of the median block size (diagonal).
COLLAPSE_FRACTION = 0.25
#: Most frames a run may write; a request asking for more is refused (it would exhaust memory).
MAX_FRAMES = 100000
#: Frames of a run whose request gives no output_interval (fewer when the time step is longer).
FRAMES_BY_DEFAULT = 200


def with_time_step(fields, model):
    """``fields`` with the time step: as given, else the time-step law's (seed 003 eq. 9) for an HHT request
    with a rocking_restitution, else the schema's default; and the integrator's checks across fields."""
    hht = fields["integrator"] == "hht"
    restitution = fields.get("rocking_restitution")
    if hht:
        check_compliant_joints(model)
        if model.elastic_bodies:
            raise ModelError("integrator hht is for rigid blocks on Winkler interfaces; a model with deformable "
                             "blocks runs with integrator nscd", path="analysis.integrator")
        if fields["restitution"] > 0.0:
            raise ModelError("restitution (Newton's coefficient) is an impact law of the nscd integrator; with "
                             "integrator hht the time step sets the dissipation: give rocking_restitution",
                             path="analysis.restitution")
    if restitution is not None and model.elastic_bodies:
        raise ModelError("rocking_restitution is the energy impact law of rigid blocks; deformable blocks bounce "
                         "by their own elasticity (their theta, engine.deformable)", path="analysis.rocking_restitution")
    if hht and restitution is not None:
        if "time_step" in fields:
            raise ModelError("give either time_step or rocking_restitution with integrator hht: the time-step law "
                             "picks the step that dissipates r", path="analysis.time_step")
        try:
            h, base = model_time_step(model, restitution, REQUEST_LAW)
        except ValueError as error:
            raise ModelError(str(error), path="analysis.rocking_restitution") from None
        law = {**REQUEST_LAW.to_dict(), "rocking_restitution": restitution, "block": base.block,
               "radius": base.radius, "aspect_ratio": base.aspect_ratio, "normal_stiffness": base.normal_stiffness,
               "time_step": h}
        return {**fields, "time_step": h, "time_step_law": law}
    return {"time_step": float(request_default("construction", "time_step")), **fields}


def check_compliant_joints(model):
    """Refuse integrator hht on a model with a joint law that has no normal stiffness (a rigid contact
    cannot be integrated with HHT's finite steps)."""
    for name, joint in model.joints.items():
        if joint.get("law") != "coulomb" or "normal_stiffness" not in joint:
            raise ModelError(f"joint '{name}': integrator hht needs every joint to be a coulomb joint with a "
                             "normal_stiffness (a Winkler layer, N/m^3)", path=f"joints.{name}")
    if not model.joints:
        raise ModelError("integrator hht needs the model's joints to have a normal_stiffness (a Winkler layer, "
                         "N/m^3); the model has no joints", path="joints")


def step_count(duration, h):
    """Time steps (a float, inf when absurd) of a run of ``duration`` s at step ``h`` s: the ratio rounded
    up, one within 1e-9 of an integer taken as that integer (0.3 / 0.1 is 3 steps, not 4)."""
    return np.ceil(duration / h - 1e-9)


@dataclass(frozen=True)
class DynamicRequest(AnalysisRequest):
    """The dynamic analysis request of DESIGN sec. 5, checked (defaults: engine/io/analysis_schema.json)."""

    duration: float               # s
    time_step: float              # s
    output_interval: float        # s
    restitution: float            # Newton coefficient (0: plastic impacts)
    frames: str                   # where the result's frames go: "json", "npz" or "none" (engine.result)
    histories: str                # where its histories go, the same
    kinematic_stop: float = None  # m/s: stop once every point moves slower (seed 001), None: run to the end
    collapse_displacement: float = None  # m, default COLLAPSE_FRACTION x median block size
    integrator: str = "nscd"      # a key of engine.analysis.integrators.INTEGRATORS
    hht: dict = None              # alpha, beta, gamma of the HHT method (seed 003 eq. 4-5)
    rocking_restitution: float = None  # r, the energy ratio of a rocking impact (seed 003 eq. 2)
    time_step_law: dict = None    # where the law of seed 003 eq. 9 gave the time step: its coefficients and inputs

    KIND = "dynamic"

    @classmethod
    def from_fields(cls, fields, model):
        """The request of schema-checked fields (`engine.analysis.request.request_fields`): output_interval's
        default and the checks across fields (time step, number of steps, number of frames), and the
        model's support motion's own (a zero direction ...), before the run rather than in it."""
        mech = model.mechanics
        motion = support_motion_from_document(model.support_motion, mech.block_ids, mech.is_support)
        if (fields.get("rocking_restitution") is not None and fields["integrator"] == "nscd" and motion
                and not motion.moving[mech.is_support].all()):
            raise ModelError("rocking_restitution measures impacts in the ground's frame: every support must follow "
                             "the support motion (it moves only some)", path="analysis.rocking_restitution")
        max_steps = fields.pop("max_steps")
        fields = {key: value if isinstance(value, (str, dict)) else float(value) for key, value in fields.items()}
        fields = with_time_step(fields, model)
        check_step_count(step_count(fields["duration"], fields["time_step"]), max_steps, "duration / time_step")
        fields.setdefault("output_interval", max(fields["time_step"], fields["duration"] / FRAMES_BY_DEFAULT))
        if "rocking_restitution" in fields and fields["restitution"] > 0.0:
            raise ModelError("rocking_restitution (Housner's energy ratio) and a nonzero Newton restitution are "
                             "two impact laws; give one", path="analysis.rocking_restitution")
        if fields["time_step"] > fields["duration"]:
            raise ModelError("time_step is longer than the duration", path="analysis.time_step")
        if fields["duration"] / fields["output_interval"] > MAX_FRAMES:
            raise ModelError(f"more than {MAX_FRAMES} frames requested; raise output_interval",
                             path="analysis.output_interval")
        return cls(**fields)


@dataclass
class SolverTally:
    """How the CCP solves of a run went: a run whose last step converged may still hide steps
    that did not (an iteration cap, a too-large time step)."""

    steps: int = 0
    unconverged: int = 0
    first_unconverged: float = None  # s, end time of the first step that did not converge
    worst_residual: float = 0.0
    iterations: int = 0
    most_iterations: int = 0
    solvers: dict = field(default_factory=dict)  # steps whose kept solve each solver gave, by name
    retried: int = 0  # steps whose first solve auto retried with another solver (engine.solvers.auto.RunPlan)

    def add(self, t, report):
        self.steps += 1
        self.solvers[report.name] = self.solvers.get(report.name, 0) + 1
        self.retried += report.first_attempt is not None
        self.iterations += report.iterations
        self.most_iterations = max(self.most_iterations, report.iterations)
        self.worst_residual = max(self.worst_residual, report.residual)
        if not report.converged:
            self.unconverged += 1
            if self.first_unconverged is None:
                self.first_unconverged = t

    def to_dict(self):
        return {"steps": self.steps, "unconverged_steps": self.unconverged,
                "first_unconverged_t": self.first_unconverged, "worst_residual": self.worst_residual,
                "mean_iterations": self.iterations / max(self.steps, 1), "most_iterations": self.most_iterations,
                "solvers": dict(sorted(self.solvers.items())), "retried_steps": self.retried}


@dataclass(frozen=True)
class DynamicRun:
    """What `run_dynamic` hands on to its result (engine.post.results.dynamic_result)."""

    state: State                # at the end of the run
    outcome: object             # StepOutcome of the last step
    last_step_start: object     # StepStart of the last step (the stress of seed 001 eq. 55)
    frames: Frames              # the output frames, t = 0 first
    energy: list                # per frame, EnergyAccount.record: t, kinetic, potential, elastic, supports,
                                # dissipated, total
    events: dict                # EventWatch.to_dict: first sliding, first uplift, collapse
    cancelled: bool
    stopped_at: float           # s, where a cancel or the kinematic stop ended the run; None: it ran to the end
    steps: int                  # steps taken
    solver_steps: dict          # SolverTally.to_dict
    network_history: dict       # "t" and, per key of `network_counts`, its value at each frame after t = 0
    integrator: dict            # the integrator's name and report (engine.analysis.integrators)


@dataclass(frozen=True)
class StepStart:
    """Where a step started: the configuration its contacts were found in and its start velocity."""

    position: np.ndarray     # (n_blocks, 3) float64, m
    orientation: np.ndarray  # (n_blocks, 4) float64, [w, x, y, z]
    velocity: np.ndarray     # (n_blocks, 6) float64, [m/s, rad/s], world


def network_counts(outcome, h):
    """Contact state and strong/weak network counts of a step, with the mean normal force (N) of
    its closed contacts (engine.post.networks, seed 001 figs. 25-27).

    Returns
    -------
    dict: stick, slip, open, closed, strong, weak (int) and mean_normal_force (float)
    """
    network = contact_network(step_contact_states(outcome), outcome.impulse[:, 0] / h)
    return dict(network.counts, mean_normal_force=network.mean_normal_force)


def default_collapse_displacement(mechanics):
    return COLLAPSE_FRACTION * float(np.median(2.0 * mechanics.polyhedra.radius[~mechanics.is_support]))


def run_dynamic(model, request, progress=None, cancel=None):
    """Time-step a model under its loads and support motion.

    Parameters
    ----------
    model : Model
    request : DynamicRequest
    progress : callable(fraction), optional
        Called with the fraction done (0-1) about a hundred times during the run, and with 1 when
        the kinematic stop ends it early.
    cancel : callable() -> bool, optional
        Checked every step; when it returns True the run stops and returns what it has.

    Returns
    -------
    DynamicRun
    """
    mech = model.mechanics
    h = request.time_step
    n_steps = int(step_count(request.duration, h))
    every = max(1, int(round(request.output_interval / h)))
    motion = support_motion_from_document(model.support_motion, mech.block_ids, mech.is_support)
    wrench = mech.dead_wrench + mech.live_wrench
    state = State.initial(mech)
    moving = motion.moving if motion else np.zeros(mech.n_blocks, bool)
    whole_ground = motion is not None and moving[mech.is_support].all()  # the impact law's GroundFrame
    collapse = request.collapse_displacement or default_collapse_displacement(mech)
    watch = EventWatch.start(detect(model, state), mech.n_blocks, collapse)
    integrator = INTEGRATORS[request.integrator](model, request)
    elastic0 = integrator.start(state, wrench)
    energy = EnergyAccount(kinetic0=0.0, elastic0=elastic0, elastic=elastic0)
    energies = []
    frames = {"t": [], "position": [], "orientation": [], "velocity": []}
    network_history = {"t": []}

    def record(t, velocity):
        frames["t"].append(t)
        frames["position"].append(state.position.copy())
        frames["orientation"].append(state.orientation.copy())
        frames["velocity"].append(velocity.copy())
        energies.append(energy.record(t))

    def record_network(t):
        network_history["t"].append(t)
        for key, value in network_counts(outcome, h).items():
            network_history.setdefault(key, []).append(value)

    record(0.0, np.zeros((mech.n_blocks, 6)))
    start_velocity = np.zeros((mech.n_blocks, 6))  # (n_blocks, 6) float64, twists at the start of the next step
    outcome, cancelled, stopped_at = None, False, None
    tally = SolverTally()
    report_every = max(1, n_steps // 100)
    for k in range(1, n_steps + 1):
        t = k * h
        support_velocity = motion.velocity(t, mech.n_blocks) if motion else None
        ground_frame = GroundFrame(motion.motion.velocity(t - h), motion.motion.velocity(t)) if whole_ground else None
        start = StepStart(state.position, state.orientation, start_velocity)
        outcome = integrator.step(state, h, wrench, support_velocity, ground_frame)
        start_velocity = outcome.velocity
        tally.add(t, outcome.solver)
        ground = motion.displacement(t) if motion else None
        if motion:
            state.position[moving] = mech.position0[moving] + ground
        support_work = h * support_power(outcome.contacts, outcome.frame, outcome.impulse, h, support_velocity, moving)
        kinetic = kinetic_energy(mech, state.rotation_matrices(), outcome.velocity)
        check_no_overflow(f"at t = {t:.6g} s", outcome.velocity, outcome.impulse, state.position, kinetic)
        energy.add_step(kinetic, integrator.work(wrench, outcome, h, state.position - start.position), support_work,
                        integrator.elastic_energy())
        displacement = state.position - mech.position0
        if motion and moving[mech.is_support].all():
            displacement -= ground
        watch.observe(t, outcome.contacts, outcome.impulse, outcome.friction, outcome.contact_velocity,
                      displacement, mech.is_support, mech.block_ids)
        if k % every == 0 or k == n_steps:
            record(t, outcome.velocity)
            record_network(t)
        if progress is not None and (k % report_every == 0 or k == n_steps):
            progress(k / n_steps)
        if cancel is not None and cancel():
            cancelled, stopped_at = True, t
            break
        if request.kinematic_stop and k > 1 and point_speed(mech, outcome.velocity).max() < request.kinematic_stop:
            stopped_at = t
            if progress is not None:
                progress(1.0)
            break
    if stopped_at is not None and frames["t"][-1] != stopped_at:
        record(stopped_at, outcome.velocity)
        record_network(stopped_at)
    return DynamicRun(state, outcome, start, Frames(**{key: np.array(values, float) for key, values in frames.items()}),
                      energies, watch.to_dict(), cancelled, stopped_at, k, tally.to_dict(), network_history,
                      integrator.to_dict())

