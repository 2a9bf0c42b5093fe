"""The deformable blocks of a model: its documents' ``deformable`` fields, checked, meshed (issue 23).

A block is deformable when it or its material has a ``deformable`` object (the block's wins); supports stay
rigid (a support's own ``deformable`` is an error, its material's is ignored). Each is meshed about its centre
of mass at its mesh size (engine.deformable.tetra_mesh, then engine.deformable.quadratic for 10-node
tetrahedra) and becomes an ElasticBody (engine.deformable.body).
"""
import numpy as np

from extrados.engine.deformable.body import ElasticBody
from extrados.engine.deformable.quadratic import quadratic_mesh
from extrados.engine.deformable.tetra_mesh import mesh_block
from extrados.engine.errors import ModelError
from extrados.engine.io.model_document import SCHEMA
from extrados.engine.io.schema import property_defaults

#: Most tetrahedra in one block, and in all the deformable blocks of a model: a block of 20,000 10-node
#: tetrahedra has about 90,000 degrees of freedom, whose factorisation takes seconds.
MAX_BLOCK_TETRAHEDRA = 20_000
MAX_MODEL_TETRAHEDRA = 500_000
#: Tetrahedra per mesh-size cube that a Delaunay mesh of a jittered grid holds, for the estimate made before meshing.
TETRAHEDRA_PER_CELL = 20.0
#: The default mesh size as a fraction of the cube root of the block's volume: 40 to 60 tetrahedra in a brick.
DEFAULT_SIZE = 0.75
#: A contact spacing must cut a block's largest extent into at most this many pieces (engine.deformable.joint_points).
MAX_SPACING_PIECES = 1000
#: The schema's defaults of a ``deformable`` field (element, theta).
DEFAULTS = property_defaults(SCHEMA["$defs"]["deformable"], SCHEMA)


def deformable_field(block, materials, material):
    """The block's ``deformable`` object with its defaults, or None for a rigid block."""
    given = block.get("deformable", materials[material].get("deformable"))
    return None if given is None else {**DEFAULTS, **given}


def has_deformable(blocks, materials, material_of):
    """Whether any movable block of the document is deformable (no geometry needed)."""
    return any(deformable_field(b, materials, material_of(b)) is not None or "deformable" in b for b in blocks)


def deformable_plan(blocks, materials, material_of, volume):
    """(index, field, mesh size, path) of each deformable block of checked ``blocks`` (model document dicts),
    their ``materials`` (name -> dict), ``material_of(block)`` and volumes (n_blocks,) m^3.

    Raises
    ------
    ModelError
        At ``blocks[i].deformable`` (or the material's): a support given one, or a mesh size that would give
        the block more than MAX_BLOCK_TETRAHEDRA, or the model more than MAX_MODEL_TETRAHEDRA.
    """
    plan, total = [], 0.0
    for index, block in enumerate(blocks):
        if block.get("support", False):
            if "deformable" in block:
                raise ModelError("a support is rigid: it cannot be deformable", path=f"blocks[{index}].deformable",
                                 block=block["id"])
            continue
        field = deformable_field(block, materials, material_of(block))
        if field is None:
            continue
        path = f"blocks[{index}].deformable" if "deformable" in block else \
            f"materials.{material_of(block)}.deformable"
        size = field.get("mesh_size", DEFAULT_SIZE * float(volume[index]) ** (1.0 / 3.0))
        expected = TETRAHEDRA_PER_CELL * float(volume[index]) / size ** 3
        if expected > MAX_BLOCK_TETRAHEDRA:
            smallest = (TETRAHEDRA_PER_CELL * float(volume[index]) / MAX_BLOCK_TETRAHEDRA) ** (1.0 / 3.0)
            raise ModelError(f"a mesh size of {size:g} m would cut block '{block['id']}' into about {expected:.0f} "
                             f"tetrahedra, more than {MAX_BLOCK_TETRAHEDRA}; use a mesh size of at least "
                             f"{smallest:.3g} m", path=path + ".mesh_size", block=block["id"])
        check_contact_spacing(block, field, path)
        total += expected
        if total > MAX_MODEL_TETRAHEDRA:
            raise ModelError(f"the deformable blocks would hold about {total:.0f} tetrahedra, more than "
                             f"{MAX_MODEL_TETRAHEDRA}; use larger mesh sizes or fewer deformable blocks",
                             path=path + ".mesh_size", block=block["id"])
        plan.append((index, field, size, path))
    return plan


def check_contact_spacing(block, field, path):
    """Refuse a contact spacing that would cut the block's largest extent into more than MAX_SPACING_PIECES."""
    spacing = field.get("contact_spacing")
    if spacing is None:
        return
    extent = float(np.ptp(np.asarray(block["vertices"], float), axis=0).max())
    if extent / spacing > MAX_SPACING_PIECES:
        raise ModelError(f"a contact spacing of {spacing:g} m would cut block '{block['id']}' ({extent:g} m) into "
                         f"more than {MAX_SPACING_PIECES} pieces; use at least {extent / MAX_SPACING_PIECES:.3g} m",
                         path=path + ".contact_spacing", block=block["id"])


def elastic_bodies(blocks, materials, material_of, geometry):
    """Block index -> ElasticBody of the deformable blocks (``deformable_plan``), meshed about their centres
    of mass (BlockGeometry ``geometry``)."""
    bodies = {}
    for index, field, size, path in deformable_plan(blocks, materials, material_of, geometry.volume):
        block = blocks[index]
        mesh = block_mesh(block, geometry.centre[index], size, field["element"], path)
        bodies[index] = ElasticBody(mesh, float(field["E"]), float(field["nu"]),
                                    float(materials[material_of(block)]["density"]), float(field["theta"]),
                                    field.get("contact_spacing"))
    return bodies


def block_mesh(block, centre, size, element, path):
    """The TetraMesh of a checked block about its centre of mass ``centre`` (3,), at ``size`` (m)."""
    vertices = np.asarray(block["vertices"], float) - centre
    try:
        mesh = mesh_block(vertices, block["faces"], size)
    except ValueError as exc:
        raise ModelError(str(exc), path=path + ".mesh_size", block=block["id"]) from exc
    if element == "tet10":
        mesh = quadratic_mesh(mesh)
    return mesh
