"""A compas_dem `BlockModel` (and its `Problem`) as an Extrados model document, and blocks back.

compas_dem (0.6) is the COMPAS block-model package: a `BlockModel` holds `Block` elements (a
closed mesh each, flagged ``is_support``), a `Problem` over it holds the contact model
(Mohr-Coulomb: ``mu``, cohesion ``c``, tensile cutoff ``t_c``) and boundary conditions (loads).
The conversion keeps the elements' order: block k of the document is ``list(model.elements())[k]``,
its id the element's name when the names are unique and given, else its graph node. Gravity is
the document's default, -9.81 m/s^2 along z, as compas_dem's own back ends apply it.

Each block carries its element's identity as its ``entity`` (seed 002 sec. 2.1), which every result
gives back per block: the element's name as ``stone``, and the attributes of its node in the model's
element tree (``element.treenode.attributes``, which compas_model keeps with the model's data) that
name an entity field (building, wall, leaf, course, stone, type) as those fields, the others as
``attributes``.

`blockmodel_from` goes back: a BlockModel of an Extrados model's blocks (e.g. as settings.overlap cut them).
compas_dem is not a dependency of Extrados: it is imported here only when a conversion runs
(`compas_dem_module`), with the command that installs it in the error when it is missing.
"""
import importlib

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.io.schema import model_schema

INSTALL_HINT = "pip install 'compas_dem>=0.6,<0.7'"
#: The name compas_model gives an element that was not named: not an id.
DEFAULT_ELEMENT_NAME = "Block"
#: m, arm of the force couple that carries a block's moment load (any length gives the same moment).
COUPLE_ARM = 1.0


def compas_dem_module(name):
    """The compas_dem module ``compas_dem.<name>``; ImportError saying how to install compas_dem."""
    try:
        return importlib.import_module(f"compas_dem.{name}")
    except ImportError as exc:
        raise ImportError(f"the compas_dem interop needs compas_dem 0.6 ({INSTALL_HINT}): {exc}") from exc


def element_ids(elements):
    """Block ids of ``elements``: their names when given and unique, else their graph nodes (str)."""
    names = [element.name for element in elements]
    named = all(name and name != DEFAULT_ELEMENT_NAME for name in names) and len(set(names)) == len(names)
    return names if named else [str(element.graphnode) for element in elements]


def entity_fields():
    """The named fields of a block's entity (building, wall, ...), as the model schema's ``$defs/entity`` has them."""
    return tuple(field for field in model_schema()["$defs"]["entity"]["properties"] if field != "attributes")


def scalar(value):
    """``value`` as the entity schema takes an attribute (a string, a number or a boolean; a numpy scalar
    as its Python value), or None for anything else (a list, a geometry, None)."""
    value = value.item() if isinstance(value, np.generic) else value
    return value if isinstance(value, (str, bool, int, float)) else None


def element_entity(element, fields):
    """The entity of one element: its name (unless compas_model's default) as ``stone``, its tree node's
    scalar attributes named by ``fields`` (as strings) as those fields, the other scalar ones as
    ``attributes``; attributes of other types are no entity's and are left out."""
    attributes = {key: scalar(value) for key, value in element.treenode.attributes.items()}
    attributes = {key: value for key, value in attributes.items() if value is not None}
    entity = {} if element.name in (None, "", DEFAULT_ELEMENT_NAME) else {"stone": element.name}
    entity.update({field: str(attributes.pop(field)) for field in fields if field in attributes})
    if attributes:
        entity["attributes"] = attributes
    return entity


def element_density(element, density, block_id):
    """kg/m^3 of one element: ``density`` when given, else its compas_dem material's."""
    if density is not None:
        return float(density)
    material = element.material
    if material is None or getattr(material, "density", None) is None:
        raise ModelError(f"block '{block_id}' (graph node {element.graphnode}) has no material with a density; "
                         "assign one in compas_dem or pass density=", path="blocks", block=block_id)
    return float(material.density)


def block_document(element, block_id, material, entity):
    """The document's block of one element: its model mesh as vertices and polygon faces, its entity
    (`element_entity`) when it has one."""
    vertices, faces = element.modelgeometry.to_vertices_and_faces()
    block = {"id": block_id, "vertices": [[float(x) for x in point] for point in vertices],
             "faces": [[int(i) for i in face] for face in faces], "material": material}
    if element.is_support:
        block["support"] = True
    if entity:
        block["entity"] = entity
    return block


def joint_law(contact_model):
    """The document's joint of a compas_dem contact model: Coulomb with its ``mu``, or Mohr-Coulomb
    when it has a cohesion or a tensile cutoff (Pa, as the model document's)."""
    if contact_model is None:
        raise ModelError("the compas_dem problem has no contact model; call "
                         "problem.set_contact_model('MohrCoulomb', mu=...)", path="joints")
    cohesion, tension = contact_model.c or 0.0, contact_model.t_c or 0.0
    if cohesion == 0.0 and tension == 0.0:
        return {"law": "coulomb", "friction": float(contact_model.mu)}
    return {"law": "mohr_coulomb", "friction": float(contact_model.mu), "cohesion": float(cohesion),
            "tensile_strength": float(tension)}


