"""Run a Grasshopper component's ``code.py`` outside Rhino.

Grasshopper itself runs only inside Rhino, so this module stands in for what a script component
gives its code: the base class ``ghpythonlib.componentbase.executingcomponent`` (empty here) and
the global ``ghenv``, whose ``Component`` has the few members the Extrados components use
(``Message``, ``InstanceGuid``, ``AddRuntimeMessage``, ``OnPingDocument().ScheduleSolution``,
``ExpireSolution``). Everything else is real: the component's own ``code.py``, the
``extrados_gh`` package, ``rhino3dm`` geometry and, where a component talks to the service, a
real service on a loopback port.
"""
import importlib.util
import json
import sys
import types
import uuid
from pathlib import Path

COMPONENTS = Path(__file__).resolve().parents[1] / "gh_components" / "components"


class Document:
    """The Grasshopper document of a stand-in component: records the solutions it was asked to schedule."""

    def __init__(self):
        self.scheduled = []

    def ScheduleSolution(self, delay_ms, callback):
        self.scheduled.append((delay_ms, callback))


class ScriptInstance:
    """``ghpythonlib.componentbase.executingcomponent``: the components only subclass it."""


class ComponentStandIn:
    """``ghenv.Component``, the Grasshopper component, as far as the components use it."""

    def __init__(self):
        self.Message = ""
        self.InstanceGuid = uuid.uuid4()
        self.messages = []
        self.expired = 0
        self.document = Document()

    def AddRuntimeMessage(self, level, text):
        self.messages.append((level, text))

    def OnPingDocument(self):
        return self.document

    def ExpireSolution(self, recompute):
        self.expired += 1

    def texts(self, level):
        return [text for lvl, text in self.messages if lvl == level]


def _install_componentbase():
    """Make ``from ghpythonlib.componentbase import executingcomponent`` resolve to the stand-in."""
    if "ghpythonlib.componentbase" not in sys.modules:
        package = types.ModuleType("ghpythonlib")
        module = types.ModuleType("ghpythonlib.componentbase")
        module.executingcomponent = ScriptInstance
        package.componentbase = module
        sys.modules["ghpythonlib"] = package
        sys.modules["ghpythonlib.componentbase"] = module


def folders():
    """The component folders, sorted by name."""
    return sorted(p for p in COMPONENTS.iterdir() if p.is_dir())


def metadata(folder):
    return json.loads((COMPONENTS / folder / "metadata.json").read_text(encoding="utf-8"))


def component_class(folder, gh_component=None):
    """The component class a folder's ``code.py`` defines, its ``ghenv.Component`` the one given."""
    _install_componentbase()
    path = COMPONENTS / folder / "code.py"
    spec = importlib.util.spec_from_file_location("gh_component_" + Path(folder).name, path)
    module = importlib.util.module_from_spec(spec)
    module.ghenv = types.SimpleNamespace(Component=gh_component)
    spec.loader.exec_module(module)
    classes = [v for v in vars(module).values()
               if isinstance(v, type) and issubclass(v, ScriptInstance) and v is not ScriptInstance]
    assert len(classes) == 1, f"{path} must define one component class, found {classes}"
    return classes[0]


class Component:
    """One component on a stand-in canvas: call it with keyword inputs named by the metadata's nicknames."""

    def __init__(self, folder):
        self.folder = folder
        self.metadata = metadata(folder)
        self.gh_component = ComponentStandIn()
        self.script = component_class(folder, self.gh_component)()
        self.inputs = [p["nickname"] for p in self.metadata["ghpython"]["inputParameters"]]
        self.outputs = [p["nickname"] for p in self.metadata["ghpython"]["outputParameters"]]

    def __call__(self, **inputs):
        """Solve the component once: a dict of its outputs by nickname. Unknown input names are an error;
        an input left out is None (unconnected), as Grasshopper passes it."""
        unknown = set(inputs) - set(self.inputs)
        assert not unknown, f"{self.folder} has no inputs {sorted(unknown)}; it has {self.inputs}"
        self.gh_component.messages.clear()
        values = self.script.RunScript(*[inputs.get(name) for name in self.inputs])
        if len(self.outputs) == 1:
            values = (values,)
        return dict(zip(self.outputs, values))

    @property
    def errors(self):
        return self.gh_component.texts("Error")

    @property
    def warnings(self):
        return self.gh_component.texts("Warning")

    @property
    def remarks(self):
        return self.gh_component.texts("Remark")

    @property
    def message(self):
        return self.gh_component.Message

    def run_scheduled(self):
        """Run the solutions the component asked the document for (as the canvas does); their count."""
        scheduled, self.gh_component.document.scheduled = self.gh_component.document.scheduled, []
        for _, callback in scheduled:
            callback(self.gh_component.document)
        return len(scheduled)
