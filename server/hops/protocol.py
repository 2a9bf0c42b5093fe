"""The Hops protocol: how Rhino's Hops component asks a service what a function takes and gives, and calls it.

Hops (Rhino 7 and 8) is given an address such as ``http://127.0.0.1:8765/hops/analyze``. It GETs it and reads
the function's description (Resthopper's ``IoResponseSchema``: Description, Inputs, Outputs), then, with its
inputs wired, POSTs a solve request to ``/solve`` of the same host: ``pointer`` names the function
(``hops/analyze``), ``values`` holds one data tree per input, and ``modelunits`` and ``absolutetolerance`` are
those of the Rhino document. Each tree is ``{"{0}": [{"type": "System.Double", "data": "1.5"}, ...]}``; every
``data`` is JSON text: a number, a string, a point ``{"X", "Y", "Z"}``, or a piece of geometry as
RhinoCommon's ``ToJSON`` writes it (``{"version", "archive3dm", "opennurbs", "data"}``), which rhino3dm
decodes. The answer has the same shape, one tree per output, and ``errors`` and ``warnings`` that Hops shows on
the component.

A function is a `Function`: its `Param` inputs and outputs and a handler from the inputs (plain Python values,
rhino3dm geometry) to the outputs. What is wrong with a request raises `HopsError`, whose message names the
input and the item.
"""
import json
import math
from dataclasses import dataclass, field

import rhino3dm

#: Metres per unit of the Rhino unit systems a model is drawn in (``modelunits``, RhinoCommon's UnitSystem names).
METRES_PER_UNIT = {
    "Microns": 1e-6, "Millimeters": 1e-3, "Centimeters": 1e-2, "Decimeters": 0.1, "Meters": 1.0,
    "Dekameters": 10.0, "Hectometers": 100.0, "Kilometers": 1e3, "Mils": 2.54e-5, "Inches": 0.0254,
    "Feet": 0.3048, "Yards": 0.9144,
}
#: Item counts a list input takes (Resthopper's AtMost of a list: the largest 32-bit integer).
LIST_AT_MOST = 2147483647
#: Grasshopper parameter type -> the Resthopper type name of its items in an answer.
RESULT_TYPES = {
    "Boolean": "System.Boolean", "Number": "System.Double", "Integer": "System.Int32", "Text": "System.String",
    "Point": "Rhino.Geometry.Point3d", "Vector": "Rhino.Geometry.Vector3d", "Line": "Rhino.Geometry.Line",
    "Curve": "Rhino.Geometry.PolylineCurve", "Geometry": "Rhino.Geometry.GeometryBase",
}
#: Geometry types whose ``data`` rhino3dm decodes.
GEOMETRY_TYPES = ("Rhino.Geometry.Brep", "Rhino.Geometry.Extrusion", "Rhino.Geometry.Mesh")


class HopsError(ValueError):
    """A solve request the function cannot answer; ``status`` is the HTTP status of the answer."""

    def __init__(self, message, status=422):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Param:
    """One input or output of a Hops function, as Grasshopper shows it."""

    name: str
    param_type: str                 # a key of RESULT_TYPES
    description: str
    many: bool = False              # a list, not one item
    default: object = None          # an item input's value when it gets none; None: required
    optional: bool = False          # a list input that may get no item

    def input_schema(self):
        """Resthopper's InputParamSchema of this input."""
        schema = {"Name": self.name, "Nickname": self.name, "Description": self.description,
                  "ParamType": self.param_type, "ResultType": RESULT_TYPES[self.param_type],
                  "AtLeast": 0 if self.optional else 1, "AtMost": LIST_AT_MOST if self.many else 1,
                  "TreeAccess": False}
        if self.default is not None:
            schema["Default"] = xyz_object(self.default) if self.param_type in ("Point", "Vector") else self.default
        return schema

    def output_schema(self):
        """Resthopper's IoParamSchema of this output."""
        return {"Name": self.name, "Nickname": self.name, "Description": self.description,
                "ParamType": self.param_type, "ResultType": RESULT_TYPES[self.param_type],
                "AtLeast": 1, "AtMost": LIST_AT_MOST if self.many else 1}


