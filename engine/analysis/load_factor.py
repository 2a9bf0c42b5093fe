"""Collapse load factor by bisection on NSCD static analyses (DESIGN sec. 5, issue 4).

The load factor is the largest multiplier lambda of the live loads under which the
structure stands, dead loads held at one. Each trial factor is one static analysis
(seed 000, end of sec. 2.4: one CCP with v = 0, engine.analysis.static). The search:

1. lambda = 0 must stand; otherwise the structure fails under its dead loads.
2. Bracket. From a guess (the limit-analysis factor, engine.analysis.limit) the factor
   steps up while it stands, or down while it fails, by 2 tolerance, 4 tolerance, ...
   relative steps; without a guess, max_factor is tried. A structure standing at
   max_factor is reported as such.
3. Bisect [standing, failing] until its width is below tolerance times the failing end.

The mechanism is read off the static solve at the first failing factor: its velocities
(h = 1 s) are the initial accelerations of the blocks, and the relative velocities at
the contact points tell which joints rotate (hinges) and which slide.

Every probe solves on the same contacts, those at rest (engine.analysis.static.WarmStart),
detected once, and starts from the impulses of the probe nearest in factor: neighbouring
factors have nearly the same forces. The search checks its Cancellation before every probe, and
reports its progress (engine.analysis.progress) after every solve, as solves done of those it
expects (`LoadFactorSearch.expected_solves`), each solve's settle run inside its share.
"""
import math
from dataclasses import dataclass, field

import numpy as np

from extrados.engine.analysis.limit import limit_load_factor, limit_report
from extrados.engine.analysis.progress import Progress
from extrados.engine.analysis.request import AnalysisRequest
from extrados.engine.analysis.static import Cancellation, WarmStart, point_speed, solve_static
from extrados.engine.errors import ModelError
from extrados.engine.tolerance import TOL

#: Bracketing from a guess: the first relative step is this times the tolerance; it doubles each try.
BRACKET_STEP_TOLERANCES = 2.0


@dataclass(frozen=True)
class LoadFactorRequest(AnalysisRequest):
    """The load factor analysis request of DESIGN sec. 5, checked."""

    max_factor: float   # largest factor tried
    tolerance: float    # relative width of the final bracket

    KIND = "load_factor"

    @classmethod
    def from_fields(cls, fields, model):
        """The request of schema-checked fields; ModelError at ``loads`` when the model has no live load."""
        check_live_loads(model)
        return cls(**{key: float(value) for key, value in fields.items()})


def check_live_loads(model):
    """Refuse a model whose live loads act on no movable block: no factor would change anything."""
    mech = model.mechanics
    if not np.any(mech.live_wrench[~mech.is_support]):
        raise ModelError("a load_factor analysis multiplies the live loads, and this model has none on a movable "
                         "block; mark the loads to increase with \"live\": true", path="loads")


@dataclass
class LoadFactorSearch:
    """How the bisection went: the bracket, the probes and the static solutions at both ends."""

    status: str                    # "collapse", "stands_at_max_factor" or "fails_under_dead_loads"
    standing_factor: float = None  # largest factor found standing (None when the dead loads fail)
    failing_factor: float = None   # smallest factor found failing (None when max_factor stands)
    standing: object = None        # StaticSolution at standing_factor
    failing: object = None         # StaticSolution at failing_factor
    probes: list = field(default_factory=list)  # [factor, stands] in the order tried
    warm: WarmStart = None         # contacts at rest and a first impulse guess; None: the first probe detects
    cancellation: Cancellation = field(default_factory=Cancellation)
    solved: list = field(default_factory=list)  # [factor, impulse] of every static solve, to warm start the next
    tolerance: float = None        # relative width of the final bracket (the request's, given by bisect_load_factor)
    floor: float = 0.0             # absolute width below which the bracket is narrow enough
    progress: Progress = field(default_factory=Progress)

    def warm_start(self, factor):
        """WarmStart at ``factor``: the contacts at rest and the impulses of the solve nearest in factor."""
        if not self.solved:
            return self.warm
        nearest = min(self.solved, key=lambda solved: abs(solved[0] - factor))
        return WarmStart(self.warm.contacts, nearest[1], self.warm.gap_closure)

    def expected_solves(self):
        """How many static solves the whole search expects, by what it knows now (at least one more).

        With both ends of the bracket found, bisection halves its width down to `narrow`'s bound;
        before, the bisection from [0, max_factor] down to the tolerance is the estimate.
        """
        if self.standing_factor is None or self.failing_factor is None:
            left = 1 + math.ceil(math.log2(1.0 / self.tolerance))
        else:
            width = self.failing_factor - self.standing_factor
            bound = max(self.tolerance * self.failing_factor, self.floor)
            left = math.ceil(math.log2(width / bound)) if width > bound else 0
        return len(self.solved) + max(left, 1)

    def solve(self, model, factor, settle=True):
        """The static solution at ``factor``, warm started (a borderline one decided by a settle run unless
        ``settle`` is False; a probe, whose clear mechanism is not retried: engine.analysis.static.solve_static);
        checks the cancellation first and reports the progress after."""
        self.cancellation.check(f"{len(self.solved)} static solves done")
        done, expected = len(self.solved), self.expected_solves()
        share = self.progress.part(done / expected, (done + 1) / expected)
        solution = solve_static(model, live_factor=factor, warm=self.warm_start(factor),
                                cancellation=self.cancellation, progress=share, settle=settle, probe=True)
        share(1.0)
        if self.warm is None:
            self.warm = WarmStart(solution.outcome.contacts, gap_closure=solution.gap_closure)
        self.solved.append([float(factor), solution.outcome.impulse])
        return solution

    def probe(self, model, factor):
        """Solve at ``factor``, move the bracket end it belongs to; returns whether it stands."""
        solution = self.solve(model, factor)
        self.probes.append([float(factor), bool(solution.stable)])
        if solution.stable:
            self.standing_factor, self.standing = factor, solution
        else:
            self.failing_factor, self.failing = factor, solution
        return solution.stable

    @property
    def solves(self):
        return len(self.probes)

    def narrow(self):
        """True while the bracket is wider than tolerance times its failing end (and than floor)."""
        width = self.failing_factor - self.standing_factor
        return width > self.tolerance * self.failing_factor and width > self.floor


