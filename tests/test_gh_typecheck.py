"""gh_components/ type-checked against Rhino 8's API (issue 22): pyright with the typed stubs of RhinoCommon and
Grasshopper (rhino-stubs-typed, grasshopper-stubs-typed 8.20), so that every member and overload the components
use exists in Rhino 8.

The stubs live in .venv/rhino-stubs (``make stubs``), not in site-packages: there their stub-only ``Rhino`` folder
would import as an empty namespace package and the components would take it for Rhino. The functions that take
Rhino objects say which in type comments (Python 2.7 syntax, for Rhino 7); gh_components/pyrightconfig.json turns
on the checks of attribute names, calls and imports.
"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GH = ROOT / "gh_components"
STUBS = ROOT / ".venv" / "rhino-stubs"
INSTALL = (f"{sys.executable} -m pip install --target {STUBS} rhino-stubs-typed==8.20.25157 "
           "grasshopper-stubs-typed==8.20.25157   (or: make stubs)")


def pyright(*arguments, cwd=GH):
    """pyright's JSON report of a run in ``cwd`` (its pyrightconfig.json)."""
    assert (STUBS / "Rhino").is_dir() and (STUBS / "Grasshopper").is_dir(), f"the Rhino 8 stubs are missing: {INSTALL}"
    run = subprocess.run([sys.executable, "-m", "pyright", "--outputjson", *arguments], cwd=cwd, capture_output=True,
                         text=True, timeout=600)
    assert run.stdout.strip(), f"pyright printed nothing: {run.stderr[-2000:]}"
    return json.loads(run.stdout)


def errors(report):
    return [f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}" for d in report["generalDiagnostics"]
            if d["severity"] == "error"]


def test_the_components_use_only_what_rhino_8_has():
    report = pyright()
    assert report["summary"]["filesAnalyzed"] >= 25
    assert errors(report) == []


def test_the_check_sees_a_member_rhino_does_not_have(tmp_path):
    """The same configuration flags a misspelt RhinoCommon member and a Grasshopper one: the stubs are read."""
    (tmp_path / "pyrightconfig.json").write_text(json.dumps({**json.loads((GH / "pyrightconfig.json").read_text()),
                                                             "stubPath": str(STUBS), "include": ["probe.py"]}))
    (tmp_path / "probe.py").write_text(
        "TYPE_CHECKING = False\n"
        "if TYPE_CHECKING:\n"
        "    import Grasshopper.Kernel\n"
        "    import Rhino.Geometry\n\n\n"
        "def probe(face, component):\n"
        "    # type: (Rhino.Geometry.BrepFace, Grasshopper.Kernel.GH_Component) -> None\n"
        "    face.IsPlanar(0.001)\n"
        "    face.IsPlanarr(0.001)\n"
        "    component.AddRuntimeMessage(0, 'x')\n"
        "    component.AddRuntimeMesage(0, 'x')\n")
    found = errors(pyright(cwd=tmp_path))
    assert len(found) == 2 and "IsPlanarr" in found[0] and "AddRuntimeMesage" in found[1]
