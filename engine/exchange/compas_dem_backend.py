"""Extrados as a compas_dem solver: a compas_dem `Problem` in, compas_dem `Results` out.

compas_dem's back ends (``Problem.solve`` with CRA, RBE, LMGC90, ...) leave the model as it is
and return a `compas_dem.problem.Results`: per block (graph node) its ``transformation``, per
contact edge (u, v) the attributes its viewer reads, written here as its CRA back end writes them:

- ``contact_data``: a `FrictionContact` (3 or more points; an `EdgeContact` for 2, a
  `VertexContact` for 1) whose frame has its z axis along the contact normal from u into v and
  whose ``forces`` are, per point, ``c_np`` / ``c_nn`` (compression / tension along z, N, both
  >= 0) and ``c_u``, ``c_v`` (along the frame's x and y axes): the force on v is
  (c_np - c_nn) z + c_u x + c_v y;
- ``face_contact`` / ``edge_contact`` / ``point_contact``, ``contact_points``, ``contact_polygon``;
- ``resultant_local`` [Fu, Fv, Fn] and ``resultant_global`` (N, the force of u on v),
  ``force_magnitude``.

What Extrados adds is in ``results.metadata``: ``stable`` (the verdict), ``load_factor`` and the
collapse ``mechanism`` of a load factor analysis (its hinges, sliding and separating pairs, and
per block its velocity; also on the nodes as ``mechanism_velocity`` [v, w], m/s and rad/s),
``verdict_by`` and the ``overlap_repair`` report (engine.analysis.overlap).
"""
import numpy as np

from extrados.engine.analysis import analyze
from extrados.engine.exchange.compas_dem_model import compas_dem_module, model_document

SOLVER_NAME = "Extrados"


def compas_geometry():
    """compas.geometry and compas_dem.interactions (imported with compas_dem, lazily)."""
    import compas.geometry as geometry
    from compas_dem import interactions
    return geometry, interactions


def contact_frame(geometry, origin, normal):
    """A compas Frame at ``origin`` whose z axis is ``normal`` (unit)."""
    x = np.cross(normal, np.eye(3)[np.argmin(np.abs(normal))])
    x /= np.linalg.norm(x)
    return geometry.Frame(origin.tolist(), x.tolist(), np.cross(normal, x).tolist())


def point_forces(forces_on_v, frame):
    """compas_dem's per-point force dicts of (n, 3) world forces on v in ``frame``."""
    axes = np.array([list(frame.xaxis), list(frame.yaxis), list(frame.zaxis)])
    local = forces_on_v @ axes.T    # (n, 3): c_u, c_v, normal
    return [{"c_np": max(n, 0.0), "c_nn": max(-n, 0.0), "c_u": u, "c_v": v} for u, v, n in local.tolist()]


def contact_object(interactions, points, frame, forces):
    """FrictionContact, EdgeContact or VertexContact of a joint's points, with their forces; its topology flag."""
    if len(points) >= 3:
        contact = interactions.FrictionContact(points=points, frame=frame)
        contact.forces = forces
        return contact, "face_contact"
    if len(points) == 2:
        return interactions.EdgeContact(points=points, frame=frame, forces=forces), "edge_contact"
    return interactions.VertexContact(point=points[0], frame=frame, forces=forces), "point_contact"


def graph_edge(graph, u, v, metadata):
    """The edge (u, v) in the direction the block model's graph has it; a pair it lacks is recorded
    in ``metadata["added_edges"]``, as compas_dem's LMGC90 back end does."""
    if graph.has_edge((v, u)):
        return v, u
    if not graph.has_edge((u, v)):
        metadata.setdefault("added_edges", []).append([u, v])
    return u, v


def write_joint(results, edge, points, forces_on_v, normal_into_v):
    """Write one joint's attributes on ``edge`` (u, v): points (n, 3) m, forces (n, 3) N on v."""
    geometry, interactions = compas_geometry()
    frame = contact_frame(geometry, points.mean(axis=0), normal_into_v)
    forces = point_forces(forces_on_v, frame)
    contact, kind = contact_object(interactions, points.tolist(), frame, forces)
    for flag in ("face_contact", "edge_contact", "point_contact"):
        results.set_edge(edge, flag, flag == kind)
    results.set_edge(edge, "contact_data", contact)
    results.set_edge(edge, "contact_points", points.tolist())
    if kind == "face_contact":
        results.set_edge(edge, "contact_polygon", geometry.Polygon(points.tolist()))
    resultant = forces_on_v.sum(axis=0)
    results.set_edge(edge, "resultant_global", resultant.tolist())
    results.set_edge(edge, "resultant_local", [sum(f["c_u"] for f in forces), sum(f["c_v"] for f in forces),
                                               sum(f["c_np"] - f["c_nn"] for f in forces)])
    results.set_edge(edge, "force_magnitude", float(np.linalg.norm(resultant)))


