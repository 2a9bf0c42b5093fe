"""What a component asks of its host: Grasshopper inside Rhino, or a plain Python process.

Inside Rhino the geometry module is ``Rhino.Geometry``, colours are ``System.Drawing.Color``,
per-component memory lives in ``scriptcontext.sticky`` and a running job is polled by asking
the Grasshopper document to solve the component again later. Outside Rhino (tests, scripts)
the same calls fall back to ``rhino3dm``, RGB tuples, a module dictionary and no scheduling.

A component's ``code.py`` hands its inputs to `run_component` with one function of
`model_components`, `run_components` or `result_components`; those functions take a `Context`
first and return one value per output (their ``outputs`` attribute names them).
"""
from __future__ import absolute_import

from .client import ExtradosError

TYPE_CHECKING = False
if TYPE_CHECKING:  # read by the type check only (tests/test_gh_typecheck.py): Grasshopper types
    from typing import Any  # noqa: F401
    import Grasshopper.Kernel  # noqa: F401

#: Milliseconds between two polls of a running job (each poll is one small HTTP request).
POLL_INTERVAL_MS = 500

_STICKY = {}


def geometry_module():
    """``Rhino.Geometry`` inside Rhino, ``rhino3dm`` elsewhere (the attribute names agree)."""
    try:
        import Rhino.Geometry as geometry
    except ImportError:
        import rhino3dm as geometry
    return geometry


def colour(rgb):
    """A ``System.Drawing.Color`` for Grasshopper's previews; the (r, g, b) tuple outside Rhino."""
    try:
        from System.Drawing import Color
    except ImportError:
        return tuple(int(c) for c in rgb)
    return Color.FromArgb(int(rgb[0]), int(rgb[1]), int(rgb[2]))


def sticky():
    """A dictionary that outlives one solution of the canvas."""
    try:
        import scriptcontext  # pyright: ignore[reportMissingImports] (Rhino's own module, not in the stubs)
    except ImportError:
        return _STICKY
    return scriptcontext.sticky


def document_units():
    """The unit of the active Rhino document ("Meters", "Millimeters", ...), or None outside Rhino."""
    try:
        import Rhino
    except ImportError:
        return None
    document = Rhino.RhinoDoc.ActiveDoc
    return None if document is None else str(document.ModelUnitSystem)


def document_tolerance():
    """The active Rhino document's absolute tolerance (model units), or None outside Rhino: a brep face within it
    of a plane is planar (conversions.block_from_brep)."""
    try:
        import Rhino
    except ImportError:
        return None
    document = Rhino.RhinoDoc.ActiveDoc
    return None if document is None else float(document.ModelAbsoluteTolerance)


def add_message(component, level, text):
    # type: (Grasshopper.Kernel.GH_Component, str, str) -> None
    """Show ``text`` in the component's balloon at ``level``: "Remark", "Warning" or "Error"."""
    try:
        from Grasshopper.Kernel import GH_RuntimeMessageLevel
        level = getattr(GH_RuntimeMessageLevel, level)
    except ImportError:
        pass
    component.AddRuntimeMessage(level, text)


def schedule_solution(component, delay_ms):
    # type: (Grasshopper.Kernel.GH_Component, float) -> None
    """Ask the canvas to solve ``component`` again in ``delay_ms``, so that polling never blocks it.

    The callback is a Python function: IronPython and Python.NET make it the GH_ScheduleDelegate that
    ScheduleSolution takes (the Rhino 8.20 stubs know no GH_Document.GH_ScheduleDelegate to build one by).
    """
    document = component.OnPingDocument()
    if document is None:
        return

    def expire(_document):
        component.ExpireSolution(False)

    document.ScheduleSolution(int(delay_ms), expire)


def outputs(*names):
    """Name the outputs of a component function, in order."""
    def mark(function):
        function.outputs = names
        return function
    return mark


class Context(object):
    """The host as one component's function sees it."""

    def __init__(self, component):
        # type: (Grasshopper.Kernel.GH_Component) -> None
        self.component = component

    @property
    def geometry(self):
        """The geometry module (``Rhino.Geometry`` or ``rhino3dm``), imported when first needed."""
        return geometry_module()

    @property
    def state(self):
        """This component's own memory between solutions (jobs it started, its last result)."""
        memory = sticky()
        key = "extrados:%s" % (self.component.InstanceGuid,)
        if key not in memory:
            memory[key] = {}
        return memory[key]

    def message(self, text):
        """The short text under the component."""
        self.component.Message = text

    def remark(self, text):
        add_message(self.component, "Remark", text)

    def warn(self, text):
        add_message(self.component, "Warning", text)

    def document_units(self):
        return document_units()

    def document_tolerance(self):
        return document_tolerance()

    def solve_again_later(self, delay_ms=POLL_INTERVAL_MS):
        schedule_solution(self.component, delay_ms)

    def colour(self, rgb):
        return colour(rgb)


def run_component(component, function, *inputs):
    # type: (Grasshopper.Kernel.GH_Component, Any, *Any) -> Any
    """Run a component function; an error it raises becomes the component's error balloon.

    Errors of the service or of the inputs (``ExtradosError``, ``ValueError``) leave every output
    empty and say what is wrong, with the field path and block id where the service gave them.

    Returns
    -------
    The single output's value, or a tuple with one value per output, as ``RunScript`` returns them.
    """
    try:
        values = tuple(function(Context(component), *inputs))
    except (ExtradosError, ValueError) as error:
        add_message(component, "Error", str(error))
        component.Message = "error"
        values = (None,) * len(function.outputs)
    if len(values) != len(function.outputs):
        raise RuntimeError("%s returned %d values for its %d outputs" % (function.__name__, len(values),
                                                                      len(function.outputs)))
    return values[0] if len(values) == 1 else values
