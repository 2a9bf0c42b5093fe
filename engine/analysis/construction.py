"""Construction history: build a structure in stages, each stage starting from the last (seed 001 sec. 4.3.1).

The forces in a rigid-block structure under gravity depend on how it was built (seed 001 sec.
4.3: "the results of this calculation are widely dependent on the construction history").
Seed 001 compares two ways of loading a 248-block wall: scenario I computes the whole wall at
once until the kinematic criterion holds; scenario II activates the wall layer by layer and, for
every layer, runs an intermediate calculation from the stored reactions of the previous one.

A construction analysis does scenario II for any grouping of the blocks:

1. Every block starts unbuilt (``State.active``) except the supports; the model is never rebuilt,
   so block indices, contact keys and the warm impulses they index stay valid across stages.
2. Stage k marks its blocks built, then time-steps the pipeline (detect -> assemble -> solve ->
   integrate, seed 000 eq. 28-30) from the state the previous stage left: positions, velocities,
   warm impulses and tangential stretches carry over.
3. A stage ends when the largest point speed of the built blocks falls below ``kinematic_stop``
   (seed 001 sec. 5.1 and the footnote of sec. 4.3.1: the norm of the maximal block velocity below
   1e-6 m/s) or after ``max_stage_duration``.
4. When the model has a ``support_motion`` (a settlement of part of the foundation, seed 001
   fig. 8), it starts once the last stage has ended, and a last stage runs until the motion has
   ended and the kinematic criterion holds again (at most ``max_stage_duration`` after the end).

Scenario I is ``"stages": "all"``, one stage with every movable block. The forces written at the
end are those of the last step, impulses / h (seed 000 eq. 28); the blocks still move by up to
kinematic_stop, so they balance the loads to a relative 4e-6 at the default 1e-6 m/s (a stacked
column; 6e-8 at 1e-8 m/s).

Unbuilt blocks do not exist for the pipeline: no contacts, no motion (engine.state.State.active).
A new course is drawn where the model puts it, so it lands on the settled course below from the
height of that settlement (micrometres).
"""
from dataclasses import dataclass, field, replace

import numpy as np

from extrados.engine.analysis.dynamic import SolverTally, step_count
from extrados.engine.analysis.progress import Progress
from extrados.engine.analysis.request import AnalysisRequest, check_step_count
from extrados.engine.analysis.static import STATIC_STEP, StaticSolution, check_no_overflow, contact_forces, point_speed
from extrados.engine.dynamics.support_motion import support_motion_from_document
from extrados.engine.errors import ModelError
from extrados.engine.pipeline import SolverSettings, StepSettings, step
from extrados.engine.post.deformable_fields import deformable_fields
from extrados.engine.post.results import static_result
from extrados.engine.post.stress import block_stress, course_layers, point_loads
from extrados.engine.state import State



@dataclass(frozen=True)
class ConstructionRequest(AnalysisRequest):
    """The construction analysis request, checked against a model.

    ``{"type": "construction", "stages": "courses" | "all" | [[block id, ...], ...], "time_step": …,
    "kinematic_stop": …, "max_stage_duration": …}`` (defaults: engine/io/analysis_schema.json)
    """

    stages: tuple                 # of (n_k,) int64 arrays, indices of the blocks stage k builds
    time_step: float              # s
    kinematic_stop: float         # m/s, a stage ends once every built point moves slower
    max_stage_duration: float     # s

    KIND = "construction"

    @classmethod
    def from_fields(cls, fields, model):
        """The request of schema-checked fields, its time step checked against the stage duration, its
        stages against the model's blocks, its steps (the support motion's stage included) against
        max_steps, and the support motion's end.

        Raises
        ------
        ModelError
            With the path of the offending field, e.g. ``analysis.stages[1][0]`` for an unknown id.
        """
        if fields["time_step"] > fields["max_stage_duration"]:
            raise ModelError("time_step is longer than max_stage_duration", path="analysis.time_step")
        stages = request_stages(fields["stages"], model.mechanics)
        h, longest = fields["time_step"], fields["max_stage_duration"]
        motion = construction_motion(model)
        steps = len(stages) * step_count(longest, h) + (step_count(motion_end(motion) + longest, h) if motion else 0)
        counted = f"{len(stages)} stages" + (" and the support motion" if motion else "")
        check_step_count(steps, fields["max_steps"], f"{counted} x max_stage_duration / time_step")
        return cls(stages, float(fields["time_step"]),
                   float(fields["kinematic_stop"]), float(fields["max_stage_duration"]))