@dataclass(frozen=True)
class Function:
    """A Hops function: ``handler(inputs, units)`` takes the inputs by name and a `Units`, returns the outputs
    by name (lists for list outputs)."""

    name: str
    description: str
    inputs: tuple
    outputs: tuple
    handler: object = field(compare=False)

    def description_schema(self, uri):
        """What a GET of the function's address answers (Resthopper's IoResponseSchema)."""
        return {"Uri": uri, "Name": self.name, "Nickname": self.name, "Description": self.description,
                "Category": "Extrados", "Subcategory": "Hops",
                "InputNames": [p.name for p in self.inputs], "OutputNames": [p.name for p in self.outputs],
                "Inputs": [p.input_schema() for p in self.inputs],
                "Outputs": [p.output_schema() for p in self.outputs], "Warnings": [], "Errors": []}


@dataclass(frozen=True)
class Units:
    """The Rhino document's units: metres per model unit, and its absolute tolerance in model units."""

    metres: float = 1.0
    tolerance: float = None

    @classmethod
    def of_request(cls, body):
        """The units a solve request names (``modelunits``; metres when it names none)."""
        name = body.get("modelunits") or "Meters"
        if not isinstance(name, str) or name not in METRES_PER_UNIT:
            raise HopsError(f"modelunits {name!r} is not a length unit Extrados reads (one of "
                            f"{', '.join(METRES_PER_UNIT)})")
        tolerance = body.get("absolutetolerance")
        if not isinstance(tolerance, (int, float)) or isinstance(tolerance, bool) or not 0 < tolerance < math.inf:
            tolerance = None
        return cls(METRES_PER_UNIT[name], tolerance)


def solve_request_inputs(function, body):
    """The inputs of a solve request by name: one value per item input, a list per list input.

    Raises
    ------
    HopsError
        An unknown or missing input, an item that is not of the input's type, or a number that is not finite.
    """
    if not isinstance(body, dict) or not isinstance(body.get("values", []), list):
        raise HopsError('a Hops solve request is a JSON object with "values": a list of data trees', 400)
    trees = {}
    for k, tree in enumerate(body.get("values", [])):
        if not isinstance(tree, dict) or not isinstance(tree.get("ParamName"), str):
            raise HopsError(f"values[{k}] is not a data tree with a ParamName", 400)
        trees[tree["ParamName"]] = tree
    known = {p.name for p in function.inputs}
    unknown = sorted(set(trees) - known)
    if unknown:
        raise HopsError(f"{function.name} has no input {unknown[0]!r} (its inputs: {', '.join(sorted(known))})")
    return {p.name: input_value(p, tree_items(trees.get(p.name), p.name)) for p in function.inputs}


def tree_items(tree, name):
    """The items of a data tree, its branches in path order."""
    if tree is None:
        return []
    branches = tree.get("InnerTree", {})
    if not isinstance(branches, dict):
        raise HopsError(f"input {name}: InnerTree is not an object of branches", 400)
    items = []
    for path in sorted(branches, key=branch_order):
        branch = branches[path]
        if not isinstance(branch, list):
            raise HopsError(f"input {name}: branch {path} is not a list of items", 400)
        items.extend(branch)
    return items


def branch_order(path):
    """Sort key of a branch path such as ``{0;2}``: its indices as numbers."""
    return [int(token) if token.strip().isdigit() else 0 for token in path.strip("{}").split(";")]


def input_value(param, items):
    """One value (or a list) of an input from its items."""
    values = [item_value(param, item, k) for k, item in enumerate(items)]
    if param.many:
        if not values and not param.optional:
            raise HopsError(f"input {param.name} needs at least one item")
        return values
    if len(values) > 1:
        raise HopsError(f"input {param.name} takes one item; it got {len(values)}")
    if values:
        return values[0]
    if param.default is None:
        raise HopsError(f"input {param.name} needs an item")
    return param.default


