"""Assemble the Extrados component folders into the layout the GHPython componentizer builds from.

The componentizer (github.com/compas-dev/compas-actions.ghpython_components) turns a folder of
component folders (``code.py``, ``metadata.json``, ``icon.png`` each) into ``.ghuser`` files. It
needs Grasshopper's ``GH_IO.dll`` and IronPython or pythonnet, so it runs on Windows (a GitHub
Actions ``windows-latest`` runner, or a machine with Rhino), not in this project's CI. This script
does the part that needs neither: it checks every folder and writes::

    TARGET/ipy/<Folder>/      for componentize_ipy.py (Rhino 7, and Rhino 8's IronPython)
    TARGET/cpy/<Folder>/      for componentize_cpy.py (Rhino 8's Python 3)
    TARGET/extrados_gh/       the package the components import: copy it onto Rhino's script path
                              (gh_components/tools/install.py does)

Both interpreters get the same ``code.py``: the components are written once, in the syntax
Python 2.7 and 3 share. Then, on the Windows machine::

    ipy componentize_ipy.py TARGET/ipy TARGET/ghuser/ipy --version 0.1.0
    python componentize_cpy.py TARGET/cpy TARGET/ghuser/cpy --version 0.1.0

Usage::

    .venv/bin/python gh_components/tools/componentize.py [TARGET] [--prefix "(Extrados)"]
"""
import argparse
import json
import shutil
import struct
import sys
from pathlib import Path

GH = Path(__file__).resolve().parents[1]
COMPONENTS = GH / "components"
PACKAGE = GH / "extrados_gh"
FILES = ("code.py", "metadata.json", "icon.png")
INTERPRETERS = ("ipy", "cpy")
#: The metadata keys the componentizer needs (its README's "Metadata" section).
REQUIRED_KEYS = ("name", "nickname", "category", "subcategory", "ghpython")
ICON_SIZE = (24, 24)


class LayoutError(ValueError):
    """A component folder the componentizer could not build; the message names it."""


def png_size(path):
    """(width, height) of a PNG from its IHDR chunk."""
    with open(path, "rb") as f:
        header = f.read(24)
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        raise LayoutError(f"{path}: not a PNG file")
    return struct.unpack(">II", header[16:24])


def checked_folder(folder):
    """The folder's metadata, after checking its three files; LayoutError naming what is wrong."""
    missing = [name for name in FILES if not (folder / name).is_file()]
    if missing:
        raise LayoutError(f"{folder.name}: missing {', '.join(missing)}")
    try:
        metadata = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise LayoutError(f"{folder.name}/metadata.json: {error}") from error
    absent = [key for key in REQUIRED_KEYS if key not in metadata]
    if absent:
        raise LayoutError(f"{folder.name}/metadata.json: missing {', '.join(absent)}")
    if png_size(folder / "icon.png") != ICON_SIZE:
        raise LayoutError(f"{folder.name}/icon.png: must be 24 x 24 px, is {png_size(folder / 'icon.png')}")
    if "def RunScript(" not in (folder / "code.py").read_text(encoding="utf-8"):
        raise LayoutError(f"{folder.name}/code.py: no RunScript method")
    return metadata


def component_folders(source=COMPONENTS):
    """The component folders under ``source``, each checked, sorted by name."""
    folders = sorted(p for p in source.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    if not folders:
        raise LayoutError(f"{source}: no component folders")
    for folder in folders:
        checked_folder(folder)
    return folders


def assemble(target, prefix=None, source=COMPONENTS):
    """Write the componentizer's source layout under ``target`` (replacing what was there).

    Parameters
    ----------
    target : Path
    prefix : str, optional
        Put before every component's name, to tell it apart from others of the same name.

    Returns
    -------
    list of Path
        The component folders written, for both interpreters.
    """
    folders = component_folders(source)
    written = []
    for interpreter in INTERPRETERS:
        root = target / interpreter
        if root.exists():
            shutil.rmtree(root)
        for folder in folders:
            out = root / folder.name
            out.mkdir(parents=True)
            for name in ("code.py", "icon.png"):
                shutil.copyfile(folder / name, out / name)
            metadata = checked_folder(folder)
            if prefix:
                metadata["name"] = f"{prefix} {metadata['name']}"
            (out / "metadata.json").write_text(json.dumps(metadata, indent=4) + "\n", encoding="utf-8")
            written.append(out)
    package = target / "extrados_gh"
    if package.exists():
        shutil.rmtree(package)
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", nargs="?", default="build/gh", help="where to write the layout (build/gh)")
    parser.add_argument("--prefix", help='put before every component name, e.g. "(Extrados)"')
    args = parser.parse_args(argv)
    target = Path(args.target)
    try:
        written = assemble(target, args.prefix)
    except LayoutError as error:
        print(f"componentize: {error}", file=sys.stderr)
        return 2
    count = len(written) // len(INTERPRETERS)
    print(f"{count} components for each of {', '.join(INTERPRETERS)} under {target}/, the package in "
          f"{target / 'extrados_gh'}/")
    print("build the .ghuser files on Windows (Grasshopper's GH_IO.dll needed):")
    print(f"  ipy componentize_ipy.py {target / 'ipy'} {target / 'ghuser' / 'ipy'}")
    print(f"  python componentize_cpy.py {target / 'cpy'} {target / 'ghuser' / 'cpy'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