def request_stages(stages, mechanics):
    """The block indices of each stage: named ("courses", "all") or listed by id (the form is the schema's).

    Every movable block must be built by exactly one stage; supports are there from the start and
    may not be listed. A structure built only in part is a smaller model, not a shorter request.

    Returns
    -------
    tuple of (n_k,) int64 arrays
    """
    if stages == "all":
        return (np.flatnonzero(~mechanics.is_support),)
    if stages == "courses":
        # the courses the stress summary averages over (seed 001 figs. 15-16), bottom up
        return tuple(course_layers(mechanics))
    index = {block_id: i for i, block_id in enumerate(mechanics.block_ids)}
    stage_of = {}
    checked = []
    for i, ids in enumerate(stages):
        for j, block_id in enumerate(ids):
            where = f"analysis.stages[{i}][{j}]"
            if block_id not in index:
                raise ModelError(f"unknown block id {block_id!r}", path=where)
            if mechanics.is_support[index[block_id]]:
                raise ModelError("a support is there from the start; list only movable blocks", path=where,
                                 block=block_id)
            if block_id in stage_of:
                raise ModelError(f"already built by stage {stage_of[block_id]}", path=where, block=block_id)
            stage_of[block_id] = i
        checked.append(np.array(sorted(index[b] for b in ids), np.int64))
    never = [b for b, s in zip(mechanics.block_ids, mechanics.is_support) if not s and b not in stage_of]
    if never:
        raise ModelError(f"{len(never)} movable block(s) are never built, first '{never[0]}'; every movable "
                         "block belongs to one stage", path="analysis.stages", block=never[0])
    return tuple(checked)


@dataclass
class StageReport:
    """How one stage went."""

    blocks: np.ndarray            # (n_k,) int64, blocks it built
    start: float                  # s, time when it began
    steps: int = 0
    duration: float = 0.0         # s
    max_speed: float = np.inf     # m/s, largest point speed after its last step
    converged: bool = False       # the kinematic criterion held before max_stage_duration
    first_step_iterations: int = 0
    support_reaction: np.ndarray = None  # (3,) float64, N, force of the supports on the structure at the end
    cancelled: bool = False
    solver: SolverTally = field(default_factory=SolverTally)

    def to_dict(self, mechanics):
        return {"blocks": [mechanics.block_ids[b] for b in self.blocks], "start": self.start, "steps": self.steps,
                "duration": self.duration, "max_speed": self.max_speed, "converged": self.converged,
                "first_step_iterations": self.first_step_iterations,
                "support_reaction": np.asarray(self.support_reaction, float).tolist(),
                "solver_steps": self.solver.to_dict()}


@dataclass(frozen=True)
class ConstructionRun:
    """What `run_construction` hands on to `construction_result`."""

    state: State        # at the end, every block built
    outcome: object     # StepOutcome of the last step
    stages: list        # StageReport per stage; the support motion's, when there is one, last
    motion: bool        # the model has a support motion, run after the last stage
    cancelled: bool


def support_reaction(mechanics, outcome, h):
    """(3,) float64, N: total force the supports apply to the structure in a step's outcome."""
    contacts = outcome.contacts
    force = contact_forces(outcome, h)  # on body_b from body_a
    sign = mechanics.is_support[contacts.body_a].astype(float) - mechanics.is_support[contacts.body_b]
    return (sign[:, None] * force).sum(axis=0)


def step_settings(model, request, wrench, support_velocity=None):
    return StepSettings(time_step=request.time_step, wrench=wrench, support_velocity=support_velocity,
                        solver=SolverSettings.of(model.settings, "construction"))


def run_stage(model, state, request, blocks, motion=None, cancel=None, progress=Progress()):
    """Build ``blocks`` and time-step until the kinematic criterion holds (steps 2-4 of the module).

    Parameters
    ----------
    model : Model
    state : State
        With ``active`` set; advanced in place.
    request : ConstructionRequest
    blocks : (n_k,) int64
        Blocks this stage builds (may be empty: a stage that only lets the motion act).
    motion : SupportMotion, optional
        Moves its supports from the start of the stage; the criterion is checked once it has ended.
    cancel : callable() -> bool, optional
        Checked every step; the stage stops (not converged) when it returns True.
    progress : engine.analysis.progress.Progress, optional
        Gets the fraction of the stage's longest run (the motion and max_stage_duration) stepped; a
        stage that meets the kinematic criterion early ends short of 1.

    Returns
    -------
    StageReport, StepOutcome of the last step
    """
    mech = model.mechanics
    h = request.time_step
    state.active[blocks] = True
    wrench = mech.dead_wrench + mech.live_wrench
    report = StageReport(blocks=blocks, start=state.time)
    quiet_from = motion_end(motion) if motion else 0.0
    n_steps = int(np.ceil((quiet_from + request.max_stage_duration) / h))
    settings = step_settings(model, request, wrench)
    # the stage lays its blocks in fresh mortar: the contacts its first step finds are bonded (engine.contact.bonds)
    state.bonds_made = False
    outcome = None
    for k in range(1, n_steps + 1):
        if motion:
            settings = step_settings(model, request, wrench, motion.velocity(k * h, mech.n_blocks))
        outcome = step(model, state, settings)
        if motion:
            state.position[motion.moving] = mech.position0[motion.moving] + motion.displacement(k * h)
        check_no_overflow(f"at t = {state.time:.6g} s", outcome.velocity, outcome.impulse, state.position)
        report.solver.add(state.time, outcome.solver)
        progress(k / n_steps)
        if k == 1:
            report.first_step_iterations = outcome.solver.iterations
        report.max_speed = float(point_speed(mech, outcome.velocity).max())
        # from the second step on, as a dynamic run does: the first starts every block from rest
        if k > 1 and k * h >= quiet_from and report.max_speed < request.kinematic_stop:
            report.converged = True
            break
        if cancel is not None and cancel():
            report.cancelled = True
            break
    report.steps = k
    report.duration = k * h
    report.support_reaction = support_reaction(mech, outcome, h)
    return report, outcome


