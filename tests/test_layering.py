"""The engine's import layers: post-processing and the typed result sit below the analyses.

The import graph is read from the sources with `ast` (importing a module would import its
parent packages, and ``extrados`` imports every analysis): an edge for each ``import`` of an
``extrados.engine`` module, followed to the modules it reaches.
"""
import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"
PACKAGE = "extrados.engine"
#: Modules that read finished results; none may reach an analysis.
BELOW_ANALYSES = ("extrados.engine.post", "extrados.engine.result")
ANALYSES = "extrados.engine.analysis"


def module_name(path):
    parts = path.relative_to(ENGINE).with_suffix("").parts
    return ".".join((PACKAGE, *parts[:-1])) if parts[-1] == "__init__" else ".".join((PACKAGE, *parts))


def engine_modules():
    """{module name: path} of every engine source file."""
    return {module_name(path): path for path in ENGINE.rglob("*.py")}


def imported(tree, modules):
    """The engine modules a module's source imports (a name imported from a package counts as its
    submodule when it is one)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.update(f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules else node.module
                         for alias in node.names)
    return {name for name in names if name in modules}


def import_graph():
    modules = engine_modules()
    return {name: imported(ast.parse(path.read_text()), modules) for name, path in modules.items()}


def reachable(graph, start):
    seen, todo = set(), [start]
    while todo:
        for name in graph[todo.pop()] - seen:
            seen.add(name)
            todo.append(name)
    return seen


def in_package(name, package):
    return name == package or name.startswith(package + ".")


def test_post_processing_and_the_result_import_no_analysis():
    graph = import_graph()
    below = [name for name in graph if any(in_package(name, layer) for layer in BELOW_ANALYSES)]
    assert "extrados.engine.result" in below and "extrados.engine.post.thrust" in below
    reached = {name: sorted(n for n in reachable(graph, name) if in_package(n, ANALYSES)) for name in below}
    assert {name: analyses for name, analyses in reached.items() if analyses} == {}


def package_of(name):
    """The engine package a module belongs to (``extrados.engine.post``); a module at the engine's top
    is its own (``extrados.engine.result``)."""
    return ".".join(name.split(".")[:3])


def test_engine_packages_import_no_cycle():
    graph = import_graph()
    packages = {}
    for name, names in graph.items():
        packages.setdefault(package_of(name), set()).update(package_of(n) for n in names)
    packages = {package: names - {package} for package, names in packages.items()}
    assert sorted(package for package in packages if package in reachable(packages, package)) == []
