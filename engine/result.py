"""The result document of DESIGN sec. 5 (format extrados.result/1).

Beyond the contract fields, a result carries what the engineer reads off the joints:

- each interface: "closed" (it carries compression), "centroid" of the joint polygon,
  "eccentricity_vector" and "eccentricity" (m) of the centre of pressure from it,
  "in_polygon", "in_kernel" (central kernel), "shear_utilisation" |V| / (mu N) and the
  "kernel" polygon (engine.post.joints). A joint that is not closed has no resultant to
  judge: its eccentricities, in_* and shear_utilisation are null; shear_utilisation is
  also null where mu N <= 0 (a frictionless joint).
- "reactions": per support block, the force it applies to the structure (N) and the
  moment of that force (N m) about "point", the support's centre of mass.
- "network": counts of stick / slip / open / closed contacts and of the strong and weak
  networks, with the mean normal force of the closed contacts (engine.post.networks);
  each contact says "network": "strong", "weak" or null (open).
- each block: "stress", the average stress tensor (Pa, tension positive; stress[i][k] is force
  component i times arm component k, seed 001 eq. 24) from the contact forces and point loads
  (eq. 35), with the rotational inertia terms of eq. 55 in a dynamic result (taken over the last
  step); "principal_stress": {"values": ascending, the most compressive first (Pa),
  "directions": the unit direction of each value}; "p" = -tr / 3 and "q" = sqrt(3/2 s : s) (Pa);
  "stress_asymmetry", seed 001 eq. 57 (0 for a symmetric tensor) (engine.post.stress).
- "stress_summary": volume-weighted averages per course ("layers", bottom up: name, blocks, volume,
  z, stress, p, q) and over every movable block ("structure"), seed 001 Table I.
- dynamic results also carry "network_history" (t and, per output frame after t = 0, the counts of
  stick / slip / open / closed / strong / weak contacts and the mean normal force of the closed
  ones, seed 001 figs. 25-27) and "strain" (engine.post.strain): for a wall whose block centroids
  lie in a plane, the plane, the centroid triangles, the thresholds, the cumulated dilation and
  shear of each cell at the end, and per output frame their area-weighted means and the
  macroscopic strain indicator (seed 001 eq. 18-19, 59); null for any other structure.
- a non-finite number in these added fields is written null.
- a static or load factor result's "solver" says "warm_start": whether its static solve started
  from given impulses (engine.analysis.static.WarmStart, as engine.analysis.cache gives them).
"""
from dataclasses import dataclass, field

import numpy as np

from extrados.engine.analysis.dynamic import step_contact_states
from extrados.engine.analysis.static import STATIC_STEP
from extrados.engine.post.interfaces import interface_resultants
from extrados.engine.post.joints import joint_admissibility, support_reactions
from extrados.engine.post.networks import contact_network, contact_states
from extrados.engine.post.strain import DILATION_THRESHOLD, SHEAR_THRESHOLD, cumulated_strain, strain_cells
from extrados.engine.post.stress import (
    block_stress, point_loads, principal_stresses, step_rotation, stress_asymmetry, stress_invariants,
    stress_summary,
)
from extrados.engine.post.thrust import thrust_line_documents

FORMAT = "extrados.result/1"


@dataclass
class Result:
    """An analysis result; `to_dict` gives the contract document."""

    analysis: str
    stable: bool
    solver: dict
    blocks: list
    contacts: list
    interfaces: list
    load_factor: float = None
    reactions: list = field(default_factory=list)
    network: dict = field(default_factory=dict)
    thrust_lines: list = field(default_factory=list)
    frames: list = field(default_factory=list)
    histories: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)

    def to_dict(self):
        doc = {"format": FORMAT, "analysis": self.analysis, "stable": self.stable, "load_factor": self.load_factor,
               "solver": self.solver, "blocks": self.blocks, "contacts": self.contacts,
               "interfaces": self.interfaces, "reactions": self.reactions, "network": self.network,
               "thrust_lines": self.thrust_lines, "frames": self.frames,
               "histories": self.histories}
        doc.update(self.extra)
        return doc


def _rounded(array):
    return np.asarray(array, float).tolist()


def _solver_document(report):
    return {"name": report.name, "iterations": int(report.iterations), "residual": float(report.residual),
            "converged": bool(report.converged), "seconds": float(report.seconds)}


def _json_safe(value):
    """The value with every non-finite float (nested in lists and dicts) replaced by None."""
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(item) for item in value]
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


def _finite_or_null(array):
    """The array as nested lists, every non-finite float written None (a vectorised ``_json_safe``)."""
    if np.isfinite(array).all():
        return array.tolist()
    return _json_safe(array.tolist())


