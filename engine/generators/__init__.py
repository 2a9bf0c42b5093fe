"""Parametric model generators, each returning a model document (DESIGN sec. 4).

``GENERATORS`` maps a name to a `Generator`: the function and its described
parameters, enough for a command line (``extrados example NAME --param value``)
or an HTTP listing. ``generate(name, **params)`` checks the name and the
parameters, then builds the document as a plain, JSON-serializable dict.

The first part of this module holds the pieces every generator module builds
with (prisms, boxes, the document skeleton, parameter checks). The generator
modules import them from here, so they are defined before those modules are
imported at the end.
"""
import contextvars
import inspect
import math
import numbers
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

MODEL_FORMAT = "extrados.model/1"
#: m/s², the g of DESIGN sec. 7.
STANDARD_GRAVITY = 9.81
#: The one material and the one joint law every generated model uses.
MATERIAL = "stone"
JOINT = "dry"
GROUND_ID = "ground"


# --- geometry ---------------------------------------------------------------

def polygon_area(section_xz):
    """Area (m²) of a simple polygon given counter-clockwise as (x, z) pairs; negative when clockwise.

    The shoelace formula: A = 1/2 sum_i (x_i z_{i+1} - x_{i+1} z_i).
    """
    pairs = zip(section_xz, list(section_xz[1:]) + list(section_xz[:1]))
    return 0.5 * sum(x0 * z1 - x1 * z0 for (x0, z0), (x1, z1) in pairs)


def quad_prism(section_xz, y_min, y_max):
    """Vertices and outward faces of a convex quadrilateral in the x-z plane extruded along y.

    Seen from -y (looking along +y) the x-z plane shows x to the right and z
    up, so a section listed counter-clockwise in (x, z) gives the face at
    ``y_min`` outward (-y) normals in the listed order; the face at ``y_max``
    is the same polygon reversed, and the side over section edge i -> j is
    [i, i+4, j+4, j].

    Parameters
    ----------
    section_xz : sequence of 4 (x, z) pairs
        Convex quadrilateral, counter-clockwise in (x, z), m.
    y_min, y_max : float
        Extent of the extrusion, m, ``y_min < y_max``.

    Returns
    -------
    vertices : list of 8 [x, y, z] lists
        The section at ``y_min`` (0-3), then at ``y_max`` (4-7), m.
    faces : list of 6 lists of 4 int
        Vertex indices, counter-clockwise seen from outside.
    """
    if not polygon_area(section_xz) > 0.0 or not y_max > y_min:
        raise ValueError(f"degenerate or clockwise prism section {section_xz} over y in [{y_min}, {y_max}]")
    vertices = [[float(x), float(y_min), float(z)] for x, z in section_xz]
    vertices += [[float(x), float(y_max), float(z)] for x, z in section_xz]
    faces = [[0, 1, 2, 3], [7, 6, 5, 4]]
    faces += [[i, i + 4, (i + 1) % 4 + 4, (i + 1) % 4] for i in range(4)]
    return vertices, faces


def box(x_range, y_range, z_range):
    """Vertices and outward faces of an axis-aligned box given its (min, max) extents in m."""
    (x0, x1), (z0, z1) = x_range, z_range
    return quad_prism([(x0, z0), (x1, z0), (x1, z1), (x0, z1)], *y_range)


#: The largest model a generator builds when its caller sets no limit of its own: the default of the
#: service's ``--max-blocks`` and of ``extrados example --max-blocks``, one value for both.
DEFAULT_MAX_BLOCKS = 20000


class TooManyBlocks(ValueError):
    """A generator asked for more blocks than the budget of `block_budget` allows."""


@dataclass
class _Budget:
    limit: int
    count: int = 0


_BUDGET = contextvars.ContextVar("block_budget", default=None)


