"""The Hops functions of the service: a static analysis and a collapse load factor of blocks drawn in Rhino.

Both take the blocks as Grasshopper geometry (closed Breps, Extrusions or Meshes of convex blocks, in the
document's units), support blocks, a ground slab if asked for, one Coulomb joint law (friction) and a
density, and point loads (N at points on blocks). The geometry becomes a model document through the
Grasshopper package's own conversions (``extrados.grasshopper.conversions``, the code the full components
run inside Rhino), scaled to metres by the document's units, and is analysed through the service's cache,
as ``POST /v1/analyses`` would. Geometry comes back in the document's units; forces are in N.
"""
import math

from extrados.grasshopper import conversions
from extrados.grasshopper.model_components import LOAD_POINT_TOLERANCE, block_at, ground_slab
from extrados.server.hops.protocol import Function, HopsError, Param

#: The drawn length of the largest joint resultant when ForceScale is 0 (automatic), as a fraction of the
#: model's size (the diagonal of its bounding box).
RESULTANT_DRAWN_FRACTION = 0.25

BLOCK_INPUTS = (
    Param("Blocks", "Geometry", "closed Breps, Extrusions or Meshes of convex blocks (document units)", many=True),
    Param("Supports", "Geometry", "blocks that do not move: springers, abutments, a ground", many=True,
          optional=True),
    Param("Ground", "Boolean", "add a support slab under all the blocks", default=False),
    Param("Friction", "Number", "Coulomb friction coefficient of every joint", default=0.6),
    Param("Density", "Number", "density of the blocks, kg/m3", default=2000.0),
    Param("LoadPoints", "Point", "points on blocks where forces act", many=True, optional=True),
    Param("LoadForces", "Vector", "forces at LoadPoints, N: one for all, or one per point", many=True,
          optional=True),
    Param("Chain", "Integer", "indices into Blocks of a chain whose thrust line to draw (e.g. an arch ring in a "
                              "wall); empty: the automatic one", many=True, optional=True),
    Param("ForceScale", "Number", "document units per kN of the drawn forces; 0: the largest joint resultant "
                                  "is drawn a quarter of the model's size", default=0.0),
)


def model_of(inputs, units, live):
    """The model document (metres) of a function's inputs, and the ids of the Blocks items in order.

    Raises
    ------
    HopsError
        Geometry that is not a closed convex block (naming the item), a load point on no block, counts that
        do not match, or values out of range.
    """
    friction, density = inputs["Friction"], inputs["Density"]
    if friction < 0.0:
        raise HopsError(f"Friction must be zero or positive; got {friction:g}")
    if not density > 0.0:
        raise HopsError(f"Density must be positive (kg/m3); got {density:g}")
    ids = [f"b{i}" for i in range(len(inputs["Blocks"]))]
    support_ids = [f"s{i}" for i in range(len(inputs["Supports"]))]
    try:
        blocks = conversions.blocks_from_geometry(inputs["Blocks"] + inputs["Supports"], ids + support_ids,
                                                  supports=[False] * len(ids) + [True] * len(support_ids),
                                                  tolerance=units.tolerance)
    except conversions.ConversionError as error:
        raise HopsError(described_block_error(error)) from None
    except (ArithmeticError, AttributeError, IndexError, TypeError, ValueError) as error:
        # geometry rhino3dm decoded from damaged data can be anything
        raise HopsError(f"Blocks or Supports: a piece of geometry cannot be read as a block ({error})") from None
    blocks = [scaled_block(block, units.metres) for block in blocks]
    if inputs["Ground"]:
        blocks.append(ground_slab(blocks))
    if not any(block["support"] for block in blocks):
        raise HopsError("no block is a support: connect Supports, or set Ground to true")
    materials = {conversions.DEFAULT_MATERIAL: {"density": density}}
    joints = {conversions.DEFAULT_JOINT: {"law": "coulomb", "friction": friction}}
    loads = point_loads(inputs, blocks, units, live)
    return conversions.model_document(blocks, materials, joints, loads=loads), ids


