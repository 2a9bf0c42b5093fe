"""Non-associated (true Coulomb) friction: De Saxce's fixed point on the CCP of seed 000.

Seed 000 keeps the normal velocity of a sliding contact as ū = N gamma + r + ũ (eq. 35-36), with
ũ_i = mu_i ||u_t,i|| n_i the term that makes the complementarity gamma in Upsilon, ū in Upsilon* the
Coulomb law (De Saxce & Feng's modified velocity: a sliding contact stays closed, u_n = 0). Dropping
ũ (eq. 37) leaves the convex CCP of eq. 38, whose friction is associated: a contact sliding at
||u_t|| separates at u_n = mu ||u_t|| (seed 000 sec. 2.5, "a dilatation effect"). A 1 m cube on a
ground that starts at 1 m/s (seed 001 sec. 4.1) leaves the ground that way at mu = 0.8.

With ũ frozen at s_i = mu_i ||u_t,i|| the problem is again a CCP, of r_n + s_i: the fixed point

    s = G(s),   G(s)_i = mu_i ||(N gamma(s) + r)_t,i||,   gamma(s) = CCP(N, r + s n, Upsilon)     (eq. 36)

solves eq. 36 where it converges, each CCP warm-started from the last impulses, the first shift that of
the start impulses (in a run, the last step's: a joint sliding steadily keeps its shift). Plain
iteration s <- G(s) converges linearly, at 0.68 a step on a collapse step of the wall over a gap
(572 sliding contacts: 30 solves to 1e-5); Anderson's mixing of the last ``ANDERSON_DEPTH`` iterates
(Walker & Ni, SIAM J. Numer. Anal. 49, 2011) takes the next shift as the combination of the G(s_j)
whose residuals G(s_j) - s_j combine to the least norm, clipped at s >= 0. Only dry contacts take the
shift: a cohesive contact (mortar, ``Problem.cohesion`` non-zero) keeps its own law. At v = 0 (a
static solve that stands) s = 0 and the answer is the CCP's: seed 000 sec. 2.6.
"""
import numpy as np

from extrados.engine.compilation import Stopwatch
from extrados.engine.solvers.result import SolverResult

#: Outer iterations (CCP solves) before the fixed point is reported unconverged.
MAX_FIXED_POINT_ITERATIONS = 40
#: Iterates mixed by Anderson's acceleration (0: plain fixed point).
ANDERSON_DEPTH = 5


def dilatancy_shift(problem, gamma):
    """(n_c,) s_i = mu_i ||u_t,i|| (m/s), u = N gamma + r of ``problem`` (eq. 35); zero at cohesive contacts."""
    velocity = problem.gradient(gamma)  # N gamma + r
    shift = problem.friction * np.hypot(velocity[:, 1], velocity[:, 2])
    shift[np.any(problem.cohesion > 0.0, axis=1)] = 0.0
    return shift


def shifted_problem(problem, shift):
    """``problem`` with r_n + s (the CCP of the fixed point's step)."""
    rhs = problem.rhs.copy()
    rhs[:, 0] += shift
    return problem.with_rhs(rhs)


class Anderson:
    """Anderson mixing of a fixed point s = G(s): the next s from the last ``depth`` pairs (s_j, G(s_j))."""

    def __init__(self, depth):
        self.depth, self.images, self.residuals = depth, [], []

    def next(self, shift, image):
        """The shift to try after G(``shift``) = ``image``."""
        self.images.append(image)
        self.residuals.append(image - shift)
        del self.images[:-self.depth - 1], self.residuals[:-self.depth - 1]
        if len(self.residuals) < 2:
            return image
        # min || f_k - sum_j theta_j (f_k - f_j) || over theta, then s = G_k - sum_j theta_j (G_k - G_j)
        differences = np.column_stack([self.residuals[-1] - f for f in self.residuals[:-1]])
        theta, *_ = np.linalg.lstsq(differences, self.residuals[-1], rcond=None)
        mixed = self.images[-1] - np.column_stack([self.images[-1] - g for g in self.images[:-1]]) @ theta
        return np.maximum(mixed, 0.0)


def solve_coulomb(problem, solve_ccp, gamma0, tolerance):
    """Eq. 36 by the fixed point on s: ``solve_ccp(problem, gamma0)`` solves each shifted CCP (any solver).

    Stops when G(s) differs from s by less than ``tolerance`` times the problem's velocity scale
    (``Problem.rhs_scale``, as the CCP residual) and that CCP converged. The result's residual is
    the larger of the last CCP's and that difference over the scale; its gamma, those of the last CCP
    (the Coulomb law's impulses); iterations and seconds, summed over the CCPs.
    """
    started = Stopwatch()
    start = None if gamma0 is None else problem.initial_impulse(gamma0)
    shift = np.zeros(problem.n_contacts) if start is None else dilatancy_shift(problem, start)
    mixing = Anderson(ANDERSON_DEPTH)
    iterations, report, change = 0, None, np.inf
    for solves in range(1, MAX_FIXED_POINT_ITERATIONS + 1):
        report = solve_ccp(shifted_problem(problem, shift), gamma0)
        iterations += report.iterations
        gamma0 = report.gamma
        image = dilatancy_shift(problem, report.gamma)
        change = float(np.max(np.abs(image - shift), initial=0.0)) / problem.rhs_scale
        if change <= tolerance and report.converged:
            break
        shift = mixing.next(shift, image)
    residual = max(report.residual, change)
    return SolverResult(gamma=report.gamma, iterations=iterations, residual=residual,
                        converged=bool(report.converged and change <= tolerance), seconds=started.seconds(),
                        history=None, name=report.name, lipschitz=report.lipschitz,
                        first_attempt=report.first_attempt, coulomb_solves=solves)
