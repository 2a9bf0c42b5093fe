"""Limit-analysis load factor of a block assembly by linear programming (static theorem).

The unknowns are the forces at the contact points NSCD uses (the corners of each joint
polygon from contact detection, seed 000 sec. 2.5), and the load factor lambda. With
D_i the Jacobian of contact i (seed 000 eq. 19) and gamma_i its force in the contact
frame (n, u, v), every movable block must be in equilibrium under its dead wrench, lambda
times its live wrench and the contact forces (six equations per block):

    sum_i D_i gamma_i + f_dead + lambda f_live = 0.

Each gamma_i lies in a pyramid inscribed in the Coulomb cone |gamma_t| <= mu gamma_n:
gamma_i = sum_k alpha_ik g_k, alpha_ik >= 0, with the K generators on the cone's surface

    g_k = (1, mu cos(2 pi k / K), mu sin(2 pi k / K))     (n, u, v components).

So gamma_n = sum_k alpha_ik >= 0 at every corner: the normal stress, linear over the joint
polygon, is nowhere tensile, and the joint resultant acts inside the polygon. An inscribed
pyramid is a subset of the cone, so the LP gives a lower bound of the conic value; its
friction is mu along the K generators and mu cos(pi / K) midway between two of them. With
K a multiple of four the pyramid holds the frame directions u and v exactly, which for a
model in the x-z plane (engine.contact.frames picks u or v along y for a normal in that
plane) makes the LP exact for in-plane sliding.

Maximising lambda gives the collapse factor of the static theorem of limit analysis, valid
for associative (normality) friction, under which sliding comes with a dilatancy mu |v_t|.
Real Coulomb friction is not associative: a sliding joint does not open. Without normality
the bounding theorems of plasticity fail (Drucker; seed 000 sec. 1, where a correct failure
load may even come with a wrong failure mode): an admissible force field no longer
proves safety, and the true collapse factor can lie below the associative one, which is
then an upper bound on it (Radenkovic's first theorem: a non-standard material collapses no
later than the standard one with the same yield surface). So an NSCD analysis with
non-associative friction can find a lower factor than this LP where sliding takes part in
the mechanism, and the same factor where the mechanism is made of hinges only.

What engine.analysis.load_factor computes is the associative value: each trial factor is the
static CCP of seed 000 eq. 38 started from v = 0. That CCP drops the non-associative term
(seed 000 eq. 36-37); at v = 0 the term vanishes anyway (sec. 2.6), so a factor stands
exactly when a force field in the conic Coulomb cones balances the loads (v = 0 solves the
CCP iff D gamma = -h f has a solution gamma in the cones). The static bisection therefore
reproduces the associative conic value (this LP, or slightly above it where the pyramid cuts
the cone) up to the static verdict's tolerances; only a dynamic run follows the
non-associative sliding that can lower the collapse load further.
"""
import time
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, diags, hstack

from extrados.engine.analysis.static import check_no_overlap
from extrados.engine.contact.frames import contact_jacobians
from extrados.engine.contact.laws import contact_parameters
from extrados.engine.pipeline import detect
from extrados.engine.post.interfaces import interface_resultants
from extrados.engine.state import State
from extrados.engine.tolerance import TOL

#: Facets of the pyramid inscribed in each friction cone: a multiple of four, so the frame
#: directions u and v are exact; elsewhere the friction is at least mu cos(pi/8) = 0.924 mu.
PYRAMID_FACETS = 8
#: HiGHS status codes (scipy.optimize.linprog): solved, infeasible.
LP_OPTIMAL, LP_INFEASIBLE = 0, 2
#: s, HiGHS stops the LP after this and the analysis goes on without it (status "lp_failed", the message
#: saying the time limit was reached): the LP only brackets the NSCD bisection, and on the survey tower of
#: 40 courses on three walls it had not finished after 25 minutes, nor could the analysis be cancelled in it.
LP_TIME_LIMIT_S = 60.0


@dataclass(frozen=True)
class LimitAnalysis:
    """The LP's answer: load factor and one statically admissible force field at it."""

    status: str                 # "collapse", "stands_at_max_factor", "fails_under_dead_loads" or "lp_failed"
    load_factor: float          # lambda at the optimum, None unless solved
    contacts: object            # Contacts the LP used
    frame: np.ndarray           # (n_c, 3, 3) float64, rows n, u, v
    force: np.ndarray           # (n_c, 3) float64, N, world-frame force on body_b from body_a (zeros unless solved)
    facets: int                 # K, pyramid facets per contact point
    n_unknowns: int             # K n_c + 1
    n_equations: int            # 6 per movable block
    seconds: float              # s, wall time of the LP
    message: str                # HiGHS's message

    def interfaces(self):
        """Joint resultants of the admissible forces (engine.post.interfaces.Interfaces)."""
        return interface_resultants(self.contacts, self.frame, self.force)


def pyramid_generators(friction, facets):
    """Generators of the pyramids inscribed in the contacts' friction cones.

    Parameters
    ----------
    friction : (n_c,) float64
        Coulomb coefficients mu.
    facets : int
        K, generators per cone.

    Returns
    -------
    (n_c, 3, K) float64
        Column k of contact i is (1, mu_i cos(2 pi k / K), mu_i sin(2 pi k / K)) in (n, u, v).
    """
    angle = 2.0 * np.pi * np.arange(facets) / facets
    generators = np.empty((len(friction), 3, facets))
    generators[:, 0, :] = 1.0
    generators[:, 1, :] = friction[:, None] * np.cos(angle)[None, :]
    generators[:, 2, :] = friction[:, None] * np.sin(angle)[None, :]
    return generators


