"""A model document read against its schema (engine/io/model_schema.json).

The schema owns the fields' types, ranges, defaults and size limits; here are what the model
takes from it (defaults, limits), the checks that run before it (sizes, numbers, nesting) and the
fast path that spares it well-formed blocks.
"""
import jsonschema
import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.io.schema import (SIZE_LIMITS, check_finite, first_error, model_schema, property_defaults,
                                       schema_error)

#: The model document's "format" (the schema's title).
FORMAT = "extrados.model/1"
SCHEMA = model_schema()
_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
#: What the schema gives a document's top-level fields (gravity, materials, joints), its settings
#: (envelope, compliance, solver, max_iterations; the tolerance depends on the analysis:
#: engine.tolerance.SOLVER_DEFAULTS), its blocks (material, support) and its loads (live) when left out.
MODEL_DEFAULTS = property_defaults(SCHEMA, SCHEMA)
SETTINGS_DEFAULTS = property_defaults(SCHEMA["properties"]["settings"], SCHEMA)
BLOCK_DEFAULTS = property_defaults(SCHEMA["$defs"]["block"], SCHEMA)
LOAD_DEFAULTS = property_defaults(SCHEMA["$defs"]["load"]["allOf"][0]["then"], SCHEMA)
#: What the schema gives the fields of settings.overlap left out (engine.analysis.overlap).
OVERLAP_DEFAULTS = property_defaults(SCHEMA["$defs"]["overlap"], SCHEMA)
#: What the schema gives the fields of settings.gaps left out (engine.analysis.joint_gaps).
GAPS_DEFAULTS = property_defaults(SCHEMA["$defs"]["gaps"], SCHEMA)


def _block_label(doc, path):
    """Block id (a string) for an error inside blocks[i], if there is one."""
    if len(path) >= 2 and path[0] == "blocks" and isinstance(path[1], int):
        try:
            label = doc["blocks"][path[1]].get("id")
        except (IndexError, AttributeError):
            return None
        return label if isinstance(label, str) else None
    return None


#: The schema's bound on every number of a model (model_schema.json, $defs/number).
NUMBER_LIMIT = SCHEMA["$defs"]["number"]["maximum"]
_BLOCK_SCHEMA = SCHEMA["$defs"]["block"]["properties"]
#: The schema's limits on a block's size (engine.geometry.polyhedron checks in memory linear in them).
MAX_VERTICES = _BLOCK_SCHEMA["vertices"]["maxItems"]
MAX_FACES = _BLOCK_SCHEMA["faces"]["maxItems"]
MAX_FACE_CORNERS = _BLOCK_SCHEMA["faces"]["items"]["maxItems"]
MAX_POINTS = _BLOCK_SCHEMA["points"]["maxItems"]
_BLOCK_VALIDATOR = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/block"})


#: A block that satisfies the schema, put in place of blocks already known to satisfy it.
PLACEHOLDER_BLOCK = {"id": "placeholder", "vertices": [[0.0, 0.0, 0.0]] * 4, "faces": [[0, 1, 2]] * 4}
BLOCK_FIELDS = frozenset(("id", "vertices", "faces", "points", "material", "support", "entity"))
#: The string fields of a block's entity (model_schema.json, $defs/entity), besides its "attributes".
ENTITY_TEXT_FIELDS = frozenset(SCHEMA["$defs"]["entity"]["properties"]) - {"attributes"}


def _is_number(value):
    return type(value) is float or type(value) is int


def _well_formed_vertices(vertices, limit=MAX_VERTICES):
    """4 to ``limit`` lists of 3 ints or floats within +-NUMBER_LIMIT (no bool, no subclass)."""
    if type(vertices) is not list or not 4 <= len(vertices) <= limit:
        return False
    if not all(type(point) is list and len(point) == 3 and all(map(_is_number, point)) for point in vertices):
        return False
    try:
        return bool((np.abs(np.array(vertices, float)) <= NUMBER_LIMIT).all())
    except OverflowError:
        return False


def _well_formed_faces(faces):
    """4 to MAX_FACES lists of 3 to MAX_FACE_CORNERS ints 0 to MAX_VERTICES - 1 (no bool)."""
    return (type(faces) is list and 4 <= len(faces) <= MAX_FACES
            and all(type(face) is list and 3 <= len(face) <= MAX_FACE_CORNERS
                    and all(type(i) is int and 0 <= i < MAX_VERTICES for i in face) for face in faces))


def _well_formed_entity(entity):
    """An entity of string fields and attributes that are strings, booleans or numbers within
    +-NUMBER_LIMIT (exact types only); a block without one is given {}."""
    if type(entity) is not dict or not entity.keys() <= ENTITY_TEXT_FIELDS | {"attributes"}:
        return False
    attributes = entity.get("attributes", {})
    return (all(type(entity[name]) is str for name in entity.keys() & ENTITY_TEXT_FIELDS)
            and type(attributes) is dict and all(
                type(key) is str and (type(value) in (str, bool) or (_is_number(value) and abs(value) <= NUMBER_LIMIT))
                for key, value in attributes.items()))