def described_block_error(error):
    """A conversion error naming the input item (Blocks[i] or Supports[i]) instead of the internal id."""
    block_id = error.block_id or ""
    message = str(error)
    if block_id[:1] in ("b", "s") and block_id[1:].isdigit():
        item = f"Blocks[{block_id[1:]}]" if block_id[0] == "b" else f"Supports[{block_id[1:]}]"
        message = message.replace(f"block '{block_id}'", item)
    return message


def scaled_block(block, metres):
    """A block entry with its vertices from document units to metres."""
    return {**block, "vertices": [[metres * c for c in vertex] for vertex in block["vertices"]]}


def point_loads(inputs, blocks, units, live):
    """Point load entries of LoadPoints and LoadForces, each on the block its point lies in or on."""
    points, forces = inputs["LoadPoints"], inputs["LoadForces"]
    if len(forces) == 1 and len(points) > 1:
        forces = forces * len(points)
    if len(points) != len(forces):
        raise HopsError(f"{len(points)} LoadPoints for {len(forces)} LoadForces: give one force, or one per point")
    tolerance = LOAD_POINT_TOLERANCE * (conversions.block_size(blocks) or 1.0)
    if units.tolerance is not None:
        tolerance = max(tolerance, units.tolerance * units.metres)
    loads = []
    for k, (point, force) in enumerate(zip(points, forces)):
        metres = [units.metres * c for c in point]
        block_id = block_at(metres, blocks, tolerance)
        if block_id is None:
            raise HopsError(f"LoadPoints[{k}] {list(point)} lies on no block")
        loads.append(conversions.point_load(block_id, metres, force, live))
    return loads


def analysis_request(kind, inputs, ids):
    """The analysis request of ``kind``, with a thrust_line entry for a Chain input (indices into Blocks)."""
    analysis = {"type": kind}
    chain = inputs["Chain"]
    for k, index in enumerate(chain):
        if not 0 <= index < len(ids):
            raise HopsError(f"Chain[{k}] is {index}, but Blocks has {len(ids)} items (indices 0 to {len(ids) - 1})")
    if chain:
        analysis["thrust_line"] = {"chain": [ids[i] for i in chain]}
    return analysis


def warning_messages(result):
    """The messages of a result's warnings."""
    return [w.get("message", str(w)) if isinstance(w, dict) else str(w) for w in result.get("warnings", [])]


def drawn_outputs(result, inputs, units, model):
    """The geometry outputs of a result in document units: thrust lines, joint resultants, contact forces."""
    to_document = 1.0 / units.metres
    interfaces = [i for i in result.get("interfaces", []) if i.get("centre") is not None]
    scale = force_scale(inputs["ForceScale"], interfaces, model, units)      # document units per N
    centres = [scaled(i["centre"], to_document) for i in interfaces]
    forces = [tuple(i["force"]) for i in interfaces]
    resultants = [(c, added(c, scaled(f, scale))) for c, f in zip(centres, forces)]
    contacts = []
    for contact in result.get("contacts", []):
        if any(contact["force"]):
            start = scaled(contact["point"], to_document)
            contacts.append((start, added(start, scaled(contact["force"], scale))))
    thrust = [[scaled(p, to_document) for p in line["points"] if p is not None]
              for line in result.get("thrust_lines", [])]
    return {"ThrustLines": [line for line in thrust if len(line) >= 2], "Resultants": resultants,
            "Centres": centres, "Forces": forces, "Contacts": contacts}


def force_scale(per_kn, interfaces, model, units):
    """Document units per N of the drawn forces: ForceScale / 1000, or automatic when it is 0."""
    if per_kn < 0.0:
        raise HopsError(f"ForceScale must be zero (automatic) or positive; got {per_kn:g}")
    if per_kn > 0.0:
        return per_kn / 1000.0
    largest = max((math.sqrt(sum(c * c for c in i["force"])) for i in interfaces), default=0.0)
    size = conversions.block_size(model["blocks"]) / units.metres
    return RESULTANT_DRAWN_FRACTION * size / largest if largest > 0.0 else 0.0


def scaled(xyz, factor):
    return tuple(factor * float(c) for c in xyz)


def added(a, b):
    return tuple(x + y for x, y in zip(a, b))


def solver_line(result):
    """One line on how the solve went: solver, iterations, residual, converged."""
    solver = result.get("solver") or {}
    state = "converged" if solver.get("converged") else "NOT converged"
    return (f"solver {solver.get('name')}: {solver.get('iterations')} iterations, residual "
            f"{solver.get('residual', float('nan')):.2e}, {state}")