@contextmanager
def block_budget(max_blocks):
    """Within this context a generator stops with TooManyBlocks at its block ``max_blocks + 1``,
    before building the rest: a service can offer the generators without letting a parameter
    (a wall 1 km long) build millions of blocks."""
    token = _BUDGET.set(_Budget(int(max_blocks)))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def block_entry(block_id, vertices, faces, support=False):
    """A block entry of the model document."""
    budget = _BUDGET.get()
    if budget is not None:
        budget.count += 1
        if budget.count > budget.limit:
            raise TooManyBlocks(f"these parameters give more than {budget.limit} blocks")
    return {"id": block_id, "vertices": vertices, "faces": faces, "material": MATERIAL, "support": support}


def ground_slab(x_range, y_range, thickness):
    """The support slab "ground": a box over the given plan extents whose top face is z = 0."""
    return block_entry(GROUND_ID, *box(x_range, y_range, (-thickness, 0.0)), support=True)


# --- document ---------------------------------------------------------------

def lateral_acceleration_loads(acceleration):
    """A live body acceleration (m/s²) along +x on all blocks, or no load when it is zero."""
    if acceleration == 0.0:
        return []
    return [{"kind": "body_acceleration", "blocks": "all",
             "acceleration": [float(acceleration), 0.0, 0.0], "live": True}]


def model_document(blocks, friction, density, loads=()):
    """A model document of DESIGN sec. 4 with one material and one Coulomb joint law.

    Parameters
    ----------
    blocks : list of dict
        Block entries (see `block_entry`).
    friction : float
        Coulomb friction coefficient of every joint.
    density : float
        kg/m³ of every block.
    loads : sequence of dict
        Load entries; the key is left out when there are none.
    """
    document = {
        "format": MODEL_FORMAT,
        "units": "SI",
        "gravity": [0.0, 0.0, -STANDARD_GRAVITY],
        "materials": {MATERIAL: {"density": float(density)}},
        "joints": {JOINT: {"law": "coulomb", "friction": float(friction)}},
        "default_joint": JOINT,
        "blocks": list(blocks),
    }
    if loads:
        document["loads"] = list(loads)
    return document


# --- parameter checks (each message starts with the parameter's name) ----------

def check_finite(name, value):
    """Raise ValueError unless value is a finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")


def check_positive(name, value):
    """Raise ValueError unless value is a finite number > 0."""
    check_finite(name, value)
    if not value > 0.0:
        raise ValueError(f"{name} must be positive; got {value!r}")


def check_non_negative(name, value):
    """Raise ValueError unless value is a finite number >= 0."""
    check_finite(name, value)
    if not value >= 0.0:
        raise ValueError(f"{name} must be zero or positive; got {value!r}")


def check_count(name, value, minimum):
    """Raise ValueError unless value is an integer >= minimum."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}; got {value!r}")


def check_flag(name, value):
    """Raise ValueError unless value is a bool."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false; got {value!r}")


# --- registry ---------------------------------------------------------------

_BOOL_WORDS = {"true": True, "yes": True, "on": True, "1": True,
               "false": False, "no": False, "off": False, "0": False}


@dataclass(frozen=True)
class Parameter:
    """One parameter of a generator: name, type, default, unit, a one-line help and its range.

    ``range`` says in words which values the generator accepts (``"> 0"``, ``">= 2"``,
    ``"[0, 90)"``, ``"> 0, < 2 radius"``, ``"any"``); the generator's own checks enforce it.
    """

    name: str
    type: type  # float, int or bool
    default: object
    unit: str  # "" for dimensionless
    help: str
    range: str

    def convert(self, value):
        """The value as this parameter's type; text (from a command line) is parsed.

        Raises
        ------
        ValueError
            Naming the parameter, when the value is not of its type.
        """
        if self.type is bool:
            if isinstance(value, str) and value.strip().lower() in _BOOL_WORDS:
                return _BOOL_WORDS[value.strip().lower()]
            if isinstance(value, bool):
                return value
            raise ValueError(f"{self.name} must be true or false; got {value!r}")
        number = value
        if isinstance(value, str):
            try:
                number = float(value)
            except ValueError:
                raise ValueError(f"{self.name} must be a number; got {value!r}") from None
        if isinstance(number, bool) or not isinstance(number, numbers.Real) or not math.isfinite(number):
            raise ValueError(f"{self.name} must be a finite number; got {value!r}")
        if self.type is int:
            if isinstance(number, numbers.Integral):
                return int(number)
            if float(number).is_integer():
                return int(number)
            raise ValueError(f"{self.name} must be an integer; got {value!r}")
        return float(number)

    def to_dict(self):
        """The parameter as JSON: name, type ("float", "int" or "bool"), default, unit, help, range."""
        return {"name": self.name, "type": self.type.__name__, "default": self.default,
                "unit": self.unit, "help": self.help, "range": self.range}

    def usage(self):
        """One line for a command line's help: ``--name  (unit; range; default value)  help``."""
        default = str(self.default).lower() if self.type is bool else f"{self.default:.12g}"
        facts = "; ".join(([self.unit] if self.unit else []) + [self.range, f"default {default}"])
        return f"--{self.name.replace('_', '-')}  ({facts})  {self.help}"


