"""A rocking ensemble against Housner's ODE: each batch case's reference under the very motion it saw.

A case of a ground-motion batch is a model document whose ``support_motion`` is the record the
batch built for it (extrados.batch.motions: baseline-corrected, scaled, along the spec's direction).
Its reference reads that document the way the engine does: the record through
engine.dynamics.support_motion (the same baseline correction and linear interpolation), projected on
the rocking direction of extrados.batch.outputs (the support motion's horizontal direction), and the
block's rocking parameters from the model's mass properties (engine.model.Mechanics), so that
alpha is the very slenderness by which the batch divides theta_max.

For a block standing on its base with the centre of mass h above it and b from each pivot edge
along the rocking direction (seed 003 sec. 2.1), R = sqrt(b^2 + h^2), alpha = atan(b / h) and, by
the parallel-axis theorem about the pivot edge (axis = down x direction),

    I_O = I_c + m R^2,                                                            (1)

with I_c the inertia about the parallel axis through the centre of mass; p and the restitution follow
from them (engine.dynamics.rocking, eq. 1-2 of seed 003).

The ensemble's verdict (seed 003 sec. 4 compares the CDFs of theta_max / alpha over 100 records) is the
two-sample Kolmogorov-Smirnov distance of the engine's and Housner's theta_max / alpha, and their
collapse fractions with binomial intervals, a case counting as collapsed at COLLAPSE_ANGLE in both.
"""
import math
from dataclasses import replace

import numpy as np

from extrados.batch.outputs import rocking_direction
from extrados.engine.dynamics.rocking import RockingBody, rocking_response
from extrados.engine.dynamics.support_motion import support_motion_from_document
from extrados.engine.model import Model
from extrados.engine.post.statistics import binomial_interval, ks_distance

#: rad: a block counts as collapsed once |theta| reaches this, in the engine and in Housner's ODE alike.
#: Past it a block of the batch's slenderness cannot come back under its records (``cannot_return``),
#: and the angle is reached before the block lands on its side at pi / 2, whenever in the run it falls.
COLLAPSE_ANGLE = 0.25 * math.pi


def rocking_body(model, block):
    """The RockingBody of ``block`` of a model document, rocking along its support motion's direction.

    Parameters
    ----------
    model : dict
        A model document (a batch case's), with or without a support motion (x without one).
    block : str
        The id of the rocking block, standing on its base.

    Returns
    -------
    RockingBody
        alpha (rad), R (m), p (1/s) and restitution e of the block, eq. (1).
    """
    built = Model.from_dict(model)
    mechanics = built.mechanics
    index = mechanics.block_ids.index(block)
    vertices = np.asarray(next(entry["vertices"] for entry in model["blocks"] if entry["id"] == block), dtype=float)
    offsets = vertices - mechanics.position0[index]
    down, g = _down_and_g(built)
    direction = rocking_direction(model.get("support_motion"), down)
    axis = np.cross(down, direction)
    mass = float(mechanics.mass[index])
    half_base = float(np.max(np.abs(offsets @ direction)))
    centre_height = float(np.max(offsets @ down))
    pivot_inertia = float(axis @ mechanics.inertia_body[index] @ axis) + mass * (half_base ** 2 + centre_height ** 2)
    return RockingBody.from_mass_properties(mass, centre_height, half_base, pivot_inertia, g=g)


def ground_acceleration(model):
    """a_g(t) (m/s^2) of a model's support motion along its rocking direction, read as the engine reads it.

    Returns
    -------
    callable
        t (s) -> float; zero after the end of a record (the ground at rest there).
    """
    built = Model.from_dict(model)
    mechanics = built.mechanics
    motion = support_motion_from_document(model["support_motion"], list(mechanics.block_ids),
                                          mechanics.is_support).motion
    direction = rocking_direction(model["support_motion"], _down_and_g(built)[0])
    return lambda t: float(motion.acceleration(t) @ direction)


