"""The typed Result of a solved configuration: joints, networks, stresses, bonds and thrust line.

`static_result` reads a static solution (engine.analysis.static, load_factor, construction),
`dynamic_result` the end of a dynamic run (engine.analysis.dynamic); both run the post-processing
of this package over the final contact forces and hand back an engine.result.Result.
"""
import copy
from dataclasses import replace

import numpy as np

from extrados.engine.post.deformable_fields import deformable_fields
from extrados.engine.post.interfaces import interface_resultants
from extrados.engine.post.joints import joint_admissibility, support_reactions
from extrados.engine.post.networks import contact_network, contact_states, step_contact_states
from extrados.engine.post.strain import DILATION_THRESHOLD, SHEAR_THRESHOLD, cumulated_strain, strain_cells
from extrados.engine.post.stress import (
    block_stress, point_loads, principal_stresses, step_rotation, stress_asymmetry, stress_invariants,
    stress_summary,
)
from extrados.engine.post.thrust import thrust_line_documents
from extrados.engine.result import BlockResults, BondResults, ContactResults, Result, json_safe


def solver_document(report):
    """The "solver" entry of a result: the last CCP solve's SolverResult, with the attempt ``auto`` retried."""
    document = {"name": report.name, "iterations": int(report.iterations), "residual": float(report.residual),
                "converged": bool(report.converged), "seconds": float(report.seconds)}
    if getattr(report, "first_attempt", None) is not None:
        document["first_attempt"] = report.first_attempt
    if getattr(report, "coulomb_solves", None) is not None:
        document["coulomb_solves"] = int(report.coulomb_solves)
    return document


def block_results(mech, position, orientation, velocity, stress):
    """BlockResults of a configuration with its block stresses.

    Parameters
    ----------
    mech : Mechanics
    position : (n_blocks, 3) float64, m
    orientation : (n_blocks, 4) float64, [w, x, y, z]
    velocity : (n_blocks, 6) float64, [m/s, rad/s]
    stress : (n_blocks, 3, 3) float64, Pa (`block_stress`)
    """
    values, directions = principal_stresses(stress)
    p, q = stress_invariants(stress)
    # copies: a static result's positions are the model's (Mechanics.position0), which it must not share
    return BlockResults(tuple(mech.block_ids), mech.is_support.copy(), np.array(position, float),
                        np.array(orientation, float), velocity, stress, values, directions, p, q,
                        stress_asymmetry(stress), copy.deepcopy(mech.entity))


def bond_fields(model, outcome, static_step=None):
    """Per contact, its bond state ('intact', 'damaged', 'broken'; '' when it has no bond) and damage (D = 1 - d,
    nan without a bond) for a model with mortar joints (engine.contact.bonds); None without them.

    A static solution (``static_step``: its pseudo time step, s) is judged by its forces
    (`Bonds.static_states`): its bonds have no history, so their damage is 0.
    """
    bonds = outcome.bonds
    if bonds is None or not bonds.mortar.any():
        return None
    if static_step is None:
        return bonds.states(model), bonds.damage(model)
    states = bonds.static_states(model, outcome.friction, outcome.impulse, static_step)
    return states, np.where(states == "", np.nan, 0.0)


def bond_results(states, damage, starts):
    """BondResults of the contacts' (states, damage) of `bond_fields`, with per joint (``starts``: (n_pairs + 1,)
    offsets into the contacts) the state of its bonded contacts (intact, broken, or damaged when they differ
    or any is damaged) and their mean damage."""
    joint_state, joint_damage = [], []
    for k in range(len(starts) - 1):
        mine = [x for x in states[starts[k]:starts[k + 1]].tolist() if x]
        joint_state.append("" if not mine else mine[0] if len(set(mine)) == 1 else "damaged")
        joint_damage.append(float(np.nanmean(damage[starts[k]:starts[k + 1]])) if mine else np.nan)
    return BondResults(states, damage, np.array(joint_state, str).reshape(-1), np.array(joint_damage, float))


def configuration_results(mech, position, outcome, force, states, bonds=None):
    """The Result fields of one configuration's forces.

    Parameters
    ----------
    mech : Mechanics
    position : (n_blocks, 3) float64, m, centres of mass
    outcome : StepOutcome (contacts, frame, friction)
    force : (n_c, 3) float64, N, world-frame force on body_b from body_a
    states : (n_c,) str, `contact_states`
    bonds : (states, damage) of `bond_fields`, or None

    Returns
    -------
    dict with keys contacts, network, interfaces, joints, reactions, bonds and thrust_lines (the
    effective thrust line of engine.post.thrust, when a chain of blocks between two supports is found)
    """
    contacts, frame = outcome.contacts, outcome.frame
    normal = frame[:, 0]
    # copies: a static solve's contacts may be the cache's contacts at rest (engine.analysis.cache),
    # which a Result must not share
    interfaces = replace(interface_resultants(contacts, frame, force), polygon_start=contacts.pair_start.copy())
    return {"contacts": ContactResults(contacts.body_a.copy(), contacts.body_b.copy(), np.array(contacts.point, float),
                                       normal, np.asarray(force, float), np.array(contacts.gap, float),
                                       np.asarray(states)),
            "network": contact_network(states, np.einsum("ni,ni->n", force, normal)),
            "interfaces": interfaces,
            "joints": joint_admissibility(interfaces, contacts.point, outcome.friction),
            "reactions": support_reactions(interfaces, mech.is_support, position),
            "bonds": None if bonds is None else bond_results(*bonds, interfaces.polygon_start),
            "thrust_lines": thrust_line_documents(mech, interfaces)}


