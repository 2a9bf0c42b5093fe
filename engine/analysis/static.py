"""Static analysis: one CCP with v = 0 (seed 000, end of sec. 2.4).

With v^(l) = 0 the step gives v^(l+1) = M^-1 (h f + D gamma). The structure stands
when v^(l+1) vanishes; then the contact forces are gamma / h. Because the time step
is arbitrary we take h = 1 s, so impulses equal forces numerically and the velocity
after the step equals the initial acceleration of the mechanism, if any.

Borderline cases (velocities above the solver's noise but tiny compared with g h)
are decided by a short settle run with the kinematic criterion of seed 001.

Repeated analyses of one geometry (engine.analysis.cache) start from a `WarmStart`: the
contacts detected at rest, which depend on the blocks and the envelope alone, and impulses to
start from, those of the same document without its loads (`self_weight_start`). A
`Cancellation` stops an analysis between solves (and between the steps of a settle run) by
raising AnalysisCancelled.
"""
import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np

from extrados.engine.analysis.joint_gaps import closed_gaps
from extrados.engine.analysis.overlap import allowed_overlap
from extrados.engine.analysis.progress import Progress
from extrados.engine.analysis.settlement import mechanism_velocity
from extrados.engine.errors import AnalysisCancelled, ModelError
from extrados.engine.pipeline import SolverSettings, StepSettings, detect, solve_step, step
from extrados.engine.state import State
from extrados.engine.tolerance import TOL

STATIC_STEP = 1.0     # s, the arbitrary h of the static CCP
SETTLE_STEP = 1e-3    # s, time step of the confirming settle run
SETTLE_DURATION = 0.3  # s; a mechanism starting at 1e-3 g moves 0.4 mm in that time
SETTLE_GROWTH = 1.2    # a mechanism's speed doubles from mid-run to the end; standing blocks' does not grow
#: A load factor probe's static CCP is not retried (engine.solvers.auto.clearly_moving) once its contacts move
#: at this fraction of their free-fall velocity (and far above its residual, auto.MOTION_OVER_RESIDUAL): ten
#: times the static verdict's borderline (TOL.static_velocity_borderline).
PROBE_MOVING = 1e-2


@dataclass(frozen=True)
class StaticSolution:
    """Outcome of a static analysis, before it becomes a Result (engine.post.results.static_result)."""

    stable: bool
    outcome: object          # StepOutcome of the static CCP
    force: np.ndarray        # (n_c, 3) float64, N, world-frame force on body_b from body_a
    velocity: np.ndarray     # (n_blocks, 6) float64, velocity after the static step
    max_point_speed: float   # m/s, largest |v| + |w| r over the movable blocks
    verdict_by: str          # "static" or "settle run" ("undecided": a borderline case solved with settle=False)
    warm_started: bool = False  # the static CCP started from a WarmStart's impulses
    gap_closure: dict = None  # what settings.gaps closed (engine.analysis.joint_gaps), None when it is "open"


@dataclass(frozen=True)
class WarmStart:
    """What a static solve of a geometry solved before may start from.

    The contacts at rest are those of `detect` in the drawn configuration (State.initial), with the
    gaps settings.gaps closes closed (`closed_gaps`): they depend on the blocks, the envelope and
    settings.gaps only, not on loads, gravity or joint laws. ``impulse``
    is a guess in their order, e.g. `self_weight_start` or a load factor probe's solution.
    """

    contacts: object             # Contacts at rest, their gaps closed as settings.gaps says
    impulse: np.ndarray = None   # (n_c, 3) float64, N s, frames (n, u, v); None: start from zero
    gap_closure: dict = None     # the report of the gaps settings.gaps closed in them; None when "open"


@dataclass(frozen=True)
class Cancellation:
    """A caller's ``cancel() -> bool``, checked between solves: `check` raises AnalysisCancelled once it is True."""

    cancel: object = None        # callable() -> bool, or None (never cancelled)
    what: str = "analysis"       # what is stopped, e.g. "static analysis"
    started: float = field(default_factory=time.perf_counter)   # s, perf_counter when the analysis began

    def check(self, done=""):
        """Raise AnalysisCancelled (saying what was stopped, after how long, and ``done``) when cancelled."""
        if self.cancel is not None and self.cancel():
            raise AnalysisCancelled(self.what, time.perf_counter() - self.started, done)