def housner_case(model, analysis, block, restitution=None):
    """Housner's theta_max / alpha of ``block`` over a case's duration, and when it overturned.

    Runs on a Dask worker as readily as in the driver: plain values in and out.

    Parameters
    ----------
    model, analysis : dict
        The case's model document (with its support motion) and dynamic analysis request.
    block : str
        The rocking block.
    restitution : float, optional
        Housner's r, the ratio of kinetic energies after and before an impact (seed 003 eq. 2), when
        a measured one replaces eq. 2's (the impacts then scale theta' by sqrt(r)).

    Returns
    -------
    dict
        ``theta_max_over_alpha``: the largest |theta| over alpha, at most pi / (2 alpha) (the ODE stops
        once the block lies on its side); ``overturned``: that time (s) or None.
    """
    body = rocking_body(model, block)
    if restitution is not None:
        body = replace(body, restitution=math.sqrt(restitution))
    response = rocking_response(body, ground_acceleration(model), analysis["duration"],
                                g=_down_and_g(Model.from_dict(model))[1])
    return {"theta_max_over_alpha": response["largest"] / body.alpha, "overturned": response["overturned"]}


def _down_and_g(built):
    """The unit direction of gravity (3,) and its magnitude g (m/s^2) of a built Model."""
    g = float(np.linalg.norm(built.gravity))
    return built.gravity / g, g


def cannot_return(body, peak_acceleration, g=9.81):
    """Whether a block past COLLAPSE_ANGLE must overturn under ground accelerations of at most
    ``peak_acceleration`` (m/s^2): at theta > alpha eq. 1 of seed 003 gives theta'' > 0 while
    |a_g| < g tan(theta - alpha), so past COLLAPSE_ANGLE the block only falls if
    peak_acceleration < g tan(COLLAPSE_ANGLE - alpha)."""
    return peak_acceleration < g * math.tan(COLLAPSE_ANGLE - body.alpha)


def collapse_summary(theta_over_alpha, collapse_ratio, confidence=0.95):
    """How many cases reached ``collapse_ratio`` (COLLAPSE_ANGLE / alpha) and the binomial interval of their fraction.

    Parameters
    ----------
    theta_over_alpha : (n,) array_like of float
        theta_max / alpha of each case.
    collapse_ratio : float
        COLLAPSE_ANGLE / alpha.

    Returns
    -------
    dict
        collapsed, cases, fraction and interval (the Wilson interval at ``confidence``).
    """
    sample = np.asarray(theta_over_alpha, dtype=float)
    collapsed = int(np.count_nonzero(sample >= collapse_ratio))
    return {"collapsed": collapsed, "cases": int(sample.size), "fraction": collapsed / sample.size,
            "interval": list(binomial_interval(collapsed, sample.size, confidence))}


def ensemble_comparison(nscd, housner, collapse_ratio, confidence=0.95):
    """The agreement of NSCD's theta_max / alpha with Housner's over the same records.

    Both samples are censored at ``collapse_ratio``: past COLLAPSE_ANGLE a block falls (``cannot_return``),
    and how far it has fallen when the run ends, or how it lands, is not rocking; a case's value is
    min(theta_max / alpha, collapse_ratio), the same monotone map on both, so the KS distance below
    the threshold is unchanged and the mass at it is each collapse fraction.

    Parameters
    ----------
    nscd, housner : (n,) array_like of float
        theta_max / alpha of each case by the engine and by Housner's ODE (``housner_case``).
    collapse_ratio : float
        COLLAPSE_ANGLE / alpha of the block.
    confidence : float
        Level of the binomial intervals.

    Returns
    -------
    dict
        ks_distance and ks_pvalue (engine.post.statistics.ks_distance of the censored samples), and
        the ``collapse_summary`` of each (keys nscd, housner).
    """
    censored = [np.minimum(np.asarray(sample, dtype=float), collapse_ratio) for sample in (nscd, housner)]
    distance, pvalue = ks_distance(*censored)
    return {"ks_distance": distance, "ks_pvalue": pvalue, "collapse_ratio": collapse_ratio,
            "nscd": collapse_summary(nscd, collapse_ratio, confidence),
            "housner": collapse_summary(housner, collapse_ratio, confidence)}