def strain_document(mech, frames):
    """The "strain" report of a dynamic result (engine.post.strain), None unless the movable
    blocks' centroids span an in-plane wall.

    Parameters
    ----------
    mech : Mechanics
    frames : Frames, the run's output frames (times and centres of mass)
    """
    cells = strain_cells(mech)
    if cells is None:
        return None
    history = cumulated_strain(cells, frames.t, frames.position)
    ids = [mech.block_ids[i] for i in cells.blocks]
    weight = cells.cell_area / cells.cell_area.sum()
    return {"plane": {"origin": cells.plane.origin.tolist(), "axes": cells.plane.axes.tolist(),
                      "normal": cells.plane.normal.tolist()},
            "blocks": ids, "triangles": [[ids[v] for v in triangle] for triangle in cells.triangles],
            "thresholds": {"dilation": DILATION_THRESHOLD, "shear": SHEAR_THRESHOLD},
            "dilation": history.dilation[-1].tolist(), "shear": history.shear[-1].tolist(),
            "history": {"t": history.t.tolist(), "indicator": history.indicator.tolist(),
                        "mean_dilation": (history.dilation @ weight).tolist(),
                        "mean_shear": (history.shear @ weight).tolist()}}


def static_result(model, solution, static_step, analysis="static", load_factor=None, extra=None):
    """The Result of a StaticSolution (DESIGN sec. 5).

    Parameters
    ----------
    model : Model
    solution : StaticSolution
    static_step : float
        s, the pseudo time step its impulses were solved with (engine.analysis.static.STATIC_STEP),
        which judges its bonds.
    analysis : str
        "static", "load_factor" or "construction".
    load_factor : float, optional
        The standing factor of a load factor analysis (None when none stands).
    extra : dict, optional
        The analysis's reports, added to verdict_by, max_point_speed and stress_summary.
    """
    mech = model.mechanics
    outcome = solution.outcome
    contacts = outcome.contacts
    # a static analysis solves at live factor 1; a load factor result at its standing factor (0 when none stands)
    live_factor = 1.0 if analysis == "static" else (load_factor or 0.0)
    stress = block_stress(mech, mech.position0, contacts, solution.force, point_loads(model, live_factor))
    orientation = np.tile([1.0, 0.0, 0.0, 0.0], (mech.n_blocks, 1))
    # a static solution that stands has no sliding contact; one that does not stand is a mechanism
    bonded = None if outcome.bonds is None else outcome.bonds.as_bonded().holding
    states = contact_states(outcome.impulse, outcome.friction, np.full(len(contacts.gap), not solution.stable), bonded)
    reports = {"verdict_by": solution.verdict_by, "max_point_speed": float(solution.max_point_speed),
               "stress_summary": json_safe(stress_summary(mech, mech.position0, stress))}
    if solution.gap_closure is not None:
        reports["gap_closure"] = solution.gap_closure
    fields = deformable_fields(model, outcome.elastic, mech.position0, orientation)
    if fields is not None:
        reports["deformable"] = fields
    reports.update(extra or {})
    solver = dict(solver_document(outcome.solver), warm_start=solution.warm_started)
    return Result(analysis, bool(solution.stable), solver,
                  block_results(mech, mech.position0, orientation, solution.velocity, stress),
                  load_factor=load_factor, extra=reports,
                  **configuration_results(mech, mech.position0, outcome, solution.force, states,
                                          bond_fields(model, outcome, static_step)))


def dynamic_result(model, run, request):
    """The Result of a DynamicRun: final forces and stresses, frames, energy, events and networks.

    Parameters
    ----------
    model : Model
    run : DynamicRun (engine.analysis.dynamic)
    request : DynamicRequest
    """
    mech = model.mechanics
    state, outcome, start = run.state, run.outcome, run.last_step_start
    h = request.time_step
    force = np.einsum("nki,nk->ni", outcome.frame, outcome.impulse) / h
    contacts = outcome.contacts
    states = step_contact_states(outcome)
    # eq. 55 over the last step, in the configuration its contacts were found in
    stress = block_stress(mech, start.position, contacts, force, point_loads(model),
                          step_rotation(start.orientation, start.velocity, outcome.velocity, h))
    reports = {"energy": run.energy, "events": run.events, "cancelled": run.cancelled,
               "stopped_at": run.stopped_at, "steps": run.steps, "time_step": h, "solver_steps": run.solver_steps,
               "stress_summary": json_safe(stress_summary(mech, state.position, stress)),
               "network_history": json_safe(run.network_history), "integrator": json_safe(run.integrator),
               "strain": json_safe(strain_document(mech, run.frames))}
    fields = deformable_fields(model, state.elastic, state.position, state.orientation)
    if fields is not None:
        reports["deformable"] = fields
    return Result("dynamic", not run.events["collapsed"], solver_document(outcome.solver),
                  block_results(mech, state.position, state.orientation, outcome.velocity, stress),
                  frames=run.frames, output={"frames": request.frames, "histories": request.histories},
                  extra=reports,
                  **configuration_results(mech, state.position, outcome, force, states, bond_fields(model, outcome)))