def item_value(param, item, k):
    """The Python value of one item of a data tree (rhino3dm geometry for geometry)."""
    where = f"input {param.name}, item {k}"
    if not isinstance(item, dict) or not isinstance(item.get("data"), str):
        raise HopsError(f"{where}: an item is an object with a type and its data as JSON text", 400)
    kind = item.get("type", "")
    try:
        data = json.loads(item["data"])
    except ValueError:
        raise HopsError(f"{where}: its data is not JSON text", 400) from None
    if param.param_type == "Geometry":
        return geometry_value(data, kind, where)
    if param.param_type in ("Point", "Vector"):
        return finite_xyz(data, where)
    if param.param_type == "Number":
        return finite_number(data, where)
    if param.param_type == "Integer":
        if isinstance(data, float) and data.is_integer():
            data = int(data)
        if not isinstance(data, int) or isinstance(data, bool):
            raise HopsError(f"{where}: {data!r} is not an integer")
        return data
    if param.param_type == "Boolean":
        if isinstance(data, str) and data.lower() in ("true", "false"):
            return data.lower() == "true"
        if not isinstance(data, bool):
            raise HopsError(f"{where}: {data!r} is not true or false")
        return data
    if param.param_type == "Text":
        return str(data)
    raise HopsError(f"{where}: Extrados takes no input of type {param.param_type}")


def finite_number(data, where):
    if isinstance(data, str):
        try:
            data = float(data)
        except ValueError:
            pass
    if not isinstance(data, (int, float)) or isinstance(data, bool) or not math.isfinite(data):
        raise HopsError(f"{where}: {data!r} is not a finite number")
    return float(data)


def finite_xyz(data, where):
    """(x, y, z) of a point or vector item ``{"X", "Y", "Z"}``."""
    if not isinstance(data, dict) or not all(axis in data for axis in "XYZ"):
        raise HopsError(f"{where}: a point or vector is an object with X, Y and Z")
    return tuple(finite_number(data[axis], f"{where}, {axis}") for axis in "XYZ")


def geometry_value(data, kind, where):
    """The rhino3dm object of a Brep, Extrusion or Mesh item."""
    if kind not in GEOMETRY_TYPES:
        raise HopsError(f"{where}: a block is a closed Brep, Extrusion or Mesh, not {kind or 'an untyped item'}")
    if not isinstance(data, dict) or "data" not in data:
        raise HopsError(f"{where}: the {kind.rsplit('.', 1)[-1]} is not in RhinoCommon's JSON form", 400)
    try:
        geometry = rhino3dm.CommonObject.Decode(data)
    except Exception:   # rhino3dm raises whatever its binding meets in bad data
        geometry = None
    if geometry is None:
        raise HopsError(f"{where}: rhino3dm cannot read this {kind.rsplit('.', 1)[-1]}", 400)
    return geometry


def answer(function, outputs, warnings=()):
    """The solve answer: one data tree per output of the function, in its order."""
    values = []
    for param in function.outputs:
        value = outputs[param.name]
        items = value if param.many else ([] if value is None else [value])
        values.append({"ParamName": param.name,
                       "InnerTree": {"{0}": [output_item(param, item) for item in items]}})
    return {"values": values, "errors": [], "warnings": list(warnings)}


def error_answer(message):
    """An answer Hops shows as the component's error."""
    return {"values": [], "errors": [message], "warnings": []}


def output_item(param, value):
    """One item of an answer: the Resthopper type and the value as JSON text."""
    kind = RESULT_TYPES[param.param_type]
    if param.param_type in ("Point", "Vector"):
        data = xyz_object(value)
    elif param.param_type == "Line":
        data = {"From": xyz_object(value[0]), "To": xyz_object(value[1])}
    elif param.param_type == "Curve":
        curve = rhino3dm.PolylineCurve([rhino3dm.Point3d(*p) for p in value])
        return {"type": kind, "data": json.dumps(curve.Encode())}
    elif param.param_type == "Number":
        data = float(value)
    elif param.param_type == "Integer":
        data = int(value)
    elif param.param_type == "Boolean":
        data = bool(value)
    else:
        data = str(value)
    return {"type": kind, "data": json.dumps(data, allow_nan=False)}


def xyz_object(xyz):
    return {"X": float(xyz[0]), "Y": float(xyz[1]), "Z": float(xyz[2])}