def _block_documents(mech, position, orientation, velocity, stress):
    ids = mech.block_ids
    values, directions = principal_stresses(stress)
    p, q = stress_invariants(stress)
    asymmetry = stress_asymmetry(stress)
    rows = zip(ids, np.asarray(position, float).tolist(), np.asarray(orientation, float).tolist(),
               velocity[:, :3].tolist(), velocity[:, 3:].tolist(), stress.tolist(), mech.is_support.tolist(),
               _finite_or_null(values), _finite_or_null(directions), _finite_or_null(p), _finite_or_null(q),
               _finite_or_null(asymmetry))
    return [{"id": i, "position": x, "orientation": o, "velocity": v, "angular_velocity": w, "stress": t,
             "support": bool(support), "principal_stress": {"values": value, "directions": direction},
             "p": pressure, "q": deviator, "stress_asymmetry": skew}
            for i, x, o, v, w, t, support, value, direction, pressure, deviator, skew in rows]


def _contact_documents(ids, contacts, frame, force, states, network):
    membership = np.where(network.strong, "strong", np.where(network.weak, "weak", ""))
    rows = zip(contacts.body_a.tolist(), contacts.body_b.tolist(), np.asarray(contacts.point, float).tolist(),
               frame[:, 0].tolist(), np.asarray(force, float).tolist(), np.asarray(contacts.gap, float).tolist(),
               np.asarray(states).tolist(), membership.tolist())
    return [{"blocks": [ids[b], ids[a]], "point": p, "normal": n, "force": f, "gap": g, "state": str(s),
             "network": m or None}
            for a, b, p, n, f, g, s, m in rows]


def _when_closed(closed, values):
    """(n,) or (n, d) values as lists, None where the joint is not closed or a value is not finite (null)."""
    finite = np.isfinite(values)
    keep = closed & (finite if finite.ndim == 1 else finite.all(axis=1))
    return [value if kept else None for value, kept in zip(values.tolist(), keep.tolist())]


def _interface_documents(ids, contacts, joints, admissible):
    closed = np.asarray(admissible.closed, bool)
    starts, kernel_starts = joints.polygon_start.tolist(), admissible.kernel_start.tolist()
    points, kernel = np.asarray(contacts.point, float).tolist(), admissible.kernel.tolist()
    rows = zip(joints.body_first.tolist(), joints.body_second.tolist(), joints.normal.tolist(), joints.force.tolist(),
               joints.moment.tolist(), joints.centre.tolist(), joints.normal_force.tolist(),
               joints.shear_force.tolist(), closed.tolist(), admissible.centroid.tolist(),
               _when_closed(closed, admissible.eccentricity_vector), _when_closed(closed, admissible.eccentricity),
               _when_closed(closed, admissible.in_polygon), _when_closed(closed, admissible.in_kernel),
               _when_closed(closed, admissible.shear_utilisation))
    return [{"blocks": [ids[first], ids[second]], "normal": normal, "force": force, "moment": moment,
             "centre": centre, "normal_force": normal_force, "shear_force": shear_force,
             "polygon": points[starts[k]:starts[k + 1]], "closed": is_closed, "centroid": centroid,
             "eccentricity_vector": eccentricity_vector, "eccentricity": eccentricity, "in_polygon": in_polygon,
             "in_kernel": in_kernel, "shear_utilisation": utilisation,
             "kernel": kernel[kernel_starts[k]:kernel_starts[k + 1]]}
            for k, (first, second, normal, force, moment, centre, normal_force, shear_force, is_closed, centroid,
                    eccentricity_vector, eccentricity, in_polygon, in_kernel, utilisation) in enumerate(rows)]


def _reaction_documents(ids, reactions):
    return [{"block": ids[b], "force": f, "moment": m, "point": p}
            for b, f, m, p in zip(reactions.block.tolist(), reactions.force.tolist(), reactions.moment.tolist(),
                                  reactions.point.tolist())]


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


def _add_bond_documents(documents, bonds, starts):
    """Add "bond" and "damage" to the contact documents and, per joint, the bond state of its contacts
    (intact, broken, or damaged when they differ or any is damaged) and their mean damage."""
    states, damage = bonds
    for document, state, value in zip(documents["contacts"], states.tolist(), damage.tolist()):
        if state:
            document["bond"], document["damage"] = state, value
    for k, document in enumerate(documents["interfaces"]):
        mine = [x for x in states[starts[k]:starts[k + 1]].tolist() if x]
        if mine:
            document["bond"] = mine[0] if len(set(mine)) == 1 else "damaged"
            document["damage"] = float(np.nanmean(damage[starts[k]:starts[k + 1]]))


def _force_documents(mech, position, outcome, force, states, bonds=None):
    """Contact, interface, reaction and network documents of one configuration.

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
    dict with keys contacts, interfaces, reactions, network, thrust_lines (the effective thrust line
    of engine.post.thrust, when a chain of blocks between two supports is found)
    """
    contacts, frame = outcome.contacts, outcome.frame
    ids = mech.block_ids
    joints = interface_resultants(contacts, frame, force)
    network = contact_network(states, np.einsum("ni,ni->n", force, frame[:, 0]))
    documents = {"contacts": _contact_documents(ids, contacts, frame, force, states, network),
                 "interfaces": _interface_documents(ids, contacts, joints,
                                                    joint_admissibility(joints, contacts.point, outcome.friction)),
                 "reactions": _reaction_documents(ids, support_reactions(joints, mech.is_support, position)),
                 "network": dict(network.counts, mean_normal_force=network.mean_normal_force),
                 "thrust_lines": thrust_line_documents(mech, joints)}
    if bonds is not None:
        _add_bond_documents(documents, bonds, joints.polygon_start)
    return documents