def static_analysis(analyze, inputs, units):
    """The Analyze function: stands or not, the thrust lines, the joint resultants and the contact forces."""
    model, ids = model_of(inputs, units, live=False)
    result = analyze(model, analysis_request("static", inputs, ids))
    verdict = "stands" if result["stable"] else "does not stand"
    report = [f"{len(model['blocks'])} blocks, {len(result['contacts'])} contacts: the structure {verdict} "
              f"(decided by {result.get('verdict_by')})", solver_line(result)]
    warnings = warning_messages(result)
    return {"Stable": bool(result["stable"]), **drawn_outputs(result, inputs, units, model),
            "Report": "\n".join(report + warnings)}, warnings


def load_factor_analysis(analyze, inputs, units):
    """The LoadFactor function: the factor on the live loads (the point loads and a body acceleration) at
    collapse, the mechanism's hinges, and the thrust lines and forces at the last standing factor."""
    model, ids = model_of(inputs, units, live=True)
    acceleration = inputs["Acceleration"]
    if any(acceleration):
        model.setdefault("loads", []).append({"kind": "body_acceleration", "blocks": "all",
                                              "acceleration": list(acceleration), "live": True})
    if not model.get("loads"):
        raise HopsError("a load factor multiplies live loads: give LoadPoints and LoadForces, or an Acceleration "
                        "(e.g. 9.81, 0, 0 for a horizontal acceleration of g)")
    result = analyze(model, analysis_request("load_factor", inputs, ids))
    report = result["load_factor_report"]
    mechanism = report.get("mechanism") or {}
    hinges = [scaled(h["pivot"], 1.0 / units.metres) for h in mechanism.get("hinges", [])]
    factor = report.get("nscd")
    lines = [f"load factor {factor if factor is None else f'{factor:.4g}'} ({report['status']}), limit analysis "
             f"{report.get('limit_analysis')}, {report['solves']} static solves", solver_line(result)]
    warnings = warning_messages(result)
    return {"LoadFactor": factor, "Status": report["status"], "Hinges": hinges,
            **drawn_outputs(result, inputs, units, model), "Report": "\n".join(lines + warnings)}, warnings


DRAWN_OUTPUTS = (
    Param("ThrustLines", "Curve", "the effective thrust lines (document units)", many=True),
    Param("Resultants", "Line", "each joint's resultant drawn from its centre of pressure", many=True),
    Param("Centres", "Point", "each joint's centre of pressure", many=True),
    Param("Forces", "Vector", "each joint's resultant force, N (on the second block of the joint)", many=True),
    Param("Contacts", "Line", "each contact force drawn from its point", many=True),
    Param("Report", "Text", "how the analysis went: verdict, solver, warnings"),
)

ANALYZE = Function(
    "analyze", "Static analysis of rigid blocks (Extrados NSCD): does it stand, and where does the thrust go",
    BLOCK_INPUTS, (Param("Stable", "Boolean", "true when the structure stands under its loads"),) + DRAWN_OUTPUTS,
    static_analysis)

LOAD_FACTOR = Function(
    "load_factor", "Collapse load factor of rigid blocks (Extrados NSCD bisection, bracketed by limit analysis)",
    BLOCK_INPUTS + (Param("Acceleration", "Vector", "a body acceleration of every block that the factor multiplies, "
                                                    "m/s2 (e.g. 9.81, 0, 0)", default=(0.0, 0.0, 0.0)),),
    (Param("LoadFactor", "Number", "the largest factor on the live loads at which the structure stands "
                                   "(empty when it fails under its dead loads alone)"),
     Param("Status", "Text", "collapse, stands_at_max_factor or fails_under_dead_loads"),
     Param("Hinges", "Point", "the pivots of the collapse mechanism's hinges (document units)", many=True))
    + DRAWN_OUTPUTS,
    load_factor_analysis)

#: The service's Hops functions by name: GET /hops/<name> describes one, POST /hops/<name> (or /solve) runs it.
FUNCTIONS = {function.name: function for function in (ANALYZE, LOAD_FACTOR)}