def _well_formed_shape(block):
    """Well-formed vertices and faces and no points, or well-formed points and neither of the others."""
    if "points" in block:
        return "vertices" not in block and "faces" not in block and _well_formed_vertices(block["points"], MAX_POINTS)
    return _well_formed_vertices(block.get("vertices")) and _well_formed_faces(block.get("faces"))


def _well_formed_blocks(blocks):
    """True when ``blocks`` certainly satisfies the schema's blocks and holds only finite numbers.

    Stricter than the schema (exact types only), so a False only means: let the schema say.
    """
    return type(blocks) is list and len(blocks) >= 1 and all(
        type(block) is dict and block.keys() <= BLOCK_FIELDS and type(block.get("id")) is str and block["id"] != ""
        and type(block.get("material", "")) is str and type(block.get("support", False)) is bool
        and _well_formed_shape(block) and _well_formed_entity(block.get("entity", {}))
        for block in blocks)


def plain_vertices(vertices, index, field="vertices"):
    """Vertices (or points, ``field``) given to `Model.add_block` (an array or nested sequences) as lists
    of floats; ModelError at ``blocks[index].<field>`` when they are not numbers."""
    try:
        return np.asarray(vertices, float).tolist()
    except (TypeError, ValueError, OverflowError) as exc:
        raise ModelError(f"{field} must be numbers: {exc}", path=f"blocks[{index}].{field}") from None


def plain_faces(faces, index):
    """Faces given to `Model.add_block` as lists of Python ints (numpy integers accepted); what is not
    an integer index is left as it is for the schema to name."""
    try:
        return [[int(i) if isinstance(i, (int, np.integer)) and not isinstance(i, bool) else i for i in face]
                for face in faces]
    except TypeError as exc:
        raise ModelError(f"faces must be lists of vertex indices: {exc}", path=f"blocks[{index}].faces") from None


def check_block_sizes(blocks, start=0):
    """Refuse a block over the schema's size limits (MAX_VERTICES, MAX_FACES, MAX_FACE_CORNERS) before
    the schema reads it: jsonschema would first walk every vertex of it (48 s for a 20,002-gon prism).
    ``start`` is the index in the document of ``blocks[0]``."""
    if type(blocks) is not list:
        return
    for index, block in enumerate(blocks, start):
        if type(block) is not dict:
            continue
        vertices, faces = block.get("vertices"), block.get("faces")
        sizes = [("vertices", vertices, MAX_VERTICES), ("faces", faces, MAX_FACES),
                 ("points", block.get("points"), MAX_POINTS)]
        if type(faces) is list:
            sizes += [(f"faces[{k}]", face, MAX_FACE_CORNERS) for k, face in enumerate(faces)]
        for name, items, limit in sizes:
            if type(items) is list and len(items) > limit:
                label = block.get("id")
                raise ModelError(SIZE_LIMITS["maxItems"].format(n=len(items), limit=limit),
                                 path=f"blocks[{index}].{name}", block=label if isinstance(label, str) else None)


def check_block_shape(block, index):
    """Refuse a block (one that satisfies the schema) that does not give exactly one of its two shapes:
    ``vertices`` and ``faces``, or ``points``; ModelError at the field that is missing or too many."""
    label = block["id"]
    if "points" in block:
        extra = next((name for name in ("vertices", "faces") if name in block), None)
        if extra is not None:
            raise ModelError(f"give either points or vertices and faces, not both ({extra} given with points)",
                             path=f"blocks[{index}].{extra}", block=label)
        return
    for given, missing in (("vertices", "faces"), ("faces", "vertices")):
        if given in block and missing not in block:
            raise ModelError(f"{given} without {missing}: give both, or points instead",
                             path=f"blocks[{index}].{missing}", block=label)
    if "vertices" not in block:
        raise ModelError("a block needs its vertices and faces, or its points", path=f"blocks[{index}]", block=label)


def validate_block(block, index):
    """Check one block dict (`Model.add_block`) as `validate_schema` checks a document's blocks,
    raising ModelError at ``blocks[index]…``."""
    check_block_sizes([block], index)
    check_finite(block, ("blocks", index))
    error = first_error(_BLOCK_VALIDATOR, block)
    if error is not None:
        raise schema_error(error, root_path=("blocks", index))
    check_block_shape(block, index)


def validate_schema(doc, blocks_checked=False):
    """Raise ModelError for the first schema violation, with its field path.

    Well-formed blocks (`_well_formed_blocks`) give the schema nothing to say, so the schema then
    reads the document with one placeholder block: the same errors, without walking every vertex.
    ``blocks_checked`` says the blocks are known to be well-formed (identical to blocks checked before).
    """
    if not isinstance(doc, dict):
        raise ModelError("the model document must be a JSON object")
    if not blocks_checked:
        check_block_sizes(doc.get("blocks"))
    well_formed = blocks_checked or _well_formed_blocks(doc.get("blocks"))
    checked = dict(doc, blocks=[PLACEHOLDER_BLOCK]) if well_formed else doc
    check_finite(checked)
    error = first_error(_VALIDATOR, checked)
    if error is not None:
        raise schema_error(error, block_of=lambda path: _block_label(doc, path))
    if not well_formed:
        for index, block in enumerate(doc["blocks"]):
            check_block_shape(block, index)
