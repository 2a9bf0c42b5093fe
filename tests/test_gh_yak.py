"""The Yak packages of the Grasshopper components (gh_components/tools/yak_package.py), tested without Rhino: the
.yak files' names and contents, the manifest's fields (McNeel's "The Package Manifest"), each component's
bootstrapped code in Python 2.7 and 3 syntax, and the bootstrap finding the newest installed package."""
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import parso
import pytest
import yaml

from tests.test_gh_python27 import ALLOWED_IMPORTS, imported_modules, python3_only_syntax

GH = Path(__file__).resolve().parents[1] / "gh_components"
sys.path.insert(0, str(GH / "tools"))
import yak_package  # noqa: E402

#: The manifest's name may hold letters, digits, dashes and underscores only (the guide).
NAME = re.compile(r"^[A-Za-z0-9_-]+$")
SEMVER = re.compile(r"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    target = tmp_path_factory.mktemp("yak")
    assert yak_package.main([str(target)]) == 0
    return target


def package_files():
    return {f"extrados_gh/{p.name}" for p in (GH / "extrados_gh").glob("*.py")}


@pytest.mark.parametrize("rhino, tag", [("rh8", "rh8_0-any"), ("rh7", "rh7_0-any")])
def test_each_rhino_gets_a_yak_with_the_manifest_the_icon_and_the_package(built, rhino, tag):
    version = yak_package.version()
    archive = zipfile.ZipFile(built / f"extrados-{version}-{tag}.yak")
    names = set(archive.namelist())
    assert names == {"manifest.yml", "icon.png", "README.md"} | package_files()
    manifest = yaml.safe_load(archive.read("manifest.yml"))
    assert NAME.match(manifest["name"]) and SEMVER.match(manifest["version"]) and manifest["version"] == version
    assert manifest["authors"] and all(isinstance(a, str) for a in manifest["authors"])
    assert "masonry" in manifest["description"] and manifest["icon"] in names
    assert archive.read("icon.png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert archive.read("extrados_gh/conversions.py") == (GH / "extrados_gh" / "conversions.py").read_bytes()


def test_the_componentizer_input_has_every_component_bootstrapped_in_python_2_and_3(built):
    folders = sorted((built / "componentize").glob("*/Extrados_*"))
    assert len(folders) == 2 * len(list((GH / "components").glob("Extrados_*")))
    grammar = parso.load_grammar(version="3.6")   # the oldest parso has; python3_only_syntax does the rest
    for folder in folders:
        source = (folder / "code.py").read_text()
        assert source.index("put_extrados_on_path()") < source.index("from extrados_gh.")
        compile(source, str(folder / "code.py"), "exec")                 # Python 3
        assert not list(grammar.iter_errors(grammar.parse(source)))
        assert python3_only_syntax(source) == []
        assert imported_modules(source) <= ALLOWED_IMPORTS | {"sys"}


def test_built_ghuser_files_go_into_their_rhino_s_package(tmp_path):
    assert yak_package.main([str(tmp_path)]) == 0
    (tmp_path / "rh8" / "Extrados_Analyze.ghuser").write_bytes(b"built by the componentizer")
    assert yak_package.main([str(tmp_path), "--ghuser-built"]) == 0
    version = yak_package.version()
    rh8 = zipfile.ZipFile(tmp_path / f"extrados-{version}-rh8_0-any.yak")
    assert rh8.read("Extrados_Analyze.ghuser") == b"built by the componentizer"
    assert "Extrados_Analyze.ghuser" not in zipfile.ZipFile(tmp_path / f"extrados-{version}-rh7_0-any.yak").namelist()


def test_the_bootstrap_finds_the_newest_installed_package(tmp_path):
    """In a Python that cannot import extrados_gh, the bootstrap puts the newest version's folder on sys.path."""
    packages = tmp_path / "McNeel" / "Rhinoceros" / "packages" / "8.0" / "extrados"
    for version in ("0.9.0", "0.10.0", "0.2.0"):
        (packages / version / "extrados_gh").mkdir(parents=True)
        (packages / version / "extrados_gh" / "__init__.py").write_text(f"__version__ = {version!r}\n")
    source = (GH / "tools" / "yak_bootstrap.py").read_text()
    script = source + (f"\nprint(put_extrados_on_path({{'APPDATA': {str(tmp_path)!r}}}, {str(tmp_path)!r}))"
                       "\nimport extrados_gh\nprint(extrados_gh.__version__)\n")
    run = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    folder, version = run.stdout.split()
    assert Path(folder) == packages / "0.10.0" and version == "0.10.0"