def write_joints(results, result, nodes, graph):
    """Every joint of an Extrados result on its compas_dem edge (engine.result Interfaces, ContactResults)."""
    contacts, interfaces = result.contacts, result.interfaces
    for k in range(len(interfaces.body_first)):
        rows = slice(interfaces.polygon_start[k], interfaces.polygon_start[k + 1])
        u, v = graph_edge(graph, nodes[interfaces.body_second[k]], nodes[interfaces.body_first[k]],
                          results.metadata)
        on_v = np.where((np.array(nodes)[contacts.body_b[rows]] == v)[:, None], 1.0, -1.0)
        normal_into_v = interfaces.normal[k] if nodes[interfaces.body_first[k]] == v else -interfaces.normal[k]
        write_joint(results, (u, v), contacts.point[rows], on_v * contacts.force[rows], normal_into_v)


def mechanism_of(result):
    """The load factor analysis's collapse mechanism (engine result document), or None."""
    report = result.extra.get("load_factor_report")
    return None if report is None else report["mechanism"]


def write_nodes(results, result, nodes):
    """Per block its transformation (the identity: a static solution stays as drawn, as CRA's) and,
    when a mechanism was found, its velocity in it."""
    geometry, _ = compas_geometry()
    for node in nodes:
        results.set_node(node, "transformation", geometry.Transformation())
    mechanism = mechanism_of(result)
    if mechanism is not None:
        node_of = dict(zip(result.blocks.ids, nodes))
        for block in mechanism["blocks"]:
            results.set_node(node_of[block["id"]], "mechanism_velocity", block["velocity"] + block["angular_velocity"])


def compas_dem_results(result, problem):
    """The compas_dem Results of an Extrados result of ``problem`` (blocks in its model's element order)."""
    blockmodel = problem.model
    results = compas_dem_module("problem").Results(model_id=str(blockmodel.guid), problem_id=str(problem.guid))
    nodes = [element.graphnode for element in blockmodel.elements()]
    write_nodes(results, result, nodes)
    write_joints(results, result, nodes, blockmodel.graph)
    results.metadata.update({"solver": SOLVER_NAME, "analysis": result.analysis, "stable": result.stable,
                             "load_factor": result.load_factor, "mechanism": mechanism_of(result),
                             "verdict_by": result.extra.get("verdict_by"),
                             "overlap_repair": result.extra.get("overlap_repair"),
                             "mu": problem.contact_properties.contact_model.mu})
    return results


def solve_with_extrados(problem, analysis="static", density=None, live=(), live_acceleration=None, settings=None):
    """Solve a compas_dem problem with Extrados, as ``problem.solve()`` does with compas_dem's own back ends.

    Parameters
    ----------
    problem : compas_dem.problem.Problem
        Over a loaded BlockModel (``is_support`` flags its supports), with a contact model.
    analysis : str or dict
        An Extrados analysis request: "static" (default), or "load_factor" with live loads.
    density : float, optional
        kg/m^3 of every block; left out, each block's compas_dem material density.
    live : sequence of str
        Names of the problem's boundary condition groups whose loads the load factor multiplies.
    live_acceleration : (3,) array_like, optional
        m/s^2, a live body acceleration of every block: ``[9.81, 0, 0]`` asks for the horizontal
        load factor, the fraction of g horizontally at which the structure collapses.
    settings : dict, optional
        The Extrados model's settings, e.g. ``{"overlap": {"mode": "shrink"}}`` for the
        DomeTemplate, whose hoops overlap (engine.analysis.overlap).

    Returns
    -------
    compas_dem.problem.Results
        As compas_dem's back ends write it (module docstring), the load factor and mechanism in
        its ``metadata``. The model is not changed.
    """
    result = analyze(model_document(problem, density, live, live_acceleration, settings), analysis)
    return compas_dem_results(result, problem)