def bracket_from_guess(search, model, guess, max_factor, tolerance):
    """Step 2 from a guess: relative steps 2 tol, 4 tol, ... until the factor changes verdict."""
    step = BRACKET_STEP_TOLERANCES * tolerance
    if search.probe(model, guess):
        while search.failing_factor is None:
            factor = min(search.standing_factor * (1.0 + step), max_factor)
            if search.probe(model, factor) and factor == max_factor:
                search.status = "stands_at_max_factor"
                return
            step *= 2.0
        return
    while step < 1.0:
        if search.probe(model, search.failing_factor * (1.0 - step)):
            return
        step *= 2.0


def bisect_load_factor(model, max_factor, tolerance, guess=None, warm=None,
                       cancellation=Cancellation(), progress=Progress()):
    """Largest live-load factor at which the NSCD static analysis stands.

    Parameters
    ----------
    model : Model
    max_factor : float
        Largest factor tried.
    tolerance : float
        Relative width of the final bracket, (failing - standing) / failing.
    guess : float, optional
        A factor near the collapse one (e.g. the limit-analysis value) to bracket from.
    warm : WarmStart, optional
        Contacts at rest of this geometry and an impulse guess for the first probe.
    cancellation : Cancellation, optional
        Checked before every probe (and within settle runs).
    progress : engine.analysis.progress.Progress, optional
        Gets the fraction of the expected static solves done (`LoadFactorSearch.expected_solves`).

    Returns
    -------
    LoadFactorSearch
    """
    search = LoadFactorSearch(status="collapse", warm=warm, cancellation=cancellation, tolerance=tolerance,
                              floor=TOL.load_factor_floor_relative * max_factor, progress=progress)
    if not search.probe(model, 0.0):
        search.status = "fails_under_dead_loads"
        return search
    if guess is not None and 0.0 < guess < max_factor:
        bracket_from_guess(search, model, guess, max_factor, tolerance)
    elif search.probe(model, max_factor):
        search.status = "stands_at_max_factor"
    if search.status != "collapse":
        return search
    while search.narrow():
        search.probe(model, 0.5 * (search.standing_factor + search.failing_factor))
    return search


def joint_motion(contact_velocity, friction, threshold):
    """Opening and sliding flags of the contact points of one joint.

    With associative friction (the CCP of seed 000 eq. 38) a sliding point's normal velocity
    is mu |v_t|, its dilatancy; a point opens only when it separates faster than that.

    Parameters
    ----------
    contact_velocity : (m, 3) float64
        Relative velocity (n, u, v) of the second block with respect to the first, m/s.
    friction : (m,) float64
    threshold : float
        m/s, a velocity below it is nil.

    Returns
    -------
    opens, slides : (m,) bool
    """
    tangential = np.linalg.norm(contact_velocity[:, 1:], axis=1)
    opens = contact_velocity[:, 0] - friction * tangential > threshold
    return opens, ~opens & (tangential > threshold)