@dataclass(frozen=True)
class Generator:
    """A named generator: the function that builds the document and its parameters.

    Calling it, ``generator(**params)``, converts the values (`convert`) and
    builds the document.
    """

    name: str
    function: Callable[..., dict]
    help: str  # one line: what the model is
    parameters: tuple  # of Parameter, in the function's order

    def parameter(self, name):
        """The Parameter called name; ValueError naming it and listing the valid ones."""
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        valid = ", ".join(p.name for p in self.parameters)
        raise ValueError(f"{self.name}: unknown parameter '{name}'; valid parameters: {valid}")

    def convert(self, params):
        """{name: value} with each value converted to its parameter's type (text is parsed).

        Raises
        ------
        ValueError
            An unknown parameter (listing the valid ones) or a value not of its type.
        """
        return {name: self.parameter(name).convert(value) for name, value in params.items()}

    def __call__(self, **params):
        """The model document for these parameters (the others keep their defaults)."""
        return self.function(**self.convert(params))

    def to_dict(self):
        """The generator as JSON: name, help and its parameters."""
        return {"name": self.name, "help": self.help, "parameters": [p.to_dict() for p in self.parameters]}

    def usage(self):
        """The generator's help for a command line: what it builds, then one line per parameter."""
        lines = [f"{self.name}: {self.help}", "", "parameters (--name value; the others keep their defaults):"]
        return "\n".join(lines + [f"  {parameter.usage()}" for parameter in self.parameters])


def described_parameters(function, descriptions):
    """Parameters of a generator function: defaults (and so types) from its signature.

    Parameters
    ----------
    function : callable
        Every argument has a default of type float, int or bool.
    descriptions : dict
        {name: (unit, help, range)} for exactly the function's arguments (see `Parameter`).
    """
    signature = inspect.signature(function).parameters
    if set(signature) != set(descriptions):
        raise TypeError(f"{function.__name__}: descriptions {sorted(descriptions)} "
                        f"do not match the arguments {sorted(signature)}")
    return tuple(Parameter(name, type(argument.default), argument.default, *descriptions[name])
                 for name, argument in signature.items())


from extrados.engine.generators import (  # noqa: E402  (they use the above)
    arch, block, column, cylinder, incline, panel, spandrel, stack, two_leaf_wall, wall, wall_gap,
)

GENERATORS = {generator.name: generator for generator in (
    arch.GENERATOR, wall.GENERATOR, column.GENERATOR, incline.GENERATOR, stack.GENERATOR, block.GENERATOR,
    spandrel.GENERATOR, wall_gap.GENERATOR, cylinder.GENERATOR, panel.GENERATOR, two_leaf_wall.GENERATOR)}


def generate(name, **params):
    """Build the model document of generator ``name`` with the given parameters.

    Parameters
    ----------
    name : str
        A key of `GENERATORS`.
    **params
        Parameter values, of their type or as text; the others keep their defaults.

    Returns
    -------
    dict
        A model document, format "extrados.model/1".

    Raises
    ------
    ValueError
        An unknown generator or parameter (listing the valid ones), or a value
        of the wrong type or out of range (naming the parameter).
    """
    if name not in GENERATORS:
        raise ValueError(f"unknown generator '{name}'; valid generators: {', '.join(sorted(GENERATORS))}")
    return GENERATORS[name](**params)