def centroidal_point_loads(block_id, point, force, moment, live):
    """Point loads of one block equal to ``force`` (N) at ``point`` plus ``moment`` (N m).

    The moment M is a couple: +F at p + (a/2) e and -F at p - (a/2) e with F = (M x e) / a, whose
    moment 2 (a/2) e x F = e x (M x e) = M for a unit e normal to M.
    """
    loads = []
    if np.any(force):
        loads.append({"kind": "point", "block": block_id, "point": point.tolist(), "force": force.tolist(),
                      "live": live})
    if np.any(moment):
        axis = np.eye(3)[np.argmin(np.abs(moment))]
        e = np.cross(moment, axis)
        e /= np.linalg.norm(e)
        couple = np.cross(moment, e) / COUPLE_ARM
        for sign in (1.0, -1.0):
            loads.append({"kind": "point", "block": block_id, "point": (point + sign * 0.5 * COUPLE_ARM * e).tolist(),
                          "force": (sign * couple).tolist(), "live": live})
    return loads


def problem_loads(blockmodel, problem, ids, live_groups):
    """Point loads of the problem's boundary conditions as compas_dem resolves them: a force and a
    moment about each block's ``point`` (the centroid of its mesh); those of the groups named in
    ``live_groups`` are live (the load factor multiplies them)."""
    resolve = compas_dem_module("analysis.resolve")
    elements = {element.graphnode: (k, element) for k, element in enumerate(blockmodel.elements())}
    loads = []
    for group in problem.boundary_conditions:
        for node, entry in resolve.resolve_centroidal_loads(blockmodel, group).items():
            k, element = elements[node]
            loads += centroidal_point_loads(ids[k], np.array(list(element.point), float),
                                            np.array(list(entry["force"]), float),
                                            np.array(list(entry["moment"]), float), group.name in live_groups)
    return loads


def model_document(problem, density=None, live=(), live_acceleration=None, settings=None):
    """The Extrados model document of a compas_dem problem over its block model.

    Parameters
    ----------
    problem : compas_dem.problem.Problem
        With its block model loaded, a contact model (its joint law) and boundary conditions (loads).
    density : float, optional
        kg/m^3 of every block; left out, each block's compas_dem material density.
    live : sequence of str
        Names of the problem's boundary condition groups whose loads the load factor multiplies.
    live_acceleration : (3,) array_like, optional
        m/s^2, a live body acceleration of every block (a horizontal load factor: ``[9.81, 0, 0]``).
    settings : dict, optional
        The document's settings (e.g. ``{"overlap": {"mode": "shrink"}}``).

    Returns
    -------
    dict, a model document; blocks in the order of ``problem.model.elements()``, each with its
    element's entity (`element_entity`).
    """
    blockmodel = problem.model
    elements = list(blockmodel.elements())
    ids = element_ids(elements)
    densities = [element_density(element, density, block_id) for element, block_id in zip(elements, ids)]
    materials = {f"density_{value:g}": {"density": value} for value in densities}
    fields = entity_fields()
    blocks = [block_document(element, block_id, f"density_{value:g}", element_entity(element, fields))
              for element, block_id, value in zip(elements, ids, densities)]
    doc = {"format": "extrados.model/1", "units": "SI", "materials": materials,
           "joints": {"compas_dem": joint_law(problem.contact_properties.contact_model)}, "blocks": blocks}
    if settings:
        doc["settings"] = settings
    loads = problem_loads(blockmodel, problem, ids, set(live))
    if live_acceleration is not None:
        loads.append({"kind": "body_acceleration", "blocks": "all",
                      "acceleration": [float(a) for a in live_acceleration], "live": True})
    if loads:
        doc["loads"] = loads
    return doc


def blockmodel_from(model):
    """A compas_dem BlockModel of an Extrados model's blocks, in order: its supports flagged, each
    element named by its block id. Gives a compas_dem user the blocks as ``settings.overlap``
    repaired them (`engine.analysis.overlap.repaired`) for compas_dem's own back ends.
    """
    models = compas_dem_module("models")
    from compas.datastructures import Mesh
    blockmodel = models.BlockModel()
    for block in model.to_dict()["blocks"]:
        mesh = Mesh.from_vertices_and_faces(block["vertices"], block["faces"])
        node = blockmodel.add_support_from_mesh(mesh) if block.get("support") else blockmodel.add_block_from_mesh(mesh)
        blockmodel.graph.node_element(node).name = block["id"]
    return blockmodel