def mechanism(model, solution):
    """The collapse mechanism of a failing static solution, as a JSON-ready dict.

    Velocities are normalised by the largest point speed |v| + |w| r of the movable blocks
    (so they are dimensionless, angular velocities in 1/m). A joint is a hinge when some of
    its contact points open and others stay closed (a relative rotation about an axis in the
    joint plane), sliding when a closed point slips, separating when every point opens.

    Parameters
    ----------
    model : Model
    solution : StaticSolution
        A static solution that does not stand.

    Returns
    -------
    dict with keys blocks ([{id, velocity, angular_velocity}] for movable blocks), hinges,
    sliding, separating (lists of [id, id] block pairs, hinges also with their pivot point), scale
    """
    mech = model.mechanics
    ids = mech.block_ids
    outcome = solution.outcome
    contacts = outcome.contacts
    scale = point_speed(mech, solution.velocity).max(initial=0.0)
    threshold = TOL.mechanism_velocity_relative * scale
    velocity = solution.velocity / scale if scale > 0 else solution.velocity
    hinges, sliding, separating = [], [], []
    for pair in range(contacts.n_pairs):
        start, end = contacts.pair_start[pair], contacts.pair_start[pair + 1]
        blocks = [ids[contacts.body_a[start]], ids[contacts.body_b[start]]]
        opens, slides = joint_motion(outcome.contact_velocity[start:end], outcome.friction[start:end], threshold)
        if opens.all():
            separating.append(blocks)
            continue
        if opens.any():
            pivot = contacts.point[start:end][~opens].mean(axis=0)
            hinges.append({"blocks": blocks, "pivot": pivot.tolist()})
        if slides.any():
            sliding.append(blocks)
    movable = np.flatnonzero(~mech.is_support)
    return {"scale": float(scale), "hinges": hinges, "sliding": sliding, "separating": separating,
            "blocks": [{"id": ids[i], "velocity": velocity[i, :3].tolist(),
                        "angular_velocity": velocity[i, 3:].tolist()} for i in movable]}


def certain_failure(model, search, max_factor, tolerance):
    """The failing static solution to read the mechanism from, and the solves it took.

    Just above the collapse factor the blocks barely accelerate; when the static verdict
    needed a settle run, the static velocities are of the order of the solver's noise and do
    not show the mechanism. The factor then steps up from the first failing one by relative
    steps 2 tol, 4 tol, ... (never beyond max_factor) until the static solve alone shows the
    motion. These solves skip the settle run of a borderline case: only whether the static solve alone
    shows the motion is asked, so a settle run would be thrown away. At factor 0 (dead loads failing)
    there is nothing to step.

    Returns
    -------
    factor : float
    solution : StaticSolution
    solves : int
        Static solves beyond those of the bisection.
    """
    factor, solution, solves = search.failing_factor, search.failing, 0
    step = BRACKET_STEP_TOLERANCES * tolerance
    while solution.verdict_by != "static" and 0.0 < factor < max_factor:
        factor = min(factor * (1.0 + step), max_factor)
        solution = search.solve(model, factor, settle=False)
        solves += 1
        step *= 2.0
    return factor, solution, solves


def search_report(model, search, max_factor, tolerance):
    """The NSCD part of the load factor report (JSON-ready dict).

    The mechanism is that of the first failing factor (of the dead loads alone when they
    fail; a little above the first failing factor when its velocities are noise, see
    `certain_failure`), None when max_factor stands; solves counts every static solve.
    """
    report = {"load_factor": search.standing_factor, "status": search.status, "solves": search.solves,
              "bracket": [search.standing_factor, search.failing_factor], "probes": search.probes,
              "mechanism": None}
    if search.failing is not None:
        factor, solution, solves = certain_failure(model, search, max_factor, tolerance)
        report["mechanism"] = {"factor": factor, **mechanism(model, solution)}
        report["solves"] += solves
    return report


def relative_gap(nscd, limit):
    """(nscd - limit) / limit, or None unless both factors are known and limit > 0."""
    if nscd is None or limit is None or limit <= 0.0:
        return None
    return (nscd - limit) / limit


def run_load_factor(model, request, warm=None, cancellation=Cancellation(), progress=Progress()):
    """Collapse load factor by NSCD bisection, bracketed from the limit-analysis LP.

    Parameters
    ----------
    model : Model
    request : LoadFactorRequest
    warm : WarmStart, optional
        Contacts at rest of this geometry and an impulse guess (engine.analysis.cache).
    cancellation : Cancellation, optional
        Checked after the LP and before every static solve; raises AnalysisCancelled.
    progress : engine.analysis.progress.Progress, optional
        Gets the fraction of the expected static solves done.

    Returns
    -------
    search : LoadFactorSearch
    report : dict
        nscd and limit_analysis (the two factors), gap ((nscd - limit) / limit), status, bracket,
        solves, mechanism, probes (see search_report), max_factor, tolerance, and
        limit_analysis_details (limit_report: the LP's status, cone and admissible joint forces)
    """
    check_live_loads(model)
    cancellation.check()
    limit = limit_load_factor(model, request.max_factor)
    cancellation.check("the limit analysis LP done")
    search = bisect_load_factor(model, request.max_factor, request.tolerance, guess=limit.load_factor, warm=warm,
                                cancellation=cancellation, progress=progress)
    nscd = search_report(model, search, request.max_factor, request.tolerance)
    report = {"nscd": nscd["load_factor"], "limit_analysis": limit.load_factor,
              "gap": relative_gap(nscd["load_factor"], limit.load_factor),
              "status": search.status, "bracket": nscd["bracket"], "solves": nscd["solves"],
              "mechanism": nscd["mechanism"], "probes": nscd["probes"],
              "max_factor": request.max_factor, "tolerance": request.tolerance,
              "limit_analysis_details": limit_report(model, limit)}
    return search, report
