"""Everything Rhino runs from gh_components/ (the extrados_gh package and every component's code.py)
is Python 2.7 as well as 3: Rhino 7's GhPython is IronPython 2.7.

Two checks. Always: the files parse under parso's oldest grammar (3.6; parso 0.8 has no 2.7
grammar left) and their syntax trees hold none of what Python 2.7 lacks, and they import only
the standard library and Rhino's own modules. Where a Python 2.7 interpreter is found
($EXTRADOS_PYTHON2, python2.7 on PATH, or pyenv's), the files are also compiled by it and the
package is imported and exercised under it (CPython 2.7: the same language as IronPython 2.7).
"""
import ast
import glob
import os
import shutil
import subprocess
from pathlib import Path

import parso
import pytest

GH = Path(__file__).resolve().parents[1] / "gh_components"
#: The files Rhino runs: the package and the component scripts (tools/ runs on a build machine).
RHINO_FILES = sorted(list((GH / "extrados_gh").glob("*.py")) + list((GH / "components").glob("*/code.py")))
#: Modules those files may import: the standard library both Pythons have, Rhino's own, and the package.
ALLOWED_IMPORTS = {"__future__", "json", "socket", "time", "math", "os", "functools", "urllib", "urllib2", "http",
                   "httplib", "Rhino", "System", "Grasshopper", "scriptcontext", "ghpythonlib", "rhino3dm",
                   "extrados_gh", "csv"}
#: Syntax Python 3 has and Python 2.7 lacks, by the ast node that carries it.
PY3_ONLY_NODES = {"JoinedStr": "f-string", "AnnAssign": "annotated assignment", "Nonlocal": "nonlocal",
                  "AsyncFunctionDef": "async def", "Await": "await", "AsyncFor": "async for",
                  "AsyncWith": "async with", "NamedExpr": ":=", "YieldFrom": "yield from", "MatMult": "@",
                  "Match": "match"}


def python3_only_syntax(source):
    """(line, what) for each construct of ``source`` that Python 2.7 cannot read or runs differently."""
    found = []
    for node in ast.walk(ast.parse(source)):
        kind = type(node).__name__
        line = getattr(node, "lineno", 0)
        if kind in PY3_ONLY_NODES:
            found.append((line, PY3_ONLY_NODES[kind]))
        elif isinstance(node, ast.arguments) and (node.kwonlyargs or node.posonlyargs):
            found.append((line, "keyword-only or positional-only parameters"))
        elif isinstance(node, ast.arg) and node.annotation is not None:
            found.append((node.lineno, "annotation"))
        elif isinstance(node, ast.FunctionDef) and node.returns is not None:
            found.append((line, "return annotation"))
        elif isinstance(node, ast.Raise) and node.cause is not None:
            found.append((line, "raise ... from"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                (node.func.id == "super" and not node.args) or node.func.id == "print"):
            found.append((line, "super() without arguments" if node.func.id == "super" else "print"))
        elif isinstance(node, ast.Starred) and not isinstance(getattr(node, "ctx", None), ast.Load):
            found.append((line, "starred assignment"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and not node.value.isascii():
            found.append((line, "non-ASCII str literal (bytes in 2.7)"))
    return found


def runtime_nodes(tree):
    """The nodes of ``tree`` that may run: all but the bodies of ``if TYPE_CHECKING:``, which only the type check
    reads (tests/test_gh_typecheck.py; TYPE_CHECKING is False in Rhino)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imported_modules(source):
    """Top-level names of the absolute imports of ``source`` that may run."""
    names = set()
    for node in runtime_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_the_check_finds_python_3_only_syntax():
    assert {what for _, what in python3_only_syntax(
        "def f(a, *, b: int = 1) -> int:\n    nonlocal x\n    print(f'{a}')\n    raise E() from None\n")} == {
        "keyword-only or positional-only parameters", "annotation", "return annotation", "nonlocal", "print",
        "f-string", "raise ... from"}


def test_there_are_files_to_check():
    assert len(RHINO_FILES) >= 8 + 17


@pytest.mark.parametrize("path", RHINO_FILES, ids=lambda p: str(p.relative_to(GH)))
def test_file_is_python_2_7_syntax_with_allowed_imports(path):
    source = path.read_text(encoding="utf-8")
    grammar = parso.load_grammar(version="3.6")
    errors = list(grammar.iter_errors(grammar.parse(source)))
    assert not errors, [(e.start_pos, e.message) for e in errors]
    assert python3_only_syntax(source) == []
    assert imported_modules(source) <= ALLOWED_IMPORTS


def python27():
    """A working Python 2.7 interpreter, or None."""
    candidates = [os.environ.get("EXTRADOS_PYTHON2"), shutil.which("python2.7"), shutil.which("python2")]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/2.7*/bin/python2.7")))
    for exe in filter(None, candidates):
        try:
            out = subprocess.run([exe, "-c", "import sys; print(sys.version_info[:2] == (2, 7))"],
                                 capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and out.stdout.strip() == "True":
            return exe
    return None


#: Run by Python 2.7 with gh_components on its path: compile every file, then use the package the way
#: the components do, with a closed box given as a mesh-like object (rhino3dm has no 2.7 build).
PY27_SCRIPT = r"""
import glob, os, sys
root = sys.argv[1]
sys.path.insert(0, root)
for path in sorted(glob.glob(os.path.join(root, "extrados_gh", "*.py")) +
                   glob.glob(os.path.join(root, "components", "*", "code.py"))):
    compile(open(path).read(), path, "exec")
from extrados_gh import client, conversions, items, model_components, result_components, run_components, runtime

class P(object):
    def __init__(self, x, y, z):
        self.X, self.Y, self.Z = x, y, z

class Mesh(object):
    pass

class Component(object):
    Message = ""
    InstanceGuid = "guid"
    def __init__(self):
        self.messages = []
    def AddRuntimeMessage(self, level, text):
        self.messages.append((level, text))

mesh = Mesh()
mesh.Vertices = [P(*v) for v in [(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1),
                                 (0, 2, 0), (1, 2, 0), (1, 2, 1), (0, 2, 1)]]
mesh.Faces = [(0, 1, 2, 3), (7, 6, 5, 4), (0, 4, 5, 1), (1, 5, 6, 2), (2, 6, 7, 3), (3, 7, 4, 0)]
block = items.Block(conversions.block_from_mesh(mesh, "a"), material_given=False)
component = Component()
material = runtime.run_component(component, model_components.material, "brick", 1800.0, 0.7, None, None, None,
                                  None, None, None, None)
document = run_components.model_document([block], [material], [])
assert document["blocks"][0]["material"] == "brick" and document["joints"]["brick"]["friction"] == 0.7
runtime.run_component(component, model_components.material, None, None, -1.0, None, None, None, None, None,
                      None, None)
print(component.messages[-1][1])
mesh.Faces = mesh.Faces[1:]
try:
    conversions.block_from_mesh(mesh, "b3")
except conversions.ConversionError as error:
    print(error)
print(client.ServiceUnavailable("no service", code="unavailable"))
"""


def test_package_runs_under_python_2_7_when_one_is_installed():
    exe = python27()
    if exe is None:
        pytest.skip("no Python 2.7 interpreter here (the syntax checks above still ran); "
                    "set EXTRADOS_PYTHON2 to run the package under one")
    out = subprocess.run([exe, "-c", PY27_SCRIPT, str(GH)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["Friction must be at least 0; got -1", "block 'b3': mesh is not closed (4 naked edges)",
                                       "no service"]
