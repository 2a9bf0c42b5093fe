"""The result document of DESIGN sec. 5 (format extrados.result/1)."""
from dataclasses import dataclass, field

import numpy as np

from engine.post.interfaces import interface_resultants
from engine.post.stress import block_stress
from engine.tolerance import TOL

FORMAT = "extrados.result/1"


def contact_states(impulse, friction, sliding):
    """'open', 'stick' or 'slip' for each contact.

    open: normal impulse below TOL.open_contact_relative of the largest;
    slip: the force lies on the Coulomb cone (|t| >= (1 - TOL.slip_relative) mu n) and the
    contact slides (`sliding`, (n_c,) bool); stick otherwise.
    """
    normal = impulse[:, 0]
    tangential = np.linalg.norm(impulse[:, 1:], axis=1)
    largest = np.abs(normal).max(initial=0.0)
    is_open = normal <= TOL.open_contact_relative * largest
    on_cone = tangential >= (1.0 - TOL.slip_relative) * friction * normal
    return np.where(is_open, "open", np.where(on_cone & sliding, "slip", "stick"))


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
    thrust_lines: list = field(default_factory=list)
    frames: list = field(default_factory=list)
    histories: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)

    def to_dict(self):
        doc = {"format": FORMAT, "analysis": self.analysis, "stable": self.stable, "load_factor": self.load_factor,
               "solver": self.solver, "blocks": self.blocks, "contacts": self.contacts,
               "interfaces": self.interfaces, "thrust_lines": self.thrust_lines, "frames": self.frames,
               "histories": self.histories}
        doc.update(self.extra)
        return doc


def _rounded(array):
    return np.asarray(array, float).tolist()


def _solver_document(report):
    return {"name": report.name, "iterations": int(report.iterations), "residual": float(report.residual),
            "converged": bool(report.converged), "seconds": float(report.seconds)}


def _block_documents(mech, position, orientation, velocity, stress):
    ids = mech.block_ids
    return [{"id": ids[i], "position": _rounded(position[i]), "orientation": _rounded(orientation[i]),
             "velocity": _rounded(velocity[i, :3]), "angular_velocity": _rounded(velocity[i, 3:]),
             "stress": _rounded(stress[i]), "support": bool(mech.is_support[i])} for i in range(mech.n_blocks)]


def _contact_documents(ids, contacts, frame, force, states):
    return [{"blocks": [ids[b], ids[a]], "point": _rounded(p), "normal": _rounded(n), "force": _rounded(f),
             "gap": float(g), "state": str(s)}
            for a, b, p, n, f, g, s in zip(contacts.body_a, contacts.body_b, contacts.point, frame[:, 0], force,
                                           contacts.gap, states)]


def _interface_documents(ids, contacts, frame, force):
    joints = interface_resultants(contacts, frame, force)
    documents = []
    for k in range(len(joints.normal_force)):
        s, e = joints.polygon_start[k], joints.polygon_start[k + 1]
        documents.append({
            "blocks": [ids[joints.body_first[k]], ids[joints.body_second[k]]],
            "normal": _rounded(joints.normal[k]), "force": _rounded(joints.force[k]),
            "moment": _rounded(joints.moment[k]), "centre": _rounded(joints.centre[k]),
            "normal_force": float(joints.normal_force[k]), "shear_force": float(joints.shear_force[k]),
            "polygon": _rounded(contacts.point[s:e])})
    return documents


def static_result(model, solution, analysis="static", load_factor=None, extra=None):
    """Write a StaticSolution as a Result (DESIGN sec. 5)."""
    mech = model.mechanics
    outcome = solution.outcome
    contacts = outcome.contacts
    ids = mech.block_ids
    stress = block_stress(mech, mech.position0, contacts, solution.force)
    orientation = np.tile([1.0, 0.0, 0.0, 0.0], (mech.n_blocks, 1))
    blocks = _block_documents(mech, mech.position0, orientation, solution.velocity, stress)
    # a static solution that stands has no sliding contact; one that does not stand is a mechanism
    states = contact_states(outcome.impulse, outcome.friction, np.full(len(contacts.gap), not solution.stable))
    more = {"verdict_by": solution.verdict_by, "max_point_speed": float(solution.max_point_speed)}
    more.update(extra or {})
    return Result(analysis, bool(solution.stable), _solver_document(outcome.solver), blocks,
                  _contact_documents(ids, contacts, outcome.frame, solution.force, states),
                  _interface_documents(ids, contacts, outcome.frame, solution.force),
                  load_factor=load_factor, extra=more)


def dynamic_result(model, run, request):
    """Write the outcome of `run_dynamic` as a Result: final forces, frames, histories, energy, events."""
    mech = model.mechanics
    ids = mech.block_ids
    state, outcome = run["state"], run["outcome"]
    force = np.einsum("nki,nk->ni", outcome.frame, outcome.impulse) / request.time_step
    contacts = outcome.contacts
    sliding = np.linalg.norm(outcome.contact_velocity[:, 1:], axis=1) > TOL.event_speed
    states = contact_states(outcome.impulse, outcome.friction, sliding)
    stress = block_stress(mech, state.position, contacts, force)
    position = np.stack(run["histories"]["position"])  # (n_frames, n_blocks, 3) float64
    velocity = np.stack(run["histories"]["velocity"])  # (n_frames, n_blocks, 6) float64
    histories = {"t": run["histories"]["t"], "blocks": {
        ids[i]: {"position": position[:, i].tolist(), "velocity": velocity[:, i].tolist()}
        for i in range(mech.n_blocks) if not mech.is_support[i]}}
    extra = {"energy": run["energy"], "events": run["events"], "cancelled": run["cancelled"],
             "stopped_at": run["stopped_at"], "steps": run["steps"], "time_step": request.time_step,
             "solver_steps": run["solver_steps"]}
    return Result("dynamic", not run["events"]["collapsed"], _solver_document(outcome.solver),
                  _block_documents(mech, state.position, state.orientation, outcome.velocity, stress),
                  _contact_documents(ids, contacts, outcome.frame, force, states),
                  _interface_documents(ids, contacts, outcome.frame, force),
                  frames=run["frames"], histories=histories, extra=extra)