def equilibrium_matrix(jacobian_a, jacobian_b, body_a, body_b, generators, row_of_block):
    """Sparse D G: generalized forces on the movable blocks per unit generator weight.

    Parameters
    ----------
    jacobian_a, jacobian_b : (n_c, 3, 6) float64
        Contact Jacobian blocks of the two bodies (engine.contact.frames, eq. 19).
    body_a, body_b : (n_c,) int64
    generators : (n_c, 3, K) float64
    row_of_block : (n_blocks,) int64
        First equation row of each movable block, -1 for a support.

    Returns
    -------
    scipy.sparse.coo_matrix of shape (6 n_movable, K n_c)
        Entry (6 j + d, K i + k): component d (force N, then moment N m about the centre of
        mass) on movable block j of generator k of contact i at unit weight.
    """
    n_c, _, facets = generators.shape
    rows, cols, values = [], [], []
    column = (np.arange(n_c)[:, None] * facets + np.arange(facets)[None, :])  # (n_c, K)
    for jacobian, body in ((jacobian_a, body_a), (jacobian_b, body_b)):
        first_row = row_of_block[body]                               # (n_c,)
        keep = first_row >= 0
        block = np.einsum("nrd,nrk->ndk", jacobian[keep], generators[keep])  # (n_kept, 6, K)
        rows.append(np.broadcast_to(first_row[keep, None, None] + np.arange(6)[None, :, None], block.shape).ravel())
        cols.append(np.broadcast_to(column[keep, None, :], block.shape).ravel())
        values.append(block.ravel())
    n_rows = 6 * int((row_of_block >= 0).sum())
    return coo_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(n_rows, n_c * facets))


def equation_scales(mechanics):
    """(6,) divisors of the force and moment rows, so that the LP's coefficients are near one.

    Forces are scaled by the largest block weight-like load (N), moments by it times the
    median block radius (N m).
    """
    movable = ~mechanics.is_support
    force = np.abs(mechanics.dead_wrench[movable, :3]).sum(axis=1).max(initial=0.0)
    force = max(force, np.abs(mechanics.live_wrench[movable, :3]).sum(axis=1).max(initial=0.0))
    length = float(np.median(mechanics.polyhedra.radius[movable]))
    return np.array([force] * 3 + [force * length] * 3)


def limit_load_factor(model, max_factor, facets=PYRAMID_FACETS):
    """Largest factor of the live loads with a statically admissible contact force field.

    Parameters
    ----------
    model : Model
    max_factor : float
        Upper bound on lambda (keeps the LP bounded when the live loads never fail it).
    facets : int
        K, facets of the pyramid inscribed in each friction cone.

    Returns
    -------
    LimitAnalysis
    """
    mech = model.mechanics
    contacts = detect(model, State.initial(mech))
    check_no_overlap(model, contacts)
    friction, _ = contact_parameters(model, contacts)
    frame, jacobian_a, jacobian_b = contact_jacobians(contacts.point, contacts.normal, contacts.body_a,
                                                      contacts.body_b, mech.position0)
    movable = ~mech.is_support
    row_of_block = np.full(mech.n_blocks, -1, np.int64)
    row_of_block[movable] = 6 * np.arange(int(movable.sum()))
    generators = pyramid_generators(friction, facets)
    scale = np.tile(equation_scales(mech), int(movable.sum()))          # (6 n_movable,)
    contact_part = equilibrium_matrix(jacobian_a, jacobian_b, contacts.body_a, contacts.body_b, generators,
                                      row_of_block)
    # sum_i D_i G_i alpha_i + lambda f_live = -f_dead, each row divided by its scale
    live = coo_matrix(mech.live_wrench[movable].ravel()[:, None])
    a_eq = (diags(1.0 / scale) @ hstack([contact_part, live])).tocsc()
    b_eq = -mech.dead_wrench[movable].ravel() / scale
    cost = np.zeros(a_eq.shape[1])
    cost[-1] = -1.0
    bounds = [(0.0, None)] * (a_eq.shape[1] - 1) + [(0.0, max_factor)]
    started = time.perf_counter()
    solved = linprog(cost, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs",
                     options={"time_limit": LP_TIME_LIMIT_S})
    seconds = time.perf_counter() - started
    force = np.zeros((contacts.n_contacts, 3))
    load_factor = None
    if solved.status == LP_OPTIMAL:
        load_factor = float(solved.x[-1])
        weights = solved.x[:-1].reshape(contacts.n_contacts, facets)
        impulse = np.einsum("nrk,nk->nr", generators, weights)            # (n_c, 3) in (n, u, v)
        force = np.einsum("nri,nr->ni", frame, impulse)
        status = "stands_at_max_factor" if load_factor >= (1.0 - TOL.load_factor_relative) * max_factor \
            else "collapse"
    else:
        status = "fails_under_dead_loads" if solved.status == LP_INFEASIBLE else "lp_failed"
    return LimitAnalysis(status, load_factor, contacts, frame, force, facets, a_eq.shape[1], a_eq.shape[0],
                         seconds, str(solved.message))


def limit_report(model, limit):
    """The LP's part of the load factor report (JSON-ready dict): factor, cone, joint resultants."""
    ids = model.mechanics.block_ids
    joints = limit.interfaces()
    return {
        "load_factor": limit.load_factor, "status": limit.status,
        "friction_cone": f"pyramid of {limit.facets} facets inscribed in the Coulomb cone",
        "unknowns": limit.n_unknowns, "equations": limit.n_equations, "seconds": limit.seconds,
        "message": limit.message,
        "joints": [{"blocks": [ids[joints.body_first[k]], ids[joints.body_second[k]]],
                    "force": joints.force[k].tolist(), "centre": joints.centre[k].tolist(),
                    "normal_force": float(joints.normal_force[k]), "shear_force": float(joints.shear_force[k])}
                   for k in range(len(joints.normal_force))],
    }
