"""The installed package: one import name, ``extrados``, and nothing generic beside it (issue 15).

The wheel is built from a copy of the sources as a user would build it, its top-level names
listed, then installed into a fresh virtual environment, where ``extrados`` analyses an example
from a folder that holds a user's own ``engine/`` and ``server/`` packages. Its site-packages are
made read-only and the kernel cache is the user's (issue 16): the first analysis says it compiles
and leaves the compiled kernels in the per-user folder, the second says nothing of it, and the
solver's seconds of the first are not its compile time.
"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What a wheel of the project holds, and what pyproject.toml maps into the namespace.
SOURCES = ["pyproject.toml", "README.md", "extrados", "engine", "server", "gh_components"]
#: Folders whose Python files are the installed package, and the dotted name each maps to.
PACKAGE_ROOTS = {"extrados": "extrados", "engine": "extrados.engine", "server": "extrados.server",
                 "gh_components/extrados_gh": "extrados.grasshopper"}
#: A bare import of the repository's folders: it works only from the repository root, and then loads a
#: second copy of every module beside extrados.engine's.
BARE_IMPORT = re.compile(r"^\s*(from|import)\s+(engine|server)\b", re.M)
#: What the command line says on standard error before it compiles the kernels.
COMPILE_MESSAGE = "compiling numerical kernels (first run only)"
#: The solver's seconds on a cold cache are at most this many times a warm run's, plus COLD_SLACK_S (s);
#: with the compile time in them they were seconds to minutes where the solve takes milliseconds.
COLD_FACTOR = 10.0
COLD_SLACK_S = 0.1


def python_files():
    for folder in ("extrados", "engine", "server", "tests", "examples", "benchmarks", "gh_components"):
        yield from (ROOT / folder).rglob("*.py")


def source_packages():
    """Dotted names of the folders with an __init__.py under the package roots."""
    names = set()
    for folder, dotted in PACKAGE_ROOTS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            names.add(".".join((dotted, *relative)))
    return names


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """Path of a wheel built with pip from a copy of the sources (build isolation, as a user builds it)."""
    source = tmp_path_factory.mktemp("source")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)],
                   check=True, capture_output=True, text=True)
    (wheel,) = out.glob("extrados-*.whl")
    return wheel


def read_only(folder):
    """Take the write permission off ``folder`` and everything in it, as a system-wide install has it."""
    for path in [folder, *folder.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def test_no_source_imports_the_folders_by_their_bare_names():
    offenders = [f"{path.relative_to(ROOT)}: {match.group(0).strip()}"
                 for path in python_files() for match in BARE_IMPORT.finditer(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_engine_never_imports_the_service_or_the_command():
    modules = sorted(name for name in source_packages() if name.startswith("extrados.engine"))
    modules += [f"{package}.{path.stem}" for package in modules
                for path in (ROOT / "engine" / Path(*package.split(".")[2:])).glob("*.py")
                if path.stem != "__init__"]
    probe = ("import importlib, sys\n"
             f"for name in {modules!r}:\n    importlib.import_module(name)\n"
             "print(sorted(m for m in sys.modules if m.startswith(('extrados.server', 'extrados.cli'))))")
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            cwd=ROOT / "tests")
    assert answer.stdout.strip() == "[]"


def test_wheel_installs_only_extrados_at_the_top(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = archive.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    top = {name.split("/")[0] for name in names}
    assert top == {"extrados", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}
    packages = {str(Path(name).parent).replace("/", ".") for name in names if name.endswith("/__init__.py")}
    assert packages == source_packages()
    for data in ("extrados/engine/io/model_schema.json", "extrados/engine/io/analysis_schema.json",
                 "extrados/batch/batch_schema.json",
                 "extrados/server/static/index.html", "extrados/server/static/viewer.js",
                 "extrados/server/static/vendor/three/three.module.js"):
        assert data in names, data
    assert re.search(r"^extrados\s*=\s*extrados\.cli:main$", entry_points, re.M)


def test_wheel_in_a_fresh_environment_analyses_an_example_beside_a_users_engine(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies (numpy, numba, ...) come from the test environment, so that no download is needed;
    # a .pth line adds a folder without reading its .pth files, so the editable install of this checkout
    # stays out of the fresh environment
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "--quiet", str(wheel)], check=True)
    installed = Path(site, "extrados")
    read_only(installed)
    work = tmp_path / "work"
    for shadow in ("engine", "server"):  # a user's own packages, which once shadowed ours
        (work / shadow).mkdir(parents=True)
        (work / shadow / "__init__.py").write_text("raise ImportError('the user package was imported')\n")
    home = tmp_path / "home"
    environment = dict(os.environ, HOME=str(home))
    for name in ("PYTHONPATH", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME"):
        environment.pop(name, None)
    extrados = str(bin_dir / "extrados")

    def run(*command):
        return subprocess.run(command, cwd=work, env=environment, capture_output=True, text=True, timeout=600)

    listing = run(extrados, "example")
    assert listing.returncode == 0, listing.stderr
    model = run(extrados, "example", "column", "--blocks", "2")
    assert model.returncode == 0, model.stderr
    (work / "column.json").write_text(model.stdout)
    analysed = run(extrados, "analyze", "column.json", "--out", "result.json")
    assert analysed.returncode == 0, analysed.stderr
    assert COMPILE_MESSAGE in analysed.stderr
    result = json.loads((work / "result.json").read_text())
    assert result["format"] == "extrados.result/1" and result["stable"] is True
    if sys.platform.startswith("linux"):
        assert list((home / ".cache" / "extrados" / "numba").glob("*/*/*.nbi"))
    assert not list(installed.rglob("*.nbi"))
    again = run(extrados, "analyze", "column.json", "--out", "again.json")
    assert again.returncode == 0 and COMPILE_MESSAGE not in again.stderr, again.stderr
    warm = json.loads((work / "again.json").read_text())
    assert result["solver"]["seconds"] <= COLD_FACTOR * warm["solver"]["seconds"] + COLD_SLACK_S
    where = run(str(python), "-c", "import extrados, extrados.server; print(extrados.__file__)")
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(Path(site))
    served = run(str(python), "-m", "extrados.server", "--help")
    assert served.returncode == 0 and "--data-dir" in served.stdout, served.stderr