def motion_end(motion):
    """Time (s) after which a support motion no longer moves its supports."""
    inner = motion.motion
    return float(inner.times[-1]) if hasattr(inner, "times") else float(inner.duration)


def construction_motion(model):
    """The model's support motion, to run after the last stage, or None; it must end."""
    mech = model.mechanics
    motion = support_motion_from_document(model.support_motion, mech.block_ids, mech.is_support)
    if motion is not None and not np.isfinite(motion_end(motion)):
        raise ModelError("a support motion after construction must end: give its duration",
                         path="support_motion.duration")
    return motion


def run_construction(model, request, progress=None, cancel=None):
    """Build a model stage by stage (scenario II of seed 001 sec. 4.3.1; scenario I with one stage).

    Parameters
    ----------
    model : Model
    request : ConstructionRequest
    progress : callable(fraction) or engine.analysis.progress.Progress, optional
        Gets the fraction done (0-1): each stage reports into an equal share, ending it when it ends
        (not when cancelled).
    cancel : callable() -> bool, optional
        Checked every step; the run stops after the current step when it returns True.

    Returns
    -------
    ConstructionRun
    """
    mech = model.mechanics
    motion = construction_motion(model)
    state = State.initial(mech)
    state.active = mech.is_support.copy()
    plan = [(blocks, None) for blocks in request.stages] + ([(np.zeros(0, np.int64), motion)] if motion else [])
    progress = Progress.of(progress)
    reports, outcome, cancelled = [], None, False
    for done, (blocks, stage_motion) in enumerate(plan, start=1):
        share = progress.part((done - 1) / len(plan), done / len(plan))
        report, outcome = run_stage(model, state, request, blocks, stage_motion, cancel, share)
        reports.append(report)
        if report.cancelled:
            cancelled = True
            break
        share(1.0)
    return ConstructionRun(state, outcome, reports, motion is not None, cancelled)


def construction_result(model, run, request):
    """Write a construction run as a Result: the final forces as a static result does, plus "construction".

    The blocks carry the final positions, orientations and stresses (seed 001 eq. 35 with the
    model's point loads, at the final configuration); their principal stresses, p, q and asymmetry
    and the stress_summary are `static_result`'s (drawn configuration, live loads at factor 0).
    ``stable`` is true when every stage met the kinematic criterion.
    "construction" holds the request's time_step, kinematic_stop, max_stage_duration, whether the
    run was cancelled, and per stage: the ids it built, start (s), steps, duration (s), max_speed
    (m/s) after its last step, converged, first_step_iterations, support_reaction (N, force of the
    supports on the structure) and solver_steps; the support motion's stage, if any, is the last,
    with "support_motion": true and no blocks.
    """
    mech = model.mechanics
    state, outcome = run.state, run.outcome
    h = request.time_step
    force = contact_forces(outcome, h)
    stable = all(r.converged for r in run.stages) and not run.cancelled
    solution = StaticSolution(stable, outcome, force, outcome.velocity,
                              float(point_speed(mech, outcome.velocity).max()), "kinematic criterion")
    stages = [r.to_dict(mech) for r in run.stages]
    for k, stage in enumerate(stages):
        stage["support_motion"] = run.motion and k == len(request.stages)
    document = {"time_step": h, "kinematic_stop": request.kinematic_stop,
                "max_stage_duration": request.max_stage_duration, "cancelled": run.cancelled, "stages": stages}
    result = static_result(model, solution, STATIC_STEP, analysis="construction", extra={"construction": document})
    stress = block_stress(mech, state.position, outcome.contacts, force, point_loads(model))
    result.blocks = replace(result.blocks, position=state.position, orientation=state.orientation, stress=stress)
    fields = deformable_fields(model, state.elastic, state.position, state.orientation)
    if fields is not None:                    # the deformable blocks where the run left them
        result.extra["deformable"] = fields
    return result