def point_speed(mechanics, velocity):
    """(n_blocks,) bound on the speed of any point of each block, |v| + |w| r (m/s)."""
    speed = np.linalg.norm(velocity[:, :3], axis=1) + np.linalg.norm(velocity[:, 3:], axis=1) * mechanics.polyhedra.radius
    speed[mechanics.is_support] = 0.0
    return speed


def contact_forces(outcome, h):
    """(n_c, 3) world-frame forces on body_b, frame^T gamma / h."""
    return np.einsum("nki,nk->ni", outcome.frame, outcome.impulse) / h


def step_settings(model, wrench, h, analysis="static"):
    """One step of ``h`` s under ``wrench`` with the model's solver for ``analysis``: "static" for the static CCP
    (``auto`` may give it Newton and retries it unconverged), "dynamic" for a settle run's steps, which are
    dynamics (the dynamic tolerance unless the model sets one, engine.tolerance.SOLVER_DEFAULTS)."""
    return StepSettings(time_step=h, wrench=wrench, solver=SolverSettings.of(model.settings, analysis),
                        static=analysis == "static")


def settle_run_stands(model, wrench, cancellation=Cancellation(), progress=Progress()):
    """Seed 001 kinematic criterion: a short dynamic settle run decides a borderline case.

    A mechanism starting from rest accelerates, so its largest point speed keeps
    growing (about doubling from mid-run to the end); a structure that stands
    settles to rest or to the steady creep of its tangential compliance. A motion that
    grows until a speed or a position is no longer a finite number (a block flung off and
    spun up until the step's explicit gyroscopic term, eq. 31, diverges) is a mechanism too:
    the run stops there.
    The cancellation is checked before every step; ``progress`` gets the fraction of the
    SETTLE_DURATION stepped after each step.
    """
    state = State.initial(model.mechanics)
    settings = step_settings(model, wrench, SETTLE_STEP, "dynamic")
    steps = int(round(SETTLE_DURATION / SETTLE_STEP))
    speeds = np.empty(steps)
    for k in range(steps):
        cancellation.check(f"in step {k} of {steps} of a settle run")
        outcome = step(model, state, settings)
        progress((k + 1) / steps)
        speeds[k] = point_speed(model.mechanics, outcome.velocity).max()
        if not (np.isfinite(speeds[k]) and np.isfinite(state.position).all()):
            return False
        if speeds[k] < TOL.kinematic_velocity:
            return True
    return speeds[-1] < SETTLE_GROWTH * speeds[steps // 2]


def check_no_overlap(model, contacts):
    """Refuse blocks that overlap at the start by more than the envelope, or under settings.overlap
    ``accept`` by more than its tolerance (engine.analysis.overlap): which pair, how much."""
    if len(contacts.gap) == 0:
        return
    worst = int(np.argmin(contacts.gap))
    depth = -contacts.gap[worst]
    allowed = allowed_overlap(model)
    if depth > allowed:
        ids = model.block_ids
        a, b = ids[contacts.body_a[worst]], ids[contacts.body_b[worst]]
        raise ModelError(f"blocks '{a}' and '{b}' overlap by {depth:.4g} m, more than the {allowed:.4g} m "
                         "allowed (the envelope, or settings.overlap.tolerance under 'accept'); move them apart, "
                         "or let settings.overlap shrink the blocks that overlap or accept their overlaps", path="blocks", block=a)


def check_no_overflow(when, *values):
    """Raise ModelError when an array or number of a solve is no longer finite (``when`` says at what
    point of the analysis): the result would carry Infinity or NaN. The model schema bounds every
    input, so this is a run whose motion grew without bound, not a bad field."""
    if not all(np.isfinite(value).all() for value in values):
        raise ModelError(f"the analysis overflowed {when}: a velocity, force or energy is no longer a finite "
                         "number; reduce the loads, accelerations or support motion, or shorten the time step")


def static_step(model, wrench, contacts, guess=None, probe=False):
    """The static CCP: one step of h = STATIC_STEP from rest in the drawn configuration.

    Parameters
    ----------
    model : Model
    wrench : (n_blocks, 6) float64, applied loads
    contacts : Contacts at rest
    guess : (n_c, 3) float64, optional, impulses to start from (zero when None)
    probe : bool, a load factor's probe: an unconverged clear mechanism is not retried (``PROBE_MOVING``)

    Returns
    -------
    StepOutcome
    """
    settings = step_settings(model, wrench, STATIC_STEP)
    if probe:
        settings = dataclasses.replace(settings, solver=dataclasses.replace(settings.solver, moving=PROBE_MOVING))
    return solve_step(model, State.initial(model.mechanics), settings, contacts, impulse_guess=guess)


def self_weight_start(model, contacts, gap_closure=None):
    """WarmStart for static solves of ``model``: the static impulses under gravity alone, without any load.

    The start is the solution of the model's document with its loads left out (from zero), so a
    static result started from it depends on its own document only, never on analyses before it:
    in a statically indeterminate structure a solve ends at the equilibrium force field nearest to
    where it started (the self-stress states are barely constrained), so starting from an earlier
    request's forces would carry that request into this one.

    Parameters
    ----------
    model : Model
    contacts : Contacts at rest of its geometry, its gaps closed as settings.gaps says (`closed_gaps`)
    gap_closure : dict, optional, the report of `closed_gaps`, kept in the WarmStart
    """
    mech = model.mechanics
    wrench = np.zeros((mech.n_blocks, 6))
    wrench[:, :3] = mech.mass[:, None] * model.gravity[None, :]   # the dead wrench of a model without loads
    return WarmStart(contacts, static_step(model, wrench, contacts).impulse, gap_closure)


def solve_static(model, live_factor=1.0, warm=None, cancellation=Cancellation(), progress=Progress(), settle=True,
                 probe=False):
    """Static equilibrium under dead loads and live loads times live_factor.

    Parameters
    ----------
    model : Model
    live_factor : float
    warm : WarmStart, optional
        Contacts at rest of this model's geometry (not detected again, their gaps closed as settings.gaps
        says) and an impulse guess.
    cancellation : Cancellation, optional
        Checked before the static CCP and at every step of a settle run.
    progress : engine.analysis.progress.Progress, optional
        Gets the fraction done of a settle run, the long part of a borderline case.
    settle : bool
        Decide a borderline case by a settle run; False leaves it undecided (``stable`` False, ``verdict_by``
        "undecided"), for a caller that only asks whether the static solve alone shows the motion.
    probe : bool
        A load factor's probe, which asks for the verdict only: a static CCP whose first attempt, unconverged,
        already shows a clear mechanism is not retried (`static_step`).

    Returns
    -------
    StaticSolution
    """
    mech = model.mechanics
    wrench = mech.dead_wrench + live_factor * mech.live_wrench
    if warm is None:
        contacts, gap_closure = closed_gaps(model, detect(model, State.initial(mech)))
    else:
        contacts, gap_closure = warm.contacts, warm.gap_closure
    check_no_overlap(model, contacts)
    guess = None if warm is None else warm.impulse
    cancellation.check()
    outcome = static_step(model, wrench, contacts, guess, probe)
    check_no_overflow("in the static solve", outcome.velocity, outcome.impulse)
    moving = outcome.velocity if not model.elastic_bodies else mechanism_velocity(mech, outcome)
    speed = point_speed(mech, moving).max(initial=0.0)
    g_h = np.linalg.norm(model.gravity) * STATIC_STEP
    load_scale = max(g_h, np.abs(wrench[~mech.is_support, :3]).sum(axis=1).max() / mech.mass.max())
    verdict_by = "static"
    if speed < TOL.static_velocity_relative * load_scale:
        stable = True
    elif speed > TOL.static_velocity_borderline * load_scale:
        stable = False
    elif settle:
        stable = settle_run_stands(model, wrench, cancellation, progress)
        verdict_by = "settle run"
    else:
        stable, verdict_by = False, "undecided"
    return StaticSolution(stable, outcome, contact_forces(outcome, STATIC_STEP), outcome.velocity, speed, verdict_by,
                          guess is not None, gap_closure)
