"""The build-side tools of gh_components/: the componentizer layout, the installer and the icons."""
import filecmp
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

GH = Path(__file__).resolve().parents[1] / "gh_components"


def tool(name):
    spec = importlib.util.spec_from_file_location("gh_tool_" + name, GH / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


componentize = tool("componentize")
install = tool("install")
FOLDERS = sorted(p.name for p in (GH / "components").iterdir() if p.is_dir())


def test_componentize_writes_both_interpreters_and_the_package(tmp_path, capsys):
    assert componentize.main([str(tmp_path), "--prefix", "(Extrados)"]) == 0
    assert "22 components for each of ipy, cpy" in capsys.readouterr().out
    for interpreter in ("ipy", "cpy"):
        assert sorted(p.name for p in (tmp_path / interpreter).iterdir()) == FOLDERS
        for folder in FOLDERS:
            out, source = tmp_path / interpreter / folder, GH / "components" / folder
            assert filecmp.cmp(out / "code.py", source / "code.py", shallow=False)
            assert filecmp.cmp(out / "icon.png", source / "icon.png", shallow=False)
            written, original = (json.loads((d / "metadata.json").read_text()) for d in (out, source))
            assert written.pop("name") == "(Extrados) " + original.pop("name")
            assert written == original
    package = sorted(p.name for p in (tmp_path / "extrados_gh").glob("*.py"))
    assert package == sorted(p.name for p in (GH / "extrados_gh").glob("*.py"))


def test_componentize_names_a_broken_folder(tmp_path, capsys):
    source = tmp_path / "components"
    shutil.copytree(GH / "components", source)
    (source / "Extrados_Loads" / "icon.png").unlink()
    with pytest.raises(componentize.LayoutError, match="Extrados_Loads: missing icon.png"):
        componentize.assemble(tmp_path / "out", source=source)
    Image.new("RGBA", (32, 32)).save(source / "Extrados_Loads" / "icon.png")
    with pytest.raises(componentize.LayoutError, match=r"Extrados_Loads/icon.png: must be 24 x 24 px, is \(32, 32\)"):
        componentize.assemble(tmp_path / "out", source=source)


def test_install_copies_an_importable_package(tmp_path, capsys):
    assert install.main(["--dest", str(tmp_path / "scripts")]) == 0
    assert "extrados_gh ->" in capsys.readouterr().out
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "scripts"))
    out = subprocess.run([sys.executable, "-c", "import extrados_gh.run_components as r; print(r.__file__)"],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(str(tmp_path / "scripts" / "extrados_gh"))


def test_install_copies_user_objects_and_says_when_there_are_none(tmp_path, capsys):
    built = tmp_path / "ghuser"
    built.mkdir()
    assert install.main(["--dest", str(tmp_path / "s"), "--ghuser", str(built),
                         "--user-objects", str(tmp_path / "uo")]) == 2
    assert "no .ghuser files in" in capsys.readouterr().err
    (built / "Extrados_Blocks.ghuser").write_bytes(b"built elsewhere")
    assert install.main(["--dest", str(tmp_path / "s"), "--ghuser", str(built),
                         "--user-objects", str(tmp_path / "uo")]) == 0
    assert (tmp_path / "uo" / "Extrados" / "Extrados_Blocks.ghuser").read_bytes() == b"built elsewhere"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks the message of a system without Rhino")
def test_install_without_rhino_asks_for_a_destination(capsys):
    assert install.main([]) == 2
    assert "pass --dest" in capsys.readouterr().err


def test_icons_are_drawn_by_the_script(tmp_path):
    """The committed icons are what gh_components/tools/draw_icons.py draws (pixel for pixel)."""
    for folder in FOLDERS:
        (tmp_path / folder).mkdir()
    assert tool("draw_icons").main(["--out", str(tmp_path)]) == 0
    for folder in FOLDERS:
        drawn, committed = (Image.open(d / folder / "icon.png") for d in (tmp_path, GH / "components"))
        assert drawn.size == committed.size == (24, 24)
        assert drawn.convert("RGBA").tobytes() == committed.convert("RGBA").tobytes(), folder
