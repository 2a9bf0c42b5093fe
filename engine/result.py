"""The result document of DESIGN sec. 5 (format extrados.result/1)."""
from dataclasses import dataclass, field

import numpy as np

from engine.post.interfaces import interface_resultants
from engine.post.stress import block_stress
from engine.tolerance import TOL

FORMAT = "extrados.result/1"


def contact_states(impulse, friction, stable):
    """'open', 'stick' or 'slip' for each contact.

    open: normal impulse below TOL.open_contact_relative of the largest;
    slip: the force lies on the Coulomb cone (|t| >= (1 - TOL.slip_relative) mu n) and the
    structure moves; stick otherwise.
    """
    normal = impulse[:, 0]
    tangential = np.linalg.norm(impulse[:, 1:], axis=1)
    largest = np.abs(normal).max(initial=0.0)
    is_open = normal <= TOL.open_contact_relative * largest
    on_cone = tangential >= (1.0 - TOL.slip_relative) * friction * normal
    return np.where(is_open, "open", np.where(on_cone & (not stable), "slip", "stick"))


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

    def interface(self, first, second):
        """The interface dict between two block ids (either order), or None."""
        for item in self.interfaces:
            if set(item["blocks"]) == {first, second}:
                return item
        return None


def _rounded(array):
    return np.asarray(array, float).tolist()


def static_result(model, solution, analysis="static", load_factor=None, extra=None):
    """Write a StaticSolution as a Result (DESIGN sec. 5)."""
    mech = model.mechanics
    outcome = solution.outcome
    contacts = outcome.contacts
    ids = mech.block_ids
    stress = block_stress(mech, mech.position0, contacts, solution.force)
    blocks = [{"id": ids[i], "position": _rounded(mech.position0[i]), "orientation": [1.0, 0.0, 0.0, 0.0],
               "velocity": _rounded(solution.velocity[i, :3]), "angular_velocity": _rounded(solution.velocity[i, 3:]),
               "stress": _rounded(stress[i]), "support": bool(mech.is_support[i])} for i in range(mech.n_blocks)]
    states = contact_states(outcome.impulse, outcome.friction, solution.stable)
    contact_docs = [{"blocks": [ids[b], ids[a]], "point": _rounded(p), "normal": _rounded(n), "force": _rounded(f),
                     "gap": float(g), "state": str(s)}
                    for a, b, p, n, f, g, s in zip(contacts.body_a, contacts.body_b, contacts.point,
                                                   outcome.frame[:, 0], solution.force, contacts.gap, states)]
    joints = interface_resultants(contacts, outcome.frame, solution.force)
    interface_docs = []
    for k in range(len(joints.normal_force)):
        s, e = joints.polygon_start[k], joints.polygon_start[k + 1]
        interface_docs.append({
            "blocks": [ids[joints.body_first[k]], ids[joints.body_second[k]]],
            "normal": _rounded(joints.normal[k]), "force": _rounded(joints.force[k]),
            "moment": _rounded(joints.moment[k]), "centre": _rounded(joints.centre[k]),
            "normal_force": float(joints.normal_force[k]), "shear_force": float(joints.shear_force[k]),
            "polygon": _rounded(contacts.point[s:e])})
    report = outcome.solver
    solver = {"name": report.name, "iterations": int(report.iterations), "residual": float(report.residual),
              "converged": bool(report.converged), "seconds": float(report.seconds)}
    more = {"verdict_by": solution.verdict_by, "max_point_speed": float(solution.max_point_speed)}
    more.update(extra or {})
    return Result(analysis, bool(solution.stable), solver, blocks, contact_docs, interface_docs,
                  load_factor=load_factor, extra=more)