def _strain_document(mech, t, position):
    """The "strain" document of a dynamic result (engine.post.strain), None unless the movable
    blocks' centroids span an in-plane wall.

    Parameters
    ----------
    mech : Mechanics
    t : (n_frames,) float64, s, frame times
    position : (n_frames, n_blocks, 3) float64, m, centres of mass at the frames
    """
    cells = strain_cells(mech)
    if cells is None:
        return None
    history = cumulated_strain(cells, np.asarray(t, float), position)
    ids = [mech.block_ids[i] for i in cells.blocks]
    weight = cells.cell_area / cells.cell_area.sum()
    return {"plane": {"origin": _rounded(cells.plane.origin), "axes": _rounded(cells.plane.axes),
                      "normal": _rounded(cells.plane.normal)},
            "blocks": ids, "triangles": [[ids[v] for v in triangle] for triangle in cells.triangles],
            "thresholds": {"dilation": DILATION_THRESHOLD, "shear": SHEAR_THRESHOLD},
            "dilation": _rounded(history.dilation[-1]), "shear": _rounded(history.shear[-1]),
            "history": {"t": _rounded(history.t), "indicator": _rounded(history.indicator),
                        "mean_dilation": _rounded(history.dilation @ weight),
                        "mean_shear": _rounded(history.shear @ weight)}}


def static_result(model, solution, analysis="static", load_factor=None, extra=None):
    """Write a StaticSolution as a Result (DESIGN sec. 5)."""
    mech = model.mechanics
    outcome = solution.outcome
    contacts = outcome.contacts
    # a static analysis solves at live factor 1; a load factor result at its standing factor (0 when none stands)
    live_factor = 1.0 if analysis == "static" else (load_factor or 0.0)
    stress = block_stress(mech, mech.position0, contacts, solution.force, point_loads(model, live_factor))
    orientation = np.tile([1.0, 0.0, 0.0, 0.0], (mech.n_blocks, 1))
    blocks = _block_documents(mech, mech.position0, orientation, solution.velocity, stress)
    # a static solution that stands has no sliding contact; one that does not stand is a mechanism
    bonded = None if outcome.bonds is None else outcome.bonds.as_bonded().holding
    states = contact_states(outcome.impulse, outcome.friction, np.full(len(contacts.gap), not solution.stable), bonded)
    more = {"verdict_by": solution.verdict_by, "max_point_speed": float(solution.max_point_speed),
            "stress_summary": _json_safe(stress_summary(mech, mech.position0, stress))}
    more.update(extra or {})
    solver = dict(_solver_document(outcome.solver), warm_start=solution.warm_started)
    return Result(analysis, bool(solution.stable), solver, blocks, load_factor=load_factor, extra=more,
                  **_force_documents(mech, mech.position0, outcome, solution.force, states,
                                     bond_fields(model, outcome, STATIC_STEP)))


def dynamic_result(model, run, request):
    """Write the outcome of `run_dynamic` as a Result: final forces, frames, histories, energy, events."""
    mech = model.mechanics
    ids = mech.block_ids
    state, outcome, start = run["state"], run["outcome"], run["last_step_start"]
    h = request.time_step
    force = np.einsum("nki,nk->ni", outcome.frame, outcome.impulse) / h
    contacts = outcome.contacts
    states = step_contact_states(outcome)
    # eq. 55 over the last step, in the configuration its contacts were found in
    stress = block_stress(mech, start.position, contacts, force, point_loads(model),
                          step_rotation(start.orientation, start.velocity, outcome.velocity, h))
    position = np.stack(run["histories"]["position"])  # (n_frames, n_blocks, 3) float64
    velocity = np.stack(run["histories"]["velocity"])  # (n_frames, n_blocks, 6) float64
    histories = {"t": run["histories"]["t"], "blocks": {
        ids[i]: {"position": position[:, i].tolist(), "velocity": velocity[:, i].tolist()}
        for i in range(mech.n_blocks) if not mech.is_support[i]}}
    extra = {"energy": run["energy"], "events": run["events"], "cancelled": run["cancelled"],
             "stopped_at": run["stopped_at"], "steps": run["steps"], "time_step": h,
             "solver_steps": run["solver_steps"],
             "stress_summary": _json_safe(stress_summary(mech, state.position, stress)),
             "network_history": _json_safe(run["network_history"]),
             "strain": _json_safe(_strain_document(mech, run["histories"]["t"], position))}
    return Result("dynamic", not run["events"]["collapsed"], _solver_document(outcome.solver),
                  _block_documents(mech, state.position, state.orientation, outcome.velocity, stress),
                  frames=run["frames"], histories=histories, extra=extra,
                  **_force_documents(mech, state.position, outcome, force, states, bond_fields(model, outcome)))
