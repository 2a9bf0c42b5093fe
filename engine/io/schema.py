"""The JSON schemas of the documents: the one owner of their fields' types, ranges and defaults.

``model_schema.json`` and ``analysis_schema.json`` (draft 2020-12) say what a field may hold and
what it is when left out (``"default"``); code adds only the checks that span several fields.
``result_schema.json`` says what every analysis writes.
The solver's defaults are the one exception: they live in engine.tolerance.SOLVER_DEFAULTS beside
the tolerances they go with, and the model schema is given them as it is loaded, so that the
published schema states them too.

A schema error becomes a ModelError naming the field (``analysis.time_step``,
``blocks[3].vertices``); an unknown field is named itself, not its parent object.
"""
import copy
import json
import math
import sys
from functools import cache
from importlib import resources

import jsonschema

from extrados.engine.errors import ModelError, format_path
from extrados.engine.tolerance import SOLVER_DEFAULTS


@cache
def _schema_text(name):
    return resources.files("extrados.engine.io").joinpath(name).read_text()


def model_schema():
    """The model document's schema (a fresh dict), with the solver's defaults in ``settings``."""
    schema = json.loads(_schema_text("model_schema.json"))
    settings = schema["properties"]["settings"]["properties"]
    settings["solver"]["default"] = SOLVER_DEFAULTS.solver
    settings["max_iterations"]["default"] = SOLVER_DEFAULTS.max_iterations
    settings["tolerance"]["description"] = SOLVER_DEFAULTS.tolerance_description()
    return schema


def analysis_schema():
    """The analysis request's schema (a fresh dict): one ``$defs`` entry per analysis type."""
    return json.loads(_schema_text("analysis_schema.json"))


def result_schema():
    """The result document's schema (a fresh dict): what every analysis writes, field by field."""
    return json.loads(_schema_text("result_schema.json"))


def request_default(kind, name):
    """The default of field ``name`` of a ``kind`` analysis request (e.g. its time step), as the schema gives it."""
    schema = analysis_schema()
    return property_defaults(schema["$defs"][kind], schema)[name]


def resolved(node, root):
    """The subschema ``node`` with a local ``{"$ref": "#/$defs/name"}`` followed (once per level)."""
    while "$ref" in node and node["$ref"].startswith("#/"):
        target = root
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = {**target, **{key: value for key, value in node.items() if key != "$ref"}}
    return node


def property_defaults(node, root):
    """{field: default} of the object schema ``node``'s properties that have one (``root`` resolves $refs)."""
    properties = resolved(node, root).get("properties", {})
    return {name: resolved(field, root)["default"] for name, field in properties.items()
            if "default" in resolved(field, root)}


def with_defaults(document, node, root):
    """A copy of the object ``document`` with the defaults of ``node``'s properties where it has none,
    and in the objects it holds whose schema names their properties, a default object included (a
    missing ``"outputs"`` of default ``{}`` gets its fields' defaults); ``node`` must be checked first."""
    properties = resolved(node, root).get("properties", {})
    filled = {name: with_defaults(value, properties[name], root)
              if isinstance(value, dict) and name in properties else value for name, value in document.items()}
    for name, value in property_defaults(node, root).items():
        if name not in filled:
            default = copy.deepcopy(value)
            filled[name] = with_defaults(default, properties[name], root) if isinstance(default, dict) else default
    return filled


def unknown_fields(error):
    """The fields an ``additionalProperties: false`` error found, in the document's order."""
    allowed = set(error.schema.get("properties", {}))
    return [name for name in error.instance if name not in allowed]


#: Deepest nesting of lists and objects in a document: a model nests 5 deep (blocks[i].faces[j][k]),
#: and 500 levels made hashing and copying it raise RecursionError.
MAX_NESTING = 32
#: The largest float; a larger integer has no float value.
FLOAT_LIMIT = sys.float_info.max
#: What a bound error says instead of jsonschema's message, which writes the whole number.
NUMBER_BOUNDS = {"maximum": "greater than the maximum of", "exclusiveMaximum": "not less than",
                 "minimum": "less than the minimum of", "exclusiveMinimum": "not greater than"}
#: What a size error says instead of jsonschema's message, which repeats the whole (long) value.
SIZE_LIMITS = {"maxItems": "{n} items, more than the limit of {limit}",
               "minItems": "{n} items, fewer than the {limit} needed",
               "maxLength": "{n} characters, more than the limit of {limit}"}


def schema_error(error, root_path=(), document=None, block_of=None):
    """The ModelError of a jsonschema ValidationError, at ``root_path`` + the error's path.

    ``block_of(path)`` names the block an error inside ``blocks[i]`` concerns, if any.
    """
    path = list(error.absolute_path)
    message = error.message
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        unknown = unknown_fields(error)
        if unknown:
            path.append(unknown[0])
            message = f"unknown field '{unknown[0]}'"
    elif error.validator in SIZE_LIMITS and isinstance(error.instance, (list, str)):
        message = SIZE_LIMITS[error.validator].format(n=len(error.instance), limit=error.validator_value)
    elif error.validator in NUMBER_BOUNDS and isinstance(error.instance, (int, float)):
        message = f"{float(error.instance):.6g} is {NUMBER_BOUNDS[error.validator]} {error.validator_value:g}"
    block = block_of(path) if block_of else None
    return ModelError(message, path=format_path([*root_path, *path]) or None, block=block)



def first_error(validator, document):
    """The most relevant schema violation of ``document`` (jsonschema's best match), or None."""
    errors = sorted(validator.iter_errors(document), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    return jsonschema.exceptions.best_match(errors) if errors else None


def check_finite(node, path=()):
    """Refuse, naming where, what the schema cannot read: NaN and infinity, an integer beyond the
    float range (10**400: Python's int to float or str conversion raises), and lists or objects
    nested deeper than MAX_NESTING (hashing, copying and the schema recurse: RecursionError).

    The document is walked without recursion, ``path`` being where ``node`` sits.
    """
    pending = [(node, path)]
    while pending:
        value, where = pending.pop()
        if type(value) is float and not math.isfinite(value):
            raise ModelError(f"{value} is not a finite number", path=format_path(where) or None)
        if type(value) is int and not -FLOAT_LIMIT <= value <= FLOAT_LIMIT:
            raise ModelError("an integer too large for a floating-point number", path=format_path(where) or None)
        if isinstance(value, (dict, list)):
            if len(where) - len(path) >= MAX_NESTING:
                raise ModelError(f"lists and objects nested more than {MAX_NESTING} deep",
                                 path=format_path(where) or None)
            items = value.items() if isinstance(value, dict) else enumerate(value)
            pending.extend((item, (*where, key)) for key, item in items)
